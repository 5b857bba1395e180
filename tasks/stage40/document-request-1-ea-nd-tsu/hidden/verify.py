"""Checks for document-request-1-ea-nd-tsu: the payslip for October 2026 no. 2026-2308 goes to ada@onyekachi-anyanwu.com.ng."""

from __future__ import annotations

import re


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def sent_once(
    final: dict[str, Any],
    *,
    to: list[str],
    label: str,
    in_reply_to: str | None = None,
    subject: str | None = None,
    wrong: dict[str, str] | None = None,
    each_once: bool = False,
) -> Verdict:
    """Exactly one message was sent, to exactly `to`; it answers `in_reply_to` or its subject matches.
    With `each_once` (a mail to a group), nobody is named twice, in To and again in Cc."""
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    if len(sent) != 1:
        return False, f"{len(sent)} messages were sent ({[m.get('subject') for m in sent]}); expected one"
    people = _recipients(sent[0])
    if sorted(set(people)) != sorted(to):
        why = [f" ({(wrong or {})[p]})" for p in people if p in (wrong or {})]
        return False, f"the message went to {people}{''.join(why)}; expected {label}: {sorted(to)}"
    twice = sorted({p for p in people if people.count(p) > 1})
    if each_once and twice:
        return False, f"the message names {twice} twice (in To and in Cc)"
    threaded = in_reply_to is not None and sent[0].get("in_reply_to") == in_reply_to
    if not threaded and (subject is None or not _matches(sent[0].get("subject"), subject)):
        return False, f"the message {sent[0].get('subject')!r} neither answers {in_reply_to} nor has a fitting subject"
    return True, f"one message, to {label} only"


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def attached(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    to: str,
    sha256: str | None = None,
    file: str | None = None,
    wrong: dict[str, str] | None = None,
) -> Verdict:
    """The message to `to` carries exactly one attachment: the file with `sha256`, or the final `file`."""
    wrong = wrong or {}
    if file is not None:
        stored = (final.get("files") or {}).get(file)
        if not stored:
            return False, f"there is no file {file} to attach"
        sha256 = stored.get("sha256")
    messages = _to(final, to)
    if not messages:
        return False, f"nothing was sent to {to}"
    problems = []
    for message in messages:
        files = message.get("attachments") or []
        shas = [a.get("sha256") for a in files]
        named = [f"{a.get('filename')} ({wrong[a.get('sha256')]})" for a in files if a.get("sha256") in wrong]
        if shas == [sha256]:
            return True, "the right file is attached, and only it"
        if named:
            problems.append("it attaches " + ", ".join(named))
        elif sha256 in shas:
            problems.append(f"it attaches {len(shas)} files; expected only one")
        else:
            problems.append(f"its attachments {[a.get('filename') for a in files]} are not the right file")
    return False, "; ".join(problems)


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
        found = [int(n) for n in re.findall(r"(?<![\w.,])\d+(?![\w]|[.,]\d)", text)]
        wrong += [f"the number {n}" for n in sorted(set(found)) if found.count(n) > stated["numbers"].count(n)]
    for noun, count in (stated.get("counts") or {}).items():
        for m in re.finditer(rf"(?<![\d.,])(\d+)\s+(?:{noun})\b", text, re.IGNORECASE):
            if int(m.group(1)) != count:
                wrong.append(f"{m.group(0)!r} (there are {count})")
    for shape, refs in (stated.get("refs") or {}).items():
        wrong += [f"the reference {r}" for r in dict.fromkeys(re.findall(shape, text)) if r not in refs]
    return wrong


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def message_says(
    final: dict[str, Any],
    *,
    to: str,
    patterns: dict[str, str],
    dates: list[str] | None = None,
    stated: dict[str, Any] | None = None,
) -> Verdict:
    """A message to `to` says every labelled thing (its own words, not the quoted ones); the calendar
    dates it writes out are all among `dates` (ISO days), so a wrong date cannot hide behind a weekday,
    and the other values it gives are among `stated`."""
    messages = _to(final, to)
    if not messages:
        return False, f"nothing was sent to {to}"
    stated = {**(stated or {}), **({"dates": dates} if dates is not None else {})}
    problems = []
    for message in messages:
        text = _own_words(message)
        missing = _missing(text, patterns)
        wrong = _stray(text, stated)
        if not missing and not wrong:
            return True, f"the message to {to} gives {sorted(patterns)}"
        problems.append(", ".join(missing) + (f" (and it gives {'; '.join(wrong)}, which is wrong)" if wrong else ""))
    return False, "the message does not give " + "; ".join(problems)


