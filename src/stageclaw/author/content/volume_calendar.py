"""The calendar of a `volume.Life`: recurring series with their exceptions, single events, birthdays.

Series started months ago and run on (some end); a work series skips the region's public holidays
(EXDATE), and a few occurrences were moved or cancelled on their own (RECURRENCE-ID overrides).
Single events fall on days and at hours that fit their kind, without double-booking the user.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author.content.volume import WEEKDAY_CODES, Life
from stageclaw.world import recurrence

HORIZON = timedelta(days=120)  # how far ahead single events are planned


def _fill(template: str, life: Life, who: str = "") -> str:
    t, rng = life.t, life.rng
    values = {"who": who, "project": rng.choice(t.PROJECTS), "role": rng.choice(t.ROLES)}
    values |= {"topic": rng.choice(t.TOPICS), "place": rng.choice(t.TRIP_PLACES)}
    return template.format(**values)


def _who(life: Life, calendar: str, template: str) -> Any:
    """Whom an event is with: a client for the kinds `CLIENT_EVENTS` names, else a colleague (at
    work) or a friend or relative."""
    cast = life.ensure_cast()
    if calendar != "work":
        return life.rng.choice(cast.friends + cast.family)
    return life.rng.choice(cast.clients if template in life.t.CLIENT_EVENTS else cast.colleagues)


def _location(life: Life, template: str) -> str:
    return life.rng.choice(life.t.PLACES_OF.get(template, life.t.LOCATIONS))


def _add(life: Life, kind: str, template: str, event: dict[str, Any]) -> str:
    name = life.calendars[kind]
    life.draft.add_event(name, event)
    life.events.append({"calendar": name, "kind": kind, "template": template, **event})
    return f"calendar/{name}/{event['uid']}"


def _series(life: Life, spec: tuple[Any, ...]) -> str | None:
    """A series that started months ago at a time that clashes with no other series; its work
    occurrences on public holidays and those in a slot the story keeps free are EXDATEs."""
    summary_t, kind, hours, minutes, weekdays, rule_t = spec
    rng = life.rng
    person = _who(life, kind, summary_t)
    summary = _fill(summary_t, life, person.first)
    if not life.avoid.text(summary):
        return None
    length = timedelta(minutes=rng.choice(minutes))
    window_end = life.now + timedelta(days=365)
    for _ in range(8):
        first = life.start.date() - timedelta(days=rng.randint(20, 120))
        while str(first.weekday()) not in weekdays or (kind == "work" and not life.is_workday(first)):
            first += timedelta(days=1)
        start = life._at(
            first, rng.randint(*hours), rng.choice((0, 30)) if minutes[0] >= 30 else rng.choice((0, 15, 30))
        )
        rule = rule_t.format(day=WEEKDAY_CODES[first.weekday()])
        if rng.random() < 0.3:
            until = life.now + timedelta(days=rng.randint(30, 150))
            rule += f";UNTIL={until.astimezone(start.tzinfo).strftime('%Y%m%d')}T235959Z"
        starts = [w for w in recurrence.starts(rule, start, life.tz, until=window_end) if isinstance(w, datetime)]
        skipped = [
            w
            for w in starts
            if (kind == "work" and not life.is_workday(w.date())) or not life.avoid.slot(w, w + length)
        ]
        held = [w for w in starts if w not in skipped]
        if all(life._free(w, w + length) for w in held):
            break
    else:
        return None
    for when in held:
        life.take(when, when + length)
    near = [w for w in held if abs(w - life.now) < timedelta(days=60)]
    overrides = []
    for when in rng.sample(near, min(len(near), rng.choice((0, 1, 1, 2)))):
        if rng.random() < 0.4:
            overrides.append({"recurrence_id": when.isoformat(), "status": "CANCELLED"})
            continue
        moved = when + timedelta(hours=rng.choice((-1, 1, 2)))
        if moved.hour < hours[0] - 1 or moved.hour > hours[1] + 2 or not life._free(moved, moved + length):
            continue
        life.take(moved, moved + length)
        overrides.append({"recurrence_id": when.isoformat(), "start": moved.isoformat()})
    event: dict[str, Any] = {
        "uid": life.draft.uid("evt", summary if not life.zh else "series"),
        "summary": summary,
        "start": start.isoformat(),
        "end": (start + length).isoformat(),
    }
    if kind == "work":
        event["location"] = _location(life, summary_t)
        if "{who}" in summary_t:
            event["attendees"] = sorted([life.user.mailbox, person.mailbox])
            event["organizer"] = life.user.mailbox
    event["rrule"] = rule
    if skipped:
        event["exdates"] = [w.isoformat() for w in skipped]
    if overrides:
        event["overrides"] = sorted(overrides, key=lambda o: o["recurrence_id"])
    return _add(life, kind, summary_t, event)


def _single(life: Life, spec: tuple[Any, ...]) -> str | None:
    summary_t, kind, hours, minutes, weekdays = spec
    rng = life.rng
    person = _who(life, kind, summary_t)
    summary = _fill(summary_t, life, person.first)
    if not life.avoid.text(summary):
        return None
    on = life._day_between(life.start.date(), (life.now + HORIZON).date(), weekdays, kind == "work")
    if on is None:
        return None
    start = life._at(on, rng.randint(*hours), rng.choice((0, 30)))
    end = start + timedelta(minutes=rng.choice(minutes))
    if not life._free(start, end):
        return None
    life.take(start, end)
    event: dict[str, Any] = {
        "uid": life.draft.uid("evt", summary if not life.zh else "event"),
        "summary": summary,
        "start": start.isoformat(),
        "end": end.isoformat(),
    }
    if kind == "work":
        event["location"] = _location(life, summary_t)
        if "{who}" in summary_t or rng.random() < 0.5:
            organizer = person if rng.random() < 0.5 else life.user
            event["attendees"] = sorted({life.user.mailbox, person.mailbox})
            event["organizer"] = organizer.mailbox
    return _add(life, kind, summary_t, event)


def _all_day(life: Life, spec: tuple[Any, ...]) -> str | None:
    summary_t, kind, (low, high) = spec
    rng = life.rng
    summary = _fill(summary_t, life)
    if not life.avoid.text(summary):
        return None
    first = life._day_between(life.start.date(), (life.now + HORIZON).date(), "0123456", kind == "work")
    if first is None:
        return None
    days = rng.randint(low, high)
    last = first + timedelta(days=days)
    if any(not life.avoid.day(first + timedelta(days=n)) for n in range(days)):
        return None
    uid = life.draft.uid("evt", summary if not life.zh else "allday")
    return _add(
        life, kind, summary_t, {"uid": uid, "summary": summary, "start": first.isoformat(), "end": last.isoformat()}
    )


def _birthdays(life: Life) -> list[str]:
    cast = life.ensure_cast()
    out = []
    for person in [*cast.family, *cast.friends]:
        born = cast.birthdays[person.email]
        summary = life.t.BIRTHDAY.format(who=person.first)
        if not life.avoid.text(summary):
            continue
        first = (
            born.replace(year=life.start.year - 1)
            if (born.month, born.day) != (2, 29)
            else date(life.start.year - 1, 3, 1)
        )
        event = {
            "uid": life.draft.uid("evt", f"birthday {person.given}" if not life.zh else "birthday"),
            "summary": summary,
            "start": first.isoformat(),
            "end": (first + timedelta(days=1)).isoformat(),
            "rrule": "FREQ=YEARLY",
        }
        out.append(_add(life, "personal", life.t.BIRTHDAY, event))
    return out


def calendar(life: Life, *, series: int, events: int) -> list[str]:
    """`series` recurring series, about `events` single and all-day events, and everyone's birthdays."""
    rng, t = life.rng, life.t
    out: list[str] = []
    specs = list(t.SERIES)
    rng.shuffle(specs)
    used: set[str] = set()
    for n in range(series * 4):
        if len(out) >= series:
            break
        spec = specs[n % len(specs)]
        if spec[0] in used and "{" not in spec[0]:
            continue  # one gym series a week, however many calendars a life fills
        path = _series(life, spec)
        if path:
            out.append(path)
            used.add(spec[0])
    out += _birthdays(life)
    wanted = {"all day": max(1, events // 30)}
    wanted["single"] = events - wanted["all day"]
    for kind, make, table in (("all day", _all_day, t.ALL_DAY), ("single", _single, t.SINGLES)):
        added = 0
        for _ in range(wanted[kind] * 4):
            if added >= wanted[kind]:
                break
            path = make(life, rng.choice(table))
            if path:
                out.append(path)
                added += 1
    return out
