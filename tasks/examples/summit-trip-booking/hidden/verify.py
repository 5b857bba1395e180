"""Checks for summit-trip-booking: LH 2058 out on 16 March 18:00, LH 2075 home on 18 March 20:15, both
economy; two nights (16-18 March) at Parkhotel Riem, the only Messestadt Riem hotel within the 2026
Munich limit of €150; both flights in the calendar; the three references to Anna."""

import re
from datetime import datetime

ANNA = "anna.berger@northwind.example"
FLIGHTS = {
    "LH2058-0316": ("2058", "2026-03-16T18:00:00+01:00", "2026-03-16T19:10:00+01:00"),
    "LH2075-0318": ("2075", "2026-03-18T20:15:00+01:00", "2026-03-18T21:25:00+01:00"),
}
HOTEL_ID = "h-riem-park"
CHECK_IN, CHECK_OUT = "2026-03-16", "2026-03-18"


def _address(value):
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _bookings(state):
    return ((state.get("web") or {}).get("travel") or {}).get("bookings") or []


def _new_bookings(initial, final, kind):
    old = {b.get("id") for b in _bookings(initial)}
    return [b for b in _bookings(final) if b.get("id") not in old and b.get("kind") == kind]


def _references(initial, final):
    """The references of the new confirmed bookings of the trip, when exactly those were made."""
    flights = _new_bookings(initial, final, "flight")
    hotels = _new_bookings(initial, final, "hotel")
    trip = [b for b in flights + hotels if b.get("item") in (*FLIGHTS, HOTEL_ID) and b.get("status") == "confirmed"]
    return [b["id"] for b in trip] if len(trip) == len(flights) + len(hotels) == 3 else None


def _instant(value):
    try:
        return datetime.fromisoformat(value) if value and len(value) > 10 else None
    except ValueError:
        return None


def check_flights_booked(initial, final, trace):
    flights = _new_bookings(initial, final, "flight")
    items = sorted(b.get("item") for b in flights)
    if items != sorted(FLIGHTS):
        return False, f"new flight bookings are {items}; expected LH 2058 on 16 March and LH 2075 on 18 March"
    for booking in flights:
        if booking.get("status") != "confirmed":
            return False, f"flight booking {booking.get('id')} is {booking.get('status')}"
        if booking.get("cabin") != "economy":
            return False, f"{booking.get('item')} is booked in {booking.get('cabin')}; the policy says economy"
        if "vogel" not in (booking.get("traveller") or "").lower():
            return False, f"{booking.get('item')} is booked for {booking.get('traveller')!r}, not Lena Vogel"
    return True, f"flights booked: {[(b['id'], b['item']) for b in flights]}"


def check_hotel_booked(initial, final, trace):
    hotels = _new_bookings(initial, final, "hotel")
    if len(hotels) != 1:
        return False, f"{len(hotels)} new hotel bookings ({[b.get('item') for b in hotels]}); expected one"
    booking = hotels[0]
    if booking.get("item") != HOTEL_ID:
        return False, f"the hotel booked is {booking.get('item')!r}, not Parkhotel Riem"
    if booking.get("status") != "confirmed":
        return False, f"the hotel booking is {booking.get('status')}"
    stay = (booking.get("check_in"), booking.get("check_out"))
    if stay != (CHECK_IN, CHECK_OUT):
        return False, f"the stay is {stay[0]} to {stay[1]}; expected check-in 16 March, check-out 18 March"
    if "vogel" not in (booking.get("traveller") or "").lower():
        return False, f"the room is booked for {booking.get('traveller')!r}, not Lena Vogel"
    return True, f"hotel booking {booking['id']}: Parkhotel Riem, 16-18 March"


# A Skyway booking reference: six capitals and digits, at least one of each; a flight number (LH2058) is none.
REFERENCE = re.compile(r"(?<![A-Za-z0-9])(?![A-Z]{2}\d{4}(?![A-Za-z0-9]))(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{6}(?![A-Za-z0-9])")


def _booked(initial, final):
    """Flight item -> the reference Skyway gave its new booking."""
    return {b.get("item"): b.get("id") for b in _new_bookings(initial, final, "flight")}


