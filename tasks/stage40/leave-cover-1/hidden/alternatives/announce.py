"""Alternative solution 'announce' for leave-cover-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections import Counter
from datetime import date, datetime, timedelta


FACTS = {'deputy': 'Trang',
 'me': 'rebecca.thornton@ironbark-health.com',
 'first': 'Rebecca',
 'hr': 'Ironbark Health People Team <people@ironbark-health.com>',
 'start': '2026-05-12',
 'end': '2026-05-22',
 'back': '2026-05-26',
 'stated': 'Tuesday, May 12, 2026',
 'checklist': 'Before I go on leave',
 'covers': 'Valentina, Aishu and Thomas',
 'sheet': 'Documents/Work/Client cover.csv',
 'team': 'Team',
 'ask': 'Cover for my client calls',
 'cap': 2,
 'org': 'Ironbark Health',
 'month_first': True,
 'list': 'Work',
 'reminder': 'Catch up with Valentina, Aishu and Thomas about the client calls',
 'decline': ['Away on leave: {title}',
             'Hi {who},\n'
             '\n'
             "I'm on annual leave for those sessions, so I'll have to decline {titles} while I'm away. Sorry "
             'to miss them!\n'
             '\n'
             'Best,\n'
             '{me}'],
 'cover_mail': ["Client calls while I'm on leave",
                'Hi {who},\n'
                '\n'
                "Thanks for taking some of my client calls while I'm on leave. Yours are:\n"
                '\n'
                '{lines}\n'
                '\n'
                'Shout if you need the dial-in details for any of them.\n'
                '\n'
                'Thanks again,\n'
                '{me}'],
 'deputy_mail': ["Running the backlog refinement while I'm away",
                 'Hi {who},\n'
                 '\n'
                 "Thanks for running the backlog refinement while I'm on leave. The sessions are:\n"
                 '\n'
                 '{lines}\n'
                 '\n'
                 'Same room and time as usual.\n'
                 '\n'
                 'Thanks,\n'
                 '{me}']}
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


def _call_line(event, when, twelve=False):
    at = datetime.fromisoformat(when)
    return f"- {event['summary']}: {day(at.date())}, {clock(at, twelve=twelve)}"


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def date_regex(d: date) -> str:
    """A pattern for a calendar day: 12 March, March 12th, 12/3, 2026-03-12, 3月12日."""
    month = MONTHS[d.month - 1]
    dd = f"(?<!\\d)0?{d.day}(?:st|nd|rd|th)?(?!\\d)"  # "05 March" is the same day
    forms = [
        f"{dd}\\.?\\s*(?:of\\s+)?{month[:3]}\\w*",
        f"{month[:3]}\\w*\\.?\\s+{dd}",
        f"{d.isoformat()}",
        f"(?<![\\d/.]){d.day:d}[./]{d.month:d}(?![\\d])|(?<![\\d/.])0?{d.day}[./]0?{d.month}[./]",
        f"{d.month}月{d.day}[日号]",
    ]
    return "|".join(forms)


def _events(tools, start, end, **more):
    """Every event overlapping the days from `start` to `end`, page by page."""
    events, cursor = [], None
    while True:
        page = tools.calendar_list_events(start=start, end=end, **more, **({"cursor": cursor} if cursor else {}))
        events += page["events"]
        cursor = page.get("next_cursor")
        if not cursor:
            return events


def _account_team(tools, calls):
    """Who takes each client call: someone the cover sheet lists for its client, who is not out that day
    (the Team calendar, their replies to the user's ask), nobody more than the cap. Every assignment is
    tried; exactly one keeps the rules. Returns {address: [(event, when), ...]} and {address: name}."""
    f = FACTS
    rows = list(csv.reader(io.StringIO(tools.files_read(path=f["sheet"])["content"])))[1:]
    knows = {row[0]: [row[1], *(n.strip() for n in row[2].split(";") if n.strip())] for row in rows}
    names = sorted({n for row in knows.values() for n in row})
    email = {}
    for name in names:  # the sheet writes the name they go by; the address book may have the full one
        found = tools.contacts_search(query=name.split()[-1])["contacts"]
        [card] = [c for c in found if c["organization"] == f["org"] and name.split()[0] in f"{c['name']} {c['notes']}"]
        email[name] = card["emails"][0].lower()
    leave = [date.fromisoformat(f["start"]) + timedelta(days=n) for n in range(40)]
    leave = [d for d in leave if d <= date.fromisoformat(f["end"])]
    away = {name: set() for name in names}
    for event in _events(tools, f["start"], f["end"], calendar=f["team"]):
        for name in names:
            if event["summary"].startswith(name):
                first, last = date.fromisoformat(event["start"][:10]), date.fromisoformat(event["end"][:10])
                away[name] |= {d for d in leave if first <= d < last}
    for found in tools.mail_search(subject=f["ask"], folder="INBOX")["messages"]:
        message = tools.mail_read(id=found["id"])
        name = next((n for n in names if email[n] == address(message["from"]).lower()), None)
        own = "\n".join(line for line in message["body"].splitlines() if not line.lstrip().startswith(">"))
        if name:
            away[name] |= {d for d in leave if re.search(date_regex(d), own)}
    who_is = {}  # the client of each call: named in its title, or the organisation of a guest from outside
    for event, _ in calls:
        client = next((c for c in knows if c in event["summary"]), None)
        ours = f["me"].rpartition("@")[2]
        for guest in [address(a) for a in event["attendees"]] if client is None else []:
            if guest.rpartition("@")[2] != ours:
                card = tools.contacts_search(query=guest)["contacts"][0]
                client = card["organization"]
                break
        who_is[event["uid"]] = client

    def fits(choice):
        for (event, when), name in zip(calls, choice, strict=True):
            if name not in knows[who_is[event["uid"]]] or datetime.fromisoformat(when).date() in away[name]:
                return False
        return max(Counter(choice).values()) <= f["cap"]

    [choice] = [c for c in itertools.product(names, repeat=len(calls)) if fits(c)]
    out = {}
    for call, name in zip(calls, choice, strict=True):
        out.setdefault(email[name], []).append(call)
    return out, {email[n]: n for n in names}


def _first_name(mailbox):
    name = mailbox.split("<")[0].strip().strip('"')
    return name.split()[0] if name else address(mailbox)


def _named(event):
    """How a mail names a meeting: its title, or for a 1:1, what the two call it."""
    return "one-to-one" if event["summary"].startswith("1:1") else event["summary"]


def _deputy_lines(plan, iso=False):
    return "\n".join(
        f"- {event['summary']}: "
        + (when[:10] if iso else f"{day(datetime.fromisoformat(when).date())}, {clock(datetime.fromisoformat(when))}")
        for event, when in sorted(plan["deputy"], key=lambda pair: pair[1])
    )


def _deputy(tools):
    """The deputy's address, from the address book (they work at the user's company)."""
    f = FACTS
    found = tools.contacts_search(query=f["deputy"])["contacts"]
    return next(c for c in found if c["organization"] == f["org"])["emails"][0]


def _back_at(event, when):
    """Start and end on the first day back at the occurrence's time of day (local, so a clock change
    in between does not shift it)."""
    at = datetime.fromisoformat(when)
    length = datetime.fromisoformat(event["end"]) - datetime.fromisoformat(event["start"])
    start = datetime.fromisoformat(f"{FACTS['back']}T{at:%H:%M}")
    return start, start + length


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


def _preps(tools, moves, paired=False):
    """The open reminders in Work about a moving 1:1 (its report's first name), due on its old day (with
    `paired`, each with the move it belongs to)."""
    out = []
    for reminder in pages(tools.reminders_list, list=FACTS["list"]):
        for move in moves:
            who = move[0]["summary"].split("/")[-1].strip()
            if who in reminder["title"] and (reminder.get("due") or "")[:10] == move[1][:10]:
                out.append((reminder, move) if paired else reminder)
    return out


def _cancel(tools, own):
    for event, when in own:
        if event["rrule"]:
            tools.calendar_delete_event(uid=event["uid"], occurrence=when)  # that date only; guests get a CANCEL
        else:
            tools.calendar_delete_event(uid=event["uid"])


def _declined_already(tools, organizer, event):
    """The user has written to `organizer` about the meeting already (a mail in Sent naming it)."""
    sent = tools.mail_search(folder="Sent", recipient=organizer)["messages"]
    return any(event["summary"].lower() in m["subject"].lower() for m in sent)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _study(tools, read_all=False):
    """The leave's meetings sorted by what to do with them: the user's own
    occurrences, the refinement the deputy runs, the 1:1s to move, others' meetings by organiser (but
    those the user has declined already), the client calls (anything with someone from outside).

    The leave's dates come from the latest approval (a later one replaces an earlier); with
    `read_all`, every approval is read, not just the newest."""
    f = FACTS
    found = tools.mail_search(sender=address(f["hr"]), subject="approved")["messages"]
    for message in found if read_all else []:
        tools.mail_read(id=message["id"])
    approval = tools.mail_read(id=newest(found)["id"])
    assert f["stated"] in one_line(approval["body"]), "the latest approval does not give the leave's first day"
    if f["checklist"]:
        rules = tools.notes_search(query=f["checklist"])["notes"][0]
        assert f["covers"] in rules["body"], "the checklist does not name the account team"
    me = f["me"]
    ours = me.rpartition("@")[2]
    plan = {"own": [], "deputy": [], "moves": [], "declines": {}, "calls": []}
    for event in _events(tools, f["start"], f["end"]):
        people = [address(a) for a in event["attendees"]]
        if not [a for a in people if a != me]:
            continue  # the user's own plans (or the Team calendar's days out), not a meeting
        organizer = address(event["organizer"]) or me
        times = event.get("occurrences") or [event["start"]]
        if any(a.rpartition("@")[2] != ours for a in [*people, organizer]):
            plan["calls"] += [(event, when) for when in times]  # someone from a client: the cover takes it
        elif organizer != me:
            if not _declined_already(tools, organizer, event):
                plan["declines"].setdefault(event["organizer"], []).append(event)
        elif event["summary"].startswith("1:1"):
            plan["moves"] += [(event, when) for when in times]
        elif "refinement" in event["summary"].lower():
            plan["deputy"] += [(event, when) for when in times]  # the checklist's exception: the deputy runs it
        else:
            plan["own"] += [(event, when) for when in times]
    return plan


def solve_announce(tools):
    """Reads every approval; tells the team in one mail which of their meetings are off (besides the
    calendar's cancellations); declines list each session's day; the cover's list in 12-hour times."""
    f = FACTS
    plan = _study(tools, read_all=True)
    _cancel(tools, plan["own"])
    team = sorted({a for event, _ in plan["own"] for a in event["attendees"] if address(a) != f["me"]})
    off = "\n".join(
        f"- {event['summary']}, {day(datetime.fromisoformat(when).date())}"
        for event, when in sorted(plan["own"], key=lambda pair: pair[1])
    )
    tools.mail_send(
        to=team,
        subject="Off on leave: these meetings are cancelled",
        body=f"Hi all,\n\nI'm on leave soon, so these are off:\n\n{off}\n\nBack to normal after that.\n\n{f['first']}",
    )
    for reminder in _preps(tools, plan["moves"]):  # the day only
        tools.reminders_update(uid=reminder["uid"], due=f["back"])
    for event, when in plan["moves"]:
        start, end = _back_at(event, when)
        tools.calendar_update_event(uid=event["uid"], occurrence=when, start=start.isoformat(), end=end.isoformat())
    tools.mail_send(
        to=[_deputy(tools)],
        subject="Refinement cover",
        body=f"{f['deputy']}, as agreed you're running these while I'm away:\n\n{_deputy_lines(plan, iso=True)}\n\n"
        f"Cheers,\n{f['first']}",
    )
    for organizer, events in plan["declines"].items():
        titles = ", ".join(dict.fromkeys(_named(e) for e in events))
        sessions = "\n".join(
            f"- {_named(e)}, {day(datetime.fromisoformat(when).date())}"
            for e in events
            for when in e.get("occurrences") or [e["start"]]
        )
        tools.mail_send(
            to=[address(organizer)],
            subject=f"Declining while on leave: {titles}",
            body=(
                f"Dear {_first_name(organizer)},\n\nI'm on leave then, so I must decline these:\n\n{sessions}\n\n"
                f"Best regards,\n{f['first']}"
            ),
        )
    takers, named = _account_team(tools, sorted(plan["calls"], key=lambda pair: pair[1]))
    lines = "\n".join(
        f"- {named[to]}: {_call_line(e, w, twelve=True)[2:]}"
        for to, calls in takers.items()
        for e, w in sorted(calls, key=lambda pair: pair[1])
    )
    tools.mail_send(  # one mail to the whole account team, each line saying who takes the call
        to=sorted(named),
        subject="Covering my client calls",
        body=f"Hi all,\n\nHere's who takes which of my client calls while I'm away:\n\n{lines}\n\nThank you!\n"
        f"{f['first']}",
    )
    if f["reminder"]:
        tools.reminders_create(title=f"Catch up with {f['covers']} on client calls", list=f["list"], due=f["back"])


solve = solve_announce
