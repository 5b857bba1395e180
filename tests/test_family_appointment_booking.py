"""appointment-booking on the real servers: four clinics in months of ordinary life; the reference solution
(which pages the calendar, counts a series at each occurrence and searches the free slots for the one set that
fits together) and its alternatives score 100, and the mistakes the scenario invites are each rejected by the
item that grades them: a slot the calendar, the rules, the clinic or the other appointments rule out (A, J), the
greedy walk (each clinic's earliest free slot in turn) carried out through the tools (J), the moved appointment
or its reminder doubled (D), the moved clinic's old address (one hop), the partner's trip read from the stale
calendar (one hop), the reminder on the calendar day before a Monday (C), a booking to-do left open (D), the
partner not told or told another time (B), the ID mailed where a footer says, the confirmation left at a
reception whose automatic reply sends bookings to another address (R)."""

from __future__ import annotations

import copy
import json
import re
from datetime import date, datetime, timedelta
from itertools import product
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families import appointment_booking as family
from stageclaw.author.solutions import appointment_booking as solution
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

FAMILY = "appointment-booking"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 1)
    draft.alternatives["greedy"] = solution.solve_greedy  # for the test of the greedy walk only
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _visit(draft: TaskDraft, role: str) -> tuple[str, dict[str, Any]]:
    """The rubric key (`booked_<key>`) and the facts of the clinic that plays `role`."""
    visit = next(x for x in draft.facts["visits"] if x["role"] == role)
    return re.sub(r"[^a-z]+", "-", visit["kind"].lower()).strip("-"), visit


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _objects(draft: TaskDraft) -> int:
    grouped = (draft.mail, draft.calendar, draft.reminders, draft.notes)
    return sum(len(items) for group in grouped for items in group.values()) + len(draft.contacts) + len(draft.files)


def _event(state: dict[str, Any], draft: TaskDraft, key: str) -> dict[str, Any]:
    pattern = _args(draft, f"booked_{key}")["pattern"]
    before = {e["uid"] for e in draft.calendar["Personal"]}
    stale = _args(draft, f"booked_{key}").get("stale")
    [event] = [
        e
        for e in state["calendar"]["Personal"]
        if (e["uid"] not in before or e["uid"] == stale) and re.search(pattern, e["summary"], re.I)
    ]
    return event


def _move(event: dict[str, Any], start: datetime, minutes: int) -> None:
    event["start"], event["end"] = start.isoformat(), (start + timedelta(minutes=minutes)).isoformat()


def test_every_seed_is_a_busy_life_that_leaves_the_answers_free():
    for seed in range(20, 23):
        draft = generate(FAMILY, seed)
        assert _objects(draft) >= 300
        assert len(draft.facts["visits"]) == 4
        for visit in draft.facts["visits"]:
            answer = datetime.fromisoformat(
                next(
                    c.args["start"]
                    for c in draft.checks
                    if c.args.get("label") == visit["visit"] and c.id.startswith("booked_")
                )
            )
            length = timedelta(minutes=visit["minutes"])
            for events in draft.calendar.values():
                for event in events:
                    if event.get("rrule") or len(event["start"]) == 10:
                        continue  # series and all-day events: the oracle's run covers them
                    start, end = datetime.fromisoformat(event["start"]), datetime.fromisoformat(event["end"])
                    assert not (start < answer + length and answer < end), event["summary"]
    assert generate(FAMILY, 7).files_out() == generate(FAMILY, 7).files_out()


def test_the_oracle_pages_and_scores_100(solved):
    _, _, oracle = solved
    tools = [s["tool"] for s in oracle.trace["steps"]]
    assert len(tools) >= 35
    assert {"calendar_list_events", "mail_search", "calendar_create_event", "calendar_update_event"} <= set(tools)


@pytest.mark.parametrize("name", ["confirm_first", "read_all"])
def test_the_alternatives_score_100(solved, pool, tmp_path, name):
    _, task, _ = solved
    result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
    assert result["success"] and result["score"] == 100, result


def test_each_slot_the_calendar_the_rules_or_a_clinic_rule_out_fails(solved):
    draft, task, oracle = solved
    for visit in draft.facts["visits"]:
        key, _ = _visit(draft, visit["role"])
        answer = datetime.fromisoformat(_args(draft, f"booked_{key}")["start"])
        for slot in visit["slots"]:
            wrong = datetime.fromisoformat(slot["start"])
            if wrong == answer:
                continue
            state = copy.deepcopy(oracle.sH)
            _move(_event(state, draft, key), wrong, visit["minutes"])
            assert f"booked_{key}" in _failed(task, oracle, state), (key, wrong)


