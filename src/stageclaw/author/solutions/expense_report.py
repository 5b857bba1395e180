"""expense-report: the trip's claimable receipts as a CSV in the workspace, sent to finance with the total (and on to
the address the claims mailbox's automatic reply names)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from stageclaw.author.content.files import csv_text
from stageclaw.author.solutionlib import address, every, one_line, redirected

FACTS: dict[str, Any] = {}


def _notes(tools):
    """What the user's notes and finance's mail say: the company card's last digits, the refs already claimed and
    where claims go now."""
    f = FACTS
    readme = one_line(tools.files_read(path=f["readme"])["content"])
    company = re.search(r"card ending (\d{4})", readme).group(1)
    finance = next(c for c in tools.contacts_search(query=f["finance"])["contacts"] if f["finance"] in c["name"])
    address = finance["emails"][0]
    claimed, box = set(), address
    for hit in tools.mail_search(folder="Sent", recipient=address)["messages"]:
        text = tools.mail_read(id=hit["id"])["body"]
        claimed |= {r["ref"] for r in f["receipts"] if r["ref"] in text}
    for hit in tools.mail_search(sender=address)["messages"]:
        moved = re.search(r"send expense claims to (\S+@[\w.-]*\w)", one_line(tools.mail_read(id=hit["id"])["body"]))
        if moved:
            box = moved.group(1)
    return company, claimed, box


def _receipts(tools, company, claimed, inbox=None):
    """The trip's first and last day (from the calendar) and its receipts: once each, in the trip, not void, not
    on the company card, not claimed already.

    With `inbox` (a listing of every message), the receipts are picked from it instead of searched for."""
    f = FACTS
    # The trip's days are in the calendar (an all-day event; its end is exclusive).
    found = tools.calendar_list_events(start=f["window"][0], end=f["window"][1], query=f["trip"])["events"]
    trip = tools.calendar_get_event(uid=found[0]["uid"])
    first = date.fromisoformat(trip["start"])
    last = date.fromisoformat(trip["end"]) - timedelta(days=1)

    receipts, void = {}, set()
    for receipt in f["receipts"]:
        if inbox is None:
            hits = tools.mail_search(sender=receipt["sender"], subject=receipt["subject"])["messages"]
        else:
            hits = [m for m in inbox if receipt["sender"] in m["from"] and m["subject"].startswith(receipt["subject"])]
        for hit in hits:
            text = one_line(tools.mail_read(id=hit["id"])["body"])
            if receipt["shown"] not in text or receipt["when"] not in text:
                continue
            void.update(re.findall(r"replaces invoice no\. (\S+?)[.;,]", text))
            if company and f"•••• {company}" in text:
                continue  # billed to the company directly
            day = date.fromisoformat(receipt["date"])
            if first <= day <= last:
                receipts[receipt["ref"]] = receipt  # a receipt sent twice is one expense
    rows = [r for ref, r in receipts.items() if ref not in void and ref not in claimed]
    return first, last, rows


def _own_start(tools, first, last):
    """A CSV of the user's in Expenses (not the report's path) with a row on a day of this trip: their own start."""
    for entry in tools.files_list(path="Expenses")["entries"]:
        path = entry["path"]
        if path == FACTS["path"] or not path.endswith(".csv"):
            continue
        days = re.findall(r"\d{4}-\d{2}-\d{2}", tools.files_read(path=path)["content"])
        if any(first.isoformat() <= d <= last.isoformat() for d in days):
            return path
    return None


def _own_todos(tools):
    """The user's open reminders about this trip (named by its city)."""
    return [r for r in every(tools.reminders_list, "reminders", limit=200) if FACTS["city"] in r["title"]]


def solve(tools):
    f = FACTS
    company, claimed, box = _notes(tools)
    first, last, rows = _receipts(tools, company, claimed)
    started = _own_start(tools, first, last)
    rows.sort(key=lambda r: (r["date"], r["vendor"]))
    total = round(sum(r["amount"] for r in rows), 2)
    table = [[r["date"], r["vendor"], r["category"], f"{r['amount']:.2f}"] for r in rows]
    tools.files_write(path=f["path"], content=csv_text(["date", "vendor", "category", "amount"], table))
    if started:
        tools.files_delete(path=started)
    sent = tools.mail_send(
        to=[box],
        subject=f["subject"],
        body=f["body"].format(total=f"{f['symbol']}{total:,.2f}"),
        attachments=[f["path"]],
    )
    for mid, instead in redirected(tools, [sent["message_id"]]).items():  # trip claims go elsewhere: forwarded
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs the automatic reply asked: my claim.")
    for todo in _own_todos(tools):
        tools.reminders_delete(uid=todo["uid"])


