"""bill-triage: one reminder for every bill not paid yet (by its due date, with the amount); file the bills."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from stageclaw.author.solutionlib import every, newest, one_line

FACTS: dict[str, Any] = {}


def _text(tools, bill, latest):
    """What the bill says: its mail, or the statement attached to it when the mail points there."""
    if not bill["attachment"]:
        return one_line(latest["body"])
    saved = tools.mail_save_attachment(id=latest["id"], path="Downloads/")
    return one_line(tools.files_read(path=saved["path"])["content"])


def _bills(tools, export):
    """Each bill with its latest mail (a payment reminder supersedes the first bill), its mails, and whether
    it is paid: a payment with its account number in the bank export, or the provider's confirmation of a
    payment made since."""
    f = FACTS
    paid = " ".join(row[f["description_column"]] for row in csv.DictReader(io.StringIO(export)))
    out = []
    for bill in f["bills"]:
        mails = tools.mail_search(folder="INBOX", sender=bill["sender"])["messages"]
        found = [m for m in mails if bill["subject"] in m["subject"]]
        confirmed = [m for m in mails if f["receipt"] in m["subject"]]
        latest = tools.mail_read(id=newest(found)["id"])
        text = _text(tools, bill, latest)
        assert bill["amount_shown"] in text and bill["due_shown"] in text, f"{bill['payee']}: unexpected bill"
        if confirmed:
            said = one_line(tools.mail_read(id=newest(confirmed)["id"])["body"])
            assert bill["account"] in said, f"{bill['payee']}: the confirmation is for another account"
        out.append((bill, found, bill["account"] in paid or bool(confirmed)))
    return out


def _own(tools, bill):
    """The open reminders the user already has for this bill (its word in the title): in the Bills list, or in
    another list with a sum of money ("Water the plants" is no bill)."""
    todos = every(tools.reminders_list, "reminders")
    word = rf"(?<![a-z]){re.escape(bill['keyword'])}(?![a-z])"  # "water", not the "water" of Brightwater
    return [
        t
        for t in todos
        if re.search(word, t["title"], re.IGNORECASE) and (t["list"] == FACTS["list"] or re.search(r"\d", t["title"]))
    ]


def solve(tools):
    f = FACTS
    for bill, found, paid in _bills(tools, tools.files_read(path=f["statement"])["content"]):
        if not paid:
            own = _own(tools, bill)
            if own:
                tools.reminders_update(uid=own[0]["uid"], title=bill["title"], due=bill["due"], list=f["list"])
            else:
                tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
        else:
            for todo in _own(tools, bill):  # paid: nothing should remind the user of it (ticking off would do too)
                tools.reminders_delete(uid=todo["uid"])
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])


def solve_amount_in_notes(tools):
    """Files the bills first, then sets the reminders soonest first, each titled by the payee alone with the
    amount in its notes, due on the due day (no time and no date in the title: the request asks for neither,
    so neither is graded); a reminder the user set for a bill is deleted and made anew."""
    f = FACTS
    bills = _bills(tools, tools.files_read(path=f["statement"])["content"])
    if f["file_bills"]:
        for _, found, _ in bills:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
    for bill, _, paid in sorted(bills, key=lambda b: b[0]["due"]):
        for todo in _own(tools, bill):
            tools.reminders_delete(uid=todo["uid"])
        if not paid:
            tools.reminders_create(
                title=f"{bill['payee']} {bill['subject']}",
                list=f["list"],
                due=bill["due"],
                notes=f"Amount: {bill['amount_shown']}",
            )


def solve_read_all(tools):
    """Reads every inbox message and the bank export through the terminal before acting; keeps the title of a
    reminder the user set (unless it gives a sum, which may be out of date) and puts the amount in its notes;
    deletes the user's reminders for bills already paid."""
    f = FACTS
    for message in every(tools.mail_search, "messages", folder="INBOX", limit=200):
        tools.mail_read(id=message["id"])
    export = tools.terminal_run(command=f"cat '{f['statement']}'")["stdout"]
    for bill, found, paid in _bills(tools, export):
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
        if paid:
            for todo in _own(tools, bill):
                tools.reminders_delete(uid=todo["uid"])
        else:
            own = _own(tools, bill)
            if own:
                title = bill["title"] if re.search(r"\d", own[0]["title"]) else None
                tools.reminders_update(
                    uid=own[0]["uid"], title=title, due=bill["due"], notes=bill["amount_shown"], list=f["list"]
                )
            else:
                tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
