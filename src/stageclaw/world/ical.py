"""Events, to-dos and notes as iCalendar (VEVENT, VTODO, VJOURNAL) and as State JSON.

`*_state` turns a world.yaml seed into its State JSON item; `to_ical` renders a seed for the
Radicale store; `component_state` reads any stored component back into the same shape.
"""

from __future__ import annotations

import email.utils
from datetime import datetime, timedelta, tzinfo
from typing import Any

import icalendar
from icalendar.prop import vRecur

from stageclaw.world import canonical, contentline, vtimezone
from stageclaw.world.model import EventSeed, NoteSeed, OccurrenceSeed, TodoSeed

PRODID = "-//stageclaw//world//EN"
KIND_OF_COMPONENT = {"VEVENT": "calendar", "VTODO": "reminders", "VJOURNAL": "notes"}
COMPONENT_OF_KIND = {kind: comp for comp, kind in KIND_OF_COMPONENT.items()}


def _rrule_text(value: Any) -> str | None:
    if value is None:
        return None
    recur = value if isinstance(value, vRecur) else vRecur.from_ical(value)
    return recur.to_ical().decode()


def _address(addr: str, cn: str | None = None) -> str:
    addr = str(addr)
    if addr.lower().startswith("mailto:"):
        addr = addr[7:]
    return canonical.address(email.utils.formataddr((str(cn or ""), addr)))


def _attendees(values: list[str]) -> list[str]:
    return sorted(canonical.address(a) for a in values)


def override_state(seed: EventSeed, override: OccurrenceSeed, tz: tzinfo) -> dict[str, Any]:
    start, end = seed.occurrence(override)
    return {
        "recurrence_id": canonical.when(override.recurrence_id, tz),
        "summary": override.summary if override.summary is not None else seed.summary,
        "start": canonical.when(start, tz),
        "end": canonical.when(end, tz),
        "location": override.location if override.location is not None else seed.location,
        "description": override.description if override.description is not None else seed.description,
        "attendees": _attendees(override.attendees if override.attendees is not None else seed.attendees),
        "status": override.status if override.status is not None else seed.status,
    }


def _sorted_whens(values: list[str | None]) -> list[str]:
    return sorted(v for v in values if v is not None)


def event_state(seed: EventSeed, tz: tzinfo) -> dict[str, Any]:
    return {
        "uid": seed.uid,
        "summary": seed.summary,
        "start": canonical.when(seed.start, tz),
        "end": canonical.when(seed.effective_end, tz),
        "all_day": not isinstance(seed.start, datetime),
        "location": seed.location,
        "description": seed.description,
        "attendees": _attendees(seed.attendees),
        "organizer": canonical.address(seed.organizer) if seed.organizer else None,
        "status": seed.status,
        "rrule": _rrule_text(seed.rrule),
        "exdates": _sorted_whens([canonical.when(d, tz) for d in seed.exdates]),
        "overrides": sorted((override_state(seed, o, tz) for o in seed.overrides), key=lambda o: o["recurrence_id"]),
    }


def todo_state(seed: TodoSeed, tz: tzinfo) -> dict[str, Any]:
    return {
        "uid": seed.uid,
        "title": seed.title,
        "notes": seed.notes,
        "due": canonical.when(seed.due, tz),
        "priority": seed.priority,
        "completed": seed.completed,
        "completed_at": canonical.when(seed.completed_at, tz),
    }


def note_state(seed: NoteSeed, tz: tzinfo) -> dict[str, Any]:
    return {"uid": seed.uid, "title": seed.title, "body": seed.body, "tags": sorted(set(seed.tags))}


def _person(name: str, value: str) -> str:
    display, addr = canonical.parse_address(value)
    return contentline.line(name, f"mailto:{addr.lower()}", [("CN", contentline.param(display))] if display else [])


def _event_lines(seed: EventSeed, tz: tzinfo) -> list[str]:
    lines = [contentline.line("UID", seed.uid), contentline.line("SUMMARY", contentline.text(seed.summary))]
    lines += [contentline.when("DTSTART", seed.start, tz), contentline.when("DTEND", seed.effective_end, tz)]
    if seed.location:
        lines.append(contentline.line("LOCATION", contentline.text(seed.location)))
    if seed.description:
        lines.append(contentline.line("DESCRIPTION", contentline.text(seed.description)))
    lines += [_person("ATTENDEE", a) for a in seed.attendees]
    if seed.organizer:
        lines.append(_person("ORGANIZER", seed.organizer))
    if seed.status:
        lines.append(contentline.line("STATUS", seed.status))
    if seed.rrule:
        lines.append(contentline.line("RRULE", _rrule_text(seed.rrule) or ""))
    if seed.exdates:
        lines.append(contentline.when_list("EXDATE", list(seed.exdates), tz))
    return lines


