"""Alternative solution 'one_by_one' for house-move-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'checklist': 'Documents/Move/Checklist.md',
 'list': 'Move',
 'firm': 'Redwood Removals',
 'new': '19 Cockburn Street, Edinburgh EH1 1BS',
 'planned': 'Friday 20 November',
 'planned_iso': '2026-11-20',
 'day': '2026-11-21',
 'day_text': 'Saturday 21 November',
 'van': ['2026-11-21T07:30:00+00:00', '2026-11-21T14:30:00+00:00'],
 'arrive': '07:30',
 'booked_arrive': '08:00',
 'statement': 'Documents/Pension/Annual statement 2025.pdf',
 'me': 'Titilayo',
 'own': 'Titilayo Akinola',
 'meters': ['gas', 'electricity', 'water'],
 'meter_words': {'gas': '\\bgas', 'electricity': '\\belectric', 'water': '\\bwater'},
 'submit': 'submit|send|report|supplier|give|pass on|e-?mail',
 'readings': True,
 'holidays': [],
 'update': True,
 'outfits': [{'key': 'bank',
              'name': 'Northgate Bank',
              'line': 'Bank (Northgate Bank)',
              'card': True,
              'domain': 'northgatebank.co.uk'},
             {'key': 'insurer',
              'name': 'Keystone Cover',
              'line': 'Home insurance (Keystone Cover)',
              'card': True,
              'domain': 'keystonecover.co.uk'},
             {'key': 'gp',
              'name': 'Elm Grove Health Centre',
              'line': 'GP surgery (Elm Grove Health Centre)',
              'card': True,
              'domain': 'elmgrovehealth.co.uk'},
             {'key': 'dentist',
              'name': 'Smile Studio Dental',
              'line': 'Dentist (Smile Studio Dental)',
              'card': True,
              'domain': 'smilestudiodental.co.uk'},
             {'key': 'pension',
              'name': 'Northstar Pension Scheme',
              'line': 'Pension (Northstar Pension Scheme)',
              'card': False,
              'domain': 'northstarpensions.co.uk'},
             {'key': 'broadband',
              'name': 'Ripple Broadband',
              'line': 'Broadband (Ripple Broadband)',
              'card': False,
              'domain': 'ripplebroadband.co.uk'},
             {'key': 'magazine',
              'name': 'Modern Kitchen',
              'line': 'Modern Kitchen subscription',
              'card': False,
              'domain': 'modernkitchenmag.co.uk'},
             {'key': 'hr',
              'name': 'People team',
              'line': 'Work: the people team',
              'card': True,
              'domain': 'northwind-partners.co.uk'}]}
NEW_ADDRESS = re.compile(r"new email address, ([\w.+-]+@[\w.-]+\w)")
FOR_CHANGES = re.compile(r"Changes to your details[^:]*: please email ([\w.+-]+@[\w.-]+\w)")


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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _address_of(tools, outfit):
    """Where an organisation takes changes of details: its card's address, unless a mail from that address
    announced a new one; without a card, the address its own mail comes from."""
    if outfit["key"] == "pension":  # no card, no mail: its statement says where changes go
        statement = next(
            e["path"] for e in tools.files_list(path="Documents/Pension")["entries"] if e["type"] == "file"
        )
        return FOR_CHANGES.search(one_line(tools.files_read(path=statement)["content"])).group(1)
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


def _letter(day_text, greeting="Hello"):
    f = FACTS
    return (
        f"{greeting},\n\nPlease note that I am moving house. From {day_text} my address will be:\n\n{f['new']}\n\n"
        f"Please update your records.\n\nThank you,\n{f['own']}"
    )


def _set(tools, mine, title, due, again):
    """One open reminder due `due`: the user's own (moved; with `again`, deleted and made anew), or a new one."""
    f = FACTS
    if not mine:
        tools.reminders_create(title=title, list=f["list"], due=due.isoformat())
    elif again:
        tools.reminders_delete(uid=mine[0]["uid"])
        tools.reminders_create(title=title, list=f["list"], due=due.isoformat())
    elif (mine[0].get("due") or "")[:10] != due.isoformat():
        tools.reminders_update(uid=mine[0]["uid"], due=due.isoformat())


