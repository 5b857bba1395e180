"""Reference solution for travel-booking-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta


FACTS = {'coordinator': 'nadia@saltmarsh-logistics.fr',
 'subject': "Data Summit: please book the team's trip",
 'evening_phrase': 'evening before',
 'area': 'Station',
 'city': 'Zurich',
 'roster': 'Travel/Data Summit 2026 - attendees.md',
 'date': '2026-07-07',
 'first': '2026-07-08',
 'leave': '2026-07-09',
 'shown': {'2026-07-07': 'Tuesday 7 July', '2026-07-08': 'Wednesday 8 July'},
 'policy_title': 'Travel policy 2026',
 'me_name': 'Davide Rinaldi',
 'me': 'Davide',
 'who': 'Nadia',
 'checkin': 'r-check-in-kl-4680',
 'packing': 'n-packing',
 'arrival': '<20260605114100.6e0486@saltmarsh-logistics.fr>',
 'early': 'KL 4680',
 'early_times': ['06:30', '04:45'],
 'colleague': 'galli.giuseppe@saltmarsh-logistics.fr',
 'colleague_given': 'Giuseppe',
 'mine': 'EW 6213'}


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead


def _out_line(body, old, mine):
    """The packing note's body with its outbound line given for the evening flight."""
    f = FACTS
    when = datetime.fromisoformat(f["date"]).strftime("%a %d %b")
    line = next(x for x in body.splitlines() if old in x)
    return body.replace(line, f"Out: {when}, {mine[0]} at {mine[1]}:{mine[2]} (evening before)")


def _checkin_due(mine):
    """24 hours before the evening flight leaves: when its online check-in opens."""
    f = FACTS
    return (datetime.fromisoformat(f"{f['date']}T{mine[1]}:{mine[2]}:00") - timedelta(days=1)).isoformat()


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


def _echoes(tools, old):
    """The user's own items that still go by the early flight `old` (a number like 'LH 1234'): the check-in
    reminder, the packing note and the unsent draft to the colleague, found by the flight's number."""
    todo = next(
        r
        for r in every(tools.reminders_list, "reminders")
        if old in (r["title"] or "") and "check" in r["title"].lower()
    )
    note = next(n for n in tools.notes_search(query=old)["notes"] if "packing" in n["title"].lower())
    found = tools.mail_search(folder="Drafts", text=old)["messages"]
    return todo, note, found[0]


def _early_event(tools, number):
    """The Work event of the early flight, on the event's first day."""
    f = FACTS
    found = tools.calendar_list_events(start=f["first"], end=f["leave"], calendar="Work", query=number)["events"]
    return next(e for e in found if number in e["summary"])


def _event_times(mine):
    f = FACTS
    _, hour, minute, arrive = mine
    return f"{f['date']}T{hour}:{minute}:00", f"{f['date']}T{arrive}:00"


def _cancel_early(tools, trips):
    """Cancels the user's own earlier booking of a flight to the city on the first morning, under policy rule 4;
    returns its flight number."""
    f = FACTS
    trip = next(
        t
        for t in trips
        if t["traveller"] == f["me_name"] and t["status"] == "confirmed" and f["city"] in t["what"]
        and t["day"] == f["first"]
    )  # fmt: skip
    tools.browser_open(url=f"/travel/bookings/{trip['ref']}")
    page = tools.browser_click(text="Cancel booking")
    assert "has been cancelled" in page["text"], "the early booking was not cancelled"
    return trip["what"].split()[1] + " " + trip["what"].split()[2]


def _reference(page: dict[str, Any]) -> tuple[str, float]:
    """The booking reference and the total a booking's page gives."""
    text = page["text"]
    total = re.search(r"Total\W*?([\d,]+(?:\.\d+)?)", text).group(1)
    return re.search(r"booking reference is (\w+)", text).group(1), float(total.replace(",", ""))


def _field(page: dict[str, Any], name: str) -> int:
    return int(re.search(r"\{(\d+): input name=" + name + r"\b", page["text"]).group(1))


def _flight(tools, person):
    """Books the evening flight from the person's office on their day; returns its number, departure (HH, MM),
    booking reference and price."""
    f = FACTS
    url = f"/travel/flights?origin={person['office']}&destination={f['city']}&date={person['day']}"
    results = tools.browser_open(url=url)
    shape = r"\] (\w+ \d+) \| [^|\n]+ \| [^|\n]+ \| [^|\n]+ \| [^|\n]*, (\d\d):(\d\d) \| [^|\n]*, (\d\d:\d\d)"
    rows = re.findall(shape, results["text"])
    number, hour, minute, arrive = next(r for r in rows if int(r[1]) >= 17)  # the evening flight
    page = tools.browser_click(text=number)
    tools.browser_fill(ref=_field(page, "traveller"), value=person["name"])
    return number, hour, minute, arrive, *_reference(tools.browser_click(text="Book flight"))


def _held(trips, person) -> dict[str, str] | None:
    """A confirmed flight to the city already booked for the person on their day (so not booked twice)."""
    f = FACTS
    return next(
        (
            t
            for t in trips
            if t["traveller"] == person["name"] and t["status"] == "confirmed" and t["what"].startswith("Flight")
            and f["city"] in t["what"] and t["day"] == person["day"]
        ),
        None,
    )


def _hotel_choice(tools, limit, check_in):
    """The cheapest hotel in the area within the limit with three stars or more, on the search for the stay."""
    f = FACTS
    results = tools.browser_open(url=f"/travel/hotels?city={f['city']}&check_in={check_in}&check_out={f['leave']}")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| ([^|\n]*) \| \D*([\d,.]+) \|", results["text"])
    fitting = sorted(
        (float(p.replace(",", "")), n) for n, a, stars, p in rows if a == f["area"] and stars.count("★") >= 3
    )
    return next(n for p, n in fitting if p <= limit)


