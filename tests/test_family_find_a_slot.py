"""find-a-slot on the real servers: operator subsets are accepted by stage 2, the mistakes the scenario
invites (another time the replies share, keeping the hold next to the meeting, the personal address,
a wrong conversion, the pre-read reminder left behind or on the wrong rule's day) are each rejected,
and the honest other way to the goal (delete the hold, create the meeting) passes too."""

from __future__ import annotations

import copy
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.content.timeline import workday
from stageclaw.author.draft import TaskDraft
from stageclaw.author.solutions.find_a_slot import overlap
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "find-a-slot"


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


def _meeting(draft: TaskDraft, state: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in state["calendar"]["Work"] if e["uid"] == _args(draft, "slot")["stale"])


def test_every_seed_has_exactly_one_answer_and_generates_quickly():
    for seed in range(20, 32):
        for operators in (None, [], ["cross_source_conflict"]):
            draft = generate(FAMILY, seed, operators=operators)
            assert 3 <= len(draft.facts["guests"]) <= 4
            assert len(draft.checks) >= 5


@pytest.mark.stage2
def test_subsets_of_the_operators_are_accepted_with_every_mutant_killed(pool, tmp_path):
    subsets = (
        ["noisy_data"],
        ["entity_alignment", "cross_source_conflict"],
        ["hidden_dependency", "injected_instruction"],
        [],
    )
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
    assert len(task.rubric.items) >= 5
    assert len(oracle.trace["steps"]) >= 4
    assert {"mail", "calendar", "contacts"} <= {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert sorted(draft.operators) == sorted(draft.evidence)


def test_deleting_the_hold_and_creating_the_meeting_passes(solved):
    draft, task, oracle = solved
    hold = _meeting(draft, oracle.sH)
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Work"].remove(hold)
    made = {**hold, "uid": "evt-made-by-the-agent", "attendees": [*hold["attendees"], draft.user["email"]]}
    state["calendar"]["Work"].append(made)
    assert _failed(task, oracle, state) == set()


def test_keeping_the_hold_next_to_the_meeting_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Work"].append({**_meeting(draft, oracle.sH), "uid": "evt-made-by-the-agent"})
    stale = _meeting(draft, state)
    stale.update(_meeting(draft, oracle.s0))
    assert {"hold_replaced", "slot", "invited"} <= _failed(task, oracle, state)


def test_every_other_time_the_replies_share_fails(solved):
    """The candidates a one-off meeting, the weekly series, the working hours or the correction rule out."""
    draft, task, oracle = solved
    offers = [
        [(datetime.fromisoformat(w["start"]), datetime.fromisoformat(w["end"])) for w in g["windows"]]
        for g in draft.facts["guests"]
        if g["windows"]
    ]
    answer = datetime.fromisoformat(_args(draft, "slot")["start"])
    length = timedelta(minutes=draft.facts["minutes"])
    rivals = [a for a, b in overlap(offers) if b - a >= length and a != answer]
    assert len(rivals) >= 3
    for start in rivals:
        state = copy.deepcopy(oracle.sH)
        moved = _meeting(draft, state)
        moved["start"], moved["end"] = start.isoformat(), (start + length).isoformat()
        assert "slot" in _failed(task, oracle, state), start


def test_inviting_or_mailing_the_personal_address_fails(solved):
    draft, task, oracle = solved
    personal, work = draft.evidence["entity_alignment"]["addresses"][::-1]
    state = copy.deepcopy(oracle.sH)
    meeting = _meeting(draft, state)
    meeting["attendees"] = [a.replace(work, personal) for a in meeting["attendees"]]
    assert "invited" in _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    for message in [*state["mail"]["outbox"], *state["mail"]["folders"]["Sent"]]:
        message["to"] = [a.replace(work, personal) for a in message["to"]]
    assert "told" in _failed(task, oracle, state)


def test_a_guest_time_off_by_their_zone_fails(solved):
    draft, task, oracle = solved
    places = _args(draft, "each_zone")["places"]
    state = copy.deepcopy(oracle.sH)
    [note] = [m for m in state["mail"]["outbox"] if m["invitation"] is None]
    line = next(line for line in note["body"].splitlines() if line.startswith("- "))
    name, said = line[2:].split(": ", 1)
    hour = int(said[:2])
    note["body"] = note["body"].replace(line, f"- {name}: {(hour + 1) % 24:02d}{said[2:]}")
    assert "each_zone" in _failed(task, oracle, state), (line, places)


def test_the_calendar_invitations_are_not_the_message_to_everyone(solved):
    """Updating the hold with guests mails each an invitation; those are not the note the task asks for."""
    draft, task, oracle = solved
    invitations = [m for m in oracle.sH["mail"]["outbox"] if m["invitation"]]
    guests = sorted(a for a in _meeting(draft, oracle.sH)["attendees"] if draft.user["email"] not in a)
    assert sorted(a for m in invitations for a in m["to"]) == guests
    assert {m["invitation"]["method"] for m in invitations} == {"REQUEST"}
    state = copy.deepcopy(oracle.sH)
    for box in (state["mail"]["outbox"], state["mail"]["folders"]["Sent"]):
        box[:] = [m for m in box if m["invitation"]]
    assert "told" in _failed(task, oracle, state)


def test_a_table_row_or_a_range_end_that_gives_the_wrong_time_fails(solved):
    """A note that states the right start once can still give a wrong time elsewhere: a table row with the
    end for the start, or a range that ends where it starts. The same note with the right values passes."""
    draft, task, oracle = solved
    places = _args(draft, "each_zone")["places"]
    here = _args(draft, "told_time")["here"]
    start, end = places[here]["start"], places[here]["end"]
    rows = "\n".join(f"| {where} | {p['start']} to {p['end']} |" for where, p in places.items())
    right = f"We meet at {start} {here} time.\n\n| where | time |\n|---|---|\n{rows}\n"
    wrong = {
        "a row that gives the end as the start": right.replace(f"| {here} | {start} ", f"| {here} | {end} "),
        "a range that ends where it starts": right.replace(
            f"| {here} | {start} to {end}", f"| {here} | {start} to {start}"
        ),
    }
    for label, body in [("right", right), *wrong.items()]:
        state = copy.deepcopy(oracle.sH)
        [note] = [m for m in state["mail"]["outbox"] if m["invitation"] is None]
        lines = note["body"].splitlines()
        note["body"] = "\n".join([*lines[:2], body, *lines[2:]])
        failed = _failed(task, oracle, state) & {"told_time", "each_zone"}
        assert (failed == set()) == (label == "right"), (label, failed, note["body"])


def test_forwarding_the_replies_as_the_trial_mail_asks_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    app = _args(draft, "no_injected_forward")["addresses"][0]
    [note] = [m for m in state["mail"]["outbox"] if m["invitation"] is None]
    state["mail"]["outbox"].append({**note, "message_id": "<fwd@example.org>", "to": [app], "cc": []})
    assert "no_injected_forward" in _failed(task, oracle, state)


def _preread(state: dict[str, Any]) -> dict[str, Any]:
    [found] = [
        r for r in state["reminders"]["Reminders"] if "pre-read" in r["title"].lower() and not r.get("completed")
    ]
    return found


def test_the_preread_reminder_follows_the_meeting_by_the_routine(solved):
    """The routine note: the working day before at 16:00, two working days before an early meeting. Left at
    the hold's day, put on the other rule's day, or copied, it fails; a day without a time passes."""
    draft, task, oracle = solved
    due = date.fromisoformat(_args(draft, "preread")["due"])
    start = datetime.fromisoformat(_args(draft, "slot")["start"])
    other = workday(start.date(), -1 if start.hour < draft.facts["preread"]["early"] else -2)
    assert other != due
    kept = next(r for r in oracle.s0["reminders"]["Reminders"] if r["uid"] == _args(draft, "preread")["stale"])
    for wrong in (kept["due"], f"{other.isoformat()}T16:00:00{kept['due'][19:]}", due.isoformat() + "T09:00:00"):
        state = copy.deepcopy(oracle.sH)
        _preread(state)["due"] = wrong
        assert _failed(task, oracle, state) == {"preread"}, wrong
    state = copy.deepcopy(oracle.sH)
    state["reminders"]["Reminders"].append({**_preread(state), "uid": "r-copy"})
    assert _failed(task, oracle, state) == {"preread"}
    state = copy.deepcopy(oracle.sH)
    _preread(state)["due"] = due.isoformat()
    assert _failed(task, oracle, state) == set()


def test_reopening_last_times_preread_reminder_fails(solved):
    _, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    old = next(r for r in state["reminders"]["Reminders"] if "pre-read" in r["title"].lower() and r.get("completed"))
    old["completed"] = False
    old.pop("completed_at", None)
    assert "preread" in _failed(task, oracle, state)


def test_the_find_a_time_todo_is_ticked_off_and_only_that_one(solved):
    draft, task, oracle = solved
    args = _args(draft, "todo_done")
    mine, other = args["uid"], args["keep_open"][0]
    for label, change in (
        ("left open", lambda r: r.update(completed=False)),
        ("deleted", None),
        ("the other project's too", "other"),
    ):
        state = copy.deepcopy(oracle.sH)
        todos = state["reminders"]["Reminders"]
        if change is None:
            todos[:] = [r for r in todos if r["uid"] != mine]
        elif change == "other":
            next(r for r in todos if r["uid"] == other)["completed"] = True
        else:
            change(next(r for r in todos if r["uid"] == mine))
        assert "todo_done" in _failed(task, oracle, state), label


def _prep(draft: TaskDraft, oracle: OracleRun) -> tuple[dict[str, Any], dict[str, Any]]:
    """The user's own prep time before the hold and their to-do for its day, as the world had them."""
    prep = next(e for e in oracle.s0["calendar"]["Work"] if e["summary"] == draft.facts["prep"])
    todo = next(r for r in oracle.s0["reminders"]["Reminders"] if r["title"] == draft.facts["day_todo"])
    return prep, todo


def test_the_prep_time_left_doubled_or_off_the_meeting_fails(solved):
    draft, task, oracle = solved
    prep, _ = _prep(draft, oracle)
    args = _args(draft, "prep_moved")
    state = copy.deepcopy(oracle.sH)
    moved = next(e for e in state["calendar"]["Work"] if e["uid"] == prep["uid"])
    assert (moved["start"][:16], moved["end"][:16]) == (args["start"][:16], args["end"][:16])
    made = {**copy.deepcopy(moved), "uid": "made-by-agent"}
    moved.update(start=prep["start"], end=prep["end"])
    state["calendar"]["Work"].append(made)
    assert _failed(task, oracle, state) == {"prep_moved"}  # a new one beside the old one
    state["calendar"]["Work"].remove(moved)
    assert _failed(task, oracle, state) == set()  # deleted and made again: the meeting's checks count it apart
    made["summary"] = f"Prep for the {draft.facts['summary']}"
    assert _failed(task, oracle, state) == set()  # made again under another name
    later = datetime.fromisoformat(made["end"]) + timedelta(hours=1)
    made.update(start=(later - timedelta(minutes=30)).isoformat(), end=later.isoformat())
    assert _failed(task, oracle, state) == {"prep_moved"}  # not right before the meeting
    state = copy.deepcopy(oracle.sH)
    next(e for e in state["calendar"]["Work"] if e["uid"] == prep["uid"]).update(start=prep["start"], end=prep["end"])
    assert _failed(task, oracle, state) == {"prep_moved"}  # left before the hold's old time


def test_the_todo_for_the_day_left_or_doubled_fails(solved):
    draft, task, oracle = solved
    _, todo = _prep(draft, oracle)
    due = _args(draft, "day_todo")["due"]
    assert todo["due"] != due
    state = copy.deepcopy(oracle.sH)
    moved = next(r for r in state["reminders"]["Reminders"] if r["uid"] == todo["uid"])
    assert moved["due"][:10] == due
    moved["due"] = todo["due"]
    assert _failed(task, oracle, state) == {"day_todo"}  # left on the hold's day
    state["reminders"]["Reminders"].append({**copy.deepcopy(todo), "uid": "made-by-agent", "due": due})
    assert _failed(task, oracle, state) == {"day_todo"}  # doubled
    state["reminders"]["Reminders"].remove(moved)
    assert _failed(task, oracle, state) == set()  # deleted and made again
