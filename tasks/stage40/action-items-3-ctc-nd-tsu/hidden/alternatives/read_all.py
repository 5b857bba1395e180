"""Alternative solution 'read_all' for action-items-3-ctc-nd-tsu: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, timedelta


FACTS = {'minutes': 'meetings/2026-03-09 launch event planning follow-up.md',
 'lines': ['pay the catering deposit to Larkspur Catering (30 days before the event)',
           'send the final guest numbers + dietary requirements to Larkspur Catering (14 days before the '
           'event)',
           'write the run-of-show with Guilherme, by the end of next week',
           'send Guilherme the press list the day before the launch',
           'draft the welcome speech with Guilherme, a week before the launch',
           'send Guilherme the slides for the screens this Friday'],
 'event': 'Launch event',
 'window': ['2026-03-10', '2026-05-21'],
 'terms_subject': '',
 'rules': {'deposit': '[Dd]eposit[^.]*?(\\d+) days before', 'final': '[Ff]inal[^.]*?(\\d+) days before'},
 'meeting': '2026-03-09',
 'items': [{'key': 'deposit',
            'rule': 'deposit',
            'title': 'Pay the catering deposit to Larkspur Catering',
            'pattern': 'deposit'},
           {'key': 'final',
            'rule': 'final',
            'title': 'Send the final guest numbers to Larkspur Catering',
            'pattern': 'guest|final numbers|dietary'},
           {'key': 'runsheet',
            'rule': 'next_friday',
            'title': 'Write the run-of-show with Guilherme',
            'pattern': 'run.of.show'},
           {'key': 'press',
            'rule': 'day_before',
            'title': 'Send Guilherme the press list',
            'pattern': 'press'},
           {'key': 'speech',
            'rule': 'week_before',
            'title': 'Draft the welcome speech with Guilherme',
            'pattern': 'speech'},
           {'key': 'slides',
            'rule': 'this_friday',
            'title': 'Send Guilherme the slides for the screens',
            'pattern': 'slides'}],
 'list': 'Work',
 'note_title': 'Launch event – decisions and my to-dos',
 'note': 'Launch event – decisions (Mon 9 Mar)\n'
         '\n'
         '- Total budget is R$110,000.00, including the venue (Fernando signed it off).\n'
         '- Doors open at 18:00, speeches half an hour later.\n'
         '- Guest list capped at 120, press included.\n'
         '- No plus-ones for staff this time.\n'
         '\n'
         'My action items:\n'
         '- Pay the catering deposit to Larkspur Catering: {deposit}\n'
         '- Send the final guest numbers to Larkspur Catering: {final}\n'
         '- Write the run-of-show with Guilherme: {runsheet}\n'
         '- Send Guilherme the press list: {press}\n'
         '- Draft the welcome speech with Guilherme: {speech}\n'
         '- Send Guilherme the slides for the screens: {slides}\n',
 'folder': 'Notes',
 'decisions': ['Total budget is R$110,000.00, including the venue (Fernando signed it off).',
               'Doors open at 18:00, speeches half an hour later.',
               'Guest list capped at 120, press included.',
               'No plus-ones for staff this time.'],
 'name': 'launch event'}


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
