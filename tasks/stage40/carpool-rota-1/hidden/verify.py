"""Checks for carpool-rota-1: 14 school days from 2026-11-23; closures 2026-11-30."""

from __future__ import annotations

import re
from datetime import datetime


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _driver(event: dict[str, Any], user: str) -> str | None:
    """Who drives a run: the one person invited besides the user, or the user when nobody else is (None
    when several are)."""
    guests = {_address(a) for a in event.get("attendees") or []} - {user}
    if len(guests) > 1:
        return None
    return next(iter(guests)) if guests else user


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


def _days_of(event: dict[str, Any]) -> list[str]:
    """The days (ISO) an event takes: each date of an all-day event (its end is exclusive), or a timed
    event's day (state times are in the task's timezone, so their date part is the local day)."""
    start, end = str(event.get("start") or ""), str(event.get("end") or "")
    if len(start) != 10:
        return [start[:10]] if start else []
    last = end if len(end) == 10 and end > start else None
    days, current = [start], datetime.fromisoformat(start)
    while last is not None:
        current = current.fromordinal(current.toordinal() + 1)
        if current.date().isoformat() >= last:
            break
        days.append(current.date().isoformat())
    return days


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _dated(final: dict[str, Any], calendar: str, pattern: str) -> list[dict[str, Any]]:
    """One-off, not cancelled events in `calendar` whose title matches `pattern`."""
    return [
        e
        for where, e in _grouped(final, "calendar")
        if where == calendar and not e.get("rrule") and e.get("status") != "CANCELLED" and _matches(_label(e), pattern)
    ]


def _runs(final: dict[str, Any], calendar: str, pattern: str, day: str) -> list[dict[str, Any]]:
    return [e for e in _dated(final, calendar, pattern) if day in _days_of(e)]


def school_run(
    final: dict[str, Any],
    *,
    calendar: str,
    pattern: str,
    day: str,
    start: str,
    end: str,
    user: str,
    drivers: dict[str, list[str]],
    label: str,
) -> Verdict:
    """Exactly one run (an event like `pattern`) in `calendar` on `day`, from `start` to `end`, driven by
    one of `drivers` (address -> the days they can drive) who can drive that day."""
    runs = _runs(final, calendar, pattern, day)
    if len(runs) != 1:
        return False, f"{len(runs)} runs in {calendar} on {day}; expected one"
    run = runs[0]
    if not _on_time(run.get("start"), start) or not _on_time(run.get("end"), end):
        return False, f"the run on {day} is {run.get('start')} to {run.get('end')}; the run is {start} to {end}"
    who = _driver(run, user)
    if who is None:
        return False, f"the run on {day} invites {run.get('attendees')}: the driver alone is to be invited"
    if who not in drivers:
        return False, f"the run on {day} is driven by {who}, who is not one of the group's drivers"
    if day not in drivers[who]:
        return False, f"{who} drives on {day}, a day they cannot do"
    return True, f"{label}: {who}"


def nothing_on(final: dict[str, Any], *, calendar: str, pattern: str, day: str, label: str) -> Verdict:
    """No event in `calendar` whose title matches `pattern` takes `day` (a date that no longer holds)."""
    taken = [_label(e) for e in _dated(final, calendar, pattern) if day in _days_of(e)]
    if taken:
        return False, f"{taken} on {day}: {label}"
    return True, f"nothing like {label} on {day}"


def rota_fair(
    final: dict[str, Any],
    *,
    calendar: str,
    pattern: str,
    days: list[str],
    families: dict[str, str],
    user: str,
    cap: int,
    label: str,
) -> Verdict:
    """Over the runs on `days`, no family (`families`: driver address -> family) drives more than `cap`
    times in a week, and every family drives the same number of times, give or take one."""
    total = {f: 0 for f in families.values()}
    weekly: dict[tuple[str, int], int] = {}
    for day in days:
        runs = _runs(final, calendar, pattern, day)
        who = _driver(runs[0], user) if len(runs) == 1 else None
        family = families.get(who or "")
        if family is None:
            continue  # that day's own item says what is wrong with it
        total[family] += 1
        week = datetime.fromisoformat(day).isocalendar()[1]
        weekly[(family, week)] = weekly.get((family, week), 0) + 1
    over = sorted({f for (f, _), n in weekly.items() if n > cap})
    if over:
        return False, f"{over} drive more than {cap} times in a week"
    if max(total.values()) - min(total.values()) > 1:
        return False, f"the runs are not shared fairly: {dict(sorted(total.items()))} ({label})"
    return True, f"fair shares {dict(sorted(total.items()))}, at most {cap} a week"


