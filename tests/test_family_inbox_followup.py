"""inbox-followup on the real servers: operator subsets are accepted by stage 2, and the mistakes
the scenario invites (the work address, the withdrawn document, answering a settled thread, the
meeting's own day, filing a notice, and the levers: the moved meeting's announced time, the call's
document, the reminder for the day first promised, the newsletter from its new address, the second
client's automatic reply) are each rejected by the generated verifier."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import COLLATERAL_ITEM, grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.world.canonical import bare_address
from tests.reactions import redirect_is_graded

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
    assert len(task.rubric.items) >= 10
    assert len(oracle.trace["steps"]) >= 35
    used = {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert {"mail", "calendar", "contacts", "files", "notes", "reminders"} <= used
    assert sorted(draft.operators) == sorted(draft.evidence)
    world = oracle.s0 or {}
    objects = sum(len(m) for m in world["mail"]["folders"].values()) + len(world["contacts"])
    objects += sum(len(e) for e in world["calendar"].values()) + len(world["files"])
    assert objects >= 300
    levers = draft.provenance["levers"]
    for item in (
        "meeting_time_2",
        "noted_document_attached",
        "moved_promise_reminder",
        "moved_promise_reminder_jotted",
        "newsletters_filed",
    ):
        assert any(line.startswith(f"{item}: ") for line in levers), item


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
    promise = draft.facts["promises"][0]
    meeting = next(e for e in state["calendar"]["Work"] if e["summary"] == promise["meeting"])
    # the oracle moved the user's own jotting of this promise into Work
    (todo,) = [t for t in state["reminders"]["Work"] if t["uid"] == _args(draft, "promise_reminder")["stale"]]
    todo["due"] = meeting["start"][:10]
    assert "promise_reminder" in _failed(task, oracle, state)


def test_the_moved_meetings_announced_time_fails(solved):
    """The organiser's announcement in the inbox gives the time before the move; the calendar the new one."""
    draft, task, oracle = solved
    args = _args(draft, "meeting_time_2")
    announced = next(
        m for m in oracle.s0["mail"]["folders"]["INBOX"] if m["subject"] == draft.facts["questions"][1]["meeting"]
    )
    state = copy.deepcopy(oracle.sH)
    reply = _sent_to(state, args["to"])
    reply["body"] = "Hi,\n\n" + announced["body"].split("\n\n")[1] + "\n\nBest"
    assert "meeting_time_2" in _failed(task, oracle, state)
    assert "meeting_time_2" not in _failed(task, oracle, oracle.sH)


def test_a_document_other_than_the_one_the_call_note_names_fails(solved):
    draft, task, oracle = solved
    args = _args(draft, "noted_document_attached")
    state = copy.deepcopy(oracle.sH)
    message = _sent_to(state, args["to"])
    for sha in args["wrong"]:
        message["attachments"] = [{**message["attachments"][0], "sha256": sha}]
        assert "noted_document_attached" in _failed(task, oracle, state)


def test_the_reminder_for_the_day_first_promised_is_moved_not_doubled_or_ticked_off(solved):
    draft, task, oracle = solved
    stale = _args(draft, "moved_promise_reminder")["stale"]
    due = _args(draft, "moved_promise_reminder")["due"]
    first = next(t for t in oracle.s0["reminders"]["Work"] if t["uid"] == stale)
    assert first["due"][:10] != due
    # left as it was, with a new one next to it: two open reminders for one promise
    state = copy.deepcopy(oracle.sH)
    todos = state["reminders"]["Work"]
    moved = next(t for t in todos if t["uid"] == stale)
    todos.append({**moved, "uid": "new-one", "title": draft.facts["promises"][1]["reminder"]})
    moved["due"] = first["due"]
    assert "moved_promise_reminder" in _failed(task, oracle, state)
    # ticked off and replaced: the old one says the job is done
    moved.update(completed=True, completed_at=f"{due}T09:00:00")
    assert "moved_promise_reminder" in _failed(task, oracle, state)
    # deleted and replaced: fine
    todos.remove(moved)
    assert "moved_promise_reminder" not in _failed(task, oracle, state)


def _own(state: dict[str, Any], uid: str) -> dict[str, Any] | None:
    return next((t for todos in state["reminders"].values() for t in todos if t["uid"] == uid), None)


