"""Reference solution for course-plan-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from itertools import product
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
 'workshops': 'Documents/Courses/UX205 live workshops.pdf',
 'signup': 'UX205 live workshops: sign-up',
 'work': 'Work',
 'group_event': 'Study group (UX205)',
 'year': 2026,
 'topics': {'1': 'recruit', '2': 'moderat', '3': 'affinity', '4': 'findings|writing up'},
 'me': 'Robert'}
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _busy(events, tz):
    """The time each listed event takes (each occurrence of a series; an all-day event its whole days)."""
    out = []
    for e in events:
        if e.get("all_day"):
            first, last = date.fromisoformat(e["start"][:10]), date.fromisoformat(e["end"][:10])
            out.append((datetime.combine(first, time(0), tz), datetime.combine(last, time(0), tz)))
            continue
        start, end = datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"])
        for at in [datetime.fromisoformat(o) for o in e.get("occurrences") or []] or [start]:
            out.append((at, at + (end - start)))
    return out


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


def pages(call: Any, **query: Any) -> list[dict[str, Any]]:
    """Every result of a listing tool, page by page: `call` returns {KEY: [...], "next_cursor": ...}."""
    return every(call, None, **query)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _when(text, year, hour, minute, half, zone):
    """'Tuesday, October 13' or 'Tuesday 13 October' at '6:00 pm' in the school's zone."""
    words = text.replace(",", "").split()[1:]
    shape = "%B %d %Y" if words[0].isalpha() else "%d %B %Y"
    on = datetime.strptime(f"{' '.join(words)} {year}", shape).date()
    return datetime.combine(on, time(int(hour) % 12 + (12 if half == "pm" else 0), int(minute)), zone)


def workshops(tools):
    """The one timetable: {workshop number: (sitting code, its start in the user's zone, its end)} and the TA's
    address."""
    f = FACTS
    tz = ZoneInfo(tools.now()["timezone"])
    text = tools.files_read(path=f["workshops"])["content"]
    flat = one_line(text)
    assert f["zone_name"] in flat, "the workshop schedule does not say its zone"
    later, first = re.search(r"Workshop (\d) builds on Workshop (\d)", flat).groups()
    length = timedelta(minutes=int(re.search(r"(\d+) minutes", flat).group(1)))
    sittings = {}
    for code, when, hour, minute, half in re.findall(
        r"(\d[A-C]): ([A-Za-z]+,? [A-Za-z0-9 ]+?), (\d{1,2}):(\d\d) ([ap]m)", text
    ):
        at = _when(when, f["year"], hour, minute, half, ZoneInfo(f["zone"])).astimezone(tz)
        sittings.setdefault(code[0], []).append((code, at, at + length))
    found = tools.mail_search(subject=f["signup"])["messages"]
    mail = tools.mail_read(id=found[0]["id"])
    full = {
        code
        for sentence in re.split(r"(?<=[.!])\s", one_line(mail["body"]))
        if "full" in sentence
        for code in re.findall(r"\b\d[A-C]\b", sentence)
    }
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    assert "never two workshops on the same day" in one_line(note["body"]), "the note does not give the day rule"
    every = [s for row in sittings.values() for s in row]
    window = (min(s[1] for s in every).date().isoformat(), max(s[2] for s in every).date().isoformat())
    work = _busy(pages(tools.calendar_list_events, start=window[0], end=window[1], calendar=f["work"]), tz)
    group = _busy(
        tools.calendar_list_events(start=window[0], end=window[1], calendar=f["calendar"], query=f["group_event"])[
            "events"
        ],
        tz,
    )

    def free(s):
        return s[0] not in full and not any(s[1] < b and a < s[2] for a, b in work + group)

    numbers = sorted(sittings)
    works = []
    for pick in product(*(sittings[n] for n in numbers)):
        chosen = dict(zip(numbers, pick, strict=True))
        if not all(free(s) for s in pick) or len({s[1].date() for s in pick}) < len(pick):
            continue
        if chosen[later][1] < chosen[first][2]:
            continue
        works.append(chosen)
    assert len(works) == 1, f"expected one timetable, found {len(works)}"
    topics = dict(re.findall(r"Workshop (\d): (.+)", text))
    return works[0], mail, topics


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead


