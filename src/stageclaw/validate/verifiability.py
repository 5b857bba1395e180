"""Verifiability: the verifier runs and is deterministic, doing nothing fails, the reference
solution scores 100 through the real tools, near-miss end states are rejected (mutation test) and
the alternative solutions are accepted (sensitivity, see `alternatives`).

Mutants are graded like any end state: every check of the rubric on (s0, mutant, oracle trace)
plus the default-deny collateral check; a mutant survives when all of them pass. Judge items
are left out: the mutation test measures the executable verifier.
"""

from __future__ import annotations

from typing import Any

from stageclaw.agents.base import COMPLETED
from stageclaw.grade.collateral import collateral
from stageclaw.grade.grader import COLLATERAL_ITEM, Grade, grade
from stageclaw.task.loader import Task
from stageclaw.task.verifier import run_checks_many
from stageclaw.validate.alternatives import AlternativeRun, sensitivity
from stageclaw.validate.mutants import REVERT, Mutant, MutantMaker
from stageclaw.validate.oracle import OracleRun
from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, Check, Dimension
from stageclaw.world.canonical import when
from stageclaw.world.diff import diff

NOOP_TRACE: dict[str, Any] = {"final_answer": "", "status": COMPLETED, "steps": []}
MAX_MUTANTS = 60
TEXT_SHARE = 12  # room kept for the digit nudges of text, which need the reverts graded first
KILL_WARNING = 0.8


