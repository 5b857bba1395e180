"""Contacts: the user's CardDAV address book on Radicale, over plain HTTP (vCard 3.0)."""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date
from email.utils import parseaddr
from typing import Annotated, Any

import httpx
import vobject
from pydantic import Field, ValidationError

from stageclaw.tools import paging
from stageclaw.tools.base import ToolContext, ToolError, tool
from stageclaw.world import davstore, vcard
from stageclaw.world import state as world_state
from stageclaw.world.model import ContactSeed
from stageclaw.world.seeding import CONTACTS_COLLECTION

DAV = "DAV:"
CARDDAV = "urn:ietf:params:xml:ns:carddav"
SEARCH_PROPERTIES = ("FN", "EMAIL", "ORG", "TITLE", "TEL", "NOTE")
VCARD_TYPE = "text/vcard; charset=utf-8"
REREAD = "call contacts_get to read its current state, then retry"


@dataclass
class Card:
    href: str
    etag: str
    data: bytes

    def contact(self) -> dict[str, Any]:
        return world_state.cards(self.data)[0]


# The contact fields that hold each searchable vCard property.
_FIELDS = {"FN": "name", "EMAIL": "emails", "ORG": "organization", "TITLE": "title", "TEL": "phones", "NOTE": "notes"}


def _matches(contact: dict[str, Any], prop: str, text: str, match_type: str) -> bool:
    if prop == "UID":
        return bool(contact["uid"] == text) if match_type == "equals" else text in contact["uid"]
    value = contact[_FIELDS[prop]]
    values = value if isinstance(value, list) else [value]
    needle = text.casefold()
    if match_type == "equals":
        return any(v.casefold() == needle for v in values)
    return any(needle in v.casefold() for v in values)


class AddressBook:
    """The user's address book collection, through one kept-alive HTTP client."""

    def __init__(self, base_url: str, login: str, password: str) -> None:
        self.http = httpx.Client(base_url=base_url, auth=(login, password), timeout=15.0)
        self.path = f"/{login}/{CONTACTS_COLLECTION}/"

    def close(self) -> None:
        self.http.close()

    def query(self, props: list[tuple[str, str, str]] | None) -> list[Card]:
        """Cards matching any of `props` (vCard property, text, match-type), or every card when None.

        The server sends every card and the match runs here: a filtered addressbook-query makes
        Radicale parse each card of the book on every search, a plain one answers from its cache.
        """
        root = ET.Element(f"{{{CARDDAV}}}addressbook-query")
        prop = ET.SubElement(root, f"{{{DAV}}}prop")
        ET.SubElement(prop, f"{{{DAV}}}getetag")
        ET.SubElement(prop, f"{{{CARDDAV}}}address-data")
        resp = self.http.request(
            "REPORT",
            self.path,
            content=ET.tostring(root, encoding="utf-8", xml_declaration=True),
            headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"},
        )
        _check(resp, "search the address book")
        cards = []
        for response in ET.fromstring(resp.content).iter(f"{{{DAV}}}response"):
            href = response.findtext(f"{{{DAV}}}href") or ""
            for propstat in response.iter(f"{{{DAV}}}propstat"):
                data = propstat.findtext(f".//{{{CARDDAV}}}address-data")
                if data:
                    etag = propstat.findtext(f".//{{{DAV}}}getetag") or ""
                    cards.append(Card(href, etag, data.encode("utf-8")))
        if props is None:
            return cards
        return [card for card in cards if (found := card.contact()) and any(_matches(found, *p) for p in props)]

    def get(self, uid: str) -> Card:
        if not uid.strip():
            raise ToolError(
                "give the uid of a contact, e.g. 'c-1'; contacts_search shows the uids", "invalid_arguments"
            )
        # Seeding and contacts_create both name a card's resource after its uid.
        href = self.path + davstore.item_filename(uid, ".vcf")
        resp = self.http.get(href)
        if resp.status_code == 404 or (resp.status_code < 300 and Card(href, "", resp.content).contact()["uid"] != uid):
            raise ToolError(f"no contact with uid {uid!r}; use contacts_search to find the right uid")
        _check(resp, "read the contact")
        return Card(href, resp.headers.get("ETag", ""), resp.content)

    def delete(self, card: Card, *, action: str) -> None:
        """Remove a card, only if it is still the version read (its etag)."""
        resp = self.http.delete(card.href, headers={"If-Match": card.etag} if card.etag else {})
        if resp.status_code == 412:
            raise ToolError(f"could not {action}: the contact was changed meanwhile; {REREAD}")
        _check(resp, action)

    def put(self, href: str, data: bytes, *, etag: str | None, action: str) -> None:
        """Write a card: over the version with `etag`, or as a new resource when `etag` is None."""
        headers = {"Content-Type": VCARD_TYPE, **({"If-Match": etag} if etag else {"If-None-Match": "*"})}
        resp = self.http.put(href, content=data, headers=headers)
        if resp.status_code == 412:
            raise ToolError(f"could not {action}: the contact was changed meanwhile; {REREAD}")
        _check(resp, action)


