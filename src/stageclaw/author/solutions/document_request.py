"""document-request: send the advisor each document on their list in the version that counts, update their
contact and the meeting, tick off the reminders for what was sent. The first mail to the advisor brings their
firm's automatic reply: client documents go to its documents mailbox now, so every document goes on there."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from stageclaw.author.solutionlib import address, every, newest, one_line, redirected

FACTS: dict[str, Any] = {}


def _request(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], subject="documents")["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    assert f["street"] in one_line(request["body"]), "the request does not give the new office"
    return request


def _wanted(tools, request):
    """The documents on the advisor's list: in the shared folder when the mail points there."""
    f = FACTS
    if f["shared"]:
        listed = [e["path"] for e in tools.files_list(path=f["shared"])["entries"] if e["path"].endswith(".pdf")]
        text = one_line(tools.files_read(path=listed[0])["content"]).lower()
    else:
        text = one_line(request["body"]).lower()
    missing = [d for d in f["docs"] if d["plain"] not in text]
    assert not missing, f"not on the list: {missing}"
    return f["docs"]


def _pdfs(tools):
    f = FACTS
    return [
        e["path"]
        for folder in f["folders"]
        for e in every(tools.files_list, "entries", path=folder)
        if e["path"].endswith(".pdf")
    ]


def _locate(tools, doc, pdfs):
    """Where the version that counts is: ('file', path), ('mail', message), or None when it is not out yet.
    The issuer's latest mail names the version that counts (a correction or a reissue replaces the first)."""
    notices = tools.mail_search(sender=doc["issuer"])["messages"]
    latest = tools.mail_read(id=newest(notices)["id"])
    if doc["number"] is None:
        assert not latest["attachments"], "the late document's mail carries a file"
        return None
    assert doc["number"] in one_line(latest["body"]), "the latest notice is not about the expected version"
    for path in pdfs:
        if doc["stem"] in path and doc["number"] in tools.files_read(path=path)["content"]:
            return "file", path
    assert latest["attachments"], f"the {doc['plain']} is neither in the files nor attached"
    return "mail", latest


def _update_contact(tools, new_address, keep_old=False, spaced=True):
    f = FACTS
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"] if spaced else f["phone"].replace(" ", "")]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address, *(contact["emails"] if keep_old else [])]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)


def _meeting(tools):
    f = FACTS
    since = date.fromisoformat(f["since"])
    found = tools.calendar_list_events(
        start=since.isoformat(), end=(since + timedelta(days=30)).isoformat(), query=f["meeting"]
    )["events"]
    found = [e for e in found if re.search(rf"\b{re.escape(f['meeting'])}\b", e["summary"])]
    assert len(found) == 1, found
    return found[0]


def _tick(tools, sent):
    f = FACTS
    titles = {d["reminder"] for d in sent}
    for todo in every(tools.reminders_list, "reminders", list=f["list"]):
        if todo["title"] in titles:
            tools.reminders_complete(uid=todo["uid"])
    # the user's everyday list: their own note to pass one of the documents on
    for todo in every(tools.reminders_list, "reminders", list=f["own_list"]):
        if todo["title"] == f["passed"] and not todo.get("completed"):
            tools.reminders_complete(uid=todo["uid"])


def _trip(tools):
    """The user's own reminder to leave for the old office on the meeting's day."""
    f = FACTS
    todos = every(tools.reminders_list, "reminders", list=f["own_list"])
    found = [t for t in todos if f["old_street"] in (t.get("title") or "") and not t.get("completed")]
    assert len(found) == 1, found
    return found[0]


def _retitle_trip(tools):
    f = FACTS
    trip = _trip(tools)
    tools.reminders_update(uid=trip["uid"], title=trip["title"].replace(f["old_street"], f["street"]))


def _later_line(late):
    if not late:
        return ""
    names = " and the ".join(d["plain"] for d in late)
    return f" The {names} hasn't been issued yet; I'll send it as soon as it arrives."


def solve(tools):
    """One reply with the files the user has, a forward of each issuer's mail that carries the only copy."""
    f = FACTS
    request = _request(tools)
    new_address = address(request["from"])  # a mail from their old address announced it, when it is new
    docs = _wanted(tools, request)
    pdfs = _pdfs(tools)
    found = {d["plain"]: _locate(tools, d, pdfs) for d in docs}
    late = [d for d in docs if found[d["plain"]] is None]
    files = [where[1] for where in found.values() if where and where[0] == "file"]
    by_mail = [(d, found[d["plain"]][1]) for d in docs if found[d["plain"]] and found[d["plain"]][0] == "mail"]
    to = [f"{f['writer']} <{new_address}>"]
    sent = tools.mail_send(
        to=to,
        subject=request["subject"] if request["subject"].lower().startswith("re:") else f"Re: {request['subject']}",
        body=f"Hi {f['who']},\n\nhere are the documents from your list."
        + _later_line(late)
        + (" The others follow in separate mails, straight from the issuers." if by_mail else "")
        + f"\n\nBest,\n{f['me']}",
        attachments=files,
        in_reply_to=request["message_id"],
    )
    # The first mail's automatic reply names where documents go now: it is forwarded there, and the issuers' mails
    # go there alone.
    desk = next(iter(redirected(tools, [sent["message_id"]]).values()), None)
    if desk:
        [copy] = tools.mail_search(folder="Sent", text=sent["message_id"])["messages"]
        tools.mail_forward(id=copy["id"], to=[desk], body="Hello,\n\nAs your automatic reply asked: documents.")
    for doc, message in by_mail:
        body = f"Hi {f['who']},\n\nand here's the {doc['plain']}.\n\n{f['me']}"
        tools.mail_forward(id=message["id"], to=[desk] if desk else to, body=body)
    _update_contact(tools, new_address)
    meeting = _meeting(tools)
    tools.calendar_update_event(uid=meeting["uid"], location=f["street"])
    _retitle_trip(tools)
    _tick(tools, [d for d in docs if found[d["plain"]] is not None])


