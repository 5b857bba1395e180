"""appointment-booking: four clinics offer times; find the one choice of times that the calendars, the user's
rules and the physio's condition allow together (a small search over the free slots); book (moving the
appointment one clinic moves), confirm (where a reception's automatic reply sends bookings to another address,
there too), remind the working day before, tick off the booking to-dos, tell the partner."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from itertools import product
from typing import Any

from stageclaw.author.content.text import clock
from stageclaw.author.solutionlib import busy_times, newest, one_line, pages, redirected

FACTS: dict[str, Any] = {}


def _context(tools, read_all=False):
    """The rules note, the calendars over the offered weeks and the partner's real travel day (their mail
    moves the trip the Family calendar still has on the day first planned); with `read_all`, every inbox
    message is read first."""
    f = FACTS
    if read_all:
        for message in pages(tools.mail_search, folder="INBOX", limit=50):
            tools.mail_read(id=message["id"])
    rules = tools.notes_search(query=f["rules"])["notes"][0]
    text = one_line(tools.notes_read(uid=rules["uid"])["body"])
    assert f"{f['gap']} minutes" in text and f["partner"] in text, "the rules note does not say what it should"
    events = pages(tools.calendar_list_events, start=f["window"][0], end=f["window"][1])
    found = tools.mail_search(folder="INBOX", sender=f["partner_email"], subject=f["trip_subject"])["messages"]
    said = one_line(tools.mail_read(id=newest(found)["id"])["body"])
    assert f["away_shown"] in said, "the partner's mail does not give the new day"
    return events, {date.fromisoformat(f["away"])}


def _offer(tools, visit):
    """The clinic's first mail (it lists the slots), its latest, and the slots still offered."""
    found = tools.mail_search(folder="INBOX", sender=visit["domain"])["messages"]
    thread = [m for m in found if m["subject"] == visit["offer_subject"]]
    offer = min(thread, key=lambda m: datetime.fromisoformat(m["date"]))
    text = one_line(tools.mail_read(id=offer["id"])["body"])
    slots = [s for s in visit["slots"] if s["shown"] in text]
    assert len(slots) == len(visit["slots"]), "the offer does not list the expected slots"
    latest = newest(thread)
    if latest["id"] != offer["id"]:  # a later mail may take a slot back
        later = one_line(tools.mail_read(id=latest["id"])["body"])
        slots = [s for s in slots if s["shown"] not in later]
    return offer, latest, slots, text


def _free(visit, slots, events, away):
    """The slots the calendars and the user's rules leave free for this visit on its own."""
    f = FACTS
    length = timedelta(minutes=visit["minutes"])
    work = [e for e in events if e["calendar"] == "Work" and "(video)" not in e["summary"]]
    gap = timedelta(minutes=f["gap"])
    own = [e for e in events if e["calendar"] != "Family"]

    def fits(slot):
        start = datetime.fromisoformat(slot["start"])
        end = start + length
        if any(b < end and start < e for b, e in busy_times(own)):
            return False
        if any(b < end + gap and start - gap < e for b, e in busy_times(work)):
            return False
        first, last = f["school_run"]
        return start.date() not in away or (f"{start:%H:%M}" >= first and f"{end:%H:%M}" <= last)

    return [s for s in slots if fits(s)]


def _together(visits, free):
    """Every choice of one free slot per visit that keeps one appointment a day (rule 4) and the physio at least
    the lab's working days after the GP's blood test (the physio's mail); there must be exactly one."""
    found = []
    for picks in product(*free):
        days = {v["kind"]: datetime.fromisoformat(s["start"]).date() for v, s in zip(visits, picks, strict=True)}
        if len(set(days.values())) < len(days):
            continue
        if not _ordered(days):
            continue
        found.append(picks)
    assert len(found) == 1, f"{len(found)} choices of times fit together"
    return found[0]


def _after(day, n):
    """The n-th working day after `day`."""
    while n:
        day += timedelta(days=1)
        n -= day.weekday() < 5
    return day


