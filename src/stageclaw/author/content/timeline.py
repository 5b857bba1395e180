"""When things happen: a plausible 'now' for a task and working days around it."""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

FIRST, LAST = date(2026, 1, 12), date(2026, 11, 20)


def pick_now(rng: random.Random, tz: str) -> datetime:
    """A Monday to Thursday morning of 2026 (the seed decides which), in the user's zone."""
    while True:
        d = FIRST + timedelta(days=rng.randint(0, (LAST - FIRST).days))
        if d.weekday() < 4:
            return at(d, rng.randint(8, 10), rng.choice((5, 12, 20, 34, 41, 50)), tz)


def at(d: date, hour: int, minute: int, tz: str) -> datetime:
    return datetime.combine(d, time(hour, minute), ZoneInfo(tz))


def workday(d: date, n: int) -> date:
    """The n-th working day (Monday to Friday) after `d` (before it for negative n)."""
    step = 1 if n >= 0 else -1
    left = abs(n)
    while left:
        d += timedelta(days=step)
        if d.weekday() < 5:
            left -= 1
    return d


def local(moment: datetime, tz: str) -> datetime:
    return moment.astimezone(ZoneInfo(tz))
