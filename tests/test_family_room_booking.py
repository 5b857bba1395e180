"""room-booking: the generated worlds decide the task the way the family says (stage 2 runs them in
tests/test_author_families.py): the latest answers decide who is invited, the member writing from
home is invited at the work address only the directory has, and the prompt gives nothing away."""

from __future__ import annotations

import copy
import re
from datetime import datetime
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families.room_booking import LATER_YES, YES

SUBSETS = (None, [], ["cross_source_conflict"], ["entity_alignment"], ["noisy_data", "hidden_dependency"])


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _own_words(body: str) -> str:
    return " ".join(line for line in body.splitlines() if not line.lstrip().startswith(">"))


def _latest_yes(draft: TaskDraft) -> set[str]:
    """The senders whose latest answer to the call is a yes."""
    [call] = [m for m in draft.mail["Sent"] if m["subject"] == draft.facts["subject"]]
    latest: dict[str, dict[str, Any]] = {}
    for message in draft.mail["INBOX"]:
        if message["subject"] != f"Re: {call['subject']}":
            continue
        sender = re.search(r"<(.+)>", message["from"]).group(1)
        if sender not in latest or datetime.fromisoformat(message["date"]) > datetime.fromisoformat(
            latest[sender]["date"]
        ):
            latest[sender] = message
    said = {s: " ".join(_own_words(m["body"]).split()) for s, m in latest.items()}
    return {s for s, words in said.items() if any(p in words for p in (*YES, *LATER_YES))}


@pytest.mark.parametrize("seed", range(1, 13))
@pytest.mark.parametrize("operators", SUBSETS)
def test_the_latest_answers_decide_who_is_invited(seed, operators):
    draft = generate("room-booking", seed, operators=operators)
    invited = set(_args(draft, "invited")["to"])
    yes = _latest_yes(draft)
    aliases = draft.evidence.get("entity_alignment", {}).get("addresses", [])
    work = dict(zip(aliases[1::2], aliases[::2], strict=True))  # personal -> work
    assert invited == {work.get(s, s) for s in yes}
    if "cross_source_conflict" in draft.operators:
        wrote_twice = len(draft.evidence["cross_source_conflict"]["sources"]) // 2
        assert wrote_twice == 3


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_member_writing_from_home_is_invited_at_the_address_only_the_directory_has(seed):
    draft = generate("room-booking", seed, operators=["entity_alignment"])
    work, home = draft.evidence["entity_alignment"]["addresses"]
    assert work in _args(draft, "invited")["to"] and home not in _args(draft, "invited")["to"]
    directory = [p for p in draft.web["intranet"]["people"] if p["email"] == work]
    outside_the_intranet = str({**draft.world(), "web": None})
    assert len(directory) == 1 and work not in outside_the_intranet and home in outside_the_intranet
    family = directory[0]["name"].split()[-1]
    namesakes = [p for p in draft.web["intranet"]["people"] if p["name"].split()[-1] == family]
    assert len(namesakes) >= 2  # the family name alone does not find them


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_prompt_names_no_room_time_or_count(seed):
    draft = generate("room-booking", seed)
    rooms = [r["name"] for r in draft.web["intranet"]["rooms"]]
    assert not re.search(r"\d", draft.prompt)
    assert not any(re.search(rf"\b{re.escape(name)}\b", draft.prompt) for name in rooms)
    assert draft.calendar and draft.notes and draft.contacts  # the apps the task reads besides mail and the web


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_closed_room_would_fit_and_only_the_news_closes_it(seed):
    draft = generate("room-booking", seed)
    intranet = draft.web["intranet"]
    [news] = [a for a in intranet["announcements"] if a["id"] == "a-floor-works"]
    closed = [r for r in intranet["rooms"] if news["body"].startswith(r["name"] + " ")]
    assert len(closed) == 1
    room = closed[0]
    need = draft.facts["need"]
    seats = len(_args(draft, "invited")["to"]) + 1
    assert room["capacity"] >= seats and need in room["equipment"]
    start = _args(draft, "room_reserved")["start"]
    assert not [r for r in intranet["reservations"] if r["room"] == room["id"] and r["start"][:10] == start[:10]]
    [notice] = [m for m in draft.mail["INBOX"] if m["subject"] == draft.facts["notice"]]
    assert "news page" in " ".join(notice["body"].split()) and room["name"] not in notice["body"]
    assert any(room["name"] in lever for lever in draft.provenance["levers"])


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_user_already_holds_the_get_together_at_the_placeholders_time(seed):
    draft = generate("room-booking", seed)
    stale = _args(draft, "in_calendar")["stale"]
    [held] = [e for e in draft.calendar[draft.facts["calendar"]] if e["uid"] == stale]
    [placeholder] = [
        r
        for r in draft.web["intranet"]["reservations"]
        if r["title"] == draft.facts["title"] and r.get("status", "confirmed") == "confirmed"
    ]
    assert (held["start"], held["end"]) == (placeholder["start"], placeholder["end"])
    assert held["location"] == next(r["name"] for r in draft.web["intranet"]["rooms"] if r["id"] == placeholder["room"])


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory):
    from stageclaw.task.loader import load_task
    from stageclaw.validate.oracle import run_oracle

    folder = tmp_path_factory.mktemp("room-booking")
    draft = generate("room-booking", 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task, oracle, state) -> set[str]:
    from stageclaw.grade.grader import grade

    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def test_the_oracle_meets_the_quality_bar(solved):
    from stageclaw.author.suite import world_objects

    draft, _, oracle = solved
    assert len(oracle.trace["steps"]) >= 35
    assert world_objects(draft) >= 300
    assert {"mail", "calendar", "browser", "notes", "contacts"} <= {
        s["tool"].split("_")[0] for s in oracle.trace["steps"]
    }


