"""Task folders as Inspect samples: the prompt is the input; the rest of the task stays on disk."""

from __future__ import annotations

import warnings
from functools import lru_cache
from pathlib import Path

from inspect_ai.dataset import Sample
from inspect_ai.solver import TaskState

from stageclaw.errors import StageclawError
from stageclaw.task.loader import Task, load_task, load_tasks


def samples(path: Path, ids: str | list[str] | None = None) -> list[Sample]:
    """One sample per task folder under `path` (only those in `ids`, a list or comma-separated names).

    The model sees the input alone. The metadata (for logs and the scorer, never the model) names the task
    folder, so the solver and scorer read the world, rubric and verifier from there.
    """
    tasks, errors = load_tasks(path)
    for folder, message in errors.items():
        warnings.warn(f"skipping broken task {folder}: {message}", stacklevel=2)
    if ids is not None:
        wanted = [i.strip() for i in ids.split(",")] if isinstance(ids, str) else list(ids)
        unknown = sorted(set(wanted) - {t.id for t in tasks})
        if unknown:
            raise StageclawError(f"no task {', '.join(unknown)} under {path}")
        tasks = [t for t in tasks if t.id in wanted]
    if not tasks:
        raise StageclawError(f"no loadable task under {path}")
    return [
        Sample(
            id=t.id,
            input=t.prompt,
            metadata={
                "task_dir": str(t.dir.resolve()),
                "group": t.config.group,
                "operators": t.config.operators,
                "task_hash": t.digest,
            },
        )
        for t in tasks
    ]


@lru_cache(maxsize=256)
def _load(task_dir: str) -> Task:
    return load_task(Path(task_dir))


def task_of(state: TaskState) -> Task:
    """The stageclaw task of a sample (loaded once per process)."""
    return _load(state.metadata["task_dir"])
