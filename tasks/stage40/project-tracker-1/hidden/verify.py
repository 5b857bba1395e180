"""Checks for project-tracker-1: strip-out and electrics done, plastering to 2026-02-27, painting to 2026-03-04, new: choose the cabinet handles by 2026-02-27."""

from __future__ import annotations

import re
from datetime import datetime


_HISTORY = re.compile(
    r"[(\[]\s*(?:was|previously|originally|formerly|moved from|instead of|not|old(?: date)?)\b[^)\]]*[)\]]|~~[^~]+~~",
    re.IGNORECASE,
)
_TICK = r"✅|☑|✔|✓|~~|\b(?:done|finished|completed?)\b"
_BOX = re.compile(r"\[([ xX✓✔])\]")


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


def _ticked(line: str) -> bool:
    """A checklist line is ticked by its box (`[x]`); one without a box by a mark, a strike or a word."""
    box = _BOX.search(line)
    return box.group(1) != " " if box else _matches(line, _TICK)


def checklist(final: dict[str, Any], *, uid: str, folder: str, label: str, entries: list[dict[str, Any]]) -> Verdict:
    """The note `uid`, still in `folder`, has exactly one line per entry ({label, pattern, done?, says?, not_says?}):
    ticked off when `done` is true, open when false, matching `says` and not `not_says` when given. A date
    the line keeps as history ("Fri 6 Mar (was Mon 2 Mar)", a struck-out "~~Mon 2 Mar~~") is not a date it
    gives, so `not_says` looks past it.

    A line counts for the first entry whose pattern it matches, so an entry listed earlier claims a
    line that mentions a later one ("paint once the plaster is dry" is the painting line)."""
    where, note = _find(final, "notes", uid)
    if note is None:
        return False, f"the note {label} ({uid}) is gone"
    if where != folder:
        return False, f"the note {label} is in the folder {where!r}, not in {folder!r}"
    claimed: dict[str, list[str]] = {e["label"]: [] for e in entries}
    for line in (note.get("body") or "").splitlines():
        entry = next((e for e in entries if _matches(line, e["pattern"])), None)
        if entry is not None:
            claimed[entry["label"]].append(line.strip())
    for entry in entries:
        lines = claimed[entry["label"]]
        if len(lines) != 1:
            return False, f"{label} has {len(lines)} lines for {entry['label']}; expected one"
        line, done = lines[0], entry.get("done")
        if done is not None and _ticked(line) != done:
            state = "still open; that job is done" if done else "ticked off; that job is not done"
            return False, f"{label}: {line!r} is {state}"
        if entry.get("says") and not _matches(_HISTORY.sub("", line), entry["says"]):
            return False, f"{label}: {line!r} does not give the right date for {entry['label']}"
        if entry.get("not_says") and _matches(_HISTORY.sub("", line), entry["not_says"]):
            return False, f"{label}: {line!r} still gives a date that no longer holds for {entry['label']}"
    return True, f"{label} agrees on {sorted(claimed)}"


def check_strip_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-kitchen-strip-out',
        lst='Home',
        keep_open=['r-kitchen-fitting', 'r-kitchen-tiling'],
    )


def check_electrics_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-kitchen-electrics',
        lst='Home',
        keep_open=['r-kitchen-fitting', 'r-kitchen-tiling'],
    )


def check_plaster_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='plaster',
        lst='Home',
        due='2026-02-27',
        label='plastering',
        stale='r-kitchen-plastering',
    )


def check_paint_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='paint',
        lst='Home',
        due='2026-03-04',
        label='painting',
        stale='r-kitchen-painting',
    )


def check_choice_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='handle',
        lst='Home',
        due='2026-02-27',
        label='choose the cabinet handles',
    )


def check_only_these(initial, final, trace):
    return only_reminders(
        initial,
        final,
        patterns={'strip-out': 'strip',
 'electrics': 'electric',
 'plastering': 'plaster',
 'painting': 'paint',
 'choose the cabinet handles': 'handle'},
    )


