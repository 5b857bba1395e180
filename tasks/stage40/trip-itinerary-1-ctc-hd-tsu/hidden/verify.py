"""Checks for trip-itinerary-1-ctc-hd-tsu: BQ 964 and BQ 965 between Seattle and Stockholm."""

from __future__ import annotations

import re
from datetime import datetime


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def _instant(value: Any) -> datetime | None:
    """An ISO time as an aware datetime; None for a missing value, a bare date or junk."""
    if not isinstance(value, str) or len(value) == 10:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _on_time(value: Any, expected: str) -> bool:
    """`value` is the expected instant, or for an expected date, that date or a time on it.

    State times are written in the task's timezone, so a time's date part is its local day.
    """
    if not isinstance(value, str):
        return False
    if len(expected) == 10:
        return value[:10] == expected and (len(value) == 10 or _instant(value) is not None)
    at, want = _instant(value), _instant(expected)
    return at is not None and at == want


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _fresh(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` in `final` whose uid `initial` does not have."""
    old = {item.get("uid") for _, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if item.get("uid") not in old]


def event_created(
    initial: dict[str, Any], final: dict[str, Any], *, calendar: str, pattern: str, start: str, end: str, label: str
) -> Verdict:
    """Exactly one new event like `pattern`, in `calendar`, from `start` to `end`."""
    found = [(where, e) for where, e in _fresh(initial, final, "calendar") if _matches(_label(e), pattern)]
    if len(found) != 1:
        return False, f"expected one new event for {label}, found {len(found)} ({[_label(e) for _, e in found]})"
    where, event = found[0]
    if where != calendar:
        return False, f"{_label(event)!r} is in the calendar {where!r}, not in {calendar!r}"
    if not _on_time(event.get("start"), start) or not _on_time(event.get("end"), end):
        return False, f"{_label(event)!r} runs {event.get('start')} to {event.get('end')}; expected {start} to {end}"
    return True, f"{label} is in {calendar}, {start} to {end}"


def created_count(initial: dict[str, Any], final: dict[str, Any], *, app: str, count: int) -> Verdict:
    """Exactly `count` new items in `app`: nothing besides what was asked for."""
    made = _fresh(initial, final, app)
    if len(made) != count:
        return False, f"{len(made)} new {app} items ({[_label(e) for _, e in made]}); expected {count}"
    return True, f"{count} new {app} items, as asked"


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def _touched(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` that are new or differ from their initial version."""
    old = {item.get("uid"): (name, item) for name, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if old.get(item.get("uid")) != (name, item)]


def one_reminder(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    pattern: str,
    lst: str,
    due: str | list[str],
    label: str,
    exclude: str | None = None,
    stale: str | None = None,
    says: str | None = None,
) -> Verdict:
    """Exactly one open reminder about `label` (new, or the `stale` one updated), in `lst`, due `due` (one of
    them, when a phrase allows several days: "by the end of next week" is Friday, or the weekend);
    its title or notes match `says` (an amount, say) when given."""
    if stale is not None:
        _, old = _find(final, "reminders", stale)
        if old is not None and old.get("completed"):
            return False, f"the old reminder {old.get('title')!r} was ticked off, but the {label} is not done"
    candidates = {item.get("uid"): (name, item) for name, item in _touched(initial, final, "reminders")}
    if stale is not None:
        where, old = _find(final, "reminders", stale)
        if old is not None:
            candidates[stale] = (where, old)
    found = [
        (name, item)
        for name, item in candidates.values()
        if not item.get("completed")
        and _matches(item.get("title"), pattern)
        and not (exclude and _matches(item.get("title"), exclude))
    ]
    if not found:
        return False, f"no open reminder for the {label}"
    if len(found) > 1:
        shown = sorted(f"{item.get('title')!r} due {item.get('due')}" for _, item in found)
        return False, f"{len(found)} open reminders for the {label}: {shown}; expected one"
    where, item = found[0]
    if where != lst:
        return False, f"the {label} reminder is in the list {where!r}, not in {lst!r}"
    if not any(_on_time(item.get("due"), d) for d in ([due] if isinstance(due, str) else due)):
        return False, f"the {label} reminder is due {item.get('due')}; expected {due}"
    if not _matches(f"{item.get('title') or ''}\n{item.get('notes') or ''}", says):
        return False, f"the {label} reminder {item.get('title')!r} does not give the right amount"
    return True, f"one open {label} reminder in {lst}, due {due}"


def check_outbound_flight(initial, final, trace):
    return event_created(
        initial,
        final,
        calendar='Travel',
        pattern='BQ\\s?964',
        start='2026-08-31T11:50:00-07:00',
        end='2026-08-31T21:50:00-07:00',
        label='the outbound flight',
    )


def check_return_flight(initial, final, trace):
    return event_created(
        initial,
        final,
        calendar='Travel',
        pattern='BQ\\s?965',
        start='2026-09-02T22:10:00-07:00',
        end='2026-09-03T08:10:00-07:00',
        label='the return flight',
    )


def check_only_flights(initial, final, trace):
    return created_count(initial, final, app='calendar', count=2)


def check_outbound_check_in(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='BQ\\s?964',
        lst='Reminders',
        due='2026-08-30T11:50:00-07:00',
        label='outbound check-in',
    )


def check_return_check_in(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='BQ\\s?965',
        lst='Reminders',
        due='2026-09-01T22:10:00-07:00',
        label='return check-in',
    )
