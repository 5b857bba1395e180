"""Alternative solution 'table' for carpool-rota-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime


FACTS = {'me': 'Vikram',
 'note': 'School run carpool',
 'calendar': 'Family',
 'first': '2026-11-23',
 'last': '2026-12-11',
 'closures': ['2026-11-30'],
 'school': ['2026-11-23',
            '2026-11-24',
            '2026-11-25',
            '2026-11-26',
            '2026-11-27',
            '2026-12-01',
            '2026-12-02',
            '2026-12-03',
            '2026-12-04',
            '2026-12-07',
            '2026-12-08',
            '2026-12-09',
            '2026-12-10',
            '2026-12-11'],
 'households': [{'name': 'Vikram Pillai',
                 'first': 'Vikram',
                 'family': 'Pillai',
                 'weekdays': [0, 1, 3, 4],
                 'not_on': [],
                 'user': True},
                {'name': 'Mohammed Darwish',
                 'first': 'Mohammed',
                 'family': 'Darwish',
                 'weekdays': [1, 3],
                 'not_on': ['2026-12-01'],
                 'user': False},
                {'name': 'Ayodeji Okonjo',
                 'first': 'Ayodeji',
                 'family': 'Okonjo',
                 'weekdays': [3, 4],
                 'not_on': ['2026-12-04'],
                 'user': False},
                {'name': 'Titilayo Ogunleye',
                 'first': 'Titilayo',
                 'family': 'Ogunleye',
                 'weekdays': [2, 3],
                 'not_on': [],
                 'user': False},
                {'name': 'Oluwaseun Adeyemi',
                 'first': 'Oluwaseun',
                 'family': 'Adeyemi',
                 'weekdays': [0, 4],
                 'not_on': [],
                 'user': False}],
 'spot': 'the church car park on Station Road',
 'start': '08:10',
 'end': '08:40'}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _lines(rota, line):
    return "\n".join(line(on, h) for on, h in sorted(rota.items()))


def _events(tools, rota, addresses, title):
    f = FACTS
    for on, h in sorted(rota.items()):
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=title.format(who=h["first"], family=h["family"]),
            start=f"{on.isoformat()}T{f['start']}",
            end=f"{on.isoformat()}T{f['end']}",
            attendees=[] if h["user"] else [addresses[h["name"]]],
        )


def _rota(order):
    """Day -> household: the first rota, trying the households in `order`, that keeps the rules."""
    f = FACTS
    days = [date.fromisoformat(d) for d in f["school"]]
    most = -(-len(days) // len(order))
    counts = {h["name"]: 0 for h in order}
    weekly = {}
    out = {}

    def can(h, on):
        return on.weekday() in h["weekdays"] and on.isoformat() not in h["not_on"]

    def place(n):
        if n == len(days):
            return max(counts.values()) - min(counts.values()) <= 1
        on = days[n]
        week = on.isocalendar()[1]
        for h in sorted(order, key=lambda h: counts[h["name"]]):
            if can(h, on) and counts[h["name"]] < most and weekly.get((h["name"], week), 0) < 2:
                counts[h["name"]] += 1
                weekly[(h["name"], week)] = weekly.get((h["name"], week), 0) + 1
                out[on] = h
                if place(n + 1):
                    return True
                counts[h["name"]] -= 1
                weekly[(h["name"], week)] -= 1
                del out[on]
        return False

    assert place(0), "no rota keeps the rules"
    return out


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _read(tools, read_all=False):
    """The group's note, each family's latest reply (checked for their days), their drivers' addresses,
    and the closures in the Family calendar."""
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    replies = tools.mail_search(folder="INBOX", subject="when can you drive")["messages"]
    addresses = {}
    for h in f["households"]:
        if h["user"]:
            continue
        people = tools.contacts_search(query=h["family"])["contacts"]
        driver = next(c for c in people if c["name"] == h["name"])
        addresses[h["name"]] = driver["emails"][0]
        from_them = [m for m in replies if any(address(m["from"]) in c["emails"] for c in people)]
        for message in from_them if read_all else [newest(from_them)]:
            said = tools.mail_read(id=message["id"])["body"]
        assert all(f"{WEEKDAYS[d]}s" in said for d in h["weekdays"]), f"{h['name']}'s latest reply gives other days"
    events = tools.calendar_list_events(start=f["first"], end=f["last"], calendar=f["calendar"])["events"]
    closed = sorted(e["start"] for e in events if e["all_day"] and "closed" in e["summary"].lower())
    assert closed == f["closures"], "the closures in the calendar are not the ones the task rests on"
    return note, addresses


def solve_table(tools):
    """Reads every reply; the rota as a table in the note and in one mail, with ISO dates."""
    f = FACTS
    note, addresses = _read(tools, read_all=True)
    rota = _rota(f["households"])
    _events(tools, rota, addresses, "Carpool - {who}")
    table = "| Day | Driver |\n|---|---|\n" + _lines(rota, lambda on, h: f"| {on.isoformat()} | {h['name']} |")
    tools.notes_update(uid=note["uid"], body=f"{note['body'].rstrip()}\n\n{table}\n")
    tools.mail_send(
        to=sorted(addresses.values()), subject="School run rota", body=f"Hello all,\n\n{table}\n\n{f['me']}"
    )


solve = solve_table
