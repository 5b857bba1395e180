"""Alternative solution 'read_all' for expense-report-1-ctc-hd-nd-tsu: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-06-21', '2026-07-09'],
 'receipts': [{'sender': 'reservations@hotel-brightlane.com',
               'subject': 'Your invoice from Hotel Brightlane – INV-178151',
               'shown': '$273.44',
               'when': 'July 7',
               'date': '2026-07-07',
               'amount': 273.44,
               'vendor': 'Hotel Brightlane',
               'category': 'lodging',
               'ref': 'INV-178151'},
              {'sender': 'no-reply@tickets.northline-rail.com',
               'subject': 'Your e-ticket: Chicago → Denver',
               'shown': '$46.25',
               'when': 'July 5',
               'date': '2026-07-05',
               'amount': 46.25,
               'vendor': 'Northline Rail',
               'category': 'travel',
               'ref': 'BK-102957'},
              {'sender': 'no-reply@tickets.northline-rail.com',
               'subject': 'Your e-ticket: Denver → Chicago',
               'shown': '$75.10',
               'when': 'July 7',
               'date': '2026-07-07',
               'amount': 75.1,
               'vendor': 'Northline Rail',
               'category': 'travel',
               'ref': 'BK-934159'},
              {'sender': 'receipts@receipts.cabbit.com',
               'subject': 'Your Monday trip with Cabbit',
               'shown': '$15.15',
               'when': 'July 6',
               'date': '2026-07-06',
               'amount': 15.15,
               'vendor': 'Cabbit',
               'category': 'taxi',
               'ref': 'RC-358140'},
              {'sender': 'receipts@trattoria-da-kavya.com',
               'subject': 'Receipt from Trattoria da Kavya',
               'shown': '$58.30',
               'when': 'July 5',
               'date': '2026-07-05',
               'amount': 58.3,
               'vendor': 'Trattoria da Kavya',
               'category': 'meals',
               'ref': 'R-476608'},
              {'sender': 'receipts@receipts.cabbit.com',
               'subject': 'Your Tuesday trip with Cabbit',
               'shown': '$21.15',
               'when': 'June 30',
               'date': '2026-06-30',
               'amount': 21.15,
               'vendor': 'Cabbit',
               'category': 'taxi',
               'ref': 'RC-314156'},
              {'sender': 'receipts@brasserie-ama.com',
               'subject': 'Receipt from Brasserie Ama',
               'shown': '$50.08',
               'when': 'July 8',
               'date': '2026-07-08',
               'amount': 50.08,
               'vendor': 'Brasserie Ama',
               'category': 'meals',
               'ref': 'R-208091'}],
 'path': 'Expenses/2026-07-denver.csv',
 'finance': 'Ming Zhu <ming.zhu@foxglove-analytics.com>',
 'subject': 'Expenses: Denver trip July 2026',
 'symbol': '$',
 'body': 'Hi Ming,\n'
         '\n'
         'attached is my expense report for the Denver trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Yuna',
 'currency': 'USD',
 'city': 'Denver',
 'me': 'Yuna'}


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _receipts(tools, inbox=None):
    """The trip's first and last day (from the calendar) and its receipts: once each, in the trip, not void.

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
            day = date.fromisoformat(receipt["date"])
            if first <= day <= last:
                receipts[receipt["ref"]] = receipt  # a receipt sent twice is one expense
    rows = [r for ref, r in receipts.items() if ref not in void]
    return first, last, rows


def solve_read_all(tools):
    """Lists the whole inbox and picks the receipts out of it; the hotel dated by its last night."""
    f = FACTS
    inbox = tools.mail_search(folder="INBOX", limit=200)["messages"]
    _, last, rows = _receipts(tools, inbox)
    rows.sort(key=lambda r: (r["category"], r["date"]))
    night = (last - timedelta(days=1)).isoformat()
    table = [
        [night if r["category"] == "lodging" else r["date"], r["vendor"], r["category"], r["amount"]] for r in rows
    ]
    tools.files_write(path=f["path"], content=csv_text(["date", "vendor", "category", "amount"], table))
    total = round(sum(r["amount"] for r in rows), 2)
    tools.mail_send(
        to=[f["finance"]],
        subject=f["subject"],
        body=f"Receipts for the {f['city']} trip are in the attached CSV. Total: {f['symbol']}{total:,.2f}",
        attachments=[f["path"]],
    )


solve = solve_read_all
