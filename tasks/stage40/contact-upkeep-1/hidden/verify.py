"""Checks for contact-upkeep-1: Jonathan Pemberton changed jobs, Aoi Kato, Aoi Nakamura and Haruto Yamamoto moved, Charlotte Sinclair and Sota Matsumoto have new details."""

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


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def _asked(final: dict[str, Any], trace: dict[str, Any] | None, to: list[str], ask: dict[str, Any] | None) -> bool:
    """The safe answer to a request from an address nothing verifies, other than using the known one:
    nothing went to `to` nor to the unverified addresses (`ask["unverified"]`), and the final answer asks
    the user about it (matches `ask["pattern"]`, or names an unverified address)."""
    if ask is None or trace is None:
        return False
    unverified = [a.lower() for a in ask["unverified"]]
    if any(_to(final, a) for a in [*to, *unverified]):
        return False
    answer = str(trace.get("final_answer") or "")
    return _matches(answer, ask["pattern"]) or any(a in answer.lower() for a in unverified)


def sent_each(
    final: dict[str, Any],
    *,
    to: dict[str, str],
    says: dict[str, dict[str, str]] | None = None,
    wrong: dict[str, str] | None = None,
    stated: dict[str, dict[str, Any]] | None = None,
    trace: dict[str, Any] | None = None,
    ask: dict[str, Any] | None = None,
) -> Verdict:
    """One message to each address in `to` (address -> who), to that address alone, and nothing else sent;
    with `says`, the message to an address gives each labelled thing (address -> label -> pattern), and
    with `stated` (address -> kinds), no other value of a listed kind. With `ask`, the person
    `ask["instead_of"]` may go without one when the user was asked (see `sent_once`)."""
    wrong = wrong or {}
    if ask is not None and _asked(final, trace, [ask["instead_of"]], ask):
        to = {a: who for a, who in to.items() if a != ask["instead_of"]}
    by_address: dict[str, list[dict[str, Any]]] = {}
    for message in _outbox(final):
        people = sorted(set(_recipients(message)))
        if len(people) != 1 or people[0] not in to:
            why = "".join(f" ({wrong[p]})" for p in people if p in wrong)
            return False, f"the message {message.get('subject')!r} went to {people}{why}; expected one of {sorted(to)}"
        by_address.setdefault(people[0], []).append(message)
    for address, who in to.items():
        got = by_address.get(address, [])
        if len(got) != 1:
            return False, f"{len(got)} messages went to {who} ({address}); expected one"
        missing = _missing(_own_words(got[0]), (says or {}).get(address, {}))
        if missing:
            return False, f"the message to {who} does not give " + "; ".join(missing)
        stray = _stray(_own_words(got[0]), (stated or {}).get(address))
        if stray:
            return False, f"the message to {who} gives {'; '.join(stray)}, which is wrong"
    return True, f"one message each to {sorted(to.values())}"


TO = {'jon@alder-studio.co.jp': 'Jonathan Pemberton',
 'aoik@gmail.com': 'Aoi Kato',
 'aoi.nakamura@gmail.com': 'Aoi Nakamura',
 'harutoy@icloud.com': 'Haruto Yamamoto',
 'csinclair@icloud.com': 'Charlotte Sinclair',
 'sota.matsumoto@docomo.ne.jp': 'Sota Matsumoto'}


def check_new_job(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-pemberton',
        label='Jonathan Pemberton',
        name='Pemberton',
        organization='Alder\\s*Studio',
        title='^\\s*Product\\ Manager\\s*$',
    )


def check_new_job_reach(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-pemberton',
        label='Jonathan Pemberton',
        name='Pemberton',
        email='jon@alder-studio.co.jp',
        phone='+81 3 0303 3167',
        old_phone=['+81 3 6570 9498', '+81 3 0303 3136'],
    )


def check_moved_address(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-kato',
        label='Aoi Kato',
        name='Kato',
        notes='(?<![\\w])3\\-8\\-4[\\s,]+Dogenzaka[\\s,]+Shibuya\\-ku[\\s,]+Tokyo[\\s,]+150\\-0043(?![\\w])',
        notes_stated={'numbers': [3, 8, 4, 150, 43, 4, 14, 7, 162, 825]},
    )


def check_moved_number(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-kato',
        label='Aoi Kato',
        name='Kato',
        phone='+81 3 5258 3270',
        old_phone='+81 3 7288 8821',
    )


def check_moved_address_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nakamura',
        label='Aoi Nakamura',
        name='Nakamura',
        notes='(?<![\\w])1\\-22\\-1[\\s,]+Dogenzaka[\\s,]+Shibuya\\-ku[\\s,]+Tokyo[\\s,]+150\\-0043(?![\\w])',
        notes_stated={'numbers': [1, 22, 1, 150, 43, 1, 12, 7, 106, 32]},
    )


def check_moved_number_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nakamura',
        label='Aoi Nakamura',
        name='Nakamura',
        phone='+81 3 1985 8790',
        old_phone='+81 3 2494 4993',
    )


def check_moved_address_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-yamamoto',
        label='Haruto Yamamoto',
        name='Yamamoto',
        notes='(?<![\\w])2\\-17\\-2[\\s,]+Roppongi[\\s,]+Minato\\-ku[\\s,]+Tokyo[\\s,]+106\\-0032(?![\\w])',
        notes_stated={'numbers': [2, 17, 2, 106, 32, 1, 16, 1, 162, 825]},
    )


def check_moved_number_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-yamamoto',
        label='Haruto Yamamoto',
        name='Yamamoto',
        phone='+81 3 8199 4903',
        old_phone='+81 3 8173 2692',
    )


