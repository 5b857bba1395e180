"""Alternative solution 'one_each' for document-request-2: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'surname': 'Reddy',
 'contact': 'Priyanka Reddy',
 'phone': '+65 6 357 8976',
 'organization': 'Reddy & Ma',
 'writer': 'Priya Reddy',
 'who': 'Priya',
 'me': 'Ping',
 'shared': 'Shared',
 'folders': ['Documents', 'Downloads'],
 'docs': [{'plain': 'savings account statement',
           'issuer': 'fernhill-building-society.com.sg',
           'stem': 'Savings_Statement_',
           'number': 'SA26-27994',
           'reminder': 'Send Priyanka the savings account statement'},
          {'plain': 'employment confirmation letter',
           'issuer': 'halcyon-group-hr.com.sg',
           'stem': 'Employment_Confirmation_',
           'number': None,
           'reminder': 'Send Priyanka the employment confirmation letter'},
          {'plain': 'electricity bill',
           'issuer': 'meridian-energy.com.sg',
           'stem': 'Electricity_Bill_',
           'number': 'EB26-99998',
           'reminder': 'Send Priyanka the electricity bill'},
          {'plain': 'payslip',
           'issuer': 'waypoint-payroll-services.com.sg',
           'stem': 'Payslip_',
           'number': 'PS26-26940',
           'reminder': 'Send Priyanka the payslip'},
          {'plain': 'credit card statement',
           'issuer': 'granite-card-services.com.sg',
           'stem': 'Card_Statement_',
           'number': 'CC26-33502',
           'reminder': 'Send Priyanka the credit card statement'},
          {'plain': 'current account statement',
           'issuer': 'sable-bank.com.sg',
           'stem': 'Current_Account_Statement_',
           'number': 'CA26-98439',
           'reminder': 'Send Priyanka the current account statement'}],
 'list': 'Mortgage',
 'meeting': 'Reddy',
 'street': '4 Tiong Bahru Road',
 'since': '2026-05-19',
 'own_list': 'Reminders',
 'old_street': '86 Telok Ayer Street',
 'passed': "Pass Fernhill Building Society's savings account statement on to Priyanka"}


def _update_contact(tools, new_address, keep_old=False, spaced=True):
    f = FACTS
    contact = next(c for c in tools.contacts_search(query=f["surname"])["contacts"] if c["name"] == f["contact"])
    changes = {"phones": [f["phone"] if spaced else f["phone"].replace(" ", "")]}
    if new_address not in contact["emails"]:
        changes["emails"] = [new_address, *(contact["emails"] if keep_old else [])]
    if f["organization"]:
        changes["organization"] = f["organization"]
    tools.contacts_update(uid=contact["uid"], **changes)


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def _trip(tools):
    """The user's own reminder to leave for the old office on the meeting's day."""
    f = FACTS
    todos = every(tools.reminders_list, "reminders", list=f["own_list"])
    found = [t for t in todos if f["old_street"] in (t.get("title") or "") and not t.get("completed")]
    assert len(found) == 1, found
    return found[0]


def _meeting(tools):
    f = FACTS
    since = date.fromisoformat(f["since"])
    found = tools.calendar_list_events(
        start=since.isoformat(), end=(since + timedelta(days=30)).isoformat(), query=f["meeting"]
    )["events"]
    found = [e for e in found if re.search(rf"\b{re.escape(f['meeting'])}\b", e["summary"])]
    assert len(found) == 1, found
    return found[0]


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead


def _later_line(late):
    if not late:
        return ""
    names = " and the ".join(d["plain"] for d in late)
    return f" The {names} hasn't been issued yet; I'll send it as soon as it arrives."


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


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


def _pdfs(tools):
    f = FACTS
    return [
        e["path"]
        for folder in f["folders"]
        for e in every(tools.files_list, "entries", path=folder)
        if e["path"].endswith(".pdf")
    ]


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


def _request(tools):
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], subject="documents")["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    assert f["street"] in one_line(request["body"]), "the request does not give the new office"
    return request


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


solve = solve_one_each
