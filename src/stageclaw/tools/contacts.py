"""Contacts: the user's CardDAV address book on Radicale, over plain HTTP (vCard 3.0)."""

from __future__ import annotations

import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date
from email.utils import parseaddr
from typing import Annotated, Any

import httpx
import vobject
from pydantic import Field, ValidationError

from stageclaw.tools.base import ToolContext, ToolError, tool
from stageclaw.world import davstore, vcard
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
        return vcard.cards_state(self.data)[0]


class AddressBook:
    """The user's address book collection, through one kept-alive HTTP client."""

    def __init__(self, base_url: str, login: str, password: str) -> None:
        self.http = httpx.Client(base_url=base_url, auth=(login, password), timeout=15.0)
        self.path = f"/{login}/{CONTACTS_COLLECTION}/"

    def close(self) -> None:
        self.http.close()

    def query(self, props: list[tuple[str, str, str]] | None) -> list[Card]:
        """Cards matching any of `props` (name, text, match-type), or every card when None."""
        root = ET.Element(f"{{{CARDDAV}}}addressbook-query")
        prop = ET.SubElement(root, f"{{{DAV}}}prop")
        ET.SubElement(prop, f"{{{DAV}}}getetag")
        ET.SubElement(prop, f"{{{CARDDAV}}}address-data")
        if props is not None:
            filt = ET.SubElement(root, f"{{{CARDDAV}}}filter", test="anyof")
            for name, text, match_type in props:
                pf = ET.SubElement(filt, f"{{{CARDDAV}}}prop-filter", name=name)
                # An exact UID lookup is case-sensitive; searches fold case on the server.
                collation = "i;octet" if match_type == "equals" else "i;unicode-casemap"
                tm = ET.SubElement(pf, f"{{{CARDDAV}}}text-match", collation=collation)
                tm.set("match-type", match_type)
                tm.text = text
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
        return cards

    def get(self, uid: str) -> Card:
        if not uid.strip():
            raise ToolError(
                "give the uid of a contact, e.g. 'c-1'; contacts_search shows the uids", "invalid_arguments"
            )
        found = self.query([("UID", uid, "equals")])
        if not found:
            raise ToolError(f"no contact with uid {uid!r}; use contacts_search to find the right uid")
        return found[0]

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
) -> dict[str, Any]:
    """Find contacts whose name, email, organization, job title, phone or notes contain `query`.

    Matching is case-insensitive and on the text as written, so search one distinctive part (a first
    name, an email domain, a company) rather than a whole phrase. Returns {contacts: [CONTACT]} sorted
    by name; each CONTACT is {uid, name, emails, phones, organization, title, notes, birthday}.
    """
    text = query.strip()
    book = _book(ctx)
    cards = book.query([(name, text, "contains") for name in SEARCH_PROPERTIES] if text else None)
    contacts = [c.contact() for c in cards]
    contacts.sort(key=lambda c: (c["name"].casefold(), c["uid"]))
    return {"contacts": contacts}


@tool("contacts", returns="CONTACT")
def contacts_get(
    ctx: ToolContext,
    uid: Annotated[str, Field(description="The contact's uid, as contacts_search returns it, e.g. 'c-1'.")],
) -> dict[str, Any]:
    """Read one contact by uid: {uid, name, emails, phones, organization, title, notes, birthday}."""
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
    (contacts_get) and pass the old addresses plus the new one.
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
    to change an existing contact use contacts_update.
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
