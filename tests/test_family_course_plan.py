"""course-plan on the real servers: the oracle meets the v2 bar, the alternatives (one mail per group member;
times given in UTC) score 100, honest variations pass, and the mistakes the syllabus invites each fail: a
deadline at the school's clock time, one converted with the winter gap in a week when only one zone has
changed, the syllabus date of the moved assignment, a reminder counted from the school's date, the other
course's deadlines, the group told at the personal address nobody verified."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.family import get
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

FAMILY = "course-plan"


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


def _event(state: dict[str, Any], start: str, pattern: str) -> dict[str, Any]:
    return next(
        e
        for e in state["calendar"]["Study"]
        if datetime.fromisoformat(e["start"]) == datetime.fromisoformat(start)
        and re.search(pattern, e["summary"], re.I)
    )


def _objects(draft: TaskDraft) -> int:
    groups = (draft.mail, draft.calendar, draft.reminders, draft.notes)
    return sum(len(v) for g in groups for v in g.values()) + len(draft.contacts) + len(draft.files)


def test_the_oracle_meets_the_v2_bar(solved):
    draft, task, oracle = solved
    assert _objects(draft) >= 300
    assert len(oracle.trace["steps"]) >= 25
    apps = {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert {"files", "mail", "calendar", "reminders", "notes", "contacts"} <= apps
    assert len([i for i in task.rubric.items if i.check]) >= 15
    assert sorted(draft.operators) == sorted(draft.evidence)


def test_both_zones_change_their_clocks_during_the_term():
    for seed in range(20, 26):
        draft = generate(FAMILY, seed)
        gaps = set()
        for check in (c for c in draft.checks if c.id.startswith("due_")):
            here = datetime.fromisoformat(check.args["start"])
            there = re.search(r"; (\S+) at the school", check.description).group(1)
            gaps.add(datetime.fromisoformat(there).utcoffset() - here.utcoffset())
        assert len(gaps) >= 2, (seed, gaps)


@pytest.mark.parametrize("name", ["per_person", "utc_times"])
def test_the_alternatives_score_100(solved, pool, tmp_path, name):
    _, task, _ = solved
    result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
    assert result["score"] == 100 and result["success"], [i for i in result["items"] if not i["passed"]]


def test_honest_variations_pass(solved):
    """Events an hour long with the course in the title; the note's lines with the school's time beside."""
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    note = next(c for c in draft.checks if c.id == "study_plan").args
    item = next(n for n in state["notes"]["Notes"] if n["uid"] == note["uid"])
    item["body"] += "\n(Times are UK time; the school's are in the syllabus.)\n"
    for check in (c for c in draft.checks if c.id.startswith("due_")):
        event = _event(state, check.args["start"], check.args["pattern"])
        event["summary"] = f"{event['summary']} – UX/PY/DV course"
    assert _failed(task, oracle, state) == set()


def test_a_deadline_at_the_schools_clock_time_or_the_wrong_gap_fails(solved):
    draft, task, oracle = solved
    zone = draft.facts["zone"]
    for check in (c for c in draft.checks if c.id.startswith("due_")):
        here = datetime.fromisoformat(check.args["start"])
        naive = here.astimezone(ZoneInfo(zone)).replace(tzinfo=here.tzinfo)  # the school's clock time, as if here
        for wrong in (naive, here + timedelta(hours=1), here - timedelta(hours=1)):
            state = copy.deepcopy(oracle.sH)
            event = _event(state, check.args["start"], check.args["pattern"])
            event["start"], event["end"] = wrong.isoformat(), (wrong + timedelta(minutes=30)).isoformat()
            assert check.id in _failed(task, oracle, state), (check.id, wrong)


def test_the_syllabus_date_of_the_moved_assignment_fails(solved):
    draft, task, oracle = solved
    moved = next(d for d in draft.facts["deadlines"] if d["moved_to"])
    check = next(
        c for c in draft.checks if c.id.startswith("due_") and re.search(c.args["pattern"], moved["name"], re.I)
    )
    state = copy.deepcopy(oracle.sH)
    event = _event(state, check.args["start"], check.args["pattern"])
    for key in ("start", "end"):
        back = date.fromisoformat(moved["moved_iso"]) - date.fromisoformat(moved["date"])
        event[key] = (datetime.fromisoformat(event[key]) - back).isoformat()
    assert check.id in _failed(task, oracle, state)


def test_a_reminder_counted_from_the_schools_date_fails(solved):
    """Where the deadline falls on the next day here, counting from the school's date gives a day too early."""
    draft, task, oracle = solved
    for check in (c for c in draft.checks if c.id.startswith("remind_")):
        for wrong in (-1, 1):
            state = copy.deepcopy(oracle.sH)
            todo = next(
                t
                for t in state["reminders"]["Study"]
                if t.get("due") == check.args["due"] and re.search(check.args["pattern"], t["title"], re.I)
            )
            todo["due"] = (date.fromisoformat(check.args["due"]) + timedelta(days=wrong)).isoformat()
            assert check.id in _failed(task, oracle, state), (check.id, wrong)


