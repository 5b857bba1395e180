"""Alternative solution 'per_person' for find-a-slot-2: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


FACTS = {'project': 'Atlas',
 'subject': 'Atlas meetings',
 'length': '45 minutes',
 'minutes': 45,
 'days': ['2026-08-17', '2026-08-18', '2026-08-19', '2026-08-20'],
 'hold': 'Hold: Atlas steering group',
 'summary': 'Atlas steering group',
 'meetings': [{'name': 'Atlas steering group',
               'kind': 'steering group',
               'minutes': 45,
               'who': ['Nair', 'Nowak', 'Kulkarni']},
              {'name': 'Atlas design review',
               'kind': 'design review',
               'minutes': 45,
               'who': ['Yoshida', 'Nair', 'Kulkarni']},
              {'name': 'Atlas quarterly check-in',
               'kind': 'quarterly check-in',
               'minutes': 45,
               'who': ['Nair', 'Nowak', 'Kulkarni']},
              {'name': 'Atlas planning workshop',
               'kind': 'planning workshop',
               'minutes': 45,
               'who': ['Yoshida', 'Nowak', 'Kulkarni']}],
 'after': ['quarterly check-in', 'steering group'],
 'one_a_day': ['Nair', 'Nowak'],
 'cap_words': 'No more than two external meetings on any one day',
 'guests': [{'surname': 'Yoshida',
             'org': 'Tessera Systems',
             'first': 'Haruto',
             'zone': None,
             'city': None,
             'windows': [],
             'withdrawn': [],
             'hours_stated': False},
            {'surname': 'Nair',
             'org': 'Parallax Media',
             'first': 'Deepika',
             'zone': 'Asia/Kolkata',
             'city': 'Pune',
             'windows': [{'shown': 'Monday 17 August, 12pm–12:45pm',
                          'start': '2026-08-17T06:30:00+00:00',
                          'end': '2026-08-17T07:15:00+00:00'},
                         {'shown': 'Monday 17 August, 4pm–4:45pm',
                          'start': '2026-08-17T10:30:00+00:00',
                          'end': '2026-08-17T11:15:00+00:00'},
                         {'shown': 'Tuesday 18 August, 1:30pm–2:15pm',
                          'start': '2026-08-18T08:00:00+00:00',
                          'end': '2026-08-18T08:45:00+00:00'},
                         {'shown': 'Tuesday 18 August, 4pm–4:45pm',
                          'start': '2026-08-18T10:30:00+00:00',
                          'end': '2026-08-18T11:15:00+00:00'},
                         {'shown': 'Wednesday 19 August, 12pm–12:45pm',
                          'start': '2026-08-19T06:30:00+00:00',
                          'end': '2026-08-19T07:15:00+00:00'},
                         {'shown': 'Wednesday 19 August, 5:30pm–6:15pm',
                          'start': '2026-08-19T12:00:00+00:00',
                          'end': '2026-08-19T12:45:00+00:00'},
                         {'shown': 'Thursday 20 August, 12pm–12:45pm',
                          'start': '2026-08-20T06:30:00+00:00',
                          'end': '2026-08-20T07:15:00+00:00'},
                         {'shown': 'Thursday 20 August, 2pm–2:45pm',
                          'start': '2026-08-20T08:30:00+00:00',
                          'end': '2026-08-20T09:15:00+00:00'},
                         {'shown': 'Thursday 20 August, 4:30pm–5:15pm',
                          'start': '2026-08-20T11:00:00+00:00',
                          'end': '2026-08-20T11:45:00+00:00'}],
             'withdrawn': ['Thursday 20 August, 2pm–2:45pm'],
             'hours_stated': True},
            {'surname': 'Nowak',
             'org': 'Harbor Media',
             'first': 'Tomek',
             'zone': 'Europe/London',
             'city': 'London',
             'windows': [{'shown': 'Monday 17 August, 09:00–09:45',
                          'start': '2026-08-17T08:00:00+00:00',
                          'end': '2026-08-17T08:45:00+00:00'},
                         {'shown': 'Monday 17 August, 11:30–12:15',
                          'start': '2026-08-17T10:30:00+00:00',
                          'end': '2026-08-17T11:15:00+00:00'},
                         {'shown': 'Tuesday 18 August, 07:00–07:45',
                          'start': '2026-08-18T06:00:00+00:00',
                          'end': '2026-08-18T06:45:00+00:00'},
                         {'shown': 'Tuesday 18 August, 09:00–09:45',
                          'start': '2026-08-18T08:00:00+00:00',
                          'end': '2026-08-18T08:45:00+00:00'},
                         {'shown': 'Tuesday 18 August, 11:30–12:15',
                          'start': '2026-08-18T10:30:00+00:00',
                          'end': '2026-08-18T11:15:00+00:00'},
                         {'shown': 'Wednesday 19 August, 09:00–09:45',
                          'start': '2026-08-19T08:00:00+00:00',
                          'end': '2026-08-19T08:45:00+00:00'},
                         {'shown': 'Wednesday 19 August, 13:00–13:45',
                          'start': '2026-08-19T12:00:00+00:00',
                          'end': '2026-08-19T12:45:00+00:00'},
                         {'shown': 'Thursday 20 August, 07:30–08:15',
                          'start': '2026-08-20T06:30:00+00:00',
                          'end': '2026-08-20T07:15:00+00:00'},
                         {'shown': 'Thursday 20 August, 09:30–10:15',
                          'start': '2026-08-20T08:30:00+00:00',
                          'end': '2026-08-20T09:15:00+00:00'}],
             'withdrawn': [],
             'hours_stated': True},
            {'surname': 'Kulkarni',
             'org': 'Larkspur Logistics',
             'first': 'Rajesh',
             'zone': 'Asia/Singapore',
             'city': 'Singapore',
             'windows': [{'shown': 'Monday 17 August, 2:30pm–3:15pm',
                          'start': '2026-08-17T06:30:00+00:00',
                          'end': '2026-08-17T07:15:00+00:00'},
                         {'shown': 'Monday 17 August, 4pm–4:45pm',
                          'start': '2026-08-17T08:00:00+00:00',
                          'end': '2026-08-17T08:45:00+00:00'},
                         {'shown': 'Monday 17 August, 6:30pm–7:15pm',
                          'start': '2026-08-17T10:30:00+00:00',
                          'end': '2026-08-17T11:15:00+00:00'},
                         {'shown': 'Tuesday 18 August, 2pm–2:45pm',
                          'start': '2026-08-18T06:00:00+00:00',
                          'end': '2026-08-18T06:45:00+00:00'},
                         {'shown': 'Tuesday 18 August, 4pm–4:45pm',
                          'start': '2026-08-18T08:00:00+00:00',
                          'end': '2026-08-18T08:45:00+00:00'},
                         {'shown': 'Tuesday 18 August, 6:30pm–7:15pm',
                          'start': '2026-08-18T10:30:00+00:00',
                          'end': '2026-08-18T11:15:00+00:00'},
                         {'shown': 'Wednesday 19 August, 2:30pm–3:15pm',
                          'start': '2026-08-19T06:30:00+00:00',
                          'end': '2026-08-19T07:15:00+00:00'},
                         {'shown': 'Wednesday 19 August, 4pm–4:45pm',
                          'start': '2026-08-19T08:00:00+00:00',
                          'end': '2026-08-19T08:45:00+00:00'},
                         {'shown': 'Wednesday 19 August, 8pm–8:45pm',
                          'start': '2026-08-19T12:00:00+00:00',
                          'end': '2026-08-19T12:45:00+00:00'},
                         {'shown': 'Thursday 20 August, 2:30pm–3:15pm',
                          'start': '2026-08-20T06:30:00+00:00',
                          'end': '2026-08-20T07:15:00+00:00'},
                         {'shown': 'Thursday 20 August, 4:30pm–5:15pm',
                          'start': '2026-08-20T08:30:00+00:00',
                          'end': '2026-08-20T09:15:00+00:00'},
                         {'shown': 'Thursday 20 August, 7pm–7:45pm',
                          'start': '2026-08-20T11:00:00+00:00',
                          'end': '2026-08-20T11:45:00+00:00'}],
             'withdrawn': [],
             'hours_stated': True}],
 'zones': {'Tokyo': 'Asia/Tokyo'},
 'routine': 'External meetings - my routine',
 'preread': {'pattern': 'pre-?read', 'list': 'Reminders', 'early': 11},
 'todo': 'Find times for the Atlas meetings',
 'prep': "Go through Rajesh's numbers before the call",
 'day_todo': "Print Deepika's slides for the call",
 'home': 'Stockholm',
 'me': 'Fredrik',
 'hold_kind': 'steering group'}
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
GRID = timedelta(minutes=15)
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}
LIMIT = re.compile(r"one of (?:these|the) calls", re.IGNORECASE)


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
    """The routine's last line: the user's prep time before the hold goes right before its meeting, and the
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


