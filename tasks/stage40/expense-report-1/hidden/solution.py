"""Reference solution for expense-report-1, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta


FACTS = {'trip': 'Trip:',
 'window': ['2026-08-25', '2026-09-17'],
 'receipts': [{'sender': 'reservations@hotel-meridian.com.au',
               'subject': 'Your invoice from Hotel Meridian – INV-172636',
               'shown': 'A$507.45',
               'when': '11 September',
               'date': '2026-09-11',
               'amount': 507.45,
               'vendor': 'Hotel Meridian',
               'category': 'lodging',
               'ref': 'INV-172636'},
              {'sender': 'no-reply@tickets.intercity-express.com.au',
               'subject': 'Your e-ticket: Melbourne → Sydney',
               'shown': 'A$122.12',
               'when': '8 September',
               'date': '2026-09-08',
               'amount': 122.12,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-452762'},
              {'sender': 'no-reply@tickets.intercity-express.com.au',
               'subject': 'Your e-ticket: Sydney → Melbourne',
               'shown': 'A$47.52',
               'when': '11 September',
               'date': '2026-09-11',
               'amount': 47.52,
               'vendor': 'Intercity Express',
               'category': 'travel',
               'ref': 'BK-363417'},
              {'sender': 'receipts@receipts.cabbit.com',
               'subject': 'Your Wednesday trip with Cabbit',
               'shown': 'A$18.68',
               'when': '9 September',
               'date': '2026-09-09',
               'amount': 18.68,
               'vendor': 'Cabbit',
               'category': 'taxi',
               'ref': 'RC-195870'},
              {'sender': 'receipts@nimbus-kitchen.com.au',
               'subject': 'Receipt from Nimbus Kitchen',
               'shown': 'A$76.99',
               'when': '8 September',
               'date': '2026-09-08',
               'amount': 76.99,
               'vendor': 'Nimbus Kitchen',
               'category': 'meals',
               'ref': 'R-624713'},
              {'sender': 'receipts@receipts.cabbit.com',
               'subject': 'Your Friday trip with Cabbit',
               'shown': 'A$25.40',
               'when': '4 September',
               'date': '2026-09-04',
               'amount': 25.4,
               'vendor': 'Cabbit',
               'category': 'taxi',
               'ref': 'RC-182686'},
              {'sender': 'receipts@rohan-s-noodle-bar.com.au',
               'subject': "Receipt from Rohan's Noodle Bar",
               'shown': 'A$46.02',
               'when': '12 September',
               'date': '2026-09-12',
               'amount': 46.02,
               'vendor': "Rohan's Noodle Bar",
               'category': 'meals',
               'ref': 'R-269820'},
              {'sender': 'reservations@hotel-meridian.com.au',
               'subject': 'Amended invoice – Hotel Meridian',
               'shown': 'A$481.00',
               'when': '11 September',
               'date': '2026-09-11',
               'amount': 481.0,
               'vendor': 'Hotel Meridian',
               'category': 'lodging',
               'ref': 'INV-437570'}],
 'path': 'Expenses/2026-09-sydney.csv',
 'finance': 'Xiuying Zhang <xiuying.zhang@larkspur-analytics.com.au>',
 'subject': 'Expenses: Sydney trip September 2026',
 'symbol': 'A$',
 'body': 'Hi Xiuying,\n'
         '\n'
         'attached is my expense report for the Sydney trip: {count} receipts, total {total}.\n'
         '\n'
         'Thanks,\n'
         'Rohan'}


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