def solve_save_and_reply(tools):
    """Updates the contact first; saves the attachments that are only in mail into Downloads and sends
    everything in one reply (mail_reply); keeps the old address second and writes the phone without spaces;
    enters the meeting again at the new office and deletes the old entry."""
    f = FACTS
    request = _request(tools)
    new_address = address(request["from"])
    _update_contact(tools, new_address, keep_old=True, spaced=False)
    docs = _wanted(tools, request)
    pdfs = _pdfs(tools)
    files, late = [], []
    for doc in docs:
        where = _locate(tools, doc, pdfs)
        if where is None:
            late.append(doc)
        elif where[0] == "file":
            files.append(where[1])
        else:
            message = where[1]
            saved = tools.mail_save_attachment(
                id=message["id"], filename=message["attachments"][0]["filename"], path=f"Downloads/{doc['plain']}.pdf"
            )
            files.append(saved["path"])
    body = (
        f"Dear {f['who']},\n\nplease find attached the documents you asked for."
        + _later_line(late)
        + f"\n\nKind regards,\n{f['me']}"
    )
    sent = tools.mail_reply(id=request["id"], body=body, attachments=files)
    for desk in redirected(tools, [sent["message_id"]]).values():  # written again, to the documents mailbox alone
        tools.mail_send(to=[desk], subject=sent["subject"], body=body, attachments=files)
    meeting = _meeting(tools)
    tools.calendar_create_event(
        summary=meeting["summary"],
        start=meeting["start"],
        end=meeting["end"],
        location=f"{f['street']} ({f['organization'] or 'new office'})",
        calendar=meeting.get("calendar") or "Personal",
    )
    tools.calendar_delete_event(uid=meeting["uid"])
    trip = _trip(tools)
    tools.reminders_create(
        title=f"Drive to {f['organization'] or 'the new office'}, {f['street']}",
        list=f["own_list"],
        due=trip["due"],
        notes=trip.get("notes") or "",
    )
    tools.reminders_delete(uid=trip["uid"])
    _tick(tools, [d for d in docs if d not in late])


def solve_one_each(tools):
    """Reads the list first, then sends one new message per document (a forward when the file is only in mail),
    the last one saying the late one follows; ticks each reminder right after its document went out. The first
    one's automatic reply names the documents mailbox: that one is sent there again, and the rest go there
    alone."""
    f = FACTS
    request = _request(tools)
    new_address = address(request["from"])
    docs = _wanted(tools, request)
    pdfs = _pdfs(tools)
    reminders = {t["title"]: t for t in every(tools.reminders_list, "reminders", list=f["list"])}
    found = [(doc, _locate(tools, doc, pdfs)) for doc in docs]
    late = [doc for doc, where in found if where is None]
    ready = [(doc, where) for doc, where in found if where is not None]
    desk = None

    def one(doc, where, to, cc, last):
        note = _later_line(late) if last else ""
        if where[0] == "file":
            return tools.mail_send(
                to=to,
                cc=cc,
                subject=f"{doc['plain'][0].upper()}{doc['plain'][1:]}",
                body=f"Hi {f['who']}, the {doc['plain']} is attached.{note} {f['me']}",
                attachments=[where[1]],
            )
        return tools.mail_forward(id=where[1]["id"], to=to, cc=cc, body=f"Hi {f['who']}, the {doc['plain']}.{note}")

    for n, (doc, where) in enumerate(ready):
        last = n == len(ready) - 1
        sent = one(doc, where, [desk] if desk else [new_address], [], last)
        if desk is None:  # the first mail: does an automatic reply send documents elsewhere?
            desk = next(iter(redirected(tools, [sent["message_id"]]).values()), None)
            if desk:
                one(doc, where, [desk], [], last)
        tools.reminders_complete(uid=reminders[doc["reminder"]]["uid"])
    meeting = _meeting(tools)
    tools.calendar_update_event(uid=meeting["uid"], location=f"{f['street']}, {f['organization'] or 'new office'}")
    trip = _trip(tools)
    tools.reminders_update(uid=trip["uid"], notes=f"New office: {f['street']}", title=f"Leave for {f['street']}")
    own = {t["title"]: t for t in every(tools.reminders_list, "reminders", list=f["own_list"])}
    tools.reminders_complete(uid=own[f["passed"]]["uid"])
    _update_contact(tools, new_address)
