"""Reference solution for trip-itinerary-1-ctc-hd-tsu, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'bookings': ['3YA9TC', '8UUKB5', 'EC9AQ4', 'J3P3AD'],
 'since': '2026-07-06',
 'itinerary': 'Downloads/itinerary-J3P3AD.ics',
 'window': ['2026-09-08', '2026-09-21'],
 'calendar': 'Travel',
 'list': 'Reminders',
 'partner': 'Jesús',
 'flights': [{'number': 'YK 181',
              'was': '',
              'title': 'Flight YK 181 Chicago → Guadalajara',
              'airport': "Chicago O'Hare",
              'shown': ['10:50', '13:50'],
              'departs': [2026, 9, 8, 10, 50],
              'from_zone': 'America/Chicago',
              'arrives': [2026, 9, 8, 13, 50],
              'to_zone': 'America/Mexico_City'},
             {'number': 'PW 1328',
              'was': '',
              'title': 'Flight PW 1328 Guadalajara → Ciudad de México',
              'airport': 'Guadalajara',
              'shown': ['16:40', '17:45'],
              'departs': [2026, 9, 12, 16, 40],
              'from_zone': 'America/Mexico_City',
              'arrives': [2026, 9, 12, 17, 45],
              'to_zone': 'America/Mexico_City'},
             {'number': 'MD 1658',
              'was': '',
              'title': 'Flight MD 1658 Ciudad de México → Denver',
              'airport': 'Mexico City',
              'shown': ['18:50', '22:15'],
              'departs': [2026, 9, 14, 18, 50],
              'from_zone': 'America/Mexico_City',
              'arrives': [2026, 9, 14, 22, 15],
              'to_zone': 'America/Denver'},
             {'number': 'KZ 352',
              'was': '',
              'title': 'Flight KZ 352 Denver → New York',
              'airport': 'Denver',
              'shown': ['09:25', '15:10'],
              'departs': [2026, 9, 17, 9, 25],
              'from_zone': 'America/Denver',
              'arrives': [2026, 9, 17, 15, 10],
              'to_zone': 'America/New_York'},
             {'number': 'YK 1592',
              'was': '',
              'title': 'Flight YK 1592 New York → Chicago',
              'airport': 'New York JFK',
              'shown': ['20260920T070500'],
              'departs': [2026, 9, 20, 7, 5],
              'from_zone': 'America/New_York',
              'arrives': [2026, 9, 20, 8, 5],
              'to_zone': 'America/Chicago'}],
 'landing': {'day': 'Sunday, September 20', 'time': '08:05'}}


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


def solve(tools):
    f = FACTS
    flights = _flights(tools)
    there = _already(tools)
    for flight, departs, arrives in flights:
        found = there.get(flight["number"], {})
        if "event" in found:
            if datetime.fromisoformat(found["event"]["start"]) != departs:  # the schedule changed since
                tools.calendar_update_event(
                    uid=found["event"]["uid"], start=departs.isoformat(), end=arrives.isoformat()
                )
        else:
            tools.calendar_create_event(
                calendar=f["calendar"],
                summary=flight["title"],
                start=departs.isoformat(),
                end=arrives.isoformat(),
                location=flight["airport"],
            )
        due = departs - timedelta(hours=24)
        if "reminder" in found:
            if datetime.fromisoformat(found["reminder"]["due"]) != due:
                tools.reminders_update(uid=found["reminder"]["uid"], due=due.isoformat())
        else:
            tools.reminders_create(title=f"Check in online for {flight['number']}", list=f["list"], due=due.isoformat())
    landing = f["landing"]
    _tell_partner(
        tools, f"Hi {f['partner']},\n\nI land back home on {landing['day']} at {landing['time']}.\n\nSee you then!"
    )
