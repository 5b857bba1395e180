"""Checks for contact-upkeep-2-ea-hd-tsu: Valentin Perrin changed jobs, Nicolas Marchand, Nicolas Moreau and Dominique Dubois moved, Matteo Galli and Valentin Girard have new details."""

from __future__ import annotations

import re


_HISTORY = re.compile(
    r"[(\[]\s*(?:was|previously|originally|formerly|moved from|instead of|not|old(?: date)?)\b[^)\]]*[)\]]|~~[^~]+~~",
    re.IGNORECASE,
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATED = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\b\d{1,2}\s+[A-Za-z]{3,}\.?,?\s+\d{4}|[A-Za-z]{3,}\.?\s+\d{1,2},?\s+\d{4}"
)


def _dates(text: str) -> set[tuple[int, int]]:
    """(month, day) of every calendar date written out in `text`: 12 March, March 12th, 3月12日,
    2026-03-12, and both ends of 12 to 14 March. A date does not run across lines."""
    months = "|".join(_MONTHS)
    found = set()
    span = (
        rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?[^\S\n]*(?:-|–|—|to|until|till)[^\S\n]*(?:[a-z]{{3,9}}\.?[^\S\n]+)?"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\.?[^\S\n]+({months})"
    )
    for m in re.finditer(span, text, re.I):
        found.add((_MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\.?[^\S\n]+(?:of[^\S\n]+)?({months})[a-z]*", text, re.I):
        found.add((_MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(rf"\b({months})[a-z]*\.?[^\S\n]+(\d{{1,2}})(?![\d:.]|h\d|[^\S\n]*[ap]\.?m)", text, re.I):
        found.add((_MONTHS.index(m.group(1).lower()) + 1, int(m.group(2))))
    for m in re.finditer(r"(?<!\d)(\d{1,2})月(\d{1,2})[日号]", text):
        found.add((int(m.group(1)), int(m.group(2))))
    for m in re.finditer(r"(?<![\d-])\d{4}-(\d{2})-(\d{2})(?!\d)", text):
        found.add((int(m.group(1)), int(m.group(2))))
    return found


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def numbers_in(text: str) -> list[int]:
    """The whole numbers `text` writes (a house number, a postcode), as often as it writes them; not the digits
    of a decimal, a time or a word like 3rd."""
    return [int(n) for n in re.findall(r"(?<![\w.,])\d+(?![\w]|[.,]\d)", text)]


def _amount(text: Any) -> float | None:
    """A money amount written as 1234.5, 1,234.50, 1.234,50 or 1 234,50 (any currency sign around it)."""
    cleaned = re.sub(r"[^\d.,-]", "", str(text or ""))
    if not re.search(r"\d", cleaned):
        return None
    last = max(cleaned.rfind("."), cleaned.rfind(","))
    if last != -1 and len(cleaned) - last - 1 in (1, 2):
        whole, cents = re.sub(r"\D", "", cleaned[:last]) or "0", cleaned[last + 1 :]
        value = float(f"{whole}.{cents}")
    else:
        value = float(re.sub(r"\D", "", cleaned))
    return -value if cleaned.startswith("-") else value


def _stray(text: str, stated: dict[str, Any] | None) -> list[str]:
    """The values `text` gives that `stated` does not list, for each kind it lists: `dates` (ISO days;
    any written form counts), `years`, `addresses`, `amounts` (money, written with cents), `total` (the
    amount next to the word "total"), `numbers` (whole numbers: a house number, a postcode), `counts`
    (noun pattern -> the number it must come with: {"receipts?": 5}) and `refs` (reference pattern -> the
    references it may be)."""
    if not stated:
        return []
    wrong = []
    if "dates" in stated:
        allowed = {(int(d[5:7]), int(d[8:10])) for d in stated["dates"]}
        wrong += [f"the date {m:02d}-{d:02d} (month-day)" for m, d in sorted(_dates(text) - allowed)]
    if "years" in stated:
        years = re.findall(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])", text)
        wrong += [f"the year {y}" for y in dict.fromkeys(years) if int(y) not in stated["years"]]
    if "addresses" in stated:
        found = re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)
        wrong += [f"the address {a}" for a in dict.fromkeys(found) if a.lower() not in stated["addresses"]]
    if "amounts" in stated:
        allowed_amounts = {round(a, 2) for a in stated["amounts"]}
        found = re.findall(r"(?<![\w.,])\d{1,3}(?:[,.' \u00a0]\d{3})*[.,]\d{2}(?![\d]|[.,]\d)", text)
        wrong += [f"the amount {a}" for a in dict.fromkeys(found) if round(_amount(a) or 0, 2) not in allowed_amounts]
    if "total" in stated:
        figure = r"(\d{1,3}(?:[,.' \u00a0]\d{3})*(?:[.,]\d{2})?)(?![\d]|[.,]\d)"
        near = rf"\btotal\b[^\d\n]{{0,12}}{figure}|{figure}[^\d\n]{{0,6}}\b(?:in\s+)?total\b"
        for m in re.finditer(near, text, re.IGNORECASE):
            given = m.group(1) or m.group(2)
            if round(_amount(given) or 0, 2) != round(stated["total"], 2):
                wrong.append(f"the total {given}")
    if "numbers" in stated:  # each as often as listed: "141, 141 Feet Road" is not "141, 80 Feet Road"
        found = numbers_in(text)
        wrong += [f"the number {n}" for n in sorted(set(found)) if found.count(n) > stated["numbers"].count(n)]
    for noun, count in (stated.get("counts") or {}).items():
        # the number and its noun on one line: a subject ending in a year above "Receipts ..." is no count
        for m in re.finditer(rf"(?<![\d.,])(\d+)[ \t]+(?:{noun})\b", text, re.IGNORECASE):
            if int(m.group(1)) != count:
                wrong.append(f"{m.group(0)!r} (there are {count})")
    for shape, refs in (stated.get("refs") or {}).items():
        wrong += [f"the reference {r}" for r in dict.fromkeys(re.findall(shape, text)) if r not in refs]
    if "codes" in stated:  # any contract or account number (HX/1688/19506 too): five or more characters with a
        # digit, not a date
        found = re.findall(r"(?<![\w/-])(?=[\w/-]*\d)[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*(?![\w/-])", text)
        codes = [c for c in found if len(c) >= 5 and not _DATED.fullmatch(c)]
        wrong += [f"the number {c}" for c in dict.fromkeys(codes) if c not in stated["codes"]]
    for label, said in (stated.get("dated") or {}).items():
        # a line naming the item gives its own date; one it keeps as history ("(was 2 May)") is no claim
        allowed = {(int(d[5:7]), int(d[8:10])) for d in said["dates"]}
        for line in text.splitlines():
            if _matches(line, said["pattern"]):
                given = _dates(_HISTORY.sub("", line)) - allowed
                wrong += [f"the date {m:02d}-{d:02d} (month-day) for {label}" for m, d in sorted(given)]
    return wrong


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
    notes_stated: dict[str, Any] | None = None,
) -> Verdict:
    """The contact `uid` (still named like `name`) has `email` first, the `phone` (none of `old_phone`), the org;
    its job title and notes match `title` and `notes` when given, and with `notes_stated` the notes give no
    other value of a kind it lists (see `_stray`): an old address kept as history must be the old address."""
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
    stray = _stray(str(contact.get("notes") or ""), notes_stated)
    if stray:
        return False, f"{label}'s contact notes give {'; '.join(stray)}, which is wrong"
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
        uid='c-perrin',
        label='Valentin Perrin',
        name='Perrin',
        organization='Saltmarsh\\s*Studio',
        title='^\\s*Customer\\ Success\\ Manager\\s*$',
    )


