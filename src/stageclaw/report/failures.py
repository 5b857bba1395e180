"""The failure taxonomy: one primary mode per failed episode, from its trajectory, grade and states.

Every mode that applies is listed (`modes`, in the order below); the primary one (`mode`) is the
first of them, with one refinement for the rubric-based modes (see `classify`):

1. `infrastructure`: a server or the provider failed (status `infra_error`); never scored.
2. `task_defect`: the task's verifier is broken (the grade lists defects); not the agent's fault.
3. `budget_exhausted`: steps, time, tokens or money ran out (`max_steps`, `timeout`, `budget_exhausted`).
4. `agent_error`: the agent program failed or the provider refused the request.
5. `claimed_unchanged`: the agent finished and answered, but changed nothing (reading mail aside).
6. `tool_misuse`: an unknown tool or invalid arguments, never recovered (see `calls`).
7. `unrecovered_tool_error`: another failed tool call, never recovered.
8. `wrong_entity`: the agent changed other items than the ones a failed check looks at.
9. `wrong_value`: it changed the right item, but the check still fails (a wrong field value).
10. `incomplete`: it stopped early: a failed check's items (or apps) were never changed.
11. `collateral_damage`: everything asked for was right, but something else changed too.

Modes 8-10 are the verdicts of the failed rubric items (`diagnostics`); the primary one is taken
from the failed critical items (all failed items when none is critical), `wrong_entity` before
`wrong_value` before `incomplete`. `collateral_damage` is primary only when no other item failed.
results.jsonl's own `failure_mode` (a coarser classification made during the run) is kept as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stageclaw.agents.base import AGENT_ERROR, BUDGET_EXHAUSTED, COMPLETED, INFRA_ERROR, MAX_STEPS, TIMEOUT
from stageclaw.report.calls import CallStats, analyze
from stageclaw.report.diagnostics import EntityIndex, ItemDiagnosis, diagnose, effective

MODES = (
    "infrastructure",
    "task_defect",
    "budget_exhausted",
    "agent_error",
    "claimed_unchanged",
    "tool_misuse",
    "unrecovered_tool_error",
    "wrong_entity",
    "wrong_value",
    "incomplete",
    "collateral_damage",
)
LABELS = {
    "infrastructure": "infrastructure",
    "task_defect": "task defect",
    "budget_exhausted": "budget exhausted",
    "agent_error": "agent error",
    "claimed_unchanged": "claimed done, nothing changed",
    "tool_misuse": "tool misuse",
    "unrecovered_tool_error": "unrecovered tool error",
    "wrong_entity": "wrong entity",
    "wrong_value": "wrong value",
    "incomplete": "incomplete",
    "collateral_damage": "collateral damage",
}
DESCRIPTIONS = {
    "infrastructure": "a server or the provider failed; retried, never scored",
    "task_defect": "the task's verifier is broken; not the agent's fault",
    "budget_exhausted": "steps, time, tokens or money ran out",
    "agent_error": "the agent program failed or the provider refused the request",
    "claimed_unchanged": "the agent said it was done but changed nothing",
    "tool_misuse": "an unknown tool or invalid arguments, never recovered",
    "unrecovered_tool_error": "a failed tool call the agent never recovered from",
    "wrong_entity": "changed other items than the ones a failed check looks at",
    "wrong_value": "changed the right item, with a wrong value",
    "incomplete": "stopped early: what a failed check looks at was never changed",
    "collateral_damage": "did the task, but changed something it was not asked to",
}
ITEM_VERDICTS = ("wrong_entity", "wrong_value", "incomplete")


@dataclass
class Classification:
    mode: str | None  # None: the episode succeeded
    modes: list[str] = field(default_factory=list)
    diagnoses: list[ItemDiagnosis] = field(default_factory=list)
    calls: CallStats = field(default_factory=CallStats)


def classify(
    result: dict[str, Any],
    trajectory: dict[str, Any] | None,
    grade: dict[str, Any] | None,
    changes: list[dict[str, Any]],
    index: EntityIndex | None = None,
    texts: list[tuple[str, str]] | None = None,
) -> Classification:
    """Mode, modes and item diagnoses of one episode.

    `changes` is its state diff, `index` the items of its world (`EntityIndex(s0).with_changes(changes)`),
    `texts` the steps' `step_texts` if already made.
    """
    trajectory = trajectory or {}
    steps = list(trajectory.get("steps") or [])
    calls = analyze(steps, trajectory.get("messages"))
    status = result.get("status")
    if result.get("success"):
        return Classification(None, calls=calls)
    if status == INFRA_ERROR:
        return Classification("infrastructure", ["infrastructure"], calls=calls)
    items = (grade or {}).get("items") or result.get("items") or []
    collateral = (grade or {}).get("collateral") or result.get("collateral") or []
    diagnoses = diagnose(items, changes, collateral, steps, index or EntityIndex(), texts)
    head = []
    if (grade or {}).get("defects") or result.get("defects"):
        head.append("task_defect")
    if status in (MAX_STEPS, TIMEOUT, BUDGET_EXHAUSTED):
        head.append("budget_exhausted")
    if status == AGENT_ERROR:
        head.append("agent_error")
    if status == COMPLETED and not effective(changes) and str(trajectory.get("final_answer") or "").strip():
        head.append("claimed_unchanged")
    if any(f.misuse and not f.recovered for f in calls.failed):
        head.append("tool_misuse")
    if any(not f.misuse and not f.recovered for f in calls.failed):
        head.append("unrecovered_tool_error")
    verdicts = {d.verdict for d in diagnoses}
    modes = head + [m for m in (*ITEM_VERDICTS, "collateral_damage") if m in verdicts]
    task_items = [d for d in diagnoses if d.verdict in ITEM_VERDICTS]
    focus = [d for d in task_items if d.critical] or task_items
    primary = next((v for v in ITEM_VERDICTS if any(d.verdict == v for d in focus)), None)
    if head:
        primary = head[0]
    elif primary is None and "collateral_damage" in verdicts:
        primary = "collateral_damage"
    return Classification(primary, modes, diagnoses, calls)
