"""appointment-booking: take the earliest offered slot the calendar and the user's rules allow; book, confirm,
remind the working day before, tick off the booking to-do."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from stageclaw.author.content.text import clock
from stageclaw.author.solutionlib import busy_times, newest, one_line, pages

FACTS: dict[str, Any] = {}


def _slot(tools, read_all=False):
    """The offer, the latest mail of the thread and the earliest slot still offered that the calendar has room
    for; with `read_all`, every inbox message is read first."""
    f = FACTS
    if read_all:
        for message in pages(tools.mail_search, folder="INBOX", limit=50):
            tools.mail_read(id=message["id"])
    found = tools.mail_search(folder="INBOX", sender=f["clinic_domain"])["messages"]
    thread = [m for m in found if m["subject"] == f["offer_subject"]]
    offer = min(thread, key=lambda m: datetime.fromisoformat(m["date"]))  # the first answer lists the slots
    text = one_line(tools.mail_read(id=offer["id"])["body"])
    slots = [s for s in f["slots"] if s["shown"] in text]
    assert len(slots) == len(f["slots"]), "the offer does not list the expected slots"
    latest = newest(found)
    if latest["id"] != offer["id"]:  # a later mail may take a slot back
        later = one_line(tools.mail_read(id=latest["id"])["body"])
        slots = [s for s in slots if s["shown"] not in later]

    length = timedelta(minutes=f["minutes"])
    window = f["window"]
    rules = tools.notes_search(query=f["rules"])["notes"][0]
    text = one_line(tools.notes_read(uid=rules["uid"])["body"])
    assert f"{f['gap']} minutes" in text and f["partner"] in text, "the rules note does not say what it should"
    events = pages(tools.calendar_list_events, start=window[0], end=window[1])
    away = {  # the days the partner is away (all-day events in the Family calendar; the end is exclusive)
        datetime.fromisoformat(e["start"]).date() + timedelta(days=n)
        for e in events
        if e["calendar"] == "Family" and f["partner"] in e["summary"]
        for n in range((datetime.fromisoformat(e["end"]) - datetime.fromisoformat(e["start"])).days)
    }
    work = [e for e in events if e["calendar"] == "Work" and "(video)" not in e["summary"]]
    gap = timedelta(minutes=f["gap"])

    def fits(slot):
        start = datetime.fromisoformat(slot["start"])
        end = start + length
        if any(b < end and start < e for b, e in busy_times(events)):
            return False
        if any(b < end + gap and start - gap < e for b, e in busy_times(work)):
            return False
        first, last = f["school_run"]
        return start.date() not in away or (f"{start:%H:%M}" >= first and f"{end:%H:%M}" <= last)

    chosen = next(s for s in slots if fits(s))
    if f["address_in_contact"]:
        contact = tools.contacts_search(query=f["clinic_word"])["contacts"][0]
        assert f["address"] in contact["notes"], "the clinic's address is not in its contact"
    return offer, latest, chosen, datetime.fromisoformat(chosen["start"]), length


def _book(tools, start, length, **extra):
    f = FACTS
    event = {"calendar": f["calendar"], "summary": f["summary"], "location": f["address"], **extra}
    tools.calendar_create_event(start=start.isoformat(), end=(start + length).isoformat(), **event)


def solve(tools):
    f = FACTS
    _, latest, chosen, start, length = _slot(tools)
    _book(tools, start, length)
    tools.mail_reply(id=latest["id"], body=f["reply"].format(slot=chosen["shown"]))
    _tell_partner(tools, f"{f['visit'].capitalize()} booked", f"Booked: {chosen['shown']}.")
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=f["due"])
    _tick(tools)


def _tell_partner(tools, subject, body):
    """Mails the partner the day and time (the user's rule 7), to the address their contact gives; the subject
    gives neither, so the body's are the ones graded."""
    f = FACTS
    contact = tools.contacts_search(query=f["partner"])["contacts"][0]
    assert f["partner_email"] in contact["emails"], "the partner's contact has another address"
    tools.mail_send(to=[f["partner_email"]], subject=subject, body=f"{body}\n\n{f['me']}")


def _tick(tools):
    """Ticks off the user's own "Book ..." to-do (their rule 6)."""
    todo = next(r for r in pages(tools.reminders_list, list="Reminders") if r["title"] == FACTS["todo"])
    tools.reminders_complete(uid=todo["uid"])


def solve_confirm_first(tools):
    """Confirms first, in a new message on the offer's subject with a 12-hour time, then books the event under
    another title with the clinic's name before the address, ticks off the to-do before it sets the reminder, titled
    its own way (due the working day before, with no time: the rules name none, so none is graded)."""
    f = FACTS
    offer, _, _, start, length = _slot(tools)
    tools.mail_send(
        to=[offer["from"]],
        subject=f"Re: {f['offer_subject']}",
        body=f"Hello,\n\nI'd like to take the {f['visit']} on {start:%A} at {clock(start, twelve=True)}. Thank "
        f"you!\n\n{f['me']}",
    )
    _book(tools, start, length, summary=f"{f['doctor']} ({f['visit']})", location=f"{f['clinic_word']}, {f['address']}")
    _tick(tools)
    if f["remind"]:
        tools.reminders_create(title=f"{f['visit'].capitalize()} appointment ({f['doctor']})", due=f["due"])
    _tell_partner(tools, "Heads-up", f"I've got the {f['visit']} on {start:%A} at {clock(start, twelve=True)}.")


def solve_read_all(tools):
    """Reads every message first and answers the offer itself (not the later mail), naming the slot by its time;
    the reminder, set before the booking, has a note."""
    f = FACTS
    offer, _, chosen, start, length = _slot(tools, read_all=True)
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=f["due"], notes=f"Booked by reply to {f['offer_subject']!r}.")
    _tick(tools)
    _book(tools, start, length, description=f"Booked by mail ({f['offer_subject']}).")
    tools.mail_reply(id=offer["id"], body=f"{chosen['shown']} is perfect, see you then. {f['me']}")
    _tell_partner(tools, "Appointment", f"{f['visit'].capitalize()} on {start:%A} {start:%d %B}, {clock(start)}.")
