"""Checks for bill-triage-1-zh: 5 of 8 bills are open."""

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


def reminder_settled(
    initial: dict[str, Any], final: dict[str, Any], *, uid: str, label: str, until: str | None = None
) -> Verdict:
    """The user's own to-do `uid`, which the job has done, is not left open as it was: ticked off or deleted
    (every copy of it, one moved to another list too), or, with `until`, still open but due again no later
    than that day (a check that the job worked)."""
    _, before = _find(initial, "reminders", uid)
    title = (before or {}).get("title")
    copies = [item for _, item in _grouped(final, "reminders") if item.get("uid") == uid]
    if not copies:
        return True, f"the reminder {title!r} was deleted ({label} is done)"
    open_ = [item for item in copies if not item.get("completed")]
    if not open_:
        return True, f"the reminder {title!r} is ticked off ({label} is done)"
    due, was = str(open_[0].get("due") or "")[:10], str((before or {}).get("due") or "")[:10]
    if until is not None and len(open_) == 1 and due and due != was and due <= until:
        return True, f"the reminder {title!r} is now due {due}, a check on {label}"
    return False, f"the reminder {title!r} is still open as it was, but {label} is done"


def filed(initial: dict[str, Any], final: dict[str, Any], *, message_ids: list[str], folder: str) -> Verdict:
    """Each message in `message_ids` is in `folder` and nowhere else."""
    folders = (final.get("mail") or {}).get("folders") or {}
    for message_id in message_ids:
        places = sorted(name for name, msgs in folders.items() for m in msgs if m.get("message_id") == message_id)
        if places != [folder]:
            return False, f"the message {message_id} is in {places or 'no folder'}; expected only in {folder!r}"
    return True, f"{len(message_ids)} messages are filed in {folder!r}"


def not_filed(final: dict[str, Any], *, message_ids: list[str], folder: str) -> Verdict:
    """The messages in `message_ids` are not in `folder` (they do not belong there)."""
    folders = (final.get("mail") or {}).get("folders") or {}
    wrong = sorted(m.get("message_id") for m in folders.get(folder) or [] if m.get("message_id") in message_ids)
    if wrong:
        return False, f"messages that do not belong in {folder!r} were filed there: {wrong}"
    return True, f"nothing else was filed in {folder!r}"


def check_property_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='property|service charge|物业|锦绣物业服务',
        lst='账单',
        due='2026-11-20',
        label='锦绣物业服务 bill',
        says="(?<![\\d.,])(?:1\\ 592|1'592|1,592|1\\.592|1592)[.,]06(?![\\d]|[.,]\\d)",
        stale='r-property-money',
        stated={'amounts': [1592.06]},
    )


def check_tv_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\btv\\b|television|电视|东方有线电视',
        lst='账单',
        due='2026-11-28',
        label='东方有线电视 bill',
        says='(?<![\\d.,])(?:344)[.,]37(?![\\d]|[.,]\\d)',
        stale='r-pay-tv',
    )


def check_water_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\bwater\\b|水务|水费|上海城投水务',
        lst='账单',
        due='2026-11-23',
        label='上海城投水务 bill',
        says='(?<![\\d.,])(?:455)[.,]05(?![\\d]|[.,]\\d)',
    )


def check_mobile_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='mobile|phone|telecom|移动|话费|中国移动',
        lst='账单',
        due='2026-11-24',
        label='中国移动 bill',
        says='(?<![\\d.,])(?:178)[.,]62(?![\\d]|[.,]\\d)',
    )


def check_energy_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='energy|power|electric|电力|电费|国网上海市电力公司',
        lst='账单',
        due='2026-11-19',
        label='国网上海市电力公司 bill',
        says='(?<![\\d.,])(?:852)[.,]23(?![\\d]|[.,]\\d)',
    )


