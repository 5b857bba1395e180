"""Alternative solution 'read_all' for document-request-2: another reasonable way to the goal."""

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


def _update(tools, new_address, keep_old=False, spaced=True):
    f = FACTS
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"] if spaced else f["phone"].replace(" ", "")]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address, *(contact["emails"] if keep_old else [])]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)


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


def _request(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], text=f["document_word"])["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    return request


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


solve = solve_read_all
