"""Canonical forms of values in the State JSON.

Seeding, normalizing a world.yaml and snapshotting the live stores all pass their values
through these functions, so a value means the same thing whichever way it was produced.
"""

from __future__ import annotations

import email.header
import email.utils
import functools
from datetime import date, datetime, tzinfo

SYSTEM_FLAGS = ("\\Answered", "\\Deleted", "\\Draft", "\\Flagged", "\\Seen")


def when(value: date | datetime | None, tz: tzinfo) -> str | None:
    """ISO 8601 in the task's timezone; all-day values stay `YYYY-MM-DD`.

    A naive datetime is a wall-clock time in the task's timezone (the DESIGN rule for
    times without an offset).
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=tz)
        return value.astimezone(tz).replace(microsecond=0).isoformat()
    return value.isoformat()


def decode_words(value: str | None) -> str:
    """Decode RFC 2047 encoded words of a header into plain text."""
    if not value:
        return ""
    parts = []
    for chunk, charset in email.header.decode_header(str(value)):
        if isinstance(chunk, bytes):
            parts.append(chunk.decode(charset or "ascii", errors="replace"))
        else:
            parts.append(chunk)
    return " ".join("".join(parts).split())


def _join(name: str, addr: str) -> str:
    addr = addr.strip().lower()
    return f"{name} <{addr}>" if name else addr


# A world names the same few hundred people thousands of times; parsing an address is slow.
@functools.lru_cache(maxsize=65536)
def _canonical(value: str) -> tuple[str, ...]:
    return tuple(_join(decode_words(name), addr) for name, addr in email.utils.getaddresses([value]) if addr)


def addresses(values: list[str] | str | None) -> list[str]:
    """Canonical addresses of a header value or a list of them, in their order."""
    raw = [values] if isinstance(values, str) else list(values or [])
    return [found for value in raw for found in _canonical(str(value))]


def address(value: str) -> str:
    """`Name <addr>` or `addr`, the address part lower-cased."""
    found = _canonical(value)
    return found[0] if found else " ".join(value.split())


@functools.lru_cache(maxsize=65536)
def parse_address(value: str) -> tuple[str, str]:
    """(display name, address) of one mailbox, as `email.utils.parseaddr` gives them."""
    return email.utils.parseaddr(value)


@functools.lru_cache(maxsize=65536)
def mailbox_list(value: str) -> tuple[tuple[str, str], ...]:
    """(display name, address) of every mailbox in a header value, as `email.utils.getaddresses` gives them."""
    return tuple(email.utils.getaddresses([value]))


@functools.lru_cache(maxsize=65536)
def bare_address(value: str) -> str:
    """Only the lower-cased address part of `Name <addr>`."""
    return email.utils.parseaddr(value)[1].strip().lower()


def mail_text(value: str | None) -> str:
    """A message body as its reader sees it: LF line ends, no trailing blank space."""
    if not value:
        return ""
    return value.replace("\r\n", "\n").replace("\r", "\n").rstrip()


def flags(values: list[str]) -> list[str]:
    """IMAP flags, sorted, with system flags in their canonical capitalisation."""
    by_lower = {f.lower(): f for f in SYSTEM_FLAGS}
    out = {by_lower.get(v.lower(), v) for v in values if v.lower() != "\\recent"}
    return sorted(out)


def clear_caches() -> None:
    """Forget every parsed address (a cold start, for benchmarks)."""
    for cache in (_canonical, parse_address, mailbox_list):
        cache.cache_clear()
