"""Alternative solution 'check_in_dates' for expense-report-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-09-01', '2026-09-21'],
 'readme': 'Expenses/README.md',
 'finance': 'Raman',
 'receipts': [{'sender': 'reservations@hotel-parallax.com.au',
               'subject': 'Your invoice from Hotel Parallax – INV-601719',
               'shown': 'A$775.32',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 775.32,
               'vendor': 'Hotel Parallax',
               'category': 'lodging',
               'ref': 'INV-601719'},
              {'sender': 'no-reply@tickets.intercity-express.com.au',
               'subject': 'Your e-ticket: Melbourne → Brisbane',
               'shown': 'A$171.95',
               'when': '15 September',
               'date': '2026-09-15',
               'amount': 171.95,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-770924'},
              {'sender': 'no-reply@tickets.intercity-express.com.au',
               'subject': 'Your e-ticket: Brisbane → Melbourne',
               'shown': 'A$92.66',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 92.66,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-458563'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Tuesday trip with Zoomcab',
               'shown': 'A$49.98',
               'when': '15 September',
               'date': '2026-09-15',
               'amount': 49.98,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-997918'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Wednesday trip with Zoomcab',
               'shown': 'A$43.15',
               'when': '16 September',
               'date': '2026-09-16',
               'amount': 43.15,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-270067'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Thursday trip with Zoomcab',
               'shown': 'A$46.00',
               'when': '17 September',
               'date': '2026-09-17',
               'amount': 46.0,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-330211'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Friday trip with Zoomcab',
               'shown': 'A$27.62',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 27.62,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-939778'},
              {'sender': 'receipts@xiuying-s-noodle-bar.com.au',
               'subject': "Receipt from Xiuying's Noodle Bar",
               'shown': 'A$96.77',
               'when': '15 September',
               'date': '2026-09-15',
               'amount': 96.77,
               'vendor': "Xiuying's Noodle Bar",
               'category': 'meals',
               'ref': 'R-269820'},
              {'sender': 'receipts@trattoria-da-lan.com.au',
               'subject': 'Receipt from Trattoria da Lan',
               'shown': 'A$205.84',
               'when': '16 September',
               'date': '2026-09-16',
               'amount': 205.84,
               'vendor': 'Trattoria da Lan',
               'category': 'meals',
               'ref': 'R-514971'},
              {'sender': 'receipts@trattoria-da-harriet.com.au',
               'subject': 'Receipt from Trattoria da Harriet',
               'shown': 'A$118.32',
               'when': '17 September',
               'date': '2026-09-17',
               'amount': 118.32,
               'vendor': 'Trattoria da Harriet',
               'category': 'meals',
               'ref': 'R-250835'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Saturday trip with Zoomcab',
               'shown': 'A$16.02',
               'when': '12 September',
               'date': '2026-09-12',
               'amount': 16.02,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-460593'},
              {'sender': 'receipts@nimbus-kitchen.com.au',
               'subject': 'Receipt from Nimbus Kitchen',
               'shown': 'A$100.70',
               'when': '19 September',
               'date': '2026-09-19',
               'amount': 100.7,
               'vendor': 'Nimbus Kitchen',
               'category': 'meals',
               'ref': 'R-788296'},
              {'sender': 'reservations@hotel-parallax.com.au',
               'subject': 'Amended invoice – Hotel Parallax',
               'shown': 'A$700.64',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 700.64,
               'vendor': 'Hotel Parallax',
               'category': 'lodging',
               'ref': 'INV-425748'}],
 'path': 'Expenses/2026-09-brisbane.csv',
 'subject': 'Expenses: Brisbane trip September 2026',
 'symbol': 'A$',
 'body': 'Hello,\n\nattached is my expense report for the Brisbane trip, total {total}.\n\nThanks,\nJiayi',
 'currency': 'AUD',
 'city': 'Brisbane',
 'me': 'Jiayi'}


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


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


def _own_todos(tools):
    """The user's open reminders about this trip (named by its city)."""
    return [r for r in every(tools.reminders_list, "reminders", limit=200) if FACTS["city"] in r["title"]]


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


solve = solve_check_in_dates
