"""bill-triage: a reminder for every bill not paid yet (by its due date, with the amount); file the bills."""

from __future__ import annotations

import csv
import io
from typing import Any

from stageclaw.author.solutionlib import newest, one_line

FACTS: dict[str, Any] = {}


def solve(tools):
    f = FACTS
    export = tools.files_read(path=f["statement"])["content"]
    paid = " ".join(row[f["description_column"]] for row in csv.DictReader(io.StringIO(export)))

    for bill in f["bills"]:
        found = tools.mail_search(folder="INBOX", sender=bill["sender"], subject=bill["subject"])["messages"]
        latest = tools.mail_read(id=newest(found)["id"])  # a payment reminder supersedes the first bill
        text = one_line(latest["body"])
        assert bill["amount_shown"] in text and bill["due_shown"] in text, f"{bill['payee']}: unexpected bill"
        if bill["account"] not in paid:  # no payment with its account number in the bank export
            tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
