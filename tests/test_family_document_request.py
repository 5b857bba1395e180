"""document-request on the real servers: operator subsets are accepted by stage 2, the near misses of each
lever (the stale filed copy of a reissued document, the void download, the previous period's copy, a
document only on the shared list left out, the late document's old copy sent or its reminder ticked, the
meeting entered twice, the old address) each fail their own item, and honest variations of the solved
state (one mail per document, the full address as the meeting's place) still pass; the documents count once they
reach the mailbox the advisor's automatic reply names."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.suite import world_objects
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

FAMILY = "document-request"


@pytest.fixture(scope="module", params=[1, 2])
def solved(request, pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(f"document-request-{request.param}")
    draft = generate(FAMILY, request.param)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _lever(draft: TaskDraft, marker: str) -> list[str]:
    """The sent_* items whose lever line says `marker`."""
    lines = [line.split(": ", 1) for line in draft.provenance["levers"]]
    return [item for item, why in lines if item.startswith("sent_") and marker in why]


def _swap(state: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    out = copy.deepcopy(state)
    for message in out["mail"]["outbox"]:
        for attachment in message.get("attachments") or []:
            if attachment["sha256"] == old:
                attachment["sha256"] = new
    return out


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len(task.rubric.items) >= 12
    assert len(oracle.trace["steps"]) >= 35
    assert world_objects(draft) >= 300
    used = {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert {"mail", "files", "contacts", "calendar", "reminders"} <= used
    assert sorted(draft.operators) == sorted(draft.evidence)
    assert len(draft.provenance["levers"]) >= 10


def test_a_superseded_version_fails_its_item(solved):
    """The void download of the corrected document and the filed copy of the reissued one."""
    draft, task, oracle = solved
    items = _lever(draft, "F/E: the issuer's correction") + _lever(draft, "E: information one hop away")
    assert len(items) == 2
    for item in items:
        args = _args(draft, item)
        (void,) = [sha for sha, what in args["wrong"].items() if "superseded" in what]
        assert {item, "only_listed"} <= _failed(task, oracle, _swap(oracle.sH, args["sha256"], void))


def test_the_previous_periods_copy_fails_its_item(solved):
    draft, task, oracle = solved
    for item in [c.id for c in draft.checks if c.id.startswith("sent_")]:
        args = _args(draft, item)
        (old,) = [sha for sha, what in args["wrong"].items() if "previous period" in what]
        assert item in _failed(task, oracle, _swap(oracle.sH, args["sha256"], old)), item


def test_a_document_only_on_the_shared_list_left_out_fails(solved):
    draft, task, oracle = solved
    listed = _lever(draft, "named only on the list")
    assert len(listed) >= 2
    for item in listed:
        state = copy.deepcopy(oracle.sH)
        sha = _args(draft, item)["sha256"]
        for message in state["mail"]["outbox"]:
            message["attachments"] = [a for a in message["attachments"] if a["sha256"] != sha]
        assert _failed(task, oracle, state) == {item}


def test_the_late_document_sent_from_the_previous_period_or_its_reminder_ticked_fails(solved):
    draft, task, oracle = solved
    (late,) = [c.id for c in draft.checks if c.id.startswith("not_sent_")]
    (old,) = _args(draft, late)["wrong"]
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"][0]["attachments"].append({"filename": "old.pdf", "sha256": old, "size": 1})
    assert late in _failed(task, oracle, state)

    uid = _args(draft, "still_open")["kept_open"][0]
    state = copy.deepcopy(oracle.sH)
    for todos in state["reminders"].values():
        for todo in todos:
            if todo["uid"] == uid:
                todo["completed"] = True
    assert "still_open" in _failed(task, oracle, state)


def test_the_meeting_entered_again_or_left_at_the_old_office_fails(solved):
    draft, task, oracle = solved
    args = _args(draft, "meeting_moved")
    state = copy.deepcopy(oracle.sH)
    (event,) = [e for e in state["calendar"]["Personal"] if args["start"][:16] in str(e["start"])]
    before = next(e for e in oracle.s0["calendar"]["Personal"] if e["uid"] == event["uid"])
    event["location"] = before["location"]
    assert "meeting_moved" in _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Personal"].append({**before, "uid": "copy-of-the-meeting"})
    assert "meeting_moved" in _failed(task, oracle, state)


def test_mail_to_the_old_address_fails(solved):
    draft, task, oracle = solved
    if "entity_alignment" not in draft.operators:
        pytest.skip("no merger")
    old = next(
        a for a in draft.evidence["entity_alignment"]["addresses"] if a not in _args(draft, "to_advisor")["addresses"]
    )
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"][0]["to"] = [old]
    assert "to_advisor" in _failed(task, oracle, state)


def test_honest_variations_pass(solved):
    """One message per document instead of one with several, and the meeting's place with town and firm."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    split = []
    for n, message in enumerate(state["mail"]["outbox"]):
        for k, attachment in enumerate(message["attachments"]):
            split.append({**message, "message_id": f"<split-{n}-{k}@example.org>", "attachments": [attachment]})
    state["mail"]["outbox"] = split
    args = _args(draft, "meeting_moved")
    for event in state["calendar"]["Personal"]:
        if args["start"][:16] in str(event["start"]):
            event["location"] = f"{event['location']}, 2nd floor (new office)"
    assert _failed(task, oracle, state) == set()


