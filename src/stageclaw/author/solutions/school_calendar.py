"""school-calendar: the term letter's dates into the Family calendar, reminders before payments, the co-parent told."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from stageclaw.author.content.text import day
from stageclaw.author.solutionlib import newest, one_line

FACTS: dict[str, Any] = {}


def _read(tools, read_all=False):
    """The letter (in Downloads), the correction and the rules, checked for what the task rests on; the
    co-parent's contact; the events already in the Family calendar over the term."""
    f = FACTS
    found = tools.mail_search(sender=f["school"], subject="key dates")["messages"]
    for message in found if read_all else [newest([m for m in found if "correction" not in m["subject"].lower()])]:
        tools.mail_read(id=message["id"])
    names = [e["path"] for e in tools.files_list(path="Downloads")["entries"]]
    letter = tools.files_read(path=next(n for n in names if n.endswith(f["letter"])))
    text = one_line(letter["content"])
    assert all(one_line(line) in text for line in f["stated"]), "the letter does not give the term's dates"
    if f["corrected"]:
        fixes = [m for m in found if "correction" in m["subject"].lower()]
        correction = tools.mail_read(id=newest(fixes)["id"])
        assert all(new in one_line(correction["body"]) for new in f["corrected"]), "the correction is not there"
    if f["rules"]:
        rules = tools.files_read(path=f["rules"])
        assert f["other"] in rules["content"], "the rules do not name the co-parent"
    people = tools.contacts_search(query=f["other"])["contacts"]
    coparent = next(c for c in people if c["name"].endswith(f["family"]))
    first = f["entries"][0]["first"]
    last = f["entries"][-1]["last"]
    have = tools.calendar_list_events(start=first, end=last, calendar=f["calendar"])["events"]
    return coparent, have


def _already(have, entry):
    """Whether the calendar has the entry already (the co-parent put the first day in)."""
    return any(
        e["start"][:10] == entry["first"] and re.search(entry["pattern"], e["summary"], re.IGNORECASE) for e in have
    )


def _add(tools, entry, title, span=True):
    """One event for the entry: at its time, or all-day (a multi-day closure as one event, or one per day)."""
    f = FACTS
    if "start" in entry:
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=title,
            start=f"{entry['first']}T{entry['start']}",
            end=f"{entry['first']}T{entry['end']}",
        )
        return
    first, last = date.fromisoformat(entry["first"]), date.fromisoformat(entry["last"])
    days = [(first, last)] if span else [(first + timedelta(days=n),) * 2 for n in range((last - first).days + 1)]
    for begins, ends in days:
        tools.calendar_create_event(
            calendar=f["calendar"], summary=title, start=begins.isoformat(), end=(ends + timedelta(days=1)).isoformat()
        )


def _evenings(f, twelve=False):
    lines = []
    for entry in f["entries"]:
        if entry["kind"] == "evening":
            when = day(date.fromisoformat(entry["first"]))
            times = f"{entry['start']} to {entry['end']}"
            if twelve:
                times = " to ".join(_twelve(t) for t in (entry["start"], entry["end"]))
            lines.append(f"- {when}, {times}")
    return "\n".join(lines)


def _trip(f):
    """The trip's payment, which the co-parent makes (the rules' exception): a line for the mail to them."""
    pay = next(p for p in f["payments"] if p["key"] == "trip")
    return (
        f"- {pay['what'][0].upper()}{pay['what'][1:]}: {pay['amount']}, to pay by {day(date.fromisoformat(pay['due']))}"
    )


def _payments(tools, settle):
    """The reminders for the payments the user makes: one already right is left alone, one set wrong
    (its day or its amount) is passed to `settle` with what it should say, a missing one too (None)."""
    f = FACTS
    have = tools.reminders_list(list=f["list"])["reminders"]
    for pay in f["payments"]:
        if pay["key"] == "trip":
            continue
        found = next((r for r in have if re.search(pay["pattern"], r["title"], re.IGNORECASE)), None)
        text = f"{found['title']} {found.get('notes') or ''}" if found else ""
        if found and (found.get("due") or "")[:10] == pay["remind"] and pay["amount"] in text:
            continue
        settle(found, pay)


def _twelve(clock):
    hour, minute = (int(x) for x in clock.split(":"))
    return f"{hour % 12 or 12}{'' if not minute else f'.{minute:02d}'}{'am' if hour < 12 else 'pm'}"


