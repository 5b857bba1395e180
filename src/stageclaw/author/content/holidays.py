"""Public holidays and business days of the regions the content uses.

`holidays.toml` lists, for 2025 to 2027, each region's national public holidays (England's for the
United Kingdom, whose cities here are mostly English) and the weekend days a region makes working
days to bridge a holiday (China's 调休). `scripts/holiday-table` writes it from the `holidays`
package; it is checked in, so generated tasks do not change when that package does, and a test
compares it with the package.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

TABLE = Path(__file__).with_name("holidays.toml")
YEARS = (2025, 2026, 2027)
# region key -> (the `holidays` package's country code, its options)
SOURCES: dict[str, tuple[str, dict[str, Any]]] = {
    "uk": ("GB", {"subdiv": "ENG"}),
    "de": ("DE", {}),
    "us": ("US", {}),
    "mx": ("MX", {}),
    "in": ("IN", {}),
    "au": ("AU", {}),
    "br": ("BR", {}),
    "ng": ("NG", {}),
    "se": ("SE", {}),
    "fr": ("FR", {}),
    "sg": ("SG", {}),
    "jp": ("JP", {}),
    "cn": ("CN", {}),
}
NATIVE_NAMES = {"cn": "zh_CN"}  # regions whose holiday names the table also gives in the user's language


@dataclass(frozen=True)
class Holiday:
    day: date
    name: str
    name_zh: str = ""


@dataclass(frozen=True)
class BusinessCalendar:
    """Working days in one region: Monday to Friday, minus public holidays, plus make-up working days."""

    region: str
    holidays: dict[date, Holiday]
    workdays: frozenset[date]  # weekend days that are working days

    def holiday(self, day: date) -> Holiday | None:
        return self.holidays.get(day)

    def is_business_day(self, day: date) -> bool:
        self._check(day)
        if day in self.workdays:
            return True
        return day.weekday() < 5 and day not in self.holidays

    def add(self, day: date, n: int) -> date:
        """The n-th business day after `day` (before it for a negative n); `day` itself does not count."""
        step = 1 if n >= 0 else -1
        left = abs(n)
        while left:
            day += timedelta(days=step)
            if self.is_business_day(day):
                left -= 1
        return day

    def on_or_after(self, day: date) -> date:
        return day if self.is_business_day(day) else self.add(day, 1)

    def on_or_before(self, day: date) -> date:
        return day if self.is_business_day(day) else self.add(day, -1)

    def between(self, start: date, end: date) -> int:
        """Business days in [start, end)."""
        return sum(1 for n in range((end - start).days) if self.is_business_day(start + timedelta(days=n)))

    def _check(self, day: date) -> None:
        if day.year not in YEARS:
            raise ValueError(f"the holiday table covers {YEARS[0]}-{YEARS[-1]}, not {day}")


@functools.cache
def _table() -> dict[str, Any]:
    return tomllib.loads(TABLE.read_text(encoding="utf-8"))


@functools.cache
def calendar(region: str) -> BusinessCalendar:
    """The business calendar of a region key of `places.REGIONS`."""
    data = _table().get(region)
    if data is None:
        raise KeyError(f"no holiday table for region {region!r}; regions: {', '.join(sorted(_table()))}")
    days = {h["date"]: Holiday(h["date"], h["name"], h.get("name_zh", "")) for h in data["holidays"]}
    return BusinessCalendar(region, days, frozenset(data.get("workdays", [])))


def expected_table() -> dict[str, dict[str, Any]]:
    """The table as the installed `holidays` package gives it (for scripts/holiday-table and the test)."""
    import holidays  # a development dependency: only writing and checking the table need it

    out: dict[str, dict[str, Any]] = {}
    for key, (code, options) in SOURCES.items():
        found = holidays.country_holidays(code, years=YEARS, language="en_US", **options)
        native = (
            holidays.country_holidays(code, years=YEARS, language=NATIVE_NAMES[key], **options)
            if key in NATIVE_NAMES
            else None
        )
        rows = []
        for day in sorted(found):
            row: dict[str, Any] = {"date": day, "name": "; ".join(sorted(found.get_list(day)))}
            if native is not None:
                row["name_zh"] = "；".join(sorted(native.get_list(day)))
            rows.append(row)
        workdays = sorted(d for d in getattr(found, "weekend_workdays", ()) if d.year in YEARS)
        out[key] = {"holidays": rows, "workdays": workdays}
    return out


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(table: dict[str, dict[str, Any]]) -> str:
    lines = [
        "# Public holidays and make-up working days by region, written by scripts/holiday-table from the",
        "# `holidays` package; do not edit by hand.",
    ]
    for key, data in table.items():
        lines += ["", f"[{key}]", "holidays = ["]
        for row in data["holidays"]:
            cells = [f"date = {row['date'].isoformat()}", f"name = {_toml_string(row['name'])}"]
            if "name_zh" in row:
                cells.append(f"name_zh = {_toml_string(row['name_zh'])}")
            lines.append("  {" + ", ".join(cells) + "},")
        lines.append("]")
        lines.append("workdays = [" + ", ".join(d.isoformat() for d in data["workdays"]) + "]")
    return "\n".join(lines) + "\n"


def as_events(region: str) -> list[dict[str, str]]:
    """The region's public holidays as the all-day events of a subscribed holiday calendar."""
    return [
        {
            "uid": f"hol-{on.isoformat()}",
            "summary": h.name,
            "start": on.isoformat(),
            "end": (on + timedelta(days=1)).isoformat(),
        }
        for on, h in sorted(calendar(region).holidays.items())
    ]
