"""Reference solution for project-tracker-2-csc-ea-tsu, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'plan': 'Back garden makeover – plan',
 'list': 'Home',
 'done': [{'surname': 'Rousseau',
           'subject': 'Clearance done',
           'says': "The beds are cleared and the green waste has gone, so it's all ready for the next lot.",
           'pattern': '\\bclear'},
          {'surname': 'Fontana',
           'subject': 'All done',
           'says': "All done at yours today, it's all laid and backfilled. The spare pipe is behind the "
                   'shed.',
           'pattern': 'drain'}],
 'delay': {'surname': 'Bianchi',
           'subject': 'Re: Concrete base – new date',
           'says': 'Tuesday 25 August',
           'date': '2026-08-25',
           'pattern': 'concrete|\\bbase\\b'},
 'follows': None,
 'ask': {'surname': 'Dubois',
         'subject': 'Fence stain',
         'says': 'Friday 21 August',
         'date': '2026-08-21',
         'title': 'Back garden: choose the fence stain',
         'line': 'Choose the fence stain'},
 'note': False,
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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _catch_up(tools, annotate=False, box="[x]", recreate=False, read_all=False, title=None, first=False):
    """Ticks the finished jobs, moves the late ones, adds what the user must choose, in the reminders and
    (with cross_tool_consistency) in the plan note. The options are what people do differently: keep the
    old date as "(was ...)", tick with another mark, delete and re-create a moved reminder, read the whole
    inbox first, word the new reminder otherwise, put the new line first in the checklist."""
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

    def reminder(pattern):
        return next(t for t in todo if re.search(pattern, t["title"], re.IGNORECASE))

    def latest(sender):
        found = tools.mail_search(folder="INBOX", sender=sender["surname"], subject=sender["subject"])["messages"]
        message = tools.mail_read(id=newest(found)["id"])  # a later mail changes what an earlier one said
        assert sender["says"] in one_line(message["body"]), f"{sender['surname']}'s mail is not the expected one"
        return message

    # Whoever says they are finished: their job is the plan line with their name, whatever they sign with.
    for job in f["done"]:
        latest(job)
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

    ask = f["ask"]
    latest(ask)
    by = date.fromisoformat(ask["date"])
    checklist = [i for i, line in enumerate(lines) if line.startswith("- [")]
    at = checklist[0] if first else checklist[-1] + 1
    lines.insert(at, f"- [ ] {ask['line']} – me – {plan_day(by, f['month_first'])}")
    tools.reminders_create(title=title or ask["title"], list=f["list"], due=by.isoformat())
    if f["note"]:
        tools.notes_update(uid=plan["uid"], body="\n".join(lines))


def solve(tools):
    _catch_up(tools)
