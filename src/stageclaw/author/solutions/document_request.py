"""document-request: send the advisor the valid version of a document, update their contact, tick off the reminder."""

from __future__ import annotations

from typing import Any

from stageclaw.author.solutionlib import address, newest, one_line

FACTS: dict[str, Any] = {}


def solve(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], text=f["document_word"])["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    text = one_line(request["body"])
    assert f["phone"] in text, "the request does not give the new office line"
    new_address = address(request["from"])

    # The issuer's latest notice names the version that counts (a correction voids the first one).
    notices = tools.mail_search(sender=f["issuer_domain"], subject=f["document_word"])["messages"]
    notice = tools.mail_read(id=newest(notices)["id"])
    assert f["number"] in one_line(notice["body"]), "the latest notice is not about the expected version"
    downloads = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if e["path"].endswith(".pdf")]
    document = next(p for p in downloads if f["number"] in tools.files_read(path=p)["content"])

    tools.mail_send(
        to=[f"{f['writer']} <{new_address}>"],
        subject=f["subject"],
        body=f["body"],
        attachments=[document],
        in_reply_to=request["message_id"],
    )

    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"]]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)

    todo = next(t for t in tools.reminders_list()["reminders"] if t["title"] == f["reminder"])
    tools.reminders_complete(uid=todo["uid"])
