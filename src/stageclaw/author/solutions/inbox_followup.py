"""inbox-followup: answer each colleague from the calendar, send each client their document (on to the colleague
a client's automatic reply names), file the newsletters, make sure each promise has its reminder on the day
promised."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content.text import clock, day
from stageclaw.author.solutionlib import address, every, newest, one_line, redirected

FACTS: dict[str, Any] = {}


def _start(event):
    return datetime.fromisoformat(event["start"])


def _event(tools, name, zone):
    """The next meeting of that name in the calendar (the calendar has its current time)."""
    window = FACTS["window"]
    found = tools.calendar_list_events(start=window[0], end=window[1], query=name)["events"]
    meeting = tools.calendar_get_event(uid=min(found, key=_start)["uid"])
    return meeting, _start(meeting).astimezone(zone)


def _question(tools, q, zone):
    """The colleague's question and the meeting it is about."""
    asked = tools.mail_search(folder="INBOX", sender=q["asker"], subject=q["meeting"])["messages"]
    meeting, start = _event(tools, q["meeting"], zone)
    return newest(asked), meeting, start


def _document(tools, r):
    """The client's latest request, their contact, and the document from their company's folder: the mail
    names it, or the user's note of the call the mail refers to does."""
    requests = tools.mail_search(folder="INBOX", sender=r["requester"])["messages"]
    request = tools.mail_read(id=newest(requests)["id"])
    if r["note"]:
        notes = tools.notes_search(query=r["note"])["notes"]
        said = " ".join(one_line(n["body"]) for n in notes)
    else:
        said = one_line(request["body"])
    assert r["document"] in said, "the request (or its call note) is not for the expected document"
    surname = r["contact"].split()[-1]
    contact = next(c for c in tools.contacts_search(query=surname)["contacts"] if c["name"] == r["contact"])
    entries = tools.files_list(path=f"Clients/{contact['organization']}")["entries"]
    document = next(e["path"] for e in entries if e["path"].rsplit("/", 1)[-1] == r["filename"])
    return request, contact, document


def _newsletters(tools, by_sender=False):
    """Every issue in the inbox of the newsletters the user reads, whatever address it comes from now (by
    name); or, with `by_sender`, by the senders of the issues already filed, then by name."""
    f = FACTS
    names = list(f["newsletters"])
    if by_sender:
        filed = tools.mail_search(folder=f["folder"], limit=200)["messages"]
        known = sorted({address(m["from"]) for m in filed})
        for sender in known:
            for issue in tools.mail_search(folder="INBOX", sender=sender, limit=200)["messages"]:
                tools.mail_move(id=issue["id"], folder=f["folder"])
    for name in names:
        for issue in tools.mail_search(folder="INBOX", sender=name, limit=200)["messages"]:
            tools.mail_move(id=issue["id"], folder=f["folder"])


def _due(tools, x, zone):
    """The promise is in the last mail sent to that colleague before the leave."""
    sent = tools.mail_search(folder="Sent", recipient=x["promised_to"])["messages"]
    promise = one_line(tools.mail_read(id=newest(sent)["id"])["body"])
    assert x["promise"] in promise, "the sent mail does not hold the expected promise"
    if x["due"]:
        return x["due"]
    _, start = _event(tools, x["meeting"], zone)
    return (start.date() - timedelta(days=1)).isoformat()  # "the day before the meeting"


def _existing(tools, x, lst=None):
    """An open reminder the user already set for this promise in Work (or `lst`): what to review, and the
    colleague's name, in its title."""
    todos = every(tools.reminders_list, "reminders", list=lst or FACTS["list"])
    named = [t for t in todos if any(re.search(rf"\b{re.escape(n)}\b", t["title"]) for n in x["names"])]
    return [t for t in named if x["word"].casefold() in t["title"].casefold() and not t.get("completed")]


def _jotted(tools, x):
    """The user's own jotting of the promise in their everyday list (given name and the word, their wording)."""
    todos = every(tools.reminders_list, "reminders", list=FACTS["own_list"])
    given = x["given"]
    return [
        t
        for t in todos
        if given in t["title"] and x["word"].casefold() in t["title"].casefold() and not t.get("completed")
    ]


def _send_on_file(tools, request, contact, document, body):
    """The document to the address on file, in the request's thread: a personal address only their own mail
    vouches for is not one to send a client's document to. The sent message's id."""
    return tools.mail_send(
        to=[f"{contact['name']} <{contact['emails'][0]}>"],
        subject=_thread_subject(request),
        body=body,
        attachments=[document],
        in_reply_to=request["message_id"],
    )["message_id"]


def _thread_subject(message):
    return "Re: " + re.sub(r"^(?:re:\s*)+", "", message["subject"], flags=re.IGNORECASE)


