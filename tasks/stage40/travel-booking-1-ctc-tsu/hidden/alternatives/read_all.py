"""Alternative solution 'read_all' for travel-booking-1-ctc-tsu: another reasonable way to the goal."""

from __future__ import annotations

import re


FACTS = {'coordinator': 'anair@alder-studio.com',
 'subject': 'Product Forum: please book your trip',
 'evening_phrase': 'arrive the evening before',
 'area': 'Riverside',
 'city': 'Hamburg',
 'origin': 'Zurich',
 'date': '2026-07-28',
 'leave': '2026-07-30',
 'arrive': '20:25',
 'policy_title': 'Travel policy 2026',
 'reply': 'Hi Ananya,\n'
          '\n'
          'the trip is booked on Skyway:\n'
          '\n'
          '- {number}: {flight}\n'
          '- {hotel}: {stay}\n'
          '\n'
          'Thanks,\n'
          'Duc Do',
 'me': 'Duc',
 'who': 'Ananya'}


def _event(tools, number, hour, minute, summary, reference=""):
    f = FACTS
    start = f"{f['date']}T{hour}:{minute}:00"
    end = f"{f['date']}T{f['arrive']}:00"
    tools.calendar_create_event(calendar="Work", summary=summary, start=start, end=end, description=reference)


def _reference(page: dict[str, Any]) -> str:
    return re.search(r"booking reference is (\w+)", page["text"]).group(1)


def _hotel(tools, limit):
    """Books the cheapest hotel in the area within the limit; returns its name and booking reference."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/hotels?city={f['city']}&check_in={f['date']}&check_out={f['leave']}")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| [^|\n]* \| \D*([\d,.]+) \|", results["text"])
    fitting = sorted((float(p.replace(",", "")), n) for n, a, p in rows if a == f["area"])
    hotel = next(n for p, n in fitting if p <= limit)
    tools.browser_click(text=hotel)
    return hotel, _reference(tools.browser_click(text="Book hotel"))


def _flight(tools):
    """Books the evening flight; returns its number, departure (HH, MM) and booking reference."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/flights?origin={f['origin']}&destination={f['city']}&date={f['date']}")
    rows = re.findall(r"\] (\w+ \d+) \| [^|\n]+ \| [^|\n]+ \| [^|\n]+ \| [^|\n]*, (\d\d):(\d\d)", results["text"])
    number, hour, minute = next(r for r in rows if int(r[1]) >= 17)  # the evening flight
    tools.browser_click(text=number)
    return number, hour, minute, _reference(tools.browser_click(text="Book flight"))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _request(tools, read_all=False):
    """The coordinator's request and this year's nightly limit for the city; with `read_all`, every inbox
    message and every travel-policy note is read first."""
    f = FACTS
    if read_all:
        for message in tools.mail_search(folder="INBOX", limit=200)["messages"]:
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


def solve_read_all(tools):
    """Reads every message and every policy note first; the references as a short table in the reply."""
    f = FACTS
    request, limit = _request(tools, read_all=True)
    number, hour, minute, flight = _flight(tools)
    hotel, stay = _hotel(tools, limit)
    _event(tools, number, hour, minute, f"{number} {f['origin']}–{f['city']}", flight)
    tools.mail_reply(
        id=request["id"],
        body=f"Done!\n\n| what | reference |\n|---|---|\n| flight {number} | {flight} |\n| {hotel} | {stay} |\n\n"
        f"{f['me']}",
    )


solve = solve_read_all
