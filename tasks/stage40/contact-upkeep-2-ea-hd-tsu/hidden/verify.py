"""Checks for contact-upkeep-2-ea-hd-tsu: Abdullah Nasser changed jobs, Mathilde Perrin moved, Bastien Lemaire has new details."""

from __future__ import annotations

import re


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def _line(phone: Any) -> str:
    """The last eight digits of a phone number: the same line whether written with +49, 0049 or 0."""
    return re.sub(r"\D", "", str(phone or ""))[-8:]


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def contact_is(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    uid: str,
    label: str,
    name: str | None = None,
    email: str | None = None,
    phone: str | None = None,
    old_phone: str | list[str] | None = None,
    organization: str | None = None,
    title: str | None = None,
    notes: str | None = None,
) -> Verdict:
    """The contact `uid` (still named like `name`) has `email` first, the `phone` (none of `old_phone`), the org;
    its job title and notes match `title` and `notes` when given."""
    contact = next((c for c in final.get("contacts") or [] if c.get("uid") == uid), None)
    if contact is None:
        return False, f"the contact {label} ({uid}) is gone"
    if not _matches(contact.get("name"), name):
        return False, f"the contact {uid} was renamed to {contact.get('name')!r}"
    emails = [_address(e) for e in contact.get("emails") or []]
    if email is not None and email not in emails:
        return False, f"{label}'s contact has the emails {emails}; {email} is missing"
    if email is not None and emails[0] != email:
        return False, f"{label}'s contact has the emails {emails}; {email} must be the first (primary) one"
    lines = [_line(p) for p in contact.get("phones") or []]
    if phone is not None and _line(phone) not in lines:
        return False, f"{label}'s contact has the phones {contact.get('phones')}; the new number is missing"
    stale = [old_phone] if isinstance(old_phone, str) else old_phone or []
    if any(_line(old) in lines for old in stale):
        return False, f"{label}'s contact still has a number that no longer works ({contact.get('phones')})"
    if not _matches(contact.get("organization"), organization):
        return False, f"{label}'s contact has the organization {contact.get('organization')!r}"
    if not _matches(contact.get("title"), title):
        return False, f"{label}'s contact has the job title {contact.get('title')!r}"
    if not _matches(contact.get("notes"), notes):
        return False, f"{label}'s contact notes {contact.get('notes')!r} lack the new details"
    return True, f"{label}'s contact is up to date"


def contacts_kept(initial: dict[str, Any], final: dict[str, Any], *, untouched: list[str], email: str) -> Verdict:
    """No contact was added, the contacts `untouched` are as they were, and only one holds `email`."""
    before = {c.get("uid"): c for c in initial.get("contacts") or []}
    added = [c.get("name") for c in final.get("contacts") or [] if c.get("uid") not in before]
    if added:
        return False, f"new contacts were created: {added}; the existing one should be updated"
    for uid in untouched:
        now = next((c for c in final.get("contacts") or [] if c.get("uid") == uid), None)
        if now != before.get(uid):
            return False, f"the contact {before.get(uid, {}).get('name')!r} ({uid}) was changed, but it is someone else"
    holders = [c.get("uid") for c in final.get("contacts") or [] if email in map(_address, c.get("emails") or [])]
    if len(holders) > 1:
        return False, f"{email} is stored on several contacts: {holders}"
    return True, "no duplicate contact; the look-alike contacts are untouched"


def check_new_job(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nasser',
        label='Abdullah Nasser',
        name='Nasser',
        organization='Quillfeather\\s*Media',
        title='^\\s*Head\\ of\\ Partnerships\\s*$',
    )


def check_new_job_reach(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nasser',
        label='Abdullah Nasser',
        name='Nasser',
        email='anasser@quillfeather-media.fr',
        phone='+33 1 90 15 68 28',
        old_phone=['+33 4 20 47 71 29'],
    )


def check_moved_address(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-perrin',
        label='Mathilde Perrin',
        name='Perrin',
        notes='(?<![\\w])165[\\s,]+rue[\\s,]+Oberkampf[\\s,]+75011[\\s,]+Paris(?![\\w])',
    )


def check_moved_number(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-perrin',
        label='Mathilde Perrin',
        name='Perrin',
        phone='+33 1 52 19 80 42',
        old_phone='+33 4 41 70 82 82',
    )


def check_club_member(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-lemaire',
        label='Bastien Lemaire',
        name='Lemaire',
        email='blemaire@free.fr',
        phone='+33 6 76 43 08 04',
        old_phone='+33 6 67 54 85 31',
    )


def check_no_strays(initial, final, trace):
    return contacts_kept(
        initial,
        final,
        untouched=['c-marchand', 'c-caruso', 'c-farah', 'c-greco', 'c-nasser-2'],
        email='anasser@quillfeather-media.fr',
    )
