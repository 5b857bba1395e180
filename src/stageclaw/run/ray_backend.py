"""The Ray backend: jobs on Ray actors, each a worker process with a service pool of its own.

One actor per worker runs one job at a time; the driver keeps the queue, the retries and the one
result writer (see `backend.drain`). Jobs carry the loaded task, and workers read its folder (assets,
verifier, reference solution) and write the episode folder at the paths the driver uses: on a cluster
of several machines, task folders and the run directory must be on a filesystem shared at the same
paths, with the same stageclaw installed and the same environment (provider keys, STAGECLAW_TMP).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import ray
from ray.actor import ActorHandle
from ray.exceptions import RayError, RayTaskError

from stageclaw.errors import ServiceError
from stageclaw.run.backend import WorkerLost
from stageclaw.world.pool import ServicePool

T = TypeVar("T")
CLOSE_TIMEOUT_S = 15.0


@ray.remote(concurrency_groups={"control": 1})
class PoolWorker:
    """One service pool and one job at a time; `stop` and `close` answer while a job runs."""

    def __init__(self) -> None:
        self.stop_event = threading.Event()
        self._closing = threading.Event()
        started: Future[ServicePool] = Future()
        # The servers die with the thread that started them (PDEATHSIG), and Ray runs methods on threads
        # of its own: this thread owns the pool and lives as long as the actor's process.
        self._owner = threading.Thread(target=self._own_pool, args=(started,), name="stageclaw-pool", daemon=True)
        self._owner.start()
        self.pool = started.result()

    def _own_pool(self, started: Future[ServicePool]) -> None:
        try:
            pool = ServicePool().start()
        except BaseException as exc:
            started.set_exception(exc)
            return
        started.set_result(pool)
        self._closing.wait()
        pool.stop()

    def ready(self) -> None:
        """Answers once the pool is up."""

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        return fn(self.pool, self.stop_event, *args)

    @ray.method(concurrency_group="control")
    def stop(self) -> None:
        self.stop_event.set()

    @ray.method(concurrency_group="control")
    def close(self) -> None:
        """Stop the pool's servers and remove its folder (killing the process would leave the folder)."""
        self._closing.set()
        self._owner.join()


@dataclass
class _Slot:
    actor: ActorHandle
    lost: bool = False


class RayBackend:
    """`workers` PoolWorker actors on the Ray cluster this process is connected to, or on one it starts:
    a local cluster (`address` None), or the one at `address`."""

    def __init__(self, workers: int, address: str | None) -> None:
        self.workers = workers
        self._slots: list[_Slot] = []
        self._lock = threading.Lock()
        # A connection made before (a notebook's, a test's) is the caller's to end.
        self._owns_connection = not ray.is_initialized()
        if self._owns_connection:
            connect(address)
        try:
            cpus = ray.cluster_resources().get("CPU", 1.0)
            # Ray's CPUs place actors, they do not limit them, and an episode mostly waits on the model and the
            # servers: the workers share the cluster's CPUs (8 fit on 2 cores), a whole one at most each.
            # Ray counts resources in steps of 1/10000; rounding up could leave the last actor unplaced.
            share = min(1.0, math.floor(cpus / workers * 10_000) / 10_000)
            self._actor = PoolWorker.options(num_cpus=share)
            self._slots = [_Slot(self._actor.remote()) for _ in range(workers)]
            self._idle = list(self._slots)
            try:
                ray.get([slot.actor.ready.remote() for slot in self._slots])
            except RayError as exc:
                raise ServiceError(f"the Ray workers did not start: {_one_line(exc)}") from None
        except BaseException:
            self.close()
            raise

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        with self._lock:
            slot = self._idle.pop()
        if slot.lost:
            # It may only be unreachable: it must not go on writing the folder of an episode run again elsewhere.
            ray.kill(slot.actor)
            slot.actor, slot.lost = self._actor.remote(), False
        done: Future[T] = Future()
        slot.actor.call.remote(fn, *args).future().add_done_callback(partial(self._returned, slot, done))
        return done

    def _returned(self, slot: _Slot, done: Future[T], ray_future: Future[T]) -> None:
        error: BaseException | None = None
        try:
            result = ray_future.result()
        except RayTaskError as exc:  # the job raised (it is also an instance of what was raised)
            error = exc
        except RayError as exc:  # the worker process or its node died, or cannot be reached
            slot.lost = True
            error = WorkerLost(f"the Ray worker running it was lost: {_one_line(exc)}")
        # The slot is free before the driver learns of the result, which it may answer with a submit.
        with self._lock:
            self._idle.append(slot)
        if error is None:
            done.set_result(result)
        else:
            done.set_exception(error)

    def stop(self) -> None:
        for slot in self._slots:
            slot.actor.stop.remote()

    def close(self) -> None:
        """Stop every pool, end every actor, and the cluster when this backend started it."""
        try:
            if self._slots:
                closing = [slot.actor.close.remote() for slot in self._slots]
                ray.wait(closing, num_returns=len(closing), timeout=CLOSE_TIMEOUT_S)
        finally:
            for slot in self._slots:
                ray.kill(slot.actor)
            if self._owns_connection:
                ray.shutdown()


def connect(address: str | None) -> None:
    """Join the cluster at `address`, or start a local one for this process (see `backend.LOCAL_RAY_ENV`).

    Quietly: no dashboard, warnings only, and the workers' output stays in the cluster's log folder.
    """
    ray.init(address=address or "local", include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)


def _one_line(exc: BaseException, limit: int = 300) -> str:
    return " ".join(str(exc).split())[:limit]
