"""Alternative solution for offsite-action-items: replaces the two stale reminders with new ones (deleted,
then created), words every title its own way, writes the note first with ISO dates and the counts as a
table, and counts the RSVPs itself instead of in the terminal."""

import csv
import io
import re
from datetime import date, timedelta


def solve(tools):
    notes = tools.files_read(path="meetings/2026-04-06 offsite planning follow-up.md")["content"]
    assert "see booking terms" in notes
    events = tools.calendar_list_events(start="2026-04-01", end="2026-06-30", query="offsite")["events"]
    arrival = date.fromisoformat(next(e for e in events if e["all_day"] and e["status"] != "CANCELLED")["start"])
    terms = next(n for n in tools.notes_search(query="Rodavento")["notes"] if "booking terms" in n["title"])
    deposit = arrival - timedelta(days=int(re.search(r"Deposit:.*?(\d+) days before arrival", terms["body"]).group(1)))
    final = arrival - timedelta(days=int(re.search(r"Final headcount.*?(\d+) days", terms["body"]).group(1)))
    agenda = arrival - timedelta(days=(arrival.weekday() - 4) % 7 or 7)
    budget = date(2026, 4, 10)

    latest = {}
    rsvps = tools.files_read(path="offsite/rsvp-responses.csv")["content"]
    for row in csv.DictReader(io.StringIO(rsvps)):
        latest[row["Email address"].strip().lower()] = row
    coming = [r for r in latest.values() if r["Will you join the offsite?"].strip().lower() == "yes"]
    diets = dict.fromkeys(("vegan", "vegetarian", "gluten", "halal", "nut", "lactose"), 0)
    for row in coming:
        need = row["Dietary requirements"].lower()
        kind = next((k for k in diets if k in need), None)  # "vegan" before "vegetarian": one kind a person
        if kind:
            diets[kind] += 1
    tools.notes_create(
        title="Rodavento call – offsite facts",
        body=(
            f"Attending: {len(coming)} people\n\n"
            "| diet | people |\n|---|---|\n"
            f"| vegetarian | {diets['vegetarian']} |\n| vegan | {diets['vegan']} |\n| gluten-free | {diets['gluten']} |\n"
            f"| halal | {diets['halal']} |\n| peanut allergy (severe) | {diets['nut']} |\n"
            f"| lactose intolerant | {diets['lactose']} |\n\n"
            "Decided on 6 April: budget cap MXN 4,800 per person; chartered bus from the office at 07:00; "
            "free afternoon on day 2; no +1s.\n\n"
            f"Deposit due {deposit.isoformat()}, final numbers due {final.isoformat()}."
        ),
    )

    work = tools.reminders_list(list="Work")["reminders"]
    for word in ("deposit", "headcount"):
        stale = next(t for t in work if word in t["title"].lower())
        tools.reminders_delete(uid=stale["uid"])
    tools.reminders_create(title="Pay the Rodavento deposit", list="Work", due=deposit.isoformat())
    tools.reminders_create(title="Final headcount + dietary needs to Rodavento", list="Work", due=final.isoformat())
    tools.reminders_create(title="Agenda draft with Kwame, share with the team", list="Work", due=agenda.isoformat())
    tools.reminders_create(title="Updated budget sheet to Lucía", list="Work", due=budget.isoformat())