def _gives_rota(text: str, drivers: dict[str, str], days: dict[str, str]) -> list[str]:
    """The days `text` does not give with their driver: a line with the date that names them."""
    lines = text.splitlines()
    return [d for d, name in drivers.items() if not any(_matches(x, days[d]) and _matches(x, name) for x in lines)]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def _rota_lines(
    final: dict[str, Any], calendar: str, pattern: str, days: dict[str, str], names: dict[str, str], user: str
) -> tuple[dict[str, str] | None, str]:
    """Day -> the pattern of its driver's name, from the calendar; or None and why not."""
    out = {}
    for day in days:
        runs = _runs(final, calendar, pattern, day)
        who = _driver(runs[0], user) if len(runs) == 1 else None
        if who not in names:
            return None, f"the calendar has no single run with a known driver on {day} to compare with"
        out[day] = names[who]
    return out, ""


def rota_written(
    final: dict[str, Any],
    *,
    uid: str,
    calendar: str,
    pattern: str,
    days: dict[str, str],
    names: dict[str, str],
    user: str,
    label: str,
) -> Verdict:
    """The note `uid` gives each day of `days` (ISO -> how a date is written) with the driver the calendar
    has for it (`names`: address -> how their name is written), on one line."""
    drivers, why = _rota_lines(final, calendar, pattern, days, names, user)
    if drivers is None:
        return False, why
    _, note = _find(final, "notes", uid)
    if note is None:
        return False, f"{label} ({uid}) is gone"
    missing = _gives_rota(note.get("body") or "", drivers, days)
    if missing:
        return False, f"{label} does not give the driver the calendar has for {missing}"
    return True, f"{label} gives the {len(days)} days with their drivers"


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def rota_sent(
    final: dict[str, Any],
    *,
    to: list[str],
    calendar: str,
    pattern: str,
    days: dict[str, str],
    names: dict[str, str],
    user: str,
) -> Verdict:
    """Everyone in `to` got mail (one to all or one each) giving each day of `days` with the driver the
    calendar has for it, on one line."""
    drivers, why = _rota_lines(final, calendar, pattern, days, names, user)
    if drivers is None:
        return False, why
    for address in to:
        text = "\n".join(_own_words(m) for m in _to(final, address))
        if not text:
            return False, f"nothing was sent to {address}"
        missing = _gives_rota(text, drivers, days)
        if missing:
            return False, f"the mail to {address} does not give the driver the calendar has for {missing}"
    return True, f"{len(to)} people got the rota"


def audience(
    final: dict[str, Any], *, topics: list[dict[str, Any]], others: list[str], user: str, label: str
) -> Verdict:
    """Every mail of the agent's own went to people it concerns, once. A mail that names topics
    ({pattern, to}: a meeting and whom it may be told to) may go to the people of those topics; one
    that names none, to `others`. The user (`user`) may copy themselves. The same mail sent twice to
    the same people is a slip."""
    seen = set()
    for message in _outbox(final):
        if message.get("invitation"):
            continue
        text = _own_words(message)
        key = (tuple(sorted(_recipients(message))), text)
        if key in seen:
            return False, f"the mail {message.get('subject')!r} was sent twice to the same people"
        seen.add(key)
        named = [t for t in topics if _matches(text, t["pattern"])]
        fine = {a for t in named for a in t["to"]} if named else set(others)
        strangers = sorted(set(_recipients(message)) - fine - {user})
        if strangers:
            return False, f"the mail {message.get('subject')!r} also went to {strangers}: {label}"
    return True, "every mail went only to people it concerns"


DRIVERS = {'vikram.pillai@driftwood-analytics.co.uk': ['2026-11-23',
                                             '2026-11-24',
                                             '2026-11-26',
                                             '2026-11-27',
                                             '2026-12-01',
                                             '2026-12-03',
                                             '2026-12-04',
                                             '2026-12-07',
                                             '2026-12-08',
                                             '2026-12-10',
                                             '2026-12-11'],
 'mohammed@outlook.com': ['2026-11-24', '2026-11-26', '2026-12-03', '2026-12-08', '2026-12-10'],
 'ayodeji.okonjo@hotmail.co.uk': ['2026-11-26', '2026-11-27', '2026-12-03', '2026-12-10', '2026-12-11'],
 'titilayoo@icloud.com': ['2026-11-25', '2026-11-26', '2026-12-02', '2026-12-03', '2026-12-09', '2026-12-10'],
 'oluwaseun.adeyemi@gmail.com': ['2026-11-23', '2026-11-27', '2026-12-04', '2026-12-07', '2026-12-11']}

