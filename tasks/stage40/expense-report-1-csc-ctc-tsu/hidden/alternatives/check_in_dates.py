"""Alternative solution 'check_in_dates' for expense-report-1-csc-ctc-tsu: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2025-12-30', '2026-01-20'],
 'receipts': [{'sender': 'reservations@hotel-cobalt.com.mx',
               'subject': 'Your invoice from Hotel Cobalt – INV-967617',
               'shown': 'MX$4,910.64',
               'when': '15 January',
               'date': '2026-01-15',
               'amount': 4910.64,
               'vendor': 'Hotel Cobalt',
               'category': 'lodging',
               'ref': 'INV-967617'},
              {'sender': 'no-reply@tickets.northline-rail.com.mx',
               'subject': 'Your e-ticket: Guadalajara → Ciudad de México',
               'shown': 'MX$1,870.90',
               'when': '13 January',
               'date': '2026-01-13',
               'amount': 1870.9,
               'vendor': 'Northline Rail',
               'category': 'travel',
               'ref': 'BK-105306'},
              {'sender': 'no-reply@tickets.northline-rail.com.mx',
               'subject': 'Your e-ticket: Ciudad de México → Guadalajara',
               'shown': 'MX$1,631.33',
               'when': '15 January',
               'date': '2026-01-15',
               'amount': 1631.33,
               'vendor': 'Northline Rail',
               'category': 'travel',
               'ref': 'BK-618150'},
              {'sender': 'receipts@receipts.cabbit.com',
               'subject': 'Your Wednesday trip with Cabbit',
               'shown': 'MX$611.06',
               'when': '14 January',
               'date': '2026-01-14',
               'amount': 611.06,
               'vendor': 'Cabbit',
               'category': 'taxi',
               'ref': 'RC-543675'},
              {'sender': 'receipts@cafe-stuart.com.mx',
               'subject': 'Receipt from Café Stuart',
               'shown': 'MX$1,558.44',
               'when': '13 January',
               'date': '2026-01-13',
               'amount': 1558.44,
               'vendor': 'Café Stuart',
               'category': 'meals',
               'ref': 'R-975571'},
              {'sender': 'reservations@hotel-cobalt.com.mx',
               'subject': 'Amended invoice – Hotel Cobalt',
               'shown': 'MX$4,158.43',
               'when': '15 January',
               'date': '2026-01-15',
               'amount': 4158.43,
               'vendor': 'Hotel Cobalt',
               'category': 'lodging',
               'ref': 'INV-246067'}],
 'path': 'Expenses/2026-01-ciudad-de-mexico.csv',
 'finance': 'Imogen Marsh <imogen@tidewater-logistics.com.mx>',
 'subject': 'Expenses: Ciudad de México trip January 2026',
 'symbol': 'MX$',
 'body': 'Hi Imogen,\n'
         '\n'
         'attached is my expense report for the Ciudad de México trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Fernanda',
 'currency': 'MXN',
 'city': 'Ciudad de México',
 'me': 'Fernanda'}


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


def solve_check_in_dates(tools):
    """Dates the hotel by its check-in day, puts the amount first and adds a total row; the mail gives the total
    with the currency's code."""
    f = FACTS
    first, _, rows = _receipts(tools)
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
    tools.mail_send(
        to=[f["finance"]],
        subject=f"{f['city']} trip: expense report",
        body=f"Hello,\n\nplease find my {f['city']} expense claim attached ({len(rows)} items, {f['currency']} "
        f"{total:,.2f} in total).\n\nKind regards,\n{f['me']}",
        attachments=[f["path"]],
    )


solve = solve_check_in_dates