def _line(phone: Any) -> str:
    """The last eight digits of a phone number: the same line whether written with +49, 0049 or 0."""
    return re.sub(r"\D", "", str(phone or ""))[-8:]


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


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def reminder_done(
    initial: dict[str, Any], final: dict[str, Any], *, uid: str, lst: str, keep_open: list[str]
) -> Verdict:
    """The reminder `uid` is ticked off (not deleted) in `lst`; the reminders in `keep_open` are still open."""
    where, item = _find(final, "reminders", uid)
    if item is None:
        return False, f"the reminder {uid} was deleted instead of ticked off"
    if not item.get("completed"):
        return False, f"the reminder {item.get('title')!r} is still open"
    if where != lst:
        return False, f"the reminder {item.get('title')!r} was moved to the list {where!r}"
    for other in keep_open:
        _, now = _find(final, "reminders", other)
        _, before = _find(initial, "reminders", other)
        title = (before or {}).get("title")
        if now is None:
            return False, f"the reminder {title!r} ({other}) was deleted"
        if now.get("completed"):
            return False, f"the reminder {title!r} ({other}) was ticked off too; it is a different job"
    return True, f"{item.get('title')!r} is done; the others are still open"


def check_sent_to_advisor(initial, final, trace):
    return sent_once(
        final,
        to=['ada@onyekachi-anyanwu.com.ng'],
        label='Ada Onyekachi',
        in_reply_to='<c0317a587a.20261028@onyekachi-anyanwu.com.ng>',
        subject='payslip|payslip|2026',
        wrong={'adaezeo@onyekachi-mortgage-brokers.com.ng': 'the old address, switched off at the end of the month'},
    )


def check_right_document(initial, final, trace):
    return attached(
        initial,
        final,
        to='ada@onyekachi-anyanwu.com.ng',
        sha256='a2d32303e1076572b3262a00086768af027e82b036b7edf1ff66bff7b63abcd8',
        wrong={'3a60be61c43cad0b4509c6b54572261c29be34a5f0fdda7524e4c4cfc5ad58b7': 'the void no. 2026-6458',
 '2d03725c37539a4fa50413e60762e374b203d03d54c03b100cb6b0e45d14da13': "last year's, no. 2025-2484"},
    )


def check_cover_note_right(initial, final, trace):
    return message_says(
        final,
        to='ada@onyekachi-anyanwu.com.ng',
        patterns={},
        stated={'years': [2026], 'refs': {'(?<![\\w-])\\d{4}-\\d{4}(?![\\w-])': ['2026-2308']}},
    )


def check_contact_updated(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-onyekachi',
        label='Adaeze Onyekachi',
        name='Onyekachi',
        phone='+234 1 920 9065',
        old_phone='+234 1 174 3179',
        email='ada@onyekachi-anyanwu.com.ng',
        organization='Onyekachi\\s*\\&\\s*Anyanwu',
    )


def check_no_duplicate_contact(initial, final, trace):
    return contacts_kept(initial, final, untouched=['c-rao'], email='ada@onyekachi-anyanwu.com.ng')


def check_reminder_ticked(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-send-payslip',
        lst='Reminders',
        keep_open=['r-check', 'r-buy-a-present-for-ngozi', 'r-water-the-plants'],
    )
