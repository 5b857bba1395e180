"""Reference solution for event-planning-2, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, time, timedelta
from itertools import product


FACTS = {'note': 'Sales offsite – plan',
 'list': 'Sales offsite',
 'calendar': 'Work',
 'sheet': 'Work/Sales offsite/Budget.csv',
 'dates': [['Thursday 29 October', '2026-10-29'],
           ['Wednesday 4 November', '2026-11-04'],
           ['Tuesday 17 November', '2026-11-17']],
 'hours': ['10:00', '10:00', 25200],
 'cap': [['£6,600.00', 6600.0]],
 'pay_days': 2,
 'holidays': [],
 'must': {'name': 'Kojo Darko',
          'needs': 'Uses a wheelchair',
          'unmet': "Just so you know, the room is on the first floor, up a flight of stairs; there's no "
                   "lift, I'm afraid."},
 'withdraw': 'withdraw our quote',
 'suppliers': [{'name': 'The Lantern Rooms',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£2,000.00', 2000.0]],
                'deposits': [['£600.00', 600.0]],
                'deadline': {'shown': 'Thursday 17 September', 'days_before': None, 'date': '2026-09-17'},
                'from': 'hello@lanternrooms.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at The Lantern Rooms',
                'reminder': 'Pay the deposit: The Lantern Rooms (venue)',
                'alias': None},
               {'name': 'Hartwell House',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£2,200.00', 2200.0]],
                'deposits': [['£440.00', 440.0]],
                'deadline': {'shown': 'Tuesday 22 September', 'days_before': None, 'date': '2026-09-22'},
                'from': 'bookings@hartwellhouse.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at Hartwell House',
                'reminder': 'Pay the deposit: Hartwell House (venue)',
                'alias': None},
               {'name': 'The Old Granary',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,750.00', 1750.0]],
                'deposits': [['£530.00', 530.0]],
                'deadline': {'shown': 'Friday 2 October', 'days_before': None, 'date': '2026-10-02'},
                'from': 'events@oldgranary.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at The Old Granary',
                'reminder': 'Pay the deposit: The Old Granary (venue)',
                'alias': None},
               {'name': 'Greenleaf Kitchen',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,650.00', 1650.0]],
                'deposits': [['£500.00', 500.0]],
                'deadline': {'shown': 'Tuesday 13 October', 'days_before': None, 'date': '2026-10-13'},
                'from': 'hello@greenleafkitchen.co.uk',
                'slot': ['09:30', 60],
                'summary': 'Catering set-up (Greenleaf Kitchen)',
                'reminder': 'Pay the deposit: Greenleaf Kitchen (catering)',
                'alias': None},
               {'name': 'Saffron Table',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,250.00', 1250.0]],
                'deposits': [['£250.00', 250.0]],
                'deadline': {'shown': 'Tuesday 20 October', 'days_before': None, 'date': '2026-10-20'},
                'from': 'events@saffrontable.co.uk',
                'slot': ['09:30', 60],
                'summary': 'Catering set-up (Saffron Table)',
                'reminder': 'Pay the deposit: Saffron Table (catering)',
                'alias': None},
               {'name': 'The Busy Spoon',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£950.00', 950.0], ['£2,100.00', 2100.0]],
                'deposits': [['£240.00', 240.0], ['£630.00', 630.0]],
                'deadline': {'shown': '28 days before', 'days_before': 28, 'date': '2026-10-07'},
                'from': 'orders@thebusyspoon.co.uk',
                'slot': ['09:30', 60],
                'summary': 'Catering set-up (The Busy Spoon)',
                'reminder': 'Pay the deposit: The Busy Spoon (catering)',
                'alias': None},
               {'name': 'Greenway Coaches',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£550.00', 550.0]],
                'deposits': [['£140.00', 140.0]],
                'deadline': {'shown': '28 days before', 'days_before': 28, 'date': '2026-10-07'},
                'from': 'bookings@greenwaycoaches.co.uk',
                'slot': ['08:45', 45],
                'summary': 'Coach pick-up (Greenway Coaches)',
                'reminder': 'Pay the deposit: Greenway Coaches (coach)',
                'alias': None},
               {'name': 'Redline Travel',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£430.00', 430.0]],
                'deposits': [['£85.00', 85.0]],
                'deadline': {'shown': '21 days before', 'days_before': 21, 'date': '2026-10-14'},
                'from': 'hire@redlinetravel.co.uk',
                'slot': ['08:45', 45],
                'summary': 'Coach pick-up (Redline Travel)',
                'reminder': 'Pay the deposit: Redline Travel (coach)',
                'alias': None},
               {'name': 'Westbrook Coach Hire',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£490.00', 490.0]],
                'deposits': [['£120.00', 120.0]],
                'deadline': {'shown': 'Thursday 22 October', 'days_before': None, 'date': '2026-10-22'},
                'from': 'bookings@westbrookcoachhire.co.uk',
                'slot': ['08:45', 45],
                'summary': 'Coach pick-up (Westbrook Coach Hire)',
                'reminder': 'Pay the deposit: Westbrook Coach Hire (coach)',
                'alias': None},
               {'name': 'Open Door Facilitation',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£2,700.00', 2700.0]],
                'deposits': [['£1,350.00', 1350.0]],
                'deadline': {'shown': 'Monday 26 October', 'days_before': None, 'date': '2026-10-26'},
                'from': 'aoyelaran@opendoorfacilitation.co.uk',
                'slot': ['10:30', 180],
                'summary': 'Workshop (Open Door Facilitation)',
                'reminder': 'Pay the deposit: Open Door Facilitation (facilitator)',
                'alias': None},
               {'name': 'Clearpath Workshops',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£2,100.00', 2100.0]],
                'deposits': [['£530.00', 530.0]],
                'deadline': {'shown': 'Monday 28 September', 'days_before': None, 'date': '2026-09-28'},
                'from': 'graham_sinclair@clearpathworkshops.co.uk',
                'slot': ['10:30', 180],
                'summary': 'Workshop (Clearpath Workshops)',
                'reminder': 'Pay the deposit: Clearpath Workshops (facilitator)',
                'alias': None},
               {'name': 'Common Ground Sessions',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£1,900.00', 1900.0]],
                'deposits': [['£480.00', 480.0]],
                'deadline': {'shown': 'Monday 26 October', 'days_before': None, 'date': '2026-10-26'},
                'from': 'achukwu@commongroundsessions.co.uk',
                'slot': ['10:30', 180],
                'summary': 'Workshop (Common Ground Sessions)',
                'reminder': 'Pay the deposit: Common Ground Sessions (facilitator)',
                'alias': None},
               {'name': 'Lensworks Studio',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£1,050.00', 1050.0]],
                'deposits': [['£260.00', 260.0]],
                'deadline': {'shown': 'Monday 26 October', 'days_before': None, 'date': '2026-10-26'},
                'from': 'jturnbull@lensworks.co.uk',
                'slot': ['09:45', 180],
                'summary': 'Photographer (Lensworks Studio)',
                'reminder': 'Pay the deposit: Lensworks Studio (photographer)',
                'alias': None},
               {'name': 'Candid Crow',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£700.00', 700.0], ['£820.00', 820.0]],
                'deposits': [['£180.00', 180.0], ['£160.00', 160.0]],
                'deadline': {'shown': 'Wednesday 16 September', 'days_before': None, 'date': '2026-09-16'},
                'from': 'thomas_fairbanks@candidcrow.co.uk',
                'slot': ['09:45', 180],
                'summary': 'Photographer (Candid Crow)',
                'reminder': 'Pay the deposit: Candid Crow (photographer)',
                'alias': 'Tom Fairbanks'}],
 'me': 'Chiamaka',
 'update': True,
 'photographer': 'Tom Fairbanks',
 'echoes': {'hold': 'Sales away day (pencilled)',
            'list': 'Work',
            'ring': 'Ring Agnieszka at Greenway Coaches back - which day?',
            'note': 'Sales away day - odds and ends',
            'options': 'Thu 29 Oct, Wed 4 Nov or Tue 17 Nov',
            'short': {'2026-10-29': 'Thu 29 Oct', '2026-11-04': 'Wed 4 Nov', '2026-11-17': 'Tue 17 Nov'},
            'venue': 'Offsite at The Lantern Rooms'}}
DECLINE = (
    "Hello,\n\nThank you for taking the time to put the quote together. We've decided to go with another option "
    "this time, but we really appreciated it.\n\nBest wishes,\n{me}"
)
ACCEPT = (
    "Hello,\n\nThank you for the quote. We'd like to go ahead and book you for {day}, please. Could you send "
    "the deposit invoice?\n\nBest wishes,\n{me}"
)


def _booked_day(quotes):
    return next(d for shown, d in FACTS["dates"] if any(q.get("day") == shown for q in quotes))


def _settled_line(body, day):
    """The note's line that gave all three days, with the day settled on."""
    e = FACTS["echoes"]
    return body.replace(f"({e['options']}?)", f"({e['short'][day]})")


