"""appointment-booking: take the earliest offered slot the calendar has room for; book, confirm, remind."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from stageclaw.author.solutionlib import newest, one_line

FACTS: dict[str, Any] = {}


def solve(tools):
    f = FACTS
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
    busy = [
        (datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"]))
        for e in tools.calendar_list_events(start=window[0], end=window[1])["events"]
        if not e["all_day"] and e["status"] != "CANCELLED"
    ]
    chosen = next(
        s
        for s in slots
        if all(
            end <= datetime.fromisoformat(s["start"]) or start >= datetime.fromisoformat(s["start"]) + length
            for start, end in busy
        )
    )
    start = datetime.fromisoformat(chosen["start"])

    address = f["address"]
    if f["address_in_contact"]:
        contact = tools.contacts_search(query=f["clinic_word"])["contacts"][0]
        assert address in contact["notes"], "the clinic's address is not in its contact"
    tools.calendar_create_event(
        calendar=f["calendar"],
        summary=f["summary"],
        start=start.isoformat(),
        end=(start + length).isoformat(),
        location=address,
    )
    tools.mail_reply(id=latest["id"], body=f["reply"].format(slot=chosen["shown"]))
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=(start - timedelta(days=1)).date().isoformat())
