"""Alternative solution 'read_all' for event-planning-2: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta


FACTS = {'note': 'Sales offsite – plan',
 'list': 'Sales offsite',
 'calendar': 'Work',
 'sheet': 'Work/Sales offsite/Budget.csv',
 'event': '2026-11-04',
 'pay_days': 2,
 'holidays': [],
 'must': {'name': 'Jennifer Barnes',
          'needs': 'Uses a wheelchair',
          'unmet': "Our coaches have steps at the door and no wheelchair lift, I'm afraid."},
 'withdraw': 'withdraw our quote',
 'suppliers': [{'name': 'The Old Granary',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£2,400.00', 2400.0]],
                'deposits': [['£600.00', 600.0]],
                'deadline': {'shown': 'Monday 5 October', 'days_before': None, 'date': '2026-10-05'},
                'from': 'events@oldgranary.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:00:00+00:00', '2026-11-04T16:30:00+00:00'],
                'summary': 'Offsite at The Old Granary',
                'reminder': 'Pay the deposit: The Old Granary (venue)',
                'alias': None},
               {'name': 'The Boathouse',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,750.00', 1750.0]],
                'deposits': [['£880.00', 880.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'functions@theboathouse.co.uk',
                'day': {'shown': 'Wednesday 11 November', 'date': '2026-11-11'},
                'slot': ['2026-11-04T10:00:00+00:00', '2026-11-04T16:30:00+00:00'],
                'summary': 'Offsite at The Boathouse',
                'reminder': 'Pay the deposit: The Boathouse (venue)',
                'alias': None},
               {'name': 'Saffron Table',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£600.00', 600.0], ['£760.00', 760.0]],
                'deposits': [['£120.00', 120.0], ['£380.00', 380.0]],
                'deadline': {'shown': '21 days before', 'days_before': 21, 'date': '2026-10-14'},
                'from': 'events@saffrontable.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:00:00+00:00', '2026-11-04T10:30:00+00:00'],
                'summary': 'Catering set-up (Saffron Table)',
                'reminder': 'Pay the deposit: Saffron Table (catering)',
                'alias': None},
               {'name': 'Greenway Coaches',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£280.00', 280.0]],
                'deposits': [['£140.00', 140.0]],
                'deadline': {'shown': '28 days before', 'days_before': 28, 'date': '2026-10-07'},
                'from': 'bookings@greenwaycoaches.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T08:45:00+00:00', '2026-11-04T09:15:00+00:00'],
                'summary': 'Coach pick-up (Greenway Coaches)',
                'reminder': 'Pay the deposit: Greenway Coaches (coach)',
                'alias': None},
               {'name': 'Redline Travel',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£260.00', 260.0]],
                'deposits': [['£130.00', 130.0]],
                'deadline': {'shown': 'Friday 25 September', 'days_before': None, 'date': '2026-09-25'},
                'from': 'hire@redlinetravel.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T08:45:00+00:00', '2026-11-04T09:15:00+00:00'],
                'summary': 'Coach pick-up (Redline Travel)',
                'reminder': 'Pay the deposit: Redline Travel (coach)',
                'alias': None},
               {'name': 'Clearpath Workshops',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£1,700.00', 1700.0]],
                'deposits': [['£430.00', 430.0]],
                'deadline': {'shown': '14 days before', 'days_before': 14, 'date': '2026-10-21'},
                'from': 'aziz.tariq@clearpathworkshops.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:45:00+00:00', '2026-11-04T13:45:00+00:00'],
                'summary': 'Workshop (Clearpath Workshops)',
                'reminder': 'Pay the deposit: Clearpath Workshops (facilitator)',
                'alias': None},
               {'name': 'Common Ground Sessions',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£2,400.00', 2400.0]],
                'deposits': [['£600.00', 600.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'neze@commongroundsessions.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:45:00+00:00', '2026-11-04T13:45:00+00:00'],
                'summary': 'Workshop (Common Ground Sessions)',
                'reminder': 'Pay the deposit: Common Ground Sessions (facilitator)',
                'alias': None},
               {'name': 'Open Door Facilitation',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£1,550.00', 1550.0], ['£2,450.00', 2450.0]],
                'deposits': [['£780.00', 780.0], ['£1,230.00', 1230.0]],
                'deadline': {'shown': '14 days before', 'days_before': 14, 'date': '2026-10-21'},
                'from': 'alexander_prescott@opendoorfacilitation.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:45:00+00:00', '2026-11-04T13:45:00+00:00'],
                'summary': 'Workshop (Open Door Facilitation)',
                'reminder': 'Pay the deposit: Open Door Facilitation (facilitator)',
                'alias': None},
               {'name': 'Lensworks Studio',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£410.00', 410.0]],
                'deposits': [['£210.00', 210.0]],
                'deadline': {'shown': 'Monday 26 October', 'days_before': None, 'date': '2026-10-26'},
                'from': 'toyelaran@lensworks.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:30:00+00:00', '2026-11-04T13:30:00+00:00'],
                'summary': 'Photographer (Lensworks Studio)',
                'reminder': 'Pay the deposit: Lensworks Studio (photographer)',
                'alias': None},
               {'name': 'Brightframe Photography',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£530.00', 530.0]],
                'deposits': [['£270.00', 270.0]],
                'deadline': {'shown': 'Friday 9 October', 'days_before': None, 'date': '2026-10-09'},
                'from': 'fletcher.charlotte@brightframe.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:30:00+00:00', '2026-11-04T13:30:00+00:00'],
                'summary': 'Photographer (Brightframe Photography)',
                'reminder': 'Pay the deposit: Brightframe Photography (photographer)',
                'alias': 'Lottie Fletcher'}],
 'me': 'Chiamaka',
 'update': True,
 'photographer': 'Lottie Fletcher'}
DECLINE = (
    "Hello,\n\nThank you for taking the time to put the quote together. We've decided to go with another option "
    "this time, but we really appreciated it.\n\nBest wishes,\n{me}"
)
ACCEPT = (
    "Hello,\n\nThank you for the quote. We'd like to go ahead and book you, please. Could you send the deposit "
    "invoice?\n\nBest wishes,\n{me}"
)


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


def pay_day(deadline, days, holidays):
    """`days` working days before `deadline` (weekends and the public holidays skipped)."""
    day = deadline
    while days:
        day -= timedelta(days=1)
        if day.weekday() < 5 and day.isoformat() not in holidays:
            days -= 1
    return day


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


def _quotes(tools, unmet, budgets, read_all=False):
    """Each supplier's answer, newest mail last, with the decision: book, decline or (withdrawn) leave."""
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
        quote = {**s, "reply_to": theirs[-1]}
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
        assert s["day"]["shown"] in everything and s["deadline"]["shown"] in everything
        if s["deadline"]["days_before"]:
            deadline = date.fromisoformat(f["event"]) - timedelta(days=s["deadline"]["days_before"])
        else:
            deadline = date.fromisoformat(s["deadline"]["date"])
        quote["deadline"] = deadline
        quote["pay"] = pay_day(deadline, f["pay_days"], f["holidays"])
        fits = (
            quote["total"] <= budgets[s["row"]]
            and s["day"]["date"] == f["event"]
            and not (unmet and unmet in everything)
        )
        out.append({**quote, "decision": "book" if fits else "decline"})
    booked = [q["row"] for q in out if q["decision"] == "book"]
    assert sorted(booked) == sorted(set(booked)), f"more than one quote fits a line: {booked}"
    return out