def check_flights_in_calendar(initial, final, trace):
    old = {e.get("uid") for events in (initial.get("calendar") or {}).values() for e in events}
    new = [e for events in (final.get("calendar") or {}).values() for e in events if e.get("uid") not in old]
    booked = _booked(initial, final)
    trip = set(booked.values()) | {b.get("id") for b in _new_bookings(initial, final, "hotel")}
    for item, (number, start, end) in FLIGHTS.items():
        # "LH 2058" or "LH2058": a title may write the number without its space
        text = [" ".join(str(e.get(f) or "") for f in ("summary", "description")).replace(" ", "") for e in new]
        named = [e for e, t in zip(new, text, strict=True) if number.replace(" ", "") in t]
        if len(named) != 1:
            return False, f"{len(named)} new calendar events name flight {number}; expected one"
        event = named[0]
        if not str(event.get("summary") or "").strip():
            return False, f"the event for {number} has no title: it shows up blank in the calendar"
        if (_instant(event.get("start")), _instant(event.get("end"))) != (_instant(start), _instant(end)):
            runs = f"{event.get('start')} to {event.get('end')}"
            return False, f"the event for {number} runs {runs}; expected {start} to {end}"
        # A reference the event gives must be one of this trip's, and not the other flight's in place of its own.
        given = " ".join(str(event.get(f) or "") for f in ("summary", "description", "location"))
        refs = set(REFERENCE.findall(given))
        own = booked.get(item)
        swapped = refs & (set(booked.values()) - {own}) and own not in refs
        if refs - trip or swapped:
            return False, f"the event for {number} gives the booking reference(s) {sorted(refs)}; its own is {own}"
    return True, "both flights are in the calendar at their times"


def check_references_to_anna(initial, final, trace):
    sent = (final.get("mail") or {}).get("outbox") or []
    if len(sent) != 1:
        return False, f"{len(sent)} messages were sent; expected one to Anna"
    message = sent[0]
    people = [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]
    if people != [ANNA]:
        return False, f"the message went to {people}; it should go to Anna ({ANNA}) only"
    references = _references(initial, final)
    if references is None:
        return False, "the trip's three bookings were not made as asked, so there are no references to send"
    text = (message.get("body") or "") + " " + (message.get("subject") or "")
    missing = [r for r in references if r not in text]
    if missing:
        return False, f"the message to Anna lacks the booking references {missing}"
    return True, f"Anna got the references {references}"


# What the reply may say about each booking, line by line: a line naming a flight gives that flight's
# day and departure; the hotel's line gives the nights of the stay.
LINES = {
    r"LH\s?2058": ({(3, 16)}, {"18:00", "6pm", "6 pm"}),
    r"LH\s?2075": ({(3, 18)}, {"20:15", "8:15pm", "8:15 pm"}),
    r"Parkhotel|Riem": ({(3, 16), (3, 17), (3, 18)}, set()),
}
FLIGHT = re.compile(r"\bLH\s?(\d{1,4})\b")
DAY = re.compile(r"(?<!\d)(\d{1,2})(?:\s*(?:-|–|to)\s*(\d{1,2}))?\.?[^\S\n]+mar\w*|\bmar\w*\.?[^\S\n]+(\d{1,2})(?!\d)", re.I)
CLOCK = re.compile(r"(?<![\d:])\d{1,2}[:.]\d{2}(?:\s*[ap]m)?|(?<![\d:])\d{1,2}\s*[ap]m", re.I)


def check_reply_facts(initial, final, trace):
    sent = [m for m in (final.get("mail") or {}).get("outbox") or [] if ANNA in (m.get("to") or [""])[0].lower()]
    if not sent:
        return False, "nothing was sent to Anna"
    for line in (sent[0].get("body") or "").splitlines():
        flights = set(FLIGHT.findall(line)) - {"2058", "2075"}
        if flights:
            return False, f"the reply names flights that were not booked: {sorted(flights)}"
        for pattern, (days, clocks) in LINES.items():
            if not re.search(pattern, line, re.I):
                continue
            found = {(3, int(d)) for m in DAY.finditer(line) for d in m.groups() if d}
            times = {t.lower().replace(".", ":") for t in CLOCK.findall(line)}
            if found - days or (clocks and times - clocks) or (not clocks and times):
                return False, f"the line {line.strip()!r} gives the wrong day or time"
    return True, "what the reply says about each booking is right"

