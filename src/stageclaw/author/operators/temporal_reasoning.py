"""temporal_reasoning: the right answer takes reasoning about time, not just reading it off.

The kinds a family can plant, each with the helpers that compute the right answer:

- `dst`: a clock change falls between now and the time in question, or inside a meeting series,
  so an hour offset that held last week no longer does (`dst_changes`, `offset_on`);
- `recurrence_exception`: the occurrence that matters was moved, cancelled or deleted from its
  series (`occurrences` applies EXDATEs and overrides);
- `relative_day`: "the Friday before the board meeting", "the first Monday after the holiday"
  (`weekday_before`, `weekday_after`);
- `business_days`: "within three working days", across the region's public holidays and make-up
  working days (`add_business_days`, `business_days_between`; tables in `content.holidays`);
- `time_zones`: a traveller or a colleague abroad gives times in their zone, on a day when the
  gap between the zones is not the usual one (`zone_gap`, `in_zone`);
- `fiscal_year`: what counts is the tax or financial year a date falls in, and that year is not
  the calendar year (the United Kingdom's starts on 6 April, Australia's on 1 July).

`record` keeps what the family planted as evidence: the kind, the facts the answer rests on, and
the rubric items that check it. Phrasings for prompts and mails are in `PHRASES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content import holidays
from stageclaw.author.draft import TaskDraft
from stageclaw.world import recurrence

NAME = "temporal_reasoning"
KINDS = ("dst", "recurrence_exception", "relative_day", "business_days", "time_zones", "fiscal_year")

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "weekday_before": {
        "en": ("the {weekday} before {what}", "on the {weekday} ahead of {what}"),
        "zh": ("{what}之前的那个{weekday}", "{what}前一个{weekday}"),
    },
    "weekday_after": {
        "en": ("the first {weekday} after {what}", "the {weekday} following {what}"),
        "zh": ("{what}之后的第一个{weekday}", "{what}后的那个{weekday}"),
    },
    "business_days": {
        "en": ("within {n} working days of {what}", "{n} business days after {what}"),
        "zh": ("{what}后{n}个工作日内", "{what}之后的第{n}个工作日"),
    },
    "their_time": {
        "en": ("{time} my time", "{time} {city} time", "{time} here"),
        "zh": ("我这边{time}", "{city}时间{time}"),
    },
}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


def weekday_before(day: date, weekday: int) -> date:
    """The last `weekday` (0 = Monday) strictly before `day`: the Friday before a Friday is a week earlier."""
    back = (day.weekday() - weekday) % 7 or 7
    return day - timedelta(days=back)


def weekday_after(day: date, weekday: int) -> date:
    """The first `weekday` strictly after `day`."""
    ahead = (weekday - day.weekday()) % 7 or 7
    return day + timedelta(days=ahead)


def add_business_days(region: str, day: date, n: int) -> date:
    """The n-th working day after `day` in `region` (before it for a negative n), skipping weekends and
    public holidays and counting make-up working days."""
    return holidays.calendar(region).add(day, n)


def business_days_between(region: str, start: date, end: date) -> int:
    """Working days in [start, end) in `region`."""
    return holidays.calendar(region).between(start, end)


@dataclass(frozen=True)
class Change:
    """A clock change: at `at` (UTC) the zone's offset goes from `before` to `after`."""

    at: datetime
    before: timedelta
    after: timedelta

    @property
    def forward(self) -> bool:
        return self.after > self.before


def dst_changes(tz: str, start: date, end: date) -> list[Change]:
    """The clock changes of zone `tz` between two dates (to the hour: zones change on the hour)."""
    zone = ZoneInfo(tz)
    out = []
    moment = datetime.combine(start, datetime.min.time(), UTC)
    stop = datetime.combine(end, datetime.min.time(), UTC)
    offset = moment.astimezone(zone).utcoffset()
    while moment < stop:
        nxt = moment + timedelta(hours=1)
        now = nxt.astimezone(zone).utcoffset()
        if now != offset:
            assert offset is not None and now is not None
            out.append(Change(nxt, offset, now))
            offset = now
        moment = nxt
    return out


def offset_on(tz: str, moment: datetime) -> timedelta:
    """The zone's UTC offset at `moment`."""
    return moment.astimezone(ZoneInfo(tz)).utcoffset() or timedelta()


def zone_gap(tz_a: str, tz_b: str, moment: datetime) -> timedelta:
    """How far ahead zone `a` is of zone `b` at `moment`; it changes when only one of them switches."""
    return offset_on(tz_a, moment) - offset_on(tz_b, moment)


def in_zone(local: datetime, tz: str) -> datetime:
    """A wall-clock time given in zone `tz` (naive, or aware in any zone) as an aware time there."""
    zone = ZoneInfo(tz)
    return local.replace(tzinfo=zone) if local.tzinfo is None else local.astimezone(zone)


def occurrences(
    event: dict[str, Any], tz: tzinfo, start: datetime, end: datetime
) -> list[tuple[date | datetime, dict[str, Any]]]:
    """The occurrences of a world.yaml event (a dict with `start`, `rrule`, `exdates`, `overrides`) that
    start in [start, end): (their start as held, the override that changed them or {}), skipping deleted
    and cancelled ones; a moved occurrence is where it moved to."""

    def when(value: str) -> date | datetime:
        return date.fromisoformat(value) if len(value) == 10 else datetime.fromisoformat(value)

    def as_instant(value: date | datetime) -> datetime:
        if isinstance(value, datetime):
            return value if value.tzinfo else value.replace(tzinfo=tz)
        return datetime.combine(value, datetime.min.time(), tz)

    first = when(event["start"])
    if not event.get("rrule"):
        return [(first, {})] if start <= as_instant(first) < end else []
    skipped = {as_instant(when(v)) for v in event.get("exdates", [])}
    overrides = {as_instant(when(o["recurrence_id"])): o for o in event.get("overrides", [])}
    out = []
    for original in recurrence.starts(event["rrule"], first, tz, until=end):
        moment = as_instant(original)
        if moment in skipped:
            continue
        override = overrides.get(moment, {})
        if override.get("status") == "CANCELLED":
            continue
        held = when(override["start"]) if "start" in override else original
        if start <= as_instant(held) < end:
            out.append((held, override))
    return sorted(out, key=lambda pair: as_instant(pair[0]))


def weekday_name(day: date, locale: str = "en") -> str:
    return (WEEKDAYS_ZH if locale == "zh" else WEEKDAYS)[day.weekday()]


def phrase(key: str, locale: str, choice: int = 0, **values: Any) -> str:
    options = PHRASES[key]["zh" if locale == "zh" else "en"]
    return options[choice % len(options)].format(**values)


def record(draft: TaskDraft, *, kind: str, facts: list[str], items: list[str], region: str | None = None) -> None:
    """Evidence that the task rests on `kind` of reasoning: the `facts` it uses (in words, with the
    dates and offsets) and the rubric items that check the answer."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    missing = [i for i in items if i not in {c.id for c in draft.checks}]
    if missing:
        raise ValueError(f"rubric items {missing} do not exist yet")
    entry: dict[str, Any] = {"kinds": [kind], "facts": facts, "items": items}
    if region is not None:
        entry["regions"] = [region]
    draft.record(NAME, entry)
