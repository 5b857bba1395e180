"""Checks for invoice-filing-1: 7 invoices to Finance/Invoices/2025/ and Finance/Invoices/2026/, indexes, reminders."""

from __future__ import annotations

import csv
import io
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


def file_at(final: dict[str, Any], *, path: str, sha256: str, label: str) -> Verdict:
    """`path` exists and holds exactly the document `label` (by its SHA-256)."""
    stored = (final.get("files") or {}).get(path)
    if stored is None:
        return False, f"there is no file {path} (for {label})"
    if stored.get("sha256") != sha256:
        return False, f"{path} is not {label} (its content differs)"
    return True, f"{label} is filed as {path}"


def files_in(final: dict[str, Any], *, folder: str, expected: dict[str, str], extra: list[str]) -> Verdict:
    """`folder` holds exactly the `expected` files (path -> sha256), plus any of the `extra` paths."""
    files = final.get("files") or {}
    for path, sha in expected.items():
        stored = files.get(path)
        if stored is None:
            return False, f"there is no file {path}"
        if stored.get("sha256") != sha:
            return False, f"{path} is not the right document (its content differs)"
    others = sorted(p for p in files if p.startswith(folder + "/") and p not in expected and p not in extra)
    if others:
        return False, f"{folder} also holds {others}"
    return True, f"{folder} holds the {len(expected)} expected files"


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


def csv_rows(
    final: dict[str, Any],
    *,
    path: str,
    date_column: str,
    amount_column: str,
    rows: list[list[Any]],
    total: float,
    ref_column: str | None = None,
) -> Verdict:
    """`path` is a CSV whose rows are exactly `rows` ([date, amount], or [date, amount, reference] with
    `ref_column`) plus an optional total row. A row's date may be a list of the days that are all right
    for it (a hotel stay: check-in or check-out)."""
    stored = (final.get("files") or {}).get(path)
    if not stored or stored.get("text") is None:
        return False, f"there is no text file {path}"
    try:
        table = list(csv.DictReader(io.StringIO(stored["text"])))
    except csv.Error as exc:
        return False, f"{path} is not a CSV file: {exc}"
    needed = [c for c in (date_column, amount_column, ref_column) if c]
    if not table or any(c not in table[0] for c in needed):
        return False, f"{path} needs the columns {needed}"
    found, totals = [], []
    for row in table:
        day, amount = (row.get(date_column) or "").strip(), _amount(row.get(amount_column))
        if amount is None:
            continue
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            found.append([day, round(amount, 2), *([(row.get(ref_column) or "").strip()] if ref_column else [])])
        elif not day or re.search(r"total|sum|gesamt|合计|总计", " ".join(map(str, row.values())), re.IGNORECASE):
            totals.append(round(amount, 2))
        else:
            return False, f"{path}: the date {day!r} is not written as YYYY-MM-DD"
    lacking = [[[d] if isinstance(d, str) else list(d), round(float(a), 2), *rest] for d, a, *rest in rows]
    extra = []
    for day, amount, *rest in sorted(found):
        match = next((e for e in lacking if e[1:] == [amount, *rest] and day in e[0]), None)
        if match is None:
            extra.append([day, amount, *rest])
        else:
            lacking.remove(match)
    if extra or lacking:
        shown = [[d[0] if len(d) == 1 else d, *rest] for d, *rest in lacking]
        return False, f"{path} rows differ: not expected {extra}, missing {shown}"
    if any(t != round(total, 2) for t in totals):
        return False, f"{path} gives the total {totals}; expected {total:.2f}"
    return True, f"{path} lists the {len(rows)} expected rows"


def files_gone(final: dict[str, Any], *, paths: list[str]) -> Verdict:
    """None of `paths` is left (moved away or deleted)."""
    left = sorted(p for p in paths if p in (final.get("files") or {}))
    if left:
        return False, f"still there: {left}"
    return True, f"all {len(paths)} are gone from where they were"


