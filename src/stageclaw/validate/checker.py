"""The checker: every dimension of a task, its score and verdict, the report files.

A task that does not load still gets a report: structure says why, reproducibility runs when
its world loads, and the dimensions that need the task are `blocked`.
"""

from __future__ import annotations

import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from stageclaw import __version__
from stageclaw.errors import ServiceError, StageclawError, one_line
from stageclaw.run.backend import Job, drain, open_backend
from stageclaw.run.store import write_json
from stageclaw.task.loader import Task, find_task_dirs, task_digest
from stageclaw.task.review import review_status
from stageclaw.validate.alternatives import run_alternatives, sensitivity
from stageclaw.validate.difficulty import check_difficulty
from stageclaw.validate.llm_check import not_configured
from stageclaw.validate.oracle import run_oracle
from stageclaw.validate.report import DEFAULT_THRESHOLD, FAIL, Check, Dimension, Report, blocked, write_report
from stageclaw.validate.reproducibility import check_reproducibility
from stageclaw.validate.structure import check_structure
from stageclaw.validate.verifiability import MAX_MUTANTS, check_verifiability
from stageclaw.world.pool import ServicePool

Reviewer = Callable[[Task], Check]
LOST_RETRIES = 2  # a task whose worker or servers died is checked again, this many times
T = TypeVar("T")


@contextmanager
def _episode_dir(out: Path | None, task_id: str) -> Iterator[Path]:
    """Where the oracle's episode goes: kept under `out` as evidence, else thrown away."""
    if out is not None:
        yield out / task_id / "oracle"
        return
    with tempfile.TemporaryDirectory(prefix="stageclaw-validate-") as scratch:
        yield Path(scratch) / "oracle"


class Stopped(Exception):
    """The command was interrupted: this task's checks were abandoned, and it gets no report."""


def _crashed(name: str, task_dir: Path, exc: Exception) -> Dimension:
    """A dimension whose checks broke on this task: the task fails it, the other tasks go on."""
    why = f"{task_dir}: checking {name} failed: {one_line(exc)}"
    return Dimension(name, [Check("crashed", FAIL, why, None, "fix what the message names in the task")])


def validate_task(
    task_dir: Path,
    pool: ServicePool,
    *,
    out: Path | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    reviewer: Reviewer | None = None,
    max_mutants: int = MAX_MUTANTS,
    stop: threading.Event | None = None,
) -> Report:
    """Check one task folder on `pool`; write its report under `out/<task-id>/` when `out` is given.

    A check that breaks on the task (anything but a server failure) fails its dimension with the
    reason; `stop` (set on Ctrl-C) abandons the task between checks with `Stopped`, and ends the
    reference solution's run at once: task code may loop until its time budget.
    """
    task_dir = Path(task_dir)
    started = time.perf_counter()
    timings: dict[str, float] = {}

    def timed(name: str, run: Callable[[], T]) -> T:
        if stop is not None and stop.is_set():
            raise Stopped(str(task_dir))
        begun = time.perf_counter()
        try:
            return run()
        finally:
            timings[name] = round(time.perf_counter() - begun, 3)

    def guarded(name: str, run: Callable[[], Dimension]) -> Dimension:
        try:
            return timed(name, run)
        except (ServiceError, Stopped):
            raise
        except Exception as exc:
            return _crashed(name, task_dir, exc)

    task: Task | None = None
    loaded = False
    try:
        structure, task, loaded = timed("structure", lambda: check_structure(task_dir))
    except (ServiceError, Stopped):
        raise
    except Exception as exc:
        structure = _crashed("structure", task_dir, exc)
    reproducibility = guarded("reproducibility", lambda: check_reproducibility(task_dir, pool))
    task_id = task.id if task else task_dir.name
    mutation = alternatives = None
    if task is None:
        why = "the task does not load (see structure)"
        verifiability, difficulty = blocked("verifiability", why), blocked("difficulty", why)
    else:
        checked_task = task
        with _episode_dir(out, task_id) as ep_dir:
            oracle = timed("oracle", lambda: run_oracle(checked_task, pool, ep_dir, stop=stop))
            runs = timed(
                "alternatives", lambda: run_alternatives(checked_task, pool, ep_dir.parent / "alternatives", stop)
            )
            try:
                verifiability, mutation = timed(
                    "verifiability", lambda: check_verifiability(checked_task, oracle, max_mutants, runs)
                )
            except (ServiceError, Stopped):
                raise
            except Exception as exc:
                verifiability = _crashed("verifiability", task_dir, exc)
            alternatives = sensitivity(runs)[1]
            difficulty = guarded("difficulty", lambda: check_difficulty(checked_task, oracle))
    review = reviewer(task) if reviewer is not None and task is not None else not_configured()
    report = Report(
        task_id=task_id,
        task_dir=str(task_dir),
        dimensions={d.name: d for d in (structure, reproducibility, verifiability, difficulty)},
        threshold=threshold,
        mutation=mutation,
        alternatives=alternatives,
        llm_review=review,
        human_review=_human_review(task_dir),
        review_required=_review_required(task_dir),
        task_hash=task.digest if task else _digest(task_dir),
        loaded=loaded,
        stageclaw_version=__version__,
        wall_s=round(time.perf_counter() - started, 3),
        timings=timings,
    )
    if out is not None:
        write_report(report, out / task_id)
    return report