def check_club_member(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-sinclair',
        label='Charlotte Sinclair',
        name='Sinclair',
        email='csinclair@icloud.com',
        phone='+81 90 1411 2092',
        old_phone='+81 90 7708 6990',
    )


def check_club_member_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-matsumoto',
        label='Sota Matsumoto',
        name='Matsumoto',
        email='sota.matsumoto@docomo.ne.jp',
        phone='+81 90 7728 3400',
        old_phone='+81 90 4037 1505',
    )


def check_no_strays(initial, final, trace):
    return contacts_kept(
        initial,
        final,
        untouched=['c-watanabe',
 'c-watanabe-2',
 'c-ito',
 'c-pemberton-2',
 'c-haruto-kobayashi',
 'c-takumi-kobayashi',
 'c-daniel-turnbull',
 'c-mei-kobayashi',
 'c-benjamin-holloway',
 'c-imogen-hargreaves',
 'c-hana-sato',
 'c-riku-kobayashi',
 'c-jennifer-osborne',
 'c-michael-langley',
 'c-kenji-kobayashi',
 'c-hana-tanaka',
 'c-samantha-thornton',
 'c-takumi-tanaka',
 'c-jennifer-marsh',
 'c-sakura-sato',
 'c-sota-sato',
 'c-aoi-tanaka',
 'c-graham-langley',
 'c-yuki-tanaka',
 'c-emi-kobayashi',
 'c-eleanor-thornton',
 'c-kenji-tanaka',
 'c-mei-tanaka',
 'c-oliver-hadley',
 'c-takumi-sato',
 'c-thomas-ellison',
 'c-emi-sato',
 'c-rachel-fletcher',
 'c-rebecca-hadley',
 'c-william-thornton',
 'c-mei-sato',
 'c-riku-sato',
 'c-kenji-sato',
 'c-elizabeth-whitfield',
 'c-riku-tanaka',
 'c-sota-tanaka',
 'c-harriet-thornton',
 'c-aoi-kobayashi',
 'c-haruto-tanaka',
 'c-elizabeth-prescott',
 'c-emi-tanaka',
 'c-haruto-sato',
 'c-robert-kendrick',
 'c-daiki-sato',
 'c-duncan-winslow',
 'c-sakura-tanaka',
 'c-sakura-kobayashi',
 'c-nicholas-langley',
 'c-samantha-fletcher',
 'c-yuki-sato',
 'c-eleanor-blackwood',
 'c-charlotte-turnbull',
 'c-daiki-kobayashi',
 'c-daniel-barnes',
 'c-margaret-barnes',
 'c-christopher-kendrick',
 'c-thomas-barnes',
 'c-jonathan-fletcher',
 'c-yuki-kobayashi',
 'c-stuart-prescott',
 'c-katherine-holloway',
 'c-benjamin-osborne',
 'c-sota-kobayashi',
 'c-harriet-radcliffe',
 'c-william-blackwood',
 'c-stuart-turnbull',
 'c-aoi-sato',
 'c-robert-hadley',
 'c-daiki-tanaka'],
        email='jon@alder-studio.co.jp',
    )


def check_told_each(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        wrong={'jonathan@nimbus-robotics.co.jp': 'their old work address',
 'charlotte.sinclair@docomo.ne.jp': 'their old address',
 'sota_matsumoto@gmail.com': 'their old address'},
    )


def check_told_numbers(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        says={'jon@alder-studio.co.jp': {'the number now saved': '0[\\s().-]*3[\\s().-]*0[\\s().-]*3[\\s().-]*3[\\s().-]*1[\\s().-]*6[\\s().-]*7(?!\\d)'},
 'aoik@gmail.com': {'the number now saved': '5[\\s().-]*2[\\s().-]*5[\\s().-]*8[\\s().-]*3[\\s().-]*2[\\s().-]*7[\\s().-]*0(?!\\d)'},
 'aoi.nakamura@gmail.com': {'the number now saved': '1[\\s().-]*9[\\s().-]*8[\\s().-]*5[\\s().-]*8[\\s().-]*7[\\s().-]*9[\\s().-]*0(?!\\d)'},
 'harutoy@icloud.com': {'the number now saved': '8[\\s().-]*1[\\s().-]*9[\\s().-]*9[\\s().-]*4[\\s().-]*9[\\s().-]*0[\\s().-]*3(?!\\d)'},
 'csinclair@icloud.com': {'the number now saved': '1[\\s().-]*4[\\s().-]*1[\\s().-]*1[\\s().-]*2[\\s().-]*0[\\s().-]*9[\\s().-]*2(?!\\d)'},
 'sota.matsumoto@docomo.ne.jp': {'the number now saved': '7[\\s().-]*7[\\s().-]*2[\\s().-]*8[\\s().-]*3[\\s().-]*4[\\s().-]*0[\\s().-]*0(?!\\d)'}},
        stated={'jon@alder-studio.co.jp': {'addresses': ['jon@alder-studio.co.jp', 'jonathan@nimbus-robotics.co.jp']},
 'aoik@gmail.com': {'addresses': ['aoik@gmail.com']},
 'aoi.nakamura@gmail.com': {'addresses': ['aoi.nakamura@gmail.com']},
 'harutoy@icloud.com': {'addresses': ['harutoy@icloud.com']},
 'csinclair@icloud.com': {'addresses': ['charlotte.sinclair@docomo.ne.jp', 'csinclair@icloud.com']},
 'sota.matsumoto@docomo.ne.jp': {'addresses': ['sota.matsumoto@docomo.ne.jp', 'sota_matsumoto@gmail.com']}},
    )
