"""Events, to-dos and notes as iCalendar (VEVENT, VTODO, VJOURNAL) and as State JSON.

`*_state` turns a world.yaml seed into its State JSON item; `to_ical` renders a seed for the
Radicale store; `component_state` reads any stored component back into the same shape.
"""

from __future__ import annotations

import email.utils
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

import icalendar
from icalendar.prop import vRecur

from stageclaw.world import canonical
from stageclaw.world.model import EventSeed, NoteSeed, TodoSeed

PRODID = "-//stageclaw//world//EN"
KIND_OF_COMPONENT = {"VEVENT": "calendar", "VTODO": "reminders", "VJOURNAL": "notes"}
COMPONENT_OF_KIND = {kind: comp for comp, kind in KIND_OF_COMPONENT.items()}


def _rrule_text(value: Any) -> str | None:
    if value is None:
        return None
    recur = value if isinstance(value, vRecur) else vRecur.from_ical(value)
    return recur.to_ical().decode()


def _person(addr: str, cn: str | None = None) -> str:
    addr = str(addr)
    if addr.lower().startswith("mailto:"):
        addr = addr[7:]
    return canonical.address(email.utils.formataddr((str(cn or ""), addr)))


def _localize(value: date | datetime, tz: tzinfo) -> date | datetime:
    if isinstance(value, datetime):
        return value.replace(tzinfo=tz) if value.tzinfo is None else value.astimezone(tz)
    return value


def event_state(seed: EventSeed, tz: tzinfo) -> dict[str, Any]:
    return {
        "uid": seed.uid,
        "summary": seed.summary,
        "start": canonical.when(seed.start, tz),
        "end": canonical.when(seed.effective_end, tz),
        "all_day": not isinstance(seed.start, datetime),
        "location": seed.location,
        "description": seed.description,
        "attendees": sorted(canonical.address(a) for a in seed.attendees),
        "organizer": canonical.address(seed.organizer) if seed.organizer else None,
        "status": seed.status,
        "rrule": _rrule_text(seed.rrule),
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


def _add_person(comp: icalendar.Component, name: str, value: str) -> None:
    display, addr = email.utils.parseaddr(value)
    params = {"CN": display} if display else {}
    comp.add(name, icalendar.vCalAddress(f"mailto:{addr.lower()}"), parameters=params)


def _event_component(seed: EventSeed, tz: tzinfo) -> icalendar.Event:
    comp = icalendar.Event()
    comp.add("uid", seed.uid)
    comp.add("summary", seed.summary)
    comp.add("dtstart", _localize(seed.start, tz))
    comp.add("dtend", _localize(seed.effective_end, tz))
    if seed.location:
        comp.add("location", seed.location)
    if seed.description:
        comp.add("description", seed.description)
    for attendee in seed.attendees:
        _add_person(comp, "attendee", attendee)
    if seed.organizer:
        _add_person(comp, "organizer", seed.organizer)
    if seed.status:
        comp.add("status", seed.status)
    if seed.rrule:
        comp.add("rrule", vRecur.from_ical(seed.rrule))
    return comp


def _todo_component(seed: TodoSeed, tz: tzinfo) -> icalendar.Todo:
    comp = icalendar.Todo()
    comp.add("uid", seed.uid)
    comp.add("summary", seed.title)
    if seed.notes:
        comp.add("description", seed.notes)
    if seed.due is not None:
        comp.add("due", _localize(seed.due, tz))
    if seed.priority is not None:
        comp.add("priority", seed.priority)
    comp.add("status", "COMPLETED" if seed.completed else "NEEDS-ACTION")
    if seed.completed_at is not None:
        comp.add("completed", _localize(seed.completed_at, tz))
    return comp


def _note_component(seed: NoteSeed, tz: tzinfo) -> icalendar.Journal:
    comp = icalendar.Journal()
    comp.add("uid", seed.uid)
    comp.add("summary", seed.title)
    if seed.body:
        comp.add("description", seed.body)
    if seed.tags:
        comp.add("categories", sorted(set(seed.tags)))
    return comp


_BUILDERS = {EventSeed: _event_component, TodoSeed: _todo_component, NoteSeed: _note_component}


def to_ical(seed: EventSeed | TodoSeed | NoteSeed, tz: tzinfo) -> bytes:
    """One calendar object resource (one `.ics` file) holding the seed's component."""
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add_component(_BUILDERS[type(seed)](seed, tz))
    return cal.to_ical()


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


def _event_from(comp: icalendar.Component, tz: tzinfo) -> dict[str, Any]:
    start, end = event_span(comp)
    attendees = comp.get("ATTENDEE", [])
    if not isinstance(attendees, list):
        attendees = [attendees]
    organizer = comp.get("ORGANIZER")
    status = comp.get("STATUS")
    return {
        "uid": _text(comp, "UID"),
        "summary": _text(comp, "SUMMARY"),
        "start": canonical.when(start, tz),
        "end": canonical.when(end, tz),
        "all_day": start is not None and not isinstance(start, datetime),
        "location": _text(comp, "LOCATION"),
        "description": _text(comp, "DESCRIPTION"),
        "attendees": sorted(_person(a, a.params.get("CN")) for a in attendees),
        "organizer": _person(organizer, organizer.params.get("CN")) if organizer is not None else None,
        "status": str(status).upper() if status is not None else None,
        "rrule": _rrule_text(comp.get("RRULE")),
    }


def _todo_from(comp: icalendar.Component, tz: tzinfo) -> dict[str, Any]:
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


def _note_from(comp: icalendar.Component, tz: tzinfo) -> dict[str, Any]:
    return {
        "uid": _text(comp, "UID"),
        "title": _text(comp, "SUMMARY"),
        "body": _text(comp, "DESCRIPTION"),
        "tags": _categories(comp),
    }


_READERS = {"VEVENT": _event_from, "VTODO": _todo_from, "VJOURNAL": _note_from}


def components(data: bytes) -> list[tuple[str, dict[str, Any] | icalendar.Component]]:
    """The master components (no RECURRENCE-ID overrides) of one `.ics` resource."""
    cal = icalendar.Calendar.from_ical(data)
    return [(c.name, c) for c in cal.subcomponents if c.name in _READERS and "RECURRENCE-ID" not in c]


def component_state(name: str, comp: icalendar.Component, tz: tzinfo) -> dict[str, Any]:
    return _READERS[name](comp, tz)
