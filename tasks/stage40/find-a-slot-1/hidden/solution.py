"""Reference solution for find-a-slot-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


FACTS = {'subject': 'Helix roadmap review',
 'length': 'an hour',
 'minutes': 60,
 'days': ['2026-10-06', '2026-10-07', '2026-10-08', '2026-10-09'],
 'hold': 'Hold: Helix roadmap review',
 'summary': 'Helix roadmap review',
 'guests': [{'surname': 'Thornton',
             'org': 'Meridian Health',
             'first': 'Michael',
             'zone': None,
             'city': None,
             'windows': [],
             'withdrawn': [],
             'hours_stated': False},
            {'surname': 'Herrera',
             'org': 'Kestrel Media',
             'first': 'Emilio',
             'zone': 'America/Mexico_City',
             'city': 'Guadalajara',
             'windows': [{'shown': 'Tuesday 6 October, 07:30–08:30',
                          'start': '2026-10-06T13:30:00+00:00',
                          'end': '2026-10-06T14:30:00+00:00'},
                         {'shown': 'Tuesday 6 October, 10:30–11:30',
                          'start': '2026-10-06T16:30:00+00:00',
                          'end': '2026-10-06T17:30:00+00:00'},
                         {'shown': 'Wednesday 7 October, 09:00–11:00',
                          'start': '2026-10-07T15:00:00+00:00',
                          'end': '2026-10-07T17:00:00+00:00'},
                         {'shown': 'Thursday 8 October, 08:00–09:00',
                          'start': '2026-10-08T14:00:00+00:00',
                          'end': '2026-10-08T15:00:00+00:00'},
                         {'shown': 'Friday 9 October, 08:00–10:00',
                          'start': '2026-10-09T14:00:00+00:00',
                          'end': '2026-10-09T16:00:00+00:00'}],
             'withdrawn': ['Thursday 8 October, 08:00–09:00'],
             'hours_stated': True},
            {'surname': 'Raman',
             'org': 'Foxglove Studio',
             'first': 'Vicky',
             'zone': 'America/Chicago',
             'city': 'Chicago',
             'windows': [{'shown': 'Tuesday, October 6, 8:30am–10am',
                          'start': '2026-10-06T13:30:00+00:00',
                          'end': '2026-10-06T15:00:00+00:00'},
                         {'shown': 'Tuesday, October 6, 11:30am–12:30pm',
                          'start': '2026-10-06T16:30:00+00:00',
                          'end': '2026-10-06T17:30:00+00:00'},
                         {'shown': 'Wednesday, October 7, 10am–11:30am',
                          'start': '2026-10-07T15:00:00+00:00',
                          'end': '2026-10-07T16:30:00+00:00'},
                         {'shown': 'Thursday, October 8, 9am–10:30am',
                          'start': '2026-10-08T14:00:00+00:00',
                          'end': '2026-10-08T15:30:00+00:00'},
                         {'shown': 'Friday, October 9, 9am–10:30am',
                          'start': '2026-10-09T14:00:00+00:00',
                          'end': '2026-10-09T15:30:00+00:00'}],
             'withdrawn': [],
             'hours_stated': True}],
 'zones': {'Edinburgh': 'Europe/London'},
 'routine': 'External meetings - my routine',
 'preread': {'pattern': 'pre-?read', 'list': 'Reminders', 'early': 11},
 'todo': 'Find a time for the Helix roadmap review',
 'prep': 'Skim the deck Emilio sent',
 'day_todo': 'Dig out the contract Michael asked about',
 'each_zone': True,
 'home': 'München',
 'me': 'Henrik',
 'note': 'Hi all,\n'
         '\n'
         'thanks for sending your times. The only slot that works for everyone is {when} München time, so '
         'the Helix roadmap review is in the calendar for then (an hour).{zones}\n'
         '\n'
         'See you then,\n'
         'Henrik'}
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


def clock(t: time | datetime, locale: str = "en", twelve: bool = False) -> str:
    """'15:00', '3pm', '3:30pm', or '下午3点' / '15:00'."""
    if locale == "zh":
        if not twelve:
            return f"{t.hour:02d}:{t.minute:02d}"
        part = "上午" if t.hour < 12 else "下午" if t.hour < 18 else "晚上"
        hour = t.hour if t.hour <= 12 else t.hour - 12
        return f"{part}{hour}点" + (f"{t.minute}分" if t.minute else "")
    if not twelve:
        return f"{t.hour:02d}:{t.minute:02d}"
    hour = t.hour % 12 or 12
    suffix = "am" if t.hour < 12 else "pm"
    return f"{hour}{suffix}" if not t.minute else f"{hour}:{t.minute:02d}{suffix}"


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


def _move_around(tools, plan, recreate=False):
    """The routine's last line: the user's prep time before the hold goes right before the meeting, and the
    to-do for the hold's day moves to the meeting's day (or, with `recreate`, both are made again)."""
    f = FACTS
    start = plan["start"]
    events = pages(tools.calendar_list_events, start=f["days"][0], end=f["days"][-1])
    prep = next(e for e in events if e["summary"] == f["prep"])
    length = datetime.fromisoformat(prep["end"]) - datetime.fromisoformat(prep["start"])
    todo = next(r for r in tools.reminders_list(list=f["preread"]["list"])["reminders"] if r["title"] == f["day_todo"])
    if recreate:
        tools.calendar_delete_event(uid=prep["uid"])
        tools.calendar_create_event(
            calendar="Work", summary=prep["summary"], start=(start - length).isoformat(), end=start.isoformat()
        )
        tools.reminders_delete(uid=todo["uid"])
        tools.reminders_create(title=todo["title"], list=f["preread"]["list"], due=start.date().isoformat())
    else:
        tools.calendar_update_event(uid=prep["uid"], start=(start - length).isoformat(), end=start.isoformat())
        tools.reminders_update(uid=todo["uid"], due=start.date().isoformat())


def _preread_day(tools, start):
    """The routine note's day for the pre-read reminder: the working day before, two before an early meeting."""
    f = FACTS
    note = tools.notes_search(query=f["routine"])["notes"][0]
    body = tools.notes_read(uid=note["uid"])["body"]
    early = int(re.search(r"before (\d+):00 my time", body).group(1))
    assert early == f["preread"]["early"], "the routine note does not say when a meeting is early"
    d = start.date()
    for _ in range(2 if start.hour < early else 1):
        d -= timedelta(days=1)
        while d.weekday() > 4:
            d -= timedelta(days=1)
    return d


