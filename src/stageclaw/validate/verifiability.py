"""Verifiability: the verifier runs and is deterministic, doing nothing fails, the reference
solution scores 100 through the real tools, near-miss end states are rejected (mutation test),
checks that read the agent's answer or trajectory say so, and the alternative solutions are
accepted (sensitivity, see `alternatives`).

Mutants are graded like any end state: every check of the rubric on (s0, mutant, trace) plus the
default-deny collateral check; a mutant survives when all of them pass. One survivor fails the
dimension, and so does a changed field no mutant made wrong (coverage). Judge items are left out:
the mutation test measures the executable verifier. A check that declares no `uses` grades the
mutants with a neutral answer and trace, and the solved state with both the reference solution's
trace and the neutral one: if its verdict changes, it read what it did not declare.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stageclaw.agents.base import COMPLETED
from stageclaw.grade.collateral import collateral
from stageclaw.grade.grader import COLLATERAL_ITEM, Grade, grade
from stageclaw.task.loader import Task
from stageclaw.task.verifier import CheckResult, run_checks_many
from stageclaw.validate.alternatives import AlternativeRun, sensitivity
from stageclaw.validate.mutants import REVERT, Mutant, MutantMaker
from stageclaw.validate.oracle import OracleRun
from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, Check, Dimension
from stageclaw.validate.trace_use import trace_readers
from stageclaw.world.diff import diff

NEUTRAL_TRACE: dict[str, Any] = {"final_answer": "", "status": COMPLETED, "steps": []}
# Mutants of each alternative's end state: fewer than the reference's, one per changed field first.
ALTERNATIVE_MUTANTS = 60
MAX_MUTANTS = 150
RUBRIC_SHARE = 12  # room kept for the rubric-guided nudges of text, which need the reverts graded first


def _passed(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {i["id"]: i["passed"] for i in items}


def _grade_items(g: Grade) -> list[dict[str, Any]]:
    return [{"id": i.id, "passed": i.passed, "reason": i.reason} for i in g.items]


@dataclass
class _Graded:
    """Verdicts on mutants, and the checks whose verdict on the solved state changed with the trace."""

    results: list[dict[str, CheckResult]]
    trace_dependent: list[str]


def _grade(
    task: Task, s0: dict[str, Any], sH: dict[str, Any], trace: dict[str, Any], states: list[dict[str, Any]]
) -> _Graded:
    """Grade mutant states through the verifier's batch interface (one sandbox run per kind of check).

    A check that declares no `uses` must decide from the states: mutants are graded with a neutral
    answer and trace (the reference solution's trajectory says nothing about a mutant), and the
    solved state with both, which must agree. A check that declares `uses` gets the solution's trace."""
    quiet = [i.check for i in task.rubric.items if i.check and not i.uses]
    told = [i.check for i in task.rubric.items if i.check and i.uses]
    solved = [(s0, sH, trace), (s0, sH, NEUTRAL_TRACE)]
    neutral = run_checks_many(task.verify_py, quiet, [*solved, *((s0, s, NEUTRAL_TRACE) for s in states)])
    given = run_checks_many(task.verify_py, told, [(s0, s, trace) for s in states]) if told else [{} for _ in states]
    dependent = sorted(c for c in quiet if neutral[0][c].passed != neutral[1][c].passed)
    return _Graded([{**a, **b} for a, b in zip(neutral[2:], given, strict=True)], dependent)


def _verdicts(
    task: Task, s0: dict[str, Any], sH: dict[str, Any], mutants: list[Mutant], graded: _Graded
) -> list[dict[str, Any]]:
    out = []
    for mutant, res in zip(mutants, graded.results, strict=True):
        failed = [i.id for i in task.rubric.items if i.check and not res[i.check].passed]
        if collateral(diff(s0, mutant.state), task.rubric.changes.allow):
            failed.append(COLLATERAL_ITEM)
        defects = [f"{name}: {r.defect}" for name, r in res.items() if r.defect]
        record: dict[str, Any] = {
            "id": mutant.id,
            "operator": mutant.operator,
            "target": mutant.target,
            "description": mutant.description,
            "fields": mutant.touches,
            "killed_by": failed,
            "survived": not failed,
        }
        if defects:
            record["defects"] = defects
        if not failed:
            record["changes"] = diff(sH, mutant.state)  # exactly how the accepted state is wrong
        out.append(record)
    return out


def mutation_test(
    task: Task,
    s0: dict[str, Any],
    sH: dict[str, Any],
    trace: dict[str, Any],
    max_mutants: int = MAX_MUTANTS,
    reference: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Grade near-miss mutants of the end state `sH` (the reference solution's, or an alternative's,
    reached from `s0` with `trace`): the kill rate, the survivors, the changed fields the mutants
    covered, and the checks whose verdicts depended on an undeclared trace. Given the `reference`
    solution's end state, a mutant of an alternative that only does what the reference does where it
    departs from the alternative (a title the alternative reworded, left as it was) is no near miss."""
    maker = MutantMaker.for_task(task, s0, sH)
    first = maker.structural(max(1, max_mutants - min(RUBRIC_SHARE, max_mutants // 4)))
    if reference is not None:
        first = [m for m in first if not _as_the_reference_does(sH, m.state, reference)]
    graded = _grade(task, s0, sH, trace, [m.state for m in first])
    records = _verdicts(task, s0, sH, first, graded)
    # A rubric item that fails when a change is reverted depends on that change: the values its
    # description states are the ones worth getting wrong in that change's text.
    described = {i.id: i.description for i in task.rubric.items if i.check}
    stated_by: dict[str, list[str]] = {}
    for mutant, record in zip(first, records, strict=True):
        if mutant.operator == REVERT:
            stated_by.setdefault(mutant.target, []).extend(described[i] for i in record["killed_by"] if i in described)
    second = maker.textual(stated_by, max_mutants - len(first))
    if reference is not None:
        second = [m for m in second if not _as_the_reference_does(sH, m.state, reference)]
    if second:
        records += _verdicts(task, s0, sH, second, _grade(task, s0, sH, trace, [m.state for m in second]))
    mutants = [*first, *second]
    killed = sum(1 for r in records if not r["survived"])
    by_operator: dict[str, dict[str, int]] = {}
    for r in records:
        counts = by_operator.setdefault(r["operator"], {"total": 0, "killed": 0})
        counts["total"] += 1
        counts["killed"] += 0 if r["survived"] else 1
    survivors = [r for r in records if r["survived"]]
    return {
        "total": len(records),
        "killed": killed,
        "kill_rate": round(killed / len(records), 4) if records else None,
        "by_operator": by_operator,
        "coverage": maker.coverage(mutants).to_json(),
        "weak_fields": sorted({f for r in survivors for f in r["fields"]}),
        "tolerated_changes": [c["path"] for c in maker.tolerated],
        "trace_dependent": graded.trace_dependent,
        "survivors": survivors,
        "mutants": records,
    }


def _as_the_reference_does(sH: dict[str, Any], mutant: dict[str, Any], reference: dict[str, Any]) -> bool:
    """Whether the mutant agrees with the reference's end state everywhere it differs from `sH` (an item
    the reference does not have, such as a message the alternative sent, never agrees)."""
    differs = [c["path"] for c in diff(reference, mutant)]

    def related(a: str, b: str) -> bool:
        return a == b or a.startswith((b + "/", b + "#")) or b.startswith((a + "/", a + "#"))

    return not any(related(p["path"], q) for p in diff(sH, mutant) for q in differs)


def _kill_check(mutation: dict[str, Any]) -> list[Check]:
    rate = mutation["kill_rate"]
    survivors = mutation["survivors"]
    evidence = {
        "kill_rate": rate,
        "killed": mutation["killed"],
        "total": mutation["total"],
        "weak_fields": mutation["weak_fields"],
        "survivors": [{"id": s["id"], "fields": s["fields"], "description": s["description"]} for s in survivors],
    }
    if rate is None:
        return [Check("mutation_kill_rate", WARNING, "the solution changed nothing a mutant could be made from")]
    detail = f"{mutation['killed']} of {mutation['total']} near-miss end states rejected ({100 * rate:.0f}%)"
    if survivors:
        weak = mutation["weak_fields"]
        detail += (f"; the checks do not hold the values of {weak}" if weak else "") + (
            "; accepted although wrong: " + "; ".join(s["description"] for s in survivors[:8])
        )
    # One accepted wrong end state is a verifier an agent can pass while wrong: the dimension fails.
    checks = [
        Check(
            "mutation_kill_rate",
            PASS if not survivors else FAIL,
            detail,
            evidence,
            "" if not survivors else "tighten the checks so that each survivor fails an item (see mutation.survivors)",
        )
    ]
    coverage = mutation["coverage"]
    if coverage["rate"] is not None:
        shown = f"{coverage['touched']} of {coverage['fields']} changed fields made wrong by at least one mutant"
        checks.append(
            Check("mutation_coverage", PASS, shown, coverage)
            if not coverage["missed"]
            else Check(
                "mutation_coverage",
                FAIL,
                f"{shown}; untested: {coverage['missed']}",
                coverage,
                "raise max_mutants, or make the solution change fewer fields than the task needs",
            )
        )
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


def _trace_check(task: Task, dynamic: list[str]) -> Check:
    """Every check that reads the answer or the trajectory says so in its rubric item (`uses`)."""
    quiet = [i.check for i in task.rubric.items if i.check and not i.uses]
    static = trace_readers(task.verify_py, quiet)
    found = dict(static)
    for name in dynamic:
        found.setdefault(name, "its verdict changed when graded with a neutral answer and trace")
    if not found:
        declared = [i.id for i in task.rubric.items if i.uses]
        extra = f" ({declared} declare what they read)" if declared else ""
        return Check("trace_declared", PASS, f"the checks grade the end state, not the trajectory{extra}")
    items = {i.check: i.id for i in task.rubric.items if i.check}
    problems = [f"{items[name]} ({name}): {why}" for name, why in sorted(found.items())]
    return Check(
        "trace_declared",
        FAIL,
        "checks read the agent's final answer or trajectory without declaring it: " + "; ".join(problems),
        {"checks": sorted(found)},
        'declare it on the rubric item (uses = ["answer"] or ["trace"]), or decide the item from the states alone',
    )


def check_verifiability(
    task: Task, oracle: OracleRun, max_mutants: int = MAX_MUTANTS, alternatives: list[AlternativeRun] | None = None
) -> tuple[Dimension, dict[str, Any] | None]:
    """The dimension and the mutation section of the report; the alternatives' runs give its sensitivity."""
    dimension, mutation = _verifiability(task, oracle, max_mutants)
    if alternatives is not None and dimension.status != BLOCKED:
        check, _ = sensitivity(alternatives)
        checks = [*dimension.checks, check]
        if mutation is not None and alternatives:
            cap = min(max_mutants, ALTERNATIVE_MUTANTS)
            mutation["alternatives"] = _alternative_mutation(task, alternatives, cap, oracle.sH or {})
            checks.append(_alternative_kill_check(mutation["alternatives"]))
        dimension = Dimension(dimension.name, checks)
    return dimension, mutation


def _alternative_mutation(
    task: Task, runs: list[AlternativeRun], max_mutants: int, reference: dict[str, Any]
) -> dict[str, Any]:
    """The mutation test on each accepted alternative's end state: another way of writing the answer
    (one mail each, a table, an annotation) must hold its values as tightly as the reference's does."""
    out = {}
    for alt in runs:
        run = alt.run
        if not alt.accepted or not run.ran:
            continue
        tested = mutation_test(task, run.s0 or {}, run.sH or {}, run.trace or {}, max_mutants, reference)
        out[alt.name] = {
            "total": tested["total"],
            "killed": tested["killed"],
            "coverage": tested["coverage"]["rate"],
            "weak_fields": tested["weak_fields"],
            "survivors": [
                {"id": m["id"], "fields": m["fields"], "description": m["description"]} for m in tested["survivors"]
            ],
        }
    return out


def _alternative_kill_check(tested: dict[str, dict[str, Any]]) -> Check:
    total = sum(t["total"] for t in tested.values())
    killed = sum(t["killed"] for t in tested.values())
    detail = f"{killed} of {total} near-miss end states of the {len(tested)} accepted alternatives rejected"
    survivors = [f"{name}: {s['description']}" for name, t in tested.items() for s in t["survivors"]]
    if not survivors:
        return Check("alternative_mutants", PASS, detail, {"total": total, "killed": killed})
    return Check(
        "alternative_mutants",
        FAIL,
        detail + "; accepted although wrong: " + "; ".join(survivors[:8]),
        {"total": total, "killed": killed, "survivors": survivors},
        "a value an alternative writes in its own way (a table, one mail each, an annotation) must be checked "
        "too: tighten the checks, or leave the value out of the alternative if the request does not ask for it",
    )


def _verifiability(task: Task, oracle: OracleRun, max_mutants: int) -> tuple[Dimension, dict[str, Any] | None]:
    name = "verifiability"
    if not oracle.ran:
        why = oracle.result.get("error") or "the episode failed"
        return Dimension(
            name, [Check("oracle_scores_100", BLOCKED, f"the reference solution did not run: {why}")]
        ), None
    s0, sH, trace = oracle.s0 or {}, oracle.sH or {}, oracle.trace or {}
    noop = [grade(task, s0, s0, NEUTRAL_TRACE) for _ in range(2)]
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
    budget = task.config.max_steps
    if oracle.solved and result["steps"] > budget:
        checks.append(
            Check(
                "oracle_scores_100",
                FAIL,
                f"the reference solution needs {result['steps']} tool calls, more than the task's budget of {budget}",
                evidence,
                "raise max_steps to leave a careful agent room (about twice the reference's calls)",
            )
        )
    elif oracle.solved:
        checks.append(
            Check(
                "oracle_scores_100",
                PASS,
                f"the reference solution scores 100 in {result['steps']} of the {budget} tool calls it may make",
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

    mutation = mutation_test(task, s0, sH, trace, max_mutants)
    checks += _kill_check(mutation)
    checks.append(_trace_check(task, mutation["trace_dependent"]))
    return Dimension(name, checks), mutation