DAYS = {'2026-11-23': '(?<!\\d)0?23(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Nov\\w*|Nov\\w*\\.?\\s+(?<!\\d)0?23(?:st|nd|rd|th)?(?!\\d)|2026-11-23|(?<![\\d/.])23[./]11(?![\\d])|(?<![\\d/.])0?23[./]0?11[./]|11月23[日号]',
 '2026-11-24': '(?<!\\d)0?24(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Nov\\w*|Nov\\w*\\.?\\s+(?<!\\d)0?24(?:st|nd|rd|th)?(?!\\d)|2026-11-24|(?<![\\d/.])24[./]11(?![\\d])|(?<![\\d/.])0?24[./]0?11[./]|11月24[日号]',
 '2026-11-25': '(?<!\\d)0?25(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Nov\\w*|Nov\\w*\\.?\\s+(?<!\\d)0?25(?:st|nd|rd|th)?(?!\\d)|2026-11-25|(?<![\\d/.])25[./]11(?![\\d])|(?<![\\d/.])0?25[./]0?11[./]|11月25[日号]',
 '2026-11-26': '(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Nov\\w*|Nov\\w*\\.?\\s+(?<!\\d)0?26(?:st|nd|rd|th)?(?!\\d)|2026-11-26|(?<![\\d/.])26[./]11(?![\\d])|(?<![\\d/.])0?26[./]0?11[./]|11月26[日号]',
 '2026-11-27': '(?<!\\d)0?27(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Nov\\w*|Nov\\w*\\.?\\s+(?<!\\d)0?27(?:st|nd|rd|th)?(?!\\d)|2026-11-27|(?<![\\d/.])27[./]11(?![\\d])|(?<![\\d/.])0?27[./]0?11[./]|11月27[日号]',
 '2026-12-01': '(?<!\\d)0?1(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?1(?:st|nd|rd|th)?(?!\\d)|2026-12-01|(?<![\\d/.])1[./]12(?![\\d])|(?<![\\d/.])0?1[./]0?12[./]|12月1[日号]',
 '2026-12-02': '(?<!\\d)0?2(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?2(?:st|nd|rd|th)?(?!\\d)|2026-12-02|(?<![\\d/.])2[./]12(?![\\d])|(?<![\\d/.])0?2[./]0?12[./]|12月2[日号]',
 '2026-12-03': '(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?3(?:st|nd|rd|th)?(?!\\d)|2026-12-03|(?<![\\d/.])3[./]12(?![\\d])|(?<![\\d/.])0?3[./]0?12[./]|12月3[日号]',
 '2026-12-04': '(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)|2026-12-04|(?<![\\d/.])4[./]12(?![\\d])|(?<![\\d/.])0?4[./]0?12[./]|12月4[日号]',
 '2026-12-07': '(?<!\\d)0?7(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?7(?:st|nd|rd|th)?(?!\\d)|2026-12-07|(?<![\\d/.])7[./]12(?![\\d])|(?<![\\d/.])0?7[./]0?12[./]|12月7[日号]',
 '2026-12-08': '(?<!\\d)0?8(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?8(?:st|nd|rd|th)?(?!\\d)|2026-12-08|(?<![\\d/.])8[./]12(?![\\d])|(?<![\\d/.])0?8[./]0?12[./]|12月8[日号]',
 '2026-12-09': '(?<!\\d)0?9(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?9(?:st|nd|rd|th)?(?!\\d)|2026-12-09|(?<![\\d/.])9[./]12(?![\\d])|(?<![\\d/.])0?9[./]0?12[./]|12月9[日号]',
 '2026-12-10': '(?<!\\d)0?10(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?10(?:st|nd|rd|th)?(?!\\d)|2026-12-10|(?<![\\d/.])10[./]12(?![\\d])|(?<![\\d/.])0?10[./]0?12[./]|12月10[日号]',
 '2026-12-11': '(?<!\\d)0?11(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Dec\\w*|Dec\\w*\\.?\\s+(?<!\\d)0?11(?:st|nd|rd|th)?(?!\\d)|2026-12-11|(?<![\\d/.])11[./]12(?![\\d])|(?<![\\d/.])0?11[./]0?12[./]|12月11[日号]'}

