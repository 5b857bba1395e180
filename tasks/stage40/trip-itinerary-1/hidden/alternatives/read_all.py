"""Alternative solution 'read_all' for trip-itinerary-1: another reasonable way to the goal."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'airline_domain': 'bookings@skylarkairways.com',
 'booking': 'BSMK7R',
 'itinerary': 'Downloads/itinerary-BSMK7R.ics',
 'flights': [{'number': 'SQ 940',
              'title': 'Flight SQ 940 Sydney → Tokyo',
              'airport': 'Sydney',
              'shown': ['13:35', '22:50'],
              'departs': [2026, 6, 24, 13, 35],
              'from_zone': 'Australia/Sydney',
              'arrives': [2026, 6, 24, 22, 50],
              'to_zone': 'Asia/Tokyo'},
             {'number': 'SQ 941',
              'title': 'Flight SQ 941 Tokyo → Sydney',
              'airport': 'Tokyo Haneda',
              'shown': ['20260629T163500'],
              'departs': [2026, 6, 29, 16, 35],
              'from_zone': 'Asia/Tokyo',
              'arrives': [2026, 6, 30, 3, 50],
              'to_zone': 'Australia/Sydney'}],
 'calendar': 'Travel'}


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


solve = solve_read_all
