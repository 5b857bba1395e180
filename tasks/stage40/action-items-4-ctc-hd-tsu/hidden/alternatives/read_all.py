"""Alternative solution 'read_all' for action-items-4-ctc-hd-tsu: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, timedelta


FACTS = {'minutes': 'meetings/2026-01-28 conference booth planning follow-up.md',
 'lines': ['pay the stand deposit to Kestrel Exhibits (their terms; the deadline moves with the dates)',
           'send the final print files for the walls to Kestrel Exhibits (their deadline, see the booking '
           'terms)',
           'prepare the demo script with Obinna, by the end of next week',
           'send Obinna the travel budget this Friday',
           'set up the lead-capture form with Obinna, a week before the fair',
           'send Obinna the stand rota the day before the fair'],
 'event': 'Expo booth',
 'window': ['2026-01-29', '2026-04-11'],
 'terms_subject': 'Booking confirmation – Alder Health group',
 'rules': {'deposit': '[Dd]eposit[^.]*?(\\d+) days before', 'final': '[Ff]inal[^.]*?(\\d+) days before'},
 'meeting': '2026-01-28',
 'items': [{'key': 'deposit',
            'rule': 'deposit',
            'title': 'Pay the stand deposit to Kestrel Exhibits',
            'pattern': 'deposit'},
           {'key': 'final',
            'rule': 'final',
            'title': 'Send the final print files to Kestrel Exhibits',
            'pattern': 'print files|artwork'},
           {'key': 'demo',
            'rule': 'next_friday',
            'title': 'Prepare the demo script with Obinna',
            'pattern': 'demo'},
           {'key': 'travel',
            'rule': 'this_friday',
            'title': 'Send Obinna the travel budget',
            'pattern': 'travel'},
           {'key': 'leads',
            'rule': 'week_before',
            'title': 'Set up the lead-capture form with Obinna',
            'pattern': 'lead.capture'},
           {'key': 'rota',
            'rule': 'day_before',
            'title': 'Send Obinna the stand rota',
            'pattern': '\\brota\\b'}],
 'list': 'Work',
 'note_title': 'Conference booth – decisions and my to-dos',
 'note': 'Conference booth – decisions (Wed 28 Jan)\n'
         '\n'
         '- Budget for the stand is ₦35,000,000.00 all-in (Chukwuemeka approved it).\n'
         '- Stand opens at 09:00 each day; two people on the stand at all times.\n'
         '- Booth size stays at 6 x 4 m.\n'
         '- No printed brochures, QR codes only.\n'
         '\n'
         'My action items:\n'
         '- Pay the stand deposit to Kestrel Exhibits: {deposit}\n'
         '- Send the final print files to Kestrel Exhibits: {final}\n'
         '- Prepare the demo script with Obinna: {demo}\n'
         '- Send Obinna the travel budget: {travel}\n'
         '- Set up the lead-capture form with Obinna: {leads}\n'
         '- Send Obinna the stand rota: {rota}\n',
 'folder': 'Notes',
 'decisions': ['Budget for the stand is ₦35,000,000.00 all-in (Chukwuemeka approved it).',
               'Stand opens at 09:00 each day; two people on the stand at all times.',
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


def solve_read_all(tools):
    """Reads every file of the minutes' folder and lists every reminder before acting; the note gives the dates
    as '19 June 2026'."""
    f = FACTS
    folder = f["minutes"].rsplit("/", 1)[0] if "/" in f["minutes"] else ""
    for entry in every(tools.files_list, "entries", path=folder):
        if entry["type"] == "file" and entry["path"].endswith((".md", ".txt")):
            tools.files_read(path=entry["path"])
    dues = _dues(tools)
    work = every(tools.reminders_list, "reminders", include_completed=True)
    for item in f["items"]:
        due = dues[item["key"]].isoformat()
        stale = next(
            (
                t
                for t in work
                if t["list"] == f["list"] and not t["completed"] and re.search(item["pattern"], t["title"], re.I)
            ),
            None,
        )
        if stale is not None:
            tools.reminders_update(uid=stale["uid"], due=due, title=item["title"])
        else:
            tools.reminders_create(title=item["title"], list=f["list"], due=due)
    shown = {key: f"{d.day} {d:%B %Y}" for key, d in dues.items()}
    tools.notes_create(title=f["note_title"], body=f["note"].format(**shown), folder=f["folder"])


solve = solve_read_all