def files_kept(initial: dict[str, Any], final: dict[str, Any], *, paths: list[str], label: str) -> Verdict:
    """Each file of `paths` is still there, unchanged."""
    before, after = initial.get("files") or {}, final.get("files") or {}
    for path in paths:
        if path not in after:
            return False, f"{path} was deleted or moved: {label}"
        if (after[path] or {}).get("sha256") != (before.get(path) or {}).get("sha256"):
            return False, f"{path} was changed: {label}"
    return True, f"the {len(paths)} files are kept as they were"


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


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _touched(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` that are new or differ from their initial version."""
    old = {item.get("uid"): (name, item) for name, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if old.get(item.get("uid")) != (name, item)]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


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


def _fresh(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` in `final` whose uid `initial` does not have."""
    old = {item.get("uid") for _, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if item.get("uid") not in old]


def no_new_items(initial: dict[str, Any], final: dict[str, Any], *, app: str, pattern: str, label: str) -> Verdict:
    """No item of `app` matching `pattern` was created: the existing one was changed instead."""
    copies = [_label(item) for _, item in _fresh(initial, final, app) if _matches(_label(item), pattern)]
    if copies:
        return False, f"new {app} items {copies} duplicate {label}; the existing one should change instead"
    return True, f"{label} was changed in place, not copied"


def check_filed_copperleaf_health(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-12 Copperleaf Health INV-2026-1869.pdf',
        sha256='cec2ae265fc7ed29eb307e5b12eca909dbe091a7ab286698340db527a426aafd',
        label='invoice INV-2026-1869',
    )


def check_filed_kestrel_partners(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-13 Kestrel Partners INV-2026-2268.pdf',
        sha256='beb28067d0350bb8544cd5667b76a9ba49798dd38a50232b26b6020f4b8cdf19',
        label='invoice INV-2026-2268',
    )


def check_filed_quillfeather_studio(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-14 Quillfeather Studio INV-2026-2648.pdf',
        sha256='8299fe62961c3761393a7ec4204fb87d892243505d4b97e18f9c7107d7c5ec7a',
        label='invoice INV-2026-2648',
    )


def check_filed_tessera_systems(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2025/2025-12-09 Tessera Systems INV-2025-7685.pdf',
        sha256='20b5a784c1ae35e65ebe929103217747d6cfb6343efd5476481cf68515c3d679',
        label='invoice INV-2025-7685',
    )


def check_filed_ironbark_health(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-11 Ironbark Health INV-2026-4698.pdf',
        sha256='7ee10a50e5089d2efeb26fcaeea2d56a8ee83050387d41db6d7f09084d2170a9',
        label='invoice INV-2026-4698',
    )


def check_filed_orbitals_analytics(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-04 Orbitals Analytics INV-2026-5879.pdf',
        sha256='571a5c9f9db05d8523ea0b66ba4be69aae63318e06526bc5e54f228f3764ce3b',
        label='invoice INV-2026-5879',
    )


def check_filed_juniper_labs(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-02-09 Juniper Labs INV-2026-2493.pdf',
        sha256='82dd6665b4c1886485efc8e90356505b1d04a892c064cbb58aa9dd897099069f',
        label='invoice INV-2026-2493',
    )


def check_only_invoices_this_year(initial, final, trace):
    return files_in(
        final,
        folder='Finance/Invoices/2026',
        expected={'Finance/Invoices/2026/2026-01-29 Saltmarsh Systems INV-2026-6035.pdf': '7fe4f15dc78f59327373da4f092b5569648fb7af7132052f461fa613b13e3147',
 'Finance/Invoices/2026/2026-01-16 Nimbus Systems INV-2026-4869.pdf': '7985296d668413ab402d1cb8fef3d9fba47e082db4349484f8951e60ffe7b2a7',
 'Finance/Invoices/2026/2026-02-12 Copperleaf Health INV-2026-1869.pdf': 'cec2ae265fc7ed29eb307e5b12eca909dbe091a7ab286698340db527a426aafd',
 'Finance/Invoices/2026/2026-02-13 Kestrel Partners INV-2026-2268.pdf': 'beb28067d0350bb8544cd5667b76a9ba49798dd38a50232b26b6020f4b8cdf19',
 'Finance/Invoices/2026/2026-02-14 Quillfeather Studio INV-2026-2648.pdf': '8299fe62961c3761393a7ec4204fb87d892243505d4b97e18f9c7107d7c5ec7a',
 'Finance/Invoices/2026/2026-02-11 Ironbark Health INV-2026-4698.pdf': '7ee10a50e5089d2efeb26fcaeea2d56a8ee83050387d41db6d7f09084d2170a9',
 'Finance/Invoices/2026/2026-02-04 Orbitals Analytics INV-2026-5879.pdf': '571a5c9f9db05d8523ea0b66ba4be69aae63318e06526bc5e54f228f3764ce3b',
 'Finance/Invoices/2026/2026-02-09 Juniper Labs INV-2026-2493.pdf': '82dd6665b4c1886485efc8e90356505b1d04a892c064cbb58aa9dd897099069f'},
        extra=['Finance/Invoices/2026/index.csv'],
    )


def check_index_this_year(initial, final, trace):
    return csv_rows(
        final,
        path='Finance/Invoices/2026/index.csv',
        date_column='date',
        amount_column='amount',
        ref_column='invoice',
        rows=[['2026-01-16', 450.9, 'INV-2026-4869'],
 ['2026-01-29', 253.18, 'INV-2026-6035'],
 ['2026-02-04', 200.93, 'INV-2026-5879'],
 ['2026-02-09', 42.49, 'INV-2026-2493'],
 ['2026-02-11', 1578.26, 'INV-2026-4698'],
 ['2026-02-12', 331.47, 'INV-2026-1869'],
 ['2026-02-13', 141.32, 'INV-2026-2268'],
 ['2026-02-14', 110.35, 'INV-2026-2648']],
        total=3108.9,
    )


def check_only_invoices_last_year(initial, final, trace):
    return files_in(
        final,
        folder='Finance/Invoices/2025',
        expected={'Finance/Invoices/2025/2025-10-12 Cobalt Media INV-2025-2224.pdf': 'b508b0aa87a4a122505d17984e57f45d552fc31b3b0582b48091878a90b6ebd5',
 'Finance/Invoices/2025/2025-10-28 Harbor Systems INV-2025-6927.pdf': '428a2e26858fb5f86975b622af54004e87ee259aa41573ad9b66e32834acab9c',
 'Finance/Invoices/2025/2025-11-06 Mosaic Health INV-2025-5125.pdf': 'e64abc267e9cb05161063348f6748ed7dea93c6df3428bb932e0c35bbd2a295f',
 'Finance/Invoices/2025/2025-12-09 Tessera Systems INV-2025-7685.pdf': '20b5a784c1ae35e65ebe929103217747d6cfb6343efd5476481cf68515c3d679'},
        extra=['Finance/Invoices/2025/index.csv'],
    )


def check_index_last_year(initial, final, trace):
    return csv_rows(
        final,
        path='Finance/Invoices/2025/index.csv',
        date_column='date',
        amount_column='amount',
        ref_column='invoice',
        rows=[['2025-10-12', 200.86, 'INV-2025-2224'],
 ['2025-10-28', 474.58, 'INV-2025-6927'],
 ['2025-11-06', 191.87, 'INV-2025-5125'],
 ['2025-12-09', 159.06, 'INV-2025-7685']],
        total=1026.37,
    )


def check_downloads_cleared(initial, final, trace):
    return files_gone(
        final,
        paths=['Downloads/invoice-1869.pdf',
 'Downloads/kestrel-partners-2268.pdf',
 'Downloads/Invoice-2648.pdf',
 'Downloads/invoice-7685.pdf',
 'Downloads/Invoice-4869.pdf',
 'Downloads/juniper-labs-4076.pdf',
 'Downloads/invoice-1869 (1).pdf'],
    )


def check_rest_kept(initial, final, trace):
    return files_kept(
        initial,
        final,
        paths=['Downloads/boarding-pass.pdf',
 'Downloads/concert-ticket.pdf',
 'Downloads/gym-timetable.pdf',
 'Downloads/quote-copperleaf-health-9681.pdf',
 'Downloads/sourdough.txt'],
        label='what is not an invoice',
    )


def check_remind_copperleaf_health(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Copperleaf\\s*Health',
        lst='Bills',
        due='2026-03-14',
        label='Copperleaf Health invoice',
        says='INV\\-2026\\-1869',
    )


def check_remind_kestrel_partners(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Kestrel\\s*Partners',
        lst='Bills',
        due='2026-02-27',
        label='Kestrel Partners invoice',
        says='INV\\-2026\\-2268',
    )


def check_remind_quillfeather_studio(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Quillfeather\\s*Studio',
        lst='Bills',
        due='2026-03-16',
        label='Quillfeather Studio invoice',
        says='INV\\-2026\\-2648',
    )


def check_remind_tessera_systems(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\bTessera\\b',
        lst='Bills',
        due='2025-12-23',
        label='Tessera Systems invoice',
        says='INV\\-2025\\-7685',
        stale='r-reminders-tessera-systems',
    )


def check_remind_ironbark_health(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\bIronbark\\b',
        lst='Bills',
        due='2026-03-13',
        label='Ironbark Health invoice',
        says='INV\\-2026\\-4698',
        stale='r-work-ironbark-health',
    )


def check_remind_orbitals_analytics(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Orbitals\\s*Analytics',
        lst='Bills',
        due='2026-02-18',
        label='Orbitals Analytics invoice',
        says='INV\\-2026\\-5879',
    )


def check_remind_juniper_labs(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Juniper\\s*Labs',
        lst='Bills',
        due='2026-02-23',
        label='Juniper Labs invoice',
        says='INV\\-2026\\-2493',
        stale='r-pay-juniper-labs-inv-2026-40',
    )


def check_remind_nimbus_systems_once(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='Nimbus\\s*Systems',
        lst='Bills',
        due='2026-01-30',
        label='Nimbus Systems invoice',
        says='INV\\-2026\\-4869',
        stale='r-pay-nimbus-systems-inv-2026',
    )


def check_remind_saltmarsh_systems_paid(initial, final, trace):
    return no_new_items(
        initial,
        final,
        app='reminders',
        pattern='Saltmarsh\\s*Systems',
        label='the paid Saltmarsh Systems invoice',
    )