def _odds_and_ends(tools):
    e = FACTS["echoes"]
    return next(n for n in tools.notes_search(query=e["note"])["notes"] if n["title"] == e["note"])


def _ring(tools):
    """The user's to-do to ring a supplier back about the day."""
    e = FACTS["echoes"]
    return next(r for r in tools.reminders_list(list=e["list"], limit=200)["reminders"] if r["title"] == e["ring"])


def _holds(tools):
    """The user's pencilled holds for the do, on each of their dates: {day: event}."""
    e = FACTS["echoes"]
    out = {}
    for _, d in FACTS["dates"]:
        for event in tools.calendar_list_events(start=d, end=d, calendar=FACTS["calendar"], limit=100)["events"]:
            if event["summary"] == e["hold"]:
                out[d] = event
    return out


def _tidy(tools, day):
    """The reference's tidying: the holds on the other days deleted, the to-do (done by the booking) deleted,
    the line edited."""
    for d, event in _holds(tools).items():
        if d != day:
            tools.calendar_delete_event(uid=event["uid"])
    tools.reminders_delete(uid=_ring(tools)["uid"])
    note = _odds_and_ends(tools)
    tools.notes_update(uid=note["uid"], body=_settled_line(note["body"], day))


def _money(value):
    return f"{value:.2f}"


