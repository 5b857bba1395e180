"""meeting-move: move the meeting to the time the contact asked for, confirm in both zones, remind before."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content.text import clock, day
from stageclaw.author.solutionlib import address, newest, one_line

FACTS: dict[str, Any] = {}


def solve(tools):
    f = FACTS
    found = tools.mail_search(folder="INBOX", sender=f["surname"], subject=f["subject"])["messages"]
    request = tools.mail_read(id=newest(found)["id"])  # a later message overrides an earlier proposal
    assert f["stated"] in one_line(request["body"]), "the request does not give the time the task is about"

    # The address book knows them under their full name and their usual address.
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if f["surname"] in c["name"])
    zone = f["zone"]
    if zone is None:  # "my time": where they work is only in their contact notes
        zone = next(z for city, z in f["zones"].items() if city in contact["notes"])
    theirs = datetime(*f["their_time"], tzinfo=ZoneInfo(zone))
    mine = theirs.astimezone(ZoneInfo(tools.now()["timezone"]))

    window = f["window"]
    events = tools.calendar_list_events(start=window[0], end=window[1], query=f["calendar_query"])["events"]
    known = {address(e) for e in contact["emails"]}
    meeting = next(e for e in events if known & {address(a) for a in e["attendees"]})
    tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())  # keeps its length

    tools.mail_reply(
        id=request["id"],
        body=f["reply"].format(their=f"{day(theirs.date())} {clock(theirs)}", mine=f"{day(mine.date())} {clock(mine)}"),
    )
    if f["lead_minutes"]:
        due = mine - timedelta(minutes=f["lead_minutes"])
        tools.reminders_create(title=f["reminder"], list=f["list"], due=due.isoformat())
