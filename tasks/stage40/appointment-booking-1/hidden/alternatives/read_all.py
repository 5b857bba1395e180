"""Alternative solution 'read_all' for appointment-booking-1: another reasonable way to the goal."""

from __future__ import annotations

from datetime import datetime, timedelta


FACTS = {'clinic_domain': 'baran-physiotherapy.co.uk',
 'clinic_word': 'Baran Physiotherapy',
 'offer_subject': 'Re: Initial assessment appointment',
 'slots': [{'shown': 'Friday 25 September, 09:00', 'start': '2026-09-25T09:00:00+01:00'},
           {'shown': 'Tuesday 29 September, 09:00', 'start': '2026-09-29T09:00:00+01:00'},
           {'shown': 'Friday 2 October, 08:40', 'start': '2026-10-02T08:40:00+01:00'}],
 'minutes': 60,
 'window': ['2026-09-22', '2026-10-03'],
 'address': '104 Cockburn Street, Edinburgh EH1 1BS',
 'address_in_contact': True,
 'calendar': 'Personal',
 'summary': 'Physio: initial assessment (Baran Physiotherapy)',
 'reply': 'Dear Jennifer,\n'
          '\n'
          'thank you, {slot} works for me, please book me in.\n'
          '\n'
          'Best regards,\n'
          'Magdalena Mazur',
 'remind': True,
 'reminder': 'Initial assessment at Baran Physiotherapy tomorrow',
 'visit': 'initial assessment',
 'doctor': 'Katarzyna Baran',
 'me': 'Magdalena Mazur'}


def _book(tools, start, length, **extra):
    f = FACTS
    event = {"calendar": f["calendar"], "summary": f["summary"], "location": f["address"], **extra}
    tools.calendar_create_event(start=start.isoformat(), end=(start + length).isoformat(), **event)


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
        for message in tools.mail_search(folder="INBOX", limit=200)["messages"]:
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
    busy = [
        (datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"]))
        for e in tools.calendar_list_events(start=window[0], end=window[1])["events"]
        if not e["all_day"] and e["status"] != "CANCELLED"
    ]
    chosen = next(
        s
        for s in slots
        if all(
            end <= datetime.fromisoformat(s["start"]) or start >= datetime.fromisoformat(s["start"]) + length
            for start, end in busy
        )
    )
    if f["address_in_contact"]:
        contact = tools.contacts_search(query=f["clinic_word"])["contacts"][0]
        assert f["address"] in contact["notes"], "the clinic's address is not in its contact"
    return offer, latest, chosen, datetime.fromisoformat(chosen["start"]), length


def solve_read_all(tools):
    """Reads every message first and answers the offer itself (not the later mail), naming the slot by its time."""
    f = FACTS
    offer, _, chosen, start, length = _slot(tools, read_all=True)
    if f["remind"]:
        tools.reminders_create(title=f["reminder"], due=(start - timedelta(days=1)).date().isoformat())
    _book(tools, start, length, description=f"Booked by mail ({f['offer_subject']}).")
    tools.mail_reply(id=offer["id"], body=f"{chosen['shown']} is perfect, see you then. {f['me']}")


solve = solve_read_all
