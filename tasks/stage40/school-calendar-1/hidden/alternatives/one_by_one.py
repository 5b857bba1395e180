"""Alternative solution 'one_by_one' for school-calendar-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'me': 'Yasmin',
 'child': 'Leila',
 'school': 'schooloffice@northfield.sch.uk',
 'letter': 'Summer term 2026 - key dates.pdf',
 'stated': ['Monday 13 April: INSET day, school closed to pupils',
            'Tuesday 14 April: INSET day, school closed to pupils',
            'Wednesday 15 April: first day of term for pupils',
            'Monday 4 May: bank holiday, school closed'],
 'corrected': ['Friday 8 May', 'Friday 22 May'],
 'rules': 'Documents/Family/School calendar - how we do it.md',
 'other': 'Vicky',
 'family': 'Farah',
 'entries': [{'kind': 'inset',
              'title': 'INSET day (school closed)',
              'pattern': '\\bINSET\\b|training day|staff training|teacher training|closed to pupils',
              'first': '2026-04-13',
              'last': '2026-04-13'},
             {'kind': 'inset',
              'title': 'INSET day (school closed)',
              'pattern': '\\bINSET\\b|training day|staff training|teacher training|closed to pupils',
              'first': '2026-04-14',
              'last': '2026-04-14'},
             {'kind': 'start',
              'title': 'First day of term',
              'pattern': 'first day|term (?:starts|begins)|start of term|back to school|school starts',
              'first': '2026-04-15',
              'last': '2026-04-15'},
             {'kind': 'bank_holiday',
              'title': 'Bank holiday (school closed)',
              'pattern': 'bank holiday',
              'first': '2026-05-04',
              'last': '2026-05-04'},
             {'kind': 'inset',
              'title': 'INSET day (school closed)',
              'pattern': '\\bINSET\\b|training day|staff training|teacher training|closed to pupils',
              'first': '2026-05-08',
              'last': '2026-05-08'},
             {'kind': 'fair',
              'title': 'Book fair',
              'pattern': 'book fair',
              'first': '2026-05-13',
              'last': '2026-05-13',
              'start': '15:15',
              'end': '16:15'},
             {'kind': 'half_term',
              'title': 'Half term (school closed)',
              'pattern': 'half[- ]?term',
              'first': '2026-05-25',
              'last': '2026-05-29'},
             {'kind': 'day',
              'title': 'Transition morning',
              'pattern': 'transition|new class|moving up',
              'first': '2026-06-05',
              'last': '2026-06-05'},
             {'kind': 'trip',
              'title': 'Class trip: the wildlife park',
              'pattern': '\\btrip\\b|wildlife\\ park',
              'first': '2026-06-11',
              'last': '2026-06-11'},
             {'kind': 'evening',
              'title': "Parents' evening",
              'pattern': "parents'?\\s*evening|parent[- ]teacher",
              'first': '2026-06-23',
              'last': '2026-06-23',
              'start': '15:45',
              'end': '18:45'},
             {'kind': 'evening',
              'title': "Parents' evening",
              'pattern': "parents'?\\s*evening|parent[- ]teacher",
              'first': '2026-06-25',
              'last': '2026-06-25',
              'start': '15:45',
              'end': '18:45'},
             {'kind': 'assembly',
              'title': 'Class assembly',
              'pattern': 'assembly',
              'first': '2026-07-03',
              'last': '2026-07-03',
              'start': '09:00',
              'end': '09:30'},
             {'kind': 'day',
              'title': 'Non-uniform day',
              'pattern': 'non[- ]?uniform',
              'first': '2026-07-08',
              'last': '2026-07-08'},
             {'kind': 'show',
              'title': 'Sports day',
              'pattern': 'sports day',
              'first': '2026-07-21',
              'last': '2026-07-21',
              'start': '13:15',
              'end': '15:00'},
             {'kind': 'end',
              'title': 'Last day of term (early finish)',
              'pattern': 'last day|end of term|term ends|breaks up|early finish',
              'first': '2026-07-22',
              'last': '2026-07-22',
              'early': {'start': '13:30', 'end': '14:00'}}],
 'payments': [{'key': 'trip',
               'what': 'the trip to the wildlife park',
               'pattern': '\\btrip\\b|wildlife\\ park',
               'amount': '£10.50',
               'remind': '2026-05-15',
               'due': '2026-05-22'},
              {'key': 'second',
               'what': 'Class photos',
               'pattern': 'photo',
               'amount': '£15.00',
               'remind': '2026-04-24',
               'due': '2026-05-01'},
              {'key': 'club',
               'what': 'Chess club (summer term)',
               'pattern': 'Chess|club',
               'amount': '£28.00',
               'remind': '2026-04-17',
               'due': '2026-04-20'}],
 'calendar': 'Family',
 'list': 'Family'}
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


def _trip(f):
    """The trip's payment, which the co-parent makes (the rules' exception): a line for the mail to them."""
    pay = next(p for p in f["payments"] if p["key"] == "trip")
    return (
        f"- {pay['what'][0].upper()}{pay['what'][1:]}: {pay['amount']}, to pay by {day(date.fromisoformat(pay['due']))}"
    )


def _twelve(clock):
    hour, minute = (int(x) for x in clock.split(":"))
    return f"{hour % 12 or 12}{'' if not minute else f'.{minute:02d}'}{'am' if hour < 12 else 'pm'}"


def _evenings(f, twelve=False):
    lines = []
    for entry in f["entries"]:
        if entry["kind"] == "evening":
            when = day(date.fromisoformat(entry["first"]))
            times = f"{entry['start']} to {entry['end']}"
            if twelve:
                times = " to ".join(_twelve(t) for t in (entry["start"], entry["end"]))
            lines.append(f"- {when}, {times}")
    return "\n".join(lines)


def _add(tools, entry, title, span=True):
    """One event for the entry: at its time, or all-day (a multi-day closure as one event, or one per day)."""
    f = FACTS
    if "start" in entry:
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=title,
            start=f"{entry['first']}T{entry['start']}",
            end=f"{entry['first']}T{entry['end']}",
        )
        return
    first, last = date.fromisoformat(entry["first"]), date.fromisoformat(entry["last"])
    days = [(first, last)] if span else [(first + timedelta(days=n),) * 2 for n in range((last - first).days + 1)]
    for begins, ends in days:
        tools.calendar_create_event(
            calendar=f["calendar"], summary=title, start=begins.isoformat(), end=(ends + timedelta(days=1)).isoformat()
        )


def _already(have, entry):
    """Whether the calendar has the entry already (the co-parent put the first day in)."""
    return any(
        e["start"][:10] == entry["first"] and re.search(entry["pattern"], e["summary"], re.IGNORECASE) for e in have
    )


def _payments(tools, settle):
    """The reminders for the payments the user makes: one already right is left alone, one set wrong
    (its day or its amount) is passed to `settle` with what it should say, a missing one too (None)."""
    f = FACTS
    have = tools.reminders_list(list=f["list"])["reminders"]
    for pay in f["payments"]:
        if pay["key"] == "trip":
            continue
        found = next((r for r in have if re.search(pay["pattern"], r["title"], re.IGNORECASE)), None)
        text = f"{found['title']} {found.get('notes') or ''}" if found else ""
        if found and (found.get("due") or "")[:10] == pay["remind"] and pay["amount"] in text:
            continue
        settle(found, pay)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _read(tools, read_all=False):
    """The letter (in Downloads), the correction and the rules, checked for what the task rests on; the
    co-parent's contact; the events already in the Family calendar over the term."""
    f = FACTS
    found = tools.mail_search(sender=f["school"], subject="key dates")["messages"]
    for message in found if read_all else [newest([m for m in found if "correction" not in m["subject"].lower()])]:
        tools.mail_read(id=message["id"])
    names = [e["path"] for e in tools.files_list(path="Downloads")["entries"]]
    letter = tools.files_read(path=next(n for n in names if n.endswith(f["letter"])))
    text = one_line(letter["content"])
    assert all(one_line(line) in text for line in f["stated"]), "the letter does not give the term's dates"
    if f["corrected"]:
        fixes = [m for m in found if "correction" in m["subject"].lower()]
        correction = tools.mail_read(id=newest(fixes)["id"])
        assert all(new in one_line(correction["body"]) for new in f["corrected"]), "the correction is not there"
    if f["rules"]:
        rules = tools.files_read(path=f["rules"])
        assert f["other"] in rules["content"], "the rules do not name the co-parent"
    people = tools.contacts_search(query=f["other"])["contacts"]
    coparent = next(c for c in people if c["name"].endswith(f["family"]))
    first = f["entries"][0]["first"]
    last = f["entries"][-1]["last"]
    have = tools.calendar_list_events(start=first, end=last, calendar=f["calendar"])["events"]
    return coparent, have


