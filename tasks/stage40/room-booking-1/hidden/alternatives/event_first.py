"""Alternative solution 'event_first' for room-booking-1: another reasonable way to the goal."""

from __future__ import annotations

import itertools
import re
from datetime import date, datetime, time, timedelta


FACTS = {'subject': 'Bake sale planning: 13 July?',
 'options': 'Monday 13 July, either at lunchtime (12:30–13:30) or after work (17:30–18:30)',
 'slots': [['2026-07-13T12:30:00+05:30', '2026-07-13T13:30:00+05:30'],
           ['2026-07-13T17:30:00+05:30', '2026-07-13T18:30:00+05:30']],
 'day': '2026-07-13',
 'accept': ['Count me in!',
            'Good news, I can make it after all, so count me in.',
            "I'm in, thanks for organising.",
            "Sounds great, I'll come.",
            "Turns out I'm free after all, I'll be there.",
            "Yes please, I'll be there."],
 'decline': ['Bad news, I have to drop out after all.',
             "I'll have to skip this one, I'm away that week.",
             "Not sure yet, I'll let you know.",
             'Possibly, I need to check my diary first.',
             "Sorry, I can't make it this time.",
             "Sorry, something's come up and I can't make it after all.",
             "Unfortunately I can't join, it clashes with something."],
 'need': 'Screen',
 'need_phrase': 'Meera wants to show some photos, so we need a room with a screen.',
 'note': 'Bake sale planning',
 'domain': 'northwind-systems.in',
 'title': 'Bake sale planning',
 'calendar': 'Work',
 'consistent': True,
 'invite_subject': 'Bake sale planning: room booked',
 'invite': 'Hi all,\n\nthe bake sale planning meeting is on {when} in {room}. See you there!\n\nAbhishek',
 'me': 'Abhishek',
 'pattern': 'bake\\s*sale',
 'news': 'Floor 2 meeting rooms closed for new carpets and lighting',
 'notice': 'Meeting rooms out of use: new carpets and lighting',
 'list': 'Work',
 'requests': ['Could you book a room? (supplier interviews)',
              'Room booking: design review',
              'Room for the data training?'],
 'session_needs': {'Video conferencing': 'half the team joins from the other office, so it needs video '
                                         'conferencing',
                   'Speakerphone': 'two people will dial in, so it needs a speakerphone',
                   'Whiteboard': "we'll be sketching things out, so it needs a whiteboard",
                   'Flip chart': 'we split into groups and write things up, so it needs a flip chart',
                   'Screen': "I'm presenting slides, so it needs a screen",
                   'Step-free access': 'one of the visitors uses a wheelchair, so it needs step-free access'}}
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


def fill_form(tools: Any, page: dict[str, Any], values: dict[str, str]) -> None:
    """Type or choose each value into the page's form field of that name (`{n: input name=amount ...}`)."""
    for name, value in values.items():
        found = re.search(rf"\{{(\d+): (\w+)(?: type=\w+)? name={re.escape(name)} ", page["text"])
        assert found, f"the page {page['url']} has no field {name}"
        if found.group(2) == "select":
            tools.browser_select(ref=int(found.group(1)), option=value)
        else:
            tools.browser_fill(ref=int(found.group(1)), value=value)


def _book(tools, url, on, start, end, title):
    form = tools.browser_open(url=f"{url}?date={on.isoformat()}")
    fill_form(tools, form, {"start": clock(start), "end": clock(end), "title": title})
    done = tools.browser_click(text="Reserve room")
    assert "is reserved for you" in done["text"], done["text"]


def _sessions(tools, plan, titled=lambda s: s["what"]):
    """Each colleague's room, as the one complete assignment gives it."""
    for session in plan["sessions"]:
        _book(tools, session["url"], plan["on"], session["start"], session["end"], titled(session))


def _reserve(tools, plan):
    _book(tools, plan["url"], plan["on"], plan["start"], plan["end"], FACTS["title"])


