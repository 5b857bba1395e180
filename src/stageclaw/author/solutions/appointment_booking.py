"""appointment-booking: take the earliest offered slot the calendar has room for; book, confirm, remind."""

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
    busy = busy_times(pages(tools.calendar_list_events, start=window[0], end=window[1]))
    chosen = next(
        s
        for s in slots
        if all(
            end <= datetime.fromisoformat(s["start"]) or start >= datetime.fromisoformat(s["start"]) + length
            for start, end in busy
        )
    )
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
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=(start - timedelta(days=1)).date().isoformat())


def solve_confirm_first(tools):
    """Confirms first, in a new message on the offer's subject with a 12-hour time, then books the event under
    another title with the clinic's name before the address, and a reminder titled its own way (due the day
    before, with no time: the request names none, so any time that day would do and none is graded)."""
    f = FACTS
    offer, _, _, start, length = _slot(tools)
    tools.mail_send(
        to=[offer["from"]],
        subject=f"Re: {f['offer_subject']}",
        body=f"Hello,\n\nI'd like to take the {f['visit']} on {start:%A} at {clock(start, twelve=True)}. Thank "
        f"you!\n\n{f['me']}",
    )
    _book(tools, start, length, summary=f"{f['doctor']} ({f['visit']})", location=f"{f['clinic_word']}, {f['address']}")
    if f["remind"]:
        eve = (start - timedelta(days=1)).date()
        tools.reminders_create(title=f"Tomorrow: {f['visit']} appointment", due=eve.isoformat())


def solve_read_all(tools):
    """Reads every message first and answers the offer itself (not the later mail), naming the slot by its time."""
    f = FACTS
    offer, _, chosen, start, length = _slot(tools, read_all=True)
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=(start - timedelta(days=1)).date().isoformat())
    _book(tools, start, length, description=f"Booked by mail ({f['offer_subject']}).")
    tools.mail_reply(id=offer["id"], body=f"{chosen['shown']} is perfect, see you then. {f['me']}")
