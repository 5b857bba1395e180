"""inbox-followup on the real servers: operator subsets are accepted by stage 2, and the mistakes
the scenario invites (the work address, the withdrawn document, answering a settled thread, the
meeting's own day, filing a notice) are each rejected by the generated verifier."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import COLLATERAL_ITEM, grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.world.canonical import bare_address

FAMILY = "inbox-followup"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp("inbox-followup")
    draft = generate(FAMILY, 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _sent_to(state: dict[str, Any], address: str) -> dict[str, Any]:
    return next(m for m in state["mail"]["outbox"] if address in map(bare_address, m["to"]))


@pytest.mark.stage2
def test_subsets_of_the_operators_are_accepted_with_every_mutant_killed(pool, tmp_path):
    for operators in (["noisy_data"], ["entity_alignment", "cross_source_conflict"], ["cross_tool_consistency"]):
        generate(FAMILY, 4, operators=operators).write(tmp_path)
    for report in validate_path(tmp_path, pool):
        assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
        assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
        assert report.mutation["total"] >= 10


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len(task.rubric.items) >= 5
    assert len(oracle.trace["steps"]) >= 4
    assert {"mail", "reminders"} <= {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert sorted(draft.operators) == sorted(draft.evidence)


def test_the_document_sent_to_the_unverified_personal_address_fails_and_asking_passes(solved):
    """The request comes from an address nothing in the world vouches for: the known work address (the
    reference) or asking the user is right; sending the client's document to the new address is not."""
    draft, task, oracle = solved
    work, personal = draft.evidence["entity_alignment"]["addresses"]
    assert draft.evidence["entity_alignment"]["verified_by"] == "unverified"
    state = copy.deepcopy(oracle.sH)
    message = _sent_to(state, work)
    message["to"] = [personal]
    assert {"replies_sent", "document_attached"} <= _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].remove(_sent_to(state, work))
    assert "document_attached" in _failed(task, oracle, state)  # silently sending nothing is not asking
    asked = {**oracle.trace, "final_answer": f"The request came from {personal}; can you confirm that address?"}
    result = grade(task, oracle.s0 or {}, state, asked)
    assert not {i.id for i in result.items if i.passed is False} - {COLLATERAL_ITEM}, result.items


def test_the_withdrawn_document_fails(solved):
    draft, task, oracle = solved
    args = _args(draft, "document_attached")
    withdrawn = next(sha for sha, why in args["wrong"].items() if "withdrew" in why)
    state = copy.deepcopy(oracle.sH)
    message = _sent_to(state, args["to"])
    message["attachments"] = [{**message["attachments"][0], "sha256": withdrawn}]
    assert "document_attached" in _failed(task, oracle, state)


def test_answering_a_thread_the_user_already_answered_fails(solved):
    _, task, oracle = solved
    settled = next(m for m in oracle.s0["mail"]["folders"]["INBOX"] if "\\Answered" in m["flags"])
    state = copy.deepcopy(oracle.sH)
    extra = copy.deepcopy(state["mail"]["outbox"][0])
    extra.update(message_id="<again@example.org>", to=[settled["from"]], in_reply_to=settled["message_id"])
    state["mail"]["outbox"].append(extra)
    assert "replies_sent" in _failed(task, oracle, state)


def test_a_reminder_due_on_the_meeting_day_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    uid = draft.evidence["hidden_dependency"]["facts"][0]["item"].rsplit("/", 1)[-1]
    meeting = next(e for e in state["calendar"]["Work"] if e["uid"] == uid)
    (todo,) = [t for t in state["reminders"]["Work"] if t["title"] == draft.facts["reminder"]]
    todo["due"] = meeting["start"][:10]
    assert "promise_reminder" in _failed(task, oracle, state)


def test_filing_a_notification_with_the_newsletters_fails(solved):
    _, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    inbox = state["mail"]["folders"]["INBOX"]
    notice = next(m for m in inbox if m["subject"] == "Your leave request was approved")
    inbox.remove(notice)
    state["mail"]["folders"]["Newsletters"].append(notice)
    assert COLLATERAL_ITEM in _failed(task, oracle, state)