def _move_preread(tools, start, recreate=False):
    """The pre-read reminder set for the hold follows the meeting (or, with `recreate`, a new one replaces it)."""
    f = FACTS
    due = _preread_day(tools, start)
    found = tools.reminders_list(list=f["preread"]["list"])["reminders"]
    reminder = next(r for r in found if re.search(f["preread"]["pattern"], r["title"], re.IGNORECASE))
    if recreate:
        tools.reminders_delete(uid=reminder["uid"])
        tools.reminders_create(title=f"Pre-read: {f['summary']}", list=f["preread"]["list"], due=due.isoformat())
    else:
        tools.reminders_update(uid=reminder["uid"], due=f"{due.isoformat()}T16:00:00")
    todo = next(r for r in found if r["title"] == f["todo"])
    tools.reminders_complete(uid=todo["uid"])


def _book(tools, plan, replace=False, title=None):
    """The hold becomes the meeting, or (with `replace`) gives way to a new event."""
    f = FACTS
    invited = [g[3] for g in plan["guests"]]
    if replace:
        tools.calendar_delete_event(uid=plan["hold"]["uid"])
        tools.calendar_create_event(
            calendar="Work",
            summary=title or f["summary"],
            start=plan["start"].isoformat(),
            end=plan["end"].isoformat(),
            attendees=invited,
        )
    else:
        tools.calendar_update_event(
            uid=plan["hold"]["uid"],
            summary=title or f["summary"],
            start=plan["start"].isoformat(),
            end=plan["end"].isoformat(),
            attendees=invited,
        )


def _busy(events: list[dict[str, Any]], skip: str) -> list[Span]:
    """When the user is taken: every occurrence of every event but the hold and the cancelled ones."""
    out = []
    for event in events:
        if event["uid"] == skip or event["status"] == "CANCELLED" or event["all_day"]:
            continue
        length = datetime.fromisoformat(event["end"]) - datetime.fromisoformat(event["start"])
        for start in event.get("occurrences") or [event["start"]]:
            out.append((datetime.fromisoformat(start), datetime.fromisoformat(start) + length))
    return out


def overlap(spans: list[list[Span]]) -> list[Span]:
    """The times inside one span of every list (each list: one person's free times)."""
    out = sorted(spans[0])
    for other in spans[1:]:
        out = sorted((max(a, c), min(b, d)) for a, b in out for c, d in other if max(a, c) < min(b, d))
    return out


def without(spans: list[Span], busy: list[Span]) -> list[Span]:
    """`spans` with every busy time cut out of them."""
    for start, end in busy:
        cut = []
        for a, b in spans:
            if end <= a or start >= b:
                cut.append((a, b))
            else:
                cut += [piece for piece in ((a, start), (end, b)) if piece[0] < piece[1]]
        spans = cut
    return spans


