"""The classic slips of a kind of item: a time off by an hour, a day or the time-zone offset;
another recipient from the same world; a typo; another file with a similar name; a value the
rubric states, changed where the changed text states it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.validate import paths, values
from stageclaw.validate.similar import person_entries, ratio, words
from stageclaw.world.canonical import address, bare_address


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
    wrong = values.swap_letters(bare_address(entry))
    return with_address(entry, wrong) if wrong else None


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


def stated_values(descriptions: list[str]) -> dict[tuple[str, Any], set[str]]:
    """The values rubric descriptions state, each (kind, value) with the words around it."""
    stated: dict[tuple[str, Any], set[str]] = {}
    for text in descriptions:
        for token in values.tokens(text):
            stated.setdefault((token.kind, token.value), set()).update(token.context)
    return stated


def values_to_nudge(text: str, stated: dict[tuple[str, Any], set[str]]) -> list[values.Token]:
    """Occurrences in `text` of a stated value used for the same thing.

    "The same thing" means two words around it in common: one shared word is too weak (a year
    next to 'corrected' in a cover note is not the corrected statement the rubric is about).
    """
    return [
        token for token in values.tokens(text) if len(stated.get((token.kind, token.value), set()) & token.context) >= 2
    ]