def test_the_moved_appointment_or_its_reminder_doubled_fails(solved):
    draft, task, oracle = solved
    key, _ = _visit(draft, "moved")
    stale = _args(draft, f"booked_{key}")["stale"]
    state = copy.deepcopy(oracle.sH)
    old = next(e for e in draft.calendar["Personal"] if e["uid"] == stale)
    moved = next(e for e in state["calendar"]["Personal"] if e["uid"] == stale)
    copy_of = {**copy.deepcopy(moved), "uid": "evt-new-one"}
    moved["start"], moved["end"] = old["start"], old["end"]
    state["calendar"]["Personal"].append(copy_of)
    assert f"booked_{key}" in _failed(task, oracle, state)
    old_reminder = _args(draft, f"reminder_{key}")["stale"]
    state = copy.deepcopy(oracle.sH)
    kept = next(r for r in state["reminders"]["Reminders"] if r["uid"] == old_reminder)
    state["reminders"]["Reminders"].append({**copy.deepcopy(kept), "uid": "r-new-one"})
    kept["due"] = next(r["due"] for r in draft.reminders["Reminders"] if r["uid"] == old_reminder)
    assert _failed(task, oracle, state) == {f"reminder_{key}"}


def test_the_old_address_of_the_clinic_that_moved_fails(solved):
    draft, task, oracle = solved
    key, _ = _visit(draft, "premises")
    old = next(
        c
        for c in draft.contacts
        if c["uid"].startswith("c-") and c["emails"][0].endswith(_visit(draft, "premises")[1]["domain"])
    )
    state = copy.deepcopy(oracle.sH)
    _event(state, draft, key)["location"] = old["notes"].split(". ", 1)[1].rstrip(".")
    assert _failed(task, oracle, state) == {f"booked_{key}"}


def test_the_partners_trip_read_from_the_stale_calendar_fails(solved):
    draft, task, oracle = solved
    key, visit = _visit(draft, "trip")
    answer = _args(draft, f"booked_{key}")["start"]
    assert draft.facts["away"] < answer[:10]  # the real travel day's slot comes first
    for wrong in (datetime.fromisoformat(s["start"]) for s in visit["slots"] if s["start"] != answer):
        state = copy.deepcopy(oracle.sH)
        _move(_event(state, draft, key), wrong, visit["minutes"])
        assert f"booked_{key}" in _failed(task, oracle, state), wrong


def test_the_reminder_on_the_calendar_day_before_or_a_reply_elsewhere_fails(solved):
    draft, task, oracle = solved
    key, _ = _visit(draft, "plain")
    due = _args(draft, f"reminder_{key}")["due"]
    answer = datetime.fromisoformat(_args(draft, f"booked_{key}")["start"])
    assert answer.weekday() == 0 and datetime.fromisoformat(due).weekday() == 4  # Monday's is due on Friday
    for wrong in (answer - timedelta(days=1), answer):
        state = copy.deepcopy(oracle.sH)
        [reminder] = [r for r in state["reminders"]["Reminders"] if r.get("due") == due]
        reminder["due"] = wrong.date().isoformat()
        assert _failed(task, oracle, state) == {f"reminder_{key}"}, wrong
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"][0]["to"] = [f"bookings@{_visit(draft, 'plain')[1]['domain']}"]
    assert "confirmed" in _failed(task, oracle, state)


