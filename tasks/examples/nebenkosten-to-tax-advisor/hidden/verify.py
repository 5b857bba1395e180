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


# What the cover note may say about the statement: its year, and the amounts of the corrected and
# the void version (the void one named as such is fine; anything else is a wrong figure).
YEAR = re.compile(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])")
AMOUNT = re.compile(r"(?<![\w.,])\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}(?!\d)")
FIGURES = {"212.40", "486.90"}


def _figure(text):
    """'1.234,50' or '1,234.50' as '1234.50'."""
    whole = re.sub(r"\D", "", text[:-3]) or "0"
    return f"{int(whole)}.{text[-2:]}"


def check_cover_note_facts(initial, final, trace):
    sent = [m for m in _outbox(final) if NEW_ADDRESS in _recipients(m)]
    if not sent:
        return False, f"nothing was sent to {NEW_ADDRESS}"
    own = "\n".join(line for line in (sent[0].get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    text = f"{sent[0].get('subject') or ''}\n{own}"
    years = sorted({y for y in YEAR.findall(text) if y != "2025"})
    figures = sorted({a for a in AMOUNT.findall(text) if _figure(a) not in FIGURES})
    if years or figures:
        return False, f"the note gives wrong facts: years {years}, amounts {figures} (the statement is 2025's, 212,40)"
    return True, "what the note says about the statement is right"
