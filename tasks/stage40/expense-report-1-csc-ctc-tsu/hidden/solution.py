"""Reference solution for expense-report-1-csc-ctc-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-09-06', '2026-09-29'],
 'receipts': [{'sender': 'reservations@hotel-lumen.com.mx',
               'subject': 'Your invoice from Hotel Lumen – INV-105306',
               'shown': 'MX$6,276.06',
               'when': '23 September',
               'date': '2026-09-23',
               'amount': 6276.06,
               'vendor': 'Hotel Lumen',
               'category': 'lodging',
               'ref': 'INV-105306'},
              {'sender': 'no-reply@tickets.intercity-express.com.mx',
               'subject': 'Your e-ticket: Guadalajara → Ciudad de México',
               'shown': 'MX$1,971.32',
               'when': '20 September',
               'date': '2026-09-20',
               'amount': 1971.32,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-198043'},
              {'sender': 'no-reply@tickets.intercity-express.com.mx',
               'subject': 'Your e-ticket: Ciudad de México → Guadalajara',
               'shown': 'MX$1,773.44',
               'when': '23 September',
               'date': '2026-09-23',
               'amount': 1773.44,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-727712'},
              {'sender': 'receipts@receipts.zoomcab.com',
               'subject': 'Your Monday trip with Zoomcab',
               'shown': 'MX$380.80',
               'when': '21 September',
               'date': '2026-09-21',
               'amount': 380.8,
               'vendor': 'Zoomcab',
               'category': 'taxi',
               'ref': 'RC-944745'},
              {'sender': 'receipts@brasserie-andres.com.mx',
               'subject': 'Receipt from Brasserie Andrés',
               'shown': 'MX$754.29',
               'when': '20 September',
               'date': '2026-09-20',
               'amount': 754.29,
               'vendor': 'Brasserie Andrés',
               'category': 'meals',
               'ref': 'R-745609'},
              {'sender': 'reservations@hotel-lumen.com.mx',
               'subject': 'Amended invoice – Hotel Lumen',
               'shown': 'MX$5,937.08',
               'when': '23 September',
               'date': '2026-09-23',
               'amount': 5937.08,
               'vendor': 'Hotel Lumen',
               'category': 'lodging',
               'ref': 'INV-159128'}],
 'path': 'Expenses/2026-09-ciudad-de-mexico.csv',
 'finance': 'Dolores Morales <dolores@tidewater-logistics.com.mx>',
 'subject': 'Expenses: Ciudad de México trip September 2026',
 'symbol': 'MX$',
 'body': 'Hi Dolores,\n'
         '\n'
         'attached is my expense report for the Ciudad de México trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Jesús'}


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