def _check(resp: httpx.Response, action: str) -> None:
    status = resp.status_code
    if status < 300:
        return
    if status == 401:
        raise ToolError(f"could not {action}: the address book refused stageclaw's login", "internal")
    if status == 403:
        raise ToolError(f"could not {action}: the address book server refused it (403 Forbidden)")
    if status == 404:
        raise ToolError(f"could not {action}: not found on the address book server (404)")
    if status >= 500:
        raise ToolError(f"could not {action}: the address book server failed ({status})", "internal")
    raise ToolError(f"could not {action}: the address book server answered {status} {resp.reason_phrase}")


def _book(ctx: ToolContext) -> AddressBook:
    ep = ctx.episode.endpoints
    return ctx.client("carddav", lambda: AddressBook(ep.dav_url, ep.login, ep.password), AddressBook.close)


def _emails(values: list[str]) -> list[str]:
    out = []
    for value in values:
        addr = parseaddr(value)[1].strip().lower()
        if "@" not in addr or " " in addr:
            raise ToolError(
                f"{value!r} is not an email address; give addresses like 'priya@orbitals.io'", "invalid_arguments"
            )
        out.append(addr)
    return out


def _birthday(value: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ToolError(f"bad birthday {value!r}: use YYYY-MM-DD, e.g. 1990-05-17", "invalid_arguments") from None


def _replace(card: Any, key: str, values: list[Any]) -> None:
    card.contents.pop(key, None)
    for value in values:
        card.add(key).value = value


def _set_emails(card: Any, emails: list[str]) -> None:
    _replace(card, "email", emails)
    for i, line in enumerate(card.contents.get("email", [])):
        line.type_param = "INTERNET,PREF" if i == 0 else "INTERNET"


@tool("contacts", returns="{contacts: [CONTACT]}")
def contacts_search(
    ctx: ToolContext,
    query: Annotated[
        str,
        Field(
            description="Text to look for, e.g. 'priya', 'orbitals.io', '7946'; an empty string lists every contact."
        ),
    ],
    limit: paging.limit(50, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """Find contacts whose name, email, organization, job title, phone or notes contain `query`. Changes nothing.

    Matching is case-insensitive and on the text as written, so search one distinctive part (a first
    name, an email domain, a company) rather than a whole phrase. Returns {contacts: [CONTACT],
    total, next_cursor} sorted by name; each CONTACT is {uid, name, emails, phones, organization,
    title, notes, birthday}.
    """
    text = query.strip()
    pager: paging.Pager[dict[str, Any]] = paging.Pager(
        "contacts_search", {"query": text}, limit, cursor, default=50, noun="contacts"
    )
    book = _book(ctx)
    cards = book.query([(name, text, "contains") for name in SEARCH_PROPERTIES] if text else None)
    chosen = pager.window([c.contact() for c in cards], lambda c: (c["name"].casefold(), c["uid"]))
    contacts, fields = pager.finish(chosen)
    return {"contacts": contacts, **fields}


@tool("contacts", returns="CONTACT")
def contacts_get(
    ctx: ToolContext,
    uid: Annotated[str, Field(description="The contact's uid, as contacts_search returns it, e.g. 'c-1'.")],
) -> dict[str, Any]:
    """Read one contact by uid: {uid, name, emails, phones, organization, title, notes, birthday}. Changes nothing."""
    return _book(ctx).get(uid).contact()


@tool("contacts", returns="{contact: CONTACT}")
def contacts_update(
    ctx: ToolContext,
    uid: Annotated[str, Field(description="The uid of the contact to change, e.g. 'c-1'.")],
    name: Annotated[str | None, Field(description="New full name.")] = None,
    emails: Annotated[
        list[str] | None, Field(description="The complete new list of email addresses (replaces the old list).")
    ] = None,
    phones: Annotated[
        list[str] | None, Field(description="The complete new list of phone numbers (replaces the old list).")
    ] = None,
    organization: Annotated[str | None, Field(description="New company or organization; '' clears it.")] = None,
    title: Annotated[str | None, Field(description="New job title; '' clears it.")] = None,
    notes: Annotated[str | None, Field(description="New notes text (replaces the old notes); '' clears them.")] = None,
    birthday: Annotated[str | None, Field(description="New birthday as YYYY-MM-DD; '' clears it.")] = None,
) -> dict[str, Any]:
    """Change some fields of a contact; fields you leave out stay as they are. Returns {contact}.

    `emails` and `phones` replace the whole list: to add an address, read the contact first
    (contacts_get) and pass the old addresses plus the new one. Side effects: the changed fields only.
    """
    if all(v is None for v in (name, emails, phones, organization, title, notes, birthday)):
        raise ToolError(
            "contacts_update: give at least one field to change (name, emails, phones, organization, title, notes,"
            " birthday)",
            "invalid_arguments",
        )
    book = _book(ctx)
    card = book.get(uid)
    vc = vobject.readOne(card.data.decode("utf-8"))
    if name is not None:
        if not name.strip():
            raise ToolError("contacts_update: `name` cannot be empty", "invalid_arguments")
        given, _, family = name.strip().rpartition(" ")
        _replace(vc, "fn", [name.strip()])
        _replace(vc, "n", [vobject.vcard.Name(family=family, given=given)])
    if emails is not None:
        _set_emails(vc, _emails(emails))
    if phones is not None:
        _replace(vc, "tel", [p.strip() for p in phones if p.strip()])
    if organization is not None:
        _replace(vc, "org", [[organization.strip()]] if organization.strip() else [])
    for key, value in (("title", title), ("note", notes)):
        if value is not None:
            _replace(vc, key, [value] if value.strip() else [])
    if birthday is not None:
        _replace(vc, "bday", [_birthday(birthday)] if birthday.strip() else [])
    data = vc.serialize().encode("utf-8")
    book.put(card.href, data, etag=card.etag, action=f"update contact {uid!r}")
    return {"contact": vcard.cards_state(data)[0]}


@tool("contacts", returns="{uid}")
def contacts_create(
    ctx: ToolContext,
    name: Annotated[str, Field(description="Full name, e.g. 'Priya Raman'.")],
    emails: Annotated[list[str] | None, Field(description="Email addresses, the main one first.")] = None,
    phones: Annotated[list[str] | None, Field(description="Phone numbers, e.g. ['+44 20 7946 0991'].")] = None,
    organization: Annotated[str, Field(description="Company or organization.")] = "",
    title: Annotated[str, Field(description="Job title, e.g. 'Account Director'.")] = "",
    notes: Annotated[str, Field(description="Free-text notes.")] = "",
) -> dict[str, Any]:
    """Add a new contact to the address book; returns {uid}.

    Search first (contacts_search) so you do not create a duplicate of someone who is already there;
    to change an existing contact use contacts_update. Side effects: the new contact.
    """
    if not name.strip():
        raise ToolError("contacts_create: `name` cannot be empty", "invalid_arguments")
    uid = f"c-{uuid.uuid4().hex[:12]}"
    try:
        seed = ContactSeed(
            uid=uid,
            name=name.strip(),
            emails=_emails(emails or []),
            phones=[p.strip() for p in phones or [] if p.strip()],
            organization=organization.strip(),
            title=title.strip(),
            notes=notes,
        )
    except ValidationError as exc:
        raise ToolError(f"contacts_create: {exc.errors()[0]['msg']}", "invalid_arguments") from None
    book = _book(ctx)
    href = book.path + davstore.item_filename(uid, ".vcf")
    book.put(href, vcard.to_vcard(seed), etag=None, action="create the contact")
    return {"uid": uid}


@tool("contacts", returns="{deleted, name}")
def contacts_delete(
    ctx: ToolContext,
    uid: Annotated[str, Field(description="The uid of the contact to delete, e.g. 'c-1'.")],
) -> dict[str, Any]:
    """Delete a contact from the address book; returns {deleted, name}. Side effects: the deletion, which
    cannot be undone.

    To fold a duplicate into another contact without losing its details, use contacts_merge instead.
    """
    book = _book(ctx)
    card = book.get(uid)
    name = card.contact()["name"]
    book.delete(card, action=f"delete contact {uid!r}")
    return {"deleted": uid, "name": name}


# Properties that identify a card rather than describe the person: the merged card keeps the first's.
_OWN = {"version", "uid", "fn", "n", "prodid", "rev"}
# Properties the State JSON reads once: a second, different value is kept in the notes instead.
_SINGLE = {"org": "organization", "title": "job title", "bday": "birthday"}


def _line_text(line: Any) -> str:
    value = line.value
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value if v)
    return str(value).strip()


def _merge_into(card: Any, other: Any) -> None:
    """Add what `other` says about the person to `card`: every email, phone and other detail it lacks."""
    extra_notes: list[str] = []
    for name, lines in other.contents.items():
        if name in _OWN:
            continue
        mine = card.contents.get(name, [])
        if name == "email":
            known = {_line_text(line).lower() for line in mine}
        elif name == "tel":
            known = {re.sub(r"\D", "", _line_text(line)) for line in mine}
        else:
            known = {_line_text(line) for line in mine}
        for line in lines:
            text = _line_text(line)
            key = text.lower() if name == "email" else re.sub(r"\D", "", text) if name == "tel" else text
            if not text or key in known:
                continue
            known.add(key)
            if name == "note" and mine:
                mine[0].value = f"{mine[0].value}\n\n{line.value}"
            elif name in _SINGLE and mine:
                extra_notes.append(f"{_SINGLE[name].capitalize()} (from a merged duplicate): {text}")
            else:
                added = card.add(name)
                added.value = line.value
                added.params = {k: list(v) for k, v in line.params.items()}
                if name == "email":  # the first card's primary address stays the only preferred one
                    added.value, added.type_param = text.lower(), "INTERNET"
                mine = card.contents[name]
    if extra_notes:
        notes = card.contents.get("note")
        text = "\n".join(extra_notes)
        if notes:
            notes[0].value = f"{notes[0].value}\n\n{text}"
        else:
            card.add("note").value = text


@tool("contacts", returns="{contact: CONTACT, deleted: [uid]}")
def contacts_merge(
    ctx: ToolContext,
    uids: Annotated[
        list[str],
        Field(description="Two or more contacts to merge, the one to keep first, e.g. ['c-1', 'c-7']."),
    ],
) -> dict[str, Any]:
    """Merge duplicate contacts into the first one; returns {contact, deleted}.

    The first contact keeps its uid and name and gains every email address, phone number and other
    detail of the others that it lacks; notes are joined, and an organization, job title or
    birthday that differs from the first's is kept as a line in its notes, so nothing is lost.
    Side effects: the first contact is rewritten, then the others are deleted.
    """
    if len(uids) < 2:
        raise ToolError("contacts_merge: give two or more uids, the contact to keep first", "invalid_arguments")
    if len(set(uids)) != len(uids):
        raise ToolError("contacts_merge: each uid may appear only once", "invalid_arguments")
    book = _book(ctx)
    cards = [book.get(uid) for uid in uids]
    merged = vobject.readOne(cards[0].data.decode("utf-8"))
    for card in cards[1:]:
        _merge_into(merged, vobject.readOne(card.data.decode("utf-8")))
    data = merged.serialize().encode("utf-8")
    # Write the merged card before deleting anything: a failure part-way loses no detail.
    book.put(cards[0].href, data, etag=cards[0].etag, action=f"update contact {uids[0]!r}")
    for uid, card in zip(uids[1:], cards[1:], strict=True):
        book.delete(card, action=f"delete the merged contact {uid!r}")
    return {"contact": vcard.cards_state(data)[0], "deleted": uids[1:]}
