"""Calendar tools: the user's events, in CalDAV calendars (VEVENT collections) on Radicale."""

from __future__ import annotations

import email.utils
import functools
from datetime import date, datetime, timedelta, tzinfo
from typing import Annotated, Any

import icalendar
import recurring_ical_events
from pydantic import Field

from stageclaw.tools import dav, invitations, paging
from stageclaw.tools.base import ToolContext, ToolError, tool
from stageclaw.tools.timeparse import parse_datetime, parse_when
from stageclaw.world import canonical, ical
from stageclaw.world.model import default_end

APP = dav.CALENDAR
MAX_OCCURRENCES = 400  # of one recurring event in one listing: more than a year of a daily series
MAX_RANGE = timedelta(days=3660)  # ten years: what one listing may span

Uid = Annotated[str, Field(description="the event's uid, as calendar_list_events returns it")]
_START = (
    "ISO 8601: a date-time like 2026-03-12T15:00 (no offset = the user's timezone) or 2026-03-12T15:00:00+00:00 "
    "(converted to the user's timezone); a date like 2026-04-04 for an all-day event"
)
_END = (
    "same format as start; for an all-day event the day AFTER the last day (exclusive, as in iCalendar): "
    "4-6 April is start 2026-04-04, end 2026-04-07"
)
_ATTENDEES = "people to invite, each an email address or 'Name <address>', e.g. 'Priya Raman <priya@orbitals.io>'"


def _timed(value: date | datetime) -> bool:
    return isinstance(value, datetime)


def _span(start: date | datetime, end: date | datetime | None, tz: tzinfo) -> tuple[date | datetime, date | datetime]:
    """Checked event times: both dates (all-day, end exclusive) or both times in the user's timezone."""
    if end is None:
        end = default_end(start)
    if _timed(start) != _timed(end):
        raise ToolError(
            "start and end must both be dates (an all-day event, e.g. 2026-04-04) or both date-times "
            "(e.g. 2026-03-12T15:00)",
            "invalid_arguments",
        )
    if not _timed(start) and end == start:
        end = start + timedelta(days=1)  # "the 4th to the 4th" means the one day
    if end < start:
        hint = "" if _timed(start) else "; an all-day event's end is the day after its last day"
        raise ToolError(
            f"end {canonical.when(end, tz)} is before start {canonical.when(start, tz)}{hint}", "invalid_arguments"
        )
    return dav.localize(start, tz), dav.localize(end, tz)


def _stored_span(comp: icalendar.Component, tz: tzinfo) -> tuple[date | datetime, date | datetime]:
    start, end = ical.event_span(comp)
    return dav.localize(start, tz), dav.localize(end, tz)


def _set_times(comp: icalendar.Component, start: date | datetime, end: date | datetime) -> None:
    for name in ("DTSTART", "DTEND", "DURATION"):
        comp.pop(name, None)
    comp.add("DTSTART", start)
    comp.add("DTEND", end)


def _set_attendees(comp: icalendar.Component, attendees: list[str]) -> None:
    people = []
    for raw in attendees:
        name, addr = email.utils.parseaddr(raw)
        if "@" not in addr or " " in addr:
            raise ToolError(
                f"bad attendee {raw!r}: give an email address, e.g. 'priya@orbitals.io' or "
                "'Priya Raman <priya@orbitals.io>'",
                "invalid_arguments",
            )
        people.append((name, addr.lower()))
    comp.pop("ATTENDEE", None)
    for name, addr in people:
        comp.add("ATTENDEE", icalendar.vCalAddress(f"mailto:{addr}"), parameters={"CN": name} if name else {})


def _matches(event: dict[str, Any], query: str) -> bool:
    needle = query.casefold()
    return any(needle in (event[field] or "").casefold() for field in ("summary", "location", "description"))


def _instant(value: date | datetime, tz: tzinfo) -> datetime:
    """Dates as their midnight, so all-day and timed events sort and compare on one line."""
    local = dav.localize(value, tz)
    return local if isinstance(local, datetime) else datetime(local.year, local.month, local.day, tzinfo=tz)


def _stated(value: str) -> date | datetime:
    return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)