def solve_check_in_dates(tools):
    """Reads the receipts before the notes, dates the hotel by its check-in day, puts the amount first and adds a
    total row; the mail gives the total with the currency's code. The user's own start on the report is moved to
    the report's path and written over; their reminder about the claim is deleted first."""
    f = FACTS
    for todo in _own_todos(tools):
        tools.reminders_delete(uid=todo["uid"])
    first, last, rows = _receipts(tools, "", set())
    started = _own_start(tools, first, last)
    if started:
        tools.files_move(src=started, dst=f["path"])
    company, claimed, box = _notes(tools)
    texts = {}
    for r in rows:  # the company card, once the notes give its digits
        hit = tools.mail_search(sender=r["sender"], subject=r["subject"])["messages"][0]
        texts[r["ref"]] = one_line(tools.mail_read(id=hit["id"])["body"])
    rows = [r for r in rows if r["ref"] not in claimed and f"•••• {company}" not in texts[r["ref"]]]
    rows.sort(key=lambda r: -r["amount"])
    total = round(sum(r["amount"] for r in rows), 2)
    table = [
        [
            f"{r['amount']:.2f}",
            first.isoformat() if r["category"] == "lodging" else r["date"],
            r["vendor"],
            r["category"],
        ]
        for r in rows
    ]
    table.append([f"{total:.2f}", "", "Total", ""])
    tools.files_write(path=f["path"], content=csv_text(["amount", "date", "vendor", "category"], table))
    subject = f"{f['city']} trip: expense report"
    body = (
        f"Hello,\n\nplease find my {f['city']} expense claim attached ({f['currency']} {total:,.2f} in total)."
        f"\n\nKind regards,\n{f['me']}"
    )
    sent = tools.mail_send(to=[box], subject=subject, body=body, attachments=[f["path"]])
    for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to that address alone
        tools.mail_send(to=[instead], subject=subject, body=body, attachments=[f["path"]])


def solve_read_all(tools):
    """Lists the whole inbox and picks the receipts out of it; the hotel dated by its last night."""
    f = FACTS
    inbox = every(tools.mail_search, "messages", folder="INBOX", limit=200)
    company, claimed, box = _notes(tools)
    first, last, rows = _receipts(tools, company, claimed, inbox)
    rows.sort(key=lambda r: (r["category"], r["date"]))
    night = (last - timedelta(days=1)).isoformat()
    table = [
        [night if r["category"] == "lodging" else r["date"], r["vendor"], r["category"], r["amount"]] for r in rows
    ]
    tools.files_write(path=f["path"], content=csv_text(["date", "vendor", "category", "amount"], table))
    total = round(sum(r["amount"] for r in rows), 2)
    said = f"Receipts for the {f['city']} trip are in the attached CSV. Total: {f['symbol']}{total:,.2f}"
    sent = tools.mail_send(to=[box], subject=f["subject"], body=said, attachments=[f["path"]])
    # The inbox's automatic replies, by subject: the one to that mail names where trip claims go; forwarded there.
    for hit in tools.mail_search(folder="INBOX", subject="Automatic reply", unseen=True)["messages"]:
        reply = tools.mail_read(id=hit["id"])
        if reply["in_reply_to"] != sent["message_id"]:
            continue
        named = [a for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"]) if a != address(reply["from"])]
        if not named:
            continue
        [copy] = tools.mail_search(folder="Sent", text=sent["message_id"])["messages"]
        tools.mail_forward(id=copy["id"], to=named[:1], body=f"Forwarding my {f['city']} claim, as your mailbox asked.")
    started = _own_start(tools, first, last)
    tools.files_delete(path=started)
    for todo in _own_todos(tools):
        tools.reminders_delete(uid=todo["uid"])
