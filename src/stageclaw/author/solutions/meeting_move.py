"""meeting-move: move the meeting to the time the contact asked for, confirm in both zones, remind before."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content.text import clock, day
from stageclaw.author.solutionlib import address, newest, one_line, pages

FACTS: dict[str, Any] = {}


def _plan(tools, read_all=False):
    """The request, the meeting, the new time in both zones and the contact; with `read_all`, the whole inbox
    is listed page by page (and the partner's messages read) and every event of the window listed, instead
    of searching."""
    f = FACTS
    if read_all:
        inbox = pages(tools.mail_search, folder="INBOX")
        found = [m for m in inbox if f["surname"] in m["from"] and f["subject"].lower() in m["subject"].lower()]
        for message in found:
            tools.mail_read(id=message["id"])
    else:
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
    query = None if read_all else f["calendar_query"]
    events = pages(tools.calendar_list_events, start=window[0], end=window[1], query=query)
    known = {address(e) for e in contact["emails"]}
    meeting = next(
        e for e in events if known & {address(a) for a in e["attendees"]} and f["calendar_query"] in e["summary"]
    )
    return request, contact, meeting, theirs, mine


def _remind(tools, mine, title):
    f = FACTS
    if f["lead_minutes"]:
        due = mine - timedelta(minutes=f["lead_minutes"])
        tools.reminders_create(title=title, list=f["list"], due=due.isoformat())


def solve(tools):
    f = FACTS
    request, contact, meeting, theirs, mine = _plan(tools)
    tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())  # keeps its length
    body = f["reply"].format(their=f"{day(theirs.date())} {clock(theirs)}", mine=f"{day(mine.date())} {clock(mine)}")
    if f["known_only"]:
        # They wrote from an address nothing vouches for: the confirmation goes to the one the world knows.
        tools.mail_send(
            to=[f"{contact['name']} <{contact['emails'][0]}>"],
            subject=f"Re: {request['subject']}",
            body=body,
            in_reply_to=request["message_id"],
        )
    else:
        tools.mail_reply(id=request["id"], body=body)
    _remind(tools, mine, f["reminder"])


def solve_new_message(tools):
    """The reminder first, then the move; a new message (not a reply) to their known address, in 12-hour times."""
    f = FACTS
    request, contact, meeting, theirs, mine = _plan(tools)
    _remind(tools, mine, f"Prep: {f['reminder'][0].lower()}{f['reminder'][1:]}")
    length = datetime.fromisoformat(meeting["end"]) - datetime.fromisoformat(meeting["start"])
    tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat(), end=(mine + length).isoformat())
    body = (
        f"Hello {f['them']},\n\nno problem, the {f['subject'].lower()} is now on {day(theirs.date())} at "
        f"{clock(theirs, twelve=True)} {f['their_zone']} time (that is {clock(mine, twelve=True)} on "
        f"{day(mine.date())} in {f['my_zone']}). The calendar is updated.\n\nKind regards,\n{f['me']}"
    )
    tools.mail_send(to=[contact["emails"][0]], subject=f"Re: {request['subject']}", body=body)


def solve_read_all(tools):
    """Reads every message and lists every event first; replies in its thread, or, when the request came from
    an address nothing verifies, writes to nobody and asks the user in the final answer."""
    f = FACTS
    request, contact, meeting, theirs, mine = _plan(tools, read_all=True)
    tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())
    _remind(tools, mine, f"{f['subject']}: {f['reminder']}")
    if f["known_only"]:
        return (
            f"I moved the {f['subject'].lower()} to {clock(mine)} your time. I have not replied: the request came "
            f"from {address(request['from'])}, which is not the address in your contacts. Could you confirm it is "
            f"really {f['them']} before I write there, or shall I write to {contact['emails'][0]}?"
        )
    tools.mail_reply(
        id=request["id"],
        body=(
            f"Hi {f['them']},\n\nMoved! New time: {day(mine.date())}, {clock(mine)} my time ({f['my_zone']}), "
            f"which is {day(theirs.date())}, {clock(theirs)} your time in {f['their_zone']}.\n\n{f['me']}"
        ),
    )
    return ""
