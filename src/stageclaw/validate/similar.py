"""How alike two items are: the look-alikes a careless agent confuses with its target.

Used to pick distractors for mutants and as evidence of noise and conflicts in a world.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from stageclaw.world.canonical import bare_address

# A contact's `title` is its job title: its name comes first.
LABEL_FIELDS = ("summary", "subject", "name", "title")
PEOPLE_FIELDS = ("from", "to", "cc", "attendees", "organizer", "emails")
NEAR_DUPLICATE = 0.75
_WORD = re.compile(r"[^\W\d_]{3,}")


def label(key: str, item: dict[str, Any]) -> str:
    """What a person calls the item: its title, name or subject; a file by its path."""
    for name in LABEL_FIELDS:
        value = item.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return key


def person_entries(item: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, `Name <addr>` or `addr`) of every person an item names."""
    out = []
    for name in PEOPLE_FIELDS:
        value = item.get(name)
        out += [(name, v) for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v]
    return out


def people(item: dict[str, Any]) -> set[str]:
    """The bare addresses an item names."""
    return {a for a in (bare_address(v) for _, v in person_entries(item)) if a}


def ratio(a: str, b: str) -> float:
    return SequenceMatcher(None, a.lower(), b.lower()).ratio()


def similarity(key_a: str, a: dict[str, Any], key_b: str, b: dict[str, Any]) -> float:
    """Label likeness, plus a bonus for naming the same people."""
    shared = people(a) & people(b)
    return ratio(label(key_a, a), label(key_b, b)) + (0.3 if shared else 0.0)


def alike(key_a: str, a: dict[str, Any], key_b: str, b: dict[str, Any]) -> bool:
    """Whether `similarity` reaches NEAR_DUPLICATE; the matcher's cheap upper bounds settle most pairs."""
    bonus = 0.3 if people(a) & people(b) else 0.0
    matcher = SequenceMatcher(None, label(key_a, a).lower(), label(key_b, b).lower())
    if matcher.real_quick_ratio() + bonus < NEAR_DUPLICATE or matcher.quick_ratio() + bonus < NEAR_DUPLICATE:
        return False
    return matcher.ratio() + bonus >= NEAR_DUPLICATE


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text or "")}
