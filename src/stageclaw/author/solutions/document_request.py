"""document-request: send the advisor the valid version of a document, update their contact, tick off the reminder."""

from __future__ import annotations

from typing import Any

from stageclaw.author.solutionlib import address, newest, one_line

FACTS: dict[str, Any] = {}


def _request(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], text=f["document_word"])["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    return request


def _document(tools):
    """The issuer's latest notice names the version that counts (a correction voids the first one)."""
    f = FACTS
    notices = tools.mail_search(sender=f["issuer_domain"], subject=f["document_word"])["messages"]
    notice = tools.mail_read(id=newest(notices)["id"])
    assert f["number"] in one_line(notice["body"]), "the latest notice is not about the expected version"
    downloads = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if e["path"].endswith(".pdf")]
    return next(p for p in downloads if f["number"] in tools.files_read(path=p)["content"])


def _update(tools, new_address, keep_old=False, spaced=True):
    f = FACTS
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"] if spaced else f["phone"].replace(" ", "")]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address, *(contact["emails"] if keep_old else [])]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)


def _tick(tools):
    f = FACTS
    todo = next(t for t in tools.reminders_list()["reminders"] if t["title"] == f["reminder"])
    tools.reminders_complete(uid=todo["uid"])


def solve(tools):
    f = FACTS
    request = _request(tools)
    new_address = address(request["from"])  # a mail from their old address announced it, when it is new
    document = _document(tools)
    tools.mail_send(
        to=[f"{f['writer']} <{new_address}>"],
        subject=f["subject"],
        body=f["body"],
        attachments=[document],
        in_reply_to=request["message_id"],
    )
    _update(tools, new_address)
    _tick(tools)


def solve_read_all(tools):
    """Reads every message first; sends a new message on the request's subject (not a reply), keeps the old
    address as a second one and writes the phone number without spaces."""
    f = FACTS
    for message in tools.mail_search(folder="INBOX", limit=200)["messages"]:
        tools.mail_read(id=message["id"])
    request = _request(tools)
    new_address = address(request["from"])
    tools.mail_send(
        to=[new_address],
        subject=request["subject"] if request["subject"].lower().startswith("re:") else f"Re: {request['subject']}",
        body=f"Dear {f['who']},\n\nplease find the {f['document']} attached.\n\nKind regards,\n{f['me']}",
        attachments=[_document(tools)],
    )
    _update(tools, new_address, keep_old=True, spaced=False)
    _tick(tools)


def solve_contact_first(tools):
    """Updates the contact first, then sends the document to the address now saved, then ticks the reminder."""
    f = FACTS
    request = _request(tools)
    _update(tools, address(request["from"]))
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    tools.mail_send(
        to=[contact["emails"][0]],
        subject=f"{f['document'][0].upper()}{f['document'][1:]}",
        body=f"Hi {f['who']}, the {f['document']} is attached. Thanks, {f['me']}",
        attachments=[_document(tools)],
        in_reply_to=request["message_id"],
    )
    _tick(tools)
