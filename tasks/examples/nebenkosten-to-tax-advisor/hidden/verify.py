"""Checks for nebenkosten-to-tax-advisor.

The corrected statement is identified from the initial state (the attachment of the landlord's
"Korrektur" mail), so the checks compare content hashes, not file names.
"""

import re

NEW_ADDRESS = "rik@lindqvist-partner.de"
OLD_ADDRESS = "henrik@lindqvist-steuer.de"
CONTACT = "c-lindqvist"
NEW_PHONE = "493020614478"
OLD_PHONE = "493044031187"
CORRECTION_ID = "<nk2025-4471-k@hv-kranz.de>"
VOID_ID = "<nk2025-4471@hv-kranz.de>"
LAST_YEAR_ID = "<nk2024-3318@hv-kranz.de>"
TICK = "r-nk-henrik"
KEEP_OPEN = ("r-nachzahlung", "r-elster")


def _address(value):
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _messages(state):
    return [m for msgs in ((state.get("mail") or {}).get("folders") or {}).values() for m in msgs]


def _attachment_sha(state, message_id):
    for message in _messages(state):
        if message.get("message_id") == message_id and message.get("attachments"):
            return message["attachments"][0].get("sha256")
    return None


def _outbox(state):
    return (state.get("mail") or {}).get("outbox") or []


def _recipients(message):
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _contact(state, uid):
    return next((c for c in state.get("contacts") or [] if c.get("uid") == uid), None)


def _todo(state, uid):
    for todos in (state.get("reminders") or {}).values():
        for todo in todos:
            if todo.get("uid") == uid:
                return todo
    return None


def _digits(phone):
    digits = re.sub(r"\D", "", phone or "")
    if (phone or "").strip().startswith("00"):
        digits = digits[2:]
    elif digits.startswith("0"):  # a national number: Germany
        digits = "49" + digits[1:]
    return digits


def _to_rik(state):
    return [m for m in _outbox(state) if NEW_ADDRESS in _recipients(m)]


def check_sent_to_new_address(initial, final, trace):
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    if len(sent) != 1:
        return False, f"{len(sent)} messages were sent ({[m.get('subject') for m in sent]}); expected one"
    people = _recipients(sent[0])
    if NEW_ADDRESS not in people:
        hint = " (the old address, switched off at the end of March)" if OLD_ADDRESS in people else ""
        return False, f"the message went to {people}{hint}, not to {NEW_ADDRESS}"
    others = sorted(set(people) - {NEW_ADDRESS})
    if others:
        return False, f"the message also went to {others}; only Rik's new address should get it"
    return True, f"one message, to {NEW_ADDRESS} only"


def check_corrected_statement_attached(initial, final, trace):
    corrected = _attachment_sha(initial, CORRECTION_ID)
    wrong = {
        _attachment_sha(initial, VOID_ID): "the void original of 2 March",
        _attachment_sha(initial, LAST_YEAR_ID): "the 2024 statement",
    }
    if corrected is None:
        return False, "the initial state has no corrected statement (task world broken)"
    messages = _to_rik(final)
    if not messages:
        return False, f"nothing was sent to {NEW_ADDRESS}"
    problems = []
    for message in messages:
        files = message.get("attachments") or []
        shas = [a.get("sha256") for a in files]
        named = [f"{a.get('filename')} ({wrong[a.get('sha256')]})" for a in files if a.get("sha256") in wrong]
        if named:
            problems.append("it attaches " + ", ".join(named))
        elif shas == [corrected]:
            return True, "the corrected 2025 statement is attached, and only it"
        elif corrected in shas:
            problems.append(f"it attaches {len(shas)} files; expected only the corrected statement")
        else:
            problems.append(f"its attachments {[a.get('filename') for a in files]} are not the corrected statement")
    return False, "; ".join(problems)


