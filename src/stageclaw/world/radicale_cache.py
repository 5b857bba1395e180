"""Radicale's item cache, written with the seeded items, so a fresh episode's first read is fast.

The first time Radicale reads an item it parses it with vobject, serializes it again, derives its
etag and the time range it spans (expanding a recurrence), and keeps these in
`<collection>/.Radicale.cache/item/<name>`. For a calendar of thousands of events that first read
took tens of seconds, and a fresh episode's first calendar tool call timed out. Seeding knows every
one of these values already, so it writes the entries Radicale would write.

An entry is only a shortcut, never a second truth: Radicale keys it by a hash of the item file's
exact bytes and recomputes it when they differ, so an item the agent changes is read afresh. The
entry serves the item as written (Radicale would serve its own re-serialization of the same
component). `tests/test_world_scale.py` checks every entry against the one Radicale computes.
When the installed Radicale keeps its cache in another format, nothing is written and Radicale
computes the entries itself.
"""

from __future__ import annotations

import hashlib
import math
import pickle
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from stageclaw.world import recurrence
from stageclaw.world.model import ContactSeed, EventSeed, NoteSeed, TodoSeed

FOLDER = (".Radicale.cache", "item")
_FIELDS = ("uid", "etag", "text", "name", "tag", "start", "end")
_LOWEST = datetime.min.replace(tzinfo=UTC)
_HIGHEST = datetime.max.replace(tzinfo=UTC)
_SECOND = timedelta(seconds=1)


def _version() -> bytes | None:
    """Radicale's cache version (it names the Radicale and vobject releases), or None for an
    unknown cache format."""
    try:
        from radicale import storage
        from radicale.storage.multifilesystem.cache import CacheContent
    except ImportError:
        return None
    if tuple(CacheContent._fields) != _FIELDS or storage.CACHE_VERSION_RADICALE != "3.3.1":
        return None
    return storage.CACHE_VERSION


def _utc(value: date | datetime, tz: tzinfo) -> datetime:
    """Radicale's view of a DATE or DATE-TIME: a date is its midnight in UTC."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=tz) if value.tzinfo is None else value.astimezone(tz)
    return datetime.combine(value, time(), UTC)


def _span(start: date | datetime, length: timedelta, tz: tzinfo) -> tuple[datetime, datetime]:
    """An occurrence from its start and the series' length, added on the wall clock as Radicale does."""
    begin = _utc(start, tz)
    return begin, begin + length


def _length(seed: EventSeed, tz: tzinfo) -> timedelta:
    start, end = seed.start, seed.effective_end
    if isinstance(start, datetime):
        start, end = _utc(start, tz).replace(tzinfo=None), _utc(end, tz).replace(tzinfo=None)
    return end - start  # wall-clock time, like the difference of two times in one zone


def _event_range(seed: EventSeed, tz: tzinfo) -> tuple[datetime, datetime]:
    spans = []
    for override in seed.overrides:
        start, end = seed.occurrence(override)
        spans.append((_utc(start, tz), _utc(end, tz)))
    length = _length(seed, tz)
    if not seed.rrule:
        spans.append(_span(seed.start, length, tz))
        return min(s for s, _ in spans), max(e for _, e in spans)
    skipped = {_utc(when, tz) for when in [*seed.exdates, *(o.recurrence_id for o in seed.overrides)]}
    if not recurrence.bounded(seed.rrule):
        rule = recurrence.rule(seed.rrule, seed.start, tz)
        first = next((_utc(s, tz) for s in _back(rule, seed.start) if _utc(s, tz) not in skipped), None)
        starts = [s for s, _ in spans] + ([first] if first is not None else [])
        return (min(starts) if starts else _LOWEST), _HIGHEST
    for start in recurrence.starts(seed.rrule, seed.start, tz):
        if _utc(start, tz) not in skipped:
            spans.append(_span(start, length, tz))
    if not spans:
        return _LOWEST, _HIGHEST
    return min(s for s, _ in spans), max(e for _, e in spans)


def _back(values: Iterable[datetime], like: date | datetime) -> Iterable[date | datetime]:
    return values if isinstance(like, datetime) else (v.date() for v in values)


def _todo_range(seed: TodoSeed, tz: tzinfo) -> tuple[datetime, datetime]:
    if seed.due is not None:
        due = _utc(seed.due, tz)
        return due - _SECOND, due
    if seed.completed_at is not None:
        done = _utc(seed.completed_at, tz)
        return done - _SECOND, done + _SECOND
    return _LOWEST, _HIGHEST


def time_range(seed: EventSeed | TodoSeed | NoteSeed | ContactSeed, tz: tzinfo) -> tuple[int, int]:
    """The enclosing time range Radicale prefilters time-range queries with, as POSIX seconds."""
    if isinstance(seed, EventSeed):
        start, end = _event_range(seed, tz)
    elif isinstance(seed, TodoSeed):
        start, end = _todo_range(seed, tz)
    else:
        start, end = _LOWEST, _HIGHEST
    return math.floor(start.timestamp()), math.ceil(end.timestamp())


_TAGS = {EventSeed: "VEVENT", TodoSeed: "VTODO", NoteSeed: "VJOURNAL", ContactSeed: ""}


def entries(
    items: Iterable[tuple[str, EventSeed | TodoSeed | NoteSeed | ContactSeed, bytes]], tz: tzinfo
) -> dict[str, bytes]:
    """The cache file of each (file name, seed, file bytes), by file name; none for an unknown Radicale."""
    version = _version()
    if version is None:
        return {}
    out = {}
    for filename, seed, data in items:
        text = data.decode("utf-8")
        etag = f'"{hashlib.sha256(text.encode()).hexdigest()}"'
        name = "VCARD" if isinstance(seed, ContactSeed) else "VCALENDAR"
        key = hashlib.sha256(version + data).hexdigest()
        content = (key, seed.uid, etag, text, name, _TAGS[type(seed)], *time_range(seed, tz))
        out[filename] = pickle.dumps(content, protocol=pickle.HIGHEST_PROTOCOL)
    return out
