"""expense-report: the trip's receipts as a CSV in the workspace, sent to finance with the total."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from stageclaw.author.content.files import csv_text
from stageclaw.author.solutionlib import one_line

FACTS: dict[str, Any] = {}


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
