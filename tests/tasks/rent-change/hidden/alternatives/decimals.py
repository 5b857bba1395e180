"""Another way: read every mail from the property management, and write the amounts with cents and dashes."""

import re


def solve(tools):
    found = tools.mail_search(folder="INBOX", text="rent")["messages"]
    latest = max((m for m in found if "parking" not in m["subject"].lower()), key=lambda m: m["date"])
    rent = int(re.search(r"€([\d,]+)", tools.mail_read(id=latest["id"])["body"]).group(1).replace(",", ""))
    note = tools.notes_search(query="fixed costs")["notes"][0]
    costs = dict(re.match(r"(\w+): €([\d,]+)", line).groups() for line in note["body"].splitlines())
    electricity, internet = (int(costs[k].replace(",", "")) for k in ("Electricity", "Internet"))
    body = [
        f"Rent - €{rent:,}.00",
        f"Electricity - €{electricity}.00",
        f"Internet - €{internet}.00",
        f"Total - €{rent + electricity + internet:,}.00",
    ]
    tools.notes_update(uid=note["uid"], body="\n".join(body))
