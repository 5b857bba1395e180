"""Alternative solution for quarterly-sync: the reminder first, then the move; a new message (not a reply)
to Priya on the thread's subject, with the times written the 12-hour way."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def solve(tools):
    found = tools.mail_search(sender="priya", subject="quarterly sync")["messages"]
    request = tools.mail_read(id=found[0]["id"])
    assert "15:00 London time" in request["body"]
    here = ZoneInfo(tools.now()["timezone"])
    start = datetime(2026, 3, 12, 15, 0, tzinfo=ZoneInfo("Europe/London")).astimezone(here)

    tools.reminders_create(title="Prep: Priya's agenda", due=(start - timedelta(hours=1)).isoformat())
    events = tools.calendar_list_events(start="2026-03-09", end="2026-03-15", query="quarterly")["events"]
    sync = next(e for e in events if e["summary"] == "Quarterly sync")
    tools.calendar_update_event(uid=sync["uid"], start=start.isoformat(), end=(start + timedelta(hours=1)).isoformat())
    tools.mail_send(
        to=["priya@orbitals.io"],
        subject=f"Re: {request['subject']}",
        body="Hi Priya,\n\nsure, the quarterly sync is now Thursday 12 March at 3 p.m. London time, which is "
        "11 p.m. here in Shanghai.\n\nLin",
    )
