"""inbox-followup: answer from the calendar, send the client their document, file newsletters, remind the promise."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content.text import clock, day
from stageclaw.author.solutionlib import address, newest, one_line

FACTS: dict[str, Any] = {}


def solve(tools):
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])

    # The colleague's question: the answer is the next meeting of that name in the calendar.
    asked = tools.mail_search(folder="INBOX", sender=f["asker"], subject=f["meeting"])["messages"]
    question = newest(asked)
    window = f["window"]
    found = tools.calendar_list_events(start=window[0], end=window[1], query=f["meeting"])["events"]
    meeting = tools.calendar_get_event(uid=min(found, key=lambda e: datetime.fromisoformat(e["start"]))["uid"])
    start = datetime.fromisoformat(meeting["start"]).astimezone(zone)
    when = f"{day(start.date())} at {clock(start)}"
    tools.mail_reply(id=question["id"], body=f["answer"].format(when=when, where=meeting["location"]))

    # The client's request: their latest mail counts; their company (from the address book) names the folder.
    requests = tools.mail_search(folder="INBOX", sender=f["requester"])["messages"]
    request = tools.mail_read(id=newest(requests)["id"])
    assert f["document"] in one_line(request["body"]), "the latest request is not for the expected document"
    surname = f["contact"].split()[-1]
    contact = next(c for c in tools.contacts_search(query=surname)["contacts"] if c["name"] == f["contact"])
    folder = f"Clients/{contact['organization']}"
    entries = tools.files_list(path=folder)["entries"]
    document = next(e["path"] for e in entries if e["path"].rsplit("/", 1)[-1] == f["filename"])
    tools.mail_send(
        to=[request["from"]],  # where they wrote from: they may not read the address on file
        subject="Re: " + re.sub(r"^(?:re:\s*)+", "", request["subject"], flags=re.IGNORECASE),
        body=f["cover"],
        attachments=[document],
        in_reply_to=request["message_id"],
    )

    # Newsletters go where their earlier issues are.
    filed = tools.mail_search(folder=f["folder"], limit=200)["messages"]
    for sender in sorted({address(m["from"]) for m in filed}):
        for issue in tools.mail_search(folder="INBOX", sender=sender, limit=200)["messages"]:
            tools.mail_move(id=issue["id"], folder=f["folder"])

    # The promise is in the last mail sent to that colleague before the leave.
    sent = tools.mail_search(folder="Sent", recipient=f["promised_to"])["messages"]
    promise = one_line(tools.mail_read(id=newest(sent)["id"])["body"])
    assert f["promise"] in promise, "the sent mail does not hold the expected promise"
    due = f["due"] or (start.date() - timedelta(days=1)).isoformat()  # "the day before the meeting"
    tools.reminders_create(title=f["reminder"], list=f["list"], due=due)
