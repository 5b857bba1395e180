"""Alternative solution 'read_all' for project-tracker-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'plan': 'Kitchen renovation – plan',
 'list': 'Home',
 'calendar': 'Personal',
 'done': [{'surname': 'Peng',
           'subject': 'Strip-out done',
           'says': "The old kitchen is all out and the skip went this afternoon, so the room's clear for the "
                   'next trade.',
           'pattern': 'strip'},
          {'surname': 'Fairbanks',
           'subject': 'Finished at yours',
           'says': "All finished at yours today, everything's tested and signed off. I've left the spare "
                   'bits in the garage.',
           'pattern': 'electric'}],
 'delay': {'surname': 'Feng',
           'subject': 'Re: Plastering – new date',
           'says': 'Tuesday 3 March',
           'date': '2026-03-03',
           'pattern': 'plaster'},
 'sheet': {'surname': 'Lee',
           'subject': 'Your worktop',
           'says': 'Wednesday 18 March',
           'date': '2026-03-18',
           'pattern': 'worktop'},
 'confirmed': {'surname': 'Langley', 'subject': 'Plumbing on Tuesday 24 March', 'says': 'Tuesday 24 March'},
 'follows': {'quotes': 'Kitchen – quotes',
             'pattern': 'paint',
             'rule': 'Starts (\\d+) working days after the plastering'},
 'asks': [{'surname': 'Caldwell',
           'subject': 'Handles',
           'says': 'Thursday 26 February',
           'date': '2026-02-26',
           'title': 'Kitchen: choose the cabinet handles',
           'line': 'Choose the cabinet handles',
           'pattern': 'handle'},
          {'surname': 'Chatterjee',
           'subject': 'Grout',
           'says': 'Tuesday 3 March',
           'date': '2026-03-03',
           'title': 'Kitchen: choose the grout colour',
           'line': 'Choose the grout colour',
           'pattern': 'grout'}],
 'note': True,
 'month_first': False}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
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
DAY = r"\w{3} (?:\d{1,2} \w{3}|\w{3} \d{1,2})$"


def plan_day(d: date, month_first: bool) -> str:
    """How the plan writes a date: 'Tue 17 Mar', or 'Tue Mar 17' where the month comes first."""
    month = MONTHS[d.month - 1][:3]
    return f"{WEEKDAYS[d.weekday()][:3]} " + (f"{month} {d.day}" if month_first else f"{d.day} {month}")


def _plan_line(lines, pattern):
    return next(i for i, line in enumerate(lines) if re.search(pattern, line, re.IGNORECASE))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def workday(d: date, n: int) -> date:
    """The n-th working day (Monday to Friday) after `d` (before it for negative n)."""
    step = 1 if n >= 0 else -1
    left = abs(n)
    while left:
        d += timedelta(days=step)
        if d.weekday() < 5:
            left -= 1
    return d


def _read_note(tools, title):
    found = tools.notes_search(query=title)["notes"]
    return tools.notes_read(uid=next(n["uid"] for n in found if n["title"] == title))


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _catch_up(
    tools, annotate=False, box="[x]", recreate=False, read_all=False, titles=None, first=False, save="Downloads/"
):
    """Ticks the finished jobs, moves the late ones (reminder, calendar day, plan line), gives the user's own
    reminder about the first choice its date and adds one for the second, in the reminders, the calendar and
    (with cross_tool_consistency) the plan note. The options are what people do differently: keep the old
    date as "(was ...)", tick with another mark, delete and re-create what moves, read the whole inbox first,
    word the new reminders otherwise, put the new lines first in the checklist, save the job sheet elsewhere."""
    f = FACTS
    if read_all:  # every message of the last fortnight, page after page
        since = (date.fromisoformat(tools.now()["now"][:10]) - timedelta(days=14)).isoformat()
        cursor = None
        while True:
            page = tools.mail_search(folder="INBOX", since=since, limit=20, **({"cursor": cursor} if cursor else {}))
            for message in page["messages"]:
                tools.mail_read(id=message["id"])
            cursor = page.get("next_cursor")
            if not cursor:
                break
    plan = _read_note(tools, f["plan"])
    lines = plan["body"].split("\n")
    todo = tools.reminders_list(list=f["list"])["reminders"]
    today = date.fromisoformat(tools.now()["now"][:10])
    days = tools.calendar_list_events(
        start=today.isoformat(), end=(today + timedelta(days=60)).isoformat(), calendar=f["calendar"]
    )["events"]

    def reminder(pattern):
        found = [t for t in todo if re.search(pattern, t["title"], re.IGNORECASE)]
        return found[0] if found else None

    def latest(sender):
        found = tools.mail_search(folder="INBOX", sender=sender["surname"], subject=sender["subject"])["messages"]
        message = tools.mail_read(id=newest(found)["id"])  # a later mail changes what an earlier one said
        if not message.get("attachments"):
            assert sender["says"] in one_line(message["body"]), f"{sender['surname']}'s mail is not the expected one"
        return message

    # Whoever says they are finished: their job is the plan line with their name, whatever they sign with.
    for job in f["done"]:
        message = latest(job)
        if job["surname"].lower() not in message["from"].split("<")[-1].lower():  # a private address: who is it?
            tools.contacts_search(query=job["surname"])
        i = next(i for i, line in enumerate(lines) if line.startswith("- [") and job["surname"] in line)
        lines[i] = lines[i].replace("[ ]", box, 1)
        tools.reminders_complete(uid=reminder(job["pattern"])["uid"])

    delay = f["delay"]
    latest(delay)
    finished = date.fromisoformat(delay["date"])
    moves = {delay["pattern"]: finished}
    follows = f["follows"]
    if follows:  # the job that waits for it: how long is only in the quotes
        quotes = one_line(_read_note(tools, follows["quotes"])["body"])
        moves[follows["pattern"]] = workday(finished, int(re.search(follows["rule"], quotes).group(1)))
    sheet = f["sheet"]  # the mail says the day moved; the job sheet it attaches says to when
    message = latest(sheet)
    saved = tools.mail_save_attachment(id=message["id"], path=save)["path"]
    assert sheet["says"] in one_line(tools.files_read(path=saved)["content"]), "the job sheet is not the expected one"
    moves[sheet["pattern"]] = date.fromisoformat(sheet["date"])
    for pattern, when in moves.items():
        i = _plan_line(lines, pattern)
        new = plan_day(when, f["month_first"])
        old = re.search(DAY, lines[i].rstrip()).group(0)
        lines[i] = re.sub(DAY, f"{new} (was {old})" if annotate else new, lines[i].rstrip())
        stale = reminder(pattern)
        if recreate:
            tools.reminders_delete(uid=stale["uid"])
            tools.reminders_create(title=stale["title"], list=f["list"], due=when.isoformat())
        else:
            tools.reminders_update(uid=stale["uid"], due=when.isoformat())
        # The trade's day in the calendar moves with it, at the same times.
        event = next(e for e in days if re.search(pattern, e["summary"], re.IGNORECASE))
        shift = when - date.fromisoformat(event["start"][:10])
        start, end = ((datetime.fromisoformat(event[k]) + shift).isoformat() for k in ("start", "end"))
        if recreate:
            tools.calendar_delete_event(uid=event["uid"])
            tools.calendar_create_event(summary=event["summary"], start=start, end=end, calendar=f["calendar"])
        else:
            tools.calendar_update_event(uid=event["uid"], start=start, end=end)

    latest(f["confirmed"])  # the last trade only confirms their day: nothing to change
    checklist = [i for i, line in enumerate(lines) if line.startswith("- [")]
    at = checklist[0] if first else checklist[-1] + 1
    for n, ask in enumerate(f["asks"]):
        latest(ask)
        by = date.fromisoformat(ask["date"])
        lines.insert(at + n, f"- [ ] {ask['line']} – me – {plan_day(by, f['month_first'])}")
        title = titles[n] if titles else ask["title"]
        mine = reminder(ask["pattern"])  # the user may have noted it already, without a date
        if mine is None:
            tools.reminders_create(title=title, list=f["list"], due=by.isoformat())
        elif recreate:
            tools.reminders_delete(uid=mine["uid"])
            tools.reminders_create(title=title, list=f["list"], due=by.isoformat())
        else:
            tools.reminders_update(uid=mine["uid"], due=by.isoformat(), **({"title": title} if titles else {}))
    if f["note"]:
        tools.notes_update(uid=plan["uid"], body="\n".join(lines))


def solve_read_all(tools):
    """Reads the last fortnight's inbox first (paging), ticks with a check mark, words the new reminders its own
    way (renaming the user's own) and puts the new jobs at the top of the checklist."""
    f = FACTS
    titles = [f"{a['line']} (by {a['date']})" for a in f["asks"]]
    _catch_up(tools, box="[✓]", read_all=True, titles=titles, first=True)


solve = solve_read_all
