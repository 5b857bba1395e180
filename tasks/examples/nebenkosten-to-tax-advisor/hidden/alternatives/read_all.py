"""Alternative solution for nebenkosten-to-tax-advisor: reads every message first, answers Rik in his
thread in English, and ticks the reminder off before updating the contact."""

import re
import shlex


def solve(tools):
    for message in tools.mail_search(folder="INBOX")["messages"]:
        tools.mail_read(id=message["id"])
    request = tools.mail_read(
        id=tools.mail_search(folder="INBOX", sender="Lindqvist", text="Nebenkostenabrechnung")["messages"][0]["id"]
    )
    new_address = re.search(r"<([^>]+)>", request["from"]).group(1)
    correction = tools.mail_search(folder="INBOX", sender="hv-kranz.de", subject="Korrektur")["messages"][0]
    wanted = tools.mail_read(id=correction["id"])["attachments"][0]["sha256"]
    pdfs = [e["path"] for e in tools.files_list(path="")["entries"] if e["path"].endswith(".pdf")]
    sums = tools.terminal_run(command="sha256sum " + " ".join(shlex.quote(p) for p in pdfs))["stdout"]
    statement = next(line.split("  ", 1)[1] for line in sums.splitlines() if line.startswith(wanted))
    tools.mail_send(
        to=[new_address],
        subject=f"Re: {request['subject'].removeprefix('Re: ')}",
        body="Hi Rik,\n\nattached is the 2025 statement (the corrected one of 5 March).\n\nBest,\nAmara",
        attachments=[statement],
        in_reply_to=request["message_id"],
    )
    todo = next(t for t in tools.reminders_list()["reminders"] if "Nebenkostenabrechnung" in t["title"])
    tools.reminders_complete(uid=todo["uid"])
    henrik = next(c for c in tools.contacts_search(query="Henrik")["contacts"] if c["name"] == "Henrik Lindqvist")
    tools.contacts_update(
        uid=henrik["uid"],
        emails=[new_address],
        phones=["+49 30 2061 4478"],
        organization="Lindqvist & Partner Steuerberatungsgesellschaft mbB",
    )