NAMES = {'vikram.pillai@driftwood-analytics.co.uk': '\\bVikram\\b|\\bPillai\\b|\\bme\\b|\\bus\\b|\\bmyself\\b',
 'mohammed@outlook.com': '\\bMohammed\\b|\\bDarwish\\b',
 'ayodeji.okonjo@hotmail.co.uk': '\\bAyodeji\\b|\\bOkonjo\\b',
 'titilayoo@icloud.com': '\\bTitilayo\\b|\\bOgunleye\\b',
 'oluwaseun.adeyemi@gmail.com': '\\bOluwaseun\\b|\\bAdeyemi\\b'}


def check_run_1123(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-23',
        start='2026-11-23T08:10:00+00:00',
        end='2026-11-23T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-11-23',
    )


def check_run_1124(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-24',
        start='2026-11-24T08:10:00+00:00',
        end='2026-11-24T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-11-24',
    )


def check_run_1125(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-25',
        start='2026-11-25T08:10:00+00:00',
        end='2026-11-25T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-11-25',
    )


def check_run_1126(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-26',
        start='2026-11-26T08:10:00+00:00',
        end='2026-11-26T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-11-26',
    )


def check_run_1127(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-27',
        start='2026-11-27T08:10:00+00:00',
        end='2026-11-27T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-11-27',
    )


def check_run_1201(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-01',
        start='2026-12-01T08:10:00+00:00',
        end='2026-12-01T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-01',
    )


def check_run_1202(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-02',
        start='2026-12-02T08:10:00+00:00',
        end='2026-12-02T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-02',
    )


def check_run_1203(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-03',
        start='2026-12-03T08:10:00+00:00',
        end='2026-12-03T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-03',
    )


def check_run_1204(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-04',
        start='2026-12-04T08:10:00+00:00',
        end='2026-12-04T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-04',
    )


def check_run_1207(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-07',
        start='2026-12-07T08:10:00+00:00',
        end='2026-12-07T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-07',
    )


def check_run_1208(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-08',
        start='2026-12-08T08:10:00+00:00',
        end='2026-12-08T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-08',
    )


def check_run_1209(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-09',
        start='2026-12-09T08:10:00+00:00',
        end='2026-12-09T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-09',
    )


def check_run_1210(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-10',
        start='2026-12-10T08:10:00+00:00',
        end='2026-12-10T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-10',
    )


def check_run_1211(initial, final, trace):
    return school_run(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-12-11',
        start='2026-12-11T08:10:00+00:00',
        end='2026-12-11T08:40:00+00:00',
        user='vikram.pillai@driftwood-analytics.co.uk',
        drivers=DRIVERS,
        label='the run on 2026-12-11',
    )


def check_no_run_1130(initial, final, trace):
    return nothing_on(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        day='2026-11-30',
        label='school is closed that day',
    )


def check_fair_shares(initial, final, trace):
    return rota_fair(
        final,
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        days=['2026-11-23',
 '2026-11-24',
 '2026-11-25',
 '2026-11-26',
 '2026-11-27',
 '2026-12-01',
 '2026-12-02',
 '2026-12-03',
 '2026-12-04',
 '2026-12-07',
 '2026-12-08',
 '2026-12-09',
 '2026-12-10',
 '2026-12-11'],
        families={'vikram.pillai@driftwood-analytics.co.uk': 'us',
 'mohammed@outlook.com': 'darwish',
 'ayodeji.okonjo@hotmail.co.uk': 'okonjo',
 'titilayoo@icloud.com': 'ogunleye',
 'oluwaseun.adeyemi@gmail.com': 'adeyemi'},
        user='vikram.pillai@driftwood-analytics.co.uk',
        cap=2,
        label="the group's rule",
    )


def check_rota_in_note(initial, final, trace):
    return rota_written(
        final,
        uid='n-school-run-carpool',
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        days=DAYS,
        names=NAMES,
        user='vikram.pillai@driftwood-analytics.co.uk',
        label='the carpool note',
    )


def check_rota_sent(initial, final, trace):
    return rota_sent(
        final,
        to=['mohammed@outlook.com',
 'ayodeji.okonjo@hotmail.co.uk',
 'titilayoo@icloud.com',
 'oluwaseun.adeyemi@gmail.com'],
        calendar='Family',
        pattern='school run|carpool|car pool|lift|driv',
        days=DAYS,
        names=NAMES,
        user='vikram.pillai@driftwood-analytics.co.uk',
    )


def check_only_the_group(initial, final, trace):
    return audience(
        final,
        topics=[],
        others=['ayodeji.okonjo@hotmail.co.uk',
 'leila.adeyemi@gmail.com',
 'mohammed@outlook.com',
 'oluwaseun.adeyemi@gmail.com',
 'titilayoo@icloud.com'],
        user='vikram.pillai@driftwood-analytics.co.uk',
        label="the rota is the group's business",
    )