def _move_preread(tools, plan, recreate=False):
    """Each meeting's pre-read reminder on the routine's day: the one set for the hold follows its meeting (or,
    with `recreate`, a new one replaces it); the others are made."""
    f = FACTS
    found = tools.reminders_list(list=f["preread"]["list"])["reminders"]
    for meeting in plan["meetings"]:
        due = _preread_day(tools, meeting["start"])
        if meeting["name"] == f["summary"]:
            reminder = next(
                r
                for r in found
                if re.search(f["preread"]["pattern"], r["title"], re.IGNORECASE) and not r.get("completed")
            )
            if not recreate:
                tools.reminders_update(uid=reminder["uid"], due=f"{due.isoformat()}T16:00:00")
                continue
            tools.reminders_delete(uid=reminder["uid"])
        tools.reminders_create(
            title=f"Pre-read: {meeting['name']}",
            list=f["preread"]["list"],
            due=due.isoformat() if recreate else f"{due.isoformat()}T16:00:00",
        )
    todo = next(r for r in found if r["title"] == f["todo"])
    tools.reminders_complete(uid=todo["uid"])


def _book(tools, plan, replace=False, titles=None):
    """The hold becomes its meeting, or (with `replace`) gives way to a new event; the others are made."""
    f = FACTS
    for meeting in plan["meetings"]:
        title = (titles or {}).get(meeting["name"], meeting["name"])
        invited = [p[3] for p in meeting["people"]]
        times = {"start": meeting["start"].isoformat(), "end": meeting["end"].isoformat()}
        if meeting["name"] == f["summary"] and not replace:
            tools.calendar_update_event(uid=plan["hold"]["uid"], summary=title, attendees=invited, **times)
            continue
        if meeting["name"] == f["summary"]:
            tools.calendar_delete_event(uid=plan["hold"]["uid"])
        tools.calendar_create_event(calendar="Work", summary=title, attendees=invited, **times)


