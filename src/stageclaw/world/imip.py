"""Calendar invitations by email (iTIP, RFC 5546, carried as iMIP, RFC 6047), and reading them back.

A calendar client invites people by mailing each of them an iCalendar object whose METHOD says
what it is: REQUEST (an invitation, or an update to one), CANCEL (the event is off for them),
REPLY (an attendee's answer). The object travels as a `text/calendar; method=...` part next to
a plain-text description. In the State JSON a message carrying one has
`invitation: {method, uid}` (and `recurrence_id` when it is about one occurrence of a series);
every other message has `invitation: null`.
"""

from __future__ import annotations

import email.utils
from datetime import UTC, datetime, tzinfo
from email.message import Message
from typing import Any

import icalendar

from stageclaw.world import canonical
from stageclaw.world.ical import PRODID

REQUEST, CANCEL = "REQUEST", "CANCEL"


def mailto(address: str, name: str = "") -> icalendar.vCalAddress:
    """A calendar user address, `mailto:` plus the lower-cased address, with its CN when there is a name."""
    value = icalendar.vCalAddress(f"mailto:{address.strip().lower()}")
    if name:
        value.params["CN"] = name
    return value


def address_of(value: Any) -> str:
    """The bare lower-cased email address of an ORGANIZER or ATTENDEE value."""
    text = str(value or "")
    if text.lower().startswith("mailto:"):
        text = text[7:]
    return email.utils.parseaddr(text)[1].strip().lower()


def itip(
    method: str,
    event: icalendar.Component,
    *,
    attendees: list[icalendar.vCalAddress],
    sequence: int,
    stamp: datetime,
) -> bytes:
    """The VCALENDAR an organizer mails for `event` with METHOD `method`, naming `attendees`.

    A REQUEST asks each attendee to answer (PARTSTAT=NEEDS-ACTION, RSVP=TRUE); a CANCEL marks
    the event CANCELLED for the attendees it names.
    """
    copy = icalendar.Event()
    for name, value in event.property_items(recursive=False):
        if name not in ("BEGIN", "END", "ATTENDEE", "SEQUENCE", "DTSTAMP", "STATUS", "METHOD"):
            copy.add(name, value, encode=False)
    for attendee in attendees:
        person = icalendar.vCalAddress(str(attendee))
        person.params.update({k: v for k, v in attendee.params.items() if k == "CN"})
        if method == REQUEST:
            person.params.update({"ROLE": "REQ-PARTICIPANT", "PARTSTAT": "NEEDS-ACTION", "RSVP": "TRUE"})
        copy.add("ATTENDEE", person, encode=False)
    copy.add("SEQUENCE", sequence)
    copy.add("DTSTAMP", stamp.astimezone(UTC))
    copy.add("STATUS", "CANCELLED" if method == CANCEL else "CONFIRMED")
    cal = icalendar.Calendar()
    cal.add("PRODID", PRODID)
    cal.add("VERSION", "2.0")
    cal.add("METHOD", method)
    cal.add_component(copy)
    cal.add_missing_timezones()
    return cal.to_ical()


def invitation_of(msg: Message, tz: tzinfo) -> dict[str, Any] | None:
    """{method, uid} of the iTIP object a message carries (a `text/calendar` part with a method), or None;
    with `recurrence_id` (its original start, in `tz`) when it is about one occurrence of a series.

    An .ics file merely attached (no method on its part) is an attachment, not an invitation.
    """
    for part in msg.walk():
        if part.get_content_type() != "text/calendar" or not part.get_param("method"):
            continue
        found: dict[str, Any] = {"method": str(part.get_param("method")).upper(), "uid": None}
        try:
            cal = icalendar.Calendar.from_ical(part.get_payload(decode=True) or b"")
            event = next((c for c in cal.walk("VEVENT") if "UID" in c), None)
        except ValueError:
            event = None
        if event is not None:
            found["uid"] = str(event["UID"])
            if "RECURRENCE-ID" in event:
                found["recurrence_id"] = canonical.when(event.decoded("RECURRENCE-ID"), tz)
        return found
    return None
