"""What a calendar client mails when the user organizes an event with guests (iTIP over email).

The rules are those of the desktop and web clients people use:

- An event with guests has an organizer. One created or edited by the user without one gets the
  user as its organizer (ORGANIZER), as a client fills it in.
- Only the organizer's changes are sent. Changing an event someone else organizes changes the
  user's copy alone; nothing is mailed.
- Creating an event sends each guest a REQUEST. A change that guests would see (title, time,
  place, description, repetition, the guest list) bumps SEQUENCE and sends every guest a REQUEST:
  an update for those invited before, an invitation for those just added; a guest taken off the
  list gets a CANCEL. Deleting the event sends each guest a CANCEL.
- Each guest gets a message of their own, submitted through the user's SMTP server like any mail
  the user sends, so it lands in the outbox and in Sent. The user, when listed as a guest, gets none.
- `notify=false` saves the change without mailing anyone, as the "don't send" button does.
"""

from __future__ import annotations

import email.utils
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

import icalendar

from stageclaw.tools import dav, mail
from stageclaw.tools.base import ToolContext, ToolError
from stageclaw.world import ical, imip

# What guests see of an event: a change to any of these is worth an update.
_SEEN = ("SUMMARY", "DTSTART", "DTEND", "DURATION", "LOCATION", "DESCRIPTION", "RRULE", "RDATE", "EXDATE")
NOTIFY_DESCRIPTION = (
    "false: save without mailing the guests (no invitation, update or cancellation), as a client's"
    " 'don't send' does; default true"
)


def _guests(comp: icalendar.Component, own: str) -> dict[str, icalendar.vCalAddress]:
    """The event's attendees other than the user, by address, in their order."""
    found = comp.get("ATTENDEE", [])
    people = found if isinstance(found, list) else [found]
    return {imip.address_of(p): p for p in people if imip.address_of(p) and imip.address_of(p) != own}


def _seen(comp: icalendar.Component) -> list[str]:
    return [comp[name].to_ical().decode() if name in comp else "" for name in _SEEN]


@dataclass
class Before:
    """An event as it was before a change, for deciding who to tell what."""

    guests: dict[str, icalendar.vCalAddress]
    seen: list[str]

    @classmethod
    def of(cls, comp: icalendar.Component, own: str) -> Before:
        return cls(_guests(comp, own), _seen(comp))


# What a message tells its guest: (iTIP method, first line of its text, subject prefix).
NEW = (imip.REQUEST, "{user} invites you to this event.", "Invitation")
UPDATED = (imip.REQUEST, "{user} has updated this event.", "Updated invitation")
REMOVED = (imip.CANCEL, "{user} has removed you from this event.", "Cancelled")
CANCELLED = (imip.CANCEL, "{user} has cancelled this event.", "Cancelled")


@dataclass
class Plan:
    """The messages one change calls for: (kind, guests) pairs, and why nothing is sent if so."""

    comp: icalendar.Component
    sends: list[tuple[tuple[str, str, str], list[icalendar.vCalAddress]]] = field(default_factory=list)
    reason: str | None = None


def _organizes(ctx: ToolContext, comp: icalendar.Component, guests: dict[str, Any]) -> str | None:
    """None when the user organizes the event (made so if it has guests and no organizer), else who does."""
    own = ctx.episode.endpoints.address
    organizer = imip.address_of(comp.get("ORGANIZER"))
    if not organizer:
        if guests:
            comp.add("ORGANIZER", imip.mailto(own, ctx.episode.world.user.name))
        return None
    return None if organizer == own else str(comp["ORGANIZER"].params.get("CN") or organizer)


def plan_change(ctx: ToolContext, comp: icalendar.Component, before: Before | None) -> Plan:
    """What creating (`before` None) or changing the event `comp` sends; marks `comp` (ORGANIZER,
    SEQUENCE) as a client does, so call it before the event is saved."""
    own = ctx.episode.endpoints.address
    now_guests = _guests(comp, own)
    old_guests = before.guests if before is not None else {}
    plan = Plan(comp)
    if not now_guests and not old_guests:
        return plan
    someone = _organizes(ctx, comp, now_guests)
    if someone is not None:
        plan.reason = f"{someone} organizes this event, so only the user's copy changed; nobody was mailed"
        return plan
    if before is not None:
        if _seen(comp) == before.seen and now_guests.keys() == old_guests.keys():
            return plan
        sequence = int(comp.get("SEQUENCE", 0)) + 1
        comp.pop("SEQUENCE", None)
        comp.add("SEQUENCE", sequence)
    kept = [p for addr, p in now_guests.items() if addr in old_guests]
    added = [p for addr, p in now_guests.items() if addr not in old_guests]
    if kept:
        plan.sends.append((UPDATED, kept))
    if added:
        plan.sends.append((NEW, added))
    removed = [p for addr, p in old_guests.items() if addr not in now_guests]
    if removed:
        plan.sends.append((REMOVED, removed))
    return plan