def free_slots(available: list[list[Span]], busy: list[Span], minutes: int) -> list[Span]:
    """The stretches of at least `minutes` when everyone is available and the user is not busy."""
    length = timedelta(minutes=minutes)
    return [(a, b) for a, b in without(overlap(available), busy) if b - a >= length]


def working_hours(days: list[date], hours: tuple[time, time], zone: ZoneInfo) -> list[Span]:
    """Those hours on each working day around `days` in `zone`: their days can straddle ours."""
    around = sorted({d + timedelta(days=k) for d in days for k in (-1, 0, 1)})
    return [
        (datetime.combine(d, hours[0], zone), datetime.combine(d, hours[1], zone)) for d in around if d.weekday() < 5
    ]


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _plan(tools, read_all=False):
    """The slot, the hold and the guests, worked out from the replies, the contacts and the calendar.

    With `read_all`, every message of the inbox is read and the replies picked out of them, instead of
    searching for the thread's subject."""
    f = FACTS
    tz = ZoneInfo(tools.now()["timezone"])
    asked = tools.mail_search(folder="Sent", subject=f["subject"])["messages"]
    request = tools.mail_read(id=asked[0]["id"])
    assert f["length"] in one_line(request["body"]), "the request does not say how long the meeting is"
    if read_all:
        inbox = pages(tools.mail_search, folder="INBOX", limit=100)
        replies = [m for m in inbox if f["subject"].lower() in (m["subject"] or "").lower()]
    else:
        replies = tools.mail_search(folder="INBOX", subject=f["subject"])["messages"]
    days = [date.fromisoformat(d) for d in f["days"]]

    available, guests = [], []
    for guest in f["guests"]:
        theirs = sorted(
            (m for m in replies if guest["surname"] in m["from"]), key=lambda m: datetime.fromisoformat(m["date"])
        )
        texts = [one_line(tools.mail_read(id=m["id"])["body"]) for m in theirs]
        # The address book has their full name, work address and, for some, where and when they work.
        found = tools.contacts_search(query=guest["surname"])["contacts"]
        contact = next(c for c in found if guest["surname"] in c["name"] and c["organization"] == guest["org"])
        zone, city = guest["zone"], guest["city"]
        if guest["windows"]:
            assert all(w in texts[-1] for w in guest["withdrawn"]), "the latest mail does not take the time back"
            offered = [w for w in guest["windows"] if any(w["shown"] in t for t in texts)]
            spans = [
                (datetime.fromisoformat(w["start"]), datetime.fromisoformat(w["end"]))
                for w in offered
                if w["shown"] not in guest["withdrawn"]
            ]
        else:  # "any time in my working hours": the hours are in their mail or only in their contact
            source = " ".join(texts) if guest["hours_stated"] else contact["notes"]
            if zone is None:
                city = next(c for c in f["zones"] if c in source)
                zone = f["zones"][city]
            h1, m1, h2, m2 = map(int, re.search(r"(\d\d):(\d\d)–(\d\d):(\d\d)", source).groups())
            spans = working_hours(days, (time(h1, m1), time(h2, m2)), ZoneInfo(zone))
        available.append(spans)
        guests.append((guest["first"], city, ZoneInfo(zone), f"{contact['name']} <{contact['emails'][0]}>"))

    events = pages(tools.calendar_list_events, start=f["days"][0], end=f["days"][-1])
    hold = next(e for e in events if e["summary"] == f["hold"])
    slots = free_slots(available, _busy(events, hold["uid"]), f["minutes"])
    assert len(slots) == 1, f"expected one free slot, found {slots}"
    start = slots[0][0].astimezone(tz)
    return {
        "request": request,
        "guests": guests,
        "hold": hold,
        "start": start,
        "end": start + timedelta(minutes=f["minutes"]),
    }


def solve(tools):
    f = FACTS
    plan = _plan(tools)
    _book(tools, plan)
    start = plan["start"]
    _move_preread(tools, start)
    _move_around(tools, plan)
    zones = ""
    if f["each_zone"]:
        zones = "\n\nIn your own time zones:\n\n" + "\n".join(
            f"- {first}: {clock(start.astimezone(zone))} {city} time" for first, city, zone, _ in plan["guests"]
        )
    tools.mail_send(
        to=[g[3] for g in plan["guests"]],
        subject=f"Re: {plan['request']['subject']}",
        body=f["note"].format(when=f"{day(start.date())}, {clock(start)}", zones=zones),
        in_reply_to=plan["request"]["message_id"],
    )
