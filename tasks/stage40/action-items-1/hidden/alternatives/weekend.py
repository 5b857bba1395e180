"""Alternative solution 'weekend' for action-items-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, timedelta


FACTS = {'minutes': 'meetings/2026-09-29 conference booth planning follow-up.md',
 'lines': ['pay the stand deposit to Mosaic Exhibits (their terms; the deadline moves with the dates)',
           'send the final print files for the walls to Mosaic Exhibits (their deadline, see the booking '
           'terms)',
           'send Elin the stand rota the day before the fair',
           'send Elin the travel budget by the end of next week',
           'set up the lead-capture form with Elin, a week before the fair',
           'prepare the demo script with Elin, this Friday'],
 'event': 'Expo booth',
 'window': ['2026-09-30', '2026-12-08'],
 'terms_subject': 'Booking confirmation – Quillfeather Robotics group',
 'rules': {'deposit': '[Dd]eposit[^.]*?(\\d+) days before', 'final': '[Ff]inal[^.]*?(\\d+) days before'},
 'meeting': '2026-09-29',
 'items': [{'key': 'deposit',
            'rule': 'deposit',
            'title': 'Pay the stand deposit to Mosaic Exhibits',
            'pattern': 'deposit'},
           {'key': 'final',
            'rule': 'final',
            'title': 'Send the final print files to Mosaic Exhibits',
            'pattern': 'print files|artwork'},
           {'key': 'rota',
            'rule': 'day_before',
            'title': 'Send Elin the stand rota',
            'pattern': '\\brota\\b'},
           {'key': 'travel',
            'rule': 'next_friday',
            'title': 'Send Elin the travel budget',
            'pattern': 'travel'},
           {'key': 'leads',
            'rule': 'week_before',
            'title': 'Set up the lead-capture form with Elin',
            'pattern': 'lead.capture'},
           {'key': 'demo',
            'rule': 'this_friday',
            'title': 'Prepare the demo script with Elin',
            'pattern': 'demo'}],
 'list': 'Work',
 'note_title': 'Conference booth – decisions and my to-dos',
 'note': 'Conference booth – decisions (Tue 29 Sep)\n'
         '\n'
         '- Budget for the stand is 220,000.00 kr all-in (Katarina approved it).\n'
         '- Stand opens at 09:30 each day; two people on the stand at all times.\n'
         '- Booth size stays at 6 x 4 m.\n'
         '- No printed brochures, QR codes only.\n'
         '\n'
         'My action items:\n'
         '- Pay the stand deposit to Mosaic Exhibits: {deposit}\n'
         '- Send the final print files to Mosaic Exhibits: {final}\n'
         '- Send Elin the stand rota: {rota}\n'
         '- Send Elin the travel budget: {travel}\n'
         '- Set up the lead-capture form with Elin: {leads}\n'
         '- Prepare the demo script with Elin: {demo}\n',
 'folder': 'Notes',
 'decisions': ['Budget for the stand is 220,000.00 kr all-in (Katarina approved it).',
               'Stand opens at 09:30 each day; two people on the stand at all times.',
               'Booth size stays at 6 x 4 m.',
               'No printed brochures, QR codes only.'],
 'name': 'conference booth'}


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


def solve_weekend(tools):
    """Reads "by the end of next week" as its Sunday, replaces each stale reminder with a new one (deleted,
    then created) and writes the note first, with ISO dates."""
    f = FACTS
    dues = _dues(tools, weekend=True)
    tools.notes_create(
        title=f"{f['name'].capitalize()}: notes",
        body="Decided:\n"
        + "".join(f"* {d}\n" for d in f["decisions"])
        + "".join(f"* TODO {i['title']} by {dues[i['key']].isoformat()}\n" for i in f["items"]),
        folder=f["folder"],
    )
    work = every(tools.reminders_list, "reminders", list=f["list"], limit=10)
    for item in f["items"]:
        stale = next((t for t in work if re.search(item["pattern"], t["title"], re.IGNORECASE)), None)
        if stale is not None:
            tools.reminders_delete(uid=stale["uid"])
        tools.reminders_create(title=f"TODO: {item['title']}", list=f["list"], due=dues[item["key"]].isoformat())


solve = solve_weekend
