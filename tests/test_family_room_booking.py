"""room-booking: the generated worlds decide the task the way the family says (stage 2 runs them in
tests/test_author_families.py): the latest answers decide who is invited, the member writing from
home is invited at the work address only the directory has, the prompt gives nothing away, and the
get-together and the colleagues' sessions that overlap it have exactly one complete room assignment,
which taking each booking's first free room in turn misses."""

from __future__ import annotations

import copy
import itertools
import re
from datetime import datetime
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families.room_booking import LATER_YES, SESSION_NEEDS, YES

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


# -- the joint decision: the get-together and the colleagues' sessions ---------------------------------------


def _bookings(draft: TaskDraft) -> list[dict[str, Any]]:
    """The bookings as the world gives them: the get-together (seats from the rubric's headcount, the need from
    the facts), then each colleague's request as their mail words it, in the order the mails came."""
    club = _args(draft, "room_reserved")
    seats = len(_args(draft, "invited")["to"]) + 1
    out = [{"start": club["start"], "end": club["end"], "seats": seats, "need": draft.facts["need"], "who": None}]
    requests = sorted(
        (m for m in draft.mail["INBOX"] if m["subject"] in draft.facts["requests"]),
        key=lambda m: datetime.fromisoformat(m["date"]),
    )
    day = club["start"][:10]
    for mail in requests:
        words = " ".join(mail["body"].split())
        start, end = re.search(r"(\d\d:\d\d) to (\d\d:\d\d)", words).groups()
        seats = int(re.search(r"(?:We'll be|There will be) (\d+)", words).group(1))
        [need] = [f for f, phrase in SESSION_NEEDS.items() if phrase in words]
        tz = club["start"][19:]
        out.append(
            {
                "start": f"{day}T{start}:00{tz}",
                "end": f"{day}T{end}:00{tz}",
                "seats": seats,
                "need": need,
                "who": re.search(r"<(.+)>", mail["from"]).group(1),
            }
        )
    return out


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return datetime.fromisoformat(a["start"]) < datetime.fromisoformat(b["end"]) and datetime.fromisoformat(
        b["start"]
    ) < datetime.fromisoformat(a["end"])


def _fits(draft: TaskDraft) -> tuple[list[dict[str, Any]], list[dict[str, Any]], Any]:
    intranet = draft.web["intranet"]
    [news] = [a for a in intranet["announcements"] if a["id"] == "a-floor-works"]
    closed = {r["id"] for r in intranet["rooms"] if re.search(rf"\b{re.escape(r['name'])}\b", news["body"])}
    rooms = sorted(intranet["rooms"], key=lambda r: (r["name"], r["id"]))  # the rooms page's order
    taken = [r for r in intranet["reservations"] if r.get("status", "confirmed") == "confirmed"]

    def fits(room: dict[str, Any], b: dict[str, Any]) -> bool:
        return (
            room["capacity"] >= b["seats"]
            and b["need"] in room["equipment"]
            and room["id"] not in closed
            and not any(r["room"] == room["id"] and _overlap(r, b) for r in taken)
        )

    return rooms, _bookings(draft), fits


@pytest.mark.parametrize("seed", range(1, 13))
@pytest.mark.parametrize("operators", SUBSETS)
def test_exactly_one_complete_assignment_and_the_rubric_grades_it(seed, operators):
    draft = generate("room-booking", seed, operators=operators)
    rooms, bookings, fits = _fits(draft)
    assert len(bookings) >= 4
    valid = [
        choice
        for choice in itertools.product(rooms, repeat=len(bookings))
        if all(fits(r, b) for r, b in zip(choice, bookings, strict=True))
        and not any(
            choice[i] is choice[j] and _overlap(bookings[i], bookings[j])
            for i in range(len(bookings))
            for j in range(i + 1, len(bookings))
        )
    ]
    assert len(valid) == 1
    [choice] = valid
    assert choice[0]["id"] == _args(draft, "room_reserved")["room"]
    graded = {c.args["start"]: c.args["room"] for c in draft.checks if re.fullmatch(r"session_\d_room", c.id)}
    assert graded == {b["start"]: r["id"] for r, b in zip(choice[1:], bookings[1:], strict=True)}


def _greedy(draft: TaskDraft) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], dict[str, Any] | None]:
    """The bookings in the order the task gives them (the get-together, then the requests as they came), each
    given the first room on the rooms page that fits and is not yet taken then: what it books, and the booking
    left with no room."""
    rooms, bookings, fits = _fits(draft)
    got: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for b in bookings:
        free = [r for r in rooms if fits(r, b) and not any(r is room and _overlap(b, other) for other, room in got)]
        if not free:
            return got, b
        got.append((b, free[0]))
    return got, None


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_first_free_room_for_each_booking_in_turn_runs_into_a_dead_end(seed):
    draft = generate("room-booking", seed)
    got, stuck = _greedy(draft)
    assert stuck is not None
    assert got[0][1]["id"] != _args(draft, "room_reserved")["room"]  # the get-together takes a session's room
    assert any("J joint" in lever and "greedy" in lever for lever in draft.provenance["levers"])
    assert not re.search(r"first|order|greedy", draft.prompt, re.IGNORECASE)


def test_the_greedy_assignment_fails_the_grade(solved):
    """The walk carried out: each booking it reached in the room it took, the one it could not place left
    without a reservation (and its colleague told nothing)."""
    draft, task, oracle = solved
    got, stuck = _greedy(draft)
    state = copy.deepcopy(oracle.sH)
    old = {r["id"] for r in oracle.s0["web"]["intranet"]["reservations"]}
    new = [r for r in state["web"]["intranet"]["reservations"] if r["id"] not in old]
    for booking, room in got:
        [made] = [r for r in new if r["start"] == booking["start"]]
        made["room"] = room["id"]
    state["web"]["intranet"]["reservations"] = [
        r for r in state["web"]["intranet"]["reservations"] if r["start"] != stuck["start"] or r["id"] in old
    ]
    failed = _failed(task, oracle, state)
    assert "room_reserved" in failed
    assert any(re.fullmatch(r"session_\d_room", item) for item in failed)


def test_a_swap_of_two_session_rooms_fails(solved):
    draft, task, oracle = solved
    starts = [c.args["start"] for c in draft.checks if re.fullmatch(r"session_\d_room", c.id)]
    state = copy.deepcopy(oracle.sH)
    old = {r["id"] for r in oracle.s0["web"]["intranet"]["reservations"]}
    first, second = (
        next(r for r in state["web"]["intranet"]["reservations"] if r["id"] not in old and r["start"] == s)
        for s in starts[:2]
    )
    first["room"], second["room"] = second["room"], first["room"]
    assert len({i for i in _failed(task, oracle, state) if i.startswith("session_")}) >= 2


@pytest.mark.parametrize("name", ["per_person", "event_first"])
def test_the_alternatives_score_100(solved, pool, tmp_path, name):
    from stageclaw.run.episode import run_episode

    _, task, _ = solved
    result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
    assert result["success"] and result["score"] == 100, result
