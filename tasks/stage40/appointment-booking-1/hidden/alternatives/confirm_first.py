"""Alternative solution 'confirm_first' for appointment-booking-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from itertools import product


FACTS = {'visits': [{'role': 'plain',
             'kind': 'dentist',
             'domain': 'kulkarni-dental-care.in',
             'clinic': 'Kulkarni Dental Care',
             'offer_subject': 'Re: Check-up and clean appointment',
             'slots': [{'shown': 'Tuesday 4 August, 14:30', 'start': '2026-08-04T14:30:00+05:30'},
                       {'shown': 'Wednesday 5 August, 14:30', 'start': '2026-08-05T14:30:00+05:30'},
                       {'shown': 'Friday 7 August, 11:15', 'start': '2026-08-07T11:15:00+05:30'},
                       {'shown': 'Monday 10 August, 11:00', 'start': '2026-08-10T11:00:00+05:30'},
                       {'shown': 'Monday 24 August, 13:30', 'start': '2026-08-24T13:30:00+05:30'}],
             'minutes': 45,
             'address': '124, FC Road, Pune 411004',
             'summary': 'Dentist: check-up and clean (Kulkarni Dental Care)',
             'reminder': 'Check-up and clean at Kulkarni Dental Care',
             'due': '2026-08-21',
             'todo': 'Book dentist appointment',
             'visit': 'check-up and clean',
             'doctor': 'Venkatesh Kulkarni',
             'reply': 'Dear Deepika,\n'
                      '\n'
                      'thank you, {slot} works for me, please book me in.\n'
                      '\n'
                      'Best regards,\n'
                      'Vikram Mehta'},
            {'role': 'moved',
             'kind': 'GP',
             'domain': 'sharma-medical-practice.in',
             'clinic': 'Sharma Medical Practice',
             'offer_subject': 'Your blood test on Thursday 6 August, 10:00',
             'slots': [{'shown': 'Wednesday 29 July, 11:15', 'start': '2026-07-29T11:15:00+05:30'},
                       {'shown': 'Monday 10 August, 14:00', 'start': '2026-08-10T14:00:00+05:30'},
                       {'shown': 'Tuesday 25 August, 09:00', 'start': '2026-08-25T09:00:00+05:30'}],
             'minutes': 15,
             'address': '202, North Main Road, Koregaon Park, Pune 411001',
             'summary': 'GP: blood test (Sharma Medical Practice)',
             'reminder': 'Blood test at Sharma Medical Practice',
             'due': '2026-07-28',
             'todo': None,
             'visit': 'blood test',
             'doctor': 'Deepika Sharma',
             'reply': 'Dear Victoria,\n'
                      '\n'
                      'thank you, {slot} works for me, please book me in.\n'
                      '\n'
                      'Best regards,\n'
                      'Vikram Mehta'},
            {'role': 'premises',
             'kind': 'physio',
             'domain': 'hargreaves-physiotherapy.in',
             'clinic': 'Hargreaves Physiotherapy',
             'offer_subject': 'Re: Initial assessment appointment',
             'slots': [{'shown': 'Tuesday 18 August, 13:15', 'start': '2026-08-18T13:15:00+05:30'},
                       {'shown': 'Thursday 20 August, 14:15', 'start': '2026-08-20T14:15:00+05:30'},
                       {'shown': 'Friday 21 August, 14:30', 'start': '2026-08-21T14:30:00+05:30'}],
             'minutes': 60,
             'address': '153, FC Road, Pune 411004',
             'summary': 'Physio: initial assessment (Hargreaves Physiotherapy)',
             'reminder': 'Initial assessment at Hargreaves Physiotherapy',
             'due': '2026-08-17',
             'todo': 'Book physio appointment',
             'visit': 'initial assessment',
             'doctor': 'Oliver Hargreaves',
             'reply': 'Dear Abhishek,\n'
                      '\n'
                      'thank you, {slot} works for me, please book me in.\n'
                      '\n'
                      'Best regards,\n'
                      'Vikram Mehta'},
            {'role': 'trip',
             'kind': 'optician',
             'domain': 'holloway-opticians.in',
             'clinic': 'Holloway Opticians',
             'offer_subject': 'Re: Eye test appointment',
             'slots': [{'shown': 'Friday 31 July, 16:00', 'start': '2026-07-31T16:00:00+05:30'},
                       {'shown': 'Monday 10 August, 08:30', 'start': '2026-08-10T08:30:00+05:30'},
                       {'shown': 'Tuesday 18 August, 09:00', 'start': '2026-08-18T09:00:00+05:30'}],
             'minutes': 30,
             'address': '92, North Main Road, Koregaon Park, Pune 411001',
             'summary': 'Optician: eye test (Holloway Opticians)',
             'reminder': 'Eye test at Holloway Opticians',
             'due': '2026-08-07',
             'todo': 'Book optician appointment',
             'visit': 'eye test',
             'doctor': 'Alexander Holloway',
             'reply': 'Dear Graham,\n'
                      '\n'
                      'thank you, {slot} works for me, please book me in.\n'
                      '\n'
                      'Best regards,\n'
                      'Vikram Mehta'}],
 'window': ['2026-07-22', '2026-09-02'],
 'rules': 'Appointments (my rules)',
 'gap': 30,
 'school_run': ['09:30', '14:30'],
 'partner': 'Aishwarya',
 'partner_email': 'aishwarya_reddy@outlook.com',
 'trip_subject': 'Gothenburg date',
 'away': '2026-07-31',
 'away_shown': 'Friday 31 July',
 'news_subject': 'Our new premises',
 'old_start': '2026-08-06T10:00:00+05:30',
 'calendar': 'Personal',
 'remind': True,
 'me': 'Vikram Mehta',
 'after_blood': 2,
 'joint': {'enumerated': 135,
           'greedy': [['plain', 'Monday 10 August, 11:00'],
                      ['moved', 'Wednesday 29 July, 11:15'],
                      ['premises', 'Tuesday 18 August, 13:15'],
                      ['trip', None]]}}


def _tell_partner(tools, subject, body):
    """Mails the partner every day and time (the user's rule 7), to the address their contact gives."""
    f = FACTS
    contact = tools.contacts_search(query=f["partner"])["contacts"][0]
    assert f["partner_email"] in contact["emails"], "the partner's contact has another address"
    tools.mail_send(to=[f["partner_email"]], subject=subject, body=f"{body}\n\n{f['me']}")


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


def _reminder(tools, title):
    return next(r for r in pages(tools.reminders_list, list="Reminders") if r["title"] == title)


def _existing(events):
    """The appointment the moved clinic moves: the user's event at the old time."""
    old = datetime.fromisoformat(FACTS["old_start"])
    return next(
        e
        for e in events
        if e["calendar"] == "Personal" and not e["all_day"] and datetime.fromisoformat(e["start"]) == old
    )


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


def _after(day, n):
    """The n-th working day after `day`."""
    while n:
        day += timedelta(days=1)
        n -= day.weekday() < 5
    return day


def _ordered(days):
    return not ("GP" in days and "physio" in days and _after(days["GP"], FACTS["after_blood"]) > days["physio"])


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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


def busy_times(events: list[dict[str, Any]]) -> list[tuple[datetime, datetime]]:
    """The (start, end) of each timed occurrence in a `calendar_list_events` result: a series counts at each
    of its `occurrences` in the range, not at its first start; cancelled and all-day events take no time."""
    out = []
    for event in events:
        if event["all_day"] or event["status"] == "CANCELLED":
            continue
        start, end = datetime.fromisoformat(event["start"]), datetime.fromisoformat(event["end"])
        for at in event.get("occurrences") or [event["start"]]:
            begins = datetime.fromisoformat(at)
            out.append((begins, begins + (end - start)))
    return out


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


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


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


solve = solve_confirm_first
