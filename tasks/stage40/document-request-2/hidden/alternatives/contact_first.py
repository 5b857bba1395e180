"""Alternative solution 'contact_first' for document-request-2: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import datetime


FACTS = {'surname': 'Reddy',
 'document_word': 'payslip',
 'phone': '+65 6 357 8976',
 'issuer_domain': 'waypoint-payroll-services.com.sg',
 'number': '2026-7088',
 'writer': 'Priya Reddy',
 'subject': 'Payslip for April 2026 (corrected version)',
 'body': 'Hi Priya,\n'
         '\n'
         "here's the payslip for April 2026 you asked for (the corrected version, no. 2026-7088; the first "
         'one is void).\n'
         '\n'
         "I've updated your details on my side.\n"
         '\n'
         'Best,\n'
         'Ping',
 'contact': 'Priyanka Reddy',
 'organization': 'Reddy & Ma',
 'reminder': 'Send the payslip for April 2026 to Priyanka',
 'me': 'Ping',
 'who': 'Priya',
 'document': 'payslip for April 2026'}


def _tick(tools):
    f = FACTS
    todo = next(t for t in tools.reminders_list()["reminders"] if t["title"] == f["reminder"])
    tools.reminders_complete(uid=todo["uid"])


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _document(tools):
    """The issuer's latest notice names the version that counts (a correction voids the first one)."""
    f = FACTS
    notices = tools.mail_search(sender=f["issuer_domain"], subject=f["document_word"])["messages"]
    notice = tools.mail_read(id=newest(notices)["id"])
    assert f["number"] in one_line(notice["body"]), "the latest notice is not about the expected version"
    downloads = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if e["path"].endswith(".pdf")]
    return next(p for p in downloads if f["number"] in tools.files_read(path=p)["content"])


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _update(tools, new_address, keep_old=False, spaced=True):
    f = FACTS
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"] if spaced else f["phone"].replace(" ", "")]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address, *(contact["emails"] if keep_old else [])]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)


def _request(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], text=f["document_word"])["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    return request


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


solve = solve_contact_first
