"""Reference solution for trip-itinerary-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'bookings': ['KQSX35', 'L5CXK8', 'L7ZX4C', 'NK52RQ'],
 'since': '2026-08-23',
 'itinerary': 'Downloads/itinerary-L5CXK8.ics',
 'window': ['2026-10-20', '2026-11-04'],
 'calendar': 'Travel',
 'list': 'Reminders',
 'partner': 'Paweł',
 'flights': [{'number': 'HQ 1711',
              'was': '',
              'title': 'Flight HQ 1711 London → Hamburg',
              'airport': 'London Heathrow',
              'shown': ['11:15', '13:40'],
              'departs': [2026, 10, 20, 11, 15],
              'from_zone': 'Europe/London',
              'arrives': [2026, 10, 20, 13, 40],
              'to_zone': 'Europe/Berlin',
              'check_in': 36,
              'own': []},
             {'number': 'PW 1613',
              'was': '',
              'title': 'Flight PW 1613 Hamburg → Stockholm',
              'airport': 'Hamburg',
              'shown': ['13:25', '14:55'],
              'departs': [2026, 10, 24, 13, 25],
              'from_zone': 'Europe/Berlin',
              'arrives': [2026, 10, 24, 14, 55],
              'to_zone': 'Europe/Stockholm',
              'check_in': 24,
              'own': []},
             {'number': 'MD 1066',
              'was': 'MD 1064',
              'title': 'Flight MD 1066 Stockholm → Lyon',
              'airport': 'Stockholm Arlanda',
              'shown': ['21:25', '00:05'],
              'departs': [2026, 10, 28, 21, 25],
              'from_zone': 'Europe/Stockholm',
              'arrives': [2026, 10, 29, 0, 5],
              'to_zone': 'Europe/Paris',
              'check_in': 36,
              'own': ['Boarding pass for Lyon (Meridian Airlines app)']},
             {'number': 'YK 688',
              'was': '',
              'title': 'Flight YK 688 Lyon → München',
              'airport': 'Lyon',
              'shown': ['16:50', '18:05'],
              'departs': [2026, 10, 31, 16, 50],
              'from_zone': 'Europe/Paris',
              'arrives': [2026, 10, 31, 18, 5],
              'to_zone': 'Europe/Berlin',
              'check_in': 30,
              'own': ['Lyon → München, Skylark Airways flight']},
             {'number': 'HQ 649',
              'was': '',
              'title': 'Flight HQ 649 München → London',
              'airport': 'Munich',
              'shown': ['20261103T171500'],
              'departs': [2026, 11, 3, 17, 15],
              'from_zone': 'Europe/Berlin',
              'arrives': [2026, 11, 3, 17, 55],
              'to_zone': 'Europe/London',
              'check_in': 36,
              'own': []}],
 'landing': {'day': 'Tuesday 3 November', 'time': '17:55'}}


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