def _sign_up(tools, table, mail, topics, how):
    """Each workshop in Study at the user's time, and the picks to the TA: `how` is one mail with a line each,
    a mail each, or one mail with the codes on one line."""
    f = FACTS
    for n, (_, start, end) in table.items():
        summary = f"{topics[n].strip()} (live workshop)" if how != "codes" else f"Live workshop: {topics[n].strip()}"
        if how == "codes":
            start, end = start.astimezone(ZoneInfo("UTC")), end.astimezone(ZoneInfo("UTC"))
        tools.calendar_create_event(
            calendar=f["calendar"], summary=summary, start=start.isoformat(), end=end.isoformat()
        )
    ta = re.search(r"[\w.+-]+@[\w.-]+", mail["from"]).group(0)
    sent = []
    if how == "lines":
        rows = "\n".join(f"- {code}: {topics[n].strip()}" for n, (code, _, _) in table.items())
        body = f"Hi,\n\nMy picks:\n{rows}\n\n{f['me']}"
        sent.append(tools.mail_send(to=[ta], subject="Live workshops: my sittings", body=body))
    elif how == "each":
        for n, (code, _, _) in table.items():
            body = f"Hello,\n\nPlease put me down for sitting {code} of this one.\n\n{f['me']}"
            sent.append(tools.mail_send(to=[ta], subject=f"Sign-up: {topics[n].strip()}", body=body))
    else:
        picks = ", ".join(code for code, _, _ in table.values())
        body = f"Hi,\n\nI'd like {picks}, please.\n\n{f['me']}"
        sent.append(tools.mail_send(to=[ta], subject="My workshop sittings", body=body))
    # The TA's automatic reply names who keeps the list meanwhile: every sign-up goes on to them, forwarded, or
    # (one mail of codes) written again with the TA in copy.
    for instead in set(redirected(tools, [m["message_id"] for m in sent]).values()):
        if how == "codes":
            tools.mail_send(to=[instead], cc=[ta], subject="My workshop sittings", body=body)
            continue
        for m in sent:
            [copy] = tools.mail_search(folder="Sent", text=m["message_id"])["messages"]
            tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs the automatic reply asked: my sign-up.")


def _group(tools):
    """The study group's addresses, from their contact cards."""
    out = []
    for name in FACTS["group"]:
        card = next(c for c in tools.contacts_search(query=name)["contacts"] if c["name"] == name)
        out.append(card["emails"][0])
    return out


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


def remind_on(at, lead, last):
    """The note's rules in order: `lead` days before the user's date (a week for the last assignment), then a
    Saturday or Sunday gives way to the Friday before."""
    on = at.date() - timedelta(days=7 if last else lead)
    return on - timedelta(days=max(0, on.weekday() - 4))


def local_deadline(day, hour_minute, zone, tz):
    """A deadline given as a day and a time in the school's `zone`, as a time in the user's zone `tz`."""
    return datetime.combine(date.fromisoformat(day), time(*hour_minute), ZoneInfo(zone)).astimezone(ZoneInfo(tz))


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


def solve(tools):
    f = FACTS
    note, plan = _plan(tools)
    for d in plan:
        end = d["at"] + timedelta(minutes=30)
        tools.calendar_create_event(
            calendar=f["calendar"], summary=f"{d['name']} due", start=d["at"].isoformat(), end=end.isoformat()
        )
        _remind(tools, d, f"{d['name']} coming up")
    _note(tools, note, plan)
    moved = [d for d in plan if d["moved"]]
    if moved:
        d = moved[0]
        body = f"Hi all,\n\nHeads-up: the {d['name']} deadline has moved. It is now due {d['moved_to']}.\n\n{f['me']}"
        tools.mail_send(to=_group(tools), subject="Study group: a deadline has moved", body=body)
    _sign_up(tools, *workshops(tools), "lines")