def _address(tools, visit, offer_text):
    """Where the clinic is: the moved one's appointment and the trip clinic's offer give it; the plain one's
    contact; the premises one's mail about its move (its contact still has the old building)."""
    role = visit["role"]
    if role == "premises":
        found = tools.mail_search(folder="INBOX", sender=visit["domain"], subject=FACTS["news_subject"])["messages"]
        text = one_line(tools.mail_read(id=found[0]["id"])["body"])
        assert visit["address"] in text, "the clinic's mail about its move has another address"
    elif role == "plain":
        contact = tools.contacts_search(query=visit["clinic"])["contacts"][0]
        assert visit["address"] in contact["notes"], "the clinic's address is not in its contact"
    elif role == "trip":
        assert visit["address"] in offer_text, "the offer does not give the address"
    return visit["address"]


def _existing(events):
    """The appointment the moved clinic moves: the user's event at the old time."""
    old = datetime.fromisoformat(FACTS["old_start"])
    return next(
        e
        for e in events
        if e["calendar"] == "Personal" and not e["all_day"] and datetime.fromisoformat(e["start"]) == old
    )


def _reminder(tools, title):
    return next(r for r in pages(tools.reminders_list, list="Reminders") if r["title"] == title)


def _greedy(visits, free):
    """The hurried walk, for the tests (never an alternative): each visit in turn takes its earliest free slot
    that keeps one appointment a day and the blood test first with the ones taken so far; one left with none takes
    its earliest free slot anyway."""
    picks, days = [], {}
    for visit, slots in zip(visits, free, strict=True):
        fitting = [
            s
            for s in slots
            if datetime.fromisoformat(s["start"]).date() not in days.values()
            and _ordered({**days, visit["kind"]: datetime.fromisoformat(s["start"]).date()})
        ]
        chosen = (fitting or slots)[0]
        picks.append(chosen)
        days[visit["kind"]] = datetime.fromisoformat(chosen["start"]).date()
    return picks


def _ordered(days):
    return not ("GP" in days and "physio" in days and _after(days["GP"], FACTS["after_blood"]) > days["physio"])


def _plan(tools, read_all=False, greedy=False):
    events, away = _context(tools, read_all)
    read, free = [], []
    for visit in FACTS["visits"]:
        offer, latest, slots, text = _offer(tools, visit)
        if visit["kind"] == "physio":  # the condition that ties the physio's day to the blood test
            assert f"{FACTS['after_blood']} working days after your blood test" in text.replace("two", "2")
        free.append(_free(visit, slots, events, away))
        read.append((visit, offer, latest, _address(tools, visit, text)))
    picks = (_greedy if greedy else _together)(FACTS["visits"], free)
    plans = []
    for (visit, offer, latest, address), chosen in zip(read, picks, strict=True):
        start = datetime.fromisoformat(chosen["start"])
        plans.append((visit, offer, latest, chosen, start, timedelta(minutes=visit["minutes"]), address))
    return events, plans


def _tell_partner(tools, subject, body):
    """Mails the partner every day and time (the user's rule 7), to the address their contact gives."""
    f = FACTS
    contact = tools.contacts_search(query=f["partner"])["contacts"][0]
    assert f["partner_email"] in contact["emails"], "the partner's contact has another address"
    tools.mail_send(to=[f["partner_email"]], subject=subject, body=f"{body}\n\n{f['me']}")


def solve(tools):
    _book(tools)


