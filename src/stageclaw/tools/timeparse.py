"""Times as agents write them: ISO 8601, where a time without an offset is in the task's timezone."""

from __future__ import annotations

from datetime import date, datetime, tzinfo

from stageclaw.tools.base import ToolError

HINT = "use ISO 8601, e.g. 2026-03-12T15:00 (task timezone), 2026-03-12T15:00:00+00:00 or 2026-03-12"


def parse_when(value: str, tz: tzinfo, field: str = "time") -> date | datetime:
    """A date (`YYYY-MM-DD`) or an aware datetime."""
    text = str(value).strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        raise ToolError(f"bad {field} {value!r}: {HINT}", "invalid_arguments") from None
    return parsed.replace(tzinfo=tz) if parsed.tzinfo is None else parsed


def parse_datetime(value: str, tz: tzinfo, field: str = "time") -> datetime:
    """An aware datetime; a bare date means its midnight in the task's timezone."""
    parsed = parse_when(value, tz, field)
    if isinstance(parsed, datetime):
        return parsed
    return datetime(parsed.year, parsed.month, parsed.day, tzinfo=tz)
