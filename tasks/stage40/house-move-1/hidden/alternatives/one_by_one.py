"""Alternative solution 'one_by_one' for house-move-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'checklist': 'Documents/Move/Checklist.md',
 'list': 'Move',
 'firm': 'Redwood Removals',
 'new': '128 Leith Walk, Edinburgh EH6 5HW',
 'planned': 'Friday 20 November',
 'planned_iso': '2026-11-20',
 'day': '2026-11-21',
 'day_text': 'Saturday 21 November',
 'van': ['2026-11-21T08:00:00+00:00', '2026-11-21T15:00:00+00:00'],
 'arrive': '08:00',
 'me': 'Titilayo',
 'own': 'Titilayo Akinola',
 'meters': ['gas', 'electricity', 'water'],
 'readings': True,
 'holidays': [],
 'update': True,
 'outfits': [{'key': 'bank',
              'name': 'Crescent Bank',
              'line': 'Bank (Crescent Bank)',
              'card': True,
              'domain': 'crescentbank.co.uk'},
             {'key': 'insurer',
              'name': 'Keystone Cover',
              'line': 'Home insurance (Keystone Cover)',
              'card': True,
              'domain': 'keystonecover.co.uk'},
             {'key': 'gp',
              'name': 'Riverside Medical Practice',
              'line': 'GP surgery (Riverside Medical Practice)',
              'card': True,
              'domain': 'riversidemedical.co.uk'},
             {'key': 'magazine',
              'name': 'Field & Garden',
              'line': 'Field & Garden subscription',
              'card': False,
              'domain': 'fieldandgarden.co.uk'},
             {'key': 'dentist',
              'name': 'Oak Tree Dental',
              'line': 'Dentist (Oak Tree Dental)',
              'card': True,
              'domain': 'oaktreedental.co.uk'},
             {'key': 'hr',
              'name': 'People team',
              'line': 'Work: the people team',
              'card': True,
              'domain': 'northwind-partners.co.uk'}]}
NEW_ADDRESS = re.compile(r"new email address, ([\w.+-]+@[\w.-]+\w)")


def _letter(day_text, greeting="Hello"):
    f = FACTS
    return (
        f"{greeting},\n\nPlease note that I am moving house. From {day_text} my address will be:\n\n{f['new']}\n\n"
        f"Please update your records.\n\nThank you,\n{f['own']}"
    )


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _address_of(tools, outfit):
    """Where an organisation takes changes of details: its card's address, unless a mail from that address
    announced a new one; without a card, the address its own mail comes from."""
    if not outfit["card"]:
        theirs = tools.mail_search(sender=outfit["domain"], limit=10)["messages"]
        return address(theirs[0]["from"])
    card = next(c for c in tools.contacts_search(query=outfit["name"])["contacts"] if c["name"] == outfit["name"])
    known = card["emails"][0]
    for m in tools.mail_search(sender=known, limit=10)["messages"]:
        found = NEW_ADDRESS.search(one_line(tools.mail_read(id=m["id"])["body"]))
        if found:
            return found.group(1)
    return known


def next_working_day(day, holidays):
    day += timedelta(days=1)
    while day.weekday() >= 5 or day.isoformat() in holidays:
        day += timedelta(days=1)
    return day


def _records(tools, day, told, meter_title="Read the {meter} meter", mark="[x]"):
    """The calendar, the reminders, and (when asked) the card and the checklist."""
    f = FACTS
    tools.calendar_create_event(
        calendar="Personal", summary=f"Removals ({f['firm']})", start=f["van"][0], end=f["van"][1]
    )
    for meter in f["meters"]:
        tools.reminders_create(title=meter_title.format(meter=meter), list=f["list"], due=day.isoformat())
    if f["readings"]:
        due = next_working_day(day, f["holidays"])
        tools.reminders_create(title="Send the meter readings to the suppliers", list=f["list"], due=due.isoformat())
    if not f["update"]:
        return
    me = next(c for c in tools.contacts_search(query=f["own"])["contacts"] if c["name"] == f["own"])
    tools.contacts_update(uid=me["uid"], notes=f"Home: {f['new']}")
    text = tools.files_read(path=f["checklist"])["content"]
    for outfit in told:
        text = text.replace(f"- [ ] {outfit['line']}", f"- {mark} {outfit['line']}")
    text = text.replace(f"Moving day: {f['planned']}", f"Moving day: {f['day_text']}")
    tools.files_write(path=f["checklist"], content=text)


def _moving_day(tools):
    """The day and times of the removals, from the firm's mails: the latest one wins."""
    f = FACTS
    found = tools.mail_search(sender=f["firm"], limit=20)["messages"]
    latest = max(found, key=lambda m: datetime.fromisoformat(m["date"]))
    text = one_line(tools.mail_read(id=latest["id"])["body"])
    assert f["day_text"] in text, "the firm's latest mail does not give moving day"
    if len(found) > 1:
        first = min(found, key=lambda m: datetime.fromisoformat(m["date"]))
        assert f["arrive"] in one_line(tools.mail_read(id=first["id"])["body"]), "the confirmation lacks the times"
    return date.fromisoformat(f["day"])


def solve_one_by_one(tools):
    """The records first, then one organisation at a time, in the checklist's reverse order."""
    f = FACTS
    day = _moving_day(tools)
    _records(tools, day, f["outfits"], meter_title="Take the {meter} reading")
    for outfit in reversed(f["outfits"]):
        tools.mail_send(
            to=[_address_of(tools, outfit)],
            subject="Moving house: my new address",
            body=_letter(f"{f['day_text']} (moving day)", greeting=f"Dear {outfit['name']} team"),
        )


solve = solve_one_by_one
