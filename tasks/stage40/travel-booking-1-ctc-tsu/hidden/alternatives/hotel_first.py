"""Alternative solution 'hotel_first' for travel-booking-1-ctc-tsu: another reasonable way to the goal."""

from __future__ import annotations

import re


FACTS = {'coordinator': 'jhaas@alder-studio.de',
 'subject': 'Design Days: please book your trip',
 'evening_phrase': 'arrive the evening before',
 'area': 'University',
 'city': 'Berlin',
 'origin': 'Amsterdam',
 'date': '2026-08-25',
 'leave': '2026-08-27',
 'arrive': '20:25',
 'policy_title': 'Travel policy 2026',
 'reply': 'Hi Johannes,\n'
          '\n'
          'the trip is booked on Skyway:\n'
          '\n'
          '- {number}: {flight}\n'
          '- {hotel}: {stay}\n'
          '\n'
          'Thanks,\n'
          'Franziska Bäcker',
 'me': 'Franziska',
 'who': 'Johannes'}


def _event(tools, number, hour, minute, summary, note=""):
    f = FACTS
    start = f"{f['date']}T{hour}:{minute}:00"
    end = f"{f['date']}T{f['arrive']}:00"
    tools.calendar_create_event(calendar="Work", summary=summary, start=start, end=end, description=note)


def _reference(page: dict[str, Any]) -> str:
    return re.search(r"booking reference is (\w+)", page["text"]).group(1)


def _flight(tools):
    """Books the evening flight; returns its number, departure (HH, MM) and booking reference."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/flights?origin={f['origin']}&destination={f['city']}&date={f['date']}")
    rows = re.findall(r"\] (\w+ \d+) \| [^|\n]+ \| [^|\n]+ \| [^|\n]+ \| [^|\n]*, (\d\d):(\d\d)", results["text"])
    number, hour, minute = next(r for r in rows if int(r[1]) >= 17)  # the evening flight
    tools.browser_click(text=number)
    return number, hour, minute, _reference(tools.browser_click(text="Book flight"))


def _hotel(tools, limit):
    """Books the cheapest hotel in the area within the limit; returns its name and booking reference."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/hotels?city={f['city']}&check_in={f['date']}&check_out={f['leave']}")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| [^|\n]* \| \D*([\d,.]+) \|", results["text"])
    fitting = sorted((float(p.replace(",", "")), n) for n, a, p in rows if a == f["area"])
    hotel = next(n for p, n in fitting if p <= limit)
    tools.browser_click(text=hotel)
    return hotel, _reference(tools.browser_click(text="Book hotel"))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


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


def _request(tools, read_all=False):
    """The coordinator's request and this year's nightly limit for the city; with `read_all`, the whole inbox is
    listed page by page and every message from the coordinator and every travel-policy note is read first."""
    f = FACTS
    if read_all:
        for message in every(tools.mail_search, "messages", folder="INBOX", limit=50):
            if address(message["from"]) == f["coordinator"]:
                tools.mail_read(id=message["id"])
    found = tools.mail_search(sender=f["coordinator"], subject=f["subject"])["messages"]
    request = tools.mail_read(id=found[0]["id"])
    wanted = one_line(request["body"])
    assert f["evening_phrase"] in wanted and f["area"] in wanted, "the request does not say what to book"
    notes = tools.notes_search(query="travel policy")["notes"]
    if read_all:
        for note in notes:
            tools.notes_read(uid=note["uid"])
    current = tools.notes_read(uid=next(n["uid"] for n in notes if n["title"] == f["policy_title"]))
    limit = float(re.search(re.escape(f["city"]) + r": \D*([\d.]+)", current["body"]).group(1))
    return request, limit


def solve_hotel_first(tools):
    """Books the hotel before the flight, names the event by the flight number without its space (with a note
    that gives no value), and answers in a new message on the request's subject."""
    f = FACTS
    request, limit = _request(tools)
    hotel, stay = _hotel(tools, limit)
    number, hour, minute, flight = _flight(tools)
    compact = number.replace(" ", "")
    _event(tools, number, hour, minute, f"{compact} → {f['city']}", f"Booked on Skyway; references sent to {f['who']}")
    tools.mail_send(
        to=[f["coordinator"]],
        subject=f"Re: {request['subject']}",
        body=f"Hello {f['who']},\n\nall booked. Flight {compact}, reference {flight}; {hotel}, reference {stay}.\n\n"
        f"Best,\n{f['me']}",
    )


solve = solve_hotel_first
