"""Checks for contact-upkeep-2: Aleksander Nowak changed jobs, Ingrid Dahl, Magdalena Wieczorek and Yasmin Hamdan moved, Joakim Nyström and Elin Sandberg have new details."""

from __future__ import annotations

import re


_HISTORY = re.compile(
    r"[(\[]\s*(?:was|previously|originally|formerly|moved from|instead of|not|old(?: date)?)\b[^)\]]*[)\]]|~~[^~]+~~",
    re.IGNORECASE,
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_RANGE = re.compile(r"^\s*(?:-|–|—|to|until|till|through|and|至|到|~)\s*$", re.IGNORECASE)
_CLOCK = re.compile(
    r"(?<![\d:.])(\d{1,2})(?:[:h](\d{2}))(?!\d)(?:\s*([ap])\.?m\.?)?"
    r"|(?<![\d:.])(\d{1,2})(?:[.:](\d{2}))?\s*([ap])\.?m\b\.?"
    r"|(上午|早上|凌晨|中午|下午|傍晚|晚上)\s*(\d{1,2})\s*[点時时]\s*(半|\d{1,2}\s*分)?",
    re.IGNORECASE,
)
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


def _clock_times(text: str) -> list[tuple[int, int, str]]:
    """(start, end, "HH:MM") of every time of day in `text`: 14:30, 14h30, 2:30pm, 2 p.m., 下午2点半.

    In a range whose am or pm is written once, at its end ("2:30-3:15pm", "11:30 to 12:30pm"), the start
    takes the end's half of the day when that keeps it before the end, else the other one."""
    found: list[tuple[int, int, int, int, str]] = []  # start, end, hour, minute, half ("a", "p" or "")
    for m in _CLOCK.finditer(text):
        if m.group(7):  # Chinese: the part of the day says am or pm
            hour, rest = int(m.group(8)), m.group(9) or ""
            minute = 30 if rest == "半" else int(re.sub(r"\D", "", rest) or 0)
            hour += 12 if m.group(7) in ("下午", "傍晚", "晚上") and hour < 12 else 0
            half = ""
        else:
            hour = int(m.group(1) or m.group(4))
            minute = int(m.group(2) or m.group(5) or 0)
            half = (m.group(3) or m.group(6) or "").lower()
        found.append((m.start(), m.end(), hour, minute, half))
    out = []
    for n, (start, end, hour, minute, half) in enumerate(found):
        if not half and hour <= 12 and n + 1 < len(found):
            after = found[n + 1]
            if after[4] and _RANGE.match(text[end : after[0]]):
                ends_at = after[2] % 12 + (12 if after[4] == "p" else 0)
                guess = hour % 12 + (12 if after[4] == "p" else 0)
                half = after[4] if (guess, minute) <= (ends_at, after[3]) else ("a" if after[4] == "p" else "p")
        hour = hour % 12 + (12 if half == "p" else 0) if half else hour
        if hour < 24 and minute < 60:
            out.append((start, end, f"{hour:02d}:{minute:02d}"))
    return out


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
    (noun pattern -> the number it must come with: {"receipts?": 5}), `refs` (reference pattern -> the
    references it may be) and `times` ("HH:MM": the times of day it may give)."""
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
    if "times" in stated:
        wrong += [
            f"the time {c}" for c in dict.fromkeys(c for _, _, c in _clock_times(text)) if c not in stated["times"]
        ]
    for label, said in (stated.get("dated") or {}).items():
        # a line naming the item gives its own date; one it keeps as history ("(was 2 May)"), or that shows in
        # brackets how the date came about, is no claim when the line gives a right date outside them
        allowed = {(int(d[5:7]), int(d[8:10])) for d in said["dates"]}
        for line in text.splitlines():
            if _matches(line, said["pattern"]):
                claim = _ASIDE.sub("", _HISTORY.sub("", line))
                given = _dates(claim if _dates(claim) & allowed else _HISTORY.sub("", line)) - allowed
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


TO = {'olek@copperleaf-analytics.se': 'Aleksander Nowak',
 'ingrid_dahl@telia.com': 'Ingrid Dahl',
 'magdalena@gmail.com': 'Magdalena Wieczorek',
 'hamdan.yasmin@proton.me': 'Yasmin Hamdan',
 'joakimn@gmail.com': 'Joakim Nyström',
 'elins@gmail.com': 'Elin Sandberg'}


def check_new_job(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nowak',
        label='Aleksander Nowak',
        name='Nowak',
        organization='Copperleaf\\s*Analytics',
        title='^\\s*Engineering\\ Manager\\s*$',
    )


def check_new_job_reach(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nowak',
        label='Aleksander Nowak',
        name='Nowak',
        email='olek@copperleaf-analytics.se',
        phone='+46 8 721 732 13',
        old_phone=['+46 8 383 635 68', '+46 8 721 732 85'],
    )


def check_moved_address(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-dahl',
        label='Ingrid Dahl',
        name='Dahl',
        notes='(?<![\\w])Hornsgatan[\\s,]+144[\\s,]+118[\\s,]+20[\\s,]+Stockholm(?![\\w])',
        notes_stated={'numbers': [144, 118, 20, 75, 118, 20, 75, 118, 20]},
    )


def check_moved_number(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-dahl',
        label='Ingrid Dahl',
        name='Dahl',
        phone='+46 8 240 170 37',
        old_phone='+46 8 967 374 31',
    )


def check_moved_history(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-dahl',
        label='Ingrid Dahl',
        name='Dahl',
        notes='(?<![\\w])Hornsgatan[\\s,]+75[\\s,]+118[\\s,]+20[\\s,]+Stockholm(?![\\w])',
    )


def check_moved_address_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-wieczorek',
        label='Magdalena Wieczorek',
        name='Wieczorek',
        notes='(?<![\\w])Götgatan[\\s,]+231[\\s,]+118[\\s,]+46[\\s,]+Stockholm(?![\\w])',
        notes_stated={'numbers': [231, 118, 46, 50, 113, 51, 50, 113, 51]},
    )


def check_moved_number_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-wieczorek',
        label='Magdalena Wieczorek',
        name='Wieczorek',
        phone='+46 8 953 395 01',
        old_phone='+46 8 753 314 98',
    )


def check_moved_history_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-wieczorek',
        label='Magdalena Wieczorek',
        name='Wieczorek',
        notes='(?<![\\w])Odengatan[\\s,]+50[\\s,]+113[\\s,]+51[\\s,]+Stockholm(?![\\w])',
    )


def check_moved_address_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-hamdan',
        label='Yasmin Hamdan',
        name='Hamdan',
        notes='(?<![\\w])Götgatan[\\s,]+166[\\s,]+118[\\s,]+46[\\s,]+Stockholm(?![\\w])',
        notes_stated={'numbers': [166, 118, 46, 46, 118, 20, 46, 118, 20]},
    )


def check_moved_number_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-hamdan',
        label='Yasmin Hamdan',
        name='Hamdan',
        phone='+46 8 525 265 77',
        old_phone='+46 8 682 235 31',
    )


def check_moved_history_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-hamdan',
        label='Yasmin Hamdan',
        name='Hamdan',
        notes='(?<![\\w])Hornsgatan[\\s,]+46[\\s,]+118[\\s,]+20[\\s,]+Stockholm(?![\\w])',
    )


def check_retracted_kept(initial, final, trace):
    return contacts_kept(initial, final, untouched=['c-johansson'], email='ejohansson@telia.com')


def check_club_member(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-nystrom',
        label='Joakim Nyström',
        name='Nyström',
        email='joakimn@gmail.com',
        phone='+46 70 545 73 95',
        old_phone='+46 70 185 97 00',
    )


def check_club_member_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-sandberg',
        label='Elin Sandberg',
        name='Sandberg',
        email='elins@gmail.com',
        phone='+46 70 587 73 69',
        old_phone='+46 70 682 37 90',
    )


def check_no_strays(initial, final, trace):
    return contacts_kept(
        initial,
        final,
        untouched=['c-bergstrom',
 'c-halvorsen',
 'c-michalak',
 'c-nowak-2',
 'c-ingrid-solberg',
 'c-karim-darwish',
 'c-fredrik-solberg',
 'c-rania-haddad',
 'c-magdalena-wojcik',
 'c-tariq-mansour',
 'c-huda-darwish',
 'c-henrik-lindqvist',
 'c-aleksander-baran',
 'c-tomasz-zajac',
 'c-krzysztof-sikora',
 'c-aleksander-kowalczyk',
 'c-samira-saleh',
 'c-agnieszka-baran',
 'c-huda-saleh',
 'c-magdalena-pawlak',
 'c-yasmin-nasser',
 'c-fredrik-lindqvist',
 'c-agnieszka-zajac',
 'c-elin-solberg',
 'c-yousef-mansour',
 'c-tariq-aziz',
 'c-elin-lindqvist',
 'c-huda-farah',
 'c-bilal-darwish',
 'c-margareta-holm',
 'c-samira-haddad',
 'c-malgorzata-pawlak',
 'c-katarzyna-mazur',
 'c-mohammed-aziz',
 'c-rania-khalil',
 'c-joakim-eriksen',
 'c-linnea-eriksen',
 'c-agnieszka-mazur',
 'c-katarina-eriksen',
 'c-joanna-pawlak',
 'c-katarzyna-kowalczyk',
 'c-tomasz-kowalczyk',
 'c-magnus-solberg',
 'c-margareta-eriksen',
 'c-krzysztof-zajac',
 'c-krzysztof-wojcik',
 'c-astrid-solberg',
 'c-yousef-aziz',
 'c-elin-holm',
 'c-sigrid-eriksen',
 'c-leila-haddad',
 'c-tomasz-krawczyk',
 'c-huda-khalil',
 'c-nadia-mansour',
 'c-margareta-lindqvist',
 'c-tariq-khalil',
 'c-ingrid-holm',
 'c-karim-haddad',
 'c-linnea-holm',
 'c-krzysztof-krawczyk',
 'c-magnus-holm',
 'c-astrid-eriksen',
 'c-huda-qureshi',
 'c-leila-khalil',
 'c-magdalena-krol',
 'c-rania-mansour',
 'c-henrik-eriksen',
 'c-katarina-holm',
 'c-samira-darwish',
 'c-kristoffer-lindqvist',
 'c-kristoffer-eriksen',
 'c-malgorzata-kowalczyk',
 'c-fredrik-holm',
 'c-nadia-aziz'],
        email='olek@copperleaf-analytics.se',
    )


def check_told_each(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        wrong={'aleksander_nowak@ironbark-partners.se': 'their old work address',
 'joakim_nystrom@proton.me': 'their old address',
 'sandberg.elin@proton.me': 'their old address'},
    )


def check_told_numbers(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        says={'olek@copperleaf-analytics.se': {'the number now saved': '7[\\s().-]*2[\\s().-]*1[\\s().-]*7[\\s().-]*3[\\s().-]*2[\\s().-]*1[\\s().-]*3(?!\\d)'},
 'ingrid_dahl@telia.com': {'the number now saved': '2[\\s().-]*4[\\s().-]*0[\\s().-]*1[\\s().-]*7[\\s().-]*0[\\s().-]*3[\\s().-]*7(?!\\d)'},
 'magdalena@gmail.com': {'the number now saved': '9[\\s().-]*5[\\s().-]*3[\\s().-]*3[\\s().-]*9[\\s().-]*5[\\s().-]*0[\\s().-]*1(?!\\d)'},
 'hamdan.yasmin@proton.me': {'the number now saved': '5[\\s().-]*2[\\s().-]*5[\\s().-]*2[\\s().-]*6[\\s().-]*5[\\s().-]*7[\\s().-]*7(?!\\d)'},
 'joakimn@gmail.com': {'the number now saved': '0[\\s().-]*5[\\s().-]*4[\\s().-]*5[\\s().-]*7[\\s().-]*3[\\s().-]*9[\\s().-]*5(?!\\d)'},
 'elins@gmail.com': {'the number now saved': '0[\\s().-]*5[\\s().-]*8[\\s().-]*7[\\s().-]*7[\\s().-]*3[\\s().-]*6[\\s().-]*9(?!\\d)'}},
        stated={'olek@copperleaf-analytics.se': {'addresses': ['aleksander_nowak@ironbark-partners.se',
                                                'olek@copperleaf-analytics.se']},
 'ingrid_dahl@telia.com': {'addresses': ['ingrid_dahl@telia.com']},
 'magdalena@gmail.com': {'addresses': ['magdalena@gmail.com']},
 'hamdan.yasmin@proton.me': {'addresses': ['hamdan.yasmin@proton.me']},
 'joakimn@gmail.com': {'addresses': ['joakim_nystrom@proton.me', 'joakimn@gmail.com']},
 'elins@gmail.com': {'addresses': ['elins@gmail.com', 'sandberg.elin@proton.me']}},
    )