def test_the_other_course_and_the_unverified_address_fail(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    first = state["calendar"]["Study"][-1]
    state["calendar"]["Study"].append({**first, "uid": "evt-other", "summary": "Quiz 2 due"})
    assert "no_other_course_events" in _failed(task, oracle, state)
    personal = draft.evidence["entity_alignment"]["addresses"][1]
    known = draft.evidence["entity_alignment"]["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    for message in state["mail"]["outbox"]:
        message["to"] = [personal if known in a else a for a in message["to"]]
    assert "group_told" in _failed(task, oracle, state)


def _reminder(state: dict[str, Any], check) -> dict[str, Any]:
    return next(
        t
        for t in state["reminders"]["Study"]
        if t.get("due") == check.args["due"] and re.search(check.args["pattern"], t["title"], re.I)
    )


def test_the_lead_alone_without_the_notes_exceptions_fails(solved):
    """The plain lead for the last assignment (it gets a week), and a reminder left on a weekend day (the note's
    last rule moves it to the Friday before), each fail."""
    draft, task, oracle = solved
    lead, last = draft.facts["lead"], draft.facts["deadlines"][-1]["name"]
    starts = {
        c.args["label"]: datetime.fromisoformat(c.args["start"]).date() for c in draft.checks if c.id.startswith("due_")
    }
    tried = 0
    for check in (c for c in draft.checks if c.id.startswith("remind_")):
        here = starts[check.args["label"]]
        naive = {here - timedelta(days=lead), here - timedelta(days=7)} if check.args["label"] == last else set()
        plain = here - timedelta(days=lead)
        if plain.weekday() >= 5:
            naive.add(plain)
        for wrong in naive - {date.fromisoformat(check.args["due"])}:
            state = copy.deepcopy(oracle.sH)
            _reminder(state, check)["due"] = wrong.isoformat()
            assert check.id in _failed(task, oracle, state), (check.id, wrong)
            tried += 1
    assert tried >= 2


def test_the_users_early_reminder_is_moved_not_doubled(solved):
    """The user set a reminder from the syllabus before the instructor moved the deadline: leaving it at the old
    day beside a new one, or ticking it off and adding another, fails; moving it passes (the oracle)."""
    draft, task, oracle = solved
    check = next(c for c in draft.checks if c.id.startswith("remind_") and c.args.get("stale"))
    early = next(r for r in draft.reminders["Study"] if r["uid"] == check.args["stale"])
    state = copy.deepcopy(oracle.sH)
    moved = _reminder(state, check)
    assert moved["uid"] == early["uid"]
    state["reminders"]["Study"].append({**moved, "uid": "r-new"})
    moved["due"] = early["due"]
    assert check.id in _failed(task, oracle, state)
    moved["completed"] = True
    assert check.id in _failed(task, oracle, state)


def _timetable():
    draft = generate(FAMILY, 1)
    return draft, get(FAMILY).timetable


def test_exactly_one_timetable_and_the_greedy_walk_gets_stuck():
    """Brute force over every sitting of the four workshops: one timetable keeps every rule; the workshops
    taken in the schedule's order, each at its first sitting that fits, get stuck; every first-listed
    sitting together breaks a rule; and the full sittings, the work and the one-a-day rule each matter."""
    draft, table = _timetable()
    assert len(table.workshops) >= 4 and all(len(w.sittings) == 3 for w in table.workshops)
    assert table.enumerated == 3 ** len(table.workshops)
    assert table.timetables() == table.valid and len(table.valid) == 1
    assert table.walk() is not None and table.walk() == table.greedy
    assert (0,) * len(table.workshops) not in table.valid
    assert {"full", "work", "day"} <= set(table.binding)
    assert any("greedy earliest-first" in line for line in draft.provenance["levers"])


def test_the_greedy_timetable_carried_out_fails(solved):
    """The greedy walk's sittings (the first-listed one where it is stuck) in Study instead of the oracle's:
    the workshops it moves fail their items."""
    draft, task, oracle = solved
    table = get(FAMILY).timetable
    tz = ZoneInfo(draft.timezone)
    chosen = []
    for i, w in enumerate(table.workshops):
        fit = next(
            (s for s in w.sittings if not table.alone(s) and all(table.pair(j, c, i, s) for j, c in enumerate(chosen))),
            w.sittings[0],
        )
        chosen.append(fit)
    state = copy.deepcopy(oracle.sH)
    moved = set()
    for w, wrong, right in zip(table.workshops, chosen, table.answer(), strict=True):
        if wrong is right:
            continue
        check = next(c for c in draft.checks if c.id == f"workshop_{w.n}")
        event = _event(state, check.args["start"], check.args["pattern"])
        event["start"] = wrong.here(tz).isoformat()
        event["end"] = (wrong.here(tz) + timedelta(minutes=90)).isoformat()
        moved.add(check.id)
    assert moved and moved <= _failed(task, oracle, state)


def test_a_sign_up_with_another_sitting_or_sent_twice_fails(solved):
    draft, task, oracle = solved
    check = next(c for c in draft.checks if c.id == "signup_1")
    to = check.args["to"]
    code = get(FAMILY).timetable.answer()[0].code
    other = code[0] + next(x for x in "ABC" if x != code[1])
    state = copy.deepcopy(oracle.sH)
    for message in state["mail"]["outbox"]:
        if to in message["to"]:
            message["body"] = message["body"].replace(code, other)
    assert "signup_1" in _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    mail = next(m for m in state["mail"]["outbox"] if to in m["to"])
    state["mail"]["outbox"].append({**mail, "message_id": "<again@example.com>"})
    assert "signup_1" in _failed(task, oracle, state)


def test_the_sign_up_counts_once_it_reaches_the_fellow_ta_the_away_reply_names(solved):
    draft, task, oracle = solved
    redirect_is_graded(draft, oracle.sH or {}, lambda state: _failed(task, oracle, state), item_id="signup_1")
