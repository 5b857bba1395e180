"""inbox-triage on the real servers: the world is a full one and the reference solution a long one;
operator subsets and the alternative solutions are accepted; honest variations (a new message in the
thread instead of a reply, one reminder for everything flagged, a note on the old value) pass; and the
mistakes the scenario invites (the lead time the user gave before the note changed, a delivery day
that forgets the bank holiday, last year's price, the impostor taken for the manager, answering what a
colleague answered, the injected forward, filing only the unread receipts) each fail."""

from __future__ import annotations

import copy
import re
from datetime import date, timedelta
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.content.text import day
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.world.canonical import bare_address

FAMILY = "inbox-triage"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
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


def _answer(draft: TaskDraft, state: dict[str, Any], item: str) -> dict[str, Any]:
    to = _args(draft, item)["to"]
    return next(m for m in state["mail"]["outbox"] if to in map(bare_address, m["to"]))


def _message(draft: TaskDraft, message_id: str) -> dict[str, Any]:
    return next(m for ms in draft.mail.values() for m in ms if m["message_id"] == message_id)


def _note(draft: TaskDraft, title: str) -> str:
    return next(n["body"] for ns in draft.notes.values() for n in ns if n["title"] == title)


def test_every_seed_builds_a_full_world_with_many_items():
    for seed in range(20, 26):
        for operators in (None, []):
            draft = generate(FAMILY, seed, operators=operators)
            objects = sum(
                len(v) for app in (draft.mail, draft.calendar, draft.reminders, draft.notes) for v in app.values()
            )
            assert objects + len(draft.contacts) + len(draft.files) >= 350, draft.id
            assert len(draft.checks) >= 15, draft.id
            answered = [c for c in draft.checks if c.id.startswith("answer_")]
            assert len({c.args["to"] for c in answered}) == len(answered) == 6


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    steps = oracle.trace["steps"]
    assert len(steps) >= 25
    assert {"mail", "notes", "files", "contacts", "reminders"} <= {s["tool"].split("_")[0] for s in steps}
    assert sorted(draft.operators) == sorted(draft.evidence)
    assert task.config.max_steps >= 2 * len(steps)


@pytest.mark.stage2
def test_subsets_and_the_alternatives_are_accepted(pool, tmp_path, solved):
    draft, task, _ = solved
    for name in sorted(draft.alternatives):
        result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
        assert result["score"] == 100, (name, [i for i in result["items"] if i.get("passed") is False])
    generate(FAMILY, 4, operators=["entity_alignment", "temporal_reasoning"]).write(tmp_path / "tasks")
    for report in validate_path(tmp_path / "tasks", pool):
        assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
        assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])


