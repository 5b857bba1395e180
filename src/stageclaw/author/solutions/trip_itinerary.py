"""trip-itinerary: the booked flights as calendar events at their real times, with check-in reminders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.solutionlib import one_line

FACTS: dict[str, Any] = {}


def _flights(tools, read_all=False):
    """Each flight with its departure and arrival as instants (the booking gives local airport times)."""
    f = FACTS
    if read_all:
        found = [m for m in tools.mail_search(limit=200)["messages"] if f["airline_domain"] in m["from"]]
        texts = [f"{m['subject']} {one_line(tools.mail_read(id=m['id'])['body'])}" for m in found]
        sources = " ".join(t for t in texts if f["booking"] in t)
    else:
        found = tools.mail_search(sender=f["airline_domain"], text=f["booking"])["messages"]
        sources = " ".join(one_line(tools.mail_read(id=m["id"])["body"]) for m in found)
    if f["itinerary"]:  # the return flight is only in the downloaded itinerary
        sources += " " + tools.files_read(path=f["itinerary"])["content"]
    out = []
    for flight in f["flights"]:
        for piece in flight["shown"]:
            assert piece in sources, f"{flight['number']}: {piece!r} is not in the booking"
        departs = datetime(*flight["departs"], tzinfo=ZoneInfo(flight["from_zone"]))  # local times at each airport
        arrives = datetime(*flight["arrives"], tzinfo=ZoneInfo(flight["to_zone"]))
        out.append((flight, departs, arrives))
    return out


def solve(tools):
    f = FACTS
    for flight, departs, arrives in _flights(tools):
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=flight["title"],
            start=departs.isoformat(),
            end=arrives.isoformat(),
            location=flight["airport"],
        )
        due = departs - timedelta(hours=24)
        tools.reminders_create(title=f"Check in online for {flight['number']}", due=due.isoformat())


def solve_utc(tools):
    """The check-in reminders first, then the events, every time written in UTC; titles without the space in the
    flight number."""
    f = FACTS
    flights = _flights(tools)
    for flight, departs, _ in flights:
        due = (departs - timedelta(hours=24)).astimezone(UTC)
        tools.reminders_create(title=f"Online check-in {flight['number'].replace(' ', '')}", due=due.isoformat())
    for flight, departs, arrives in flights:
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=f"Flight {flight['number'].replace(' ', '')}",
            start=departs.astimezone(UTC).isoformat(),
            end=arrives.astimezone(UTC).isoformat(),
        )


def solve_read_all(tools):
    """Reads the airline's mails out of a listing of every folder; events in the user's own time, with the
    booking in the description."""
    f = FACTS
    here = ZoneInfo(tools.now()["timezone"])
    for flight, departs, arrives in _flights(tools, read_all=True):
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=flight["title"],
            start=departs.astimezone(here).isoformat(),
            end=arrives.astimezone(here).isoformat(),
            location=flight["airport"],
            description=f"Booking {f['booking']}",
        )
        tools.reminders_create(
            title=f"Check in: {flight['number']}", list="Reminders", due=(departs - timedelta(hours=24)).isoformat()
        )