def check_new_job_reach(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-perrin',
        label='Valentin Perrin',
        name='Perrin',
        email='val@saltmarsh-studio.fr',
        phone='+33 1 67 10 22 49',
        old_phone=['+33 1 71 22 68 76'],
    )


def check_moved_address(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-marchand',
        label='Nicolas Marchand',
        name='Marchand',
        notes='(?<![\\w])42[\\s,]+avenue[\\s,]+Jean[\\s,]+Jaurès[\\s,]+69007[\\s,]+Lyon(?![\\w])',
        notes_stated={'numbers': [42, 69007, 160, 75011]},
    )


def check_moved_number(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-marchand',
        label='Nicolas Marchand',
        name='Marchand',
        phone='+33 4 14 16 92 62',
        old_phone='+33 1 69 13 73 05',
    )


def check_moved_address_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-moreau',
        label='Nicolas Moreau',
        name='Moreau',
        notes='(?<![\\w])227[\\s,]+avenue[\\s,]+Jean[\\s,]+Jaurès[\\s,]+69007[\\s,]+Lyon(?![\\w])',
        notes_stated={'numbers': [227, 69007, 39, 75011]},
    )


def check_moved_number_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-moreau',
        label='Nicolas Moreau',
        name='Moreau',
        phone='+33 4 54 44 43 71',
        old_phone='+33 1 99 54 30 53',
    )