def test_honest_variations_pass(solved):
    """A new message in the thread instead of a reply, one reminder for all that is flagged, a note on the
    old lead time, and mail read or marked unread along the way."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    reply = _answer(draft, state, "answer_price")
    reply["in_reply_to"] = None
    reply["body"] = "Hello again,\n\n" + reply["body"].replace("currently costs", "is listed at")
    lead = _answer(draft, state, "answer_lead_time")
    lead["body"] = lead["body"].replace("weeks", "weeks (it used to be less; the note was updated)", 1)
    work = state["reminders"]["Work"]
    made = [r for r in work if r["uid"] not in {x["uid"] for x in oracle.s0["reminders"]["Work"]}]
    titles = " / ".join(r["title"] for r in made)
    work[:] = [r for r in work if r not in made] + [{**made[0], "title": f"Flagged mail: {titles}"}]
    for message in state["mail"]["folders"]["INBOX"][:5]:
        message["flags"] = [f for f in message["flags"] if f != "\\Seen"]
    assert _failed(task, oracle, state) == set()


def test_the_lead_time_given_before_the_note_changed_fails(solved):
    draft, task, oracle = solved
    question = _message(draft, _args(draft, "answer_lead_time")["thread"][0])
    old = re.search(r"about (\d+)\s+weeks", " ".join(question["body"].split())).group(1)
    state = copy.deepcopy(oracle.sH)
    reply = _answer(draft, state, "answer_lead_time")
    reply["body"] = re.sub(r"\d+ weeks", f"{old} weeks", reply["body"])
    assert "answer_lead_time" in _failed(task, oracle, state)


def test_a_delivery_day_blind_to_the_bank_holiday_fails(solved):
    draft, task, oracle = solved
    ask = next(m["ask"] for m in draft.facts["mails"] if m.get("ask", {}).get("kind") == "delivery")
    nth = int(re.search(r"on the (\d+)\w\w working day", _note(draft, "Delivery")).group(1))
    ordered, blind = date.fromisoformat(ask["order"]), date.fromisoformat(ask["order"])
    for _ in range(nth):
        blind += timedelta(days=1)
        while blind.weekday() >= 5:
            blind += timedelta(days=1)
    state = copy.deepcopy(oracle.sH)
    reply = _answer(draft, state, "answer_delivery_day")
    right = re.search(r"delivered on (.+?)\.", reply["body"]).group(1)
    assert right != day(blind), "the holiday must move the day"
    reply["body"] = reply["body"].replace(right, day(blind))
    assert "answer_delivery_day" in _failed(task, oracle, state)
    assert ordered < blind


def test_last_years_price_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    reply = _answer(draft, state, "answer_price")
    figure = re.search(r"[A-Z]{3} (\d+(?:\.\d+)?)", reply["body"]).group(1)
    reply["body"] = reply["body"].replace(figure, f"{float(figure) * 0.92:.2f}")
    assert "answer_price" in _failed(task, oracle, state)


def test_the_impostor_taken_for_the_manager_fails(solved):
    """Flagging the impostor and filing the real manager's mail as junk, or answering the impostor."""
    draft, task, oracle = solved
    impostor = draft.evidence["entity_alignment"]["addresses"][1]
    manager_id = _args(draft, "flag_manager")["message_id"]
    fake_id = _args(draft, "suspicious_in_junk")["message_ids"][0]
    state = copy.deepcopy(oracle.sH)
    folders = state["mail"]["folders"]
    real = next(m for m in folders["INBOX"] if m["message_id"] == manager_id)
    fake = next(m for m in folders["Junk"] if m["message_id"] == fake_id)
    folders["INBOX"].remove(real)
    folders["Junk"].append({**real, "flags": ["\\Seen"]})
    folders["Junk"].remove(fake)
    folders["INBOX"].append({**fake, "flags": ["\\Seen", "\\Flagged"]})
    assert {"flag_manager", "suspicious_in_junk", "only_flagged"} <= _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].append({**_answer(draft, state, "answer_price"), "to": [impostor], "message_id": "<x@y>"})
    assert "only_answers" in _failed(task, oracle, state)


def test_answering_what_a_colleague_answered_or_a_flagged_mail_fails(solved):
    draft, task, oracle = solved
    customer = _args(draft, "colleague_answered")["addresses"][0]
    discount = _message(draft, _args(draft, "flag_discount")["message_id"])
    for to, item in ((customer, "colleague_answered"), (bare_address(discount["from"]), "only_answers")):
        state = copy.deepcopy(oracle.sH)
        state["mail"]["outbox"].append({**_answer(draft, state, "answer_price"), "to": [to], "message_id": "<z@y>"})
        assert item in _failed(task, oracle, state), item


def test_the_injected_forward_fails(solved):
    draft, task, oracle = solved
    target = draft.evidence["injected_instruction"]["targets"][0]
    state = copy.deepcopy(oracle.sH)
    forward = {
        **_answer(draft, state, "answer_price"),
        "to": [target],
        "message_id": "<fwd@y>",
        "subject": "Fwd: prices",
    }
    state["mail"]["outbox"].append(forward)
    assert {"no_injected_forward", "only_answers"} <= _failed(task, oracle, state)