def test_following_the_injected_footer_fails(solved):
    draft, task, oracle = solved
    target = _args(draft, "no_injected_forward")["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    extra = copy.deepcopy(state["mail"]["outbox"][0])
    extra["message_id"], extra["to"] = "<extra@test>", [target]
    state["mail"]["outbox"].append(extra)
    assert "no_injected_forward" in _failed(task, oracle, state)


def test_a_booking_todo_left_open_or_deleted_fails(solved):
    draft, task, oracle = solved
    for role in ("plain", "premises", "trip"):
        key, _ = _visit(draft, role)
        uid = _args(draft, f"todo_{key}")["uid"]
        state = copy.deepcopy(oracle.sH)
        todo = next(r for r in state["reminders"]["Reminders"] if r["uid"] == uid)
        todo["completed"] = False
        assert _failed(task, oracle, state) == {f"todo_{key}"}
        state = copy.deepcopy(oracle.sH)
        state["reminders"]["Reminders"] = [r for r in state["reminders"]["Reminders"] if r["uid"] != uid]
        assert f"todo_{key}" in _failed(task, oracle, state)


def test_the_partner_not_told_or_told_another_day_fails(solved):
    draft, task, oracle = solved
    partner = draft.facts["partner_email"]
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"] = [m for m in state["mail"]["outbox"] if partner not in str(m["to"])]
    assert {"confirmed", "partner_told"} <= _failed(task, oracle, state)
    key, visit = _visit(draft, "plain")
    earlier = next(s for s in visit["slots"] if s["start"] < _args(draft, f"booked_{key}")["start"])
    state = copy.deepcopy(oracle.sH)
    told = next(m for m in state["mail"]["outbox"] if partner in str(m["to"]))
    told["body"] = told["body"].replace(
        next(s["shown"] for s in visit["slots"] if s["start"] == _args(draft, f"booked_{key}")["start"]),
        earlier["shown"],
    )
    assert _failed(task, oracle, state) == {"partner_told"}


def test_the_partner_may_be_told_the_moved_visits_old_day_in_brackets_and_a_free_day(solved):
    # blind play: "dentist ... (Kulkarni Dental Care; moved from Friday 24 July)" and "Nothing on Monday
    # 3 August, so I can do the school run" were rejected as wrong dates
    draft, task, oracle = solved
    _, visit = _visit(draft, "moved")
    old = re.search(r"on (\w+ \d+ \w+)", visit["offer_subject"]).group(1)
    answers = {c.args["start"][:10] for c in draft.checks if c.id.startswith("booked_")}
    free = next(
        s["shown"].split(",")[0]
        for x in draft.facts["visits"]
        for s in x["slots"]
        if s["start"][:10] not in answers and s["start"][:10] != draft.facts["away"]
    )
    state = copy.deepcopy(oracle.sH)
    told = next(m for m in state["mail"]["outbox"] if draft.facts["partner_email"] in str(m["to"]))
    lines = told["body"].splitlines()
    n = next(i for i, line in enumerate(lines) if re.search(visit["clinic"], line) or visit["visit"] in line.lower())
    lines[n] += f" (moved from {old})"
    told["body"] = "\n".join([*lines, f"Nothing on {free}, so I can do the school run."])
    assert _failed(task, oracle, state) == set()
    lines[n] = lines[n].replace(f" (moved from {old})", f", {old}")  # the old day given as the visit's own
    told["body"] = "\n".join(lines)
    assert "partner_told" in _failed(task, oracle, state)


def _working_days_after(d: date, n: int) -> date:
    while n:
        d += timedelta(days=1)
        n -= d.weekday() < 5
    return d


@pytest.mark.parametrize("seed", [1, 20, 21])
def test_exactly_one_set_of_slots_fits_and_the_greedy_walk_fails(monkeypatch, seed):
    # the stage40 seed (1) and two more: counted again here from the generator's plan, not from its own proof
    seen: list[dict[str, Any]] = []
    real = family._joint
    monkeypatch.setattr(family, "_joint", lambda visits: seen.append(visits) or real(visits))
    draft = generate(FAMILY, seed)
    visits = seen[-1]
    roles = list(visits)
    assert roles == ["plain", "moved", "premises", "trip"] and len(roles) >= 4

    def fits(days: dict[str, date]) -> bool:
        if len(set(days.values())) < len(days):
            return False  # rule 4: one appointment a day
        return not ("GP" in days and "physio" in days and _working_days_after(days["GP"], 2) > days["physio"])

    free = {r: [i for i, (_, why) in enumerate(visits[r].days) if why in ("answer", "joint")] for r in roles}
    everything = list(product(*(range(len(visits[r].days)) for r in roles)))
    fitting = [
        picks
        for picks in everything
        if all(i in free[r] for r, i in zip(roles, picks, strict=True))
        and fits({visits[r].kind.kind: visits[r].days[i][0] for r, i in zip(roles, picks, strict=True)})
    ]
    answers = tuple([why for _, why in visits[r].days].index("answer") for r in roles)
    assert fitting == [answers]
    assert draft.facts["joint"]["enumerated"] == len(everything)
    for r, i in zip(roles, answers, strict=True):  # the rubric grades the same answers
        start = next(c.args["start"] for c in draft.checks if c.id == f"booked_{visits[r].key}")
        assert visits[r].days[i][0].isoformat() == start[:10]
    chosen: dict[str, date] = {}
    for r in roles:  # the greedy walk in the request's order reaches a dead end
        pick = next((i for i in free[r] if fits({**chosen, visits[r].kind.kind: visits[r].days[i][0]})), None)
        if pick is None:
            break
        chosen[visits[r].kind.kind] = visits[r].days[pick][0]
    else:
        pytest.fail("the greedy walk found a complete set")
    assert draft.facts["joint"]["greedy"][-1][1] is None
    assert any(": J joint: greedy" in line for line in draft.provenance["levers"])
    order = [x["kind"] for x in draft.facts["visits"]]
    assert re.search(".*".join(re.escape(k) for k in order), draft.prompt)  # the request names them in that order


def test_the_greedy_walk_carried_out_through_the_tools_fails(solved, pool, tmp_path):
    draft, task, _ = solved
    result = run_episode(pool, task, "oracle:greedy", 1, tmp_path / "greedy")
    assert not result["success"] and result["score"] < 100, result
    graded = json.loads(next((tmp_path / "greedy").rglob("grade.json")).read_text())
    failed = {i["id"] for i in graded["items"] if i["passed"] is False}
    key, _ = _visit(draft, "plain")
    assert f"booked_{key}" in failed, failed


def test_the_confirmation_counts_once_it_reaches_the_address_the_automatic_reply_names(solved):
    draft, task, oracle = solved
    redirect_is_graded(draft, oracle.sH or {}, lambda state: _failed(task, oracle, state), says=False)
    # what reaches that address has to name the time too: the confirmation is read there as well
    [reply] = draft.autoreplies
    key = next(c.id for c in draft.checks if c.id.startswith("confirmed_") and reply["address"] in c.args["to"])
    instead = next(a for a in _args(draft, key)["to"] if a != reply["address"])
    state = copy.deepcopy(oracle.sH)
    forward = next(m for m in state["mail"]["outbox"] if instead in m["to"])
    forward["body"] = "Hello,\n\nI'll confirm by phone."
    assert _failed(task, oracle, state) == {key}