def _starts(
    item: dav.Item, event: dict[str, Any], recurring: bool, range_start: datetime, range_end: datetime, tz: tzinfo
) -> list[date | datetime]:
    """When the event occurs in [range_start, range_end), in order.

    The server's range test is only a prefilter: a series' occurrences (after its exceptions) are
    computed here; a single event occurs at its start if it overlaps the range (a zero-length one
    if it starts in it), which needs no parsing.
    """
    if not recurring:
        first, last = _stated(event["start"]), _stated(event["end"])
        begins, ends = _instant(first, tz), _instant(last, tz)
        inside = range_start <= begins < range_end if begins == ends else begins < range_end and range_start < ends
        return [first] if inside else []
    found = []
    for begins, ends, value in _series(item.data, event["uid"], range_end.year + 1, tz):
        inside = range_start <= begins < range_end if begins == ends else begins < range_end and range_start < ends
        if inside:
            found.append(value)
    return found


@functools.lru_cache(maxsize=1024)
def _series(text: str, uid: str, until_year: int, tz: tzinfo) -> tuple[tuple[datetime, datetime, date | datetime], ...]:
    """(start instant, end instant, start as stored) of every occurrence of the series `uid` stored as
    `text` up to the end of `until_year`, in order: expanded once per stored text, not per query."""
    horizon = datetime(until_year + 1, 1, 1, tzinfo=tz)
    occurrences = recurring_ical_events.of(dav.parse(text), components=["VEVENT"])
    found = set()
    for occ in occurrences.between(datetime(1970, 1, 2, tzinfo=tz), horizon):
        if occ["UID"] == uid:
            value = occ.decoded("DTSTART")
            ends = occ.decoded("DTEND") if "DTEND" in occ else value + occ.decoded("DURATION", timedelta())
            found.add((_instant(value, tz), _instant(ends, tz), value))
    return tuple(sorted(found, key=lambda entry: entry[:2]))