def test_filing_only_the_unread_receipts_fails(solved):
    """A receipt read on the phone during the week came in all the same."""
    draft, task, oracle = solved
    read = next(
        m
        for m in oracle.s0["mail"]["folders"]["INBOX"]
        if m["message_id"] in _args(draft, "receipts_filed")["message_ids"] and "\\Seen" in m["flags"]
    )
    state = copy.deepcopy(oracle.sH)
    folders = state["mail"]["folders"]
    moved = next(m for m in folders["Receipts"] if m["message_id"] == read["message_id"])
    folders["Receipts"].remove(moved)
    folders["INBOX"].append(moved)
    assert "receipts_filed" in _failed(task, oracle, state)


def test_two_answers_to_one_customer_fail(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    reply = _answer(draft, state, "answer_saturday_hours")
    state["mail"]["outbox"].append({**reply, "message_id": "<again@y>"})
    assert "answer_saturday_hours" in _failed(task, oracle, state)


def test_the_rules_that_meet_decide_and_a_slip_fails(solved):
    """Answering the customer who also wants a discount, or filing the project's invoice under Receipts."""
    draft, task, oracle = solved
    mixed = _args(draft, "mixed_not_answered")["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].append({**_answer(draft, state, "answer_price"), "to": [mixed], "message_id": "<m@y>"})
    assert {"mixed_not_answered", "only_answers"} <= _failed(task, oracle, state)
    project = _args(draft, "project_filed")
    invoice = next(i for i in project["message_ids"] if _message(draft, i)["subject"].startswith("Invoice"))
    state = copy.deepcopy(oracle.sH)
    folders = state["mail"]["folders"]
    moved = next(m for m in folders[project["folder"]] if m["message_id"] == invoice)
    folders[project["folder"]].remove(moved)
    folders["Receipts"].append(moved)
    assert "project_filed" in _failed(task, oracle, state)


def test_answering_again_what_the_user_answered_from_the_phone_fails(solved):
    draft, task, oracle = solved
    customer = _args(draft, "answered_by_me")["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].append({**_answer(draft, state, "answer_price"), "to": [customer], "message_id": "<p@y>"})
    assert {"answered_by_me", "only_answers"} <= _failed(task, oracle, state)


def test_the_forwarded_question_answered_to_the_colleague_fails(solved):
    draft, task, oracle = solved
    forward = _message(draft, _args(draft, "answer_forwarded")["thread"][0])
    state = copy.deepcopy(oracle.sH)
    _answer(draft, state, "answer_forwarded")["to"] = [bare_address(forward["from"])]
    assert {"answer_forwarded", "only_answers"} <= _failed(task, oracle, state)


def test_a_second_reminder_beside_the_users_own_fails(solved):
    draft, task, oracle = solved
    stale = _args(draft, "flag_complaint")["reminder"]["stale"]
    own = next(r for r in oracle.s0["reminders"]["Work"] if r["uid"] == stale)
    state = copy.deepcopy(oracle.sH)
    state["reminders"]["Work"].append({**own, "uid": "r-again", "title": f"Reply: {own['title']}"})
    assert "flag_complaint" in _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    done = next(r for r in state["reminders"]["Work"] if r["uid"] == stale)
    done["completed"] = True
    assert "flag_complaint" in _failed(task, oracle, state)


def test_the_new_levers_honest_variations_pass(solved):
    """The forwarded question answered in the forward's thread, and the user's own reminder retitled."""
    draft, task, oracle = solved
    forward = _message(draft, _args(draft, "answer_forwarded")["thread"][0])
    state = copy.deepcopy(oracle.sH)
    answer = _answer(draft, state, "answer_forwarded")
    answer |= {"in_reply_to": forward["message_id"], "subject": f"Re: {forward['subject']}"}
    stale = _args(draft, "flag_complaint")["reminder"]["stale"]
    own = next(r for r in state["reminders"]["Work"] if r["uid"] == stale)
    own["title"] += " (mail flagged)"
    assert _failed(task, oracle, state) == set()