def plan_delete(ctx: ToolContext, comp: icalendar.Component) -> Plan:
    """What deleting the event `comp` sends: a CANCEL to each guest, if the user organizes it."""
    guests = _guests(comp, ctx.episode.endpoints.address)
    plan = Plan(comp)
    if not guests:
        return plan
    someone = _organizes(ctx, comp, guests)
    if someone is not None:
        plan.reason = f"{someone} organizes this event, so it only left the user's calendar; nobody was mailed"
        return plan
    plan.sends.append((CANCELLED, list(guests.values())))
    return plan


def send(ctx: ToolContext, plan: Plan, *, notify: bool, saved: str) -> dict[str, Any]:
    """Mail the plan's messages, one per guest; the result fields that tell the agent what went out.

    `saved` says what was already stored, for the error when sending fails half-way.
    """
    out: dict[str, Any] = {"invitations": []}
    if plan.reason is not None:
        out["invitations_note"] = plan.reason
    if not notify:
        if plan.sends:
            out["invitations_note"] = "notify=false: the guests were not mailed"
        return out
    sequence = int(plan.comp.get("SEQUENCE", 0))
    everyone = plan.comp.get("ATTENDEE", [])
    everyone = everyone if isinstance(everyone, list) else [everyone]
    for kind, guests in plan.sends:
        method = kind[0]
        subject, body = _text(ctx, plan.comp, kind)
        for guest in guests:
            # A REQUEST shows the whole guest list; a CANCEL names only the guest it is for.
            named = everyone if method == imip.REQUEST else [guest]
            ics = imip.itip(method, plan.comp, attendees=named, sequence=sequence, stamp=ctx.now())
            to = email.utils.formataddr((str(guest.params.get("CN") or ""), imip.address_of(guest)))
            try:
                message_id = mail.send_invitation(ctx, to=to, subject=subject, body=body, method=method, ics=ics)
            except ToolError as exc:
                sent = ", ".join(f"{i['method']} to {i['to']}" for i in out["invitations"]) or "nothing"
                raise ToolError(
                    f"{saved}, but mailing the guests failed ({exc.message}); already sent: {sent}", exc.kind
                ) from None
            out["invitations"].append({"to": to, "method": method, "message_id": message_id})
    return out


def _when(comp: icalendar.Component, tz: tzinfo) -> str:
    start, end = ical.event_span(comp)
    if not isinstance(start, datetime):
        last = end - timedelta(days=1) if end > start else start
        span = _day(start) if last == start else f"{_day(start)} – {_day(last)}"
        return f"{span} (all day)"
    start, end = dav.localize(start, tz), dav.localize(end, tz)
    if start.date() == end.date():
        return f"{_day(start)} {start:%H:%M}–{end:%H:%M} ({tz})"
    return f"{_day(start)} {start:%H:%M} – {_day(end)} {end:%H:%M} ({tz})"


def _day(value: date) -> str:
    return f"{value:%a} {value.day} {value:%b %Y}"


def _text(ctx: ToolContext, comp: icalendar.Component, kind: tuple[str, str, str]) -> tuple[str, str]:
    """Subject and plain-text body of an invitation, an update or a cancellation."""
    _, lead, prefix = kind
    summary = str(comp.get("SUMMARY") or "(no title)")
    when = _when(comp, ctx.tz)
    lines = [lead.format(user=ctx.episode.world.user.name), "", summary, f"When: {when}"]
    if comp.get("LOCATION"):
        lines.append(f"Where: {comp['LOCATION']}")
    if comp.get("RRULE"):
        lines.append(f"Repeats: {comp['RRULE'].to_ical().decode()}")
    if comp.get("DESCRIPTION"):
        lines += ["", str(comp["DESCRIPTION"])]
    return f"{prefix}: {summary} @ {when}", "\n".join(lines)
