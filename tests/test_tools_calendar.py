"""Calendar tools against the pool's real Radicale: results, stored state, diffs and errors."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from caldav.lib import error as dav_error

from stageclaw.tools import dav
from stageclaw.tools.registry import Registry, select
from stageclaw.world import Episode, davstore, dumps, procs
from tests.conftest import changes, fails

WEEK = {"start": "2026-03-09", "end": "2026-03-15"}


def stored(episode: Episode, dirname: str, uid: str) -> str:
    root = davstore.user_root(episode.pool.radicale.storage, episode.login)
    return (root / dirname / f"{uid}.ics").read_text()


def test_every_argument_is_described_for_the_model() -> None:
    for name, spec in select(["calendar_*", "reminders_*", "notes_*"]).items():
        assert spec.description, name
        for arg, schema in spec.input_schema().get("properties", {}).items():
            assert schema.get("description"), f"{name}.{arg}"


def test_list_calendars_shows_only_event_collections(reg: Registry) -> None:
    assert reg.call("calendar_list_calendars")["calendars"] == [{"name": "Personal"}, {"name": "Work"}]


def test_list_events_of_a_week_with_recurrence_changes_nothing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    events = reg.call("calendar_list_events", WEEK)["events"]
    assert [e["uid"] for e in events] == ["evt-standup", "evt-1"]
    standup, sync = events
    assert standup["rrule"] == "FREQ=WEEKLY;BYDAY=MO,WE,FR"
    assert standup["occurrences"] == [
        "2026-03-09T09:30:00+08:00",
        "2026-03-11T09:30:00+08:00",
        "2026-03-13T09:30:00+08:00",
    ]
    assert "occurrences" not in sync
    assert {k: v for k, v in sync.items() if k != "calendar"} == next(
        e for e in s0["calendar"]["Work"] if e["uid"] == "evt-1"
    )
    assert sync["calendar"] == "Work"
    reg.call("calendar_list_events", {**WEEK, "query": "zoom"})
    assert dumps(episode.snapshot()) == dumps(s0)


def test_list_events_dates_cover_whole_days_and_ranges_take_offsets(reg: Registry) -> None:
    def uids(**args: str) -> list[str]:
        return [e["uid"] for e in reg.call("calendar_list_events", args)["events"]]

    assert uids(start="2026-03-10", end="2026-03-10") == ["evt-1"]  # Tuesday: no stand-up
    wednesday = reg.call("calendar_list_events", {"start": "2026-03-11", "end": "2026-03-11"})["events"]
    assert [(e["uid"], e["occurrences"]) for e in wednesday] == [("evt-standup", ["2026-03-11T09:30:00+08:00"])]
    assert uids(start="2026-03-10T10:30:00Z", end="2026-03-10T10:45:00Z") == ["evt-1"]  # 18:30 in Shanghai
    assert uids(start="2026-03-10T19:00", end="2026-03-10T20:00") == []  # ends as the range starts
    assert uids(start="2026-04-06", end="2026-04-06", calendar="Personal") == ["evt-holiday"]  # its last day
    assert uids(start="2026-04-07", end="2026-04-08", calendar="Personal") == []  # its end is exclusive


def test_list_events_filters_by_calendar_and_query(reg: Registry) -> None:
    def uids(**args: str) -> list[str]:
        return [e["uid"] for e in reg.call("calendar_list_events", {**WEEK, **args})["events"]]

    assert uids(query="ZOOM") == ["evt-1"]
    assert uids(query="stand") == ["evt-standup"]
    assert uids(query="nothing like it") == []
    assert uids(calendar="Personal") == []
    assert uids(calendar="work") == ["evt-standup", "evt-1"]


def test_list_events_errors(reg: Registry) -> None:
    assert (
        "is not after start" in fails(reg, "calendar_list_events", start="2026-03-12", end="2026-03-11T10:00").message
    )
    bad = fails(reg, "calendar_list_events", start="31/2", end="2026-03-12")
    assert bad.kind == "invalid_arguments" and "bad start '31/2': use ISO 8601" in bad.message
    assert fails(reg, "calendar_list_events", **WEEK, calendar="Nope").message == (
        "no calendar named 'Nope'; calendars are: Personal, Work"
    )
    assert "'Notes' is a notes folder" in fails(reg, "calendar_list_events", **WEEK, calendar="Notes").message


def test_get_event(reg: Registry) -> None:
    event = reg.call("calendar_get_event", {"uid": "evt-holiday"})
    assert event["calendar"] == "Personal"
    assert (event["start"], event["end"], event["all_day"]) == ("2026-04-04", "2026-04-07", True)
    assert fails(reg, "calendar_get_event", uid="evt-9").message == (
        "no event with uid 'evt-9'; use calendar_list_events to find uids"
    )
    assert "no event with uid 'r-1'" in fails(reg, "calendar_get_event", uid="r-1").message  # a reminder


def test_create_converts_times_to_the_task_timezone(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    utc = reg.call(
        "calendar_create_event",
        {"calendar": "Work", "summary": "Sync", "start": "2026-03-12T15:00:00+00:00", "end": "2026-03-12T16:00:00Z"},
    )
    naive = reg.call("calendar_create_event", {"calendar": "Personal", "summary": "Tea", "start": "2026-03-12T15:00"})
    s1 = episode.snapshot()
    assert sorted(changes(s0, s1)) == [
        ("added", f"calendar/Personal/{naive['uid']}"),
        ("added", f"calendar/Work/{utc['uid']}"),
    ]
    first = next(e for e in s1["calendar"]["Work"] if e["uid"] == utc["uid"])
    assert (first["start"], first["end"]) == ("2026-03-12T23:00:00+08:00", "2026-03-13T00:00:00+08:00")
    assert {**first, "calendar": "Work"} == utc["event"]
    second = next(e for e in s1["calendar"]["Personal"] if e["uid"] == naive["uid"])
    assert (second["start"], second["end"]) == ("2026-03-12T15:00:00+08:00", "2026-03-12T16:00:00+08:00")
    raw = stored(episode, "calendar-personal", naive["uid"])
    assert "DTSTART;TZID=Asia/Shanghai:20260312T150000" in raw and "BEGIN:VTIMEZONE" in raw
    # Stamped by the episode clock (2026-03-10T09:00+08:00), never the wall clock.
    assert "DTSTAMP:20260310T01" in raw and "CREATED:20260310T01" in raw and "LAST-MODIFIED:20260310T01" in raw


def test_create_all_day_events(reg: Registry, episode: Episode) -> None:
    def span(**args: Any) -> tuple[str, str, bool]:
        event = reg.call("calendar_create_event", {"calendar": "Personal", "summary": "Off", **args})["event"]
        return event["start"], event["end"], event["all_day"]

    assert span(start="2026-03-20", all_day=True) == ("2026-03-20", "2026-03-21", True)
    assert span(start="2026-03-20", end="2026-03-20", all_day=True) == ("2026-03-20", "2026-03-21", True)
    assert span(start="2026-03-20", end="2026-03-23") == ("2026-03-20", "2026-03-23", True)
    assert len(episode.snapshot()["calendar"]["Personal"]) == 4


def test_create_with_details_round_trips_text(reg: Registry, episode: Episode) -> None:
    created = reg.call(
        "calendar_create_event",
        {
            "calendar": "Work",
            "summary": "Review; budget, Q2",
            "start": "2026-03-13T10:00",
            "end": "2026-03-13T11:30",
            "location": "Room 4, floor 2",
            "description": "Bring:\n- numbers; and charts",
            "attendees": ["Priya Raman <Priya@Orbitals.io>", "wei@chen.family"],
        },
    )
    event = next(e for e in episode.snapshot()["calendar"]["Work"] if e["uid"] == created["uid"])
    assert event["summary"] == "Review; budget, Q2"
    assert event["location"] == "Room 4, floor 2"
    assert event["description"] == "Bring:\n- numbers; and charts"
    assert event["attendees"] == ["Priya Raman <priya@orbitals.io>", "wei@chen.family"]
    assert event["all_day"] is False


def test_create_errors_change_nothing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    base = {"summary": "x", "start": "2026-03-12T15:00"}
    refused = fails(reg, "calendar_create_event", calendar="Inbox", **base)
    assert refused.message.startswith("no calendar named 'Inbox'; calendars are: Personal, Work")
    assert "'Inbox' is a reminder list" in refused.message
    assert "calendars are: Personal, Work" in fails(reg, "calendar_create_event", calendar="Home", **base).message
    for args, expected in [
        ({"start": "2026-03-12T15:00", "end": "2026-03-12T14:00"}, "is before start"),
        ({"start": "2026-03-20", "end": "2026-03-19"}, "is before start"),
        ({"start": "2026-03-20", "end": "2026-03-20T10:00"}, "must both be dates"),
        ({"start": "2026-03-20T10:00", "all_day": True}, "all_day=true takes dates"),
        ({"start": "2026-03-20", "all_day": False}, "all_day=false takes date-times"),
        ({"start": "31/2"}, "bad start '31/2'"),
        ({"start": "2026-03-12T15:00", "attendees": ["Priya"]}, "bad attendee 'Priya'"),
    ]:
        error = fails(reg, "calendar_create_event", calendar="Work", summary="x", **args)
        assert expected in error.message and error.kind == "invalid_arguments", args
    assert "summary: Field required" in fails(reg, "calendar_create_event", calendar="Work", start="2026-03-12").message
    assert dumps(episode.snapshot()) == dumps(s0)


def test_update_start_keeps_the_length(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_update_event", {"uid": "evt-1", "start": "2026-03-12T15:00:00+00:00"})
    assert (out["event"]["start"], out["event"]["end"]) == ("2026-03-12T23:00:00+08:00", "2026-03-13T00:00:00+08:00")
    assert out["event"]["calendar"] == "Work"
    s1 = episode.snapshot()
    assert changes(s0, s1) == [("modified", "calendar/Work/evt-1#end"), ("modified", "calendar/Work/evt-1#start")]
    reg.call("calendar_update_event", {"uid": "evt-1", "end": "2026-03-13T01:00"})
    assert changes(s1, episode.snapshot()) == [("modified", "calendar/Work/evt-1#end")]


def test_update_all_day_times_stay_consistent(reg: Registry, episode: Episode) -> None:
    moved = reg.call("calendar_update_event", {"uid": "evt-holiday", "start": "2026-04-05"})["event"]
    assert (moved["start"], moved["end"], moved["all_day"]) == ("2026-04-05", "2026-04-08", True)
    timed = reg.call("calendar_update_event", {"uid": "evt-holiday", "start": "2026-04-05T10:00"})["event"]
    assert (timed["start"], timed["end"], timed["all_day"]) == (
        "2026-04-05T10:00:00+08:00",
        "2026-04-05T11:00:00+08:00",
        False,
    )
    day = reg.call("calendar_update_event", {"uid": "evt-1", "start": "2026-03-12"})["event"]
    assert (day["start"], day["end"], day["all_day"]) == ("2026-03-12", "2026-03-13", True)
    s1 = episode.snapshot()
    switch = fails(reg, "calendar_update_event", uid="evt-1", end="2026-03-12T18:00")
    assert "give both start and end" in switch.message
    assert "is before start" in fails(reg, "calendar_update_event", uid="evt-holiday", end="2026-04-05T09:00").message
    assert dumps(episode.snapshot()) == dumps(s1)


def test_update_changes_only_given_fields(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_update_event", {"uid": "evt-1", "summary": "Q1 sync", "location": "", "attendees": []})
    assert (out["event"]["summary"], out["event"]["location"], out["event"]["attendees"]) == ("Q1 sync", "", [])
    assert out["event"]["organizer"] == "Priya Raman <priya@orbitals.io>"
    assert changes(s0, episode.snapshot()) == [
        ("modified", "calendar/Work/evt-1#attendees"),
        ("modified", "calendar/Work/evt-1#location"),
        ("modified", "calendar/Work/evt-1#summary"),
    ]
    series = reg.call("calendar_update_event", {"uid": "evt-standup", "start": "2026-03-09T10:00"})["event"]
    assert series["rrule"] == "FREQ=WEEKLY;BYDAY=MO,WE,FR" and series["end"] == "2026-03-09T10:15:00+08:00"


def test_update_moves_between_calendars_keeping_the_uid(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_update_event", {"uid": "evt-1", "calendar": "Personal", "description": "moved"})
    assert out["event"]["uid"] == "evt-1" and out["event"]["calendar"] == "Personal"
    s1 = episode.snapshot()
    assert changes(s0, s1) == [("added", "calendar/Personal/evt-1"), ("removed", "calendar/Work/evt-1")]
    assert reg.call("calendar_get_event", {"uid": "evt-1"})["calendar"] == "Personal"
    assert "no calendar named 'Inbox'" in fails(reg, "calendar_update_event", uid="evt-1", calendar="Inbox").message
    assert "no event with uid 'nope'" in fails(reg, "calendar_update_event", uid="nope", summary="x").message
    assert dumps(episode.snapshot()) == dumps(s1)


def test_delete_event(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_delete_event", {"uid": "evt-standup"})
    assert out == {"deleted": "evt-standup", "calendar": "Work", "invitations": []}
    assert changes(s0, episode.snapshot()) == [("removed", "calendar/Work/evt-standup")]
    assert "no event with uid 'evt-standup'" in fails(reg, "calendar_delete_event", uid="evt-standup").message
    assert "no event with uid 'n-1'" in fails(reg, "calendar_delete_event", uid="n-1").message


def test_server_failures_become_tool_errors(reg: Registry, episode: Episode, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [c["name"] for c in reg.call("calendar_list_calendars")["calendars"]] == ["Personal", "Work"]
    # A collection removed behind the cached list: a clear 404, then the list is read afresh.
    with davstore.storage_lock(episode.pool.radicale.storage, exclusive=True):
        shutil.rmtree(davstore.user_root(episode.pool.radicale.storage, episode.login) / "calendar-personal")
    gone = fails(reg, "calendar_list_events", **WEEK, calendar="Personal")
    assert gone.kind == "tool" and "404" in gone.message
    assert reg.call("calendar_list_calendars")["calendars"] == [{"name": "Work"}]
    # A server that does not answer is an infrastructure failure, not the agent's.
    reg.ctx.drop(dav.CLIENT_KEY)
    monkeypatch.setattr(episode.pool.radicale, "port", procs.free_port())
    dead = fails(reg, "calendar_list_calendars")
    assert dead.kind == "internal" and "could not reach the calendar server" in dead.message


@pytest.mark.parametrize(
    ("status", "kind", "text"),
    [
        (403, "tool", "403 Forbidden"),
        (412, "tool", "read it again"),
        (503, "internal", "try again"),
        (400, "tool", "400"),
    ],
)
def test_http_refusals_read_clearly(status: int, kind: str, text: str) -> None:
    error = dav._refusal(dav_error.PutError(url="http://x/", reason="nope", status=status))
    assert error.kind == kind and text in error.message
