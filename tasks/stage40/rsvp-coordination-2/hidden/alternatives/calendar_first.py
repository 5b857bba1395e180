"""Alternative solution 'calendar_first' for rsvp-coordination-2: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'note': 'Reunion dinner 2026: guest list',
 'event': 'Class reunion dinner',
 'invitation': 'Class reunion dinner on Thursday 9 April',
 'since': '2026-02-26',
 'venue': 'The Copper Kettle',
 'holidays': 'Holidays in Germany',
 'calendar': 'Personal',
 'list': 'Reminders',
 'own': {'deadline': 'Fredrik: how many are coming, and the veggie/GF lot',
         'nudge': 'Till coming on Thursday? ask'},
 'sign': 'Krzysztof',
 'readings': [{'from': 'miriam@posteo.de',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'henning.kranz@mailbox.org',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': 'dairy-free',
               'says': "I'm lactose intolerant, so no dairy for me",
               'partner': None,
               'partner_need': None},
              {'from': 'krzysztof.mazur@mailbox.org',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'miriam@gmx.de',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'miriam@gmx.de',
               'subject': 'Class reunion dinner: one more thing',
               'answer': None,
               'need': 'shellfish allergy',
               'says': "I'm allergic to shellfish",
               'partner': None,
               'partner_need': None},
              {'from': 'stefaniek@mailbox.org',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': 'Friedrich',
               'partner_need': 'nut allergy'},
              {'from': 'joakim.lindqvist@web.de',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': 'vegetarian',
               'says': "I'm vegetarian",
               'partner': None,
               'partner_need': None},
              {'from': 'joakim.lindqvist@web.de',
               'subject': 'Sorry: class reunion dinner',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'bdemir@mailbox.org',
               'subject': 'Accepted: Class reunion dinner @ Thursday 9 April',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'ayse_koc@mailbox.org',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'no',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'ayse_koc@mailbox.org',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None},
              {'from': 'ifeoma.nwosu@mailbox.org',
               'subject': 'Your book',
               'answer': 'yes',
               'need': 'vegan',
               'says': "I'm vegan these days",
               'partner': None,
               'partner_need': None},
              {'from': 'andi@posteo.de',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': 'yes',
               'need': 'gluten-free',
               'says': "I'm coeliac, so strictly gluten-free please",
               'partner': None,
               'partner_need': None},
              {'from': 'deniz@posteo.de',
               'subject': 'Re: Class reunion dinner on Thursday 9 April',
               'answer': None,
               'need': None,
               'says': None,
               'partner': None,
               'partner_need': None}]}
WORDS = {"yes": "yes", "no": "can't come", "pending": "no reply yet (chased)", "chased": "no reply yet (chased)"}
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


def _invitation(tools: Any, s: dict[str, Any]) -> None:
    out = {g["invited"] for g in s["people"] if g["answer"] == "no"}
    keep = [a for a in s["event"]["attendees"] if address(a) not in out]
    tools.calendar_update_event(uid=s["event"]["uid"], attendees=keep)


def _own(tools: Any, f: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The user's own to-dos in the list: telling the venue the numbers, and asking the quiet guest."""
    found = tools.reminders_list(list=f["list"])["reminders"]
    return {key: next(r for r in found if r["title"] == title) for key, title in f["own"].items()}


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


def solve_calendar_first(tools):
    """The reminder and the invitation first, the mail next, the note last."""
    f = FACTS
    s = _state(tools, f)
    own = _own(tools, f)
    tools.reminders_update(
        uid=own["deadline"]["uid"], title=f"Send {f['venue']} the final numbers", due=s["due"].isoformat()
    )
    tools.reminders_delete(uid=own["nudge"]["uid"])
    _invitation(tools, s)
    pending = [g for g in s["people"] if g["answer"] == "pending"]
    tools.mail_send(
        to=[pending[0]["invited"]],
        cc=[g["invited"] for g in pending[1:]],
        subject=f"Reminder: {f['event'].lower()}",
        body=f"Hello,\n\nJust checking whether you can come to the {f['event'].lower()}. Please tell me by "
        f"{day(s['due'])}.\n\nCheers,\n{f['sign']}",
    )
    numbers = (
        f"Hi,\n\nHeadcount so far: {s['count']} (that includes me). Dietary requirements: "
        f"{'; '.join(s['needs']) or 'none'}.\n\nThanks,\n{f['sign']}"
    )
    sent = tools.mail_send(to=[s["venue"]], subject=f"Numbers for the {f['event'].lower()}", body=numbers)
    for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to that address alone
        tools.mail_send(to=[instead], subject=f"Numbers for the {f['event'].lower()}", body=numbers)
    tools.notes_update(uid=s["note"]["uid"], body=_note_body(s["note"]["body"], s, WORDS))


solve = solve_calendar_first
