"""VTIMEZONE components from the IANA database, written the way calendar clients write them.

A calendar server reads the times of an item through the VTIMEZONE in it (Radicale uses vobject,
which does not: it reads a list of RDATE transitions, the form `icalendar.Timezone.from_tzinfo`
writes, as a zone without summer time). Clients write a zone's rule as a yearly RRULE ("the last
Sunday of March at 02:00"); this module derives that rule from the transitions `zoneinfo` reports,
and writes one observance per transition where a zone follows no single rule.
"""

from __future__ import annotations

import calendar
import functools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

FIRST_YEAR, LAST_YEAR = 2015, 2040
UTC = ZoneInfo("UTC")
_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def _offset(value: timedelta) -> str:
    minutes = int(value.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def transitions(key: str) -> list[tuple[datetime, timedelta, timedelta, str]]:
    """(UTC instant, offset before, offset after, name after) of every change of zone `key` in the years
    covered, found day by day and then to the minute."""
    zone = ZoneInfo(key)
    out = []
    moment = datetime(FIRST_YEAR, 1, 1, tzinfo=UTC)
    end = datetime(LAST_YEAR + 1, 1, 1, tzinfo=UTC)
    before = moment.astimezone(zone).utcoffset()
    while moment < end:
        nxt = moment + timedelta(days=1)
        after = nxt.astimezone(zone).utcoffset()
        if after != before:
            low, high = moment, nxt  # the change is in (low, high]
            while high - low > timedelta(minutes=1):
                mid = low + (high - low) / 2
                if mid.astimezone(zone).utcoffset() == before:
                    low = mid
                else:
                    high = mid
            assert before is not None and after is not None
            out.append((high.replace(second=0, microsecond=0), before, after, high.astimezone(zone).tzname() or key))
            before = after
        moment = nxt
    return out


def _rule(local: list[datetime]) -> str | None:
    """The yearly RRULE all these (local, pre-change) times follow, or None."""
    months = {t.month for t in local}
    weekdays = {t.weekday() for t in local}
    clocks = {(t.hour, t.minute) for t in local}
    if len(months) != 1 or len(weekdays) != 1 or len(clocks) != 1 or len({t.year for t in local}) != len(local):
        return None
    if all(t.day + 7 > calendar.monthrange(t.year, t.month)[1] for t in local):
        week = -1
    else:
        weeks = {(t.day - 1) // 7 + 1 for t in local}
        if len(weeks) != 1:
            return None
        week = weeks.pop()
    return f"FREQ=YEARLY;BYMONTH={months.pop()};BYDAY={week}{_DAYS[weekdays.pop()]}"


def _observance(
    kind: str, start: datetime, before: timedelta, after: timedelta, name: str, rule: str = ""
) -> list[str]:
    lines = [f"BEGIN:{kind}", f"DTSTART:{start:%Y%m%dT%H%M%S}"]
    if rule:
        lines.append(f"RRULE:{rule}")
    lines += [f"TZNAME:{name}", f"TZOFFSETFROM:{_offset(before)}", f"TZOFFSETTO:{_offset(after)}", f"END:{kind}"]
    return lines


@functools.lru_cache(maxsize=64)
def vtimezone(key: str) -> str:
    """The VTIMEZONE of IANA zone `key` (CRLF line ends, no final one)."""
    found = transitions(key)
    lines = ["BEGIN:VTIMEZONE", f"TZID:{key}"]
    if not found:
        zone = ZoneInfo(key)
        now = datetime(FIRST_YEAR, 1, 1, tzinfo=UTC).astimezone(zone)
        offset = now.utcoffset() or timedelta()
        lines += _observance("STANDARD", datetime(1970, 1, 1), offset, offset, now.tzname() or key)
        return "\r\n".join([*lines, "END:VTIMEZONE"])
    for forward in (True, False):
        group = [t for t in found if (t[2] > t[1]) == forward]
        if not group:
            continue
        kind = "DAYLIGHT" if forward else "STANDARD"
        local = [(at + before).replace(tzinfo=None) for at, before, _, _ in group]
        rule = _rule(local)
        same = len({(b, a, n) for _, b, a, n in group}) == 1
        if rule and same:
            last = group[-1][0]
            until = f";UNTIL={last:%Y%m%dT%H%M%SZ}" if last.year < LAST_YEAR else ""
            lines += _observance(kind, local[0], group[0][1], group[0][2], group[0][3], rule + until)
            continue
        for start, (_, before, after, name) in zip(local, group, strict=True):
            lines += _observance(kind, start, before, after, name)
    return "\r\n".join([*lines, "END:VTIMEZONE"])