def _rows(page: dict[str, Any]) -> list[list[str]]:
    """The cells of each table row of a page (the browser shows a row as `[3] a | b | c`)."""
    return [
        [cell.strip() for cell in re.sub(r"\[\d+\] ", "", line).split(" | ")]
        for line in page["text"].splitlines()
        if " | " in line
    ]


def _cancel(tools, plan):
    """The placeholder cannot be moved: it is cancelled."""
    f = FACTS
    on = plan["on"]
    mine = tools.browser_open(url="/intranet/reservations")
    shown_day = f"{on:%a} {on.day} {on:%b %Y}"
    [placeholder] = [
        r[0]
        for r in _rows(mine)
        if r[2] == shown_day and r[4] == f["title"] and r[5] == "confirmed" and plan["room"] not in r[:4]
    ]
    tools.browser_click(text=placeholder)
    cancelled = tools.browser_click(text="Cancel reservation")
    assert "was cancelled" in cancelled["text"], cancelled["text"]


def _own(tools, plan, anew=False):
    """What the user set up around the placeholder names its room: the reminder to fetch the key moves with the
    booking (as long before the new start as it was before the old one), and the note's line on the room held
    gives the new room and time (or, `anew`, both are deleted and written again)."""
    f = FACTS
    [held] = plan["held"]
    old_room, old = held["location"], datetime.fromisoformat(held["start"])
    named = re.compile(rf"(?<!\w){re.escape(old_room)}(?!\w)")
    [todo] = [r for r in tools.reminders_list()["reminders"] if named.search(r["title"])]
    due = (plan["start"] - (old - datetime.fromisoformat(todo["due"]))).isoformat()
    title = named.sub(plan["room"], todo["title"])
    if anew:
        tools.reminders_delete(uid=todo["uid"])
        tools.reminders_create(title=title, list=todo["list"], due=due)
    else:
        tools.reminders_update(uid=todo["uid"], title=title, due=due)
    [note] = [n for n in tools.notes_search(query=f["title"])["notes"] if n["title"] == f["title"]]
    body = tools.notes_read(uid=note["uid"])["body"]
    lines = body.splitlines()
    [at] = [n for n, line in enumerate(lines) if named.search(line)]
    if anew:
        del lines[at]
        lines.append(f"Booked {plan['room']}: {day(plan['on'])}, {clock(plan['start'])}–{clock(plan['end'])}")
    else:
        lines[at] = named.sub(plan["room"], lines[at]).replace(clock(old), clock(plan["start"]))
    tools.notes_update(uid=note["uid"], body="\n".join(lines))


def _event(tools, plan, summary, anew=False):
    """The get-together the user holds in the calendar is moved to the slot and room (or, `anew`, deleted and
    made again)."""
    f = FACTS
    event = {"summary": summary, "start": plan["start"].isoformat(), "end": plan["end"].isoformat()}
    if f["consistent"]:
        event.update(location=plan["room"], attendees=plan["invited"])
    [held] = plan["held"]
    if anew:
        tools.calendar_delete_event(uid=held["uid"])
        tools.calendar_create_event(calendar=f["calendar"], **event)
    else:
        tools.calendar_update_event(uid=held["uid"], **event)


def _minutes(clock_text: str) -> int:
    hours, minutes = clock_text.split(":")
    return int(hours) * 60 + int(minutes)


def _us(d: date) -> str:
    return f"{d:%A}, {d:%B} {d.day}"


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _closed(news: str, names: list[str], on: date) -> list[str]:
    """The rooms the news item on the closed floor names, when `on` is among the days it gives."""
    f = FACTS
    at = news.index(f["news"])
    text = one_line(news[at : at + 1200])
    days = [on + timedelta(days=n) for n in range(-21, 22)]
    first = next(d for d in days if f"from {day(d, region=None)}" in text or f"from {_us(d)}" in text)
    last = next(d for d in days if f"to {day(d, region=None)}" in text or f"to {_us(d)}" in text)
    if not first <= on <= last:
        return []
    mentioned, out = text.split(" are closed")[0], []
    for name in sorted(names, key=len, reverse=True):  # "Harbour View" before "Harbour"
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", mentioned):
            out.append(name)
            mentioned = mentioned.replace(name, "")
    return out


