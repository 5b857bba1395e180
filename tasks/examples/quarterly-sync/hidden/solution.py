"""Reference solution for quarterly-sync, using the same tools as any agent."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def solve(tools):
    found = tools.mail_search(sender="priya", subject="quarterly sync")["messages"]
    request = tools.mail_read(id=found[0]["id"])
    # "Thursday 12 March, 15:00 London time": London is on GMT until 29 March 2026.
    assert "15:00 London time" in request["body"]
    london = datetime(2026, 3, 12, 15, 0, tzinfo=ZoneInfo("Europe/London"))
    local = london.astimezone(ZoneInfo(tools.now()["timezone"]))

    events = tools.calendar_list_events(start="2026-03-09", end="2026-03-15", query="quarterly sync")["events"]
    sync = next(e for e in events if e["summary"] == "Quarterly sync")
    tools.calendar_update_event(uid=sync["uid"], start=local.isoformat())  # keeps the one-hour length

    tools.mail_reply(
        id=request["id"],
        body=(
            "Hi Priya,\n\n"
            "Done - I've moved our quarterly sync to Thursday 12 March, 15:00 London time "
            "(23:00 for me in Shanghai). Thanks for sending the agenda.\n\n"
            "Best,\nLin"
        ),
    )

    tools.reminders_create(
        title="Go through Priya's agenda for the quarterly sync",
        list="Inbox",
        due=(local - timedelta(hours=1)).isoformat(),
    )