def _fill_sheet(tools, sheet, quotes, money=_money, when=lambda d: d.isoformat(), extra=None):
    """The budget sheet with each booking's supplier, quote, deposit and deposit due (and, with `extra`, a
    column of that name saying 'booked')."""
    rows = list(csv.reader(io.StringIO(sheet)))
    header = rows[0] + ([extra] if extra else [])
    by_row = {q["row"]: q for q in quotes if q["decision"] == "book"}
    out = [header]
    for row in rows[1:]:
        q = by_row.get(row[0])
        if q is not None:
            row = [row[0], row[1], q["name"], money(q["total"]), money(q["deposit"]), when(q["deadline"])]
        out.append(row + ([("booked" if q else "")] if extra else []))
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(out)
    tools.files_write(path=FACTS["sheet"], content=text.getvalue())


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


def pay_day(deadline, days, holidays):
    """`days` working days before `deadline` (weekends and the public holidays skipped)."""
    day = deadline
    while days:
        day -= timedelta(days=1)
        if day.weekday() < 5 and day.isoformat() not in holidays:
            days -= 1
    return day


def _free_days(text):
    """Which of the user's dates a supplier says they can do."""
    if "all three of your dates" in text.lower():
        return {d for _, d in FACTS["dates"]}
    said = re.search(r"(?:we're free on|we could do) (.*?)(?:;|, but not)", text, re.IGNORECASE)
    assert said, "the quote does not say which dates they can do"
    return {d for shown, d in FACTS["dates"] if shown in said.group(1)}


def _last_said(texts, shown_values):
    """The value of the last of `shown_values` ([shown, value]) that the mails give: a later mail corrects."""
    found = None
    for text in texts:
        for shown, value in shown_values:
            if shown in text:
                found = value
    assert found is not None, f"none of {shown_values} is in the mails"
    return found


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _own(body):
    """A mail's own words on one line, without the history it quotes."""
    return one_line("\n".join(line for line in (body or "").splitlines() if not line.lstrip().startswith(">")))


def _quotes(tools, unmet, budgets, free, read_all=False, greedy=False):
    """Each supplier's answer, newest mail last, and the plan: the one date and quote per line that fit together;
    each quote's decision: book, decline or (withdrawn, or already answered) leave."""
    f = FACTS
    inbox = tools.mail_search(folder="INBOX", limit=200)["messages"] if read_all else None
    out = []
    for s in f["suppliers"]:
        if read_all:
            found = [m for m in inbox if s["subject"] in m["subject"]]
        else:
            found = tools.mail_search(folder="INBOX", subject=s["subject"])["messages"]
        theirs = sorted((m for m in found if s["from"] in m["from"]), key=lambda m: datetime.fromisoformat(m["date"]))
        texts = [_own(tools.mail_read(id=m["id"])["body"]) for m in theirs]
        quote = {**s, "reply_to": theirs[-1], "arrived": theirs[0]["date"]}
        if f["withdraw"] in texts[-1]:
            out.append({**quote, "decision": "withdrawn"})
            continue
        ours = tools.mail_search(folder="Sent", recipient=s["from"])["messages"]
        last = datetime.fromisoformat(theirs[-1]["date"])
        if any(datetime.fromisoformat(m["date"]) > last for m in ours):
            out.append({**quote, "decision": "answered"})  # the user already said no: nothing more to say
            continue
        quote["total"] = _last_said(texts, s["totals"])
        quote["deposit"] = _last_said(texts, s["deposits"])
        everything = " ".join(texts)
        assert s["deadline"]["shown"] in everything
        quote["free"] = _free_days(everything)
        fits = quote["total"] <= budgets[s["row"]] and not (unmet and unmet in everything)
        out.append({**quote, "decision": "candidate" if fits else "decline"})
    rows = list(dict.fromkeys(s["row"] for s in f["suppliers"]))
    plans = []
    for day in free:
        lines = [[q for q in out if q["decision"] == "candidate" and q["row"] == r and day in q["free"]] for r in rows]
        for combo in product(*lines):
            if sum(q["total"] for q in combo) <= budgets["all in"]:
                plans.append((day, combo))
    assert len(plans) == 1, f"{len(plans)} plans fit"
    day, combo = plans[0]
    if greedy:  # the hurried walk (for the tests): the first free date, each line's first quote free that day
        day = free[0]
        arrived = sorted(out, key=lambda q: datetime.fromisoformat(q["arrived"]))
        combo = [
            q
            for r in rows
            for q in [
                next((q for q in arrived if q["decision"] == "candidate" and q["row"] == r and day in q["free"]), None)
            ]
            if q is not None
        ]
    chosen = {q["name"] for q in combo}
    for q in out:
        if q["decision"] == "candidate":
            q["decision"] = "book" if q["name"] in chosen else "decline"
        if q["decision"] == "book":
            event = date.fromisoformat(day)
            if q["deadline"]["days_before"]:
                deadline = event - timedelta(days=q["deadline"]["days_before"])
            else:
                deadline = date.fromisoformat(q["deadline"]["date"])
            q["deadline"] = deadline
            q["pay"] = pay_day(deadline, f["pay_days"], f["holidays"])
            start = datetime.combine(event, time.fromisoformat(q["slot"][0]))
            q["slot"] = [start.isoformat(), (start + timedelta(minutes=q["slot"][1])).isoformat()]
            q["day"] = next(shown for shown, d in f["dates"] if d == day)
    return out