def fits(
    chosen: list[datetime],
    meetings: list[dict[str, Any]],
    zones: dict[str, ZoneInfo],
    one_a_day: list[str],
    cap: int,
    after: tuple[int, int] | None,
    tz: ZoneInfo,
) -> bool:
    """Whether the first len(chosen) meetings at these starts keep every rule: none overlaps another (the
    user is in all of them), nobody who does one call a day has two on one of their days, the user has at
    most `cap` on a day of theirs, and meeting `after[1]` starts once meeting `after[0]` is over."""
    spans = [(s, s + timedelta(minutes=m["minutes"])) for s, m in zip(chosen, meetings, strict=False)]
    for n, (a, b) in enumerate(spans):
        if any(a < d and c < b for c, d in spans[:n]):
            return False
    for who in one_a_day:
        days = [s.astimezone(zones[who]).date() for s, m in zip(chosen, meetings, strict=False) if who in m["who"]]
        if len(days) != len(set(days)):
            return False
    mine = [s.astimezone(tz).date() for s in chosen]
    if any(mine.count(d) > cap for d in mine):
        return False
    if after is not None and max(after) < len(chosen):
        return chosen[after[1]] >= spans[after[0]][1]
    return True


def greedy(options: list[list[datetime]], rules: dict[str, Any]) -> tuple[list[datetime], int | None]:
    """The earliest-first walk: each meeting in turn takes its first start that fits the ones before it.
    Returns what it chose and the meeting it could not place (None if it placed them all)."""
    chosen: list[datetime] = []
    for n, starts_ in enumerate(options):
        pick = next((s for s in sorted(starts_) if fits([*chosen, s], **rules)), None)
        if pick is None:
            return chosen, n
        chosen.append(pick)
    return chosen, None


def joint(options: list[list[datetime]], rules: dict[str, Any]) -> list[tuple[datetime, ...]]:
    """Every assignment of one start to each meeting that keeps every rule (all of them, by brute force)."""
    found: list[tuple[datetime, ...]] = []

    def walk(prefix: list[datetime]) -> None:
        if len(prefix) == len(options):
            found.append(tuple(prefix))
            return
        for start in options[len(prefix)]:
            if fits([*prefix, start], **rules):
                walk([*prefix, start])

    walk([])
    return found


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


def starts(available: list[list[Span]], busy: list[Span], minutes: int) -> list[datetime]:
    """Every start on the quarter hour for a meeting of `minutes` inside everyone's free times and clear of
    `busy`: the offers begin on the quarter hour, so no start between two of these fits when they do not."""
    length, out = timedelta(minutes=minutes), []
    for a, b in free_slots(available, busy, minutes):
        t = a
        while t + length <= b:
            out.append(t)
            t += GRID
    return out


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


