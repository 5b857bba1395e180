"""Alternative solution 'new_messages' for event-planning-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, timedelta


FACTS = {'note': 'Design offsite – plan',
 'list': 'Design offsite',
 'calendar': 'Work',
 'sheet': 'Work/Design offsite/Budget.csv',
 'event': '2026-11-04',
 'pay_days': 2,
 'holidays': [],
 'must': {'name': 'Babatunde Fashola',
          'needs': 'Coeliac',
          'unmet': "Please note we can't guarantee anything gluten-free: our kitchen is too small to keep it "
                   'separate.'},
 'withdraw': 'withdraw our quote',
 'suppliers': [{'name': 'The Boathouse',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,650.00', 1650.0]],
                'deposits': [['£500.00', 500.0]],
                'deadline': {'shown': 'Friday 9 October', 'days_before': None, 'date': '2026-10-09'},
                'from': 'functions@theboathouse.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:00:00+00:00', '2026-11-04T16:30:00+00:00'],
                'summary': 'Offsite at The Boathouse',
                'reminder': 'Pay the deposit: The Boathouse (venue)',
                'alias': None},
               {'name': 'Fenwick Hall',
                'row': 'Venue',
                'subject': 'Private room for our team offsite?',
                'totals': [['£1,750.00', 1750.0]],
                'deposits': [['£880.00', 880.0]],
                'deadline': {'shown': 'Monday 12 October', 'days_before': None, 'date': '2026-10-12'},
                'from': 'events@fenwickhall.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T10:00:00+00:00', '2026-11-04T16:30:00+00:00'],
                'summary': 'Offsite at Fenwick Hall',
                'reminder': 'Pay the deposit: Fenwick Hall (venue)',
                'alias': None},
               {'name': 'The Busy Spoon',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,400.00', 1400.0]],
                'deposits': [['£280.00', 280.0]],
                'deadline': {'shown': 'Monday 5 October', 'days_before': None, 'date': '2026-10-05'},
                'from': 'orders@thebusyspoon.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:15:00+00:00', '2026-11-04T10:15:00+00:00'],
                'summary': 'Catering set-up (The Busy Spoon)',
                'reminder': 'Pay the deposit: The Busy Spoon (catering)',
                'alias': None},
               {'name': 'Saffron Table',
                'row': 'Catering',
                'subject': 'Catering for our team offsite',
                'totals': [['£1,250.00', 1250.0]],
                'deposits': [['£380.00', 380.0]],
                'deadline': {'shown': '21 days before', 'days_before': 21, 'date': '2026-10-14'},
                'from': 'events@saffrontable.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:15:00+00:00', '2026-11-04T10:15:00+00:00'],
                'summary': 'Catering set-up (Saffron Table)',
                'reminder': 'Pay the deposit: Saffron Table (catering)',
                'alias': None},
               {'name': 'Redline Travel',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£720.00', 720.0]],
                'deposits': [['£360.00', 360.0]],
                'deadline': {'shown': 'Friday 23 October', 'days_before': None, 'date': '2026-10-23'},
                'from': 'hire@redlinetravel.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T08:30:00+00:00', '2026-11-04T09:15:00+00:00'],
                'summary': 'Coach pick-up (Redline Travel)',
                'reminder': 'Pay the deposit: Redline Travel (coach)',
                'alias': None},
               {'name': 'Westbrook Coach Hire',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£490.00', 490.0]],
                'deposits': [['£150.00', 150.0]],
                'deadline': {'shown': 'Thursday 15 October', 'days_before': None, 'date': '2026-10-15'},
                'from': 'bookings@westbrookcoachhire.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T08:30:00+00:00', '2026-11-04T09:15:00+00:00'],
                'summary': 'Coach pick-up (Westbrook Coach Hire)',
                'reminder': 'Pay the deposit: Westbrook Coach Hire (coach)',
                'alias': None},
               {'name': 'Greenway Coaches',
                'row': 'Coach',
                'subject': 'Coach hire for our team offsite',
                'totals': [['£380.00', 380.0], ['£670.00', 670.0]],
                'deposits': [['£190.00', 190.0], ['£340.00', 340.0]],
                'deadline': {'shown': 'Tuesday 27 October', 'days_before': None, 'date': '2026-10-27'},
                'from': 'bookings@greenwaycoaches.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T08:30:00+00:00', '2026-11-04T09:15:00+00:00'],
                'summary': 'Coach pick-up (Greenway Coaches)',
                'reminder': 'Pay the deposit: Greenway Coaches (coach)',
                'alias': None},
               {'name': 'Open Door Facilitation',
                'row': 'Facilitator',
                'subject': 'Facilitator for our team offsite?',
                'totals': [['£2,450.00', 2450.0], ['£1,750.00', 1750.0]],
                'deposits': [['£490.00', 490.0], ['£350.00', 350.0]],
                'deadline': {'shown': 'Wednesday 14 October', 'days_before': None, 'date': '2026-10-14'},
                'from': 'kwame@opendoorfacilitation.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T11:00:00+00:00', '2026-11-04T14:00:00+00:00'],
                'summary': 'Workshop (Open Door Facilitation)',
                'reminder': 'Pay the deposit: Open Door Facilitation (facilitator)',
                'alias': None},
               {'name': 'Northlight Images',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£450.00', 450.0]],
                'deposits': [['£110.00', 110.0]],
                'deadline': {'shown': 'Monday 19 October', 'days_before': None, 'date': '2026-10-19'},
                'from': 'krzysztof@northlightimages.co.uk',
                'day': {'shown': 'Thursday 5 November', 'date': '2026-11-05'},
                'slot': ['2026-11-04T09:30:00+00:00', '2026-11-04T12:30:00+00:00'],
                'summary': 'Photographer (Northlight Images)',
                'reminder': 'Pay the deposit: Northlight Images (photographer)',
                'alias': None},
               {'name': 'Candid Crow',
                'row': 'Photographer',
                'subject': 'Photographer for our team offsite?',
                'totals': [['£550.00', 550.0]],
                'deposits': [['£170.00', 170.0]],
                'deadline': {'shown': '28 days before', 'days_before': 28, 'date': '2026-10-07'},
                'from': 'malgorzataz@candidcrow.co.uk',
                'day': {'shown': 'Wednesday 4 November', 'date': '2026-11-04'},
                'slot': ['2026-11-04T09:30:00+00:00', '2026-11-04T12:30:00+00:00'],
                'summary': 'Photographer (Candid Crow)',
                'reminder': 'Pay the deposit: Candid Crow (photographer)',
                'alias': 'Gosia Zając'}],
 'me': 'Harriet',
 'update': True,
 'photographer': 'Gosia Zając'}


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


def solve_new_messages(tools):
    """New messages instead of replies, in other words; slots and reminders named another way; the sheet's
    amounts with the currency and its dates written out; the note's lines ticked with a mark."""
    f = FACTS
    note, unmet, sheet, budgets = _rules(tools)
    quotes = _quotes(tools, unmet, budgets)
    for q in quotes:
        if q["decision"] not in ("book", "decline"):
            continue
        if q["decision"] == "book":
            text = "Hello,\n\nThanks so much for your quote: we're happy to confirm the booking. Please send over "
            text += "the invoice for the deposit and we'll pay it in good time.\n\nKind regards,\n" + f["me"]
        else:
            text = "Hello,\n\nMany thanks for your quote. Unfortunately it doesn't work for us this time, so "
            text += "we won't be going ahead, but thank you for your time.\n\nKind regards,\n" + f["me"]
        tools.mail_send(to=[q["from"]], subject=f"Your quote: {q['subject']}", body=text)
    if f["update"]:
        symbol = re.match(r"\D*", quotes[0]["totals"][0][0]).group(0)
        _fill_sheet(
            tools,
            sheet,
            quotes,
            money=lambda v: f"{symbol}{v:,.2f}",
            when=lambda d: f"{d.day} {d.strftime('%B')} {d.year}",
            extra="Status",
        )
    body = note["body"]
    for q in quotes:
        if q["decision"] != "book":
            continue
        tools.reminders_create(title=f"{q['name']} deposit", list=f["list"], due=q["pay"].isoformat())
        tools.calendar_create_event(
            calendar=f["calendar"], summary=f"{q['row']}: {q['name']}", start=q["slot"][0], end=q["slot"][1]
        )
        body = body.replace(f"- [ ] {q['row']}\n", f"- ✓ {q['row']}, booked with {q['name']}\n")
    if f["update"]:
        tools.notes_update(uid=note["uid"], body=body)


solve = solve_new_messages
