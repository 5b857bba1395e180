"""Alternative solution 'one_chaser_each' for rsvp-coordination-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'note': 'Running club dinner 2027: guest list',
 'event': 'Running club dinner',
 'invitation': 'Running club dinner on Thursday 18 November',
 'since': '2027-10-07',
 'venue': 'The Copper Kettle',
 'holidays': 'Holidays in France',
 'calendar': 'Personal',
 'list': 'Reminders',
 'own': {'deadline': 'Let Chloé know how many of us + who eats what',
         'nudge': 'Check with Nicolas about Thursday night'},
 'sign': 'Élodie',
 'readings': [{'from': 'mathilde@gmail.com',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'bilal.mansour@gmail.com',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': 'dairy-free',
               'says': "I'm lactose intolerant, so no dairy for me",
               'partner': None,
               'partner_need': None},
              {'from': 'dlemaire@free.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'mohammed@orange.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'mohammed@orange.fr',
               'subject': 'Running club dinner: one more thing',
               'answer': None,
               'need': 'shellfish allergy',
               'says': "I'm allergic to shellfish",
               'partner': None,
               'partner_need': None},
              {'from': 'catherine@orange.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': 'Dominique',
               'partner_need': 'nut allergy'},
              {'from': 'samiras@gmail.com',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': 'halal',
               'says': 'I only eat halal meat',
               'partner': None,
               'partner_need': None},
              {'from': 'samiras@gmail.com',
               'subject': 'Sorry: running club dinner',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'huda@orange.fr',
               'subject': 'Accepted: Running club dinner @ Thursday 18 November',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'elodier@orange.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'elodier@orange.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'conti.serena@orange.fr',
               'subject': 'Your book',
               'answer': 'yes',
               'need': 'gluten-free',
               'says': "I'm coeliac, so strictly gluten-free please",
               'partner': None,
               'partner_need': None},
              {'from': 'ferraro.gianni@orange.fr',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': 'yes',
               'need': 'vegetarian',
               'says': "I'm vegetarian",
               'partner': None,
               'partner_need': None},
              {'from': 'alessia@gmail.com',
               'subject': 'Re: Running club dinner on Thursday 18 November',
               'answer': None,
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None}]}
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


def _own(tools: Any, f: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The user's own to-dos in the list: telling the venue the numbers, and asking the quiet guest."""
    found = tools.reminders_list(list=f["list"])["reminders"]
    return {key: next(r for r in found if r["title"] == title) for key, title in f["own"].items()}


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


def _invitation(tools: Any, s: dict[str, Any]) -> None:
    out = {g["invited"] for g in s["people"] if g["answer"] == "no"}
    keep = [a for a in s["event"]["attendees"] if address(a) not in out]
    tools.calendar_update_event(uid=s["event"]["uid"], attendees=keep)


def _line(guest: dict[str, Any], words: dict[str, str]) -> str:
    state = words[guest["answer"]]
    if guest["answer"] == "yes" and guest["need"]:
        state += f" · {guest['need']}"
    if guest["answer"] == "yes" and guest["partner"]:
        state += f" (with {guest['partner'][0]}: {guest['partner'][1]})"
    return f"- {guest['name']} — {state}"


def _note_body(note: str, s: dict[str, Any], words: dict[str, str]) -> str:
    lines = []
    for line in note.splitlines():
        guest = next((g for g in s["people"] if line.startswith(f"- {g['name']} ")), None)
        if guest is not None:
            line = _line(guest, words)
        elif line.startswith("Total coming"):
            line = f"Total coming (incl. me): {s['count']}"
        lines.append(line)
    return "\n".join(lines)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _deadline(tools: Any, f: dict[str, Any], dinner: date) -> date:
    """The working day the venue's booking mail asks for the final numbers by, skipping public holidays."""
    booking = tools.mail_search(folder="INBOX", subject="Booking confirmed")["messages"][0]
    k = int(
        re.search(r"no later than (\d+) working days", one_line(tools.mail_read(id=booking["id"])["body"])).group(1)
    )
    closed = {
        date.fromisoformat(e["start"][:10])
        for e in tools.calendar_list_events(
            start=(dinner - timedelta(days=21)).isoformat(), end=dinner.isoformat(), calendar=f["holidays"]
        )["events"]
    }
    on = dinner
    while k:
        on -= timedelta(days=1)
        if on.weekday() < 5 and on not in closed:
            k -= 1
    return on


def _chased_before(tools: Any, f: dict[str, Any], guests: dict[str, dict[str, Any]]) -> None:
    """The guests the user already chased since the invitation (their chaser is in Sent): not chased again."""
    for message in tools.mail_search(folder="Sent", since=f["since"], limit=100)["messages"]:
        if message["subject"] == f["invitation"]:
            continue
        for entry in message["to"]:
            if address(entry) in guests and guests[address(entry)]["answer"] == "pending":
                guests[address(entry)]["answer"] = "chased"


