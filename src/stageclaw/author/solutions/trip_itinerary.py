"""trip-itinerary: every flight of the trip as a calendar event at its real times, a check-in reminder when each
airline opens online check-in, and the partner told when the user lands back."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.solutionlib import one_line, pages

FACTS: dict[str, Any] = {}


def _sources(tools, read_all=False):
    """The text of the trip's bookings, schedule changes and rebookings (and the downloaded itinerary when
    the main booking's mail leaves the return flight to it)."""
    f = FACTS
    if read_all:  # every message of the last weeks about a booking, then the ones that are the user's trip
        found = [m for m in pages(tools.mail_search, since=f["since"]) if "booking" in m["subject"].lower()]
        texts = [f"{m['subject']} {one_line(tools.mail_read(id=m['id'])['body'])}" for m in found]
        sources = " ".join(t for t in texts if any(b in t for b in f["bookings"]))
    else:
        found = {m["id"]: m for b in f["bookings"] for m in tools.mail_search(text=b, since=f["since"])["messages"]}
        wanted = [m for m in found.values() if "passenger information" not in m["subject"].lower()]
        sources = " ".join(f"{m['subject']} {one_line(tools.mail_read(id=m['id'])['body'])}" for m in wanted)
    if f["itinerary"]:
        sources += " " + tools.files_read(path=f["itinerary"])["content"]
    return sources


def _flights(tools, read_all=False):
    """Each flight with its departure and arrival as instants (the bookings give local airport times), and
    when its online check-in opens (each airline's confirmation says how many hours before)."""
    sources = _sources(tools, read_all)
    out = []
    for flight in FACTS["flights"]:
        opens = f"check-in opens {flight['check_in']} hours"
        for piece in [flight["number"], *flight["shown"], opens]:
            assert piece in sources, f"{flight['number']}: {piece!r} is not in the bookings"
        departs = datetime(*flight["departs"], tzinfo=ZoneInfo(flight["from_zone"]))
        arrives = datetime(*flight["arrives"], tzinfo=ZoneInfo(flight["to_zone"]))
        out.append((flight, departs, arrives, departs - timedelta(hours=flight["check_in"])))
    return out


def _already(tools):
    """The Travel events and open reminders of the trip's days that are there already, by flight number (the
    user's own, worded without the number, by what they say: the route, the city and the airline)."""
    f = FACTS
    events = pages(tools.calendar_list_events, start=f["window"][0], end=f["window"][1], calendar=f["calendar"])
    reminders = pages(tools.reminders_list, list=f["list"])
    numbers = [flight["number"] for flight in f["flights"]] + [
        flight["was"] for flight in f["flights"] if flight["was"]
    ]
    own = {title: flight["number"] for flight in f["flights"] for title in flight["own"]}
    by_number = {}
    for item in events + reminders:
        if item.get("completed"):
            continue
        label = item.get("summary") or item.get("title") or ""
        for number in numbers:
            if re.search(rf"\b{re.escape(number)}\b", label) or own.get(label) == number:
                by_number.setdefault(number, {})["event" if "summary" in item else "reminder"] = item
    return by_number


def _tell_partner(tools, body):
    f = FACTS
    partner = tools.contacts_search(query=f["partner"])["contacts"][0]
    tools.mail_send(to=[partner["emails"][0]], subject="When I'm back", body=body)


def solve(tools):
    f = FACTS
    flights = _flights(tools)
    there = _already(tools)
    for flight, departs, arrives, due in flights:
        if "event" in there.get(flight["was"], {}):  # the cancelled flight: its rebooking replaces it
            tools.calendar_delete_event(uid=there[flight["was"]]["event"]["uid"])
        found = there.get(flight["number"], {})
        if "event" in found:
            event = found["event"]
            if flight["number"] not in event["summary"]:  # the user's own, in their words: the number goes in
                tools.calendar_update_event(uid=event["uid"], summary=f"{event['summary']} {flight['number']}")
            if datetime.fromisoformat(event["start"]) != departs:  # the schedule changed since
                tools.calendar_update_event(uid=event["uid"], start=departs.isoformat(), end=arrives.isoformat())
        else:
            tools.calendar_create_event(
                calendar=f["calendar"],
                summary=flight["title"],
                start=departs.isoformat(),
                end=arrives.isoformat(),
                location=flight["airport"],
            )
        if "reminder" in found:
            if datetime.fromisoformat(found["reminder"]["due"]) != due:
                tools.reminders_update(uid=found["reminder"]["uid"], due=due.isoformat())
        else:
            tools.reminders_create(title=f"Check in online for {flight['number']}", list=f["list"], due=due.isoformat())
    landing = f["landing"]
    _tell_partner(
        tools, f"Hi {f['partner']},\n\nI land back home on {landing['day']} at {landing['time']}.\n\nSee you then!"
    )


def solve_utc(tools):
    """The reminders first, then the events, every time written in UTC; the outbound's old event and reminder
    deleted and made anew; titles without the space in the flight number; a chattier mail."""
    f = FACTS
    flights = _flights(tools)
    there = _already(tools)
    for found in there.values():
        if "event" in found:
            tools.calendar_delete_event(uid=found["event"]["uid"])
        if "reminder" in found:
            tools.reminders_delete(uid=found["reminder"]["uid"])
    for flight, _, _, due in flights:
        tools.reminders_create(
            title=f"Online check-in {flight['number'].replace(' ', '')}",
            list=f["list"],
            due=due.astimezone(UTC).isoformat(),
        )
    for flight, departs, arrives, _ in flights:
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=f"{flight['number'].replace(' ', '')} flight",
            start=departs.astimezone(UTC).isoformat(),
            end=arrives.astimezone(UTC).isoformat(),
        )
    landing = f["landing"]
    _tell_partner(
        tools,
        f"Hello {f['partner']},\n\nThe trip is all booked. My last flight gets me home on {landing['day']}, "
        f"landing at {landing['time']}, so I should be back a little while after that.\n\nLove",
    )


def solve_read_all(tools):
    """Reads every booking mail of the last weeks; events in the user's own time, with the airport as the place;
    the cancelled flight's event turned into its rebooking's."""
    f = FACTS
    here = ZoneInfo(tools.now()["timezone"])
    there = _already(tools)
    for flight, departs, arrives, opens in _flights(tools, read_all=True):
        found = {**there.get(flight["was"], {}), **there.get(flight["number"], {})}  # the cancelled one becomes it
        start, end = departs.astimezone(here).isoformat(), arrives.astimezone(here).isoformat()
        if "event" in found:
            tools.calendar_update_event(uid=found["event"]["uid"], summary=flight["title"], start=start, end=end)
        else:
            tools.calendar_create_event(
                calendar=f["calendar"], summary=flight["title"], start=start, end=end, location=flight["airport"]
            )
        due = opens.astimezone(here).isoformat()
        if "reminder" in found:
            tools.reminders_update(uid=found["reminder"]["uid"], due=due)
        else:
            tools.reminders_create(title=f"Check in: {flight['number']}", list=f["list"], due=due)
    landing = f["landing"]
    _tell_partner(tools, f"Hi {f['partner']}, my flight home lands {landing['day']}, {landing['time']}. x")
