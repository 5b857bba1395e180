"""Checks for meeting-move-1-zh: Alder Media试点复盘会 moves to 2026-10-19T09:30:00-05:00 (America/Chicago) = 2026-10-19T22:30:00+08:00."""

from __future__ import annotations

import re
from datetime import datetime


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


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


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def event_at(final: dict[str, Any], *, uid: str, calendar: str, start: str, end: str, label: str) -> Verdict:
    """The existing event `uid` is in `calendar` and runs from `start` to `end`."""
    where, event = _find(final, "calendar", uid)
    if event is None:
        return False, f"{label} ({uid}) is gone from every calendar"
    if where != calendar:
        return False, f"{label} ({uid}) is in the calendar {where!r}; it belongs in {calendar!r}"
    if not _on_time(event.get("start"), start):
        return False, f"{label} starts {event.get('start')}; expected {start}"
    if not _on_time(event.get("end"), end):
        return False, f"{label} ends {event.get('end')}; expected {end} (the same length as before)"
    return True, f"{label} runs {start} to {end}"


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


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


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def sent_once(
    final: dict[str, Any],
    *,
    to: list[str],
    label: str,
    in_reply_to: str | None = None,
    subject: str | None = None,
    wrong: dict[str, str] | None = None,
    each_once: bool = False,
) -> Verdict:
    """Exactly one message was sent, to exactly `to`; it answers `in_reply_to` or its subject matches.
    With `each_once` (a mail to a group), nobody is named twice, in To and again in Cc."""
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    if len(sent) != 1:
        return False, f"{len(sent)} messages were sent ({[m.get('subject') for m in sent]}); expected one"
    people = _recipients(sent[0])
    if sorted(set(people)) != sorted(to):
        why = [f" ({(wrong or {})[p]})" for p in people if p in (wrong or {})]
        return False, f"the message went to {people}{''.join(why)}; expected {label}: {sorted(to)}"
    twice = sorted({p for p in people if people.count(p) > 1})
    if each_once and twice:
        return False, f"the message names {twice} twice (in To and in Cc)"
    threaded = in_reply_to is not None and sent[0].get("in_reply_to") == in_reply_to
    if not threaded and (subject is None or not _matches(sent[0].get("subject"), subject)):
        return False, f"the message {sent[0].get('subject')!r} neither answers {in_reply_to} nor has a fitting subject"
    return True, f"one message, to {label} only"


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


