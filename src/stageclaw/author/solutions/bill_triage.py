"""bill-triage: a reminder for every bill not paid yet (by its due date, with the amount); file the bills."""

from __future__ import annotations

import csv
import io
from typing import Any

from stageclaw.author.solutionlib import newest, one_line

FACTS: dict[str, Any] = {}


def _bills(tools, export):
    """Each bill with its latest mail (a payment reminder supersedes the first bill), its mails, and whether
    the bank export shows it paid (a payment with its account number)."""
    f = FACTS
    paid = " ".join(row[f["description_column"]] for row in csv.DictReader(io.StringIO(export)))
    out = []
    for bill in f["bills"]:
        found = tools.mail_search(folder="INBOX", sender=bill["sender"], subject=bill["subject"])["messages"]
        latest = tools.mail_read(id=newest(found)["id"])
        text = one_line(latest["body"])
        assert bill["amount_shown"] in text and bill["due_shown"] in text, f"{bill['payee']}: unexpected bill"
        out.append((bill, found, bill["account"] in paid))
    return out


def solve(tools):
    f = FACTS
    for bill, found, paid in _bills(tools, tools.files_read(path=f["statement"])["content"]):
        if not paid:
            tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])


def solve_amount_in_notes(tools):
    """Files the bills first, then adds the reminders soonest first, each titled by the payee alone with the
    amount in its notes, due on the due day (no time and no date in the title: the request asks for neither,
    so neither is graded)."""
    f = FACTS
    bills = _bills(tools, tools.files_read(path=f["statement"])["content"])
    if f["file_bills"]:
        for _, found, _ in bills:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
    for bill, _, paid in sorted(bills, key=lambda b: b[0]["due"]):
        if not paid:
            tools.reminders_create(
                title=f"{bill['payee']} {bill['subject']}",
                list=f["list"],
                due=bill["due"],
                notes=f"Amount: {bill['amount_shown']}",
            )


def solve_read_all(tools):
    """Reads every inbox message and the bank export through the terminal before acting."""
    f = FACTS
    for message in tools.mail_search(folder="INBOX", limit=200)["messages"]:
        tools.mail_read(id=message["id"])
    export = tools.terminal_run(command=f"cat '{f['statement']}'")["stdout"]
    for bill, found, paid in _bills(tools, export):
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
        if not paid:
            tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