@tool("calendar", returns="{calendars: [{name}]}")
def calendar_list_calendars(
    ctx: ToolContext,
    limit: paging.limit(100, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """The user's calendars by name; pass a name as `calendar` to the other calendar tools. Changes nothing.

    Returns {calendars: [{name}], total, next_cursor}. Reminder lists and notes folders are not
    calendars (see reminders_list_lists and notes_*).
    """
    pager: paging.Pager[dav.Collection] = paging.Pager(
        "calendar_list_calendars", {}, limit, cursor, default=100, noun="calendars"
    )
    colls = pager.window(dav.session(ctx).collections(APP), lambda c: (c.name.casefold(), c.name))
    calendars, fields = pager.finish([{"name": coll.name} for coll in colls])
    return {"calendars": calendars, **fields}


@tool("calendar", returns="{events: [EVENT + {calendar}]}")
def calendar_list_events(
    ctx: ToolContext,
    start: Annotated[
        str,
        Field(
            description="range start, ISO 8601 in the user's timezone unless an offset is given: 2026-03-12T09:00 "
            "or 2026-03-12 (its midnight)"
        ),
    ],
    end: Annotated[
        str,
        Field(
            description="range end, same format; a date alone means the END of that day, so start=2026-03-12, "
            "end=2026-03-12 lists the whole of 12 March"
        ),
    ],
    calendar: Annotated[str | None, Field(description="only this calendar; every calendar when omitted")] = None,
    query: Annotated[
        str | None,
        Field(description="only events whose summary, location or description contains this text (case-insensitive)"),
    ] = None,
    limit: paging.limit(50, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """Events that overlap a time range, sorted by start, from every calendar or one. Changes nothing.

    Returns {events, total, next_cursor}. Each event has uid, summary, start, end, all_day,
    location, description, attendees, organizer, status, rrule and calendar. A recurring event
    is listed once, with its `rrule`, the `start`/`end` of its first occurrence ever, and
    `occurrences`: the start of each of its occurrences inside the range. Times are shown in the
    user's timezone.
    """
    tz = ctx.tz
    range_start = parse_datetime(start, tz, "start")
    last = parse_when(end, tz, "end")
    range_end = _instant(last, tz) if _timed(last) else _instant(last + timedelta(days=1), tz)
    if range_end <= range_start:
        raise ToolError(f"end {end!r} is not after start {start!r}", "invalid_arguments")
    if range_end - range_start > MAX_RANGE:
        # The server expands every recurring event over the whole range: a century of a daily series is minutes.
        raise ToolError(
            f"the range from {start!r} to {end!r} is over {MAX_RANGE.days // 366} years long; list at most that much "
            "at a time",
            "invalid_arguments",
        )
    args = {"start": start, "end": end, "calendar": calendar, "query": query}
    pager: paging.Pager[tuple[datetime, str, dict[str, Any]]] = paging.Pager(
        "calendar_list_events", args, limit, cursor, default=50, noun="events"
    )
    session = dav.session(ctx)
    colls = [session.collection(APP, calendar)] if calendar is not None else session.collections(APP)
    found: list[tuple[datetime, str, dict[str, Any]]] = []
    for coll in colls:
        for item in session.items(APP, coll, range_start, range_end):
            event = item.state(tz)
            if query and not _matches(event, query):
                continue
            recurring = bool(event["rrule"] or event["overrides"]) or "RDATE" in item.data
            starts = _starts(item, event, recurring, range_start, range_end, tz)
            if not starts:
                continue
            if event["rrule"] or "RDATE" in item.data:
                event["occurrences"] = [canonical.when(value, tz) for value in starts[:MAX_OCCURRENCES]]
                if len(starts) > MAX_OCCURRENCES:
                    event["occurrences_note"] = (
                        f"only the first {MAX_OCCURRENCES} occurrences in the range; ask for a later start for the rest"
                    )
            found.append((_instant(starts[0], tz), event["summary"], event))
    chosen = pager.window(found, lambda entry: (entry[0].timestamp(), entry[1], entry[2]["uid"]))
    events, fields = pager.finish([event for _, _, event in chosen])
    return {"events": events, **fields}


@tool("calendar", returns="EVENT + {calendar}")
def calendar_get_event(ctx: ToolContext, uid: Uid) -> dict[str, Any]:
    """One event by uid, with all its fields and the calendar it is in. Changes nothing."""
    return dav.session(ctx).find(APP, uid).state(ctx.tz)


@tool(
    "calendar",
    returns="{uid, event: EVENT + {calendar}, invitations: [{to, method, message_id}], invitations_note?}",
)
def calendar_create_event(
    ctx: ToolContext,
    calendar: Annotated[str, Field(description="the calendar to put it in, a name from calendar_list_calendars")],
    summary: Annotated[str, Field(description="the event's title")],
    start: Annotated[str, Field(description=_START)],
    end: Annotated[str | None, Field(description=_END + "; when omitted: one hour, or one day if all-day")] = None,
    location: Annotated[str | None, Field(description="where it takes place")] = None,
    description: Annotated[str | None, Field(description="free-text notes of the event")] = None,
    attendees: Annotated[list[str] | None, Field(description=_ATTENDEES)] = None,
    all_day: Annotated[
        bool | None,
        Field(
            description="true for an all-day event: start and end are then dates (YYYY-MM-DD); dates alone also "
            "make an all-day event"
        ),
    ] = None,
    notify: Annotated[bool, Field(description=invitations.NOTIFY_DESCRIPTION)] = True,
) -> dict[str, Any]:
    """Create an event in one of the user's calendars; returns {uid, event, invitations}.

    A timed event takes date-times: 2026-03-12T15:00 is in the user's timezone, and
    2026-03-12T15:00:00+00:00 is converted to it. An all-day event takes dates with an
    exclusive end, as in iCalendar: a holiday on 4, 5 and 6 April is start 2026-04-04,
    end 2026-04-07; a one-day event needs no end. Side effects: with attendees, the user becomes
    the organizer and each attendee (except the user) is mailed an invitation (iCalendar
    METHOD:REQUEST) from the user's address, filed in Sent like any sent mail, unless notify is
    false; `invitations` lists them ({to, method, message_id}).
    """
    tz = ctx.tz
    first = parse_when(start, tz, "start")
    if all_day is not None and all_day == _timed(first):
        raise ToolError(
            "all_day=true takes dates: give start like 2026-04-04 (and end, exclusive)"
            if all_day
            else "all_day=false takes date-times: give start like 2026-03-12T15:00",
            "invalid_arguments",
        )
    begins, ends = _span(first, parse_when(end, tz, "end") if end is not None else None, tz)
    session = dav.session(ctx)
    coll = session.collection(APP, calendar)
    comp = session.new_component(APP)
    dav.set_text(comp, "SUMMARY", summary)
    _set_times(comp, begins, ends)
    dav.set_text(comp, "LOCATION", location or "")
    dav.set_text(comp, "DESCRIPTION", description or "")
    _set_attendees(comp, attendees or [])
    plan = invitations.plan_change(ctx, comp, None)
    item = session.create(APP, coll, comp)
    sent = invitations.send(ctx, plan, notify=notify, saved=f"the event WAS created (uid {item.uid})")
    return {"uid": item.uid, "event": item.state(tz), **sent}


@tool(
    "calendar",
    returns="{event: EVENT + {calendar}, invitations: [{to, method, message_id}], invitations_note?}",
)
def calendar_update_event(
    ctx: ToolContext,
    uid: Uid,
    summary: Annotated[str | None, Field(description="the new title")] = None,
    start: Annotated[str | None, Field(description=_START)] = None,
    end: Annotated[str | None, Field(description=_END)] = None,
    location: Annotated[str | None, Field(description="where it takes place; '' removes it")] = None,
    description: Annotated[str | None, Field(description="free-text notes of the event; '' removes them")] = None,
    attendees: Annotated[
        list[str] | None,
        Field(description=_ATTENDEES + "; replaces the whole list, [] removes everyone"),
    ] = None,
    calendar: Annotated[
        str | None, Field(description="move the event to this calendar (its uid stays the same)")
    ] = None,
    notify: Annotated[bool, Field(description=invitations.NOTIFY_DESCRIPTION)] = True,
) -> dict[str, Any]:
    """Change an event: only the fields you give change. Returns {event, invitations}.

    Giving only `start` moves the event and keeps its length; give `end` too to change the
    length. An all-day event takes dates (end exclusive, as in iCalendar). Date-times make an
    all-day event a timed one (of one hour unless you give end), and dates make a timed event
    an all-day one (of one day unless you give end). For a recurring event this changes the
    whole series. Side effects: when the event has attendees and the user organizes it (or it
    has no organizer yet, and the user becomes it), a change they would see (title, time, place,
    description, repetition, guest list) mails each attendee an updated invitation (METHOD:REQUEST;
    a guest just added gets a first one) and each attendee taken off a cancellation
    (METHOD:CANCEL), filed in Sent, unless notify is false. An event someone else organizes
    changes only in the user's calendar; nobody is mailed (`invitations_note` says so).
    """
    tz = ctx.tz
    session = dav.session(ctx)
    item = session.find(APP, uid)
    target = session.collection(APP, calendar) if calendar is not None else None
    before = invitations.Before.of(item.component, ctx.episode.endpoints.address)
    with session.edit(item, move_to=target) as comp:
        if summary is not None:
            dav.set_text(comp, "SUMMARY", summary)
        if start is not None or end is not None:
            old_start, old_end = _stored_span(comp, tz)
            new_start = parse_when(start, tz, "start") if start is not None else old_start
            new_end: date | datetime | None = None
            if end is not None:
                new_end = parse_when(end, tz, "end")
                if start is None and _timed(new_end) != _timed(old_start):
                    raise ToolError(
                        "to switch between an all-day and a timed event, give both start and end", "invalid_arguments"
                    )
            elif _timed(new_start) == _timed(old_start):
                new_end = new_start + (old_end - old_start)  # moved, same length
            _set_times(comp, *_span(new_start, new_end, tz))
        if location is not None:
            dav.set_text(comp, "LOCATION", location)
        if description is not None:
            dav.set_text(comp, "DESCRIPTION", description)
        if attendees is not None:
            _set_attendees(comp, attendees)
        plan = invitations.plan_change(ctx, comp, before)
    sent = invitations.send(ctx, plan, notify=notify, saved="the event WAS changed")
    return {"event": item.state(tz), **sent}


@tool(
    "calendar",
    returns="{deleted, calendar, invitations: [{to, method, message_id}], invitations_note?}",
)
def calendar_delete_event(
    ctx: ToolContext,
    uid: Uid,
    notify: Annotated[bool, Field(description=invitations.NOTIFY_DESCRIPTION)] = True,
) -> dict[str, Any]:
    """Delete an event by uid (a recurring event: the whole series); returns {deleted, calendar, invitations}.

    Side effects: when the user organizes the event, each attendee is mailed a cancellation
    (METHOD:CANCEL), filed in Sent, unless notify is false. An event someone else organizes is only
    removed from the user's calendar; nobody is mailed.
    """
    session = dav.session(ctx)
    plan = invitations.plan_delete(ctx, session.find(APP, uid).component)
    deleted = session.delete(APP, uid)
    return {**deleted, **invitations.send(ctx, plan, notify=notify, saved="the event WAS deleted")}