def _replies(tools: Any, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Every message since the invitation went out, oldest first."""
    args = {"folder": "INBOX", "since": f["since"], "limit": 100}
    page = tools.mail_search(**args)
    found = page["messages"]
    while page.get("next_cursor"):
        page = tools.mail_search(**args, cursor=page["next_cursor"])
        found += page["messages"]
    return sorted(found, key=lambda m: datetime.fromisoformat(m["date"]))


def _read_all(tools: Any, f: dict[str, Any], guests: dict[str, dict[str, Any]]) -> None:
    """Apply each reply in the order they came: a later answer overrides an earlier one."""
    readings = {(r["from"], r["subject"]): r for r in f["readings"]}
    for message in _replies(tools, f):
        reading = readings.get((address(message["from"]), message["subject"]))
        if reading is None:
            continue
        sender = address(message["from"])
        if sender not in guests:  # written from an address the invitation did not use: ask the address book
            surname = message["from"].split("<")[0].split()[-1]
            card = next(c for c in tools.contacts_search(query=surname)["contacts"] if sender in c["emails"])
            guests[sender] = next(g for g in guests.values() if g["invited"] in card["emails"])
        guest = guests[sender]
        body = one_line(tools.mail_read(id=message["id"])["body"])
        if reading["says"]:
            assert reading["says"] in body, "the reply does not say what the task expects"
        if reading["answer"]:
            guest["answer"] = reading["answer"]
        if reading["need"]:
            guest["need"] = reading["need"]
        if reading["partner"]:
            guest["partner"] = (reading["partner"], reading["partner_need"])


def _guests(tools: Any, f: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each guest, by the address the user's invitation went to."""
    sent = tools.mail_search(folder="Sent", subject=f["invitation"])["messages"]
    invite = tools.mail_read(id=next(m for m in sent if m["subject"] == f["invitation"])["id"])  # not a "Re:"
    guests: dict[str, dict[str, Any]] = {}
    for entry in invite["to"]:
        name = entry.split("<")[0].strip().strip('"')
        guest = {"name": name, "invited": address(entry), "answer": "pending", "need": None, "partner": None}
        guests[address(entry)] = guest
    return guests


def _state(tools: Any, f: dict[str, Any]) -> dict[str, Any]:
    """Everything the replies, the booking and the calendar say."""
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    guests = _guests(tools, f)
    _read_all(tools, f, guests)
    _chased_before(tools, f, guests)
    found = tools.calendar_list_events(
        start=f["since"], end=(date.fromisoformat(f["since"]) + timedelta(days=60)).isoformat(), query=f["event"]
    )["events"]
    event = next(e for e in found if e["calendar"] == f["calendar"])
    dinner = datetime.fromisoformat(event["start"]).date()
    venue = next(c for c in tools.contacts_search(query=f["venue"])["contacts"] if c["organization"] == f["venue"])
    people = list({id(g): g for g in guests.values()}.values())
    coming = [g for g in people if g["answer"] == "yes"]
    needs = [g["need"] for g in coming if g["need"]] + [g["partner"][1] for g in coming if g["partner"]]
    return {
        "note": note,
        "event": event,
        "dinner": dinner,
        "due": _deadline(tools, f, dinner),
        "venue": venue["emails"][0],
        "people": people,
        "count": len(coming) + sum(1 for g in coming if g["partner"]) + 1,
        "needs": needs,
    }


def solve_each(tools):
    """One chaser per guest, the venue told by replying to its booking mail, the note in other words."""
    f = FACTS
    s = _state(tools, f)
    words = {"yes": "coming", "no": "not coming", "pending": "no answer yet, asked again", "chased": "awaiting reply"}
    tools.notes_update(uid=s["note"]["uid"], body=_note_body(s["note"]["body"], s, words))
    _invitation(tools, s)
    booking = tools.mail_search(folder="INBOX", subject="Booking confirmed")["messages"][0]
    numbers = (
        f"Dear {f['venue']} team,\n\nA quick update on our numbers: {s['count']} guests in total, me included. "
        f"Dietary needs: {', '.join(s['needs']) or 'none'}.\n\nThe final numbers follow by {day(s['due'])}.\n\n"
        f"Best wishes,\n{f['sign']}"
    )
    sent = tools.mail_reply(id=booking["id"], body=numbers)
    for instead in redirected(tools, [sent["message_id"]]).values():  # written again, the events mailbox in copy
        tools.mail_send(to=[instead], cc=[s["venue"]], subject="Our numbers", body=numbers)
    for guest in (g for g in s["people"] if g["answer"] == "pending"):
        tools.mail_send(
            to=[guest["invited"]],
            subject=f"Re: {f['invitation']}",
            body=f"Hi {guest['name'].split()[0]},\n\nAre you able to join us for the {f['event'].lower()}? I need to "
            f"give the venue final numbers on {day(s['due'])}, so a yes or no by then would be great.\n\n{f['sign']}",
        )
    own = _own(tools, f)
    tools.reminders_delete(uid=own["deadline"]["uid"])
    tools.reminders_delete(uid=own["nudge"]["uid"])
    tools.reminders_create(title=f"{f['event']}: final headcount", list=f["list"], due=s["due"].isoformat())


solve = solve_each