def _clock(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _own_words(body: str) -> str:
    """A mail body without the message it quotes, on one line."""
    return one_line("\n".join(line for line in body.splitlines() if not line.lstrip().startswith(">")))


def _at(message: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(message["date"])


def _plan(tools):
    """Who is coming (their work addresses), the free slot, the one room that fits and its page."""
    f = FACTS
    [sent] = tools.mail_search(folder="Sent", subject=f["subject"])["messages"]
    call = tools.mail_read(id=sent["id"])
    assert f["options"] in one_line(call["body"]), "the call does not offer the two slots"

    # Who is coming: each member's latest answer counts.
    latest: dict[str, dict[str, Any]] = {}
    for reply in tools.mail_search(folder="INBOX", subject=f["subject"], limit=50)["messages"]:
        sender = address(reply["from"])
        if sender not in latest or _at(reply) > _at(latest[sender]):
            latest[sender] = reply
    coming = []
    for sender, reply in sorted(latest.items()):
        words = _own_words(tools.mail_read(id=reply["id"])["body"])
        yes, no = any(p in words for p in f["accept"]), any(p in words for p in f["decline"])
        assert yes != no, f"cannot tell what {sender} answered: {words}"
        if yes:
            coming.append(sender)
    seats = len(coming) + 1  # and the user

    # What the room must have: in the call, or only in the user's note on the club.
    where = call["body"]
    if f["note"] is not None:
        where = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])["body"]
    assert f["need_phrase"] in one_line(where), "the need is not where it should be"

    # The slot the calendar leaves free (the get-together the user already holds does not count against it).
    on = date.fromisoformat(f["day"])
    events = tools.calendar_list_events(start=on.isoformat(), end=(on + timedelta(days=1)).isoformat())["events"]
    held = [e for e in events if re.search(f["pattern"], e["summary"], re.IGNORECASE)]
    busy = [
        (datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"]))
        for e in events
        if not e["all_day"] and e["status"] != "CANCELLED" and e not in held
    ]
    free = [
        (datetime.fromisoformat(s), datetime.fromisoformat(e))
        for s, e in f["slots"]
        if all(end <= datetime.fromisoformat(s) or start >= datetime.fromisoformat(e) for start, end in busy)
    ]
    [(start, end)] = free

    # The colleagues' requests for rooms that day: when, how many, what the room needs.
    bookings = [{"who": None, "start": start, "end": end, "seats": seats, "need": f["need"]}]
    for subject in f["requests"]:
        [found] = tools.mail_search(folder="INBOX", subject=subject)["messages"]
        words = _own_words(tools.mail_read(id=found["id"])["body"])
        times = re.search(r"(\d{1,2}:\d\d) to (\d{1,2}:\d\d)", words)
        count = re.search(r"(?:We'll be|There will be) (\d+)", words)
        [need] = [feature for feature, phrase in f["session_needs"].items() if phrase in words]
        bookings.append(
            {
                "who": address(found["from"]),
                "start": datetime.combine(start.date(), _clock(times.group(1)), start.tzinfo),
                "end": datetime.combine(start.date(), _clock(times.group(2)), start.tzinfo),
                "seats": int(count.group(1)),
                "need": need,
                "what": subject,
            }
        )

    # The rooms that seat a booking and have what it needs, are not closed that day (the intranet's news, as
    # Facilities wrote), and when each of them is taken.
    listing = tools.browser_open(url="/intranet/rooms")
    rows = [row for row in _rows(listing) if row[2].isdigit()]
    names = [row[0] for row in rows]
    [notice] = tools.mail_search(folder="INBOX", subject=f["notice"])["messages"]
    assert "news page" in one_line(tools.mail_read(id=notice["id"])["body"]), "Facilities point elsewhere"
    closed = _closed(tools.browser_open(url="/intranet/")["text"], names, on)

    def fits(row: list[str], booking: dict[str, Any]) -> bool:
        return int(row[2]) >= booking["seats"] and booking["need"] in row[3].split(", ") and row[0] not in closed

    taken: dict[str, list[tuple[int, int]]] = {}
    urls: dict[str, str] = {}
    for row in rows:
        if not any(fits(row, b) for b in bookings):
            continue
        tools.browser_open(url="/intranet/rooms")
        urls[row[0]] = tools.browser_click(text=row[0])["url"]
        schedule = tools.browser_open(url=f"{urls[row[0]]}?date={on.isoformat()}")
        taken[row[0]] = [(_minutes(r[0]), _minutes(r[1])) for r in _rows(schedule) if re.fullmatch(r"\d\d:\d\d", r[0])]

    def span(booking: dict[str, Any]) -> tuple[int, int]:
        return (booking["start"].hour * 60 + booking["start"].minute, booking["end"].hour * 60 + booking["end"].minute)

    def free(name: str, booking: dict[str, Any]) -> bool:
        a, b = span(booking)
        return all(y <= a or x >= b for x, y in taken[name])

    options = [[row[0] for row in rows if row[0] in taken and fits(row, b) and free(row[0], b)] for b in bookings]
    # Every way to give each booking one of its rooms; rooms used twice must not be used at overlapping times.
    complete = []
    for choice in itertools.product(*options):
        clash = any(
            choice[i] == choice[j]
            and span(bookings[i])[0] < span(bookings[j])[1]
            and span(bookings[j])[0] < span(bookings[i])[1]
            for i in range(len(choice))
            for j in range(i + 1, len(choice))
        )
        if not clash:
            complete.append(choice)
    [chosen] = complete
    room, url = chosen[0], urls[chosen[0]]
    sessions = [{**b, "room": r, "url": urls[r]} for b, r in zip(bookings[1:], chosen[1:], strict=True)]

    # Their work addresses: a member writing from elsewhere is in the address book under their full
    # name, and the directory has that name with the work address.
    invited = []
    for sender in coming:
        if sender.endswith("@" + f["domain"]):
            invited.append(sender)
            continue
        [known] = tools.contacts_search(query=sender)["contacts"]
        people = tools.browser_open(url=f"/intranet/directory?q={known['name'].split()[-1]}")
        [work] = [r[3] for r in _rows(people) if r[0] == known["name"]]
        invited.append(work.lower())
    return {
        "on": on,
        "start": start,
        "end": end,
        "room": room,
        "url": url,
        "invited": invited,
        "held": held,
        "sessions": sessions,
    }


def solve_event_first(tools):
    """Puts the get-together in the calendar first, then deals with the intranet, then tells everyone."""
    f = FACTS
    plan = _plan(tools)
    _event(tools, plan, f["title"])
    _own(tools, plan)
    _cancel(tools, plan)
    _reserve(tools, plan)
    tools.mail_send(
        to=plan["invited"],
        subject=f"Room for the {f['title']}",
        body=f"Hello everyone,\n\nRoom: {plan['room']}\nDate: {day(plan['on'])}\n"
        f"Time: {clock(plan['start'])} to {clock(plan['end'])}\n\nThanks for the replies,\n{f['me']}",
    )
    _sessions(tools, plan)
    lines = [f"- {s['what']}: {s['room']}, {clock(s['start'])}–{clock(s['end'])}" for s in plan["sessions"]]
    tools.mail_send(
        to=[s["who"] for s in plan["sessions"]],
        subject="Rooms booked",
        body="Hi all,\n\nyour rooms for " + day(plan["on"]) + ":\n\n" + "\n".join(lines) + f"\n\n{f['me']}",
    )


solve = solve_event_first
