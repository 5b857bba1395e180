"""Rubric scoring on the final state (DESIGN "Scoring").

score = 100 x (weight of passed check items) / (weight of check items); success = every check item
passed, including the implicit critical item `no_collateral_damage`. Both come from the executable
verifier alone, so they do not depend on whether a judge is configured. Judge items form a separate
`quality` figure (the same formula over the judge items a judge decided), None without a judge; a
judge item with no judge, or whose judge failed, is unscored, never 0.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from stageclaw.grade.collateral import collateral
from stageclaw.task.loader import Task
from stageclaw.task.verifier import run_checks
from stageclaw.world.diff import Change, diff

COLLATERAL_ITEM = "no_collateral_damage"


class Judge(Protocol):
    def __call__(
        self, task: Task, criterion: str, s0: dict[str, Any], sH: dict[str, Any], trace: dict[str, Any]
    ) -> tuple[bool | None, str]:
        """(passed, reason); passed None when the judge could not decide."""


@dataclass
class ItemResult:
    id: str
    description: str
    weight: float
    critical: bool
    kind: str
    passed: bool | None
    reason: str = ""
    stage: str = ""
    defect: str | None = None


@dataclass
class Grade:
    items: list[ItemResult]
    collateral: list[Change]
    changes: list[Change]
    score: float
    success: bool
    defects: list[str] = field(default_factory=list)
    quality: float | None = None

    @property
    def defective(self) -> bool:
        return bool(self.defects)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "defective": self.defective}


def _summarize(change: Change) -> dict[str, Any]:
    return {"op": change["op"], "path": change["path"]}


def grade(
    task: Task,
    s0: dict[str, Any],
    sH: dict[str, Any],
    trace: dict[str, Any],
    judge: Judge | None = None,
    *,
    check_timeout_s: float = 10.0,
) -> Grade:
    checks = run_checks(task.verify_py, task.rubric.checks, s0, sH, trace, per_check_s=check_timeout_s)
    items = []
    for item in task.rubric.items:
        base = {
            "id": item.id,
            "description": item.description,
            "weight": item.weight,
            "critical": item.critical,
            "stage": item.stage,
        }
        if item.check is not None:
            result = checks[item.check]
            items.append(
                ItemResult(
                    **base,
                    kind="check",
                    passed=result.passed,
                    reason=result.reason or (result.defect or ""),
                    defect=result.defect,
                )
            )
        elif judge is None:
            items.append(ItemResult(**base, kind="judge", passed=None, reason="no judge configured: unscored"))
        else:
            passed, reason = judge(task, item.judge or "", s0, sH, trace)
            items.append(ItemResult(**base, kind="judge", passed=passed, reason=reason))
    changes = diff(s0, sH)
    bad = collateral(changes, task.rubric.changes.allow)
    items.append(
        ItemResult(
            id=COLLATERAL_ITEM,
            description="Nothing changed that the task did not call for",
            weight=1,
            critical=True,
            kind="collateral",
            passed=not bad,
            reason="; ".join(f"{c['op']} {c['path']}" for c in bad[:10])
            + (f" (+{len(bad) - 10} more)" if len(bad) > 10 else ""),
            stage="side effects",
        )
    )
    checked = [i for i in items if i.kind != "judge"]
    judged = [i for i in items if i.kind == "judge" and i.passed is not None]
    defects = [f"{i.id}: {i.defect}" for i in items if i.defect]
    score = _percent(checked) or 0.0
    success = all(i.passed for i in checked)
    return Grade(items, [_summarize(c) for c in bad], changes, score, success, defects, _percent(judged))


def _percent(items: list[ItemResult]) -> float | None:
    """100 x the weight of the passed items over the weight of all of them; None for no weight."""
    total = sum(i.weight for i in items)
    return round(100 * sum(i.weight for i in items if i.passed) / total, 2) if total else None
