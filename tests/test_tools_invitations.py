"""Invitations: events with guests mail iTIP REQUESTs and CANCELs through the real SMTP server."""

from __future__ import annotations

import email
from email.message import Message
from typing import Any

import icalendar

from stageclaw.tools.registry import Registry
from stageclaw.world import Episode
from tests.conftest import changes, fails

USER = "lin.chen@example.com"
GUESTS = ["Priya Raman <priya@orbitals.io>", "Bo Li <bo@acme.test>", "cy@acme.test"]
REVIEW = {"calendar": "Work", "summary": "Design review", "start": "2026-03-12T15:00", "location": "Room 4"}


def raw_outbox(episode: Episode) -> list[Message]:
    return [email.message_from_bytes(p.read_bytes()) for p in sorted(episode.outbox.glob("*.eml"))]


def itip(msg: Message) -> tuple[str, icalendar.Component, icalendar.Calendar]:
    """The METHOD of the message's text/calendar part, its VEVENT, and the whole object."""
    [part] = [p for p in msg.walk() if p.get_content_type() == "text/calendar"]
    cal = icalendar.Calendar.from_ical(part.get_payload(decode=True))
    [event] = cal.walk("VEVENT")
    assert part.get_param("method") == str(cal["METHOD"])
    return str(cal["METHOD"]), event, cal


def attendees(event: icalendar.Component) -> list[str]:
    found = event.get("ATTENDEE", [])
    return sorted(str(a).lower().removeprefix("mailto:") for a in (found if isinstance(found, list) else [found]))


