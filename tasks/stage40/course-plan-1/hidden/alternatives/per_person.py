"""Alternative solution 'per_person' for course-plan-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


FACTS = {'note': 'Study plan: UX205',
 'syllabus': 'Documents/Courses/UX205 syllabus.pdf',
 'zone': 'America/New_York',
 'zone_name': 'Eastern Time (ET)',
 'lead': 4,
 'calendar': 'Study',
 'list': 'Study',
 'update': True,
 'group': ['Daniel Langley', 'Ikechukwu Chukwu', 'Kwabena Boateng'],
 'deadlines': [{'name': 'Interview plan',
                'shown': 'Friday, October 16',
                'time': [23, 59],
                'date': '2026-10-16',
                'moved_to': None,
                'moved_iso': None,
                'words': 'interview plan'},
               {'name': 'Field notes',
                'shown': 'Friday, October 23',
                'time': [23, 59],
                'date': '2026-10-23',
                'moved_to': None,
                'moved_iso': None,
                'words': 'field notes'},
               {'name': 'Survey design',
                'shown': 'Friday, October 30',
                'time': [23, 59],
                'date': '2026-10-30',
                'moved_to': None,
                'moved_iso': None,
                'words': 'survey'},
               {'name': 'Persona draft',
                'shown': 'Friday, November 6',
                'time': [23, 59],
                'date': '2026-11-06',
                'moved_to': None,
                'moved_iso': None,
                'words': 'persona'},
               {'name': 'Synthesis memo',
                'shown': 'Friday, November 13',
                'time': [23, 59],
                'date': '2026-11-13',
                'moved_to': 'Tuesday, November 17',
                'moved_iso': '2026-11-17',
                'words': 'synthesis|memo'},
               {'name': 'Usability test',
                'shown': 'Friday, November 20',
                'time': [23, 59],
                'date': '2026-11-20',
                'moved_to': None,
                'moved_iso': None,
                'words': 'usability'},
               {'name': 'Presentation',
                'shown': 'Wednesday, November 25',
                'time': [12, 0],
                'date': '2026-11-25',
                'moved_to': None,
                'moved_iso': None,
                'words': 'presentation'},
               {'name': 'Final report',
                'shown': 'Friday, December 4',
                'time': [23, 59],
                'date': '2026-12-04',
                'moved_to': None,
                'moved_iso': None,
                'words': 'final report'}],
 'subject': 'UX205: Synthesis memo deadline moved',
 'me': 'Robert'}
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _line(d, twelve=False):
    at = d["at"]
    hour = f"{at.hour % 12 or 12}:{at.minute:02d} {'am' if at.hour < 12 else 'pm'}" if twelve else f"{at:%H:%M}"
    return f"- {d['name']}: {WEEKDAYS[at.weekday()]} {at.day} {at.strftime('%b')}, {hour}"


def _note(tools, note, plan, twelve=False):
    if FACTS["update"]:
        tools.notes_update(uid=note["uid"], body=note["body"] + "\n".join(_line(d, twelve) for d in plan) + "\n")


def _remind(tools, d, title):
    """A reminder for the deadline, or the one the user already set for it moved to the right day."""
    f = FACTS
    old = next(
        (
            r
            for r in tools.reminders_list(list=f["list"])["reminders"]
            if not r["completed"] and re.search(d["words"], r["title"], re.I)
        ),
        None,
    )
    if old is None:
        tools.reminders_create(title=title, list=f["list"], due=d["remind"].isoformat())
    elif old["due"][:10] != d["remind"].isoformat():
        tools.reminders_update(uid=old["uid"], due=d["remind"].isoformat())


def _group(tools):
    """The study group's addresses, from their contact cards."""
    out = []
    for name in FACTS["group"]:
        card = next(c for c in tools.contacts_search(query=name)["contacts"] if c["name"] == name)
        out.append(card["emails"][0])
    return out


def remind_on(at, lead, last):
    """The note's rules in order: `lead` days before the user's date (a week for the last assignment), then a
    Saturday or Sunday gives way to the Friday before."""
    on = at.date() - timedelta(days=7 if last else lead)
    return on - timedelta(days=max(0, on.weekday() - 4))


def local_deadline(day, hour_minute, zone, tz):
    """A deadline given as a day and a time in the school's `zone`, as a time in the user's zone `tz`."""
    return datetime.combine(date.fromisoformat(day), time(*hour_minute), ZoneInfo(zone)).astimezone(ZoneInfo(tz))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _plan(tools):
    """The note, and every deadline in the user's time with its reminder's date."""
    f = FACTS
    tz = tools.now()["timezone"]
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    rules = one_line(note["body"])
    assert f"{f['lead']} days before" in rules, "the note does not give the reminders' lead"
    assert "a week before instead" in rules and "Friday before" in rules, "the note does not give its exceptions"
    syllabus = one_line(tools.files_read(path=f["syllabus"])["content"])
    assert f["zone_name"] in syllabus, "the syllabus does not say which zone its deadlines are in"
    announced = ""
    if f["subject"]:
        found = tools.mail_search(subject=f["subject"])["messages"]
        announced = one_line(tools.mail_read(id=found[0]["id"])["body"])
    plan = []
    for n, d in enumerate(f["deadlines"]):
        assert d["shown"] in syllabus, f"{d['name']} is not in the syllabus"
        day = d["date"]
        if d["moved_to"] and d["moved_to"] in announced:
            day = d["moved_iso"]
        at = local_deadline(day, d["time"], f["zone"], tz)
        plan.append(
            {**d, "at": at, "remind": remind_on(at, f["lead"], n == len(f["deadlines"]) - 1), "moved": day != d["date"]}
        )
    return note, plan


def solve_per_person(tools):
    """One mail per member of the group first; the reminders titled another way; the note in 12-hour times."""
    f = FACTS
    note, plan = _plan(tools)
    moved = [d for d in plan if d["moved"]]
    if moved:
        for address, name in zip(_group(tools), f["group"], strict=True):
            body = (
                f"Hi {name.split()[0]},\n\nJust so you know: the {moved[0]['name']} is now due {moved[0]['moved_to']}, "
                f"a week later than the syllabus says.\n\nSee you Thursday,\n{f['me']}"
            )
            tools.mail_send(to=[address], subject="Deadline moved", body=body)
    for d in plan:
        _remind(tools, d, f"Get going on the {d['name']}")
        end = d["at"] + timedelta(minutes=30)
        tools.calendar_create_event(
            calendar=f["calendar"], summary=f"Deadline: {d['name']}", start=d["at"].isoformat(), end=end.isoformat()
        )
    _note(tools, note, plan, twelve=True)


solve = solve_per_person