def check_moved_address_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-dubois',
        label='Dominique Dubois',
        name='Dubois',
        notes='(?<![\\w])217[\\s,]+rue[\\s,]+du[\\s,]+Faubourg[\\s,]+Saint\\-Denis[\\s,]+75010[\\s,]+Paris(?![\\w])',
        notes_stated={'numbers': [217, 75010, 223, 69007]},
    )


def check_moved_number_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-dubois',
        label='Dominique Dubois',
        name='Dubois',
        phone='+33 1 35 39 92 58',
        old_phone='+33 4 86 37 94 00',
    )


def check_club_member(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-galli',
        label='Matteo Galli',
        name='Galli',
        email='mgalli@orange.fr',
        phone='+33 6 57 15 54 40',
        old_phone='+33 6 80 47 03 27',
    )


def check_club_member_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-girard',
        label='Valentin Girard',
        name='Girard',
        email='girard.valentin@gmail.com',
        phone='+33 6 96 71 55 86',
        old_phone='+33 6 04 88 36 25',
    )


def check_no_strays(initial, final, trace):
    return contacts_kept(
        initial,
        final,
        untouched=['c-lemaire',
 'c-marchand-2',
 'c-fontaine',
 'c-antonio-caruso',
 'c-nicolas-lefevre',
 'c-dominique-garnier',
 'c-elisabetta-bianchi',
 'c-yasmin-darwish',
 'c-davide-fontana',
 'c-giulia-conti',
 'c-guillaume-garnier',
 'c-rania-khalil',
 'c-chiara-greco',
 'c-catherine-lefevre',
 'c-chiara-moretti',
 'c-nadia-darwish',
 'c-frederic-lefevre',
 'c-bilal-hamdan',
 'c-davide-rinaldi',
 'c-bastien-lefevre',
 'c-yasmin-farah',
 'c-alessia-fontana',
 'c-huda-farah',
 'c-omar-khalil',
 'c-giuseppe-bianchi',
 'c-matteo-rinaldi',
 'c-elodie-garnier',
 'c-bastien-garnier',
 'c-alessia-barbieri',
 'c-lorenzo-bianchi',
 'c-mohammed-darwish',
 'c-giuseppe-conti',
 'c-stephanie-rousseau',
 'c-nadia-khalil',
 'c-elisabetta-caruso',
 'c-catherine-garnier',
 'c-dominique-rousseau',
 'c-antonio-barbieri',
 'c-francesca-moretti',
 'c-omar-darwish',
 'c-elisabetta-marchetti',
 'c-giulia-greco',
 'c-mathilde-lefevre',
 'c-nadia-nasser',
 'c-samira-mansour',
 'c-karim-mansour',
 'c-stephanie-garnier',
 'c-rania-darwish',
 'c-mohammed-farah',
 'c-valentin-lefevre',
 'c-matteo-bianchi',
 'c-alessia-bianchi',
 'c-catherine-rousseau',
 'c-chiara-marchetti',
 'c-mohammed-qureshi',
 'c-mathilde-rousseau',
 'c-alessia-moretti',
 'c-chloe-rousseau',
 'c-samira-nasser',
 'c-giulia-barbieri',
 'c-chloe-garnier',
 'c-tariq-saleh',
 'c-nicolas-garnier',
 'c-leila-aziz',
 'c-francesca-greco',
 'c-chloe-lefevre',
 'c-valentin-garnier',
 'c-elodie-lefevre',
 'c-yasmin-hamdan',
 'c-matteo-moretti',
 'c-elodie-rousseau',
 'c-frederic-garnier',
 'c-alessia-greco'],
        email='val@saltmarsh-studio.fr',
    )