def _override_lines(seed: EventSeed, override: OccurrenceSeed, tz: tzinfo) -> list[str]:
    """An override is a whole VEVENT of its own: clients show it without the master's fields."""
    state = override_state(seed, override, tz)
    start, end = seed.occurrence(override)
    lines = [contentline.line("UID", seed.uid), contentline.when("RECURRENCE-ID", override.recurrence_id, tz)]
    lines += [contentline.line("SUMMARY", contentline.text(state["summary"]))]
    lines += [contentline.when("DTSTART", start, tz), contentline.when("DTEND", end, tz)]
    for key, name in (("location", "LOCATION"), ("description", "DESCRIPTION")):
        if state[key]:
            lines.append(contentline.line(name, contentline.text(state[key])))
    attendees = override.attendees if override.attendees is not None else seed.attendees
    lines += [_person("ATTENDEE", a) for a in attendees]
    if seed.organizer:
        lines.append(_person("ORGANIZER", seed.organizer))
    if state["status"]:
        lines.append(contentline.line("STATUS", state["status"]))
    return lines


def _todo_lines(seed: TodoSeed, tz: tzinfo) -> list[str]:
    lines = [contentline.line("UID", seed.uid), contentline.line("SUMMARY", contentline.text(seed.title))]
    if seed.notes:
        lines.append(contentline.line("DESCRIPTION", contentline.text(seed.notes)))
    if seed.due is not None:
        lines.append(contentline.when("DUE", seed.due, tz))
    if seed.priority is not None:
        lines.append(contentline.line("PRIORITY", str(seed.priority)))
    lines.append(contentline.line("STATUS", "COMPLETED" if seed.completed else "NEEDS-ACTION"))
    if seed.completed_at is not None:
        lines.append(contentline.when("COMPLETED", seed.completed_at, tz, utc=True))  # RFC 5545: in UTC
    return lines


def _note_lines(seed: NoteSeed, tz: tzinfo) -> list[str]:
    lines = [contentline.line("UID", seed.uid), contentline.line("SUMMARY", contentline.text(seed.title))]
    if seed.body:
        lines.append(contentline.line("DESCRIPTION", contentline.text(seed.body)))
    if seed.tags:
        lines.append(contentline.line("CATEGORIES", ",".join(contentline.text(t) for t in sorted(set(seed.tags)))))
    return lines


def _uses_tzid(seed: EventSeed | TodoSeed | NoteSeed, tz: tzinfo) -> bool:
    if contentline.is_utc(tz):
        return False
    if isinstance(seed, EventSeed):
        return isinstance(seed.start, datetime)
    return isinstance(seed, TodoSeed) and isinstance(seed.due, datetime)


def to_ical(seed: EventSeed | TodoSeed | NoteSeed, tz: tzinfo, stamp: datetime) -> bytes:
    """One calendar object resource (one `.ics` file): the seed's component, its overrides, and the
    VTIMEZONE of the zone its times are in (without it, a server must make one up for every read).
    `stamp` is the DTSTAMP every component needs: when the world was written (its `now`)."""
    head = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}"]
    if _uses_tzid(seed, tz):
        head.append(vtimezone.vtimezone(contentline.tz_name(tz)))
    name = COMPONENT_OF_KIND[{EventSeed: "calendar", TodoSeed: "reminders", NoteSeed: "notes"}[type(seed)]]
    dtstamp = contentline.when("DTSTAMP", stamp, tz, utc=True)
    body: list[str] = []
    if isinstance(seed, EventSeed):
        body += [f"BEGIN:{name}", dtstamp, *_event_lines(seed, tz), f"END:{name}"]
        for override in seed.overrides:
            body += [f"BEGIN:{name}", dtstamp, *_override_lines(seed, override, tz), f"END:{name}"]
    else:
        lines = _todo_lines(seed, tz) if isinstance(seed, TodoSeed) else _note_lines(seed, tz)
        body += [f"BEGIN:{name}", dtstamp, *lines, f"END:{name}"]
    return (contentline.CRLF.join([*head, *body, "END:VCALENDAR"]) + contentline.CRLF).encode()


def _text(comp: icalendar.Component, name: str) -> str:
    value = comp.get(name)
    if value is None:
        return ""
    if isinstance(value, list):
        value = value[0]
    return str(value)


def _decoded(comp: icalendar.Component, name: str) -> Any:
    return comp.decoded(name) if name in comp else None


def event_span(comp: icalendar.Component) -> tuple[Any, Any]:
    """(start, end) of a stored event as written (dates or datetimes); (None, None) without a DTSTART.

    RFC 5545: without DTEND or DURATION a timed event has no length and an all-day event lasts its day.
    """
    start = _decoded(comp, "DTSTART")
    end = _decoded(comp, "DTEND")
    if end is None and start is not None:
        duration = _decoded(comp, "DURATION")
        end = (
            start + duration
            if duration is not None
            else (start if isinstance(start, datetime) else start + timedelta(days=1))
        )
    return start, end