def _room(tools, limit, person):
    """Books a room for the person from the night they arrive; returns the hotel, the reference and the total."""
    hotel = _hotel_choice(tools, limit, person["day"])
    page = tools.browser_click(text=hotel)
    tools.browser_fill(ref=_field(page, "guest"), value=person["name"])
    return hotel, *_reference(tools.browser_click(text="Book hotel"))


def _trips(tools) -> list[dict[str, str]]:
    """My trips: each booking's reference, what it is, the day it starts, its traveller, total and status."""
    text = tools.browser_open(url="/travel/bookings")["text"]
    out = []
    for ref, rest in re.findall(r"\] (\w{6}) \| ([^\n]+)", text):
        cells = [c.strip() for c in rest.split(" | ")]
        shown = re.match(r"\w{3} \d{1,2} \w{3} \d{4}", cells[1])
        start = datetime.strptime(shown.group(0), "%a %d %b %Y").date().isoformat() if shown else ""
        traveller, total, status = cells[-3:]
        out.append(
            {"ref": ref, "what": cells[0], "day": start, "traveller": traveller, "total": total, "status": status}
        )
    return out


def _team(tools) -> list[dict[str, Any]]:
    """The final list: each person's name, home office, the day they fly (the evening) and the night they check in."""
    f = FACTS
    text = tools.files_read(path=f["roster"])["content"]
    days = {shown: iso for iso, shown in f["shown"].items()}
    out = []
    for name, office, arrives, _ in re.findall(r"^\| ([^|\n]+?) \| ([^|\n]+?) \| ([^|\n]+?) \| (\d+) \|$", text, re.M):
        if name == "Name":
            continue
        when = next(iso for shown, iso in days.items() if arrives.startswith(shown))
        out.append({"name": name, "office": office, "day": when})
    return out


def _book_all(tools, limit, hotels_first=False):
    """Every flight and room the final list needs that My trips does not hold yet. Returns the lines of the report
    (person, what, reference, cost), the user's flight (number, hour, minute) and the trips as they were."""
    f = FACTS
    team = _team(tools)
    trips = _trips(tools)
    lines, mine = [], None
    order = ["hotel", "flight"] if hotels_first else ["flight", "hotel"]
    for kind in order:
        for person in team:
            if kind == "hotel":
                hotel, ref, cost = _room(tools, limit, person)
                lines.append((person["name"], hotel, ref, cost))
                continue
            held = _held(trips, person)
            if held is not None:  # booked already: kept, and its cost counts
                lines.append((person["name"], held["what"], held["ref"], float(re.sub(r"[^\d.]", "", held["total"]))))
                continue
            number, hour, minute, arrive, ref, cost = _flight(tools, person)
            lines.append((person["name"], f"Flight {number}", ref, cost))
            if person["name"] == f["me_name"]:
                mine = (number, hour, minute, arrive)
    return lines, mine, trips


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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
    assert f["roster"] in wanted and "My trips" in wanted, "the request does not point to the list and My trips"
    notes = tools.notes_search(query="travel policy")["notes"]
    if read_all:
        for note in notes:
            tools.notes_read(uid=note["uid"])
    current = tools.notes_read(uid=next(n["uid"] for n in notes if n["title"] == f["policy_title"]))
    limit = float(re.search(re.escape(f["city"]) + r": \D*([\d.]+)", current["body"]).group(1))
    assert "at least three stars" in current["body"], "the policy does not say how many stars"
    return request, limit


def solve(tools):
    """Books the flights and rooms the list needs, cancels the early flight and moves its calendar event."""
    f = FACTS
    request, limit = _request(tools)
    lines, mine, trips = _book_all(tools, limit)
    old = _cancel_early(tools, trips)
    start, end = _event_times(mine)
    tools.calendar_update_event(
        uid=_early_event(tools, old)["uid"],
        summary=f"Flight {mine[0]} to {f['city']}",
        start=start,
        end=end,
        description="Skyway, evening flight before the first day",
    )
    todo, note, draft = _echoes(tools, old)
    tools.reminders_update(uid=todo["uid"], title=f"Online check-in {mine[0]}", due=_checkin_due(mine))
    tools.notes_update(uid=note["uid"], body=_out_line(note["body"], old, mine))
    tools.mail_delete(id=draft["id"])  # a draft cannot be edited; it said the user lands in the morning
    total = sum(cost for *_, cost in lines)
    # Each person's references; the flight named only for the user's own, and a booking made before not repeated.
    before = {t["ref"] for t in trips}
    people: dict[str, list[str]] = {}
    for who, what, ref, _ in lines:
        if ref in before:
            people.setdefault(who, []).append("flight booked already")
        elif who == f["me_name"] and what.startswith("Flight"):
            people.setdefault(who, []).append(f"flight {what.removeprefix('Flight ')}, reference {ref}")
        else:
            people.setdefault(who, []).append(f"{'flight' if what.startswith('Flight') else 'room'} {ref}")
    listed = "\n".join(f"- {who}: {'; '.join(parts)}" for who, parts in people.items())
    sent = tools.mail_reply(
        id=request["id"],
        body=f"Hi {f['who']},\n\nthe team's trip is booked on Skyway:\n\n{listed}\n\nTotal cost: €{total:,.2f}. "
        f"I cancelled my earlier booking of the morning flight.\n\nThanks,\n{f['me_name']}",
    )
    for mid, instead in redirected(tools, [sent["message_id"]]).items():  # on leave: forwarded to whom it names
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs the automatic reply asked: our bookings.")