def working_hours(days: list[date], hours: tuple[time, time], zone: ZoneInfo) -> list[Span]:
    """Those hours on each working day around `days` in `zone`: their days can straddle ours."""
    around = sorted({d + timedelta(days=k) for d in days for k in (-1, 0, 1)})
    return [
        (datetime.combine(d, hours[0], zone), datetime.combine(d, hours[1], zone)) for d in around if d.weekday() < 5
    ]


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _plan(tools, read_all=False, walk=False):
    """Every meeting's time, the hold and the people, worked out from the replies, the contacts, the routine
    note and the calendar: each meeting's possible starts on its own, then the one week that keeps every rule.

    With `read_all`, every message of the inbox is read and the replies picked out of them, instead of
    searching for the thread's subject."""
    f = FACTS
    tz = ZoneInfo(tools.now()["timezone"])
    asked = tools.mail_search(folder="Sent", subject=f["subject"])["messages"]
    request = tools.mail_read(id=asked[0]["id"])
    assert f["length"] in one_line(request["body"]), "the request does not say how long the meetings are"
    if read_all:
        inbox = pages(tools.mail_search, folder="INBOX", limit=100)
        replies = [m for m in inbox if f["subject"].lower() in (m["subject"] or "").lower()]
    else:
        replies = tools.mail_search(folder="INBOX", subject=f["subject"])["messages"]
    days = [date.fromisoformat(d) for d in f["days"]]

    free, people, zones, limited = {}, {}, {}, []
    for guest in f["guests"]:
        theirs = sorted(
            (m for m in replies if guest["surname"] in m["from"]), key=lambda m: datetime.fromisoformat(m["date"])
        )
        texts = [one_line(tools.mail_read(id=m["id"])["body"]) for m in theirs]
        if any(LIMIT.search(t) for t in texts):
            limited.append(guest["surname"])
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
        free[guest["surname"]] = spans
        zones[guest["surname"]] = ZoneInfo(zone)
        people[guest["surname"]] = (guest["first"], city, ZoneInfo(zone), f"{contact['name']} <{contact['emails'][0]}>")
    assert sorted(limited) == sorted(f["one_a_day"]), f"one call a day: read {limited}"

    note = tools.notes_search(query=f["routine"])["notes"][0]
    body = tools.notes_read(uid=note["uid"])["body"]
    cap = NUMBERS[re.search(r"No more than (\w+) external meetings", body).group(1)]

    events = pages(tools.calendar_list_events, start=f["days"][0], end=f["days"][-1])
    hold = next(e for e in events if e["summary"] == f["hold"])
    busy = _busy(events, hold["uid"])
    meetings = f["meetings"]
    kinds = [m["kind"] for m in meetings]
    options = [starts([free[s] for s in m["who"]], busy, m["minutes"]) for m in meetings]
    rules = {
        "meetings": meetings,
        "zones": zones,
        "one_a_day": limited,
        "cap": cap,
        "after": (kinds.index(f["after"][0]), kinds.index(f["after"][1])),
        "tz": tz,
    }
    weeks = joint(options, rules)
    assert len(weeks) == 1, f"expected one way to fit the meetings, found {len(weeks)}"
    week = weeks[0]
    if walk:  # the earliest-first walk: where it gets stuck, the rest take their earliest time anyway
        chosen, _ = greedy(options, rules)
        week = (*chosen, *(min(o) for o in options[len(chosen) :]))
    booked = []
    for meeting, start in zip(meetings, week, strict=True):
        start = start.astimezone(tz)
        booked.append(
            {
                **meeting,
                "start": start,
                "end": start + timedelta(minutes=meeting["minutes"]),
                "people": [people[s] for s in meeting["who"]],
            }
        )
    first = next(m for m in booked if m["name"] == f["summary"])
    return {
        "request": request,
        "guests": list(people.values()),
        "hold": hold,
        "meetings": booked,
        "start": first["start"],
        "end": first["end"],
    }


def solve_per_person(tools):
    """Reads the whole inbox instead of searching, replaces the hold with a new event, makes the reminders anew,
    and mails each person on their own with only their meetings, in their time and the user's."""
    f = FACTS
    plan = _plan(tools, read_all=True)
    _book(tools, plan, replace=True)
    _move_preread(tools, plan, recreate=True)
    _move_around(tools, plan, recreate=True)
    for first, city, zone, mailbox in plan["guests"]:
        mine = [m for m in plan["meetings"] if any(p[3] == mailbox for p in m["people"])]
        rows = []
        for m in sorted(mine, key=lambda m: m["start"]):
            theirs, until = m["start"].astimezone(zone), m["end"].astimezone(zone)
            rows.append(
                f"- the {m['name']}: {day(theirs.date())}, {clock(theirs, twelve=True)} to "
                f"{clock(until, twelve=True)} your time in {city} ({clock(m['start'])} for me in {f['home']})"
            )
        body = (
            f"Hi {first},\n\nThanks for your times. Your meetings next week are booked:\n\n"
            + "\n".join(rows)
            + f"\n\nThe invitations are in your calendar.\n\nBest,\n{f['me']}"
        )
        tools.mail_send(to=[mailbox], subject=f"{f['project']} meetings: booked", body=body)


solve = solve_per_person