def check_note_ticked(initial, final, trace):
    return checklist(
        final,
        uid='n-kitchen-renovation-plan',
        folder='Notes',
        label='Kitchen renovation – plan',
        entries=[{'label': 'choose the cabinet handles', 'pattern': 'handle', 'done': False},
 {'label': 'tiling', 'pattern': '\\btil(?:e|ing)', 'done': False},
 {'label': 'fitting', 'pattern': '\\bunits?\\b|worktop', 'done': False},
 {'label': 'painting', 'pattern': 'paint', 'done': False},
 {'label': 'plastering', 'pattern': 'plaster', 'done': False},
 {'label': 'electrics', 'pattern': 'electric', 'done': True},
 {'label': 'strip-out', 'pattern': 'strip', 'done': True},
 {'label': 'order the appliances', 'pattern': 'Order\\ the\\ appliances', 'done': True}],
    )


def check_note_dates(initial, final, trace):
    return checklist(
        final,
        uid='n-kitchen-renovation-plan',
        folder='Notes',
        label='Kitchen renovation – plan',
        entries=[{'label': 'choose the cabinet handles',
  'pattern': 'handle',
  'says': '(?<!\\d)27(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)27(?:st|nd|rd|th)?(?!\\d)|2026-02-27|(?<![\\d/.])27[./]2(?![\\d])|(?<![\\d/.])0?27[./]0?2[./]|2月27[日号]'},
 {'label': 'tiling',
  'pattern': '\\btil(?:e|ing)',
  'says': '(?<!\\d)11(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)11(?:st|nd|rd|th)?(?!\\d)|2026-03-11|(?<![\\d/.])11[./]3(?![\\d])|(?<![\\d/.])0?11[./]0?3[./]|3月11[日号]'},
 {'label': 'fitting',
  'pattern': '\\bunits?\\b|worktop',
  'says': '(?<!\\d)6(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)6(?:st|nd|rd|th)?(?!\\d)|2026-03-06|(?<![\\d/.])6[./]3(?![\\d])|(?<![\\d/.])0?6[./]0?3[./]|3月6[日号]'},
 {'label': 'painting',
  'pattern': 'paint',
  'says': '(?<!\\d)4(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)4(?:st|nd|rd|th)?(?!\\d)|2026-03-04|(?<![\\d/.])4[./]3(?![\\d])|(?<![\\d/.])0?4[./]0?3[./]|3月4[日号]',
  'not_says': '(?<!\\d)2(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)2(?:st|nd|rd|th)?(?!\\d)|2026-03-02|(?<![\\d/.])2[./]3(?![\\d])|(?<![\\d/.])0?2[./]0?3[./]|3月2[日号]'},
 {'label': 'plastering',
  'pattern': 'plaster',
  'says': '(?<!\\d)27(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)27(?:st|nd|rd|th)?(?!\\d)|2026-02-27|(?<![\\d/.])27[./]2(?![\\d])|(?<![\\d/.])0?27[./]0?2[./]|2月27[日号]',
  'not_says': '(?<!\\d)25(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)25(?:st|nd|rd|th)?(?!\\d)|2026-02-25|(?<![\\d/.])25[./]2(?![\\d])|(?<![\\d/.])0?25[./]0?2[./]|2月25[日号]|(?<!\\d)4(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)4(?:st|nd|rd|th)?(?!\\d)|2026-03-04|(?<![\\d/.])4[./]3(?![\\d])|(?<![\\d/.])0?4[./]0?3[./]|3月4[日号]'},
 {'label': 'electrics',
  'pattern': 'electric',
  'says': '(?<!\\d)20(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)20(?:st|nd|rd|th)?(?!\\d)|2026-02-20|(?<![\\d/.])20[./]2(?![\\d])|(?<![\\d/.])0?20[./]0?2[./]|2月20[日号]'},
 {'label': 'strip-out',
  'pattern': 'strip',
  'says': '(?<!\\d)18(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)18(?:st|nd|rd|th)?(?!\\d)|2026-02-18|(?<![\\d/.])18[./]2(?![\\d])|(?<![\\d/.])0?18[./]0?2[./]|2月18[日号]'},
 {'label': 'order the appliances',
  'pattern': 'Order\\ the\\ appliances',
  'says': '(?<!\\d)8(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)8(?:st|nd|rd|th)?(?!\\d)|2026-02-08|(?<![\\d/.])8[./]2(?![\\d])|(?<![\\d/.])0?8[./]0?2[./]|2月8[日号]'}],
    )