def test_a_new_event_next_to_the_held_one_fails(solved):
    draft, task, oracle = solved
    calendar = draft.facts["calendar"]
    stale = _args(draft, "in_calendar")["stale"]
    state = copy.deepcopy(oracle.sH)
    moved = next(e for e in state["calendar"][calendar] if e["uid"] == stale)
    before = next(e for e in oracle.s0["calendar"][calendar] if e["uid"] == stale)
    state["calendar"][calendar].append({**moved, "uid": "evt-new-copy"})
    moved.update({k: before[k] for k in ("start", "end", "location")})
    moved.pop("attendees", None)
    assert {"in_calendar", "event_matches"} <= _failed(task, oracle, state)


def test_reserving_the_closed_room_fails(solved):
    draft, task, oracle = solved
    intranet = draft.web["intranet"]
    [news] = [a for a in intranet["announcements"] if a["id"] == "a-floor-works"]
    [closed] = [r for r in intranet["rooms"] if news["body"].startswith(r["name"] + " ")]
    state = copy.deepcopy(oracle.sH)
    new = [
        r
        for r in state["web"]["intranet"]["reservations"]
        if r["room"] == _args(draft, "room_reserved")["room"] and r["start"] == _args(draft, "room_reserved")["start"]
    ]
    assert len(new) == 1
    new[0]["room"] = closed["id"]
    assert "room_reserved" in _failed(task, oracle, state)


def test_the_users_own_reminder_and_note_line_are_tied_to_the_placeholder(solved):
    draft, _, _ = solved
    [held] = [e for e in draft.calendar[draft.facts["calendar"]] if e["uid"] == _args(draft, "in_calendar")["stale"]]
    reminder = _args(draft, "key_reminder")
    [todo] = [r for r in draft.reminders[reminder["lst"]] if r["uid"] == reminder["stale"]]
    assert held["location"] in todo["title"] and todo["due"] < held["start"]
    assert not re.search(r"book|room|placeholder", todo["title"], re.IGNORECASE)
    note = _args(draft, "club_note")
    [body] = [n["body"] for n in draft.notes["Notes"] if n["uid"] == note["uid"]]
    [line] = [x for x in body.splitlines() if held["location"] in x]
    assert held["start"][11:16] in line


def _reminders(state, reminder):
    return state["reminders"][reminder["lst"]]


def test_leaving_doubling_or_ticking_off_the_key_reminder_fails(solved):
    draft, task, oracle = solved
    reminder = _args(draft, "key_reminder")
    [before] = [r for r in _reminders(oracle.s0, reminder) if r["uid"] == reminder["stale"]]
    [after] = [r for r in _reminders(oracle.sH, reminder) if r["uid"] == reminder["stale"]]
    assert (after["title"], after["due"]) != (before["title"], before["due"])
    left = copy.deepcopy(oracle.sH)
    next(r for r in _reminders(left, reminder) if r["uid"] == reminder["stale"]).update(before)
    assert "key_reminder" in _failed(task, oracle, left)
    doubled = copy.deepcopy(left)
    _reminders(doubled, reminder).append({**copy.deepcopy(after), "uid": "r-new-copy"})
    assert "key_reminder" in _failed(task, oracle, doubled)
    ticked = copy.deepcopy(doubled)
    next(r for r in _reminders(ticked, reminder) if r["uid"] == reminder["stale"]).update(completed=True)
    assert "key_reminder" in _failed(task, oracle, ticked)
    moved_only = copy.deepcopy(oracle.sH)
    next(r for r in _reminders(moved_only, reminder) if r["uid"] == reminder["stale"]).update(title=before["title"])
    assert "key_reminder" in _failed(task, oracle, moved_only)  # still names the placeholder's room


def test_a_note_line_left_on_the_old_room_fails(solved):
    draft, task, oracle = solved
    note = _args(draft, "club_note")
    state = copy.deepcopy(oracle.sH)
    [before] = [n for n in oracle.s0["notes"]["Notes"] if n["uid"] == note["uid"]]
    [after] = [n for n in state["notes"]["Notes"] if n["uid"] == note["uid"]]
    assert after["body"] != before["body"]
    after["body"] = before["body"]
    assert "club_note" in _failed(task, oracle, state)
    after["body"] = (
        before["body"]
        + "\n"
        + next(x for x in oracle.sH["notes"]["Notes"] if x["uid"] == note["uid"])["body"].splitlines()[-1]
    )
    assert "club_note" in _failed(task, oracle, state)


@pytest.mark.parametrize("seed", (1, 2))
def test_the_intranet_says_every_room_has_its_key_at_reception(seed):
    # blind play: the user's key reminder for the placeholder room was deleted, since nothing said the new
    # room needs a key too
    draft = generate("room-booking", seed)
    news = " ".join(a["body"] for a in draft.web["intranet"]["announcements"])
    assert "key at reception" in news


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_the_closure_news_and_the_rooms_page_agree_on_the_floors(seed):
    # blind plays: the news put Quarry on floor 3, the rooms page on floor 2
    draft = generate("room-booking", seed)
    news = next(a for a in draft.web["intranet"]["announcements"] if a["id"] == "a-floor-works")
    for room in draft.web["intranet"]["rooms"]:
        if re.search(rf"\b{re.escape(room['name'])}\b", news["body"]):
            assert f"floor {room['floor']}" in news["body"], room