def check_no_paid_reminders(initial, final, trace):
    return only_reminders(
        initial,
        final,
        patterns={'property': 'property|service charge|物业|锦绣物业服务',
 'tv': '\\btv\\b|television|电视|东方有线电视',
 'water': '\\bwater\\b|水务|水费|上海城投水务',
 'mobile': 'mobile|phone|telecom|移动|话费|中国移动',
 'energy': 'energy|power|electric|电力|电费|国网上海市电力公司'},
        closed=['r-gas-money'],
    )


def check_paid_after_export(initial, final, trace):
    return no_new_items(
        initial,
        final,
        app='reminders',
        pattern='broadband|fibre|fiber|internet|宽带|中国电信宽带',
        label='the paid 中国电信宽带 bill',
    )


def check_paid_reminder_closed(initial, final, trace):
    return reminder_settled(initial, final, uid='r-gas-money', label='paying the 上海燃气 bill')


def check_bills_filed(initial, final, trace):
    return filed(
        initial,
        final,
        message_ids=['<563d8fbd1d.20261017@jinxiu-wuye.cn>',
 '<1fb4a9a2-ae76-59d7-d50c4714b7e7@jinxiu-wuye.cn>',
 '<f05d6a49-2376-18fd-b783e63d2d88@shgas.cn>',
 '<05de8425b7.20261105@dfcatv.cn>',
 '<3b66baffdd.20261104@shwater.cn>',
 '<b0c3a507-cf90-8352-c08f7ea1d1e5@189-broadband.cn>',
 '<20261104080200.8774ff@10086-notice.cn>',
 '<20261028181400.9d4219@sgcc-sh.cn>',
 '<e2028da7-9483-6a11-f4876c46882d@pingan-home.cn>'],
        folder='账单',
    )


