"""Checks for bill-triage-1-zh: 3 of 5 bills are open."""

from __future__ import annotations

import re
from datetime import datetime


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


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


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


def only_reminders(initial: dict[str, Any], final: dict[str, Any], *, patterns: dict[str, str]) -> Verdict:
    """Every reminder added or changed is one of those asked for (labels -> title patterns)."""
    for where, item in _touched(initial, final, "reminders"):
        if not any(_matches(item.get("title"), p) for p in patterns.values()):
            return False, f"the reminder {item.get('title')!r} ({where}) is none of {sorted(patterns)}"
    return True, f"only reminders for {sorted(patterns)} were added or changed"


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


def check_water_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\bwater\\b|水务|水费|上海城投水务',
        lst='账单',
        due='2026-11-26',
        label='上海城投水务 bill',
        says='(?<![\\d.,])(?:274)[.,]79(?![\\d]|[.,]\\d)',
    )


def check_broadband_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='broadband|fibre|fiber|internet|宽带|中国电信宽带',
        lst='账单',
        due='2026-11-21',
        label='中国电信宽带 bill',
        says='(?<![\\d.,])(?:241)[.,]41(?![\\d]|[.,]\\d)',
    )


def check_mobile_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='mobile|phone|telecom|移动|话费|中国移动',
        lst='账单',
        due='2026-11-20',
        label='中国移动 bill',
        says='(?<![\\d.,])(?:307)[.,]32(?![\\d]|[.,]\\d)',
    )


def check_no_paid_reminders(initial, final, trace):
    return only_reminders(
        initial,
        final,
        patterns={'water': '\\bwater\\b|水务|水费|上海城投水务',
 'broadband': 'broadband|fibre|fiber|internet|宽带|中国电信宽带',
 'mobile': 'mobile|phone|telecom|移动|话费|中国移动'},
    )


def check_bills_filed(initial, final, trace):
    return filed(
        initial,
        final,
        message_ids=['<4ab6566d-b201-d909-6adb71844cac@shwater.cn>',
 '<20261110083000.857df5@shwater.cn>',
 '<a2bdbb3626.20261027@189-broadband.cn>',
 '<85be5850a3.20261103@10086-notice.cn>',
 '<e69aa8368c.20261026@sgcc-sh.cn>',
 '<0ed5ca4653.20261027@pingan-home.cn>'],
        folder='账单',
    )


def check_only_bills_filed(initial, final, trace):
    return not_filed(
        final,
        message_ids=['<9f8a556662.20261101@douban.example>',
 '<20261104223900.4c2389@foxmail.com>',
 '<20261103191700.03b872@sf-notice.cn>',
 '<20261106093400.b4e865@shwater.cn>',
 '<20261108093400.7d2136@sgcc-sh.cn>'],
        folder='账单',
    )
