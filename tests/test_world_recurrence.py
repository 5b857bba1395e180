"""Recurring events with exceptions: deleted occurrences (EXDATE) and occurrences changed on their own
(RECURRENCE-ID overrides), from world.yaml through the real servers to the State JSON and the tools."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from stageclaw.errors import WorldError
from stageclaw.tools.registry import Registry
from stageclaw.world import dumps, normalize, recurrence, state
from stageclaw.world.model import parse_world

BASE: dict[str, Any] = {
    "now": "2026-03-10T09:00:00+00:00",
    "timezone": "Europe/London",
    "user": {"name": "Lin Chen", "email": "lin@example.com"},
}
STANDUP = {
    "uid": "standup",
    "summary": "Stand-up, team; daily",
    "start": "2026-03-02T09:30",
    "end": "2026-03-02T09:45",
    "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    "attendees": ["Ana Ruiz <ana@example.org>", "bo@example.org"],
    "organizer": "Lin Chen <lin@example.com>",
    # one before and one after the clock change of 29 March: each keeps 09:30 local time
    "exdates": ["2026-03-04T09:30", "2026-04-03T09:30"],
    "overrides": [
        {"recurrence_id": "2026-03-30T09:30", "start": "2026-03-30T11:00", "summary": "Stand-up (moved)"},
        {"recurrence_id": "2026-04-06T09:30", "status": "CANCELLED"},
    ],
}
BINS = {
    "uid": "bins",
    "summary": "Bins",
    "start": "2026-03-03",
    "rrule": "FREQ=WEEKLY;COUNT=10",
    "exdates": ["2026-03-17"],
    "overrides": [{"recurrence_id": "2026-03-24", "start": "2026-03-25", "end": "2026-03-26"}],
}
WORLD = {**BASE, "calendar": {"Work": [STANDUP, BINS, {"uid": "one", "summary": "One-off", "start": "2026-03-12"}]}}


def test_exceptions_round_trip_through_the_servers(make_episode):
    world = parse_world(WORLD)
    episode = make_episode(WORLD)
    state.clear_caches()  # parse every stored item: the seeding's primed states are not used
    assert dumps(episode.snapshot()) == dumps(normalize(world, episode.base))
    standup = next(e for e in episode.snapshot()["calendar"]["Work"] if e["uid"] == "standup")
    assert standup["exdates"] == ["2026-03-04T09:30:00+00:00", "2026-04-03T09:30:00+01:00"]
    moved, cancelled = standup["overrides"]
    assert (moved["start"], moved["end"], moved["summary"]) == (
        "2026-03-30T11:00:00+01:00",
        "2026-03-30T11:15:00+01:00",
        "Stand-up (moved)",
    )
    assert moved["attendees"] == ["Ana Ruiz <ana@example.org>", "bo@example.org"]  # the series' own
    assert cancelled["status"] == "CANCELLED" and cancelled["summary"] == "Stand-up, team; daily"


def test_plain_events_have_no_exceptions_in_the_state():
    [one] = [e for e in normalize(parse_world(WORLD), Path("."))["calendar"]["Work"] if e["uid"] == "one"]
    assert (one["exdates"], one["overrides"]) == ([], [])


def test_tools_list_the_occurrences_the_exceptions_leave(make_episode):
    episode = make_episode(WORLD)
    with Registry(episode) as reg:
        events = reg.call("calendar_list_events", {"start": "2026-03-02", "end": "2026-04-08"})["events"]
    by_uid = {e["uid"]: e for e in events}
    standup = by_uid["standup"]["occurrences"]
    assert "2026-03-04T09:30:00+00:00" not in standup and "2026-04-03T09:30:00+01:00" not in standup
    assert "2026-03-30T11:00:00+01:00" in standup and "2026-03-30T09:30:00+01:00" not in standup
    assert "2026-04-01T09:30:00+01:00" in standup  # after the clock change, still 09:30 local
    assert by_uid["bins"]["occurrences"] == ["2026-03-03", "2026-03-10", "2026-03-25", "2026-03-31", "2026-04-07"]
    assert by_uid["bins"]["overrides"][0]["start"] == "2026-03-25"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"exdates": ["2026-03-05T09:30"]}, "2026-03-05 09:30:00 is not an occurrence of FREQ=WEEKLY;BYDAY=MO,WE,FR"),
        ({"exdates": ["2026-03-04"]}, "must both be dates (all-day) or both be times"),
        ({"rrule": None}, "exdates and overrides belong to a recurring event"),
        (
            {"overrides": [{"recurrence_id": "2026-03-30T09:30", "start": "2026-03-31"}]},
            "start and end must be of the same kind as the series",
        ),
        (
            {"overrides": [{"recurrence_id": "2026-03-30T09:30"}, {"recurrence_id": "2026-03-30T09:30"}]},
            "two overrides change the same occurrence",
        ),
        ({"overrides": [{"recurrence_id": "2026-03-30T09:30", "colour": "red"}]}, "unknown key"),
    ],
)
def test_bad_exceptions_are_errors_naming_the_event(change, expected):
    event = {**STANDUP, **change}
    with pytest.raises(WorldError, match="Work") as info:
        parse_world({**BASE, "calendar": {"Work": [event]}})
    assert expected in str(info.value)


def test_the_start_is_the_first_occurrence_even_off_the_rule():
    # RFC 5545: a Monday rule starting on a Wednesday has that Wednesday, and it counts towards COUNT.
    starts = list(recurrence.starts("FREQ=WEEKLY;BYDAY=MO;COUNT=3", date(2026, 3, 4), ZoneInfo("UTC")))
    assert starts == [date(2026, 3, 4), date(2026, 3, 9), date(2026, 3, 16)]
    assert recurrence.is_occurrence("FREQ=WEEKLY;BYDAY=MO", date(2026, 3, 4), date(2026, 3, 4), ZoneInfo("UTC"))


def test_summer_times_are_found_by_a_narrow_range_query(make_episode):
    # The server filters by the time range it reads through an item's VTIMEZONE; a VTIMEZONE it
    # misreads (one without summer time) shifts summer events by an hour and the query misses them.
    episode = make_episode(
        {
            **BASE,
            "timezone": "Europe/Berlin",
            "calendar": {"Work": [{"uid": "seeded", "summary": "Seeded", "start": "2026-07-10T08:00"}]},
        }
    )
    with Registry(episode) as reg:
        reg.call("calendar_create_event", {"calendar": "Work", "summary": "Created", "start": "2026-07-10T08:00"})
        found = reg.call("calendar_list_events", {"start": "2026-07-10T08:30", "end": "2026-07-10T08:45"})["events"]
    assert sorted(e["summary"] for e in found) == ["Created", "Seeded"]