def check_contact_email_updated(initial, final, trace):
    contact = _contact(final, CONTACT)
    if contact is None:
        return False, f"contact {CONTACT} (Henrik Lindqvist) is gone"
    if "lindqvist" not in (contact.get("name") or "").lower():
        return False, f"contact {CONTACT} was renamed to {contact.get('name')!r}"
    emails = [_address(e) for e in contact.get("emails") or []]
    if NEW_ADDRESS not in emails:
        return False, f"contact {CONTACT} has emails {emails}; {NEW_ADDRESS} is missing"
    if emails[0] != NEW_ADDRESS:
        return False, f"contact {CONTACT} has emails {emails}; {NEW_ADDRESS} must be the first (primary) one"
    return True, f"{NEW_ADDRESS} is the primary email of Henrik Lindqvist"


def check_contact_phone_updated(initial, final, trace):
    contact = _contact(final, CONTACT)
    if contact is None:
        return False, f"contact {CONTACT} (Henrik Lindqvist) is gone"
    phones = contact.get("phones") or []
    digits = [_digits(p) for p in phones]
    if NEW_PHONE not in digits:
        return False, f"contact {CONTACT} has phones {phones}; the new office line +49 30 2061 4478 is missing"
    if OLD_PHONE in digits:
        return False, f"contact {CONTACT} still has the old number +49 30 4403 1187 ({phones})"
    return True, "the new office line replaced the old number"


def check_contact_organization_updated(initial, final, trace):
    contact = _contact(final, CONTACT)
    if contact is None:
        return False, f"contact {CONTACT} (Henrik Lindqvist) is gone"
    org = contact.get("organization") or ""
    if not re.search(r"lindqvist\s*(?:&|\+|und|and)\s*partner", org, re.IGNORECASE):
        return False, f"contact {CONTACT} has organization {org!r}; expected Lindqvist & Partner"
    return True, f"organization is {org!r}"


def check_no_duplicate_contact(initial, final, trace):
    before = {c.get("uid") for c in initial.get("contacts") or []}
    added = [c for c in final.get("contacts") or [] if c.get("uid") not in before]
    if added:
        return False, f"new contacts were created: {[c.get('name') for c in added]}; update Henrik Lindqvist instead"
    holders = [c.get("uid") for c in final.get("contacts") or [] if NEW_ADDRESS in map(_address, c.get("emails") or [])]
    if holders not in ([], [CONTACT]):
        return False, f"{NEW_ADDRESS} was stored on {holders}, not only on {CONTACT}"
    other = _contact(final, "c-johansson")
    if other != _contact(initial, "c-johansson"):
        return False, "the other Henrik (Henrik Johansson, c-johansson) was changed"
    return True, "no duplicate contact; Henrik Johansson untouched"


def check_reminder_ticked(initial, final, trace):
    todo = _todo(final, TICK)
    if todo is None:
        return False, f"the reminder {TICK} was deleted instead of ticked off"
    if not todo.get("completed"):
        return False, f"the reminder {todo.get('title')!r} is still open"
    for uid in KEEP_OPEN:
        other, before = _todo(final, uid), _todo(initial, uid)
        if other is None:
            return False, f"the reminder {before.get('title')!r} ({uid}) was deleted"
        if other.get("completed"):
            return False, f"the reminder {other.get('title')!r} ({uid}) was ticked off too; it is a different job"
    return True, "the statement reminder is done; the payment reminder is still open"


