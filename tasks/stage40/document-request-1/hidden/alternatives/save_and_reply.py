"""Alternative solution 'save_and_reply' for document-request-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'surname': 'Chukwu',
 'contact': 'Chinonso Chukwu',
 'phone': '+49 89 8630 9693',
 'organization': 'Chukwu & Strand',
 'writer': 'Nonso Chukwu',
 'who': 'Nonso',
 'me': 'Jürgen',
 'shared': 'Shared',
 'folders': ['Documents', 'Downloads'],
 'docs': [{'plain': 'investment account statement',
           'issuer': 'tessera-investments.de',
           'stem': 'Investment_Statement_',
           'number': 'IA25-11553',
           'reminder': 'Send Chinonso the investment account statement'},
          {'plain': 'savings account annual statement',
           'issuer': 'juniper-bank.de',
           'stem': 'Savings_Annual_Statement_',
           'number': 'SV25-66311',
           'reminder': 'Send Chinonso the savings account annual statement'},
          {'plain': 'workplace pension statement',
           'issuer': 'parallax-workplace-savings.de',
           'stem': 'Workplace_Pension_',
           'number': 'WP25-55468',
           'reminder': 'Send Chinonso the workplace pension statement'},
          {'plain': 'annual mortgage statement',
           'issuer': 'kestrel-building-society.de',
           'stem': 'Mortgage_Statement_',
           'number': 'MS25-62326',
           'reminder': 'Send Chinonso the annual mortgage statement'},
          {'plain': 'annual pension statement',
           'issuer': 'halcyon-pensions.de',
           'stem': 'Pension_Statement_',
           'number': 'PS25-66240',
           'reminder': 'Send Chinonso the annual pension statement'},
          {'plain': 'life insurance policy schedule',
           'issuer': 'lumen-life.de',
           'stem': 'Life_Policy_Schedule_',
           'number': None,
           'reminder': 'Send Chinonso the life insurance policy schedule'}],
 'list': 'Retirement review',
 'meeting': 'Chukwu',
 'street': 'Lindwurmstraße 232',
 'since': '2026-05-04',
 'own_list': 'Reminders',
 'old_street': 'Gollierstraße 107',
 'passed': "Pass Halcyon Pensions' annual pension statement on to Chinonso"}


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


def _update_contact(tools, new_address, keep_old=False, spaced=True):
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
    asked = tools.mail_search(folder="INBOX", sender=f["surname"], subject="documents")["messages"]
    request = tools.mail_read(id=newest(asked)["id"])
    assert f["phone"] in one_line(request["body"]), "the request does not give the new office line"
    assert f["street"] in one_line(request["body"]), "the request does not give the new office"
    return request


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


solve = solve_save_and_reply