def _stray(text: str, stated: dict[str, Any] | None) -> list[str]:
    """The values `text` gives that `stated` does not list, for each kind it lists: `dates` (ISO days;
    any written form counts), `years`, `addresses`, `amounts` (money, written with cents), `total` (the
    amount next to the word "total"), `numbers` (whole numbers: a house number, a postcode), `counts`
    (noun pattern -> the number it must come with: {"receipts?": 5}) and `refs` (reference pattern -> the
    references it may be)."""
    if not stated:
        return []
    wrong = []
    if "dates" in stated:
        allowed = {(int(d[5:7]), int(d[8:10])) for d in stated["dates"]}
        wrong += [f"the date {m:02d}-{d:02d} (month-day)" for m, d in sorted(_dates(text) - allowed)]
    if "years" in stated:
        years = re.findall(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])", text)
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
        found = [int(n) for n in re.findall(r"(?<![\w.,])\d+(?![\w]|[.,]\d)", text)]
        wrong += [f"the number {n}" for n in sorted(set(found)) if found.count(n) > stated["numbers"].count(n)]
    for noun, count in (stated.get("counts") or {}).items():
        for m in re.finditer(rf"(?<![\d.,])(\d+)\s+(?:{noun})\b", text, re.IGNORECASE):
            if int(m.group(1)) != count:
                wrong.append(f"{m.group(0)!r} (there are {count})")
    for shape, refs in (stated.get("refs") or {}).items():
        wrong += [f"the reference {r}" for r in dict.fromkeys(re.findall(shape, text)) if r not in refs]
    return wrong


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def message_says(
    final: dict[str, Any],
    *,
    to: str,
    patterns: dict[str, str],
    dates: list[str] | None = None,
    stated: dict[str, Any] | None = None,
) -> Verdict:
    """A message to `to` says every labelled thing (its own words, not the quoted ones); the calendar
    dates it writes out are all among `dates` (ISO days), so a wrong date cannot hide behind a weekday,
    and the other values it gives are among `stated`."""
    messages = _to(final, to)
    if not messages:
        return False, f"nothing was sent to {to}"
    stated = {**(stated or {}), **({"dates": dates} if dates is not None else {})}
    problems = []
    for message in messages:
        text = _own_words(message)
        missing = _missing(text, patterns)
        wrong = _stray(text, stated)
        if not missing and not wrong:
            return True, f"the message to {to} gives {sorted(patterns)}"
        problems.append(", ".join(missing) + (f" (and it gives {'; '.join(wrong)}, which is wrong)" if wrong else ""))
    return False, "the message does not give " + "; ".join(problems)


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
    due: str,
    label: str,
    exclude: str | None = None,
    stale: str | None = None,
    says: str | None = None,
) -> Verdict:
    """Exactly one open reminder about `label` (new, or the `stale` one updated), in `lst`, due `due`;
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
    if not _on_time(item.get("due"), due):
        return False, f"the {label} reminder is due {item.get('due')}; expected {due}"
    if not _matches(f"{item.get('title') or ''}\n{item.get('notes') or ''}", says):
        return False, f"the {label} reminder {item.get('title')!r} does not give the right amount"
    return True, f"one open {label} reminder in {lst}, due {due}"


def check_moved(initial, final, trace):
    return event_at(
        final,
        uid='evt-pilot-retro',
        calendar='工作',
        start='2026-10-19T22:30:00+08:00',
        end='2026-10-20T00:00:00+08:00',
        label='Alder Media试点复盘会',
    )


def check_moved_not_copied(initial, final, trace):
    return no_new_items(initial, final, app='calendar', pattern='试点复盘会', label='Alder Media试点复盘会')


def check_reply_sent(initial, final, trace):
    return sent_once(
        final,
        to=['jon_radcliffe@icloud.com'],
        label='Jon Radcliffe',
        in_reply_to='<18b134c4-d137-d201-65daf8756fd2@icloud.com>',
        subject='Pilot\\ retro',
        wrong={'jonathanr@alder-media.com': 'their usual address, which they cannot read now'},
    )


def check_reply_both_zones(initial, final, trace):
    return message_says(
        final,
        to='jon_radcliffe@icloud.com',
        patterns={'09:30 their time': '(?<![\\d:.])09[:.h]30(?!\\d)|(?<![\\d:.])9[:.h]30(?!\\d)|(?<![\\d:.])9(?:[:.]30)\\s*(?:am|a\\.m\\.)|(?:上午|早上|凌晨)\\s*(?:9|九)(?:点|時|时)?(?:30分|:30|点30|半)',
 "22:30 the user's time": '(?<![\\d:.])22[:.h]30(?!\\d)|(?<![\\d:.])10(?:[:.]30)\\s*(?:pm|p\\.m\\.)|(?:晚上|傍晚)\\s*(?:10|十)(?:点|時|时)?(?:30分|:30|点30|半)',
 'the day': '(?<!\\d)19(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Oct\\w*|Oct\\w*\\.?\\s+(?<!\\d)19(?:st|nd|rd|th)?(?!\\d)|2026-10-19|(?<![\\d/.])19[./]10(?![\\d])|(?<![\\d/.])0?19[./]0?10[./]|10月19[日号]|\\bMon(?:day)?\\b|(?:周|星期|礼拜)一'},
        dates=['2026-10-19'],
    )


def check_prep_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='agenda|议程|Pilot\\ retro|试点复盘会|prep|准备',
        lst='工作',
        due='2026-10-19T21:30:00+08:00',
        label='preparation',
    )