def _people(comp: icalendar.Component) -> list[str]:
    attendees = comp.get("ATTENDEE", [])
    if not isinstance(attendees, list):
        attendees = [attendees]
    return sorted(_address(a, a.params.get("CN")) for a in attendees)


def _status(comp: icalendar.Component) -> str | None:
    status = comp.get("STATUS")
    return str(status).upper() if status is not None else None


def _exdates(comp: icalendar.Component, tz: tzinfo) -> list[str]:
    raw = comp.get("EXDATE")
    groups = raw if isinstance(raw, list) else [raw] if raw is not None else []
    return _sorted_whens([canonical.when(d.dt, tz) for group in groups for d in group.dts])


def _override_from(comp: icalendar.Component, tz: tzinfo) -> dict[str, Any]:
    start, end = event_span(comp)
    return {
        "recurrence_id": canonical.when(_decoded(comp, "RECURRENCE-ID"), tz),
        "summary": _text(comp, "SUMMARY"),
        "start": canonical.when(start, tz),
        "end": canonical.when(end, tz),
        "location": _text(comp, "LOCATION"),
        "description": _text(comp, "DESCRIPTION"),
        "attendees": _people(comp),
        "status": _status(comp),
    }


def _event_from(comp: icalendar.Component, tz: tzinfo, overrides: list[icalendar.Component]) -> dict[str, Any]:
    start, end = event_span(comp)
    organizer = comp.get("ORGANIZER")
    return {
        "uid": _text(comp, "UID"),
        "summary": _text(comp, "SUMMARY"),
        "start": canonical.when(start, tz),
        "end": canonical.when(end, tz),
        "all_day": start is not None and not isinstance(start, datetime),
        "location": _text(comp, "LOCATION"),
        "description": _text(comp, "DESCRIPTION"),
        "attendees": _people(comp),
        "organizer": _address(organizer, organizer.params.get("CN")) if organizer is not None else None,
        "status": _status(comp),
        "rrule": _rrule_text(comp.get("RRULE")),
        "exdates": _exdates(comp, tz),
        "overrides": sorted((_override_from(o, tz) for o in overrides), key=lambda o: o["recurrence_id"] or ""),
    }


def _todo_from(comp: icalendar.Component, tz: tzinfo, overrides: list[icalendar.Component]) -> dict[str, Any]:
    priority = comp.get("PRIORITY")
    completed_at = _decoded(comp, "COMPLETED")
    status = str(comp.get("STATUS", "")).upper()
    return {
        "uid": _text(comp, "UID"),
        "title": _text(comp, "SUMMARY"),
        "notes": _text(comp, "DESCRIPTION"),
        "due": canonical.when(_decoded(comp, "DUE"), tz),
        "priority": int(priority) if priority is not None else None,
        "completed": status == "COMPLETED" or completed_at is not None,
        "completed_at": canonical.when(completed_at, tz),
    }


def _categories(comp: icalendar.Component) -> list[str]:
    raw = comp.get("CATEGORIES")
    if raw is None:
        return []
    groups = raw if isinstance(raw, list) else [raw]
    return sorted({str(cat) for group in groups for cat in group.cats})


def _note_from(comp: icalendar.Component, tz: tzinfo, overrides: list[icalendar.Component]) -> dict[str, Any]:
    return {
        "uid": _text(comp, "UID"),
        "title": _text(comp, "SUMMARY"),
        "body": _text(comp, "DESCRIPTION"),
        "tags": _categories(comp),
    }


_READERS = {"VEVENT": _event_from, "VTODO": _todo_from, "VJOURNAL": _note_from}


def overrides_of(cal: icalendar.Component, master: icalendar.Component) -> list[icalendar.Component]:
    """The RECURRENCE-ID overrides of `master` in its resource."""
    uid = master.get("UID")
    return [c for c in cal.subcomponents if c.name == master.name and "RECURRENCE-ID" in c and c.get("UID") == uid]


def items(data: bytes, tz: tzinfo) -> list[tuple[str, dict[str, Any]]]:
    """(component name, State JSON item) of every master component of one `.ics` resource; a
    master's RECURRENCE-ID overrides are part of its item."""
    cal = icalendar.Calendar.from_ical(data)
    return [
        (c.name, _READERS[c.name](c, tz, overrides_of(cal, c)))
        for c in cal.subcomponents
        if c.name in _READERS and "RECURRENCE-ID" not in c
    ]


def component_state(
    name: str, comp: icalendar.Component, tz: tzinfo, overrides: list[icalendar.Component] | None = None
) -> dict[str, Any]:
    return _READERS[name](comp, tz, overrides or [])
