"""event-planning: each quote read against the plan note, the budget sheet and a guest's card; the user's
dates checked against their calendar; the one date and quote per line that fit together (each supplier
free that day, the bookings within the note's total) found by trying every combination; those accepted
(saying the date) and the rest declined by mail, and an acceptance whose automatic reply names a colleague
forwarded to them; the slots in the calendar; a reminder per deposit, on the day
the user pays it; the budget sheet and the plan note filled in."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, time, timedelta
from itertools import product

from stageclaw.author.solutionlib import one_line, redirected

FACTS: dict = {}

ACCEPT = (
    "Hello,\n\nThank you for the quote. We'd like to go ahead and book you for {day}, please. Could you send "
    "the deposit invoice?\n\nBest wishes,\n{me}"
)
DECLINE = (
    "Hello,\n\nThank you for taking the time to put the quote together. We've decided to go with another option "
    "this time, but we really appreciated it.\n\nBest wishes,\n{me}"
)


def _own(body):
    """A mail's own words on one line, without the history it quotes."""
    return one_line("\n".join(line for line in (body or "").splitlines() if not line.lstrip().startswith(">")))


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


def _free_days(text):
    """Which of the user's dates a supplier says they can do."""
    if "all three of your dates" in text.lower():
        return {d for _, d in FACTS["dates"]}
    said = re.search(r"(?:we're free on|we could do) (.*?)(?:;|, but not)", text, re.IGNORECASE)
    assert said, "the quote does not say which dates they can do"
    return {d for shown, d in FACTS["dates"] if shown in said.group(1)}


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


def _holds(tools):
    """The user's pencilled holds for the do, on each of their dates: {day: event}."""
    e = FACTS["echoes"]
    out = {}
    for _, d in FACTS["dates"]:
        for event in tools.calendar_list_events(start=d, end=d, calendar=FACTS["calendar"], limit=100)["events"]:
            if event["summary"] == e["hold"]:
                out[d] = event
    return out


def _ring(tools):
    """The user's to-do to ring a supplier back about the day."""
    e = FACTS["echoes"]
    return next(r for r in tools.reminders_list(list=e["list"], limit=200)["reminders"] if r["title"] == e["ring"])


def _odds_and_ends(tools):
    e = FACTS["echoes"]
    return next(n for n in tools.notes_search(query=e["note"])["notes"] if n["title"] == e["note"])


def _settled_line(body, day):
    """The note's line that gave all three days, with the day settled on."""
    e = FACTS["echoes"]
    return body.replace(f"({e['options']}?)", f"({e['short'][day]})")


def _tidy(tools, day):
    """The reference's tidying: the holds on the other days deleted, the to-do (done by the booking) deleted,
    the line edited."""
    for d, event in _holds(tools).items():
        if d != day:
            tools.calendar_delete_event(uid=event["uid"])
    tools.reminders_delete(uid=_ring(tools)["uid"])
    note = _odds_and_ends(tools)
    tools.notes_update(uid=note["uid"], body=_settled_line(note["body"], day))


def _booked_day(quotes):
    return next(d for shown, d in FACTS["dates"] if any(q.get("day") == shown for q in quotes))


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


def solve_greedy(tools):
    """The greedy walk carried out like the reference (for the tests only: it must fail the grade)."""
    f = FACTS
    _, unmet, sheet, budgets, free = _rules(tools)
    quotes = _quotes(tools, unmet, budgets, free, greedy=True)
    for q in quotes:
        if q["decision"] in ("book", "decline"):
            text = ACCEPT if q["decision"] == "book" else DECLINE
            tools.mail_reply(id=q["reply_to"]["id"], body=text.format(me=f["me"], day=q.get("day")))
    for q in quotes:
        if q["decision"] == "book":
            tools.calendar_create_event(
                calendar=f["calendar"], summary=q["summary"], start=q["slot"][0], end=q["slot"][1]
            )
            tools.reminders_create(title=q["reminder"], list=f["list"], due=q["pay"].isoformat())
    if f["update"]:
        _fill_sheet(tools, sheet, quotes)


