"""Occurrences of a recurring event, computed the way calendar servers do: in the event's zone.

A timed series keeps its wall-clock time across DST changes (a 09:30 London meeting is at 09:30
in March and in April, an hour apart in UTC); an all-day series recurs on dates. `EXDATE`s and
`RECURRENCE-ID`s name occurrences by their original start, so both are checked against the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from dateutil.rrule import rrule, rruleset, rrulestr


def _local(value: date | datetime, tz: tzinfo) -> datetime:
    """The naive-free datetime a rule runs on: an aware time in `tz`, or a date's naive midnight."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=tz) if value.tzinfo is None else value.astimezone(tz)
    return datetime.combine(value, time())


def _parse(text: str, first: datetime, tz: tzinfo) -> rrule:
    try:
        return rrulestr(text, dtstart=first)
    except ValueError:
        # A date UNTIL on a timed series (tolerated by most clients): the end of that day, in UTC.
        parts = []
        for part in text.split(";"):
            key, _, value = part.partition("=")
            if key.upper() == "UNTIL" and len(value) == 8 and first.tzinfo is not None:
                end = datetime.strptime(value, "%Y%m%d").replace(tzinfo=tz) + timedelta(days=1, seconds=-1)
                value = end.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
            parts.append(f"{key}={value}")
        return rrulestr(";".join(parts), dtstart=first)


def rule(text: str, start: date | datetime, tz: tzinfo) -> rruleset:
    """The occurrences of an RRULE text for a series starting at `start`.

    The start is always the first occurrence, even when the rule would not produce it (a weekly
    Monday rule starting on a Wednesday), and it counts towards COUNT (RFC 5545 3.8.5.3).
    """
    first = _local(start, tz)
    base = _parse(text, first, tz)
    out = rruleset()
    if next(iter(base), None) != first:
        out.rdate(first)
        if base._count:  # dateutil's own attribute: the rule's COUNT
            base = base.replace(count=base._count - 1)
    out.rrule(base)
    return out


def _back(value: datetime, start: date | datetime) -> date | datetime:
    return value if isinstance(start, datetime) else value.date()


def is_occurrence(text: str, start: date | datetime, when: date | datetime, tz: tzinfo) -> bool:
    """Whether the series produces an occurrence that starts at `when` (its original start)."""
    moment = _local(when, tz)
    return rule(text, start, tz).after(moment, inc=True) == moment


def bounded(text: str) -> bool:
    """Whether the rule ends (COUNT or UNTIL); an endless series recurs forever."""
    keys = {part.partition("=")[0].upper() for part in text.split(";")}
    return bool(keys & {"COUNT", "UNTIL"})


def starts(
    text: str, start: date | datetime, tz: tzinfo, *, until: date | datetime | None = None
) -> Iterator[date | datetime]:
    """The original starts of the series in order (up to `until`, inclusive, for an endless one)."""
    if until is None and not bounded(text):
        raise ValueError(f"the rule {text!r} never ends: give `until`")
    stop = _local(until, tz) if until is not None else None
    for value in rule(text, start, tz):
        if stop is not None and value > stop:
            return
        yield _back(value, start)
