"""Alternative solution 'read_all' for trip-itinerary-1: another reasonable way to the goal."""

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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


solve = solve_read_all