def solve(tools):
    f = FACTS
    coparent, have = _read(tools)
    for entry in f["entries"]:
        if not _already(have, entry):
            _add(tools, entry, f"{f['child']}: {entry['title']}")

    def settle(found, pay):
        title = f"Pay {pay['amount']} for {f['child']}: {pay['what']}"
        if found is None:
            tools.reminders_create(title=title, list=f["list"], due=pay["remind"])
        else:
            tools.reminders_update(uid=found["uid"], title=title, due=pay["remind"])

    _payments(tools, settle)
    tools.mail_send(
        to=[coparent["emails"][0]],
        subject=f"{f['child']}'s parents' evenings",
        body=(
            f"Hi {f['other']},\n\n{f['child']}'s parents' evenings this term:\n\n{_evenings(f)}\n\n"
            f"Can you make both? And the trip is yours to pay:\n\n{_trip(f)}\n\n{f['me']}"
        ),
    )


def solve_one_by_one(tools):
    """Reads every mail about the dates; closures one event per day, titles without the child's name; the
    reminders first, with the amount in the notes (a wrong one deleted and made again); the evenings in
    12-hour times, the trip's payment in a mail of its own."""
    f = FACTS
    coparent, have = _read(tools, read_all=True)

    def settle(found, pay):
        if found is not None:
            tools.reminders_delete(uid=found["uid"])
        tools.reminders_create(
            title=f"SchoolPay: {pay['what']}",
            notes=f"{pay['amount']} for {f['child']}",
            list=f["list"],
            due=pay["remind"],
        )

    _payments(tools, settle)
    for entry in f["entries"]:
        if not _already(have, entry):
            title = entry["title"].replace("Class trip: ", f"{f['child']}'s class trip to ")
            _add(tools, entry, title, span=False)
    tools.mail_send(
        to=[coparent["emails"][0]],
        subject="Parents' evenings",
        body=f"Hello {f['other']},\n\nThe parents' evenings:\n{_evenings(f, twelve=True)}\n\nThanks!\n{f['me']}",
    )
    tools.mail_send(
        to=[coparent["emails"][0]],
        subject="School trip payment",
        body=f"Hi {f['other']},\n\nOver to you for this one:\n{_trip(f)}\n\n{f['me']}",
    )


def solve_spans(tools):
    """Closures as whole spans with the weekend around half term; the last day at its early finish; one
    mail per evening."""
    f = FACTS
    coparent, have = _read(tools)
    for entry in f["entries"]:
        if _already(have, entry):
            continue
        if entry["kind"] == "half_term":
            first, last = date.fromisoformat(entry["first"]), date.fromisoformat(entry["last"])
            tools.calendar_create_event(
                calendar=f["calendar"],
                summary=f"Half term ({f['child']})",
                start=(first - timedelta(days=2)).isoformat(),
                end=(last + timedelta(days=3)).isoformat(),
            )
        elif entry["kind"] == "end":
            tools.calendar_create_event(
                calendar=f["calendar"],
                summary=f"{f['child']}: last day of term, early finish",
                start=f"{entry['first']}T{entry['early']['start']}",
                end=f"{entry['first']}T{entry['early']['end']}",
            )
        else:
            _add(tools, entry, f"{entry['title']} - {f['child']}")

    def settle(found, pay):
        # The day is what the letter asks for; a time of day would be one nobody asked for (and the
        # checks, rightly, accept any), so it is left out.
        title = f"{pay['what']}: pay {pay['amount']}"
        if found is None:
            tools.reminders_create(title=title, list=f["list"], due=pay["remind"])
        else:
            tools.reminders_update(uid=found["uid"], title=title, due=pay["remind"])

    _payments(tools, settle)
    evenings = [e for e in f["entries"] if e["kind"] == "evening"]
    for entry in evenings:
        when = day(date.fromisoformat(entry["first"]))
        tools.mail_send(
            to=[coparent["emails"][0]],
            subject="Parents' evening",
            body=(
                f"Hi {f['other']},\n\nParents' evening: {when}, from {entry['start']} until {entry['end']}."
                f"\n\n{f['me']}"
            ),
        )
    tools.mail_send(to=[coparent["emails"][0]], subject="Trip", body=f"{_trip(f)}\n\n{f['me']}")
