"""Reference solution for action-items-1-csc-hd-tsu, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, timedelta


FACTS = {'minutes': 'meetings/2026-03-24 offsite planning follow-up.md',
 'lines': ['pay the 30% deposit to Fernhill Lodge (their terms; the deadline moves with the dates)',
           'send the final headcount + dietary requirements to Fernhill Lodge (their deadline, see the '
           'booking terms)',
           'send the team the pre-offsite survey by the end of next week',
           'send Thu the updated budget sheet the day before the offsite',
           'draft the agenda with Thu, this Friday',
           'plan the icebreaker session with Thu, a week before the offsite'],
 'event': 'Team offsite',
 'window': ['2026-03-25', '2026-06-02'],
 'terms_subject': 'Booking confirmation – Halcyon Analytics group',
 'rules': {'deposit': '[Dd]eposit[^.]*?(\\d+) days before', 'final': '[Ff]inal[^.]*?(\\d+) days before'},
 'meeting': '2026-03-24',
 'items': [{'key': 'deposit',
            'rule': 'deposit',
            'title': 'Pay the deposit to Fernhill Lodge',
            'pattern': 'deposit'},
           {'key': 'final',
            'rule': 'final',
            'title': 'Send the final headcount and dietary needs to Fernhill Lodge',
            'pattern': 'head\\s*-?count|dietary'},
           {'key': 'survey',
            'rule': 'next_friday',
            'title': 'Send the team the pre-offsite survey',
            'pattern': 'survey'},
           {'key': 'budget',
            'rule': 'day_before',
            'title': 'Send Thu the updated budget sheet',
            'pattern': 'budget'},
           {'key': 'agenda',
            'rule': 'this_friday',
            'title': 'Draft the offsite agenda with Thu',
            'pattern': 'agenda'},
           {'key': 'icebreaker',
            'rule': 'week_before',
            'title': 'Plan the icebreaker session with Thu',
            'pattern': 'icebreaker'}],
 'list': 'Work',
 'note_title': 'Offsite – decisions and my to-dos',
 'note': 'Offsite – decisions (Tue 24 Mar)\n'
         '\n'
         "- Budget cap stays at A$3,000.00 per person all-in (Jing OK'd it).\n"
         '- Chartered bus from the office, 08:00 departure on day 1.\n'
         '- Day 2 afternoon is free time, no sessions after lunch.\n'
         '- No partners / +1s this year.\n',
 'folder': 'Notes',
 'decisions': ["Budget cap stays at A$3,000.00 per person all-in (Jing OK'd it).",
               'Chartered bus from the office, 08:00 departure on day 1.',
               'Day 2 afternoon is free time, no sessions after lunch.',
               'No partners / +1s this year.'],
 'name': 'offsite'}


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def _due(rule: str, start: date, meeting: date, days: dict[str, int]) -> date:
    """A deadline in words as a date: relative to the event's (new) start or to the meeting."""
    if rule in days:
        return start - timedelta(days=days[rule])
    if rule == "friday_before":
        return start - timedelta(days=(start.weekday() - 4) % 7 or 7)
    if rule == "this_friday":
        return meeting + timedelta(days=(4 - meeting.weekday()) % 7)
    if rule == "next_friday":
        return meeting + timedelta(days=(4 - meeting.weekday()) % 7 + 7)
    if rule == "day_before":
        return start - timedelta(days=1)
    return start - timedelta(days=7)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _dues(tools, weekend=False):
    """Each of the user's action items with its due date; with `weekend`, "by the end of next week" is read
    as that week's Sunday."""
    f = FACTS
    minutes = one_line(tools.files_read(path=f["minutes"])["content"])
    for line in f["lines"]:
        assert line in minutes, f"the minutes do not say {line!r}"

    # The event as it stands now: a cancelled invite for the old dates may sit next to it.
    window = f["window"]
    found = tools.calendar_list_events(start=window[0], end=window[1], query=f["event"])["events"]
    event = tools.calendar_get_event(uid=next(e["uid"] for e in found if e["status"] != "CANCELLED"))
    start = date.fromisoformat(event["start"][:10])

    # The vendor's deadlines, in days before the event: in their booking mail or in the minutes.
    terms = minutes
    if f["terms_subject"]:
        booking = tools.mail_search(subject=f["terms_subject"])["messages"][0]
        terms = one_line(tools.mail_read(id=booking["id"])["body"])
    days = {rule: int(re.search(pattern, terms).group(1)) for rule, pattern in f["rules"].items()}

    meeting = date.fromisoformat(f["meeting"])
    dues = {}
    for item in f["items"]:
        dues[item["key"]] = _due(item["rule"], start, meeting, days)
        if weekend and item["rule"] == "next_friday":
            dues[item["key"]] += timedelta(days=2)
    return dues


def solve(tools):
    f = FACTS
    dues = _dues(tools)
    work = every(tools.reminders_list, "reminders", list=f["list"])
    for item in f["items"]:
        due = dues[item["key"]].isoformat()
        stale = next((t for t in work if re.search(item["pattern"], t["title"], re.IGNORECASE)), None)
        if stale is not None:  # already a reminder from the first meeting, with the old date
            tools.reminders_update(uid=stale["uid"], due=due)
        else:
            tools.reminders_create(title=item["title"], list=f["list"], due=due)

    shown = {key: f"{d:%a} {d.day} {d:%B}" for key, d in dues.items()}
    tools.notes_create(title=f["note_title"], body=f["note"].format(**shown), folder=f["folder"])
