"""Where episodes (and task validations) run: threads of this process, or Ray actors.

A backend runs jobs on workers that each hold a service pool: a job is a picklable function called
there as `fn(pool, stop, *args)`, where `stop` is set when the run is stopped. The caller keeps the
queue, the retries and whatever it writes, on its own thread, through `drain`; a backend only
submits a job and hands back a future of what it returned. A job whose worker died (a killed Ray
worker process, a lost node) fails with `WorkerLost`, for the caller to record or retry.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from stageclaw.errors import ServiceError, StageclawError
from stageclaw.world.pool import ServicePool

BACKENDS = ("local", "ray")
STOP_GRACE_S = 10.0  # how long a stopped run waits for its running jobs to end before it leaves them
T = TypeVar("T")

# A cluster that stageclaw starts itself serves only this machine: Ray's single-machine mode binds every
# server to loopback, which is also why token auth can be off; no usage report leaves the machine.
# Ray reads these when it is imported.
LOCAL_RAY_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
}


class WorkerLost(ServiceError):
    """The worker running a job died or became unreachable before the job returned."""


class Backend(Protocol):
    workers: int  # jobs that run at once

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Run `fn(pool, stop, *args)` on a free worker; call only while fewer than `workers` jobs run."""
        ...

    def stop(self) -> None:
        """Tell the running jobs to stop (agents' tool calls fail, LLM loops and agent programs end)."""
        ...


class LocalBackend:
    """`workers` threads of this process over one service pool (each episode has its own accounts)."""

    def __init__(self, pool: ServicePool, executor: ThreadPoolExecutor, workers: int) -> None:
        self.workers = workers
        self._pool = pool
        self._executor = executor
        self._stop = threading.Event()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        return self._executor.submit(fn, self._pool, self._stop, *args)

    def stop(self) -> None:
        self._stop.set()


@contextmanager
def open_backend(
    kind: str, workers: int, address: str | None = None, pool: ServicePool | None = None
) -> Iterator[Backend]:
    """A started backend, stopped on leaving: `local` (over `pool` when given) or `ray` (a local
    cluster of its own, or the cluster at `address`); every server and worker it started is gone after."""
    workers = max(1, workers)
    if kind == "local":
        with ExitStack() as stack:
            own = pool or stack.enter_context(ServicePool())
            executor = ThreadPoolExecutor(workers, thread_name_prefix="episode")
            try:
                yield LocalBackend(own, executor, workers)
            except BaseException:
                # Interrupted: do not wait for an episode that will not stop (it is dropped); the pool stops.
                executor.shutdown(wait=False, cancel_futures=True)
                raise
            executor.shutdown()
        return
    if kind != "ray":
        raise StageclawError(f"unknown backend {kind!r}; backends are: {', '.join(BACKENDS)}")
    backend = _ray_backend(address).RayBackend(workers, address)
    try:
        yield backend
    finally:
        backend.close()


def connect_ray(address: str | None = None) -> None:
    """Connect this process to Ray as the ray backend does: to the cluster at `address`, or to a local
    one of its own. Ray backends opened after reuse the connection (a test's or a benchmark's cluster
    for several runs); `ray.shutdown()` ends it."""
    _ray_backend(address).connect(address)


def _ray_backend(address: str | None) -> ModuleType:
    if address is None:
        for name, value in LOCAL_RAY_ENV.items():
            os.environ.setdefault(name, value)
    try:
        from stageclaw.run import ray_backend
    except ModuleNotFoundError as exc:
        if exc.name != "ray":
            raise
        raise StageclawError("the ray backend needs Ray: pip install 'stageclaw[ray]'") from None
    return ray_backend


@dataclass(frozen=True)
class Job(Generic[T]):
    fn: Callable[..., T]
    args: tuple[Any, ...]
    attempt: int = 1

    def again(self) -> Job[T]:
        return replace(self, attempt=self.attempt + 1)


def drain(backend: Backend, jobs: Iterable[Job[T]], finished: Callable[[Job[T], Future[T]], Job[T] | None]) -> None:
    """Keep every worker busy until no job is left.

    `finished` gets each job with its done future, on this thread, as they end, and may return a job
    to run again (it runs next). On any exception here (Ctrl-C, SIGTERM, an error in
    `finished`) the running jobs are told to stop and awaited for at most `STOP_GRACE_S`, their results
    dropped, and it is re-raised.
    """
    queue = deque(jobs)
    running: dict[Future[T], Job[T]] = {}
    try:
        while queue or running:
            while queue and len(running) < backend.workers:
                job = queue.popleft()
                running[backend.submit(job.fn, *job.args)] = job
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                retry = finished(running.pop(fut), fut)
                if retry is not None:
                    queue.appendleft(retry)
    except BaseException:
        backend.stop()
        wait(running, timeout=STOP_GRACE_S)
        raise


class Portable(Generic[T]):
    """A callable made from a picklable recipe (a class and its arguments) and made again in each process
    it is sent to: an LLM judge or reviewer holds an HTTP client, which cannot be pickled."""

    def __init__(self, make: Callable[[], Callable[..., T]]) -> None:
        self.make = make
        self._made = make()  # here as well, so that bad settings fail before any job starts

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        return self._made(*args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Portable, (self.make,))