def _reminder(state: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(t for todos in state["reminders"].values() for t in todos if t["uid"] == uid)


def test_the_users_own_reminder_to_leave_for_the_old_office_left_or_doubled_fails(solved):
    """The user's 'Leave by .. for <old street>' reminder: left as it was, left beside a new one, or given the
    new street with a wrong hour, fails; the new street in its place (or a new one instead of it) passes."""
    draft, task, oracle = solved
    args = _args(draft, "leave_reminder")
    assert any(line.startswith("leave_reminder: D: the user's own reminder") for line in draft.provenance["levers"])
    before = _reminder(oracle.s0, args["stale"])
    state = copy.deepcopy(oracle.sH)
    _reminder(state, args["stale"]).update(before)
    assert _failed(task, oracle, state) == {"leave_reminder"}

    state = copy.deepcopy(oracle.sH)
    fresh = copy.deepcopy(_reminder(state, args["stale"]))
    _reminder(state, args["stale"]).update(before)
    state["reminders"][args["lst"]].append({**fresh, "uid": "a-new-reminder"})
    assert _failed(task, oracle, state) == {"leave_reminder"}

    state = copy.deepcopy(oracle.sH)
    todo = _reminder(state, args["stale"])
    todo["title"] = todo["title"].replace(args["at"], "07:05")
    todo["due"] = todo["due"].replace(args["at"], "07:05")
    assert _failed(task, oracle, state) == {"leave_reminder"}

    state = copy.deepcopy(oracle.sH)
    todo = _reminder(state, args["stale"])
    state["reminders"][args["lst"]].remove(todo)
    state["reminders"][args["lst"]].append({**todo, "uid": "made-again"})
    assert _failed(task, oracle, state) == set()


def test_the_users_own_reminder_about_a_sent_document_left_open_fails(solved):
    draft, task, oracle = solved
    args = _args(draft, "own_reminder_ticked")
    (uid,) = args["done"]
    assert args["lst"] != _args(draft, "ticked")["lst"]
    state = copy.deepcopy(oracle.sH)
    _reminder(state, uid).update(_reminder(oracle.s0, uid))
    assert _failed(task, oracle, state) == {"own_reminder_ticked"}


@pytest.mark.stage2
def test_subsets_of_the_operators_are_accepted_with_every_mutant_killed(pool, tmp_path):
    for operators in (["noisy_data", "cross_source_conflict"], []):
        generate(FAMILY, 4, operators=operators).write(tmp_path)
    for report in validate_path(tmp_path, pool):
        assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
        assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
        assert report.mutation["total"] >= 10


def test_the_documents_count_once_they_reach_the_mailbox_the_automatic_reply_names(solved):
    """The first mail to the advisor brings their firm's automatic reply: client documents go to its documents
    mailbox now. Graded on a document of that first mail."""
    draft, task, oracle = solved
    end = oracle.sH or {}
    shas = {a["sha256"] for a in end["mail"]["outbox"][0]["attachments"]}
    item = next(c.id for c in draft.checks if c.args.get("tried") and c.args["sha256"] in shas)
    redirect_is_graded(draft, end, lambda state: _failed(task, oracle, state), says=False, item_id=item)


def test_after_the_reply_the_documents_may_go_to_the_mailbox_alone(solved):
    """Once the first mail brought the reply, the rest may go to the documents mailbox alone; a document the
    advisor got in two mails reached them twice, and fails; with nothing to the advisor at all, nobody could
    have known the mailbox, and every document fails."""
    draft, task, oracle = solved
    [reply] = draft.autoreplies
    checks = [c for c in draft.checks if c.args.get("tried")]
    assert {c.id for c in checks} == {c.id for c in draft.checks if c.id.startswith("sent_")}
    desk, advisor = checks[0].args["to"][0], reply["address"]
    outbox = oracle.sH["mail"]["outbox"]
    [first] = [m for m in outbox if advisor in str(m["to"])]
    assert all(desk in str(m["to"]) for m in outbox if m is not first and m.get("attachments"))
    assert _failed(task, oracle, oracle.sH) == set()
    in_first = {c.id for c in checks if c.args["sha256"] in {a["sha256"] for a in first["attachments"]}}
    assert in_first and in_first != {c.id for c in checks}
    # The first mail written again to the advisor (a second try): they got its documents twice.
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].append({**copy.deepcopy(first), "message_id": "<again@example.org>", "body": "Again."})
    assert _failed(task, oracle, state) == in_first
    # Nothing to the advisor: the documents mailbox was a guess.
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"] = [m for m in state["mail"]["outbox"] if advisor not in str(m["to"])]
    assert {c.id for c in checks} <= _failed(task, oracle, state)
