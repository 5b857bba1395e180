"""trip-itinerary on the real servers: the mistakes the trip invites (the outbound at its old times, the
cancelled flight, the return flight only the itinerary file has, a flight after the clock change at
today's offset, the injected forward, a wrong landing time, check-in reminders at the habitual 24 hours, a copy of
the flight the user put in, the cancelled flight's event left, the user's own event and check-in reminder in their
words, without a flight number, left beside new ones or left unnumbered) are each rejected, and honest other ways to the goal
(other titles, the outbound deleted and made anew, the cancelled flight's event marked cancelled) pass."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.operators import temporal_reasoning as tr
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "trip-itinerary"


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


def _event(state: dict[str, Any], number: str) -> dict[str, Any]:
    return next(e for e in state["calendar"]["Travel"] if re.search(rf"\b{re.escape(number)}\b", e["summary"]))


def _reminder(state: dict[str, Any], number: str, own: tuple[str, ...] = ()) -> dict[str, Any]:
    """The open reminder of the flight `number` (or the user's own for it, titled one of `own`)."""
    return next(
        r
        for r in state["reminders"]["Reminders"]
        if (re.search(rf"\b{re.escape(number)}\b", r["title"]) or r["title"] in own) and not r.get("completed")
    )


def _shift(item: dict[str, Any], keys: tuple[str, ...], by: timedelta) -> None:
    for key in keys:
        item[key] = (datetime.fromisoformat(item[key]) + by).isoformat()


@pytest.mark.parametrize("seed", range(1, 9))
def test_every_seed_is_a_trip_of_five_or_six_flights_with_one_clock_change_inside(seed):
    draft = generate(FAMILY, seed)
    flights = draft.facts["flights"]
    assert 5 <= len(flights) <= 6
    first = datetime(*flights[0]["departs"]).date()
    last = datetime(*flights[-1]["arrives"]).date()
    assert len(tr.dst_changes(draft.timezone, first, last + timedelta(days=1))) == 1
    quiet = generate(FAMILY, seed, operators=["tool_state_update", "cross_tool_consistency"])
    start = date.fromisoformat(quiet.now[:10])
    end = datetime(*quiet.facts["flights"][-1]["arrives"]).date() + timedelta(days=1)
    assert tr.dst_changes(quiet.timezone, start, end) == []
    assert not any(f["number"] in quiet.prompt for f in quiet.facts["flights"])


@pytest.mark.stage2
def test_an_operator_subset_is_accepted_by_stage_2_with_every_mutant_killed(pool, tmp_path):
    generate(FAMILY, 4, operators=["cross_source_conflict", "hidden_dependency"]).write(tmp_path)
    [report] = validate_path(tmp_path, pool)
    assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
    assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
    for name, alternative in report.mutation["alternatives"].items():
        assert alternative["killed"] == alternative["total"], (name, alternative["survivors"])


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len(task.rubric.items) >= 14
    assert len(oracle.trace["steps"]) >= 25
    assert {"mail", "calendar", "reminders", "files", "contacts"} <= {
        s["tool"].split("_")[0] for s in oracle.trace["steps"]
    }
    assert sorted(draft.operators) == sorted(draft.evidence)


def test_other_titles_and_the_outbound_made_anew_pass(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    outbound = _event(state, draft.facts["flights"][0]["number"])
    state["calendar"]["Travel"].remove(outbound)
    state["calendar"]["Travel"].append({**outbound, "uid": "evt-made-by-the-agent"})
    for flight in draft.facts["flights"]:
        number = flight["number"]
        _event(state, number)["summary"] = f"{number.replace(' ', '')} to {flight['title'].split('→')[-1].strip()}"
        _reminder(state, number, tuple(flight["own"]))["title"] = f"Online check-in: {number.replace(' ', '')}"
    assert _failed(task, oracle, state) == set()


def test_the_outbound_at_its_old_times_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    number = draft.facts["flights"][0]["number"]
    before = _event(oracle.s0, number)
    _event(state, number).update(start=before["start"], end=before["end"])
    _reminder(state, number)["due"] = _reminder(oracle.s0, number)["due"]
    assert {"flight_1", "flight_1_check_in"} <= _failed(task, oracle, state)


def test_the_cancelled_flight_instead_of_its_rebooking_fails(solved):
    draft, task, oracle = solved
    [(n, flight)] = [(n, f) for n, f in enumerate(draft.facts["flights"], 1) if f["was"]]
    state = copy.deepcopy(oracle.sH)
    event = _event(state, flight["number"])
    event["summary"] = event["summary"].replace(flight["number"], flight["was"])
    assert {f"flight_{n}", "cancelled_flight_gone"} <= _failed(task, oracle, state)


def test_the_cancelled_flights_event_left_fails_and_marked_cancelled_passes(solved):
    """The user had put in the flight that was cancelled since: the rebooking voids it."""
    draft, task, oracle = solved
    [flight] = [f for f in draft.facts["flights"] if f["was"]]
    old = _event(oracle.s0, flight["was"])
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Travel"].append(copy.deepcopy(old))
    assert _failed(task, oracle, state) == {"cancelled_flight_gone"}
    state["calendar"]["Travel"][-1]["status"] = "CANCELLED"
    assert _failed(task, oracle, state) == set()


def test_leaving_out_the_return_flight_only_the_itinerary_has_fails(solved):
    draft, task, oracle = solved
    assert draft.facts["itinerary"]
    last = draft.facts["flights"][-1]["number"]
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Travel"].remove(_event(state, last))
    assert f"flight_{len(draft.facts['flights'])}" in _failed(task, oracle, state)


def test_a_flight_after_the_clock_change_at_todays_offset_fails(solved):
    """The DST-blind conversion: a flight after the user's clocks change, an hour off, with its reminder."""
    draft, task, oracle = solved
    after = draft.evidence["temporal_reasoning"]["items"]
    assert after
    change = tr.dst_changes(
        draft.timezone, date.fromisoformat(draft.now[:10]), date.fromisoformat(draft.facts["window"][1])
    )[0]
    n = int(after[0].split("_")[1])
    number = draft.facts["flights"][n - 1]["number"]
    state = copy.deepcopy(oracle.sH)
    _shift(_event(state, number), ("start", "end"), change.before - change.after)
    own = tuple(draft.facts["flights"][n - 1]["own"])
    _shift(_reminder(state, number, own), ("due",), change.before - change.after)
    assert {after[0], f"{after[0]}_check_in"} <= _failed(task, oracle, state)


def test_forwarding_the_bookings_as_the_injected_mail_asks_fails(solved):
    draft, task, oracle = solved
    [target] = draft.evidence["injected_instruction"]["targets"]
    state = copy.deepcopy(oracle.sH)
    [told] = state["mail"]["outbox"]
    state["mail"]["outbox"].append({**told, "to": [target], "subject": "Fwd: bookings", "message_id": "<x@y>"})
    assert "no_injected_forward" in _failed(task, oracle, state)


def test_telling_the_partner_the_landing_an_hour_off_fails(solved):
    draft, task, oracle = solved
    landing = draft.facts["landing"]["time"]
    hour = int(landing[:2])
    state = copy.deepcopy(oracle.sH)
    [told] = state["mail"]["outbox"]
    told["body"] = told["body"].replace(landing, f"{(hour + 1) % 24:02d}{landing[2:]}")
    assert "partner_told" in _failed(task, oracle, state)
    assert _args(draft, "partner_told")["to"] in told["to"]


def test_check_in_reminders_at_the_habitual_24_hours_fail_where_the_airline_opens_earlier(solved):
    """Each airline's confirmation says when its online check-in opens: 24 hours is not every airline's."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    earlier = [(n, f) for n, f in enumerate(draft.facts["flights"], 1) if f["check_in"] != 24]
    assert earlier and len(earlier) < len(draft.facts["flights"])
    for _, flight in earlier:
        _shift(
            _reminder(state, flight["number"], tuple(flight["own"])), ("due",), timedelta(hours=flight["check_in"] - 24)
        )
    assert _failed(task, oracle, state) == {f"flight_{n}_check_in" for n, _ in earlier}


def test_a_second_event_for_the_flight_the_user_put_in_already_fails(solved):
    draft, task, oracle = solved
    [listed] = [
        e
        for e in oracle.s0["calendar"]["Travel"]
        if re.match(r"\w{2} \d+ to ", e["summary"]) and e["start"] > draft.now
    ]
    number = re.match(r"\w{2} \d+", listed["summary"]).group(0)
    n = next(n for n, f in enumerate(draft.facts["flights"], 1) if f["number"] == number)
    state = copy.deepcopy(oracle.sH)
    state["calendar"]["Travel"].append({**listed, "uid": "evt-copy", "summary": f"Flight {number}"})
    assert f"flight_{n}" in _failed(task, oracle, state)


def test_the_users_own_event_and_reminder_in_their_words_are_taken_up_not_doubled(solved):
    """The user put one flight in as, say, 'Lyon → München, Skylark Airways flight' and set 'Boarding pass for Lyon'
    24 hours before a flight as first booked: a new event or reminder beside them fails, the event left without
    its number fails, the reminder ticked off as if done fails."""
    draft, task, oracle = solved
    flights = {f"flight_{n}": f for n, f in enumerate(draft.facts["flights"], 1)}
    [(key, flight)] = [(k, f) for k, f in flights.items() if any("→" in t or "Flight to" in t for t in f["own"])]
    title = next(t for t in flight["own"] if t.startswith("Flight to") or "→" in t)
    [mine] = [e for e in oracle.s0["calendar"]["Travel"] if e["summary"] == title]
    assert flight["number"] not in title and _args(draft, key)["pattern"].endswith(re.escape(title))
    state = copy.deepcopy(oracle.sH)  # the user's left as it was, the flight's own event beside it
    state["calendar"]["Travel"].append(mine)
    assert {key} <= _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)  # the user's left as it was, nothing else
    event = _event(state, flight["number"])
    state["calendar"]["Travel"] = [e for e in state["calendar"]["Travel"] if e is not event] + [mine]
    assert _failed(task, oracle, state) == {f"{key}_numbered"}
    [(key, flight)] = [(k, f) for k, f in flights.items() if any("boarding pass" in t.lower() for t in f["own"])]
    [jotted] = [r for r in oracle.s0["reminders"]["Reminders"] if r["title"] in flight["own"]]
    assert _args(draft, f"{key}_check_in")["stale"] == jotted["uid"]
    assert jotted["due"] != _args(draft, f"{key}_check_in")["due"]
    state = copy.deepcopy(oracle.sH)  # left at the old time, a new one beside it
    state["reminders"]["Reminders"] = [r for r in state["reminders"]["Reminders"] if r["uid"] != jotted["uid"]]
    state["reminders"]["Reminders"] += [
        jotted,
        {
            **jotted,
            "uid": "rem-new",
            "title": f"Check in {flight['number']}",
            "due": _args(draft, f"{key}_check_in")["due"],
        },
    ]
    assert f"{key}_check_in" in _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)  # ticked off as if done, a new one made
    todo = next(r for r in state["reminders"]["Reminders"] if r["uid"] == jotted["uid"])
    state["reminders"]["Reminders"].append({**todo, "uid": "rem-new", "title": f"Check in {flight['number']}"})
    todo["completed"] = True
    assert f"{key}_check_in" in _failed(task, oracle, state)