def _busy(tools, day):
    """Whether the user's calendar has anything during the event's hours on `day`."""
    begin = datetime.combine(day, time.fromisoformat(FACTS["hours"][1]))
    end = begin + timedelta(seconds=FACTS["hours"][2])
    for event in tools.calendar_list_events(start=day.isoformat(), end=day.isoformat(), limit=100)["events"]:
        if event["summary"] == FACTS["echoes"]["hold"]:
            continue  # the user's own pencilled hold for this very do
        first, last = (datetime.fromisoformat(event[k]).replace(tzinfo=None) for k in ("start", "end"))
        starts = [datetime.fromisoformat(o).replace(tzinfo=None) for o in event.get("occurrences") or []] or [first]
        if any(s < end and s + (last - first) > begin for s in starts):
            return True
    return False


def _rules(tools):
    """The plan note's rules, what the guest's card needs, the budget sheet's lines and the note's total, and
    which of the user's dates their calendar leaves free."""
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    rules = one_line(note["body"])
    assert f["sheet"] in rules and f["list"] in rules and f["calendar"] in rules, "the note does not give the rules"
    assert ("two working days before" in rules) == bool(f["pay_days"])
    assert all(shown in rules for shown, _ in f["dates"]) and f["hours"][0] in rules, "the note lacks the dates"
    unmet = None
    if f["must"]:
        card = tools.contacts_search(query=f["must"]["name"])["contacts"][0]
        assert f["must"]["needs"] in (card["notes"] or ""), "the card does not say what the guest needs"
        unmet = f["must"]["unmet"]
    sheet = tools.files_read(path=f["sheet"])["content"]
    budgets = {row["Item"]: float(row["Budget"]) for row in csv.DictReader(io.StringIO(sheet))}
    budgets["all in"] = _last_said([rules], f["cap"])
    free = [d for _, d in f["dates"] if not _busy(tools, date.fromisoformat(d))]
    return note, unmet, sheet, budgets, free


def solve(tools):
    f = FACTS
    note, unmet, sheet, budgets, free = _rules(tools)
    quotes = _quotes(tools, unmet, budgets, free)
    accepted = []
    for q in quotes:
        if q["decision"] in ("book", "decline"):
            text = ACCEPT if q["decision"] == "book" else DECLINE
            sent = tools.mail_reply(id=q["reply_to"]["id"], body=text.format(me=f["me"], day=q.get("day")))
            if q["decision"] == "book":
                accepted.append(sent["message_id"])
    for mid, colleague in redirected(tools, accepted).items():  # an acceptance to someone away: forwarded
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(id=copy["id"], to=[colleague], body=f"Hello,\n\nResending my booking below.\n\n{f['me']}")
    body = note["body"]
    for q in quotes:
        if q["decision"] != "book":
            continue
        tools.calendar_create_event(calendar=f["calendar"], summary=q["summary"], start=q["slot"][0], end=q["slot"][1])
        tools.reminders_create(title=q["reminder"], list=f["list"], due=q["pay"].isoformat())
        body = body.replace(f"- [ ] {q['row']}\n", f"- [x] {q['row']} – {q['name']}\n")
    if f["update"]:
        _fill_sheet(tools, sheet, quotes)
        tools.notes_update(uid=note["uid"], body=body)
    _tidy(tools, _booked_day(quotes))