def next_working_day(day, holidays):
    day += timedelta(days=1)
    while day.weekday() >= 5 or day.isoformat() in holidays:
        day += timedelta(days=1)
    return day


def _records(tools, day, told, meter_title="Read the {meter} meter", mark="[x]", again=False):
    """The calendar, the reminders, and (when asked) the card and the checklist. The removals and one meter
    reminder are there already, from the booking's day: they move (with `again`, deleted and made anew)."""
    f = FACTS
    mine = tools.calendar_list_events(
        start=f["planned_iso"], end=f["planned_iso"], calendar="Personal", query=f["firm"]
    )["events"]
    van = {"start": f["van"][0], "end": f["van"][1]}
    if again or not mine:
        for event in mine:
            tools.calendar_delete_event(uid=event["uid"])
        tools.calendar_create_event(calendar="Personal", summary=f"Removals ({f['firm']})", **van)
    elif (mine[0]["start"][:16], mine[0]["end"][:16]) != (van["start"][:16], van["end"][:16]):
        tools.calendar_update_event(uid=mine[0]["uid"], **van)
    todo = [t for t in tools.reminders_list(list=f["list"])["reminders"] if not t.get("completed")]
    passing_on = [t for t in todo if re.search(f["submit"], t["title"], re.IGNORECASE)]
    for meter in f["meters"]:
        words = f["meter_words"][meter]
        mine = [t for t in todo if t not in passing_on and re.search(words, t["title"], re.IGNORECASE)]
        _set(tools, mine, meter_title.format(meter=meter), day, again)
    if f["readings"]:
        due = next_working_day(day, f["holidays"])
        _set(tools, passing_on, "Send the meter readings to the suppliers", due, again)
    if not f["update"]:
        return
    me = next(c for c in tools.contacts_search(query=f["own"])["contacts"] if c["name"] == f["own"])
    tools.contacts_update(uid=me["uid"], notes=f"Home: {f['new']}")
    text = tools.files_read(path=f["checklist"])["content"]
    for outfit in told:
        text = text.replace(f"- [ ] {outfit['line']}", f"- {mark} {outfit['line']}")
    text = text.replace(f"Moving day: {f['planned']}", f"Moving day: {f['day_text']}")
    tools.files_write(path=f["checklist"], content=text)


def _moving_day(tools, save="Downloads/"):
    """The day and times of the removals, from the firm's mails: the latest one wins, and when it moved the
    day, the times are on the confirmation it attaches."""
    f = FACTS
    found = tools.mail_search(sender=f["firm"], limit=20)["messages"]
    latest = max(found, key=lambda m: datetime.fromisoformat(m["date"]))
    message = tools.mail_read(id=latest["id"])
    assert f["day_text"] in one_line(message["body"]), "the firm's latest mail does not give moving day"
    if len(found) > 1:
        first = min(found, key=lambda m: datetime.fromisoformat(m["date"]))
        assert f["booked_arrive"] in one_line(tools.mail_read(id=first["id"])["body"]), "the booking lacks the times"
        saved = tools.mail_save_attachment(id=message["id"], path=save)["path"]
        assert f["arrive"] in one_line(tools.files_read(path=saved)["content"]), "the new confirmation lacks the times"
    return date.fromisoformat(f["day"])


def solve_one_by_one(tools):
    """The records first (the removals and the meter reminder that were there deleted and made anew, the firm's
    confirmation kept with the move's documents), then one organisation at a time, in the checklist's reverse
    order."""
    f = FACTS
    day = _moving_day(tools, save="Documents/Move/")
    _records(tools, day, f["outfits"], meter_title="Take the {meter} reading", again=True)
    for outfit in reversed(f["outfits"]):
        body = _letter(f"{f['day_text']} (moving day)", greeting=f"Dear {outfit['name']} team")
        mail = tools.mail_send(to=[_address_of(tools, outfit)], subject="Moving house: my new address", body=body)
        for instead in redirected(tools, [mail["message_id"]]).values():  # written again, to that address alone
            tools.mail_send(to=[instead], subject="Moving house: my new address", body=body)


solve = solve_one_by_one
