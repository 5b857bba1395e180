"""The Inspect tasks: `stageclaw/stage40`, `stageclaw/examples` and `stageclaw/benchmark` (any folder).

Every task takes the same options (`-T name=value`): `ids` (task ids, comma-separated), `judge` and
`judge_base_url` (an LLM judge for judge items), `max_steps` and `time_budget_s` (override the tasks'
budgets), `faults` (a fault plan file).
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, task

from stageclaw.inspect.dataset import samples
from stageclaw.inspect.scorer import stageclaw_grade
from stageclaw.inspect.solver import stageclaw_agent
from stageclaw.task.bundled import benchmark_dir


def stageclaw_task(
    path: Path,
    ids: str | list[str] | None = None,
    judge: str | None = None,
    judge_base_url: str | None = None,
    max_steps: int | None = None,
    time_budget_s: float | None = None,
    faults: str | None = None,
) -> Task:
    """An Inspect task over the task folders under `path`."""
    return Task(
        dataset=samples(path, ids),
        solver=stageclaw_agent(max_steps=max_steps, time_budget_s=time_budget_s, faults=faults),
        scorer=stageclaw_grade(judge=judge, judge_base_url=judge_base_url),
    )


@task
def stage40(
    ids: str | list[str] | None = None,
    judge: str | None = None,
    judge_base_url: str | None = None,
    max_steps: int | None = None,
    time_budget_s: float | None = None,
    faults: str | None = None,
) -> Task:
    """The stageclaw benchmark: 40 personal-assistant tasks on real mail, calendar, files and web apps."""
    return stageclaw_task(benchmark_dir("stage40"), ids, judge, judge_base_url, max_steps, time_budget_s, faults)


@task
def examples(
    ids: str | list[str] | None = None,
    judge: str | None = None,
    judge_base_url: str | None = None,
    max_steps: int | None = None,
    time_budget_s: float | None = None,
    faults: str | None = None,
) -> Task:
    """stageclaw's example tasks (tasks/examples)."""
    return stageclaw_task(benchmark_dir("examples"), ids, judge, judge_base_url, max_steps, time_budget_s, faults)


@task
def benchmark(
    path: str,
    ids: str | list[str] | None = None,
    judge: str | None = None,
    judge_base_url: str | None = None,
    max_steps: int | None = None,
    time_budget_s: float | None = None,
    faults: str | None = None,
) -> Task:
    """The stageclaw task folders under `path` (a task folder, or a folder of them)."""
    return stageclaw_task(Path(path), ids, judge, judge_base_url, max_steps, time_budget_s, faults)
