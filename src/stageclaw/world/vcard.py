"""Contacts as vCard 3.0 (what Radicale's CardDAV stores) and as State JSON."""

from __future__ import annotations

from datetime import date
from typing import Any

import vobject

from stageclaw.world.model import ContactSeed


def contact_state(seed: ContactSeed) -> dict[str, Any]:
    return {
        "uid": seed.uid,
        "name": seed.name,
        "emails": [e.strip().lower() for e in seed.emails],
        "phones": list(seed.phones),
        "organization": seed.organization,
        "title": seed.title,
        "notes": seed.notes,
        "birthday": seed.birthday.isoformat() if seed.birthday else None,
    }


def to_vcard(seed: ContactSeed) -> bytes:
    card = vobject.vCard()
    card.add("uid").value = seed.uid
    card.add("fn").value = seed.name
    given, _, family = seed.name.rpartition(" ")
    card.add("n").value = vobject.vcard.Name(family=family, given=given)
    for i, addr in enumerate(seed.emails):
        line = card.add("email")
        line.value = addr.strip().lower()
        line.type_param = "INTERNET,PREF" if i == 0 else "INTERNET"
    for phone in seed.phones:
        card.add("tel").value = phone
    if seed.organization:
        card.add("org").value = [seed.organization]
    if seed.title:
        card.add("title").value = seed.title
    if seed.notes:
        card.add("note").value = seed.notes
    if seed.birthday:
        card.add("bday").value = seed.birthday.isoformat()
    return card.serialize().encode()


def _values(card: Any, name: str) -> list[Any]:
    return [line.value for line in card.contents.get(name, [])]


def _first(card: Any, name: str) -> str:
    values = _values(card, name)
    if not values:
        return ""
    value = values[0]
    if isinstance(value, list):
        value = ", ".join(v for v in value if v)
    return str(value)


def _birthday(raw: str) -> str | None:
    if not raw:
        return None
    digits = raw.replace("-", "")[:8]
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:8])).isoformat()
    except ValueError:
        return raw


def cards_state(data: bytes) -> list[dict[str, Any]]:
    """Every vCard in one `.vcf` resource, as State JSON contacts."""
    out = []
    for card in vobject.readComponents(data.decode("utf-8", errors="replace")):
        out.append(
            {
                "uid": _first(card, "uid"),
                "name": _first(card, "fn"),
                "emails": [str(v).strip().lower() for v in _values(card, "email")],
                "phones": [str(v) for v in _values(card, "tel")],
                "organization": _first(card, "org"),
                "title": _first(card, "title"),
                "notes": _first(card, "note"),
                "birthday": _birthday(_first(card, "bday")),
            }
        )
    return out
