"""Alternative solution 'read_all' for meeting-move-2-zh: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'partners': [{'surname': 'Dubois',
               'subject': 'Monthly check-in',
               'calendar_query': '月度例会',
               'client': 'Cobalt Media',
               'stated': 'Monday 5 October, 1:30pm Paris time',
               'assistant': 'Garnier',
               'zone': 'Europe/Paris',
               'zones': {'Lyon': 'Europe/Paris'},
               'their_time': [2026, 10, 5, 13, 30],
               'known_only': False,
               'their_zone': 'Paris',
               'them': 'Chloé',
               'reminder': '准备Cobalt Media月度例会',
               'names': ['Monthly check-in', 'Cobalt Media'],
               'reply': 'Hi Chloé,\n'
                        '\n'
                        "Done, I've moved our monthly check-in to {their} Paris time, which is {mine} for me "
                        'in Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-10-05T19:30:00+08:00'},
              {'surname': 'Ziegler',
               'subject': 'Quarterly sync',
               'calendar_query': '季度同步会',
               'client': 'Driftwood Labs',
               'stated': 'Friday 9 October, 1pm Berlin time',
               'assistant': None,
               'zone': 'Europe/Berlin',
               'zones': {'Hamburg': 'Europe/Berlin'},
               'their_time': [2026, 10, 9, 13, 0],
               'known_only': False,
               'their_zone': 'Berlin',
               'them': 'Maximilian',
               'reminder': '准备Driftwood Labs季度同步会',
               'names': ['Quarterly sync', 'Driftwood Labs'],
               'reply': 'Hi Maximilian,\n'
                        '\n'
                        "Done, I've moved our quarterly sync to {their} Berlin time, which is {mine} for me "
                        'in Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-10-09T19:00:00+08:00'},
              {'surname': 'Blackwood',
               'subject': 'Contract renewal call',
               'calendar_query': '合同续签沟通会',
               'client': 'Brightlane Media',
               'stated': 'Wednesday 30 September, 12:00 London time',
               'assistant': None,
               'zone': 'Europe/London',
               'zones': {'Edinburgh': 'Europe/London'},
               'their_time': [2026, 9, 30, 12, 0],
               'known_only': False,
               'their_zone': 'London',
               'them': 'Christopher',
               'reminder': '准备Brightlane Media合同续签沟通会',
               'names': ['Contract renewal call', 'Brightlane Media'],
               'reply': 'Hi Christopher,\n'
                        '\n'
                        "Done, I've moved our contract renewal call to {their} London time, which is {mine} "
                        'for me in Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-09-30T19:00:00+08:00'},
              {'surname': 'Onyekachi',
               'subject': 'Budget review',
               'calendar_query': '预算评审会',
               'client': 'Halcyon Labs',
               'stated': 'Monday 5 October, 10:00 Lagos time',
               'assistant': None,
               'zone': 'Africa/Lagos',
               'zones': {'Lagos': 'Africa/Lagos'},
               'their_time': [2026, 10, 5, 10, 0],
               'known_only': False,
               'their_zone': 'Lagos',
               'them': 'Ikechukwu',
               'reminder': '准备Halcyon Labs预算评审会',
               'names': ['Budget review', 'Halcyon Labs'],
               'reply': 'Hi Ikechukwu,\n'
                        '\n'
                        "Done, I've moved our budget review to {their} Lagos time, which is {mine} for me in "
                        'Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-10-05T17:00:00+08:00'},
              {'surname': 'Rinaldi',
               'subject': 'Steering group',
               'calendar_query': '指导小组会',
               'client': 'Granite Partners',
               'stated': 'Tuesday 6 October, 09:30 Sao Paulo time',
               'assistant': None,
               'zone': 'America/Sao_Paulo',
               'zones': {'São Paulo': 'America/Sao_Paulo'},
               'their_time': [2026, 10, 6, 9, 30],
               'known_only': True,
               'their_zone': 'Sao Paulo',
               'them': 'Fra',
               'reminder': '准备Granite Partners指导小组会',
               'names': ['Steering group', 'Granite Partners'],
               'reply': 'Hi Fra,\n'
                        '\n'
                        "Done, I've moved our steering group to {their} Sao Paulo time, which is {mine} for "
                        'me in Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-10-06T20:30:00+08:00'},
              {'surname': 'Mansour',
               'subject': 'Pilot retro',
               'calendar_query': '试点复盘会',
               'client': 'Sable Analytics',
               'stated': 'Wednesday 7 October at 09:00 my time',
               'assistant': None,
               'zone': None,
               'zones': {'Stockholm': 'Europe/Stockholm'},
               'their_time': [2026, 10, 7, 9, 0],
               'known_only': False,
               'their_zone': 'Stockholm',
               'them': 'Mohammed',
               'reminder': '准备Sable Analytics试点复盘会',
               'names': ['Pilot retro', 'Sable Analytics'],
               'reply': 'Hi Mohammed,\n'
                        '\n'
                        "Done, I've moved our pilot retro to {their} Stockholm time, which is {mine} for me "
                        'in Shanghai. Talk then!\n'
                        '\n'
                        'Best,\n'
                        'Kevin',
               'mine': '2026-10-07T15:00:00+08:00'}],
 'window': ['2026-09-28', '2026-10-14'],
 'lead_minutes': 60,
 'list': '工作',
 'my_zone': 'Shanghai',
 'me': 'Kevin'}
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


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


def solve_read_all(tools):
    """Reads every message of each partner and lists every event of the window; replaces an existing prep
    reminder by a new one; when a request came from an address nothing verifies, writes to nobody there and asks
    the user in the final answer; after an automatic reply, writes again to whoever it names, to them alone."""
    f = FACTS
    asked = []
    existing = _open_reminders(tools)
    for p in f["partners"]:
        request, contact, meeting, theirs, mine, answered = _plan(tools, p, read_all=True)
        tools.calendar_update_event(uid=meeting["uid"], start=mine.isoformat())
        if f["lead_minutes"]:
            pattern = "|".join(re.escape(n) for n in p["names"])
            for old in [r for r in existing if re.search(pattern, r["title"], re.IGNORECASE)]:
                tools.reminders_delete(uid=old["uid"])
            due = mine - timedelta(minutes=f["lead_minutes"])
            tools.reminders_create(title=f"{p['subject']}: {p['reminder']}", list=f["list"], due=due.isoformat())
        if answered:
            continue
        if p["known_only"]:
            asked.append(
                f"I moved the {p['subject'].lower()} to {clock(mine)} your time but have not replied: the request "
                f"came from {address(request['from'])}, which is not the address in your contacts. Could you "
                f"confirm it is really {p['them']} before I write there, or shall I write to {contact['emails'][0]}?"
            )
            continue
        when = (
            f"{day(mine.date())}, {clock(mine)} my time ({f['my_zone']}), which is {day(theirs.date())}, "
            f"{clock(theirs)} your time in {p['their_zone']}"
        )
        sent = tools.mail_reply(
            id=request["id"]
            if not p["assistant"]
            else newest(tools.mail_search(folder="INBOX", sender=p["surname"], subject=p["subject"])["messages"])["id"],
            body=f"Hi {p['them']},\n\nMoved! New time: {when}.\n\n{f['me']}",
        )
        for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to them alone
            tools.mail_send(
                to=[instead],
                subject=sent["subject"],
                body=f"Hello,\n\n{p['them']} is away, so for their calendar: the meeting moved to {when}.\n\n{f['me']}",
            )
    return "\n".join(asked)


solve = solve_read_all
