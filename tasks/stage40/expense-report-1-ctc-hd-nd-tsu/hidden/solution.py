"""Reference solution for expense-report-1-ctc-hd-nd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-10-23', '2026-11-12'],
 'receipts': [{'sender': 'reservations@hotel-kestrel.com',
               'subject': 'Your invoice from Hotel Kestrel – INV-920450',
               'shown': '$386.43',
               'when': 'November 9',
               'date': '2026-11-09',
               'amount': 386.43,
               'vendor': 'Hotel Kestrel',
               'category': 'lodging',
               'ref': 'INV-920450'},
              {'sender': 'no-reply@tickets.intercity-express.com',
               'subject': 'Your e-ticket: Chicago → New York',
               'shown': '$43.81',
               'when': 'November 6',
               'date': '2026-11-06',
               'amount': 43.81,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-941958'},
              {'sender': 'no-reply@tickets.intercity-express.com',
               'subject': 'Your e-ticket: New York → Chicago',
               'shown': '$77.85',
               'when': 'November 9',
               'date': '2026-11-09',
               'amount': 77.85,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-850594'},
              {'sender': 'receipts@receipts.ridenow.com',
               'subject': 'Your Saturday trip with RideNow',
               'shown': '$28.73',
               'when': 'November 7',
               'date': '2026-11-07',
               'amount': 28.73,
               'vendor': 'RideNow',
               'category': 'taxi',
               'ref': 'RC-954440'},
              {'sender': 'receipts@trattoria-da-tuan.com',
               'subject': 'Receipt from Trattoria da Tuan',
               'shown': '$20.22',
               'when': 'November 6',
               'date': '2026-11-06',
               'amount': 20.22,
               'vendor': 'Trattoria da Tuan',
               'category': 'meals',
               'ref': 'R-417070'},
              {'sender': 'receipts@receipts.ridenow.com',
               'subject': 'Your Monday trip with RideNow',
               'shown': '$15.95',
               'when': 'November 2',
               'date': '2026-11-02',
               'amount': 15.95,
               'vendor': 'RideNow',
               'category': 'taxi',
               'ref': 'RC-771293'},
              {'sender': 'receipts@brasserie-ama.com',
               'subject': 'Receipt from Brasserie Ama',
               'shown': '$46.37',
               'when': 'November 10',
               'date': '2026-11-10',
               'amount': 46.37,
               'vendor': 'Brasserie Ama',
               'category': 'meals',
               'ref': 'R-208091'}],
 'path': 'Expenses/2026-11-new-york.csv',
 'finance': 'Duncan Ellison <duncan_ellison@foxglove-analytics.com>',
 'subject': 'Expenses: New York trip November 2026',
 'symbol': '$',
 'body': 'Hi Duncan,\n'
         '\n'
         'attached is my expense report for the New York trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Lan'}


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def solve(tools):
    f = FACTS
    # The trip's days are in the calendar (an all-day event; its end is exclusive).
    found = tools.calendar_list_events(start=f["window"][0], end=f["window"][1], query=f["trip"])["events"]
    trip = tools.calendar_get_event(uid=found[0]["uid"])
    first = date.fromisoformat(trip["start"])
    last = date.fromisoformat(trip["end"]) - timedelta(days=1)

    receipts, void = {}, set()
    for receipt in f["receipts"]:
        hits = tools.mail_search(sender=receipt["sender"], subject=receipt["subject"])["messages"]
        for hit in hits:
            text = one_line(tools.mail_read(id=hit["id"])["body"])
            if receipt["shown"] not in text or receipt["when"] not in text:
                continue
            void.update(re.findall(r"replaces invoice no\. (\S+?)[.;,]", text))
            day = date.fromisoformat(receipt["date"])
            if first <= day <= last:
                receipts[receipt["ref"]] = receipt  # a receipt sent twice is one expense

    rows = [r for ref, r in receipts.items() if ref not in void]
    rows.sort(key=lambda r: (r["date"], r["vendor"]))
    total = round(sum(r["amount"] for r in rows), 2)
    table = [[r["date"], r["vendor"], r["category"], f"{r['amount']:.2f}"] for r in rows]
    tools.files_write(path=f["path"], content=csv_text(["date", "vendor", "category", "amount"], table))
    tools.mail_send(
        to=[f["finance"]],
        subject=f["subject"],
        body=f["body"].format(total=f"{f['symbol']}{total:,.2f}", count=len(rows)),
        attachments=[f["path"]],
    )
