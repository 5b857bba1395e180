"""Alternative solution 'hotel_first' for travel-booking-2: another reasonable way to the goal."""

from __future__ import annotations

import re


FACTS = {'coordinator': 'yasmin.khalil@quillfeather-robotics.de',
 'subject': 'Design Days: please book your trip',
 'evening_phrase': 'arrive the evening before',
 'area': 'Station',
 'city': 'Berlin',
 'origin': 'Hamburg',
 'date': '2026-04-02',
 'leave': '2026-04-04',
 'arrive': '19:10',
 'policy_title': 'Travel policy 2026',
 'reply': 'Hi Yasmin,\n'
          '\n'
          'the trip is booked on Skyway:\n'
          '\n'
          '- {number}: {flight}\n'
          '- {hotel}: {stay}\n'
          '\n'
          'Total cost: €{total}. I cancelled my earlier booking of the morning flight.\n'
          '\n'
          'Thanks,\n'
          'Mehmet Öztürk',
 'first': '2026-04-03',
 'me': 'Mehmet',
 'who': 'Yasmin'}


def _times(hour, minute):
    f = FACTS
    return f"{f['date']}T{hour}:{minute}:00", f"{f['date']}T{f['arrive']}:00"


def _event(tools, hour, minute, summary, note=""):
    start, end = _times(hour, minute)
    tools.calendar_create_event(calendar="Work", summary=summary, start=start, end=end, description=note)


def _early_event(tools, number):
    """The Work event of the early flight, on the event's first day."""
    f = FACTS
    found = tools.calendar_list_events(start=f["first"], end=f["leave"], calendar="Work", query=number)["events"]
    return next(e for e in found if number in e["summary"])


def _cancel_early(tools, keep):
    """Cancels the user's own earlier booking of a flight to the city, not the one just booked (`keep`), under
    policy rule 4; returns its flight number."""
    f = FACTS
    trips = tools.browser_open(url="/travel/bookings")["text"]
    ref, number = next(
        (r, n)
        for r, n, rest in re.findall(r"\] (\w{6}) \| Flight (\w+ \d+) ([^\n]+)", trips)
        if n != keep and f["city"] in rest and "confirmed" in rest
    )
    tools.browser_click(text=ref)
    page = tools.browser_click(text="Cancel booking")
    assert "has been cancelled" in page["text"], "the early booking was not cancelled"
    return number


def _reference(page: dict[str, Any]) -> tuple[str, float]:
    """The booking reference and the total a booking's page gives."""
    text = page["text"]
    total = re.search(r"Total\W*?([\d,]+(?:\.\d+)?)", text).group(1)
    return re.search(r"booking reference is (\w+)", text).group(1), float(total.replace(",", ""))


def _flight(tools):
    """Books the evening flight; returns its number, departure (HH, MM), booking reference and price."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/flights?origin={f['origin']}&destination={f['city']}&date={f['date']}")
    rows = re.findall(r"\] (\w+ \d+) \| [^|\n]+ \| [^|\n]+ \| [^|\n]+ \| [^|\n]*, (\d\d):(\d\d)", results["text"])
    number, hour, minute = next(r for r in rows if int(r[1]) >= 17)  # the evening flight
    tools.browser_click(text=number)
    return number, hour, minute, *_reference(tools.browser_click(text="Book flight"))


def _hotel(tools, limit):
    """Books the cheapest hotel in the area within the limit with three stars or more; returns its name, booking
    reference and total."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/hotels?city={f['city']}&check_in={f['date']}&check_out={f['leave']}")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| ([^|\n]*) \| \D*([\d,.]+) \|", results["text"])
    fitting = sorted(
        (float(p.replace(",", "")), n) for n, a, stars, p in rows if a == f["area"] and stars.count("★") >= 3
    )
    hotel = next(n for p, n in fitting if p <= limit)
    tools.browser_click(text=hotel)
    return hotel, *_reference(tools.browser_click(text="Book hotel"))


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
    assert "at least three stars" in current["body"], "the policy does not say how many stars"
    return request, limit


def solve_hotel_first(tools):
    """Books the hotel before the flight, deletes the early flight's event and makes a new one named by the flight
    number without its space (with a note that gives no value), and answers in a new message on the request's
    subject, the total written the continental way."""
    f = FACTS
    request, limit = _request(tools)
    hotel, stay, cost = _hotel(tools, limit)
    number, hour, minute, flight, price = _flight(tools)
    old = _cancel_early(tools, number)
    tools.calendar_delete_event(uid=_early_event(tools, old)["uid"])
    compact = number.replace(" ", "")
    _event(tools, hour, minute, f"{compact} → {f['city']}", f"Booked on Skyway; references sent to {f['who']}")
    total = f"{price + cost:,.2f}".replace(",", " ").replace(".", ",")
    tools.mail_send(
        to=[f["coordinator"]],
        subject=f"Re: {request['subject']}",
        body=f"Hello {f['who']},\n\nall booked. Flight {compact}, reference {flight}; {hotel}, reference {stay}. "
        f"{old} is cancelled. Total: {total} EUR.\n\nBest,\n{f['me']}",
    )


solve = solve_hotel_first
