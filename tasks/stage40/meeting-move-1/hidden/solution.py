"""Reference solution for meeting-move-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'partners': [{'surname': 'Kato',
               'subject': 'Pilot retro',
               'calendar_query': 'Pilot retro',
               'client': 'Emberline Media',
               'stated': 'Friday 15 May, 4:30pm Tokyo time',
               'assistant': None,
               'zone': 'Asia/Tokyo',
               'zones': {'Tokyo': 'Asia/Tokyo'},
               'their_time': [2026, 5, 15, 16, 30],
               'known_only': False,
               'their_zone': 'Tokyo',
               'them': 'Riku',
               'reminder': 'Prepare for the pilot retro with Emberline Media',
               'names': ['Pilot retro', 'Emberline Media'],
               'reply': 'Hi Riku,\n'
                        '\n'
                        "Done, I've moved our pilot retro to {their} Tokyo time, which is {mine} for me in "
                        'Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-15T09:30:00+02:00'},
              {'surname': 'Castillo',
               'subject': 'Monthly check-in',
               'calendar_query': 'Monthly check-in',
               'client': 'Larkspur Labs',
               'stated': 'Wednesday, May 13, 9:30am Los Angeles time',
               'assistant': 'Pemberton',
               'zone': 'America/Los_Angeles',
               'zones': {'Seattle': 'America/Los_Angeles'},
               'their_time': [2026, 5, 13, 9, 30],
               'known_only': False,
               'their_zone': 'Los Angeles',
               'them': 'Enrique',
               'reminder': 'Prepare for the monthly check-in with Larkspur Labs',
               'names': ['Monthly check-in', 'Larkspur Labs'],
               'reply': 'Hi Enrique,\n'
                        '\n'
                        "Done, I've moved our monthly check-in to {their} Los Angeles time, which is {mine} "
                        'for me in Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-13T18:30:00+02:00'},
              {'surname': 'Paredes',
               'subject': 'Budget review',
               'calendar_query': 'Budget review',
               'client': 'Waypoint Logistics',
               'stated': 'Thursday 14 May, 10:30 Mexico City time',
               'assistant': None,
               'zone': 'America/Mexico_City',
               'zones': {'Ciudad de México': 'America/Mexico_City'},
               'their_time': [2026, 5, 14, 10, 30],
               'known_only': False,
               'their_zone': 'Mexico City',
               'them': 'Enrique',
               'reminder': 'Prepare for the budget review with Waypoint Logistics',
               'names': ['Budget review', 'Waypoint Logistics'],
               'reply': 'Hi Enrique,\n'
                        '\n'
                        "Done, I've moved our budget review to {their} Mexico City time, which is {mine} for "
                        'me in Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-14T18:30:00+02:00'},
              {'surname': 'Barbosa',
               'subject': 'Steering group',
               'calendar_query': 'Steering group',
               'client': 'Corvid Health',
               'stated': 'Monday 18 May, 11:30am Sao Paulo time',
               'assistant': None,
               'zone': 'America/Sao_Paulo',
               'zones': {'São Paulo': 'America/Sao_Paulo'},
               'their_time': [2026, 5, 18, 11, 30],
               'known_only': False,
               'their_zone': 'Sao Paulo',
               'them': 'Thiago',
               'reminder': 'Prepare for the steering group with Corvid Health',
               'names': ['Steering group', 'Corvid Health'],
               'reply': 'Hi Thiago,\n'
                        '\n'
                        "Done, I've moved our steering group to {their} Sao Paulo time, which is {mine} for "
                        'me in Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-18T16:30:00+02:00'},
              {'surname': 'Mehta',
               'subject': 'Contract renewal call',
               'calendar_query': 'Contract renewal call',
               'client': 'Bluefin Analytics',
               'stated': 'Thursday 14 May, 4:30pm Singapore time',
               'assistant': None,
               'zone': 'Asia/Singapore',
               'zones': {'Singapore': 'Asia/Singapore'},
               'their_time': [2026, 5, 14, 16, 30],
               'known_only': True,
               'their_zone': 'Singapore',
               'them': 'Aishu',
               'reminder': 'Prepare for the contract renewal call with Bluefin Analytics',
               'names': ['Contract renewal call', 'Bluefin Analytics'],
               'reply': 'Hi Aishu,\n'
                        '\n'
                        "Done, I've moved our contract renewal call to {their} Singapore time, which is "
                        '{mine} for me in Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-14T10:30:00+02:00'},
              {'surname': 'Zhu',
               'subject': 'Quarterly sync',
               'calendar_query': 'Quarterly sync',
               'client': 'Granite Media',
               'stated': 'Friday 8 May at 17:30 my time',
               'assistant': None,
               'zone': None,
               'zones': {'Melbourne': 'Australia/Melbourne'},
               'their_time': [2026, 5, 8, 17, 30],
               'known_only': False,
               'their_zone': 'Melbourne',
               'them': 'Yong',
               'reminder': 'Prepare for the quarterly sync with Granite Media',
               'names': ['Quarterly sync', 'Granite Media'],
               'reply': 'Hi Yong,\n'
                        '\n'
                        "Done, I've moved our quarterly sync to {their} Melbourne time, which is {mine} for "
                        'me in Berlin. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Mohammed',
               'mine': '2026-05-08T09:30:00+02:00'}],
 'window': ['2026-05-06', '2026-05-22'],
 'lead_minutes': 15,
 'list': 'Work',
 'my_zone': 'Berlin',
 'me': 'Mohammed'}
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


def _remind(tools, p, mine, title, existing):
    """One open prep reminder before the moved meeting: the one already there is moved, else a new one."""
    f = FACTS
    if not f["lead_minutes"]:
        return
    due = mine - timedelta(minutes=f["lead_minutes"])
    pattern = "|".join(re.escape(n) for n in p["names"])
    old = next((r for r in existing if re.search(pattern, r["title"], re.IGNORECASE)), None)
    if old is not None:
        tools.reminders_update(uid=old["uid"], due=due.isoformat())
    else:
        tools.reminders_create(title=title, list=f["list"], due=due.isoformat())


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


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _plan(tools, p, read_all=False):
    """One partner's request, their meeting, the new time in both zones, their contact and whether the user
    already answered them; with `read_all`, the partner's messages and the assistant's are each read, and every
    event of the window listed instead of searching."""
    f = FACTS
    found = tools.mail_search(folder="INBOX", sender=p["surname"], subject=p["subject"])["messages"]
    if read_all:
        for message in found:
            tools.mail_read(id=message["id"])
    request = tools.mail_read(id=newest(found)["id"])  # a later message overrides an earlier proposal
    if p["assistant"]:  # they left the new slot to their assistant, whose mail gives it
        theirs = tools.mail_search(folder="INBOX", sender=p["assistant"], subject=p["subject"])["messages"]
        request = tools.mail_read(id=newest(theirs)["id"])
    assert p["stated"] in one_line(request["body"]), "the request does not give the time the task is about"
    answered = tools.mail_search(folder="Sent", subject=p["subject"], recipient=p["surname"])["messages"]

    contact = next(
        c
        for c in tools.contacts_search(query=p["surname"])["contacts"]
        if p["surname"] in c["name"] and c.get("organization") == p["client"]
    )
    zone = p["zone"]
    if zone is None:  # "my time": where they work is only in their contact notes
        zone = next(z for city, z in p["zones"].items() if city in contact["notes"])
    theirs = datetime(*p["their_time"], tzinfo=ZoneInfo(zone))
    mine = theirs.astimezone(ZoneInfo(tools.now()["timezone"]))

    window = f["window"]
    query = None if read_all else p["calendar_query"]
    events = pages(tools.calendar_list_events, start=window[0], end=window[1], query=query)
    known = {address(e) for e in contact["emails"]}
    meeting = next(
        e for e in events if known & {address(a) for a in e["attendees"]} and p["calendar_query"] in e["summary"]
    )
    return request, contact, meeting, theirs, mine, bool(answered)


def _open_reminders(tools):
    if not FACTS["lead_minutes"]:
        return []
    return every(tools.reminders_list, "reminders", list=FACTS["list"])


def solve(tools):
    f = FACTS
    existing = _open_reminders(tools)
    sent = []
    for p in f["partners"]:
        request, contact, meeting, theirs, mine, answered = _plan(tools, p)
        tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())  # keeps its length
        _remind(tools, p, mine, p["reminder"], existing)
        if answered:
            continue  # the user already confirmed this one
        body = p["reply"].format(
            their=f"{day(theirs.date())} {clock(theirs)}", mine=f"{day(mine.date())} {clock(mine)}"
        )
        if p["known_only"]:
            # They wrote from an address nothing vouches for: the confirmation goes to the one the world knows.
            reply = tools.mail_send(
                to=[f"{contact['name']} <{contact['emails'][0]}>"],
                subject=f"Re: {request['subject']}",
                body=body,
                in_reply_to=request["message_id"],
            )
        elif p["assistant"]:
            reply = tools.mail_send(to=[contact["emails"][0]], subject=f"Re: {request['subject']}", body=body)
        else:
            reply = tools.mail_reply(id=request["id"], body=body)
        sent.append(reply["message_id"])
    for mid, instead in redirected(tools, sent).items():  # travelling: forwarded to whoever keeps their calendar
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        note = "Hello,\n\nAs the automatic reply asked, my confirmation of the new time is below.\n\nThank you!"
        tools.mail_forward(id=copy["id"], to=[instead], body=f"{note}\n{f['me']}")
