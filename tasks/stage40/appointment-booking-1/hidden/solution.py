"""Reference solution for appointment-booking-1, using the same tools as any agent."""

from __future__ import annotations

from datetime import datetime, timedelta


FACTS = {'clinic_domain': 'blackwood-medical-practice.in',
 'clinic_word': 'Blackwood Medical Practice',
 'offer_subject': 'Re: Blood test appointment',
 'slots': [{'shown': 'Thursday 23 July, 16:30', 'start': '2026-07-23T16:30:00+05:30'},
           {'shown': 'Friday 24 July, 16:30', 'start': '2026-07-24T16:30:00+05:30'},
           {'shown': 'Tuesday 28 July, 08:00', 'start': '2026-07-28T08:00:00+05:30'},
           {'shown': 'Wednesday 29 July, 09:30', 'start': '2026-07-29T09:30:00+05:30'},
           {'shown': 'Monday 3 August, 13:15', 'start': '2026-08-03T13:15:00+05:30'},
           {'shown': 'Wednesday 5 August, 09:30', 'start': '2026-08-05T09:30:00+05:30'}],
 'minutes': 15,
 'window': ['2026-07-22', '2026-08-06'],
 'rules': 'Appointments (my rules)',
 'gap': 30,
 'school_run': ['09:30', '14:30'],
 'partner': 'Meera',
 'partner_email': 'meera_nair@rediffmail.com',
 'todo': 'Book GP appointment',
 'due': '2026-07-31',
 'address': '220, North Main Road, Koregaon Park, Pune 411001',
 'address_in_contact': True,
 'calendar': 'Personal',
 'summary': 'GP: blood test (Blackwood Medical Practice)',
 'reply': 'Dear Siddharth,\n'
          '\n'
          'thank you, {slot} works for me, please book me in.\n'
          '\n'
          'Best regards,\n'
          'Vikram Mehta',
 'remind': True,
 'reminder': 'Blood test at Blackwood Medical Practice',
 'visit': 'blood test',
 'doctor': 'Elizabeth Blackwood',
 'me': 'Vikram Mehta'}


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


def _tick(tools):
    """Ticks off the user's own "Book ..." to-do (their rule 6)."""
    todo = next(r for r in pages(tools.reminders_list, list="Reminders") if r["title"] == FACTS["todo"])
    tools.reminders_complete(uid=todo["uid"])


def _tell_partner(tools, subject, body):
    """Mails the partner the day and time (the user's rule 7), to the address their contact gives; the subject
    gives neither, so the body's are the ones graded."""
    f = FACTS
    contact = tools.contacts_search(query=f["partner"])["contacts"][0]
    assert f["partner_email"] in contact["emails"], "the partner's contact has another address"
    tools.mail_send(to=[f["partner_email"]], subject=subject, body=f"{body}\n\n{f['me']}")


def _book(tools, start, length, **extra):
    f = FACTS
    event = {"calendar": f["calendar"], "summary": f["summary"], "location": f["address"], **extra}
    tools.calendar_create_event(start=start.isoformat(), end=(start + length).isoformat(), **event)


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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _slot(tools, read_all=False):
    """The offer, the latest mail of the thread and the earliest slot still offered that the calendar has room
    for; with `read_all`, every inbox message is read first."""
    f = FACTS
    if read_all:
        for message in pages(tools.mail_search, folder="INBOX", limit=50):
            tools.mail_read(id=message["id"])
    found = tools.mail_search(folder="INBOX", sender=f["clinic_domain"])["messages"]
    thread = [m for m in found if m["subject"] == f["offer_subject"]]
    offer = min(thread, key=lambda m: datetime.fromisoformat(m["date"]))  # the first answer lists the slots
    text = one_line(tools.mail_read(id=offer["id"])["body"])
    slots = [s for s in f["slots"] if s["shown"] in text]
    assert len(slots) == len(f["slots"]), "the offer does not list the expected slots"
    latest = newest(found)
    if latest["id"] != offer["id"]:  # a later mail may take a slot back
        later = one_line(tools.mail_read(id=latest["id"])["body"])
        slots = [s for s in slots if s["shown"] not in later]

    length = timedelta(minutes=f["minutes"])
    window = f["window"]
    rules = tools.notes_search(query=f["rules"])["notes"][0]
    text = one_line(tools.notes_read(uid=rules["uid"])["body"])
    assert f"{f['gap']} minutes" in text and f["partner"] in text, "the rules note does not say what it should"
    events = pages(tools.calendar_list_events, start=window[0], end=window[1])
    away = {  # the days the partner is away (all-day events in the Family calendar; the end is exclusive)
        datetime.fromisoformat(e["start"]).date() + timedelta(days=n)
        for e in events
        if e["calendar"] == "Family" and f["partner"] in e["summary"]
        for n in range((datetime.fromisoformat(e["end"]) - datetime.fromisoformat(e["start"])).days)
    }
    work = [e for e in events if e["calendar"] == "Work" and "(video)" not in e["summary"]]
    gap = timedelta(minutes=f["gap"])

    def fits(slot):
        start = datetime.fromisoformat(slot["start"])
        end = start + length
        if any(b < end and start < e for b, e in busy_times(events)):
            return False
        if any(b < end + gap and start - gap < e for b, e in busy_times(work)):
            return False
        first, last = f["school_run"]
        return start.date() not in away or (f"{start:%H:%M}" >= first and f"{end:%H:%M}" <= last)

    chosen = next(s for s in slots if fits(s))
    if f["address_in_contact"]:
        contact = tools.contacts_search(query=f["clinic_word"])["contacts"][0]
        assert f["address"] in contact["notes"], "the clinic's address is not in its contact"
    return offer, latest, chosen, datetime.fromisoformat(chosen["start"]), length


def solve(tools):
    f = FACTS
    _, latest, chosen, start, length = _slot(tools)
    _book(tools, start, length)
    tools.mail_reply(id=latest["id"], body=f["reply"].format(slot=chosen["shown"]))
    _tell_partner(tools, f"{f['visit'].capitalize()} booked", f"Booked: {chosen['shown']}.")
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=f["due"])
    _tick(tools)