def test_three_attendees_get_three_requests(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_create_event", {**REVIEW, "attendees": [*GUESTS, f"Lin Chen <{USER}>"]})
    uid = out["uid"]
    # One message per guest, none to the user; the event names the user as its organizer.
    assert [(i["to"], i["method"]) for i in out["invitations"]] == [(g, "REQUEST") for g in GUESTS]
    assert out["event"]["organizer"] == f"Lin Chen <{USER}>"
    s1 = episode.snapshot()
    outbox = s1["mail"]["outbox"]
    assert [m["to"] for m in outbox] == [[g] for g in GUESTS]
    assert all(m["invitation"] == {"method": "REQUEST", "uid": uid} for m in outbox)
    assert all(
        m["from"] == f"Lin Chen <{USER}>" and m["subject"].startswith("Invitation: Design review @") for m in outbox
    )
    assert "When: Thu 12 Mar 2026 15:00–16:00 (Asia/Shanghai)" in outbox[0]["body"]
    # Like any sent mail: in the outbox and in Sent, under the same diff paths.
    ids = [m["message_id"] for m in outbox]
    assert sorted(changes(s0, s1)) == sorted(
        [("added", f"calendar/Work/{uid}")]
        + [("added", f"mail/outbox/{i}") for i in ids]
        + [("added", f"mail/folders/Sent/{i}") for i in ids]
    )
    for msg in raw_outbox(episode):
        method, event, cal = itip(msg)
        assert method == "REQUEST" and str(event["UID"]) == uid and int(event["SEQUENCE"]) == 0
        assert str(event["ORGANIZER"]).lower() == f"mailto:{USER}"
        assert attendees(event) == sorted(["priya@orbitals.io", "bo@acme.test", "cy@acme.test", USER])
        assert event.decoded("DTSTART").isoformat() == "2026-03-12T15:00:00+08:00"
        assert cal.walk("VTIMEZONE"), "the object carries the timezone it uses"
    # Every other message is not an invitation.
    assert all(m["invitation"] is None for f in s1["mail"]["folders"].values() for m in f if m["message_id"] not in ids)


def test_moving_the_meeting_sends_updates_and_cancels_the_removed_guest(reg: Registry, episode: Episode) -> None:
    uid = reg.call("calendar_create_event", {**REVIEW, "attendees": GUESTS})["uid"]
    moved = reg.call("calendar_update_event", {"uid": uid, "start": "2026-03-12T16:00", "attendees": GUESTS[:2]})[
        "invitations"
    ]
    assert [(i["to"], i["method"]) for i in moved] == [
        (GUESTS[0], "REQUEST"),
        (GUESTS[1], "REQUEST"),
        ("cy@acme.test", "CANCEL"),
    ]
    update, cancel = raw_outbox(episode)[3], raw_outbox(episode)[5]
    method, event, _ = itip(update)
    # An update has a higher SEQUENCE than the invitation, so the guests' calendars take it over it.
    sequence = int(event["SEQUENCE"])
    assert (method, sequence > 0, event.decoded("DTSTART").hour) == ("REQUEST", True, 16)
    assert episode.snapshot()["mail"]["outbox"][3]["subject"].startswith("Updated invitation: Design review @")
    method, event, _ = itip(cancel)
    assert method == "CANCEL" and attendees(event) == ["cy@acme.test"] and str(event["STATUS"]) == "CANCELLED"
    # A change guests do not see (the calendar it is filed in) mails nobody.
    assert reg.call("calendar_update_event", {"uid": uid, "calendar": "Personal"})["invitations"] == []
    # Deleting it cancels it for every remaining guest.
    gone = reg.call("calendar_delete_event", {"uid": uid})["invitations"]
    assert [(i["to"], i["method"]) for i in gone] == [(GUESTS[0], "CANCEL"), (GUESTS[1], "CANCEL")]
    methods = [m["invitation"]["method"] for m in episode.snapshot()["mail"]["outbox"]]
    assert methods == ["REQUEST"] * 3 + ["REQUEST", "REQUEST", "CANCEL"] + ["CANCEL", "CANCEL"]
    _, event, _ = itip(raw_outbox(episode)[-1])
    assert int(event["SEQUENCE"]) >= sequence and str(event["UID"]) == uid


def test_notify_false_saves_without_mailing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("calendar_create_event", {**REVIEW, "attendees": GUESTS, "notify": False})
    assert out["invitations"] == [] and "not mailed" in out["invitations_note"]
    reg.call("calendar_update_event", {"uid": out["uid"], "start": "2026-03-12T17:00", "notify": False})
    reg.call("calendar_delete_event", {"uid": out["uid"], "notify": False})
    assert episode.snapshot()["mail"] == s0["mail"]


def test_someone_elses_meeting_changes_only_the_users_copy(reg: Registry, episode: Episode) -> None:
    # evt-1 is organized by Priya: the user's edits and deletion mail nobody.
    s0 = episode.snapshot()
    out = reg.call("calendar_update_event", {"uid": "evt-1", "start": "2026-03-12T23:00"})
    assert out["invitations"] == [] and "Priya Raman organizes this event" in out["invitations_note"]
    assert out["event"]["organizer"] == "Priya Raman <priya@orbitals.io>"
    assert reg.call("calendar_delete_event", {"uid": "evt-1"})["invitations"] == []
    assert episode.snapshot()["mail"] == s0["mail"]


def test_guests_added_to_an_event_without_organizer(make_episode: Any) -> None:
    world = {
        "now": "2026-03-10T09:00:00+08:00",
        "timezone": "Asia/Shanghai",
        "user": {"name": "Lin Chen", "email": USER},
        "calendar": {"Work": [{"uid": "hold", "summary": "Hold", "start": "2026-03-12T10:00:00+08:00"}]},
    }
    episode = make_episode(world)
    with Registry(episode) as reg:
        s0 = episode.snapshot()
        out = reg.call("calendar_update_event", {"uid": "hold", "summary": "Kickoff", "attendees": GUESTS[1:]})
        assert [(i["to"], i["method"]) for i in out["invitations"]] == [
            (GUESTS[1], "REQUEST"),
            ("cy@acme.test", "REQUEST"),
        ]
        assert ("modified", "calendar/Work/hold#organizer") in changes(s0, episode.snapshot())
        assert out["event"]["organizer"] == f"Lin Chen <{USER}>"
        # Guests new to the event get an invitation, with a SEQUENCE above the event's before.
        _, event, _ = itip(raw_outbox(episode)[0])
        assert int(event["SEQUENCE"]) > 0
        assert episode.snapshot()["mail"]["outbox"][0]["subject"].startswith("Invitation: Kickoff @")
        more = reg.call("calendar_update_event", {"uid": "hold", "attendees": GUESTS})["invitations"]
        assert [(i["to"], i["method"]) for i in more] == [(g, "REQUEST") for g in GUESTS[1:] + GUESTS[:1]]
        subjects = [m["subject"].split(":")[0] for m in episode.snapshot()["mail"]["outbox"][2:]]
        assert subjects == ["Updated invitation", "Updated invitation", "Invitation"]


SERIES_WORLD = {
    "now": "2026-03-02T09:00:00+00:00",
    "timezone": "Europe/London",
    "user": {"name": "Lin Chen", "email": USER},
    "calendar": {
        "Work": [
            {
                "uid": "sync",
                "summary": "Team sync",
                "start": "2026-02-03T10:00:00+00:00",
                "end": "2026-02-03T10:30:00+00:00",
                "rrule": "FREQ=WEEKLY;BYDAY=TU",
                "attendees": [f"Lin Chen <{USER}>", *GUESTS[:2]],
                "organizer": f"Lin Chen <{USER}>",
                # 10 March was moved to the 11th at 14:00; 17 March was already called off.
                "overrides": [
                    {"recurrence_id": "2026-03-10T10:00:00+00:00", "start": "2026-03-11T14:00:00+00:00"},
                    {"recurrence_id": "2026-03-17T10:00:00+00:00", "status": "CANCELLED"},
                ],
            }
        ]
    },
}


def _occurrences(reg: Registry, start: str, end: str) -> list[str]:
    [event] = reg.call("calendar_list_events", {"start": start, "end": end})["events"]
    return list(event["occurrences"])


def test_one_occurrence_is_cancelled_and_the_series_goes_on(make_episode: Any) -> None:
    episode = make_episode(SERIES_WORLD)
    with Registry(episode) as reg:
        # The listing shows where each occurrence is now, and leaves out the one already called off.
        assert _occurrences(reg, "2026-03-02", "2026-03-29") == [
            "2026-03-03T10:00:00+00:00",
            "2026-03-11T14:00:00+00:00",
            "2026-03-24T10:00:00+00:00",
        ]
        out = reg.call("calendar_delete_event", {"uid": "sync", "occurrence": "2026-03-03T10:00"})
        assert out["occurrence"] == "2026-03-03T10:00:00+00:00"
        assert [(i["to"], i["method"]) for i in out["invitations"]] == [(g, "CANCEL") for g in GUESTS[:2]]
        # The moved one is found by where it is now, and its own component is marked cancelled.
        reg.call("calendar_delete_event", {"uid": "sync", "occurrence": "2026-03-11T14:00"})
        assert _occurrences(reg, "2026-03-02", "2026-04-05") == [
            "2026-03-24T10:00:00+00:00",
            "2026-03-31T10:00:00+01:00",
        ]
        event = reg.call("calendar_get_event", {"uid": "sync"})
        assert event["rrule"] == "FREQ=WEEKLY;BYDAY=TU" and event["start"] == "2026-02-03T10:00:00+00:00"
        assert event["exdates"] == ["2026-03-03T10:00:00+00:00"]
        assert [(o["recurrence_id"], o["status"]) for o in event["overrides"]] == [
            ("2026-03-10T10:00:00+00:00", "CANCELLED"),
            ("2026-03-17T10:00:00+00:00", "CANCELLED"),
        ]
        # Each guest's cancellation names the occurrence: the state says which, the iTIP object has it.
        outbox = episode.snapshot()["mail"]["outbox"]
        assert outbox[0]["invitation"] == {
            "method": "CANCEL",
            "uid": "sync",
            "recurrence_id": "2026-03-03T10:00:00+00:00",
        }
        assert outbox[2]["invitation"]["recurrence_id"] == "2026-03-10T10:00:00+00:00"
        assert "When: Wed 11 Mar 2026 14:00–14:30" in outbox[2]["body"]
        method, event_sent, _ = itip(raw_outbox(episode)[0])
        assert method == "CANCEL" and "RRULE" not in event_sent
        assert event_sent.decoded("RECURRENCE-ID").isoformat() == "2026-03-03T10:00:00+00:00"


def test_one_occurrence_moves_on_its_own(make_episode: Any) -> None:
    episode = make_episode(SERIES_WORLD)
    with Registry(episode) as reg:
        out = reg.call(
            "calendar_update_event", {"uid": "sync", "occurrence": "2026-03-24T10:00", "start": "2026-03-26T15:00"}
        )
        assert [(i["to"], i["method"]) for i in out["invitations"]] == [(g, "REQUEST") for g in GUESTS[:2]]
        moved = next(o for o in out["event"]["overrides"] if o["recurrence_id"] == "2026-03-24T10:00:00+00:00")
        assert (moved["start"], moved["end"]) == ("2026-03-26T15:00:00+00:00", "2026-03-26T15:30:00+00:00")
        assert out["event"]["start"] == "2026-02-03T10:00:00+00:00", "the series keeps its times"
        assert _occurrences(reg, "2026-03-23", "2026-04-05") == [
            "2026-03-26T15:00:00+00:00",
            "2026-03-31T10:00:00+01:00",
        ]
        # Moving the moved one again changes its own component; the update names the occurrence.
        reg.call("calendar_update_event", {"uid": "sync", "occurrence": "2026-03-11T14:00", "location": "Room 4"})
        overrides = reg.call("calendar_get_event", {"uid": "sync"})["overrides"]
        assert [o["location"] for o in overrides if o["recurrence_id"].startswith("2026-03-10")] == ["Room 4"]
        assert len(overrides) == 3
        method, sent, _ = itip(raw_outbox(episode)[0])
        assert method == "REQUEST" and sent.decoded("DTSTART").isoformat() == "2026-03-26T15:00:00+00:00"
        assert episode.snapshot()["mail"]["outbox"][0]["invitation"]["recurrence_id"] == "2026-03-24T10:00:00+00:00"


def test_occurrence_errors_change_nothing(make_episode: Any) -> None:
    episode = make_episode({**SERIES_WORLD, "calendar": {"Work": [*SERIES_WORLD["calendar"]["Work"], REVIEW_ONCE]}})
    with Registry(episode) as reg:
        s0 = episode.snapshot()
        wrong = fails(reg, "calendar_delete_event", uid="sync", occurrence="2026-03-25T10:00")
        assert "no occurrence starting at 2026-03-25T10:00" in wrong.message and "2026-03-24T10:00" in wrong.message
        once = fails(reg, "calendar_update_event", uid="once", occurrence="2026-03-12T15:00", start="2026-03-13T15:00")
        assert "does not repeat" in once.message
        away = fails(reg, "calendar_update_event", uid="sync", occurrence="2026-03-24T10:00", calendar="Personal")
        assert "another calendar" in away.message
        assert episode.snapshot() == s0


REVIEW_ONCE = {"uid": "once", "summary": "Design review", "start": "2026-03-12T15:00:00+00:00"}
