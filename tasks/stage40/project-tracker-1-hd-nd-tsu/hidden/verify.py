"""Checks for project-tracker-1-hd-nd-tsu: strip-out and plumbing done, screed to 2026-03-10, tiling to 2026-03-16, new: choose the basin taps by 2026-03-11."""

from __future__ import annotations

import re
from datetime import datetime


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def reminder_done(
    initial: dict[str, Any], final: dict[str, Any], *, uid: str, lst: str, keep_open: list[str]
) -> Verdict:
    """The reminder `uid` is ticked off (not deleted) in `lst`; the reminders in `keep_open` are still open."""
    where, item = _find(final, "reminders", uid)
    if item is None:
        return False, f"the reminder {uid} was deleted instead of ticked off"
    if not item.get("completed"):
        return False, f"the reminder {item.get('title')!r} is still open"
    if where != lst:
        return False, f"the reminder {item.get('title')!r} was moved to the list {where!r}"
    for other in keep_open:
        _, now = _find(final, "reminders", other)
        _, before = _find(initial, "reminders", other)
        title = (before or {}).get("title")
        if now is None:
            return False, f"the reminder {title!r} ({other}) was deleted"
        if now.get("completed"):
            return False, f"the reminder {title!r} ({other}) was ticked off too; it is a different job"
    return True, f"{item.get('title')!r} is done; the others are still open"


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


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


def only_reminders(initial: dict[str, Any], final: dict[str, Any], *, patterns: dict[str, str]) -> Verdict:
    """Every reminder added or changed is one of those asked for (labels -> title patterns)."""
    for where, item in _touched(initial, final, "reminders"):
        if not any(_matches(item.get("title"), p) for p in patterns.values()):
            return False, f"the reminder {item.get('title')!r} ({where}) is none of {sorted(patterns)}"
    return True, f"only reminders for {sorted(patterns)} were added or changed"


def check_strip_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-bathroom-strip-out',
        lst='Home',
        keep_open=['r-bathroom-fitting', 'r-bathroom-painting'],
    )


def check_plumbing_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-bathroom-plumbing',
        lst='Home',
        keep_open=['r-bathroom-fitting', 'r-bathroom-painting'],
    )


def check_screed_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='screed',
        lst='Home',
        due='2026-03-10',
        label='screed',
        stale='r-bathroom-screed',
    )


def check_tiles_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\btil(?:e|ing)',
        lst='Home',
        due='2026-03-16',
        label='tiling',
        stale='r-bathroom-tiling',
    )


def check_choice_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\btaps?\\b',
        lst='Home',
        due='2026-03-11',
        label='choose the basin taps',
    )


def check_only_these(initial, final, trace):
    return only_reminders(
        initial,
        final,
        patterns={'strip-out': 'strip',
 'plumbing': 'plumb',
 'screed': 'screed',
 'tiling': '\\btil(?:e|ing)',
 'choose the basin taps': '\\btaps?\\b'},
    )
