"""Plausible wrong values: a time off by an hour, a day or the time-zone offset; another
recipient from the same world; a typo; another file with a similar name; a changed digit.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.validate import paths
from stageclaw.validate.similar import person_entries, ratio, words
from stageclaw.world.canonical import address, bare_address

_NUMBER = re.compile(r"\d+(?:[.,]\d{3})*")
_WORD = re.compile(r"[^\W\d_]{3,}")
# Function words of the languages the tasks are written in; they say nothing about which fact a
# number belongs to.
# fmt: off
STOPWORDS = {
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not", "but",
    "its", "his", "her", "she", "him", "they", "them", "you", "your", "our", "who", "which", "what", "when", "than",
    "then", "there", "their", "one", "all", "any", "each", "per", "into", "onto", "only", "also", "new", "der",
    "die", "das", "und", "mit", "von", "für", "den", "dem", "des", "ein", "eine", "ist", "nicht", "auf", "los",
    "las", "del", "con", "por", "para", "una", "que", "les", "une", "est", "pour", "avec",
}
# fmt: on


def time_shifts(value: str, tz: ZoneInfo) -> list[tuple[str, timedelta]]:
    """The near misses of a time: an hour, a day, and the zone's UTC offset (the classic 'forgot the zone')."""
    if len(value) == 10:
        return [("1 day later", timedelta(days=1)), ("1 day earlier", timedelta(days=-1))]
    shifts = [
        ("1 h later", timedelta(hours=1)),
        ("1 h earlier", timedelta(hours=-1)),
        ("1 day later", timedelta(days=1)),
        ("1 day earlier", timedelta(days=-1)),
    ]
    try:
        offset = datetime.fromisoformat(value).astimezone(tz).utcoffset() or timedelta()
    except ValueError:
        return []
    if abs(offset) > timedelta(hours=1):
        hours = offset.total_seconds() / 3600
        shifts += [
            (f"off by the time-zone offset ({hours:+g} h)", offset),
            (f"off by the time-zone offset ({-hours:+g} h)", -offset),
        ]
    return shifts


def shifted(value: str, delta: timedelta, tz: ZoneInfo) -> str | None:
    """`value` moved by `delta`, written as the state writes times (in the task's zone)."""
    try:
        if len(value) == 10:
            return (date.fromisoformat(value) + delta).isoformat() if not delta % timedelta(days=1) else None
        return (datetime.fromisoformat(value) + delta).astimezone(tz).isoformat()
    except ValueError:
        return None


def address_book(state: dict[str, Any], user: str) -> dict[str, str]:
    """Every address the world knows (bare address -> its `Name <addr>` form), but the user's own."""
    book: dict[str, str] = {}
    for _, _, item in paths.items(state):
        for _, v in person_entries(item):
            addr = bare_address(v)
            if addr and addr != user and ("<" in v or addr not in book):
                book[addr] = address(v)
    return book


def _person_words(entry: str) -> set[str]:
    addr = bare_address(entry)
    return words(entry.replace(addr, " ")) | words(re.sub(r"[._+-]", " ", addr.split("@")[0]))


def alternatives(entry: str, book: dict[str, str], limit: int = 2) -> list[str]:
    """Other people the agent could have picked: same domain, same name, similar address first."""
    target = bare_address(entry)
    domain = target.rpartition("@")[2]
    mine = _person_words(entry)

    def score(addr: str) -> float:
        same_domain = 2.0 if addr.rpartition("@")[2] == domain else 0.0
        shared = 1.5 if mine & _person_words(book[addr]) else 0.0
        return same_domain + shared + ratio(addr.split("@")[0], target.split("@")[0])

    ranked = sorted((a for a in book if a != target), key=lambda a: (-score(a), a))
    return [book[a] for a in ranked[:limit]]


def with_address(entry: str, new: str) -> str:
    """`entry` with its address part replaced, keeping the display name."""
    old = bare_address(entry)
    new_addr = bare_address(new) or new
    return entry.replace(old, new_addr) if old and old in entry else new_addr


def typo(entry: str) -> str | None:
    """Two neighbouring letters of the address's local part swapped."""
    addr = bare_address(entry)
    local, _, domain = addr.partition("@")
    for i in range(len(local) // 2, len(local) - 1):
        if local[i] != local[i + 1] and local[i].isalpha() and local[i + 1].isalpha():
            wrong = local[:i] + local[i + 1] + local[i] + local[i + 2 :]
            return with_address(entry, f"{wrong}@{domain}")
    return None


def bump_last_digit(text: str) -> str | None:
    """The last digit of `text` changed (a phone number one digit off)."""
    for i in range(len(text) - 1, -1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]
    return None


def files_pool(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every file of a world as an attachment would carry it: attachments and workspace files."""
    pool = []
    for container, key, item in paths.items(state):
        if container == "files":
            pool.append({"filename": key.rsplit("/", 1)[-1], "sha256": item.get("sha256"), "size": item.get("size")})
        elif container.startswith("mail/"):
            pool += [{k: att.get(k) for k in ("filename", "sha256", "size")} for att in item.get("attachments") or []]
    return pool


def other_files(attachment: dict[str, Any], pool: list[dict[str, Any]], limit: int = 2) -> list[dict[str, Any]]:
    """Files with the most similar names but other contents (the void original next to the correction)."""
    seen = {attachment.get("sha256")}
    ranked = sorted(pool, key=lambda f: (-ratio(str(f["filename"]), str(attachment.get("filename"))), f["filename"]))
    out = []
    for f in ranked:
        if f["sha256"] not in seen:
            seen.add(f["sha256"])
            out.append(f)
    return out[:limit]


def _context(text: str, start: int, end: int, width: int = 4) -> set[str]:
    found = [(m.start(), m.end(), m.group(0).lower()[:5]) for m in _WORD.finditer(text)]
    found = [f for f in found if f[2] not in STOPWORDS]
    left = [stem for s, e, stem in found if e <= start][-width:]
    right = [stem for s, e, stem in found if s >= end][:width]
    return set(left) | set(right)


def _numbers(text: str) -> list[tuple[int, int, str]]:
    # Minutes ("15:00") are left alone: the hour is the fact, a minute off is noise.
    return [(m.start(), m.end(), m.group(0)) for m in _NUMBER.finditer(text) if text[m.start() - 1 : m.start()] != ":"]


def stated_numbers(descriptions: list[str]) -> dict[str, set[str]]:
    """The numbers rubric descriptions state, each with the words around it."""
    stated: dict[str, set[str]] = {}
    for text in descriptions:
        for start, end, token in _numbers(text):
            stated.setdefault(token, set()).update(_context(text, start, end))
    return stated


def numbers_to_nudge(text: str, stated: dict[str, set[str]]) -> list[tuple[int, int, str]]:
    """Occurrences in `text` of a stated number used for the same thing.

    "The same thing" means two words around it in common: one shared word is too weak (a year
    next to 'corrected' in a cover note is not the corrected statement the rubric is about).
    """
    return [
        (start, end, token)
        for start, end, token in _numbers(text)
        if token in stated and len(stated[token] & _context(text, start, end)) >= 2
    ]
