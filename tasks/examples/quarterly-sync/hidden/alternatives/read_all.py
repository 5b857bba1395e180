"""Alternative solution for quarterly-sync: reads every message and lists the whole month before acting;
replies in the thread with the user's time first, and keeps the reminder's note."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def solve(tools):
    inbox = tools.mail_search(folder="INBOX")["messages"]
    messages = [tools.mail_read(id=m["id"]) for m in inbox]
    request = next(m for m in messages if "quarterly sync" in m["subject"].lower())
    here = ZoneInfo(tools.now()["timezone"])
    start = datetime(2026, 3, 12, 15, 0, tzinfo=ZoneInfo("Europe/London")).astimezone(here)
    events = tools.calendar_list_events(start="2026-03-01", end="2026-03-31")["events"]
    sync = next(e for e in events if e["summary"] == "Quarterly sync")
    tools.calendar_update_event(uid=sync["uid"], start=start.isoformat())
    tools.mail_reply(
        id=request["id"],
        body="Hi Priya, moved it: Thu 12 March, 23:00 my time (15:00 for you in London). Best, Lin",
    )
    tools.reminders_create(
        title="Quarterly sync in an hour",
        notes="Go through Priya's agenda first",
        list="Inbox",
        due=(start - timedelta(hours=1)).isoformat(),
    )
