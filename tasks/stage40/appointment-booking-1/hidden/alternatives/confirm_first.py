"""Alternative solution 'confirm_first' for appointment-booking-1: another reasonable way to the goal."""

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


def solve_confirm_first(tools):
    """Confirms first, in a new message on the offer's subject with a 12-hour time, then books the event under
    another title with the clinic's name before the address, and a reminder at 18:00 the evening before."""
    f = FACTS
    offer, _, _, start, length = _slot(tools)
    tools.mail_send(
        to=[offer["from"]],
        subject=f"Re: {f['offer_subject']}",
        body=f"Hello,\n\nI'd like to take the {f['visit']} on {start:%A} at {clock(start, twelve=True)}. Thank "
        f"you!\n\n{f['me']}",
    )
    _book(tools, start, length, summary=f"{f['doctor']} ({f['visit']})", location=f"{f['clinic_word']}, {f['address']}")
    if f["remind"]:
        evening = (start - timedelta(days=1)).replace(hour=18, minute=0)
        tools.reminders_create(title=f"Tomorrow: {f['visit']} appointment", due=evening.isoformat())


solve = solve_confirm_first
