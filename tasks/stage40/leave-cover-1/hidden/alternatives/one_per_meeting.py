"""Alternative solution 'one_per_meeting' for leave-cover-1: another reasonable way to the goal."""

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


def _cancel(tools, own):
    for event, when in own:
        if event["rrule"]:
            tools.calendar_delete_event(uid=event["uid"], occurrence=when)  # that date only; guests get a CANCEL
        else:
            tools.calendar_delete_event(uid=event["uid"])


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _back_at(event, when):
    """Start and end on the first day back at the occurrence's time of day (local, so a clock change
    in between does not shift it)."""
    at = datetime.fromisoformat(when)
    length = datetime.fromisoformat(event["end"]) - datetime.fromisoformat(event["start"])
    start = datetime.fromisoformat(f"{FACTS['back']}T{at:%H:%M}")
    return start, start + length


def _deputy(tools):
    """The deputy's address, from the address book (they work at the user's company)."""
    f = FACTS
    found = tools.contacts_search(query=f["deputy"])["contacts"]
    return next(c for c in found if c["organization"] == f["org"])["emails"][0]


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


def _named(event):
    """How a mail names a meeting: its title, or for a 1:1, what the two call it."""
    return "one-to-one" if event["summary"].startswith("1:1") else event["summary"]


def _first_name(mailbox):
    name = mailbox.split("<")[0].strip().strip('"')
    return name.split()[0] if name else address(mailbox)


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


def solve_one_per_meeting(tools):
    """The reminder first; one decline per meeting, as a reply where an invitation mail exists; each 1:1
    called off on its date and set up anew as a one-off on the first day back (named in words, no room),
    its prep reminder too (a day, no time); one mail per client call and per date the deputy runs."""
    f = FACTS
    plan = _study(tools)
    takers, named = _account_team(tools, sorted(plan["calls"], key=lambda pair: pair[1]))
    if f["reminder"]:
        tools.reminders_create(title="Handover: the account team and my client calls", list=f["list"], due=f["back"])
    for organizer, events in plan["declines"].items():
        for event in events:
            text = (
                f"Hi {_first_name(organizer)},\n\nI'm away on annual leave, so please count me out of the "
                f"{_named(event)} while I'm off.\n\nThanks,\n{f['first']}"
            )
            invites = tools.mail_search(subject=event["summary"], sender=address(organizer))["messages"]
            if invites:
                tools.mail_reply(id=invites[0]["id"], body=text)
            else:
                tools.mail_send(to=[address(organizer)], subject=f"Can't make the {_named(event)}", body=text)
    for reminder, (event, _) in _preps(tools, plan["moves"], paired=True):  # made anew, for the day back
        tools.reminders_delete(uid=reminder["uid"])
        who = event["summary"].split("/")[-1].strip()
        tools.reminders_create(title=f"Prepare the one-to-one with {who}", list=f["list"], due=f["back"])
    for event, when in plan["deputy"]:
        at = datetime.fromisoformat(when)
        tools.mail_send(
            to=[_deputy(tools)],
            subject=f"{event['summary']}: can you run it?",
            body=f"Hi {f['deputy']},\n\nCould you run this one while I'm off? {at.date().isoformat()}, "
            f"{clock(at, twelve=True)}.\n\nThanks,\n{f['first']}",
        )
    for event, when in plan["moves"]:
        start, end = _back_at(event, when)
        tools.calendar_delete_event(uid=event["uid"], occurrence=when, notify=False)
        guests = [a for a in event["attendees"] if address(a) != f["me"]]
        tools.calendar_create_event(
            calendar="Work",
            summary=f"One-to-one with {event['summary'].split('/')[-1].strip()}",
            start=start.strftime("%Y-%m-%dT%H:%M"),
            end=end.strftime("%Y-%m-%dT%H:%M"),
            attendees=guests,
        )
    _cancel(tools, plan["own"])
    for to, calls in takers.items():
        for event, when in calls:
            at = datetime.fromisoformat(when)
            tools.mail_send(
                to=[to],
                subject=f"Can you take this one? {event['summary']}",
                body=(
                    f"Hi {named[to].split()[0]},\n\nWhile I'm on leave, could you take this client call for "
                    f"me?\n\n{event['summary']} on {at.date().isoformat()} at {clock(at, twelve=True)}\n\n"
                    f"Many thanks,\n{f['first']}"
                ),
            )


solve = solve_one_per_meeting
