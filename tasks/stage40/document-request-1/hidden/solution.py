"""Reference solution for document-request-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime


FACTS = {'surname': 'Chukwu',
 'document_word': 'statement',
 'phone': '+49 40 3096 9361',
 'issuer_domain': 'northwind-pensions.de',
 'number': '2025-6306',
 'writer': 'Nonso Chukwu',
 'subject': 'Annual pension statement 2025 (corrected version)',
 'body': 'Hi Nonso,\n'
         '\n'
         "here's the annual pension statement 2025 you asked for (the corrected version, no. 2025-6306; the "
         'first one is void).\n'
         '\n'
         "I've updated your details on my side.\n"
         '\n'
         'Best,\n'
         'Jürgen',
 'contact': 'Chinonso Chukwu',
 'organization': 'Chukwu & Ziegler',
 'reminder': 'Send the annual pension statement 2025 to Chinonso'}


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


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
