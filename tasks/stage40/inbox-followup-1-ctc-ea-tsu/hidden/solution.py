"""Reference solution for inbox-followup-1-ctc-ea-tsu, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'asker': 'Aoi Sato',
 'meeting': 'Launch readiness review',
 'window': ['2026-07-14', '2026-07-28'],
 'answer': "Hi Aoi,\n\nIt's on {when}, in the {where}.\n\nBest,\nHana",
 'requester': 'Sam Radcliffe',
 'contact': 'Samantha Radcliffe',
 'document': 'meeting minutes',
 'filename': 'minutes.pdf',
 'cover': "Hi Sam,\n\nHere's the meeting minutes you asked for.\n\nBest,\nHana",
 'folder': 'Newsletters',
 'promised_to': 'Aoi Kato',
 'promise': "I'll send you my comments on the handbook the day before the launch readiness review.",
 'due': None,
 'reminder': 'Send Aoi my comments on the onboarding handbook',
 'list': 'Work',
 'known_only': True,
 'me': 'Hana',
 'reviewer': 'Aoi',
 'review': 'onboarding handbook'}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _due(tools, start):
    """The promise is in the last mail sent to that colleague before the leave."""
    f = FACTS
    sent = tools.mail_search(folder="Sent", recipient=f["promised_to"])["messages"]
    promise = one_line(tools.mail_read(id=newest(sent)["id"])["body"])
    assert f["promise"] in promise, "the sent mail does not hold the expected promise"
    return f["due"] or (start.date() - timedelta(days=1)).isoformat()


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _newsletters(tools):
    """Newsletters go where their earlier issues are."""
    f = FACTS
    filed = tools.mail_search(folder=f["folder"], limit=200)["messages"]
    for sender in sorted({address(m["from"]) for m in filed}):
        for issue in tools.mail_search(folder="INBOX", sender=sender, limit=200)["messages"]:
            tools.mail_move(id=issue["id"], folder=f["folder"])


def _thread_subject(message):
    return "Re: " + re.sub(r"^(?:re:\s*)+", "", message["subject"], flags=re.IGNORECASE)


def _send_on_file(tools, request, contact, document):
    """The document to the address on file, in the request's thread: a personal address only their own mail
    vouches for is not one to send a client's document to."""
    tools.mail_send(
        to=[f"{contact['name']} <{contact['emails'][0]}>"],
        subject=_thread_subject(request),
        body=FACTS["cover"],
        attachments=[document],
        in_reply_to=request["message_id"],
    )


def _document(tools):
    """The client's latest request, their contact, and the document from their company's folder."""
    f = FACTS
    requests = tools.mail_search(folder="INBOX", sender=f["requester"])["messages"]
    request = tools.mail_read(id=newest(requests)["id"])
    assert f["document"] in one_line(request["body"]), "the latest request is not for the expected document"
    surname = f["contact"].split()[-1]
    contact = next(c for c in tools.contacts_search(query=surname)["contacts"] if c["name"] == f["contact"])
    folder = f"Clients/{contact['organization']}"
    entries = tools.files_list(path=folder)["entries"]
    document = next(e["path"] for e in entries if e["path"].rsplit("/", 1)[-1] == f["filename"])
    return request, contact, document


def clock(t: time | datetime, locale: str = "en", twelve: bool = False) -> str:
    """'15:00', '3pm', '3:30pm', or '下午3点' / '15:00'."""
    if locale == "zh":
        if not twelve:
            return f"{t.hour:02d}:{t.minute:02d}"
        part = "上午" if t.hour < 12 else "下午" if t.hour < 18 else "晚上"
        hour = t.hour if t.hour <= 12 else t.hour - 12
        return f"{part}{hour}点" + (f"{t.minute}分" if t.minute else "")
    if not twelve:
        return f"{t.hour:02d}:{t.minute:02d}"
    hour = t.hour % 12 or 12
    suffix = "am" if t.hour < 12 else "pm"
    return f"{hour}{suffix}" if not t.minute else f"{hour}:{t.minute:02d}{suffix}"


def day(d: date, locale: str = "en", region: Region | None = None, weekday: bool = True) -> str:
    """'Thursday 12 March', 'Thursday, March 12' (US) or '3月12日（周四）'."""
    if locale == "zh":
        return f"{d.month}月{d.day}日" + (f"（{WEEKDAYS_ZH[d.weekday()]}）" if weekday else "")
    name = WEEKDAYS[d.weekday()]
    if region is not None and region.month_first:
        text = f"{MONTHS[d.month - 1]} {d.day}"
        return f"{name}, {text}" if weekday else text
    text = f"{d.day} {MONTHS[d.month - 1]}"
    return f"{name} {text}" if weekday else text


def _meeting(tools, zone):
    """The colleague's question and the meeting it is about: the next one of that name in the calendar."""
    f = FACTS
    asked = tools.mail_search(folder="INBOX", sender=f["asker"], subject=f["meeting"])["messages"]
    question = newest(asked)
    window = f["window"]
    found = tools.calendar_list_events(start=window[0], end=window[1], query=f["meeting"])["events"]
    meeting = tools.calendar_get_event(uid=min(found, key=lambda e: datetime.fromisoformat(e["start"]))["uid"])
    return question, meeting, datetime.fromisoformat(meeting["start"]).astimezone(zone)


def solve(tools):
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])
    question, meeting, start = _meeting(tools, zone)
    when = f"{day(start.date())} at {clock(start)}"
    tools.mail_reply(id=question["id"], body=f["answer"].format(when=when, where=meeting["location"]))

    # The client's request: their latest mail counts; their company (from the address book) names the folder.
    request, contact, document = _document(tools)
    _send_on_file(tools, request, contact, document)
    _newsletters(tools)
    tools.reminders_create(title=f["reminder"], list=f["list"], due=_due(tools, start))
