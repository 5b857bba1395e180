"""Another way: list the whole inbox instead of searching by sender and subject, and word the reminder otherwise."""

import re


def solve(tools):
    for summary in tools.mail_search(folder="INBOX")["messages"]:
        if "ana" in summary["from"].lower() and "invoice" in summary["subject"].lower():
            message = tools.mail_read(id=summary["id"])
            break
    due = re.search(r"due on (\d+) March (\d{4})", message["body"])
    day = f"{due.group(2)}-03-{int(due.group(1)):02d}"
    tools.reminders_create(title="Garden work: pay Ana's invoice", list="Inbox", due=day)
    return f"Reminder set for {day}."
