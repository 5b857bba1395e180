"""data-report on the real servers: operator subsets are accepted by stage 2, the reference solution
with one careful step left out fails the item that step decides, and honest reports in other layouts
pass while a wrong ranking does not."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "data-report"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _report(oracle: OracleRun) -> tuple[str, str]:
    (path,) = [p for p in (oracle.sH or {})["files"] if p not in (oracle.s0 or {})["files"]]
    return path, oracle.sH["files"][path]["text"]  # type: ignore[index]


def _cents(shown: str) -> int:
    return int(re.sub(r"\D", "", shown))


def _figures(text: str) -> tuple[list[tuple[str, int]], int, list[tuple[str, int]]]:
    """The lines, the total and the ranking of the reference solution's report."""
    rows = re.findall(r"^\| ([^|*\n]+?) \| (\S*\d) \|$", text, re.MULTILINE)
    lines = [(name, _cents(amount)) for name, amount in rows if not name.startswith("-")]
    total = _cents(re.search(r"\*\*Total\*\* \| \*\*(\S+)\*\*", text).group(1))  # type: ignore[union-attr]
    ranking = [(name, _cents(amount)) for name, amount in re.findall(r"^\d\. (.+): (\S+)$", text, re.MULTILINE)]
    return lines, total, ranking


def _plain(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _european(cents: int) -> str:
    return f"{cents // 100:,}".replace(",", ".") + f",{cents % 100:02d} €"


def _bullets(lines: list[tuple[str, int]], total: int, ranking: list[tuple[str, int]]) -> str:
    best = ", ".join(f"{name} ({_plain(c)} EUR)" for name, c in ranking)
    shown = "".join(f"- {name} — {_plain(c)} EUR\n" for name, c in lines)
    return f"## Sales by line\n\n{shown}\nTotal sales came to {_plain(total)} EUR.\n\nBest customers: {best}.\n"


def _european_table(lines: list[tuple[str, int]], total: int, ranking: list[tuple[str, int]]) -> str:
    rows = "".join(f"| {name} | {_european(c)} |\n" for name, c in lines)
    best = "".join(f"| {n} | {name} | {_european(c)} |\n" for n, (name, c) in enumerate(ranking, 1))
    return (
        f"# Summary\n\n| Line | Amount |\n|---|---|\n{rows}| Overall | {_european(total)} |\n\n"
        f"| # | Who | Spent |\n|---|---|---|\n{best}"
    )


def test_subsets_of_the_operators_are_accepted_with_every_mutant_killed(pool, tmp_path):
    subsets = (["noisy_data"], ["entity_alignment", "hidden_dependency"], ["cross_source_conflict"], [])
    for operators in subsets:
        generate(FAMILY, 4, operators=operators).write(tmp_path)
    for report in validate_path(tmp_path, pool):
        assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
        assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
        assert report.mutation["total"] >= 10
        checks = report.dimensions["difficulty"].checks
        assert all(c.status == "pass" for c in checks if c.name.startswith("operator:")), report.task_id


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len([i for i in task.rubric.items if i.check]) >= 5
    steps = oracle.trace["steps"]  # type: ignore[index]
    assert len(steps) >= 4
    assert {"mail", "files", "notes", "contacts"} <= {s["tool"].split("_")[0] for s in steps}
    assert sorted(draft.operators) == sorted(draft.evidence)


def _stale(draft: TaskDraft) -> dict[str, Any]:
    stale, _ = draft.evidence["noisy_data"]["look_alikes"][0].split(" ~ ")
    return {"export": stale.removeprefix("files/")}


CARELESS: dict[str, tuple[Callable[[TaskDraft], dict[str, Any]], str]] = {
    "the stale mid-month export": (_stale, "line_totals"),
    "no look for the corrections next to the export": (lambda d: {"folder": "Reports"}, "line_totals"),
    "the regular's two addresses kept apart": (lambda d: {"regular": None}, "top_three"),
}


@pytest.mark.parametrize("mistake", sorted(CARELESS))
def test_leaving_out_a_careful_step_fails(pool, tmp_path, solved, mistake):
    draft, _, _ = solved
    facts, item = CARELESS[mistake]
    careless = copy.deepcopy(draft)
    careless.facts.update(facts(draft))
    run = run_oracle(load_task(careless.write(tmp_path)), pool, tmp_path / "episode")
    assert item in {i["id"] for i in run.result["items"] if i["passed"] is False}, run.result["items"]


@pytest.mark.parametrize("layout", [_bullets, _european_table])
def test_an_honest_report_in_another_layout_passes(solved, layout):
    _, task, oracle = solved
    path, text = _report(oracle)
    state = copy.deepcopy(oracle.sH)
    state["files"][path]["text"] = layout(*_figures(text))  # type: ignore[index]
    assert not _failed(task, oracle, state)


def test_a_ranking_out_of_order_fails(solved):
    _, task, oracle = solved
    path, text = _report(oracle)
    lines, total, ranking = _figures(text)
    state = copy.deepcopy(oracle.sH)
    state["files"][path]["text"] = _bullets(lines, total, [ranking[1], ranking[0], *ranking[2:]])  # type: ignore[index]
    assert _failed(task, oracle, state) == {"top_three"}


def test_a_new_message_instead_of_a_reply_passes(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    for folder in (state["mail"]["outbox"], state["mail"]["folders"]["Sent"]):  # type: ignore[index]
        for message in folder:
            message.update({"in_reply_to": None, "subject": f"{draft.facts['title']} figures"})
    assert not _failed(task, oracle, state)
