"""What a reviewer needs to judge one task, gathered from the task folder and its stage-2 report folder.

The report folder is what `stageclaw validate --out DIR` writes for the task: `validation.json` (the
mutants, the alternatives, the difficulty evidence, the realism findings) and `oracle/` (the reference
solution's episode: its trajectory, s0 and sH). Playtests come from the suite's `playtests.jsonl`.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw.errors import StageclawError
from stageclaw.task.loader import PLAYTESTS, Task
from stageclaw.task.review import ReviewStatus, review_status
from stageclaw.world.diff import diff
from stageclaw.world.state import normalize

CATEGORIES = ("own_mistake", "over_strict", "ambiguous", "tool_bug")


@dataclass
class Item:
    """A rubric item with the code that decides it."""

    id: str
    description: str
    weight: float
    critical: bool
    kind: str  # check or judge
    stage: str
    source: str  # the check function and the helpers it calls, or the judge's criterion


@dataclass
class TaskView:
    task: Task
    report: dict[str, Any]
    world: dict[str, Any]  # the initial state, app by app
    rubric: list[Item]
    trajectory: list[dict[str, Any]]
    changes: list[dict[str, Any]]
    review: ReviewStatus
    playtests: list[dict[str, Any]] = field(default_factory=list)

    def check(self, dimension: str, name: str) -> dict[str, Any] | None:
        checks = ((self.report.get("dimensions") or {}).get(dimension) or {}).get("checks") or []
        return next((c for c in checks if c["name"] == name), None)


def verifier_sources(task: Task) -> dict[str, str]:
    """check function name -> its source and the sources of the functions of verify.py it calls (once each)."""
    text = task.verify_py.read_text(encoding="utf-8")
    tree = ast.parse(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def closure(name: str, seen: list[str]) -> list[str]:
        if name in seen or name not in defs:
            return seen
        seen.append(name)
        for node in ast.walk(defs[name]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                closure(node.func.id, seen)
        return seen

    return {
        check: "\n\n".join(ast.get_source_segment(text, defs[n]) or "" for n in closure(check, []))
        for check in task.rubric.checks
        if check in defs
    }


def rubric(task: Task) -> list[Item]:
    sources = verifier_sources(task)
    return [
        Item(
            i.id,
            i.description,
            i.weight,
            i.critical,
            "check" if i.check else "judge",
            i.stage,
            sources.get(i.check, f"{i.check} is not defined in verify.py") if i.check else f"judge: {i.judge}",
        )
        for i in task.rubric.items
    ]


def read_playtests(suite: Path, task_id: str) -> list[dict[str, Any]]:
    """The plays of `task_id` in the suite's playtests.jsonl (one JSON object a line)."""
    path = suite / PLAYTESTS
    if not path.is_file():
        return []
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            play = json.loads(line)
        except json.JSONDecodeError as exc:
            raise StageclawError(f"{path}:{n}: not a JSON line ({exc.msg})") from None
        bad = [f.get("category") for f in play.get("failures") or [] if f.get("category") not in CATEGORIES]
        if bad:
            raise StageclawError(f"{path}:{n}: failure categories {bad}; use {', '.join(CATEGORIES)}")
        if play.get("task_id") == task_id:
            out.append(play)
    return out


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def task_view(task: Task, report_dir: Path) -> TaskView:
    """The view of `task` from its stage-2 report folder (`<validate --out>/<task-id>/`)."""
    report = _json(report_dir / "validation.json") or {}
    oracle = report_dir / "oracle"
    trajectory = (_json(oracle / "trajectory.json") or {}).get("steps") or []
    s0, sH = _json(oracle / "s0.json"), _json(oracle / "sH.json")
    changes = diff(s0, sH) if s0 is not None and sH is not None else []
    return TaskView(
        task,
        report,
        normalize(task.world, task.dir),
        rubric(task),
        trajectory,
        changes,
        review_status(task.dir),
        read_playtests(task.dir.parent, task.id),
    )