def _passed(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {i["id"]: i["passed"] for i in items}


def _grade_items(g: Grade) -> list[dict[str, Any]]:
    return [{"id": i.id, "passed": i.passed, "reason": i.reason} for i in g.items]


def _verdicts(task: Task, oracle: OracleRun, mutants: list[Mutant]) -> list[dict[str, Any]]:
    s0, trace = oracle.s0 or {}, oracle.trace or {}
    checks = task.rubric.checks
    results = run_checks_many(task.verify_py, checks, [(s0, m.state, trace) for m in mutants])
    out = []
    for mutant, res in zip(mutants, results, strict=True):
        failed = [i.id for i in task.rubric.items if i.check and not res[i.check].passed]
        if collateral(diff(s0, mutant.state), task.rubric.changes.allow):
            failed.append(COLLATERAL_ITEM)
        defects = [f"{name}: {r.defect}" for name, r in res.items() if r.defect]
        record: dict[str, Any] = {
            "id": mutant.id,
            "operator": mutant.operator,
            "target": mutant.target,
            "description": mutant.description,
            "killed_by": failed,
            "survived": not failed,
        }
        if defects:
            record["defects"] = defects
        if not failed:
            record["changes"] = diff(oracle.sH or {}, mutant.state)  # exactly how the accepted state is wrong
        out.append(record)
    return out


def mutation_test(task: Task, oracle: OracleRun, max_mutants: int = MAX_MUTANTS) -> dict[str, Any]:
    """Grade near-miss mutants of the oracle's end state; the kill rate and the survivors."""
    world = task.world
    maker = MutantMaker(
        oracle.s0 or {},
        oracle.sH or {},
        task.rubric.changes.allow,
        world.tz,
        when(world.now, world.tz) or "",
        world.user.email,
    )
    first = maker.structural(max(1, max_mutants - min(TEXT_SHARE, max_mutants // 4)))
    records = _verdicts(task, oracle, first)
    # A rubric item that fails when a change is reverted depends on that change: the numbers its
    # description states are the ones worth getting wrong in that change's text.
    described = {i.id: i.description for i in task.rubric.items if i.check}
    stated_by: dict[str, list[str]] = {}
    for mutant, record in zip(first, records, strict=True):
        if mutant.operator == REVERT:
            stated_by.setdefault(mutant.target, []).extend(described[i] for i in record["killed_by"] if i in described)
    second = maker.textual(stated_by, max_mutants - len(first))
    records += _verdicts(task, oracle, second)
    killed = sum(1 for r in records if not r["survived"])
    by_operator: dict[str, dict[str, int]] = {}
    for r in records:
        counts = by_operator.setdefault(r["operator"], {"total": 0, "killed": 0})
        counts["total"] += 1
        counts["killed"] += 0 if r["survived"] else 1
    return {
        "total": len(records),
        "killed": killed,
        "kill_rate": round(killed / len(records), 4) if records else None,
        "by_operator": by_operator,
        "tolerated_changes": [c["path"] for c in maker.tolerated],
        "survivors": [r for r in records if r["survived"]],
        "mutants": records,
    }


def _kill_check(mutation: dict[str, Any]) -> list[Check]:
    rate = mutation["kill_rate"]
    survivors = mutation["survivors"]
    evidence = {
        "kill_rate": rate,
        "killed": mutation["killed"],
        "total": mutation["total"],
        "survivors": [{"id": s["id"], "description": s["description"]} for s in survivors],
    }
    if rate is None:
        return [Check("mutation_kill_rate", WARNING, "the solution changed nothing a mutant could be made from")]
    detail = f"{mutation['killed']} of {mutation['total']} near-miss end states rejected ({100 * rate:.0f}%)"
    status = PASS if rate == 1 else WARNING if rate >= KILL_WARNING else FAIL
    if survivors:
        detail += "; accepted although wrong: " + "; ".join(s["description"] for s in survivors[:8])
    checks = [
        Check(
            "mutation_kill_rate",
            status,
            detail,
            evidence,
            "" if status == PASS else "tighten the checks so that each survivor fails an item (see mutation.survivors)",
        )
    ]
    crashed = [m for m in mutation["mutants"] if m.get("defects")]
    if crashed:
        checks.append(
            Check(
                "verifier_robust",
                WARNING,
                f"the verifier raised on {len(crashed)} mutants instead of returning False with a reason",
                [{"id": m["id"], "description": m["description"], "defects": m["defects"]} for m in crashed[:10]],
                "make each check return (False, reason) when an item it looks for is missing or malformed",
            )
        )
    return checks


def check_verifiability(
    task: Task, oracle: OracleRun, max_mutants: int = MAX_MUTANTS, alternatives: list[AlternativeRun] | None = None
) -> tuple[Dimension, dict[str, Any] | None]:
    """The dimension and the mutation section of the report; the alternatives' runs give its sensitivity."""
    dimension, mutation = _verifiability(task, oracle, max_mutants)
    if alternatives is not None and dimension.status != BLOCKED:
        check, _ = sensitivity(alternatives)
        dimension = Dimension(dimension.name, [*dimension.checks, check])
    return dimension, mutation


def _verifiability(task: Task, oracle: OracleRun, max_mutants: int) -> tuple[Dimension, dict[str, Any] | None]:
    name = "verifiability"
    if not oracle.ran:
        why = oracle.result.get("error") or "the episode failed"
        return Dimension(
            name, [Check("oracle_scores_100", BLOCKED, f"the reference solution did not run: {why}")]
        ), None
    s0, sH, trace = oracle.s0 or {}, oracle.sH or {}, oracle.trace or {}
    noop = [grade(task, s0, s0, NOOP_TRACE) for _ in range(2)]
    again = grade(task, s0, sH, trace)
    checks = []

    defects = sorted({*oracle.result.get("defects", []), *noop[0].defects, *noop[1].defects, *again.defects})
    checks.append(
        Check("verifier_runs", FAIL, "the verifier is defective: " + "; ".join(defects), defects, "fix verify.py")
        if defects
        else Check("verifier_runs", PASS, f"all {len(task.rubric.checks)} checks load and return a verdict")
    )

    runs = [(oracle.result["items"], _grade_items(again)), (_grade_items(noop[0]), _grade_items(noop[1]))]
    flips = sorted({i for a, b in runs for i, p in _passed(a).items() if _passed(b).get(i) != p})
    reasons = sorted(
        {a_i["id"] for a, b in runs for a_i, b_i in zip(a, b, strict=True) if a_i["reason"] != b_i["reason"]}
    )
    if flips:
        checks.append(
            Check(
                "deterministic",
                FAIL,
                f"items {flips} gave different verdicts on the same states in two runs",
                {"flipped": flips},
                "remove randomness, clocks and unordered iteration from the checks",
            )
        )
    elif reasons:
        checks.append(
            Check(
                "deterministic",
                WARNING,
                f"same verdicts, but the reasons of {reasons} differ between two runs",
                {"reasons_differ": reasons},
                "keep reasons stable (sort sets before printing them, do not print times)",
            )
        )
    else:
        checks.append(Check("deterministic", PASS, "two runs on s0 and on sH gave the same verdicts and reasons"))

    failed = [i.id for i in noop[0].items if i.passed is False]
    evidence = {"score": noop[0].score, "failed_items": failed}
    checks.append(
        Check(
            "initial_state_fails",
            FAIL,
            f"doing nothing succeeds (score {noop[0].score:g}): the verifier accepts the initial state",
            evidence,
            "every task needs at least one check that fails on the untouched world",
        )
        if noop[0].success
        else Check("initial_state_fails", PASS, f"doing nothing fails (score {noop[0].score:g}; {failed})", evidence)
    )

    result = oracle.result
    wrong = [i for i in result["items"] if i["passed"] is False]
    evidence = {"score": result["score"], "steps": result["steps"], "episode": str(oracle.dir), "failed_items": wrong}
    if oracle.solved:
        checks.append(
            Check(
                "oracle_scores_100",
                PASS,
                f"the reference solution scores 100 in {result['steps']} tool calls",
                evidence,
            )
        )
    else:
        why = result.get("error") or "; ".join(f"{i['id']}: {i['reason']}" for i in wrong)
        checks.append(
            Check(
                "oracle_scores_100",
                FAIL,
                f"the reference solution scores {result['score']}: {why}",
                evidence,
                "make solution.py reach the goal through the tools, or fix the checks it fails",
            )
        )
        checks.append(Check("mutation_kill_rate", BLOCKED, "mutants are made from a solved end state; there is none"))
        return Dimension(name, checks), None

    mutation = mutation_test(task, oracle, max_mutants)
    checks += _kill_check(mutation)
    return Dimension(name, checks), mutation
