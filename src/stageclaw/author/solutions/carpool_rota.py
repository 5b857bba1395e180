"""carpool-rota: a rota that keeps the group's rules, as events with the driver invited, in the note and mailed."""

from __future__ import annotations

from datetime import date
from typing import Any

from stageclaw.author.content.text import WEEKDAYS, short_day
from stageclaw.author.solutionlib import address, newest

FACTS: dict[str, Any] = {}


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


def _lines(rota, line):
    return "\n".join(line(on, h) for on, h in sorted(rota.items()))


def solve(tools):
    f = FACTS
    note, addresses = _read(tools)
    rota = _rota(f["households"])
    _events(tools, rota, addresses, "School run: {who} driving")
    lines = _lines(rota, lambda on, h: f"{short_day(on)}: {h['first']}" + (" (me)" if h["user"] else ""))
    # Only the days and drivers: a date range or a meeting time above them would be values nothing asks for.
    tools.notes_update(uid=note["uid"], body=f"{note['body'].rstrip()}\n\nRota:\n{lines}\n")
    tools.mail_send(
        to=sorted(addresses.values()),
        subject="Carpool rota",
        body=f"Hi all,\n\nHere's the school-run rota:\n\n{lines}\n\nThanks,\n{f['me']}",
    )


def solve_another_rota(tools):
    """Another rota that keeps the rules (the households tried in the other order); the rota mailed to each
    family on its own, as a reply to what they wrote; the note's lines name families."""
    f = FACTS
    note, addresses = _read(tools)
    rota = _rota(list(reversed(f["households"])))
    _events(tools, rota, addresses, "Carpool ({family})")
    lines = _lines(
        rota, lambda on, h: f"- {on.day} {short_day(on).split()[2]} ({WEEKDAYS[on.weekday()]}): {h['family']} family"
    )
    tools.notes_update(uid=note["uid"], body=f"{note['body'].rstrip()}\n\nNew rota:\n{lines}\n")
    replies = tools.mail_search(folder="INBOX", subject="when can you drive")["messages"]
    for to in sorted(addresses.values()):
        theirs = [m for m in replies if address(m["from"]) == to]
        body = f"Hi,\n\nThe rota is done:\n\n{lines}\n\nCheers,\n{f['me']}"
        if theirs:
            tools.mail_reply(id=newest(theirs)["id"], body=body)
        else:
            tools.mail_send(to=[to], subject="School run rota", body=body)


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