def _book(tools, greedy=False):
    f = FACTS
    events, plans = _plan(tools, greedy=greedy)
    for visit, _, latest, chosen, start, length, address in plans:
        end = (start + length).isoformat()
        if visit["role"] == "moved":
            tools.calendar_update_event(uid=_existing(events)["uid"], start=start.isoformat(), end=end)
        else:
            tools.calendar_create_event(
                calendar=f["calendar"], summary=visit["summary"], start=start.isoformat(), end=end, location=address
            )
        sent = tools.mail_reply(id=latest["id"], body=visit["reply"].format(slot=chosen["shown"]))
        for mid, instead in redirected(tools, [sent["message_id"]]).items():  # bookings go elsewhere: forwarded
            [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
            tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs your automatic reply asked.")
        if f["remind"]:
            if visit["role"] == "moved":
                tools.reminders_update(uid=_reminder(tools, visit["reminder"])["uid"], due=visit["due"])
            else:
                tools.reminders_create(title=visit["reminder"], due=visit["due"], list="Reminders")
        if visit["todo"]:
            tools.reminders_complete(uid=_reminder(tools, visit["todo"])["uid"])
    lines = [f"- {v['visit'].capitalize()}: {c['shown']}" for v, _, _, c, _, _, _ in plans]
    _tell_partner(tools, "Appointments booked", "Booked:\n" + "\n".join(lines))


def solve_confirm_first(tools):
    """Confirms every clinic first, in new messages on the offers' subjects with 12-hour times (written anew to
    the address an automatic reply names); then deletes the moved appointment and books it again with the rest
    under other titles; deletes the old reminder and sets new ones titled its own way; ticks off the to-dos; tells
    the partner in a message of its own words."""
    f = FACTS
    events, plans = _plan(tools)
    for visit, offer, _, _, start, _, _ in plans:
        subject = f"Re: {visit['offer_subject']}"
        body = (
            f"Hello,\n\nI'd like to take the {visit['visit']} on {start:%A} at {clock(start, twelve=True)}. "
            f"Thank you!\n\n{f['me']}"
        )
        sent = tools.mail_send(to=[offer["from"]], subject=subject, body=body)
        for instead in redirected(tools, [sent["message_id"]]).values():  # bookings go elsewhere: written again
            tools.mail_send(to=[instead], subject=subject, body=body)
    for visit, _, _, _, start, length, address in plans:
        if visit["role"] == "moved":
            tools.calendar_delete_event(uid=_existing(events)["uid"])
        tools.calendar_create_event(
            calendar=f["calendar"],
            summary=f"{visit['doctor']} ({visit['visit']})",
            start=start.isoformat(),
            end=(start + length).isoformat(),
            location=f"{visit['clinic']}, {address}",
        )
    for visit, *_ in plans:
        if visit["todo"]:
            tools.reminders_complete(uid=_reminder(tools, visit["todo"])["uid"])
    if f["remind"]:
        for visit, *_ in plans:
            if visit["role"] == "moved":
                tools.reminders_delete(uid=_reminder(tools, visit["reminder"])["uid"])
            tools.reminders_create(
                title=f"{visit['visit'].capitalize()} appointment ({visit['doctor']})", due=visit["due"]
            )
    said = "; ".join(f"the {v['visit']} on {s:%A} at {clock(s, twelve=True)}" for v, _, _, _, s, _, _ in plans)
    _tell_partner(tools, "Heads-up", f"I've got {said}.")


def solve_read_all(tools):
    """Reads every message first, answers each clinic's first mail (not a later one), naming the slot by its
    time; sets each reminder (with a note) before the booking; once all are booked, looks for automatic replies
    and forwards a confirmation where one sends it, without a note; one mail to the partner with the dates."""
    f = FACTS
    events, plans = _plan(tools, read_all=True)
    replies = []
    for visit, offer, _, chosen, start, length, address in plans:
        if f["remind"]:
            if visit["role"] == "moved":
                tools.reminders_update(
                    uid=_reminder(tools, visit["reminder"])["uid"], due=visit["due"], notes="Moved by the clinic."
                )
            else:
                tools.reminders_create(
                    title=visit["reminder"], due=visit["due"], notes=f"Booked by reply to {visit['offer_subject']!r}."
                )
        if visit["todo"]:
            tools.reminders_complete(uid=_reminder(tools, visit["todo"])["uid"])
        if visit["role"] == "moved":
            tools.calendar_update_event(
                uid=_existing(events)["uid"], start=start.isoformat(), end=(start + length).isoformat()
            )
        else:
            tools.calendar_create_event(
                calendar=f["calendar"],
                summary=visit["summary"],
                start=start.isoformat(),
                end=(start + length).isoformat(),
                location=address,
                description=f"Booked by mail ({visit['offer_subject']}).",
            )
        replies.append(tools.mail_reply(id=offer["id"], body=f"{chosen['shown']} is perfect, see you then. {f['me']}"))
    for mid, instead in redirected(tools, [r["message_id"] for r in replies]).items():
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(id=copy["id"], to=[instead])
    said = "\n".join(f"{v['visit'].capitalize()}: {s:%A} {s:%d %B}, {clock(s)}" for v, _, _, _, s, _, _ in plans)
    _tell_partner(tools, "Appointments", said)


def solve_greedy(tools):
    """What a hurried assistant does (for the tests, never an alternative): the reference solution's steps, with
    each clinic in the request's order given its earliest free slot; it must fail."""
    _book(tools, greedy=True)
