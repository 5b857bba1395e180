"""Reference solution for nebenkosten-to-tax-advisor, using the same tools as any agent."""

import re
import shlex


def _address(value):
    match = re.search(r"<([^<>]+)>", value)
    return (match.group(1) if match else value).strip().lower()


def solve(tools):
    # Rik's latest mail: his new address is the sender, the new phone is in the text.
    from_rik = tools.mail_search(folder="INBOX", sender="Lindqvist", text="Nebenkostenabrechnung")["messages"]
    request = tools.mail_read(id=from_rik[0]["id"])
    new_address = _address(request["from"])
    phone = re.search(r"\+49 30 \d{4} \d{4}", request["body"]).group(0)

    # The landlord sent a correction that voids the first statement: use its attachment.
    correction = tools.mail_search(folder="INBOX", sender="hv-kranz.de", subject="Korrektur")["messages"][0]
    wanted = tools.mail_read(id=correction["id"])["attachments"][0]["sha256"]

    # Both downloads are called Nebenkostenabrechnung_2025...pdf: find the one with that content.
    pdfs = [e["path"] for e in tools.files_list(path="")["entries"] if e["path"].endswith(".pdf")]
    sums = tools.terminal_run(command="sha256sum " + " ".join(shlex.quote(p) for p in pdfs))["stdout"]
    statement = next(line.split("  ", 1)[1] for line in sums.splitlines() if line.startswith(wanted))

    tools.mail_send(
        to=[f"Rik Lindqvist <{new_address}>"],
        subject="Nebenkostenabrechnung 2025 (korrigierte Fassung)",
        body=(
            "Hi Rik,\n\n"
            "here's the Nebenkostenabrechnung 2025 for the flat. Note it's the corrected version (back payment "
            "212,40 EUR); the first one is void.\n\n"
            "I've updated your details on my side.\n\n"
            "Viele Grüße\nAmara"
        ),
        attachments=[statement],
        in_reply_to=request["message_id"],
    )

    henrik = next(c for c in tools.contacts_search(query="Lindqvist")["contacts"] if c["name"] == "Henrik Lindqvist")
    tools.contacts_update(
        uid=henrik["uid"],
        emails=[new_address],
        phones=[phone],
        organization="Lindqvist & Partner Steuerberatungsgesellschaft mbB",
    )

    todos = tools.reminders_list()["reminders"]
    todo = next(t for t in todos if "Nebenkostenabrechnung" in t["title"] and "Henrik" in t["title"])
    tools.reminders_complete(uid=todo["uid"])