def _digest(task_dir: Path) -> str:
    try:
        return task_digest(task_dir) if task_dir.is_dir() else ""
    except OSError:
        return ""


def validate_path(
    path: Path,
    pool: ServicePool | None = None,
    *,
    out: Path | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    reviewer: Reviewer | None = None,
    max_mutants: int = MAX_MUTANTS,
    on_report: Callable[[Report], None] | None = None,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> list[Report]:
    """Check a task folder or every task below a folder, `workers` at a time on `backend` (`pool` is for
    the local one); `out/summary.json` lists the verdicts. With the ray backend, `reviewer` is sent to
    the workers: wrap an LLM reviewer in `run.backend.Portable`."""
    dirs = find_task_dirs(Path(path))
    reports: dict[Path, Report] = {}

    def finished(job: Job[Report], fut: Future[Report]) -> Job[Report] | None:
        try:
            report = fut.result()
        except ServiceError as exc:  # a worker or a server died: check the task again, on a healed pool
            if job.attempt <= LOST_RETRIES:
                return job.again()
            why = f"the servers failed {job.attempt} times while checking it: {one_line(exc)}"
            report = unchecked(job.args[0], why, threshold)
        reports[job.args[0]] = report
        if on_report is not None:
            on_report(report)
        return None

    jobs = [Job(_validate, (d, out, threshold, reviewer, max_mutants)) for d in dirs]
    if jobs:
        with open_backend(backend, workers, address, pool) as runner:
            drain(runner, jobs, finished)
    ordered = [reports[d] for d in dirs]
    if out is not None:
        write_json(out / "summary.json", summary(ordered))
    return ordered


def _validate(
    pool: ServicePool,
    stop: threading.Event,
    task_dir: Path,
    out: Path | None,
    threshold: float,
    reviewer: Reviewer | None,
    max_mutants: int,
) -> Report:
    pool.heal()
    return validate_task(
        task_dir, pool, out=out, threshold=threshold, reviewer=reviewer, max_mutants=max_mutants, stop=stop
    )


def unchecked(task_dir: Path, why: str, threshold: float) -> Report:
    """The report of a task that could not be checked at all: every dimension blocked, with the reason."""
    dims = {name: blocked(name, why) for name in ("structure", "reproducibility", "verifiability", "difficulty")}
    review = not_configured()
    return Report(task_dir.name, str(task_dir), dims, threshold, llm_review=review, task_hash=_digest(task_dir))


def _human_review(task_dir: Path) -> dict[str, object] | None:
    if not task_dir.is_dir():
        return None
    try:
        return review_status(task_dir).to_json()
    except StageclawError as exc:  # a broken review.toml is reported, not a reason to stop validating
        return {"status": "invalid", "error": str(exc)}


def _review_required(task_dir: Path) -> bool:
    """Whether the suite the task belongs to (a suite.toml beside it) requires accepted reviews."""
    manifest = task_dir.parent / "suite.toml"
    try:
        return bool(tomllib.loads(manifest.read_text(encoding="utf-8")).get("rules", {}).get("require_review"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False  # no suite, or one `generate --suite` reports on


def summary(reports: list[Report]) -> dict[str, object]:
    return {
        "tasks": len(reports),
        "accepted": sum(1 for r in reports if r.accepted),
        "rejected": [r.task_id for r in reports if not r.accepted],
        "results": [
            {
                "task_id": r.task_id,
                "score": r.score,
                "accepted": r.accepted,
                "kill_rate": r.kill_rate,
                "sensitivity": r.sensitivity,
                "review": (r.human_review or {}).get("status"),
                **{name: d.status for name, d in r.dimensions.items()},
                "wall_s": r.wall_s,
            }
            for r in reports
        ],
    }