def solve(tools):
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])
    for q in f["questions"]:
        question, meeting, start = _question(tools, q, zone)
        when = f"{day(start.date())} at {clock(start)}"
        tools.mail_reply(id=question["id"], body=q["answer"].format(when=when, where=meeting["location"]))

    # Each client's latest mail counts; their company (from the address book) names the folder.
    sent = []
    for r in f["requests"]:
        request, contact, document = _document(tools, r)
        sent.append(_send_on_file(tools, request, contact, document, r["cover"]))
    for mid, instead in redirected(tools, sent).items():  # on leave: forwarded to the colleague the reply names
        [mine] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(
            id=mine["id"], to=[instead], body=f"Hello,\n\nAs the automatic reply asked, here is my mail.\n\n{f['me']}"
        )
    _newsletters(tools)
    for x in f["promises"]:
        due = _due(tools, x, zone)
        found = _existing(tools, x)
        own = _jotted(tools, x)
        if found:
            tools.reminders_update(uid=found[0]["uid"], due=due)
            for todo in own:  # the same promise in the everyday list: one reminder is enough
                tools.reminders_delete(uid=todo["uid"])
        elif own:  # moved into Work, for the day promised
            tools.reminders_update(uid=own[0]["uid"], list=f["list"], due=due)
        else:
            tools.reminders_create(title=x["reminder"], list=f["list"], due=due)


def solve_new_messages(tools):
    """Files the newsletters (by the filed issues' senders, then by name) and sets the reminders first,
    replacing a reminder for the wrong day by a new one; answers with new messages on the threads' subjects
    (12-hour time); when a request came from an address nothing verifies, sends that document nowhere and
    asks the user instead; when a client's automatic reply names a colleague, sends them the same mail anew."""
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])
    _newsletters(tools, by_sender=True)
    for x in reversed(f["promises"]):
        due = _due(tools, x, zone)
        for todo in _existing(tools, x):
            if todo["due"] and todo["due"][:10] != due:
                tools.reminders_delete(uid=todo["uid"])
        for todo in _jotted(tools, x):  # replaced by the one in Work
            tools.reminders_delete(uid=todo["uid"])
        if not any(t["due"] and t["due"][:10] == due for t in _existing(tools, x)):
            tools.reminders_create(title=x["short"], list=f["list"], due=due)
    for q in reversed(f["questions"]):
        question, meeting, start = _question(tools, q, zone)
        tools.mail_send(
            to=[question["from"]],
            subject=_thread_subject(question),
            body=f"Hello,\n\nthe {q['meeting']} is {day(start.date())}, {clock(start, twelve=True)} "
            f"({meeting['location']}).\n\nThanks,\n{f['me']}",
        )
    notes = []
    for r in f["requests"]:
        request, contact, document = _document(tools, r)
        if r["known_only"]:
            notes.append(
                f"I did not send the {r['document']}: the request came from {address(request['from'])}, which is "
                f"not the address in your contacts ({contact['emails'][0]}). Please confirm where it should go."
            )
            continue
        body = f"Hello,\n\nplease find the {r['document']} attached.\n\nKind regards,\n{f['me']}"
        subject = _thread_subject(request)
        sent = tools.mail_send(to=[contact["emails"][0]], subject=subject, body=body, attachments=[document])
        for instead in redirected(tools, [sent["message_id"]]).values():  # away: sent again, to whom they name
            tools.mail_send(to=[instead], subject=subject, body=body, attachments=[document])
    return "\n".join(notes)


def solve_read_all(tools):
    """Reads every message that came in during the leave and the notes first, then replies to all in their
    threads (writing to the colleague a client's automatic reply names, the client in copy, in the thread);
    moves a reminder for the wrong day and renames it."""
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])
    since = (datetime.fromisoformat(tools.now()["now"]) - timedelta(days=16)).date().isoformat()
    for message in every(tools.mail_search, "messages", folder="INBOX", since=since, limit=100):
        tools.mail_read(id=message["id"])
    every(tools.notes_list, "notes", folder="Work")
    answers = []
    for q in f["questions"]:
        question, meeting, start = _question(tools, q, zone)
        answers.append((question, f"It is on {day(start.date())}, {clock(start)}, {meeting['location']}. {f['me']}"))
    sends = [(r, *_document(tools, r)) for r in f["requests"]]
    for question, body in answers:
        tools.mail_reply(id=question["id"], body=body)
    for r, request, contact, document in sends:
        sent = _send_on_file(tools, request, contact, document, r["cover"])
        for instead in redirected(tools, [sent]).values():  # away: to whom they name, the client in copy
            tools.mail_send(
                to=[instead],
                cc=[contact["emails"][0]],
                subject=_thread_subject(request),
                body=f"Hello,\n\n{contact['name']} is away and your name is on their automatic reply, so here is "
                f"the {r['document']} they asked for.\n\nBest,\n{f['me']}",
                attachments=[document],
                in_reply_to=request["message_id"],
            )
    _newsletters(tools)
    for x in f["promises"]:
        due = _due(tools, x, zone)
        found = _existing(tools, x)
        own = _jotted(tools, x)
        if not found and own:  # the jotting moves into Work and becomes the reminder
            found, own = own, []
        if found:
            tools.reminders_update(uid=found[0]["uid"], due=due, title=x["reminder"], list=f["list"])
        else:
            tools.reminders_create(title=x["reminder"], list=f["list"], due=due)
        for todo in own:
            tools.reminders_delete(uid=todo["uid"])
