"""Reference solution for rent-change: the later mail corrects the figure; the parking notice is another rent."""

import re


def solve(tools):
    found = tools.mail_search(folder="INBOX", subject="rent from 1 April")["messages"]
    flat = [m for m in found if "parking" not in m["subject"].lower()]
    latest = max(flat, key=lambda m: m["date"])
    body = tools.mail_read(id=latest["id"])["body"]
    rent = int(re.search(r"€([\d,]+)", body).group(1).replace(",", ""))
    note = next(n for n in tools.notes_search(query="fixed costs")["notes"] if n["uid"] == "n-fixed-costs")
    lines = note["body"].splitlines()
    costs = {k: int(v.replace(",", "")) for k, v in (re.match(r"(\w+): €([\d,]+)", line).groups() for line in lines)}
    costs["Rent"] = rent
    total = sum(v for k, v in costs.items() if k != "Total")
    new = [
        f"Rent: €{rent:,}",
        f"Electricity: €{costs['Electricity']}",
        f"Internet: €{costs['Internet']}",
        f"Total: €{total:,}",
    ]
    tools.notes_update(uid=note["uid"], body="\n".join(new))
