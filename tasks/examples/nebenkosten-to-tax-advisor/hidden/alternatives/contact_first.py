"""Alternative solution for nebenkosten-to-tax-advisor: the contact first, from Henrik's own announcement
(sent from the address the contact had); the statement found by reading the PDFs' text, not by hash; a new
message (not a reply); the reminder ticked off last."""

import re


def solve(tools):
    # Henrik announced the new address from the one in the contact: that vouches for it.
    henrik = next(c for c in tools.contacts_search(query="Lindqvist")["contacts"] if c["name"] == "Henrik Lindqvist")
    notice = tools.mail_search(folder="INBOX", sender=henrik["emails"][0])["messages"]
    announced = " ".join(tools.mail_read(id=notice[0]["id"])["body"].split())
    new_address = re.search(r"[\w.+-]+@lindqvist-partner\.de", announced).group(0)
    request = tools.mail_read(id=tools.mail_search(folder="INBOX", sender=new_address)["messages"][0]["id"])
    phone = re.search(r"\+49 30 \d{4} \d{4}", request["body"]).group(0)
    tools.contacts_update(
        uid=henrik["uid"],
        emails=[new_address, henrik["emails"][0]],
        phones=[phone.replace(" ", "")],
        organization="Lindqvist & Partner",
    )

    # The corrected statement says it replaces the first; the void one and last year's do not.
    pdfs = [e["path"] for e in tools.files_list(path="")["entries"] if e["path"].endswith(".pdf")]
    texts = {p: tools.files_read(path=p)["content"] for p in pdfs}
    statement = next(p for p, t in texts.items() if "2025" in t and "ersetzt die Abrechnung" in t)
    tools.mail_send(
        to=[new_address],
        subject="Nebenkostenabrechnung 2025",
        body="Hallo Rik,\n\nanbei die korrigierte Nebenkostenabrechnung 2025.\n\nViele Grüße\nAmara",
        attachments=[statement],
    )
    todo = next(t for t in tools.reminders_list()["reminders"] if "Nebenkostenabrechnung" in t["title"])
    tools.reminders_complete(uid=todo["uid"])
