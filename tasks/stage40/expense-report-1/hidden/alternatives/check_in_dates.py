"""Alternative solution 'check_in_dates' for expense-report-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-09-02', '2026-09-21'],
 'receipts': [{'sender': 'reservations@hotel-meridian.com.au',
               'subject': 'Your invoice from Hotel Meridian – INV-172636',
               'shown': 'A$558.20',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 558.2,
               'vendor': 'Hotel Meridian',
               'category': 'lodging',
               'ref': 'INV-172636'},
              {'sender': 'no-reply@tickets.coastline-trains.com.au',
               'subject': 'Your e-ticket: Melbourne → Brisbane',
               'shown': 'A$165.63',
               'when': '16 September',
               'date': '2026-09-16',
               'amount': 165.63,
               'vendor': 'Coastline Trains',
               'category': 'travel',
               'ref': 'BK-835690'},
              {'sender': 'no-reply@tickets.coastline-trains.com.au',
               'subject': 'Your e-ticket: Brisbane → Melbourne',
               'shown': 'A$96.01',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 96.01,
               'vendor': 'Coastline Trains',
               'category': 'travel',
               'ref': 'BK-962016'},
              {'sender': 'receipts@receipts.ridenow.com',
               'subject': 'Your Thursday trip with RideNow',
               'shown': 'A$39.90',
               'when': '17 September',
               'date': '2026-09-17',
               'amount': 39.9,
               'vendor': 'RideNow',
               'category': 'taxi',
               'ref': 'RC-834494'},
              {'sender': 'receipts@nimbus-kitchen.com.au',
               'subject': 'Receipt from Nimbus Kitchen',
               'shown': 'A$127.03',
               'when': '16 September',
               'date': '2026-09-16',
               'amount': 127.03,
               'vendor': 'Nimbus Kitchen',
               'category': 'meals',
               'ref': 'R-624713'},
              {'sender': 'receipts@receipts.ridenow.com',
               'subject': 'Your Saturday trip with RideNow',
               'shown': 'A$41.91',
               'when': '12 September',
               'date': '2026-09-12',
               'amount': 41.91,
               'vendor': 'RideNow',
               'category': 'taxi',
               'ref': 'RC-182686'},
              {'sender': 'receipts@rohan-s-noodle-bar.com.au',
               'subject': "Receipt from Rohan's Noodle Bar",
               'shown': 'A$75.93',
               'when': '19 September',
               'date': '2026-09-19',
               'amount': 75.93,
               'vendor': "Rohan's Noodle Bar",
               'category': 'meals',
               'ref': 'R-269820'},
              {'sender': 'reservations@hotel-meridian.com.au',
               'subject': 'Amended invoice – Hotel Meridian',
               'shown': 'A$514.56',
               'when': '18 September',
               'date': '2026-09-18',
               'amount': 514.56,
               'vendor': 'Hotel Meridian',
               'category': 'lodging',
               'ref': 'INV-437570'}],
 'path': 'Expenses/2026-09-brisbane.csv',
 'finance': 'Arjun Raman <arjun.raman@larkspur-analytics.com.au>',
 'subject': 'Expenses: Brisbane trip September 2026',
 'symbol': 'A$',
 'body': 'Hi Arjun,\n'
         '\n'
         'attached is my expense report for the Brisbane trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Jiayi',
 'currency': 'AUD',
 'city': 'Brisbane',
 'me': 'Jiayi'}


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
