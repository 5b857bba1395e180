"""Checks for project-tracker-1: strip-out and electrics done, plastering to 2026-03-03, painting to 2026-03-06, worktop to 2026-03-18 (job sheet); choose the cabinet handles by 2026-02-26 (the reminder exists), choose the grout colour by 2026-03-03."""

from __future__ import annotations

import re
from datetime import datetime


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_HISTORY = re.compile(
    r"[(\[]\s*(?:was|previously|originally|formerly|moved from|instead of|not|old(?: date)?)\b[^)\]]*[)\]]|~~[^~]+~~"
    r"|\b(?:(?:moved|changed|rescheduled|brought forward|pushed back|shifted|switched)\s+from|instead of|rather than)"
    r"\s[^,;\n]*?(?=\s+to\b|[,;\n]|\.(?:\s|$)|$)",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_RANGE = re.compile(r"^\s*(?:-|–|—|to|until|till|through|and|至|到|~)\s*$", re.IGNORECASE)
_CLOCK = re.compile(
    r"(?<![\d:.])(\d{1,2})(?:[:h](\d{2}))(?!\d)(?:\s*([ap])\.?m\.?)?"
    r"|(?<![\d:.])(\d{1,2})(?:[.:](\d{2}))?\s*([ap])\.?m\b\.?"
    r"|(上午|早上|凌晨|中午|下午|傍晚|晚上)\s*(\d{1,2})\s*[点時时]\s*(半|\d{1,2}\s*分)?",
    re.IGNORECASE,
)
_DATED = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\b\d{1,2}\s+[A-Za-z]{3,}\.?,?\s+\d{4}|[A-Za-z]{3,}\.?\s+\d{1,2},?\s+\d{4}"
)
_WRITTEN_DAY = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?[^\S\n]+(?:{'|'.join(_MONTHS)})[a-z]*\.?,?[^\S\n]+\d{{4}}"
    rf"|\b(?:{'|'.join(_MONTHS)})[a-z]*\.?[^\S\n]+\d{{1,2}}(?:st|nd|rd|th)?,?[^\S\n]+\d{{4}}",
    re.IGNORECASE,
)
_CALLED_OFF = re.compile(
    r"[^,;.()\n]*\b(?:cancell?ed|released|dropped|called off|no longer (?:needed|booked|held))\b[^,;.()\n]*",
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


def _dates(text: str) -> set[tuple[int, int]]:
    """(month, day) of every calendar date written out in `text`: 12 March, March 12th, 3月12日,
    2026-03-12, and both ends of 12 to 14 March. A date does not run across lines."""
    months = "|".join(_MONTHS)
    found = set()
    span = (
        rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?[^\S\n]*(?:-|–|—|to|until|till)[^\S\n]*(?:[a-z]{{3,9}}\.?[^\S\n]+)?"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\.?[^\S\n]+({months})"
    )
    for m in re.finditer(span, text, re.I):
        found.add((_MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\.?[^\S\n]+(?:of[^\S\n]+)?({months})[a-z]*", text, re.I):
        found.add((_MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(rf"\b({months})[a-z]*\.?[^\S\n]+(\d{{1,2}})(?![\d:.]|h\d|[^\S\n]*[ap]\.?m)", text, re.I):
        found.add((_MONTHS.index(m.group(1).lower()) + 1, int(m.group(2))))
    for m in re.finditer(r"(?<!\d)(\d{1,2})月(\d{1,2})[日号]", text):
        found.add((int(m.group(1)), int(m.group(2))))
    for m in re.finditer(r"(?<![\d-])\d{4}-(\d{2})-(\d{2})(?!\d)", text):
        found.add((int(m.group(1)), int(m.group(2))))
    return found


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def _clock_times(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "HH:MM") of every time of day in `text`: 14:30, 14h30, 2:30pm, 2 p.m., 下午2点半.

    In a range whose am or pm is written once, at its end ("2:30-3:15pm", "11:30 to 12:30pm"), the start
    takes the end's half of the day when that keeps it before the end, else the other one."""
    found: list[tuple[int, int, int, int, str]] = []  # start, end, hour, minute, half ("a", "p" or "")
    for m in _CLOCK.finditer(text):
        if m.group(7):  # Chinese: the part of the day says am or pm
            hour, rest = int(m.group(8)), m.group(9) or ""
            minute = 30 if rest == "半" else int(re.sub(r"\D", "", rest) or 0)
            hour += 12 if m.group(7) in ("下午", "傍晚", "晚上") and hour < 12 else 0
            half = ""
        else:
            hour = int(m.group(1) or m.group(4))
            minute = int(m.group(2) or m.group(5) or 0)
            half = (m.group(3) or m.group(6) or "").lower()
        found.append((m.start(), m.end(), hour, minute, half))
    out = []
    for n, (start, end, hour, minute, half) in enumerate(found):
        if not half and hour <= 12 and n + 1 < len(found):
            after = found[n + 1]
            if after[4] and _RANGE.match(text[end : after[0]]):
                ends_at = after[2] % 12 + (12 if after[4] == "p" else 0)
                guess = hour % 12 + (12 if after[4] == "p" else 0)
                half = after[4] if (guess, minute) <= (ends_at, after[3]) else ("a" if after[4] == "p" else "p")
        hour = hour % 12 + (12 if half == "p" else 0) if half else hour
        if hour < 24 and minute < 60:
            out.append((start, end, f"{hour:02d}:{minute:02d}"))
    return out


def numbers_in(text: str) -> list[int]:
    """The whole numbers `text` writes (a house number, a postcode), as often as it writes them; not the digits
    of a decimal, a time or a word like 3rd."""
    return [int(n) for n in re.findall(r"(?<![\w.,])\d+(?![\w]|[.,]\d)", text)]


def _amount(text: Any) -> float | None:
    """A money amount written as 1234.5, 1,234.50, 1.234,50 or 1 234,50 (any currency sign around it)."""
    cleaned = re.sub(r"[^\d.,-]", "", str(text or ""))
    if not re.search(r"\d", cleaned):
        return None
    last = max(cleaned.rfind("."), cleaned.rfind(","))
    if last != -1 and len(cleaned) - last - 1 in (1, 2):
        whole, cents = re.sub(r"\D", "", cleaned[:last]) or "0", cleaned[last + 1 :]
        value = float(f"{whole}.{cents}")
    else:
        value = float(re.sub(r"\D", "", cleaned))
    return -value if cleaned.startswith("-") else value


def _stray(text: str, stated: dict[str, Any] | None) -> list[str]:
    """The values `text` gives that `stated` does not list, for each kind it lists: `dates` (ISO days;
    any written form counts), `years`, `addresses`, `amounts` (money, written with cents), `total` (the
    amount next to the word "total"), `numbers` (whole numbers: a house number, a postcode), `counts`
    (noun pattern -> the number it must come with: {"receipts?": 5}), `refs` (reference pattern -> the
    references it may be) and `times` ("HH:MM": the times of day it may give)."""
    if not stated:
        return []
    wrong = []
    if "dates" in stated:  # a date kept as history ("(was 14-16 October)") is no claim
        allowed = {(int(d[5:7]), int(d[8:10])) for d in stated["dates"]}
        wrong += [f"the date {m:02d}-{d:02d} (month-day)" for m, d in sorted(_dates(_HISTORY.sub("", text)) - allowed)]
    if "years" in stated:
        # the year of a written-out day ("the corrected statement of February 12 2026") dates that day: it is
        # no claim about the year the message is about
        bare = _WRITTEN_DAY.sub(" ", text)
        years = re.findall(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])", bare)
        wrong += [f"the year {y}" for y in dict.fromkeys(years) if int(y) not in stated["years"]]
    if "addresses" in stated:
        found = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)
        wrong += [f"the address {a}" for a in dict.fromkeys(found) if a.lower() not in stated["addresses"]]
    if "amounts" in stated:
        allowed_amounts = {round(a, 2) for a in stated["amounts"]}
        found = re.findall(r"(?<![\w.,])\d{1,3}(?:[,.' \u00a0]\d{3})*[.,]\d{2}(?![\d]|[.,]\d)", text)
        wrong += [f"the amount {a}" for a in dict.fromkeys(found) if round(_amount(a) or 0, 2) not in allowed_amounts]
    if "total" in stated:
        figure = r"(\d{1,3}(?:[,.' \u00a0]\d{3})*(?:[.,]\d{2})?)(?![\d]|[.,]\d)"
        near = rf"\btotal\b[^\d\n]{{0,12}}{figure}|{figure}[^\d\n]{{0,6}}\b(?:in\s+)?total\b"
        for m in re.finditer(near, text, re.IGNORECASE):
            given = m.group(1) or m.group(2)
            if round(_amount(given) or 0, 2) != round(stated["total"], 2):
                wrong.append(f"the total {given}")
    if "numbers" in stated:  # each as often as listed: "141, 141 Feet Road" is not "141, 80 Feet Road"
        found = numbers_in(text)
        wrong += [f"the number {n}" for n in sorted(set(found)) if found.count(n) > stated["numbers"].count(n)]
    for noun, count in (stated.get("counts") or {}).items():
        # the number and its noun on one line: a subject ending in a year above "Receipts ..." is no count
        for m in re.finditer(rf"(?<![\d.,])(\d+)[ \t]+(?:{noun})\b", text, re.IGNORECASE):
            if int(m.group(1)) != count:
                wrong.append(f"{m.group(0)!r} (there are {count})")
    for shape, refs in (stated.get("refs") or {}).items():
        wrong += [f"the reference {r}" for r in dict.fromkeys(re.findall(shape, text)) if r not in refs]
    if "codes" in stated:  # any contract or account number (HX/1688/19506 too): five or more characters with a
        # digit, not a date
        found = re.findall(r"(?<![\w/-])(?=[\w/-]*\d)[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*(?![\w/-])", text)
        codes = [c for c in found if len(c) >= 5 and not _DATED.fullmatch(c)]
        wrong += [f"the number {c}" for c in dict.fromkeys(codes) if c not in stated["codes"]]
    if "times" in stated:
        wrong += [
            f"the time {c}" for c in dict.fromkeys(c for _, _, c in _clock_times(text)) if c not in stated["times"]
        ]
    for label, said in (stated.get("dated") or {}).items():
        # a line naming the item gives its own date; one it keeps as history ("(was 2 May)"), or that shows in
        # brackets how the date came about, is no claim when the line gives a right date outside them
        allowed = {(int(d[5:7]), int(d[8:10])) for d in said["dates"]}
        for line in text.splitlines():
            if _matches(line, said["pattern"]):
                claim = _ASIDE.sub("", _HISTORY.sub("", line))
                given = _dates(claim if _dates(claim) & allowed else _HISTORY.sub("", line)) - allowed
                wrong += [f"the date {m:02d}-{d:02d} (month-day) for {label}" for m, d in sorted(given)]
    return wrong


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
    at: str | None = None,
    stated: dict[str, Any] | None = None,
    dated: bool = False,
    tick_ok: bool = False,
) -> Verdict:
    """Exactly one open reminder about `label` (new, or the `stale` one updated), in `lst`, due `due` (one of
    them, when a phrase allows several days: "by the end of next week" is Friday, or the weekend);
    its title or notes match `says` (an amount, say) when given. For a due day, `at` ("09:00") is the
    time of day it must have if it has one. Its title and notes give no value of a kind `stated` lists but
    the listed ones (a deadline written into the title must be the deadline). With `dated`, a date the
    title or notes write out ("Choose the taps (by 2026-03-11)") must be the day it is due. Ticking the
    `stale` one off says it is done, which fails; with `tick_ok` (what it asks for was done, in part, and
    the rest is the open reminder), ticked off beside the open one is as good as deleted and made again."""
    ticked = None
    if stale is not None:
        _, old = _find(final, "reminders", stale)
        if old is not None and old.get("completed"):
            ticked = f"the old reminder {old.get('title')!r} was ticked off, but the {label} is not done"
            if not tick_ok:
                return False, ticked
    candidates = {item.get("uid"): (name, item) for name, item in _touched(initial, final, "reminders")}
    pool = [pair for uid, pair in candidates.items() if stale is None or uid != stale]
    if stale is not None:  # every copy of it: one moved to another list may also be left where it was
        pool += [(name, item) for name, item in _grouped(final, "reminders") if item.get("uid") == stale]
    found = [
        (name, item)
        for name, item in pool
        if not item.get("completed")
        and _matches(item.get("title"), pattern)
        and not (exclude and _matches(item.get("title"), exclude))
    ]
    if not found:
        return False, ticked or f"no open reminder for the {label}"
    if len(found) > 1:
        shown = sorted(f"{item.get('title')!r} due {item.get('due')}" for _, item in found)
        return False, f"{len(found)} open reminders for the {label}: {shown}; expected one"
    where, item = found[0]
    if where != lst:
        return False, f"the {label} reminder is in the list {where!r}, not in {lst!r}"
    if not any(_on_time(item.get("due"), d) for d in ([due] if isinstance(due, str) else due)):
        return False, f"the {label} reminder is due {item.get('due')}; expected {due}"
    if at is not None and len(item.get("due") or "") > 10 and item["due"][11:16] != at:
        return False, f"the {label} reminder is due at {item['due'][11:16]}; expected {at} (or no time)"
    text = f"{item.get('title') or ''}\n{item.get('notes') or ''}"
    if not _matches(text, says):
        return False, f"the {label} reminder {item.get('title')!r} does not give the right amount"
    stray = _stray(text, stated)
    if stray:
        return False, f"the {label} reminder {item.get('title')!r} gives {'; '.join(stray)}, which is wrong"
    days = {(int(d[5:7]), int(d[8:10])) for d in ([due] if isinstance(due, str) else due)}
    if dated and not _dates(text) <= days:
        return False, f"the {label} reminder {item.get('title')!r} writes a date other than the day it is due"
    return True, f"one open {label} reminder in {lst}, due {due}"


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def the_event(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    calendar: str,
    pattern: str,
    start: str,
    end: str,
    label: str,
    exclude: str | None = None,
    location: str | None = None,
) -> Verdict:
    """Exactly one event of every calendar is about `pattern` (not `exclude`), new or one that was there
    already (kept, or changed into it); it is in `calendar` and runs from `start` to `end`, and with
    `location`, its location matches it (a meeting moved to another office)."""
    found = [
        (where, e)
        for where, e in _grouped(final, "calendar")
        if _matches(_label(e), pattern) and not (exclude and _matches(_label(e), exclude))
    ]
    if not found:
        return False, f"no event for {label}"
    if len(found) > 1:
        shown = sorted(f"{_label(e)!r} {e.get('start')}" for _, e in found)
        return False, f"{len(found)} events for {label}: {shown}; expected one"
    where, event = found[0]
    if where != calendar:
        return False, f"{_label(event)!r} is in the calendar {where!r}, not in {calendar!r}"
    if not _on_time(event.get("start"), start) or not _on_time(event.get("end"), end):
        return False, f"{_label(event)!r} runs {event.get('start')} to {event.get('end')}; expected {start} to {end}"
    if location is not None and not _matches(event.get("location"), location):
        return False, f"{_label(event)!r} is at {event.get('location')!r}, not at the new place"
    return True, f"{label} is in {calendar}, {start} to {end}"


def only_reminders(
    initial: dict[str, Any], final: dict[str, Any], *, patterns: dict[str, str], closed: list[str] | None = None
) -> Verdict:
    """Every reminder added or changed is one of those asked for (labels -> title patterns); one of `closed`
    (uids the job retires) may be ticked off instead."""
    for where, item in _touched(initial, final, "reminders"):
        if item.get("uid") in (closed or []) and item.get("completed"):
            continue
        if not any(_matches(item.get("title"), p) for p in patterns.values()):
            return False, f"the reminder {item.get('title')!r} ({where}) is none of {sorted(patterns)}"
    return True, f"only reminders for {sorted(patterns)} were added or changed"


def only_events(initial: dict[str, Any], final: dict[str, Any], *, patterns: dict[str, str]) -> Verdict:
    """Every event added or changed is one of those asked for (labels -> title patterns)."""
    for where, item in _touched(initial, final, "calendar"):
        if not any(_matches(_label(item), p) for p in patterns.values()):
            return False, f"the event {_label(item)!r} ({where}) is none of {sorted(patterns)}"
    return True, f"only events for {sorted(patterns)} were added or changed"


def _ticked(line: str) -> bool:
    """A checklist line is ticked by its box (`[x]`); one without a box by a mark, a strike or a word."""
    box = _BOX.search(line)
    return box.group(1) != " " if box else _matches(line, _TICK)


def checklist(final: dict[str, Any], *, uid: str, folder: str, label: str, entries: list[dict[str, Any]]) -> Verdict:
    """The note `uid`, still in `folder`, has exactly one line per entry ({label, pattern, done?, says?, not_says?,
    was?}): ticked off when `done` is true, open when false, matching `says` and not `not_says` when given. A
    date the line keeps as history ("Fri 6 Mar (was Mon 2 Mar)", a struck-out "~~Mon 2 Mar~~") is not a date
    it gives, so `not_says` looks past it; when the entry lists the days that may be kept as history (`was`,
    ISO days), a history date must be one of them.

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
        # what a line says in brackets, or in a clause of its own that calls it off, beside the right value is
        # history too: "Juniper ... 17:30 (Beacon placeholder cancelled)", "Beacon ... 17:30; Harbour cancelled"
        bare = _HISTORY.sub("", line)
        outside = _CALLED_OFF.sub("", _ASIDE.sub("", bare))
        claim = outside if entry.get("says") and _matches(outside, entry["says"]) else bare
        if entry.get("not_says") and _matches(claim, entry["not_says"]):
            return False, f"{label}: {line!r} still gives what no longer holds for {entry['label']}"
        kept = _dates(" ".join(m.group(0) for m in _HISTORY.finditer(line)))
        if "was" in entry and not kept <= {(int(d[5:7]), int(d[8:10])) for d in entry["was"]}:
            return False, f"{label}: {line!r} keeps a date {entry['label']} never had"
    return True, f"{label} agrees on {sorted(claimed)}"


def check_strip_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-kitchen-strip-out',
        lst='Home',
        keep_open=['r-kitchen-units', 'r-kitchen-tiling', 'r-kitchen-plumbing'],
    )


def check_electrics_done(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-kitchen-electrics',
        lst='Home',
        keep_open=['r-kitchen-units', 'r-kitchen-tiling', 'r-kitchen-plumbing'],
    )


def check_plaster_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='plaster',
        lst='Home',
        due='2026-03-03',
        label='plastering',
        stale='r-kitchen-plastering',
        dated=True,
    )


def check_plaster_day(initial, final, trace):
    return the_event(
        initial,
        final,
        calendar='Personal',
        pattern='plaster',
        start='2026-03-03T08:30:00+08:00',
        end='2026-03-03T16:30:00+08:00',
        label='the plastering day',
    )


def check_paint_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='paint',
        lst='Home',
        due='2026-03-06',
        label='painting',
        stale='r-kitchen-painting',
        dated=True,
    )


def check_paint_day(initial, final, trace):
    return the_event(
        initial,
        final,
        calendar='Personal',
        pattern='paint',
        start='2026-03-06T08:30:00+08:00',
        end='2026-03-06T16:30:00+08:00',
        label='the painting day',
    )


def check_worktop_moved(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='worktop',
        lst='Home',
        due='2026-03-18',
        label='worktop',
        stale='r-kitchen-worktop',
        dated=True,
    )


def check_worktop_day(initial, final, trace):
    return the_event(
        initial,
        final,
        calendar='Personal',
        pattern='worktop',
        start='2026-03-18T08:30:00+08:00',
        end='2026-03-18T15:30:00+08:00',
        label='the worktop day',
    )


def check_choice_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='handle',
        lst='Home',
        due='2026-02-26',
        label='choose the cabinet handles',
        stale='r-kitchen-cabinet-handles',
        dated=True,
    )


def check_choice2_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='grout',
        lst='Home',
        due='2026-03-03',
        label='choose the grout colour',
        dated=True,
    )


def check_only_these(initial, final, trace):
    return only_reminders(
        initial,
        final,
        patterns={'strip-out': 'strip',
 'electrics': 'electric',
 'plastering': 'plaster',
 'painting': 'paint',
 'worktop': 'worktop',
 'choose the cabinet handles': 'handle',
 'choose the grout colour': 'grout'},
    )


def check_only_these_days(initial, final, trace):
    return only_events(
        initial,
        final,
        patterns={'plastering': 'plaster', 'painting': 'paint', 'worktop': 'worktop'},
    )


def check_note_ticked(initial, final, trace):
    return checklist(
        final,
        uid='n-kitchen-renovation-plan',
        folder='Notes',
        label='Kitchen renovation – plan',
        entries=[{'label': 'choose the cabinet handles', 'pattern': 'handle', 'done': False},
 {'label': 'choose the grout colour', 'pattern': 'grout', 'done': False},
 {'label': 'plumbing', 'pattern': 'plumb', 'done': False},
 {'label': 'tiling', 'pattern': '\\btil(?:e|ing)', 'done': False},
 {'label': 'worktop', 'pattern': 'worktop', 'done': False},
 {'label': 'units', 'pattern': '\\bunits?\\b', 'done': False},
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
  'says': '(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)|2026-02-26|(?<![\\d/.])26[./]2(?![\\d])|(?<![\\d/.])0?26[./]0?2[./]|2月26[日号]'},
 {'label': 'choose the grout colour',
  'pattern': 'grout',
  'says': '(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)|2026-03-03|(?<![\\d/.])3[./]3(?![\\d])|(?<![\\d/.])0?3[./]0?3[./]|3月3[日号]'},
 {'label': 'plumbing',
  'pattern': 'plumb',
  'says': '(?<!\\d)0?24(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?24(?:st|nd|rd|th)?(?!\\d)|2026-03-24|(?<![\\d/.])24[./]3(?![\\d])|(?<![\\d/.])0?24[./]0?3[./]|3月24[日号]'},
 {'label': 'tiling',
  'pattern': '\\btil(?:e|ing)',
  'says': '(?<!\\d)0?19(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?19(?:st|nd|rd|th)?(?!\\d)|2026-03-19|(?<![\\d/.])19[./]3(?![\\d])|(?<![\\d/.])0?19[./]0?3[./]|3月19[日号]'},
 {'label': 'worktop',
  'pattern': 'worktop',
  'says': '(?<!\\d)0?18(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?18(?:st|nd|rd|th)?(?!\\d)|2026-03-18|(?<![\\d/.])18[./]3(?![\\d])|(?<![\\d/.])0?18[./]0?3[./]|3月18[日号]',
  'not_says': '(?<!\\d)0?16(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?16(?:st|nd|rd|th)?(?!\\d)|2026-03-16|(?<![\\d/.])16[./]3(?![\\d])|(?<![\\d/.])0?16[./]0?3[./]|3月16[日号]',
  'was': ['2026-03-16']},
 {'label': 'units',
  'pattern': '\\bunits?\\b',
  'says': '(?<!\\d)0?11(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?11(?:st|nd|rd|th)?(?!\\d)|2026-03-11|(?<![\\d/.])11[./]3(?![\\d])|(?<![\\d/.])0?11[./]0?3[./]|3月11[日号]'},
 {'label': 'painting',
  'pattern': 'paint',
  'says': '(?<!\\d)0?6(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?6(?:st|nd|rd|th)?(?!\\d)|2026-03-06|(?<![\\d/.])6[./]3(?![\\d])|(?<![\\d/.])0?6[./]0?3[./]|3月6[日号]',
  'not_says': '(?<!\\d)0?2(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?2(?:st|nd|rd|th)?(?!\\d)|2026-03-02|(?<![\\d/.])2[./]3(?![\\d])|(?<![\\d/.])0?2[./]0?3[./]|3月2[日号]',
  'was': ['2026-03-02']},
 {'label': 'plastering',
  'pattern': 'plaster',
  'says': '(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)|2026-03-03|(?<![\\d/.])3[./]3(?![\\d])|(?<![\\d/.])0?3[./]0?3[./]|3月3[日号]',
  'not_says': '(?<!\\d)0?25(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?25(?:st|nd|rd|th)?(?!\\d)|2026-02-25|(?<![\\d/.])25[./]2(?![\\d])|(?<![\\d/.])0?25[./]0?2[./]|2月25[日号]|(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)|2026-02-26|(?<![\\d/.])26[./]2(?![\\d])|(?<![\\d/.])0?26[./]0?2[./]|2月26[日号]',
  'was': ['2026-02-25']},
 {'label': 'electrics',
  'pattern': 'electric',
  'says': '(?<!\\d)0?20(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?20(?:st|nd|rd|th)?(?!\\d)|2026-02-20|(?<![\\d/.])20[./]2(?![\\d])|(?<![\\d/.])0?20[./]0?2[./]|2月20[日号]'},
 {'label': 'strip-out',
  'pattern': 'strip',
  'says': '(?<!\\d)0?18(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?18(?:st|nd|rd|th)?(?!\\d)|2026-02-18|(?<![\\d/.])18[./]2(?![\\d])|(?<![\\d/.])0?18[./]0?2[./]|2月18[日号]'},
 {'label': 'order the appliances',
  'pattern': 'Order\\ the\\ appliances',
  'says': '(?<!\\d)0?5(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Feb\\w*|Feb\\w*\\.?\\s+(?<!\\d)0?5(?:st|nd|rd|th)?(?!\\d)|2026-02-05|(?<![\\d/.])5[./]2(?![\\d])|(?<![\\d/.])0?5[./]0?2[./]|2月5[日号]'}],
    )