def solve_new_messages(tools):
    """New messages instead of replies, in other words; slots and reminders named another way; the sheet's
    amounts with the currency and its dates written out; the note's lines ticked with a mark."""
    f = FACTS
    note, unmet, sheet, budgets, free = _rules(tools)
    quotes = _quotes(tools, unmet, budgets, free)
    for q in quotes:
        if q["decision"] not in ("book", "decline"):
            continue
        if q["decision"] == "book":
            text = f"Hello,\n\nThanks so much for your quote: we've settled on {q['day']}, and we're happy to "
            text += "confirm the booking for it. Please send over the invoice for the deposit and we'll pay it in good "
            text += "time.\n\nKind regards,\n" + f["me"]
        else:
            text = "Hello,\n\nMany thanks for your quote. Unfortunately it doesn't work for us this time, so "
            text += "we won't be going ahead, but thank you for your time.\n\nKind regards,\n" + f["me"]
        sent = tools.mail_send(to=[q["from"]], subject=f"Your quote: {q['subject']}", body=text)
        for colleague in redirected(tools, [sent["message_id"]]).values():  # written again, to both
            tools.mail_send(to=[colleague], cc=[q["from"]], subject=f"Booking: {q['subject']}", body=text)
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
    # Tidying by deleting and making again: every hold goes (the venue's slot is the do), the to-do is
    # deleted, the odds-and-ends note is made again with the day.
    day = _booked_day(quotes)
    for event in _holds(tools).values():
        tools.calendar_delete_event(uid=event["uid"])
    tools.reminders_delete(uid=_ring(tools)["uid"])
    old = _odds_and_ends(tools)
    tools.notes_delete(uid=old["uid"])
    tools.notes_create(title=old["title"], body=_settled_line(old["body"], day), folder=old.get("folder"))


def solve_read_all(tools):
    """Reads the whole inbox instead of searching; books the calendar and reminders first; moves the booked
    lines of the note under a heading of their own."""
    f = FACTS
    note, unmet, sheet, budgets, free = _rules(tools)
    quotes = _quotes(tools, unmet, budgets, free, read_all=True)
    booked = [q for q in quotes if q["decision"] == "book"]
    day = _booked_day(quotes)
    holds = _holds(tools)
    for q in booked:
        if q["row"] == "Venue":  # the pencilled hold on the day becomes the venue's slot
            tools.calendar_update_event(
                uid=holds[day]["uid"], summary=q["summary"], start=q["slot"][0], end=q["slot"][1]
            )
        else:
            tools.calendar_create_event(
                calendar=f["calendar"], summary=q["summary"], start=q["slot"][0], end=q["slot"][1]
            )
        tools.reminders_create(title=f"Deposit for {q['name']}", list=f["list"], due=q["pay"].isoformat())
    for q in quotes:
        if q["decision"] in ("book", "decline"):
            text = ACCEPT if q["decision"] == "book" else DECLINE
            sent = tools.mail_reply(id=q["reply_to"]["id"], body=text.format(me=f["me"], day=q.get("day")))
            for colleague in redirected(tools, [sent["message_id"]]).values():  # written again, to them alone
                tools.mail_send(to=[colleague], subject="Booking", body=text.format(me=f["me"], day=q.get("day")))
    if f["update"]:
        _fill_sheet(tools, sheet, quotes)
        body = note["body"]
        for q in booked:
            body = body.replace(f"- [ ] {q['row']}\n", "")
        body += "\nBooked:\n" + "".join(f"- {q['row']}: {q['name']}\n" for q in booked)
        tools.notes_update(uid=note["uid"], body=body)
    for d, event in holds.items():
        if d != day:
            tools.calendar_delete_event(uid=event["uid"])
    tools.reminders_complete(uid=_ring(tools)["uid"])
    odds = _odds_and_ends(tools)
    tools.notes_update(uid=odds["uid"], body=_settled_line(odds["body"], day))
