"""Content lines of iCalendar (RFC 5545) and vCard (RFC 2426), written directly.

Seeding writes thousands of events and cards; building each through a component library
costs a few hundred microseconds, writing its lines costs a few. Values are escaped and lines
folded here, in one place; reading stays with the libraries (icalendar, vobject), so every
seeded item is checked by the round trip `snapshot(build(world)) == normalize(world)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, tzinfo

CRLF = "\r\n"
_LIMIT = 75  # octets per line, the line break aside (RFC 5545 3.1)
_TEXT = str.maketrans({"\\": "\\\\", ";": "\\;", ",": "\\,"})
_UTC_KEYS = {"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu", "GMT", "Etc/GMT"}


def text(value: str) -> str:
    """A TEXT value: backslash, semicolon, comma and line breaks escaped."""
    value = value.translate(_TEXT)
    if "\n" in value or "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return value


def param(value: str) -> str:
    """A parameter value, quoted when it holds a separator; a double quote cannot appear in one."""
    value = value.replace('"', "'").replace("\r", " ").replace("\n", " ")
    return f'"{value}"' if any(c in value for c in ":;,") else value


def fold(line: str) -> str:
    """Split a line longer than 75 octets into continuation lines, never inside a character."""
    if len(line) <= _LIMIT // 4 or len(line.encode()) <= _LIMIT:
        return line
    out, chunk, size, limit = [], [], 0, _LIMIT
    for char in line:
        width = len(char.encode())
        if size + width > limit:
            out.append("".join(chunk))
            chunk, size, limit = [], 0, _LIMIT - 1  # a continuation starts with one space
        chunk.append(char)
        size += width
    out.append("".join(chunk))
    return (CRLF + " ").join(out)


def line(name: str, value: str, params: Iterable[tuple[str, str]] = ()) -> str:
    head = name + "".join(f";{key}={val}" for key, val in params)
    return fold(f"{head}:{value}")


def is_utc(tz: tzinfo) -> bool:
    return getattr(tz, "key", None) in _UTC_KEYS or tz is UTC


def when(name: str, value: date | datetime, tz: tzinfo, *, utc: bool = False) -> str:
    """A DATE or DATE-TIME property: a date as VALUE=DATE, a time with the zone's TZID (or in UTC)."""
    if not isinstance(value, datetime):
        return line(name, value.strftime("%Y%m%d"), [("VALUE", "DATE")])
    local = value.replace(tzinfo=tz) if value.tzinfo is None else value.astimezone(tz)
    if utc or is_utc(tz):
        return line(name, local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ"))
    return line(name, local.strftime("%Y%m%dT%H%M%S"), [("TZID", tz_name(tz))])


def when_list(name: str, values: list[date | datetime], tz: tzinfo) -> str:
    """EXDATE and the like: several values of one kind on one line."""
    if not isinstance(values[0], datetime):
        return line(name, ",".join(v.strftime("%Y%m%d") for v in values), [("VALUE", "DATE")])
    local = [v.replace(tzinfo=tz) if v.tzinfo is None else v.astimezone(tz) for v in values]
    if is_utc(tz):
        return line(name, ",".join(v.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ") for v in local))
    return line(name, ",".join(v.strftime("%Y%m%dT%H%M%S") for v in local), [("TZID", tz_name(tz))])


def tz_name(tz: tzinfo) -> str:
    key = getattr(tz, "key", None)
    if not key:
        raise ValueError(f"{tz!r} has no IANA name to write as a TZID")
    return str(key)