def check_only_bills_filed(initial, final, trace):
    return not_filed(
        final,
        message_ids=['<98c0f00a2b.20260518@hengxin-logistics.com.cn>',
 '<f024d767-06d2-bd76-87767a26c4b5@v2.cn>',
 '<29cfbc7913.20260526@qingsong-media.com.cn>',
 '<20260526155900.b0e179@hengxin-logistics.com.cn>',
 '<34a445481b.20260528@hengxin-logistics.com.cn>',
 '<da578d31b1.20260528@v2.cn>',
 '<835830d8-e509-7af9-48d17bcd2f3e@v9.cn>',
 '<d0da5903-adb9-67fb-dc82477b4a9d@v7.cn>',
 '<20260601092000.de90f9@qingsong-media.com.cn>',
 '<d5fe94a4ad.20260610@v0.cn>',
 '<20260612122700.fc3df5@v0.cn>',
 '<08f616c521.20260615@qingsong-media.com.cn>',
 '<6c4338c4-931a-f5f1-008c927105ff@yunfan-media.com.cn>',
 '<e96842f5c0.20260616@qingsong-media.com.cn>',
 '<631fdb73-1ebe-0fb4-87bab332d964@qingsong-media.com.cn>',
 '<f60db77f7b.20260627@v9.cn>',
 '<826b7309-36ee-4bd1-89e608075bc0@v3.cn>',
 '<c4f318bc-7a9c-a39a-b0f70d43ff06@163.com>',
 '<1c780df9-010b-0437-91a62d41563b@163.com>',
 '<71227d26e8.20260701@v8.cn>',
 '<a996c802-4e37-7b67-bc8ef88db26e@v7.cn>',
 '<419b8ff7-8a40-e083-78a6a1cf7c5a@qq.com>',
 '<0ad0c83b-711b-a11f-6c6e72ef966e@v9.cn>',
 '<2261d292f2.20260709@qingsong-media.com.cn>',
 '<887ed46cdb.20260713@yunfan-media.com.cn>',
 '<15fa5dab17.20260713@qingsong-media.com.cn>',
 '<84a4c26d-04ec-cf8e-45ec620e12fe@v4.cn>',
 '<d301109c93.20260715@v4.cn>',
 '<e82f19d7-5cf6-a589-14500830e0a6@qingsong-media.com.cn>',
 '<20260720093000.e3dd85@yunfan-media.com.cn>',
 '<7c882a85b1.20260720@yunfan-media.com.cn>',
 '<9465b7d564.20260723@v4.cn>',
 '<ac7a0bd3d1.20260727@v4.cn>',
 '<20260727094400.19961b@yunfan-media.com.cn>',
 '<e8c8193e12.20260728@v4.cn>',
 '<86379361c4.20260729@qingsong-media.com.cn>',
 '<f2160c41-9c27-7555-a66ee13a2739@v8.cn>',
 '<59e2c1a6-115f-d8c2-49d872e91296@v14.cn>',
 '<20260805200200.51b015@v3.cn>',
 '<45811e69-8a94-0b48-453c19c418e4@v7.cn>',
 '<afb18cfde8.20260812@v7.cn>',
 '<92ae90a457.20260819@v8.cn>',
 '<ffe1a0f4b4.20260824@qingsong-media.com.cn>',
 '<b83632d8-58f9-a903-373c4b514764@qingsong-media.com.cn>',
 '<20260827112300.354060@yunfan-media.com.cn>',
 '<20260827163500.4ea3ca@yunfan-media.com.cn>',
 '<20260829081500.8dcae4@v9.cn>',
 '<3093c02565.20260831@qingsong-media.com.cn>',
 '<b26171fcf1.20260905@v9.cn>',
 '<20260907170000.ec2851@qingsong-media.com.cn>',
 '<20260908212000.c73a16@126.com>',
 '<de2fe212-b339-222e-b735cdc6db04@qingsong-media.com.cn>',
 '<76f494bf-1901-e895-ad1c74f68dbf@v9.cn>',
 '<ebfa9b9c-9f7c-19cc-571b5645c0be@qingsong-media.com.cn>',
 '<5d9c30b759.20260922@v5.cn>',
 '<20260926080000.709e9e@v9.cn>',
 '<20260928093400.97f72a@yunfan-media.com.cn>',
 '<d48fe5f259.20260928@163.com>',
 '<097c270d64.20260929@yunfan-media.com.cn>',
 '<6e459501-7da5-3e09-24422d148182@qingsong-media.com.cn>',
 '<b86c691a-a729-1199-752aa7026ad9@hengxin-logistics.com.cn>',
 '<20261003081500.f5da32@v9.cn>',
 '<20261004191300.d5b858@v7.cn>',
 '<c44323f1e7.20261008@qingsong-media.com.cn>',
 '<20261008100000.7caf34@qingsong-media.com.cn>',
 '<0f677f52-fc16-a5f8-e78c7307e64f@v9.cn>',
 '<a67a0c47a9.20261010@v8.cn>',
 '<57787f5f04.20261012@qingsong-media.com.cn>',
 '<5091708e-a9bf-f62b-6a89274559e0@v7.cn>',
 '<20261017081500.2a0fe2@v9.cn>',
 '<d1188db9f2.20261019@qingsong-media.com.cn>',
 '<2dd9c813ee.20261019@v8.cn>',
 '<5e21d6b1-69cc-6430-17bee5259bed@yuanhang-it.com.cn>',
 '<3580c7be58.20261023@qingsong-media.com.cn>',
 '<3f518251-37da-5423-9771c8a41780@v9.cn>',
 '<b511a350-768c-e33d-4d7f28b5ccf8@qingsong-media.com.cn>',
 '<20261026151600.032de8@qingsong-media.com.cn>',
 '<2b751657c5.20261028@v7.cn>',
 '<20261029130200.9e5c4d@v13.cn>',
 '<20261030094900.b67342@qingsong-media.com.cn>',
 '<a580ebea-f6c7-d014-dbfae7898e5b@v9.cn>',
 '<6f5ec8dc-ec7e-bfff-05df2512a220@dfcatv.cn>',
 '<20261105180600.85bcb5@126.com>',
 '<b3ad99f861.20261106@shwater.cn>',
 '<20261109183900.6ccdc2@163.com>'],
        folder='账单',
    )
