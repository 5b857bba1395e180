"""Weeks in which the clocks change, and the public holidays that follow them.

A story whose days straddle a clock change has times on both sides of it (a week of mail, a leave
with meetings before and after the Sunday the clocks go forward); one that also has a public holiday
a few days later has working days to count across it. This lists such weeks for the regions whose
zones change their clocks, within the years the holiday table covers, so a family can draw one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from stageclaw.author.content import holidays
from stageclaw.author.content.places import REGIONS, City

# Regions with clock changes (their cities in zones that change; Brisbane's does not).
REGIONS_WITH_DST = ("uk", "de", "fr", "se", "us", "au")
# Stories need room around the change: months of life before it, weeks of plans after it.
FIRST, LAST = date(2025, 3, 1), date(2027, 11, 30)


@dataclass(frozen=True)
class Season:
    region: str
    city: City
    change: date  # the local day the clocks change
    holidays: tuple[date, ...]  # weekday public holidays in the weeks after it

    @property
    def tz(self) -> str:
        return self.city.tz


@functools.cache
def seasons(regions: tuple[str, ...] = REGIONS_WITH_DST, after: int = 24) -> tuple[Season, ...]:
    """Every clock change of the regions' cities in the holiday table's years (the local day it
    happens: clocks change at night), with the weekday public holidays of the `after` days that follow
    it (none, for some)."""
    out = []
    for key in regions:
        table = holidays.calendar(key)
        for city in REGIONS[key].cities:
            zone = ZoneInfo(city.tz)
            before = datetime.combine(FIRST, time(12), zone).utcoffset()
            for n in range(1, (LAST - FIRST).days):
                day = FIRST + timedelta(days=n)
                offset = datetime.combine(day, time(12), zone).utcoffset()
                if offset == before:
                    continue
                before = offset
                near = tuple(
                    h for h in sorted(table.holidays) if day < h <= day + timedelta(days=after) and h.weekday() < 5
                )
                out.append(Season(key, city, day, near))
    return tuple(out)