def test_the_users_own_jotting_of_a_promise_is_moved_or_replaced_never_left_beside_it(solved):
    """The user's jotting of the first promise in their everyday list (the oracle moves it into Work for the day
    promised): left in its list beside a new Work reminder, the promise has two; deleted and made anew in Work,
    it passes. The jotting of the changed promise (the oracle deletes it) left open or ticked off fails its item."""
    draft, task, oracle = solved
    own = _args(draft, "promise_reminder")["stale"]
    before = _own(oracle.s0, own)
    assert before is not None and own not in {t["uid"] for t in oracle.s0["reminders"]["Work"]}
    moved = _own(oracle.sH, own)
    assert moved is not None and moved["due"][:10] == _args(draft, "promise_reminder")["due"]
    state = copy.deepcopy(oracle.sH)
    state["reminders"]["Work"] = [t for t in state["reminders"]["Work"] if t["uid"] != own]
    state["reminders"]["Work"].append({**moved, "uid": "made-in-work"})
    assert _failed(task, oracle, state) == set()
    state["reminders"].setdefault("Reminders", []).append(copy.deepcopy(before))
    assert _failed(task, oracle, state) == {"promise_reminder"}

    jotted = _args(draft, "moved_promise_reminder_jotted")
    old = _own(oracle.s0, jotted["stale"])
    assert old is not None and old["due"][:10] != jotted["due"] and _own(oracle.sH, jotted["stale"]) is None
    state = copy.deepcopy(oracle.sH)
    state["reminders"]["Reminders"].append(copy.deepcopy(old))
    assert _failed(task, oracle, state) == {"moved_promise_reminder_jotted"}
    state["reminders"]["Reminders"][-1].update(completed=True, completed_at=f"{jotted['due']}T09:00:00")
    assert _failed(task, oracle, state) == {"moved_promise_reminder_jotted"}


def test_an_issue_from_the_newsletters_new_address_left_in_the_inbox_fails(solved):
    draft, task, oracle = solved
    ids = set(_args(draft, "newsletters_filed")["message_ids"])
    state = copy.deepcopy(oracle.sH)
    filed = state["mail"]["folders"]["Newsletters"]
    moved = [m for m in filed if m["message_id"] in ids and draft.facts["newsletters"][0] in m["from"]]
    assert moved and all("@" in m["from"] for m in moved)
    filed.remove(moved[0])
    state["mail"]["folders"]["INBOX"].append(moved[0])
    assert "newsletters_filed" in _failed(task, oracle, state)


def test_filing_a_notification_with_the_newsletters_fails(solved):
    _, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    inbox = state["mail"]["folders"]["INBOX"]
    notice = next(m for m in inbox if m["subject"] == "Your leave request was approved")
    inbox.remove(notice)
    state["mail"]["folders"]["Newsletters"].append(notice)
    assert COLLATERAL_ITEM in _failed(task, oracle, state)


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_request_says_there_is_one_reminder_a_promise(seed):
    # blind play: "make sure my Work list has a reminder for each" read as "leave the ones jotted elsewhere"
    prompt = generate("inbox-followup", seed).prompt
    assert re.search(r"just the one|not reminded twice|only that one", prompt)


def test_the_document_counts_once_it_reaches_the_colleague_the_away_reply_names(solved):
    """The second client is on leave: the oracle forwards its first mail to the colleague their automatic reply
    names. That mail alone fails; a first mail with another document fails too, even when the colleague gets the
    right one."""
    draft, task, oracle = solved
    end = oracle.sH or {}
    for item in ("replies_sent", "noted_document_attached"):
        redirect_is_graded(draft, end, lambda state: _failed(task, oracle, state), says=False, item_id=item)
    args = _args(draft, "noted_document_attached")
    [client] = args["tried"]
    state = copy.deepcopy(end)
    first = _sent_to(state, client)
    wrong = next(iter(args["wrong"]))
    first["attachments"] = [{**first["attachments"][0], "sha256": wrong}]
    assert _failed(task, oracle, state) == {"noted_document_attached"}
    # without the document, once the reply said where it goes, it may go there alone
    first["attachments"] = []
    assert _failed(task, oracle, state) == set()
