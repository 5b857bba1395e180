"""Alternative solution 'utc' for trip-itinerary-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'bookings': ['3BJZX4', '6JMM8M', 'NCZJ96', 'NK52RQ'],
 'since': '2026-01-23',
 'itinerary': 'Downloads/itinerary-NK52RQ.ics',
 'window': ['2026-03-23', '2026-04-08'],
 'calendar': 'Travel',
 'list': 'Reminders',
 'partner': 'Abhishek',
 'flights': [{'number': 'NQ 1764',
              'was': '',
              'title': 'Flight NQ 1764 London → New York',
              'airport': 'London Heathrow',
              'shown': ['11:15', '14:40'],
              'departs': [2026, 3, 23, 11, 15],
              'from_zone': 'Europe/London',
              'arrives': [2026, 3, 23, 14, 40],
              'to_zone': 'America/New_York'},
             {'number': 'MD 1539',
              'was': '',
              'title': 'Flight MD 1539 New York → Denver',
              'airport': 'New York JFK',
              'shown': ['10:40', '12:25'],
              'departs': [2026, 3, 26, 10, 40],
              'from_zone': 'America/New_York',
              'arrives': [2026, 3, 26, 12, 25],
              'to_zone': 'America/Denver'},
             {'number': 'PW 1299',
              'was': 'PW 1297',
              'title': 'Flight PW 1299 Denver → Chicago',
              'airport': 'Denver',
              'shown': ['14:15', '17:30'],
              'departs': [2026, 3, 30, 14, 15],
              'from_zone': 'America/Denver',
              'arrives': [2026, 3, 30, 17, 30],
              'to_zone': 'America/Chicago'},
             {'number': 'BQ 209',
              'was': '',
              'title': 'Flight BQ 209 Chicago → Seattle',
              'airport': "Chicago O'Hare",
              'shown': ['10:25', '12:20'],
              'departs': [2026, 4, 3, 10, 25],
              'from_zone': 'America/Chicago',
              'arrives': [2026, 4, 3, 12, 20],
              'to_zone': 'America/Los_Angeles'},
             {'number': 'NQ 736',
              'was': '',
              'title': 'Flight NQ 736 Seattle → London',
              'airport': 'Seattle-Tacoma',
              'shown': ['20260406T115000'],
              'departs': [2026, 4, 6, 11, 50],
              'from_zone': 'America/Los_Angeles',
              'arrives': [2026, 4, 7, 6, 0],
              'to_zone': 'Europe/London'}],
 'landing': {'day': 'Tuesday 7 April', 'time': '06:00'}}


def _tell_partner(tools, body):
    f = FACTS
    partner = tools.contacts_search(query=f["partner"])["contacts"][0]
    tools.mail_send(to=[partner["emails"][0]], subject="When I'm back", body=body)


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def pages(call: Any, **query: Any) -> list[dict[str, Any]]:
    """Every result of a listing tool, page by page: `call` returns {KEY: [...], "next_cursor": ...}."""
    return every(call, None, **query)


def _already(tools):
    """The Travel events and open reminders of the trip's days that are there already, by flight number."""
    f = FACTS
    events = pages(tools.calendar_list_events, start=f["window"][0], end=f["window"][1], calendar=f["calendar"])
    reminders = pages(tools.reminders_list, list=f["list"])
    numbers = [flight["number"] for flight in f["flights"]]
    by_number = {}
    for item in events + reminders:
        label = item.get("summary") or item.get("title") or ""
        for number in numbers:
            if re.search(rf"\b{re.escape(number)}\b", label):
                by_number.setdefault(number, {})["event" if "summary" in item else "reminder"] = item
    return by_number


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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
    """Each flight with its departure and arrival as instants (the bookings give local airport times)."""
    sources = _sources(tools, read_all)
    out = []
    for flight in FACTS["flights"]:
        for piece in [flight["number"], *flight["shown"]]:
            assert piece in sources, f"{flight['number']}: {piece!r} is not in the bookings"
        departs = datetime(*flight["departs"], tzinfo=ZoneInfo(flight["from_zone"]))
        arrives = datetime(*flight["arrives"], tzinfo=ZoneInfo(flight["to_zone"]))
        out.append((flight, departs, arrives))
    return out


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
    for flight, departs, _ in flights:
        due = (departs - timedelta(hours=24)).astimezone(UTC)
        tools.reminders_create(
            title=f"Online check-in {flight['number'].replace(' ', '')}", list=f["list"], due=due.isoformat()
        )
    for flight, departs, arrives in flights:
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


solve = solve_utc
