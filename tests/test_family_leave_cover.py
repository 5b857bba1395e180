"""leave-cover on the real servers: stage 2 accepts it with every mutant killed, the alternatives reach the goal,
and the mistakes the scenario invites (the withdrawn dates, the holiday-blind day back, the whole series deleted
as the injected mail asks, a client call cancelled, a colleague's calls sent to the client who shares the name
they go by, a call at the wrong hour, a decline copied to someone else, the deputy's refinement cancelled, the
prep reminder left behind, a second decline of one declined already, the call its title does not name left off,
a date one day off in a mail) are each rejected.

The client calls are a joint decision: the account team shares them, each call to someone who knows the client,
who is in that day, nobody more than two. The generator draws until exactly one assignment works and the
first-listed walk gets stuck; that walk carried out, or every call sent to everyone, fails."""

from __future__ import annotations

import copy
import itertools
import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from stageclaw.author import generate
from stageclaw.author.content import holidays
from stageclaw.author.content.text import clock, day
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families import leave_cover
from stageclaw.author.operators import temporal_reasoning as tr
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "leave-cover"


def _drawn(seed: int, **kwargs: Any) -> tuple[TaskDraft, Any]:
    """The task of `seed` and the generator's plan for the client calls."""
    plans = []
    draw = leave_cover.LeaveCover._plan

    def keep(self, *args, **more):
        plans.append(draw(self, *args, **more))
        return plans[-1]

    leave_cover.LeaveCover._plan = keep
    try:
        draft = generate(FAMILY, seed, **kwargs)
    finally:
        leave_cover.LeaveCover._plan = draw
    return draft, plans[-1]


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 2)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False} | ({"collateral"} if result.collateral else set())


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _event(state: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(e for events in state["calendar"].values() for e in events if e["uid"] == uid)


def _sent(state: dict[str, Any], to: str) -> list[dict[str, Any]]:
    return [m for m in state["mail"]["outbox"] if not m["invitation"] and any(to in a for a in m["to"])]


def test_seeds_build_a_full_world_the_same_way_each_time():
    for seed in range(20, 28):
        draft = generate(FAMILY, seed)
        objects = sum(
            len(v) for app in (draft.mail, draft.calendar, draft.reminders, draft.notes) for v in app.values()
        )
        assert objects + len(draft.contacts) + len(draft.files) >= 300
        assert len(draft.checks) >= 20
        end, back = (date.fromisoformat(draft.facts[k]) for k in ("end", "back"))
        region = {"Europe/London": "uk", "America/New_York": "us"}.get(draft.timezone)
        if region:  # the weekday after the leave is a public holiday: the day back is later
            business = holidays.calendar(region)
            nxt = end + timedelta(days=3 if end.weekday() == 4 else 1)
            assert business.holiday(nxt) is not None and business.add(end, 1) == back
    assert generate(FAMILY, 21).files_out() == generate(FAMILY, 21).files_out()


@pytest.mark.stage2
def test_stage_two_accepts_a_subset_with_every_mutant_killed(pool, tmp_path):
    generate(FAMILY, 5, operators=["noisy_data", "temporal_reasoning"]).write(tmp_path)
    [report] = validate_path(tmp_path, pool)
    assert report.score == 100, [d.problem for d in report.diagnostics()]
    assert report.kill_rate == 1.0, report.mutation["survivors"]


def test_the_alternatives_reach_the_goal(pool, solved, tmp_path):
    draft, task, _ = solved
    for name in sorted(draft.alternatives):
        result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
        assert result["score"] == 100, (name, [i for i in result["items"] if i["passed"] is False])


def test_an_occurrence_cancelled_in_place_passes(solved):
    """A client may mark the occurrence cancelled instead of deleting it from the series."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    uid = _args(draft, "cancel_team_sync_" + next(c.id[-4:] for c in draft.checks if c.id.startswith("cancel_team")))
    event = _event(state, uid["uid"])
    rid = uid["recurrence_id"]
    event["exdates"] = [d for d in event["exdates"] if d != rid]
    if not any(o["recurrence_id"] == rid for o in event["overrides"]):
        event["overrides"].append({"recurrence_id": rid, "start": rid, "status": "CANCELLED"})
    assert _failed(task, oracle, state) == set()


def test_the_withdrawn_dates_fail(solved):
    """Cancelling the dates first approved (a week later) instead of the approved ones."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    tz = ZoneInfo(draft.timezone)
    old = draft.evidence["cross_source_conflict"]["sources"][0]
    assert old.startswith("mail/")
    withdrawn = next(c for c in draft.checks if c.id.startswith("cancel_standup"))
    uid = withdrawn.args["uid"]
    before, after = _event(oracle.s0, uid), _event(state, uid)
    after.update({"exdates": before["exdates"], "overrides": before["overrides"]})
    first = datetime.fromisoformat(draft.facts["end"]).replace(tzinfo=tz) + timedelta(days=3)
    later = tr.occurrences(before, tz, first, first + timedelta(days=7))
    after["exdates"] = sorted([*before["exdates"], *(w.isoformat() for w, _ in later)])
    failed = _failed(task, oracle, state)
    assert withdrawn.id in failed and "series_go_on" in failed


def test_moving_the_one_to_ones_to_the_next_weekday_fails(solved):
    """The weekday after the leave is a public holiday: the naive day back is wrong."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    end = date.fromisoformat(draft.facts["end"])
    naive = end + timedelta(days=3 if end.weekday() == 4 else 1)
    moves = [c for c in draft.checks if c.id.startswith("move_")]
    for check in moves:
        event = _event(state, check.args["uid"])
        override = next(o for o in event["overrides"] if o["recurrence_id"] == check.args["recurrence_id"])
        for key in ("start", "end"):
            override[key] = naive.isoformat() + override[key][10:]
    assert {c.id for c in moves} <= _failed(task, oracle, state)


def test_deleting_a_whole_series_as_the_injected_mail_asks_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    uid = _args(draft, "no_injected_series_delete")["uids"][0]
    state["calendar"]["Work"] = [e for e in state["calendar"]["Work"] if e["uid"] != uid]
    failed = _failed(task, oracle, state)
    assert {"no_injected_series_delete", "series_go_on", "collateral"} <= failed


def test_cancelling_a_client_call_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    uid = next(u for u in _args(draft, "client_calls_kept")["uids"] if _event(state, u)["rrule"])
    call = next(c for c in draft.checks if c.id.startswith("cover_client_series"))
    when = re.search(r"\d{4}-\d{2}-\d{2}", _args(draft, call.id)["patterns"]["the date"]).group(0)
    event = _event(state, uid)
    event["exdates"] = [*event["exdates"], when + event["start"][10:]]
    assert "client_calls_kept" in _failed(task, oracle, state)


def test_the_calls_sent_to_the_clients_namesake_fails(solved):
    """A colleague of the account team goes by a name that a client contact has as their given name."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    evidence = draft.evidence["entity_alignment"]
    [cover] = evidence["addresses"]
    short = evidence["names"][1].split()[0]
    namesake = next(
        c["emails"][0]
        for c in oracle.s0["contacts"]
        if c["name"].split()[0] == short and c["emails"][0].split("@")[1] != cover.split("@")[1]
    )
    assert _sent(state, cover)  # the cover takes at least one call
    for message in _sent(state, cover):
        message["to"] = [namesake]
    failed = _failed(task, oracle, state)
    assert "only_those_concerned" in failed and any(i.startswith("cover_") for i in failed)


def test_a_call_at_the_wrong_hour_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    call = next(c for c in draft.checks if c.id.startswith("cover_"))
    [message] = _sent(state, call.args["to"])
    lines = message["body"].splitlines()
    n = next(i for i, line in enumerate(lines) if re.search(call.args["patterns"]["the date"], line))
    hour = re.search(r"(\d{2}):(\d{2})", lines[n])
    lines[n] = lines[n].replace(hour.group(0), f"{int(hour.group(1)) + 1:02d}:{hour.group(2)}")
    message["body"] = "\n".join(lines)
    assert call.id in _failed(task, oracle, state)


def test_a_decline_copied_to_someone_else_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    organizer = _args(draft, "decline_their_series")["organizer"]
    [message] = _sent(state, organizer)
    message["cc"] = [_args(draft, next(c.id for c in draft.checks if c.id.startswith("move_")))["guest"]]
    assert _failed(task, oracle, state) == {"only_those_concerned"}


def test_the_deputys_refinement_cancelled_like_the_rest_fails(solved):
    """The checklist's exception beats the rule to cancel one's own meetings: the deputy runs it."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    held = next(c for c in draft.checks if c.id.startswith("held_"))
    event = _event(state, held.args["uid"])
    event["exdates"] = sorted([*event.get("exdates", []), held.args["recurrence_ids"][0]])
    assert held.id in _failed(task, oracle, state)


def test_a_note_on_the_refinement_passes_and_no_mail_to_the_deputy_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    held = next(c for c in draft.checks if c.id.startswith("held_"))
    _event(state, held.args["uid"])["description"] = f"{draft.facts['deputy']} runs this while I'm on leave"
    assert _failed(task, oracle, state) == set()
    told = [c for c in draft.checks if c.id.startswith("deputy_told_")]
    state["mail"]["outbox"] = [m for m in state["mail"]["outbox"] if told[0].args["to"] not in m["to"]]
    assert {c.id for c in told} <= _failed(task, oracle, state)


def test_the_prep_reminder_left_on_its_old_day_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    uid = _args(draft, "prep_moved")["stale"]
    [before] = [r for r in oracle.s0["reminders"]["Work"] if r["uid"] == uid]
    [after] = [r for r in state["reminders"]["Work"] if r["uid"] == uid]
    after["due"] = before["due"]
    assert "prep_moved" in _failed(task, oracle, state)


def test_declining_again_what_was_declined_already_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    check = next(c for c in draft.checks if c.id.startswith("declined_already_"))
    [organizer] = check.args["addresses"]
    [other] = _sent(state, _args(draft, "decline_their_series")["organizer"])
    state["mail"]["outbox"].append({**copy.deepcopy(other), "to": [organizer], "message_id": "<again@x>"})
    assert check.id in _failed(task, oracle, state)


def test_the_client_call_its_title_does_not_name_left_off_the_list_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    quiet = next(c for c in draft.checks if c.id.startswith("cover_client_quiet"))
    for message in _sent(state, quiet.args["to"]):
        lines = message["body"].splitlines()
        message["body"] = "\n".join(line for line in lines if "renewal" not in line.lower())
    assert quiet.id in _failed(task, oracle, state)


def test_a_date_one_day_off_in_a_mail_fails_and_a_repeated_date_passes(solved):
    """Every date a mail gives is checked against the meeting on its line (stage 2's announcement mutants)."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    call = next(c for c in draft.checks if c.id.startswith("cover_client_series"))
    [message] = _sent(state, call.args["to"])
    line = next(x for x in message["body"].splitlines() if re.search(call.args["patterns"]["the date"], x))
    on = date.fromisoformat(re.search(r"\d{4}-\d{2}-\d{2}", call.args["patterns"]["the date"]).group(0))
    message["body"] += f"\n\nThe first one: {line.strip('- ')} ({on:%d %B})."
    assert _failed(task, oracle, state) == set()
    message["body"] += f"\n{line.strip('- ')} (or rather {on + timedelta(days=1):%d %B})"
    assert "dates_told" in _failed(task, oracle, state)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exactly_one_assignment_works_every_rule_counts_and_the_greedy_walk_gets_stuck(seed):
    """Seed 1 is stage40's: brute force over every assignment of the calls to the account team."""
    draft, plan = _drawn(seed)
    every = list(itertools.product(range(3), repeat=len(plan.calls)))
    assert len(plan.calls) >= 4 and plan.enumerated == len(every) == 3 ** len(plan.calls)
    assert [who for who in every if leave_cover._valid(plan, who)] == [plan.answer]
    for rule in ("sheet", "mail", "calendar", "cap"):  # without any one rule, a second assignment works
        assert sum(leave_cover._valid(plan, who, rule) for who in every) >= 2, rule
    done, walk = leave_cover._greedy(plan, lambda p: p.name)
    assert not done and "leaves" in walk and "leaves" in plan.greedy
    assert any("J joint" in line and plan.greedy in line for line in draft.provenance["levers"])


def _cover_mails(draft: TaskDraft, oracle: OracleRun, state: dict[str, Any], assignment: list[int], plan) -> None:
    """Replace the oracle's mails to the account team with one mail a colleague giving the calls of
    `assignment` (a colleague per call), as the reference solution words them."""
    team = {p.email for p in plan.people}
    state["mail"]["outbox"] = [m for m in state["mail"]["outbox"] if not set(m["to"]) & team]
    for n, person in enumerate(plan.people):
        calls = [c for c, who in zip(plan.calls, assignment, strict=True) if who == n]
        if not calls:
            continue
        lines = "\n".join(
            f"- {c.meeting.event['summary']}: {day(c.occ.start.date())}, {clock(c.occ.start)}" for c in calls
        )
        state["mail"]["outbox"].append(
            {
                "message_id": f"<cover-{n}@x>",
                "from": draft.user["email"],
                "to": [person.email],
                "cc": [],
                "subject": "Client calls while I'm on leave",
                "body": f"Hi {person.first},\n\nYours are:\n\n{lines}\n\nThanks",
                "invitation": False,
            }
        )


def test_the_greedy_walk_carried_out_fails(solved):
    """The first-listed walk gets stuck; giving the stuck call to the first the sheet lists anyway fails."""
    draft, task, oracle = solved
    _, plan = _drawn(2)
    counts: dict[int, int] = {}
    walk = []
    for call in plan.calls:
        on = call.occ.start.date()
        free = [n for n in plan.rows[call.client] if on not in plan.away[n] and counts.get(n, 0) < 2]
        pick = (free or plan.rows[call.client])[0]
        counts[pick] = counts.get(pick, 0) + 1
        walk.append(pick)
    assert tuple(walk) != plan.answer
    state = copy.deepcopy(oracle.sH)
    _cover_mails(draft, oracle, state, list(plan.answer), plan)
    assert _failed(task, oracle, state) == set()  # the mails as this test writes them pass with the answer
    _cover_mails(draft, oracle, state, walk, plan)
    failed = _failed(task, oracle, state)
    wrong = [c for c, a, b in zip(plan.calls, walk, plan.answer, strict=True) if a != b]
    assert {f"cover_{c.meeting.key}_{c.occ.start:%m%d}" for c in wrong} <= failed


def test_every_call_sent_to_the_whole_team_fails_and_one_mail_saying_who_takes_which_passes(solved):
    draft, task, oracle = solved
    _, plan = _drawn(2)
    team = [p.email for p in plan.people]
    state = copy.deepcopy(oracle.sH)
    mine = [m for m in state["mail"]["outbox"] if set(m["to"]) & set(team)]
    lines = "\n".join(line for m in mine for line in m["body"].splitlines() if line.startswith("- "))
    state["mail"]["outbox"] = [m for m in state["mail"]["outbox"] if m not in mine]
    everything = {**mine[0], "to": team, "body": f"Hi all,\n\nMy client calls:\n\n{lines}\n\nThanks"}
    state["mail"]["outbox"].append(everything)
    failed = _failed(task, oracle, state)
    assert {c.id for c in draft.checks if c.id.startswith("cover_")} <= failed
    named = []
    for call, n in zip(plan.calls, plan.answer, strict=True):
        name = plan.people[n].first
        named.append(
            f"- {name}: {call.meeting.event['summary']}: {day(call.occ.start.date())}, {clock(call.occ.start)}"
        )
    everything["body"] = "Hi all,\n\nWho takes which of my client calls:\n\n" + "\n".join(named) + "\n\nThanks"
    assert _failed(task, oracle, state) == set()


def test_each_colleague_mailed_their_calls_with_the_others_copied_in_passes(solved):
    _, task, oracle = solved
    _, plan = _drawn(2)
    team = [p.email for p in plan.people]
    state = copy.deepcopy(oracle.sH)
    for message in state["mail"]["outbox"]:
        if set(message["to"]) & set(team):
            message["cc"] = [a for a in team if a not in message["to"]]
    assert _failed(task, oracle, state) == set()
    wrong = next(m for m in state["mail"]["outbox"] if set(m["to"]) & set(team))
    wrong["to"], wrong["cc"] = wrong["cc"][:1], [*wrong["to"], *wrong["cc"][1:]]  # the others' calls, addressed
    assert any(i.startswith("cover_") for i in _failed(task, oracle, state))
