"""Reference solution for event-planning-1, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, time, timedelta
from itertools import product


FACTS = {'note': 'Design offsite – plan',
 'list': 'Design offsite',
 'calendar': 'Work',
 'sheet': 'Work/Design offsite/Budget.csv',
 'dates': [['Tuesday 3 November', '2026-11-03'],
           ['Wednesday 4 November', '2026-11-04'],
           ['Thursday 26 November', '2026-11-26']],
 'hours': ['10:00', '10:00', 25200],
 'cap': [['£5,100.00', 5100.0]],
 'pay_days': 2,
 'holidays': [],
 'must': {'name': 'Babatunde Fashola',
          'needs': 'Uses a wheelchair',
          'unmet': "Our coaches have steps at the door and no wheelchair lift, I'm afraid."},
 'withdraw': 'withdraw our quote',
 'suppliers': [{'name': 'The Boathouse',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,650.00', 1650.0], ['£2,500.00', 2500.0]],
                'deposits': [['£500.00', 500.0], ['£500.00', 500.0]],
                'deadline': {'shown': 'Thursday 8 October', 'days_before': None, 'date': '2026-10-08'},
                'from': 'functions@theboathouse.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at The Boathouse',
                'reminder': 'Pay the deposit: The Boathouse (venue)',
                'alias': None},
               {'name': 'Hartwell House',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,750.00', 1750.0]],
                'deposits': [['£530.00', 530.0]],
                'deadline': {'shown': '14 days before', 'days_before': 14, 'date': '2026-10-20'},
                'from': 'bookings@hartwellhouse.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at Hartwell House',
                'reminder': 'Pay the deposit: Hartwell House (venue)',
                'alias': None},
               {'name': 'The Lantern Rooms',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,350.00', 1350.0]],
                'deposits': [['£270.00', 270.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'hello@lanternrooms.co.uk',
                'slot': ['10:00', 420],
                'summary': 'Offsite at The Lantern Rooms',
                'reminder': 'Pay the deposit: The Lantern Rooms (venue)',
                'alias': None},
               {'name': 'Saffron Table',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,050.00', 1050.0]],
                'deposits': [['£530.00', 530.0]],
                'deadline': {'shown': 'Friday 23 October', 'days_before': None, 'date': '2026-10-23'},
                'from': 'events@saffrontable.co.uk',
                'slot': ['09:15', 60],
                'summary': 'Catering set-up (Saffron Table)',
                'reminder': 'Pay the deposit: Saffron Table (catering)',
                'alias': None},
               {'name': 'The Busy Spoon',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£860.00', 860.0]],
                'deposits': [['£430.00', 430.0]],
                'deadline': {'shown': '14 days before', 'days_before': 14, 'date': '2026-10-20'},
                'from': 'orders@thebusyspoon.co.uk',
                'slot': ['09:15', 60],
                'summary': 'Catering set-up (The Busy Spoon)',
                'reminder': 'Pay the deposit: The Busy Spoon (catering)',
                'alias': None},
               {'name': 'Harvest & Co',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,350.00', 1350.0]],
                'deposits': [['£340.00', 340.0]],
                'deadline': {'shown': 'Friday 2 October', 'days_before': None, 'date': '2026-10-02'},
                'from': 'catering@harvestandco.co.uk',
                'slot': ['09:15', 60],
                'summary': 'Catering set-up (Harvest & Co)',
                'reminder': 'Pay the deposit: Harvest & Co (catering)',
                'alias': None},
               {'name': 'Redline Travel',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£670.00', 670.0]],
                'deposits': [['£200.00', 200.0]],
                'deadline': {'shown': '14 days before', 'days_before': 14, 'date': '2026-10-20'},
                'from': 'hire@redlinetravel.co.uk',
                'slot': ['08:30', 45],
                'summary': 'Coach pick-up (Redline Travel)',
                'reminder': 'Pay the deposit: Redline Travel (coach)',
                'alias': None},
               {'name': 'Greenway Coaches',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£570.00', 570.0]],
                'deposits': [['£170.00', 170.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'bookings@greenwaycoaches.co.uk',
                'slot': ['08:30', 45],
                'summary': 'Coach pick-up (Greenway Coaches)',
                'reminder': 'Pay the deposit: Greenway Coaches (coach)',
                'alias': None},
               {'name': 'Westbrook Coach Hire',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£520.00', 520.0]],
                'deposits': [['£130.00', 130.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'bookings@westbrookcoachhire.co.uk',
                'slot': ['08:30', 45],
                'summary': 'Coach pick-up (Westbrook Coach Hire)',
                'reminder': 'Pay the deposit: Westbrook Coach Hire (coach)',
                'alias': None},
               {'name': 'Open Door Facilitation',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£1,050.00', 1050.0]],
                'deposits': [['£320.00', 320.0]],
                'deadline': {'shown': 'Tuesday 13 October', 'days_before': None, 'date': '2026-10-13'},
                'from': 'fashola.oluwaseun@opendoorfacilitation.co.uk',
                'slot': ['11:00', 180],
                'summary': 'Workshop (Open Door Facilitation)',
                'reminder': 'Pay the deposit: Open Door Facilitation (facilitator)',
                'alias': None},
               {'name': 'Clearpath Workshops',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£890.00', 890.0], ['£1,100.00', 1100.0]],
                'deposits': [['£220.00', 220.0], ['£330.00', 330.0]],
                'deadline': {'shown': 'Monday 26 October', 'days_before': None, 'date': '2026-10-26'},
                'from': 'eashworth@clearpathworkshops.co.uk',
                'slot': ['11:00', 180],
                'summary': 'Workshop (Clearpath Workshops)',
                'reminder': 'Pay the deposit: Clearpath Workshops (facilitator)',
                'alias': None},
               {'name': 'Brightframe Photography',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£720.00', 720.0]],
                'deposits': [['£140.00', 140.0]],
                'deadline': {'shown': '21 days before', 'days_before': 21, 'date': '2026-10-13'},
                'from': 'adebayo_fashola@brightframe.co.uk',
                'slot': ['09:30', 180],
                'summary': 'Photographer (Brightframe Photography)',
                'reminder': 'Pay the deposit: Brightframe Photography (photographer)',
                'alias': None},
               {'name': 'Lensworks Studio',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£750.00', 750.0]],
                'deposits': [['£190.00', 190.0]],
                'deadline': {'shown': 'Tuesday 20 October', 'days_before': None, 'date': '2026-10-20'},
                'from': 'nicholas.prescott@lensworks.co.uk',
                'slot': ['09:30', 180],
                'summary': 'Photographer (Lensworks Studio)',
                'reminder': 'Pay the deposit: Lensworks Studio (photographer)',
                'alias': 'Nick Prescott'},
               {'name': 'Candid Crow',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£600.00', 600.0]],
                'deposits': [['£180.00', 180.0]],
                'deadline': {'shown': 'Thursday 8 October', 'days_before': None, 'date': '2026-10-08'},
                'from': 'aleksanderm@candidcrow.co.uk',
                'slot': ['09:30', 180],
                'summary': 'Photographer (Candid Crow)',
                'reminder': 'Pay the deposit: Candid Crow (photographer)',
                'alias': None}],
 'me': 'Harriet',
 'update': True,
 'photographer': 'Nick Prescott',
 'echoes': {'hold': 'Design away day (pencilled)',
            'list': 'Work',
            'ring': 'Ring Obinna at Greenway Coaches back - which day?',
            'note': 'Design away day - odds and ends',
            'options': 'Tue 3 Nov, Wed 4 Nov or Thu 26 Nov',
            'short': {'2026-11-03': 'Tue 3 Nov', '2026-11-04': 'Wed 4 Nov', '2026-11-26': 'Thu 26 Nov'},
            'venue': 'Offsite at Hartwell House'}}
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
