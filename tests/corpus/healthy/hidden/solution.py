"""Reference solution: find Ana's invoice, read its due date, add the reminder."""

import re


def solve(tools):
    tools.now()
    found = tools.mail_search(sender="ana", subject="invoice")["messages"]
    message = tools.mail_read(id=found[0]["id"])
    due = re.search(r"due on (\d+) March (\d{4})", message["body"])
    day = f"{due.group(2)}-03-{int(due.group(1)):02d}"
    tools.reminders_create(title="Pay Ana's garden invoice", list="Inbox", due=day)
    return f"Added a reminder due {day}."
