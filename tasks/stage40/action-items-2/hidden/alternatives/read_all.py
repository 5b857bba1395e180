"""Alternative solution 'read_all' for action-items-2: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'minutes': 'meetings/2026-04-29 launch event planning follow-up.md',
 'lines': ['pay the catering deposit to Cobalt Catering (their terms; the deadline moves with the dates)',
           'send the final guest numbers + dietary requirements to Cobalt Catering (their deadline, see the '
           'booking terms)',
           'send Venkatesh the slides for the screens by the end of next week',
           'draft the welcome speech with Venkatesh, the day before the launch',
           'write the run-of-show with Venkatesh, this Friday'],
 'event': 'Launch event',
 'window': ['2026-04-30', '2026-07-28'],
 'terms_subject': 'Booking confirmation – Lumen Robotics group',
 'rules': {'deposit': '[Dd]eposit[^.]*?(\\d+) days before', 'final': '[Ff]inal[^.]*?(\\d+) days before'},
 'meeting': '2026-04-29',
 'items': [{'key': 'deposit',
            'rule': 'deposit',
            'title': 'Pay the catering deposit to Cobalt Catering',
            'pattern': 'deposit'},
           {'key': 'final',
            'rule': 'final',
            'title': 'Send the final guest numbers to Cobalt Catering',
            'pattern': 'guest|final numbers|dietary'},
           {'key': 'slides',
            'rule': 'next_friday',
            'title': 'Send Venkatesh the slides for the screens',
            'pattern': 'slides'},
           {'key': 'speech',
            'rule': 'day_before',
            'title': 'Draft the welcome speech with Venkatesh',
            'pattern': 'speech'},
           {'key': 'runsheet',
            'rule': 'this_friday',
            'title': 'Write the run-of-show with Venkatesh',
            'pattern': 'run.of.show'}],
 'list': 'Work',
 'note_title': 'Launch event – decisions and my to-dos',
 'note': 'Launch event – decisions (Wed 29 Apr)\n'
         '\n'
         '- Total budget is S$34,000.00, including the venue (Yong signed it off).\n'
         '- Doors open at 18:30, speeches half an hour later.\n'
         '- Guest list capped at 120, press included.\n'
         '- No plus-ones for staff this time.\n'
         '\n'
         'My action items:\n'
         '- Pay the catering deposit to Cobalt Catering: {deposit}\n'
         '- Send the final guest numbers to Cobalt Catering: {final}\n'
         '- Send Venkatesh the slides for the screens: {slides}\n'
         '- Draft the welcome speech with Venkatesh: {speech}\n'
         '- Write the run-of-show with Venkatesh: {runsheet}\n',
 'folder': 'Notes',
 'rules_note': 'How I set my work reminders',
 'prep': 'Prep for the launch',
 'decisions': ['Total budget is S$34,000.00, including the venue (Yong signed it off).',
               'Doors open at 18:30, speeches half an hour later.',
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


def _the_event(tools):
    """The event's entries (the current one, and the cancelled old dates when it moved): titled as the event."""
    f = FACTS
    found = tools.calendar_list_events(start=f["window"][0], end=f["window"][1], query=f["event"])["events"]
    return [e for e in found if e["summary"].startswith(f["event"])]


def _move_prep(tools):
    """Rule 5 of the user's rules: the block to prepare for the event moves with it, the same days before."""
    f = FACTS
    if not f["prep"]:
        return
    window = f["window"]
    found = _the_event(tools)
    old = next(e for e in found if e["status"] == "CANCELLED")
    new = next(e for e in found if e["status"] != "CANCELLED")
    block = tools.calendar_list_events(start=window[0], end=window[1], query=f["prep"])["events"][0]
    shift = date.fromisoformat(new["start"][:10]) - date.fromisoformat(old["start"][:10])
    # the same local time of day (a clock change may lie between the old and the new day)
    moved = {k: (datetime.fromisoformat(block[k][:19]) + shift).isoformat() for k in ("start", "end")}
    tools.calendar_update_event(uid=block["uid"], **moved)


def remind_on(rule: str, deadline: date, lead: int | None) -> date:
    """The day the reminder is due under the user's rules (none when `lead` is None): a supplier's deadline
    `lead` days early, then off the weekend to the Friday before, except the day before the event."""
    if lead is None:
        return deadline
    day = deadline - timedelta(days=lead) if rule in ("deposit", "final") else deadline
    if rule == "day_before":
        return day
    return day - timedelta(days=max(0, day.weekday() - 4))


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


def _lead(tools) -> int | None:
    """The days before a supplier's deadline the user's rules note asks for, when it is in the task."""
    if not FACTS["rules_note"]:
        return None
    note = tools.notes_search(query=FACTS["rules_note"])["notes"][0]
    return int(re.search(r"remind me (\d+) calendar days before", one_line(note["body"])).group(1))


def _dues(tools, weekend=False):
    """Each of the user's action items with its due date under the user's rules; with `weekend`, "by the end
    of next week" is read as that week's Sunday (which the weekend rule, when there is one, brings back)."""
    f = FACTS
    minutes = one_line(tools.files_read(path=f["minutes"])["content"])
    for line in f["lines"]:
        assert line in minutes, f"the minutes do not say {line!r}"

    # The event as it stands now: a cancelled invite for the old dates may sit next to it.
    found = _the_event(tools)
    event = tools.calendar_get_event(uid=next(e["uid"] for e in found if e["status"] != "CANCELLED"))
    start = date.fromisoformat(event["start"][:10])

    # The vendor's deadlines, in days before the event: in their booking mail or in the minutes.
    terms = minutes
    if f["terms_subject"]:
        booking = tools.mail_search(subject=f["terms_subject"])["messages"][0]
        terms = one_line(tools.mail_read(id=booking["id"])["body"])
    days = {rule: int(re.search(pattern, terms).group(1)) for rule, pattern in f["rules"].items()}

    meeting = date.fromisoformat(f["meeting"])
    lead = _lead(tools)
    dues = {}
    for item in f["items"]:
        deadline = _due(item["rule"], start, meeting, days)
        if weekend and item["rule"] == "next_friday":
            deadline += timedelta(days=2)
        dues[item["key"]] = remind_on(item["rule"], deadline, lead)
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
    _move_prep(tools)
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
        if stale is not None and (stale.get("due") or "")[:10] == due:
            continue
        if stale is not None:
            tools.reminders_update(uid=stale["uid"], due=due, title=item["title"])
        else:
            tools.reminders_create(title=item["title"], list=f["list"], due=due)
    shown = {key: f"{d.day} {d:%B %Y}" for key, d in dues.items()}
    tools.notes_create(title=f["note_title"], body=f["note"].format(**shown), folder=f["folder"])


solve = solve_read_all