def _rules(tools):
    """The plan note's rules, what the guest's card needs, and the budget sheet's lines."""
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    rules = one_line(note["body"])
    assert f["sheet"] in rules and f["list"] in rules and f["calendar"] in rules, "the note does not give the rules"
    assert ("two working days before" in rules) == bool(f["pay_days"])
    unmet = None
    if f["must"]:
        card = tools.contacts_search(query=f["must"]["name"])["contacts"][0]
        assert f["must"]["needs"] in (card["notes"] or ""), "the card does not say what the guest needs"
        unmet = f["must"]["unmet"]
    sheet = tools.files_read(path=f["sheet"])["content"]
    budgets = {row["Item"]: float(row["Budget"]) for row in csv.DictReader(io.StringIO(sheet))}
    return note, unmet, sheet, budgets


def solve_read_all(tools):
    """Reads the whole inbox instead of searching; books the calendar and reminders first; moves the booked
    lines of the note under a heading of their own."""
    f = FACTS
    note, unmet, sheet, budgets = _rules(tools)
    quotes = _quotes(tools, unmet, budgets, read_all=True)
    booked = [q for q in quotes if q["decision"] == "book"]
    for q in booked:
        tools.calendar_create_event(calendar=f["calendar"], summary=q["summary"], start=q["slot"][0], end=q["slot"][1])
        tools.reminders_create(title=f"Deposit for {q['name']}", list=f["list"], due=q["pay"].isoformat())
    for q in quotes:
        if q["decision"] in ("book", "decline"):
            text = ACCEPT if q["decision"] == "book" else DECLINE
            tools.mail_reply(id=q["reply_to"]["id"], body=text.format(me=f["me"]))
    if f["update"]:
        _fill_sheet(tools, sheet, quotes)
        body = note["body"]
        for q in booked:
            body = body.replace(f"- [ ] {q['row']}\n", "")
        body += "\nBooked:\n" + "".join(f"- {q['row']}: {q['name']}\n" for q in booked)
        tools.notes_update(uid=note["uid"], body=body)


solve = solve_read_all
