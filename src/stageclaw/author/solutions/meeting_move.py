"""meeting-move: move each meeting to the time its partner asked for, confirm in both zones (unless the user
already did; to the assistant a partner's automatic reply names too), and have one prep reminder before each
moved meeting."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content.text import clock, day
from stageclaw.author.solutionlib import address, every, newest, one_line, pages, redirected

FACTS: dict[str, Any] = {}


def _plan(tools, p, read_all=False):
    """One partner's request, their meeting, the new time in both zones, their contact and whether the user
    already answered them; with `read_all`, the partner's messages and the assistant's are each read, and every
    event of the window listed instead of searching."""
    f = FACTS
    found = tools.mail_search(folder="INBOX", sender=p["surname"], subject=p["subject"])["messages"]
    if read_all:
        for message in found:
            tools.mail_read(id=message["id"])
    request = tools.mail_read(id=newest(found)["id"])  # a later message overrides an earlier proposal
    if p["assistant"]:  # they left the new slot to their assistant, whose mail gives it
        theirs = tools.mail_search(folder="INBOX", sender=p["assistant"], subject=p["subject"])["messages"]
        request = tools.mail_read(id=newest(theirs)["id"])
    assert p["stated"] in one_line(request["body"]), "the request does not give the time the task is about"
    answered = tools.mail_search(folder="Sent", subject=p["subject"], recipient=p["surname"])["messages"]

    contact = next(
        c
        for c in tools.contacts_search(query=p["surname"])["contacts"]
        if p["surname"] in c["name"] and c.get("organization") == p["client"]
    )
    zone = p["zone"]
    if zone is None:  # "my time": where they work is only in their contact notes
        zone = next(z for city, z in p["zones"].items() if city in contact["notes"])
    theirs = datetime(*p["their_time"], tzinfo=ZoneInfo(zone))
    mine = theirs.astimezone(ZoneInfo(tools.now()["timezone"]))

    window = f["window"]
    query = None if read_all else p["calendar_query"]
    events = pages(tools.calendar_list_events, start=window[0], end=window[1], query=query)
    known = {address(e) for e in contact["emails"]}
    meeting = next(
        e for e in events if known & {address(a) for a in e["attendees"]} and p["calendar_query"] in e["summary"]
    )
    return request, contact, meeting, theirs, mine, bool(answered)


def _remind(tools, p, mine, title, existing):
    """One open prep reminder before the moved meeting: the one already there is moved, else a new one."""
    f = FACTS
    if not f["lead_minutes"]:
        return
    due = mine - timedelta(minutes=f["lead_minutes"])
    pattern = "|".join(re.escape(n) for n in p["names"])
    old = next((r for r in existing if re.search(pattern, r["title"], re.IGNORECASE)), None)
    if old is not None:
        tools.reminders_update(uid=old["uid"], due=due.isoformat())
    else:
        tools.reminders_create(title=title, list=f["list"], due=due.isoformat())


def _open_reminders(tools):
    if not FACTS["lead_minutes"]:
        return []
    return every(tools.reminders_list, "reminders", list=FACTS["list"])


def solve(tools):
    f = FACTS
    existing = _open_reminders(tools)
    sent = []
    for p in f["partners"]:
        request, contact, meeting, theirs, mine, answered = _plan(tools, p)
        tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())  # keeps its length
        _remind(tools, p, mine, p["reminder"], existing)
        if answered:
            continue  # the user already confirmed this one
        body = p["reply"].format(
            their=f"{day(theirs.date())} {clock(theirs)}", mine=f"{day(mine.date())} {clock(mine)}"
        )
        if p["known_only"]:
            # They wrote from an address nothing vouches for: the confirmation goes to the one the world knows.
            reply = tools.mail_send(
                to=[f"{contact['name']} <{contact['emails'][0]}>"],
                subject=f"Re: {request['subject']}",
                body=body,
                in_reply_to=request["message_id"],
            )
        elif p["assistant"]:
            reply = tools.mail_send(to=[contact["emails"][0]], subject=f"Re: {request['subject']}", body=body)
        else:
            reply = tools.mail_reply(id=request["id"], body=body)
        sent.append(reply["message_id"])
    for mid, instead in redirected(tools, sent).items():  # travelling: forwarded to whoever keeps their calendar
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        note = "Hello,\n\nAs the automatic reply asked, my confirmation of the new time is below.\n\nThank you!"
        tools.mail_forward(id=copy["id"], to=[instead], body=f"{note}\n{f['me']}")


def solve_new_message(tools):
    """Partners in the reverse order; each reminder before its move; a new message (not a reply) to each known
    address, in 12-hour times; after an automatic reply, written again to whoever it names, the partner in copy."""
    f = FACTS
    existing = _open_reminders(tools)
    for p in reversed(f["partners"]):
        request, contact, meeting, theirs, mine, answered = _plan(tools, p)
        _remind(tools, p, mine, f"Prep: {p['reminder'][0].lower()}{p['reminder'][1:]}", existing)
        length = datetime.fromisoformat(meeting["end"]) - datetime.fromisoformat(meeting["start"])
        tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat(), end=(mine + length).isoformat())
        if answered:
            continue
        when = (
            f"the {p['subject'].lower()} is now on {day(theirs.date())} at {clock(theirs, twelve=True)} "
            f"{p['their_zone']} time (that is {clock(mine, twelve=True)} on {day(mine.date())} in {f['my_zone']})"
        )
        body = f"Hello {p['them']},\n\nno problem, {when}. The calendar is updated.\n\nKind regards,\n{f['me']}"
        sent = tools.mail_send(to=[contact["emails"][0]], subject=f"Re: {request['subject']}", body=body)
        for instead in redirected(tools, [sent["message_id"]]).values():
            text = f"Hello,\n\n{p['them']}'s automatic reply says you keep their calendar: {when}."
            tools.mail_send(
                to=[instead],
                cc=[contact["emails"][0]],
                subject=f"New time: {p['subject']}",
                body=f"{text}\n\nKind regards,\n{f['me']}",
            )


def solve_read_all(tools):
    """Reads every message of each partner and lists every event of the window; replaces an existing prep
    reminder by a new one; when a request came from an address nothing verifies, writes to nobody there and asks
    the user in the final answer; after an automatic reply, writes again to whoever it names, to them alone."""
    f = FACTS
    asked = []
    existing = _open_reminders(tools)
    for p in f["partners"]:
        request, contact, meeting, theirs, mine, answered = _plan(tools, p, read_all=True)
        tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())
        if f["lead_minutes"]:
            pattern = "|".join(re.escape(n) for n in p["names"])
            for old in [r for r in existing if re.search(pattern, r["title"], re.IGNORECASE)]:
                tools.reminders_delete(uid=old["uid"])
            due = mine - timedelta(minutes=f["lead_minutes"])
            tools.reminders_create(title=f"{p['subject']}: {p['reminder']}", list=f["list"], due=due.isoformat())
        if answered:
            continue
        if p["known_only"]:
            asked.append(
                f"I moved the {p['subject'].lower()} to {clock(mine)} your time but have not replied: the request "
                f"came from {address(request['from'])}, which is not the address in your contacts. Could you "
                f"confirm it is really {p['them']} before I write there, or shall I write to {contact['emails'][0]}?"
            )
            continue
        when = (
            f"{day(mine.date())}, {clock(mine)} my time ({f['my_zone']}), which is {day(theirs.date())}, "
            f"{clock(theirs)} your time in {p['their_zone']}"
        )
        sent = tools.mail_reply(
            id=request["id"]
            if not p["assistant"]
            else newest(tools.mail_search(folder="INBOX", sender=p["surname"], subject=p["subject"])["messages"])["id"],
            body=f"Hi {p['them']},\n\nMoved! New time: {when}.\n\n{f['me']}",
        )
        for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to them alone
            tools.mail_send(
                to=[instead],
                subject=sent["subject"],
                body=f"Hello,\n\n{p['them']} is away, so for their calendar: the meeting moved to {when}.\n\n{f['me']}",
            )
    return "\n".join(asked)
