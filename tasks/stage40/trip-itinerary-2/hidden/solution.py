"""Reference solution for trip-itinerary-2, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'bookings': ['3XFB9S', '6Z4EAX', '7KF5QS', 'BH89TT', 'SMDD82'],
 'since': '2026-01-19',
 'itinerary': 'Downloads/itinerary-BH89TT.ics',
 'window': ['2026-03-23', '2026-04-09'],
 'calendar': 'Travel',
 'list': 'Reminders',
 'partner': 'Karim',
 'flights': [{'number': 'RX 701',
              'was': '',
              'title': 'Flight RX 701 Paris → Manchester',
              'airport': 'Paris Charles de Gaulle',
              'shown': ['12:00', '12:15'],
              'departs': [2026, 3, 23, 12, 0],
              'from_zone': 'Europe/Paris',
              'arrives': [2026, 3, 23, 12, 15],
              'to_zone': 'Europe/London',
              'check_in': 24,
              'own': []},
             {'number': 'KZ 1481',
              'was': 'KZ 1475',
              'title': 'Flight KZ 1481 Manchester → Berlin',
              'airport': 'Manchester',
              'shown': ['21:40', '00:30'],
              'departs': [2026, 3, 27, 21, 40],
              'from_zone': 'Europe/London',
              'arrives': [2026, 3, 28, 0, 30],
              'to_zone': 'Europe/Berlin',
              'check_in': 48,
              'own': ['Get the Kestrel Airlines boarding pass for Berlin']},
             {'number': 'BQ 493',
              'was': '',
              'title': 'Flight BQ 493 Berlin → Stockholm',
              'airport': 'Berlin Brandenburg',
              'shown': ['11:05', '12:40'],
              'departs': [2026, 3, 31, 11, 5],
              'from_zone': 'Europe/Berlin',
              'arrives': [2026, 3, 31, 12, 40],
              'to_zone': 'Europe/Stockholm',
              'check_in': 24,
              'own': ['Flight to Stockholm (Bluefin Air)']},
             {'number': 'YK 1289',
              'was': '',
              'title': 'Flight YK 1289 Stockholm → Hamburg',
              'airport': 'Stockholm Arlanda',
              'shown': ['18:05', '19:35'],
              'departs': [2026, 4, 2, 18, 5],
              'from_zone': 'Europe/Stockholm',
              'arrives': [2026, 4, 2, 19, 35],
              'to_zone': 'Europe/Berlin',
              'check_in': 30,
              'own': []},
             {'number': 'HQ 796',
              'was': '',
              'title': 'Flight HQ 796 Hamburg → Lyon',
              'airport': 'Hamburg',
              'shown': ['13:40', '15:20'],
              'departs': [2026, 4, 6, 13, 40],
              'from_zone': 'Europe/Berlin',
              'arrives': [2026, 4, 6, 15, 20],
              'to_zone': 'Europe/Paris',
              'check_in': 36,
              'own': []},
             {'number': 'RX 1223',
              'was': '',
              'title': 'Flight RX 1223 Lyon → Paris',
              'airport': 'Lyon',
              'shown': ['20260408T114000'],
              'departs': [2026, 4, 8, 11, 40],
              'from_zone': 'Europe/Paris',
              'arrives': [2026, 4, 8, 12, 40],
              'to_zone': 'Europe/Paris',
              'check_in': 24,
              'own': []}],
 'landing': {'day': 'Wednesday 8 April', 'time': '12:40'}}


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