def solve_one_by_one(tools):
    """Reads every mail about the dates; closures one event per day, titles without the child's name; the
    reminders first, with the amount in the notes (a wrong one deleted and made again); the evenings in
    12-hour times, the trip's payment in a mail of its own."""
    f = FACTS
    coparent, have = _read(tools, read_all=True)

    def settle(found, pay):
        if found is not None:
            tools.reminders_delete(uid=found["uid"])
        tools.reminders_create(
            title=f"SchoolPay: {pay['what']}",
            notes=f"{pay['amount']} for {f['child']}",
            list=f["list"],
            due=pay["remind"],
        )

    _payments(tools, settle)
    for entry in f["entries"]:
        if not _already(have, entry):
            title = entry["title"].replace("Class trip: ", f"{f['child']}'s class trip to ")
            _add(tools, entry, title, span=False)
    tools.mail_send(
        to=[coparent["emails"][0]],
        subject="Parents' evenings",
        body=f"Hello {f['other']},\n\nThe parents' evenings:\n{_evenings(f, twelve=True)}\n\nThanks!\n{f['me']}",
    )
    tools.mail_send(
        to=[coparent["emails"][0]],
        subject="School trip payment",
        body=f"Hi {f['other']},\n\nOver to you for this one:\n{_trip(f)}\n\n{f['me']}",
    )


solve = solve_one_by_one
