"""Reference solution for offsite-action-items, using the same tools as any agent."""

import json
import re
from datetime import date, timedelta

COUNT_RSVPS = r"""python3 - <<'EOF'
import csv, json
latest = {}
with open("offsite/rsvp-responses.csv", newline="", encoding="utf-8") as fh:
    for row in csv.DictReader(fh):  # rows are in time order: a later answer replaces an earlier one
        latest[row["Email address"].strip().lower()] = row
coming = [r for r in latest.values() if r["Will you join the offsite?"].strip().lower() == "yes"]
diets = {}
for r in coming:
    d = r["Dietary requirements"].lower()
    kind = next((k for k in ("vegan", "vegetarian", "gluten", "halal", "nut", "lactose") if k in d), None)
    if kind:
        diets.setdefault(kind, []).append(r["Name"])
print(json.dumps({"respondents": len(latest), "coming": len(coming), "diets": diets}, ensure_ascii=False))
EOF"""


def solve(tools):
    notes = tools.files_read(path="meetings/2026-04-06 offsite planning follow-up.md")["content"]
    assert "see booking terms" in notes and "Friday before the offsite" in notes

    # The new dates are in the calendar (the April event is cancelled).
    events = tools.calendar_list_events(start="2026-04-01", end="2026-06-30", query="offsite")["events"]
    offsite = next(e for e in events if e["all_day"] and e["status"] != "CANCELLED")
    arrival = date.fromisoformat(offsite["start"])

    # Rodavento's deadlines are in the booking-terms note.
    terms = next(n for n in tools.notes_search(query="Rodavento")["notes"] if "booking terms" in n["title"])
    deposit_days = int(re.search(r"Deposit:.*?(\d+) days before arrival", terms["body"]).group(1))
    final_days = int(re.search(r"Final headcount.*?(\d+) days before arrival", terms["body"]).group(1))

    due = {
        "deposit": arrival - timedelta(days=deposit_days),
        "headcount": arrival - timedelta(days=final_days),
        "agenda": arrival - timedelta(days=(arrival.weekday() - 4) % 7 or 7),  # the Friday before
        "budget": date(2026, 4, 6) + timedelta(days=4),  # "this Friday", said on Monday 6 April
    }

    # Two of the items are already reminders from the kickoff, with the old dates: move them.
    work = tools.reminders_list(list="Work")["reminders"]
    deposit = next(t for t in work if "deposit" in t["title"].lower())
    headcount = next(t for t in work if "headcount" in t["title"].lower())
    tools.reminders_update(uid=deposit["uid"], due=due["deposit"].isoformat())
    tools.reminders_update(uid=headcount["uid"], due=due["headcount"].isoformat())
    tools.reminders_create(
        title="Draft offsite agenda with Kwame and share it with the team",
        list="Work",
        due=due["agenda"].isoformat(),
    )
    tools.reminders_create(
        title="Send Lucía the updated offsite budget sheet", list="Work", due=due["budget"].isoformat()
    )

    counted = json.loads(tools.terminal_run(command=COUNT_RSVPS)["stdout"])
    diets = {k: len(v) for k, v in counted["diets"].items()}
    body = (
        "Offsite at Rodavento, Valle de Bravo\n\n"
        f"Headcount: {counted['coming']} attending (latest RSVP per person; form open until Friday)\n\n"
        "Dietary needs:\n"
        f"- Vegetarian: {diets['vegetarian']}\n"
        f"- Vegan: {diets['vegan']}\n"
        f"- Gluten-free: {diets['gluten']} (one coeliac, cross-contamination matters)\n"
        f"- Halal: {diets['halal']}\n"
        f"- Nut allergy: {diets['nut']} (peanuts, severe, carries an EpiPen)\n"
        f"- Lactose intolerant: {diets['lactose']}\n\n"
        "Decisions (6 Apr):\n"
        "- Budget cap MXN 4,800 per person all-in\n"
        "- Chartered bus from the office, 07:00 on day 1; no car-pooling reimbursement\n"
        "- Day 2 afternoon free, no sessions after lunch\n"
        "- No partners / +1s\n\n"
        f"Deadlines: deposit {due['deposit']:%d %b}, final numbers to Rodavento {due['headcount']:%d %b}\n"
    )
    tools.notes_create(title="Offsite – call with Rodavento", body=body, folder="Notes", tags=["offsite", "work"])
