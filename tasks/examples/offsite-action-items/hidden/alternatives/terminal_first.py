"""Alternative solution for offsite-action-items: reads the meeting folder and every reminder first, counts
the RSVPs in the terminal, updates the stale reminders' titles as well as their dates, and writes the note
as prose."""

import json
import re
from datetime import date, timedelta

COUNT = r"""python3 - <<'EOF'
import csv, json
rows = list(csv.DictReader(open("offsite/rsvp-responses.csv", encoding="utf-8")))
latest = {r["Email address"].strip().lower(): r for r in rows}
coming = [r for r in latest.values() if r["Will you join the offsite?"].strip().lower() == "yes"]
kinds = ("vegan", "vegetarian", "gluten", "halal", "nut", "lactose")
counts = {k: 0 for k in kinds}
for r in coming:
    k = next((k for k in kinds if k in r["Dietary requirements"].lower()), None)
    if k:
        counts[k] += 1
print(json.dumps({"coming": len(coming), **counts}))
EOF"""


def solve(tools):
    for entry in tools.files_list(path="meetings")["entries"]:
        if entry["type"] == "file":
            tools.files_read(path=entry["path"])
    events = tools.calendar_list_events(start="2026-04-01", end="2026-06-30", query="offsite")["events"]
    arrival = date.fromisoformat(next(e for e in events if e["all_day"] and e["status"] != "CANCELLED")["start"])
    terms = next(n for n in tools.notes_search(query="Rodavento")["notes"] if "booking terms" in n["title"])["body"]
    days = {
        k: int(re.search(rf"{k}.*?(\d+) days before arrival", terms).group(1)) for k in ("Deposit", "Final headcount")
    }
    work = tools.reminders_list(list="Work", include_completed=True)["reminders"]
    for word, title, key in (
        ("deposit", "Rodavento deposit", "Deposit"),
        ("headcount", "Final headcount and diets", "Final headcount"),
    ):
        stale = next(t for t in work if word in t["title"].lower() and not t["completed"])
        tools.reminders_update(uid=stale["uid"], title=title, due=(arrival - timedelta(days=days[key])).isoformat())
    friday = arrival - timedelta(days=(arrival.weekday() - 4) % 7 or 7)
    tools.reminders_create(title="Agenda with Kwame", list="Work", due=friday.isoformat())
    tools.reminders_create(title="Budget sheet for Lucía", list="Work", due="2026-04-10")

    counts = json.loads(tools.terminal_run(command=COUNT)["stdout"])
    tools.notes_create(
        title="Offsite summary",
        body=(
            f"{counts['coming']} people are coming (each person's latest answer). Dietary needs: "
            f"{counts['vegetarian']} vegetarian, {counts['vegan']} vegan, {counts['gluten']} gluten-free, "
            f"{counts['halal']} halal, {counts['nut']} with a nut allergy and {counts['lactose']} lactose intolerant. "
            "We decided a budget cap of MXN 4,800 per person all-in, a chartered bus from the office at 7 am on "
            "day 1, a free afternoon on day 2 and no partners."
        ),
    )