# What the cover note may say about the statement: its year, the corrected version's back payment and
# dates (the document is dated 4 March, the landlord mailed it on 5 March). The void version's amount
# and dates (27 February, mailed 2 March) only where the note says it is the void one ("statt 486,90",
# "replaces the one of 2 March"); anything else is a wrong fact.
YEAR = re.compile(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])")
AMOUNT = re.compile(r"(?<![\w.,])\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}(?!\d)")
CORRECTED = {"amounts": {"212.40"}, "days": {(3, 4), (3, 5)}}
VOID = {"amounts": {"486.90"}, "days": {(2, 27), (3, 2)}}
VOID_WORDS = re.compile(
    r"\b(?:void|original|first|earlier|old(?:er)?|previous|replac\w*|supersed\w*|instead|rather than|wrong|"
    r"erroneous|mistaken|statt|anstatt|ersetzt\w*|ungültig\w*|gegenstandslos\w*|ursprünglich\w*|erste[nrs]?|"
    r"alte[nrs]?|fehlerhaft\w*|falsch\w*|(?:down|reduced|dropped) from)\b",
    re.IGNORECASE,
)
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH = (
    r"(?:jan(?:uary|uar)?|feb(?:ruary|ruar)?|mar(?:ch)?|märz|apr(?:il)?|ma[iy]|jun[ei]?|jul[iy]?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|o[ck]t(?:ober)?|nov(?:ember)?|de[cz](?:ember)?)"
)
# 5 March (2026), 5th of March, 5. März, March 5(th), 05.03.(2026), 2026-03-05
DATE = re.compile(
    rf"(?<!\d)(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\.?[^\S\n]+(?:of[^\S\n]+)?(?P<m1>{MONTH})\b\.?"
    r"(?:[^\S\n]+(?P<y1>(?:19|20)\d\d))?"
    rf"|\b(?P<m2>{MONTH})\b\.?[^\S\n]+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)(?:,?[^\S\n]+(?P<y2>(?:19|20)\d\d))?"
    r"|(?<![\d.,])(?P<d3>\d{1,2})\.(?P<m3>\d{1,2})\.(?P<y3>(?:19|20)?\d\d)?(?!\d)"
    r"|(?<![\d-])(?P<y4>(?:19|20)\d\d)-(?P<m4>\d{2})-(?P<d4>\d{2})(?!\d)",
    re.IGNORECASE,
)
# Where a clause ends: a line break, a semicolon, a bracket, a dash between words, or a full stop,
# comma, question or exclamation mark before a space (not "5. März", "212,40").
BREAK = re.compile(r"\n|;|[()]|\s[-–—]\s|(?<!\d)[.!?](?=\s|$)|,(?=\s)")


def _figure(text):
    """'1.234,50' or '1,234.50' as '1234.50'."""
    whole = re.sub(r"\D", "", text[:-3]) or "0"
    return f"{int(whole)}.{text[-2:]}"


def _month(name):
    key = name.lower().replace("ä", "a")[:3]
    return MONTHS.index({"mai": "may", "okt": "oct", "dez": "dec"}.get(key, key)) + 1


def _clause(text, at):
    """The clause of `text` around the position `at`."""
    starts = [m.end() for m in BREAK.finditer(text, 0, at)]
    end = BREAK.search(text, at)
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def check_cover_note_facts(initial, final, trace):
    sent = [m for m in _outbox(final) if NEW_ADDRESS in _recipients(m)]
    if not sent:
        return False, f"nothing was sent to {NEW_ADDRESS}"
    own = "\n".join(line for line in (sent[0].get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    text = f"{sent[0].get('subject') or ''}\n{own}"
    wrong = []
    for m in DATE.finditer(text):
        day = int(m["d1"] or m["d2"] or m["d3"] or m["d4"])
        month = int(m["m3"] or m["m4"]) if (m["m3"] or m["m4"]) else _month(m["m1"] or m["m2"])
        year = m["y1"] or m["y2"] or m["y3"] or m["y4"]
        void = bool(VOID_WORDS.search(_clause(text, m.start())))
        allowed = CORRECTED["days"] | (VOID["days"] if void else set())
        if (month, day) not in allowed or (year and int(year) % 100 != 26):
            wrong.append(f"the date {m.group(0).strip()!r}")
    rest = DATE.sub(lambda m: " " * len(m.group(0)), text)  # a date's day and month are not an amount
    wrong += [f"the year {y}" for y in sorted({y for y in YEAR.findall(rest) if y != "2025"})]
    for m in AMOUNT.finditer(rest):
        void = bool(VOID_WORDS.search(_clause(rest, m.start())))
        if _figure(m.group(0)) not in CORRECTED["amounts"] | (VOID["amounts"] if void else set()):
            wrong.append(f"the amount {m.group(0)}")
    if wrong:
        return False, f"the note gives wrong facts: {'; '.join(wrong)} (the corrected 2025 statement of 4/5 March, 212,40)"
    return True, "what the note says about the statement is right"
