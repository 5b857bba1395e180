"""Contacts as vCard 3.0 (what Radicale's CardDAV stores) and as State JSON."""

from __future__ import annotations

from datetime import date
from typing import Any

import vobject

from stageclaw.world import contentline
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
    """One vCard 3.0, written as content lines (see `contentline`); vobject reads it back."""
    given, _, family = seed.name.rpartition(" ")
    lines = ["BEGIN:VCARD", "VERSION:3.0", contentline.line("UID", contentline.text(seed.uid))]
    lines.append(contentline.line("FN", contentline.text(seed.name)))
    lines.append(contentline.line("N", f"{contentline.text(family)};{contentline.text(given)};;;"))
    for i, addr in enumerate(seed.emails):
        kind = "INTERNET,PREF" if i == 0 else "INTERNET"
        lines.append(contentline.line("EMAIL", contentline.text(addr.strip().lower()), [("TYPE", kind)]))
    lines += [contentline.line("TEL", contentline.text(phone)) for phone in seed.phones]
    for name, value in (("ORG", seed.organization), ("TITLE", seed.title), ("NOTE", seed.notes)):
        if value:
            lines.append(contentline.line(name, contentline.text(value)))
    if seed.birthday:
        lines.append(contentline.line("BDAY", seed.birthday.isoformat()))
    lines.append("END:VCARD")
    return (contentline.CRLF.join(lines) + contentline.CRLF).encode()


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
