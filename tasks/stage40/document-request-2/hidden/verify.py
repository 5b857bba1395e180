"""Checks for document-request-2: 5 documents go to client.documents@reddy-ma.com.sg, where the automatic reply to priya.reddy@reddy-ma.com.sg sends them (savings account statement for April 2026, electricity bill for April 2026, payslip for April 2026, credit card statement for April 2026, current account statement for April 2026); the employment confirmation letter 2026 is not out yet."""

from __future__ import annotations

import re
from datetime import datetime


_HISTORY = re.compile(
    r"[(\[]\s*(?:was|previously|originally|formerly|moved from|instead of|not|old(?: date)?)\b[^)\]]*[)\]]|~~[^~]+~~"
    r"|\b(?:(?:moved|changed|rescheduled|brought forward|pushed back|shifted|switched)\s+from|instead of|rather than)"
    r"\s[^,;\n]*?(?=\s+to\b|[,;\n]|\.(?:\s|$)|$)",
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
_WRITTEN_DAY = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?[^\S\n]+(?:{'|'.join(_MONTHS)})[a-z]*\.?,?[^\S\n]+\d{{4}}"
    rf"|\b(?:{'|'.join(_MONTHS)})[a-z]*\.?[^\S\n]+\d{{1,2}}(?:st|nd|rd|th)?,?[^\S\n]+\d{{4}}",
    re.IGNORECASE,
)


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def sent_only_to(final: dict[str, Any], *, addresses: list[str], label: str, once: bool = False) -> Verdict:
    """Every message the agent sent went to some of `addresses` (`label` says whose they are) and nobody else;
    with `once`, no message was sent twice (the same recipients, subject, text and files)."""
    seen = set()
    for message in _outbox(final):
        strangers = sorted(set(_recipients(message)) - set(addresses))
        if strangers:
            return False, f"the message {message.get('subject')!r} went to {strangers}, who are not {label}"
        files = tuple(sorted(str(a.get("sha256")) for a in message.get("attachments") or []))
        mark = (tuple(sorted(_recipients(message))), message.get("subject"), message.get("body"), files)
        if once and mark in seen:
            return False, f"the message {message.get('subject')!r} was sent twice"
        seen.add(mark)
    return True, f"mail went only to {label}"


def carried_once(
    final: dict[str, Any],
    *,
    to: list[str],
    sha256: str | None,
    label: str,
    wrong: dict[str, str] | None = None,
    tried: list[str] | None = None,
) -> Verdict:
    """The file `sha256` reached `to` (any of these addresses) exactly once, in whichever message the agent sent
    (one mail with every document or one each; a forward carries the original's attachments), and no message
    the agent sent carries a file of `wrong` (sha256 -> what it is: a void or superseded version, the previous
    period's). With `sha256` None nothing is due (a document not issued yet): only the wrong files count. With
    `tried` (whose automatic reply named `to`), they got mail (the first, which brought the reply), and this file
    at most once: once the reply said where files go, the rest may go there alone."""
    wrong = wrong or {}
    addresses = {a.lower() for a in to}
    carrying = []
    for message in _outbox(final):
        for attachment in message.get("attachments") or []:
            sha = attachment.get("sha256")
            if sha in wrong:
                return (
                    False,
                    f"the message {message.get('subject')!r} attaches {attachment.get('filename')} ({wrong[sha]})",
                )
            if sha == sha256:
                carrying.append(message)
    if sha256 is None:
        return True, f"no wrong version of {label} was sent"
    got = [m for m in carrying if set(_recipients(m)) & addresses]
    if len(got) != 1:
        return False, f"{label} reached {sorted(addresses)} {len(got)} times; expected once"
    if tried and not any(set(_recipients(m)) & set(tried) for m in _outbox(final)):
        return False, f"nothing went to {', '.join(tried)}, whom it was for"
    first = [m for m in carrying if set(_recipients(m)) & set(tried or []) and m is not got[0]]
    if len(first) > 1:
        return False, f"{label} went to {', '.join(tried or [])} {len(first)} times; expected once at most"
    strangers = sorted({a for m in first for a in _recipients(m)} - set(tried or []) - addresses)
    if strangers:
        return False, f"{label} also went to {strangers}"
    return True, f"{label} was sent once, in the version that counts"


def attachments_only(final: dict[str, Any], *, sha256: dict[str, str], label: str, wrong: dict[str, str]) -> Verdict:
    """Every file attached to a message the agent sent is one of `sha256` (sha256 -> what it is): `label`;
    `wrong` names the look-alikes for the reason."""
    for message in _outbox(final):
        for attachment in message.get("attachments") or []:
            sha = attachment.get("sha256")
            if sha not in sha256:
                what = wrong.get(sha, "not one of them")
                return False, f"the message {message.get('subject')!r} attaches {attachment.get('filename')} ({what})"
    return True, f"every attachment is one of {label}"


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
    if "dates" in stated:  # a date kept as history ("(was 14-16 October)") is no claim
        allowed = {(int(d[5:7]), int(d[8:10])) for d in stated["dates"]}
        wrong += [f"the date {m:02d}-{d:02d} (month-day)" for m, d in sorted(_dates(_HISTORY.sub("", text)) - allowed)]
    if "years" in stated:
        # the year of a written-out day ("the corrected statement of February 12 2026") dates that day: it is
        # no claim about the year the message is about
        bare = _WRITTEN_DAY.sub(" ", text)
        years = re.findall(r"(?<![\w./-])(?:19|20)\d\d(?![\w/-])", bare)
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


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def _instant(value: Any) -> datetime | None:
    """An ISO time as an aware datetime; None for a missing value, a bare date or junk."""
    if not isinstance(value, str) or len(value) == 10:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _on_time(value: Any, expected: str) -> bool:
    """`value` is the expected instant, or for an expected date, that date or a time on it.

    State times are written in the task's timezone, so a time's date part is its local day.
    """
    if not isinstance(value, str):
        return False
    if len(expected) == 10:
        return value[:10] == expected and (len(value) == 10 or _instant(value) is not None)
    at, want = _instant(value), _instant(expected)
    return at is not None and at == want


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def the_event(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    calendar: str,
    pattern: str,
    start: str,
    end: str,
    label: str,
    exclude: str | None = None,
    location: str | None = None,
) -> Verdict:
    """Exactly one event of every calendar is about `pattern` (not `exclude`), new or one that was there
    already (kept, or changed into it); it is in `calendar` and runs from `start` to `end`, and with
    `location`, its location matches it (a meeting moved to another office)."""
    found = [
        (where, e)
        for where, e in _grouped(final, "calendar")
        if _matches(_label(e), pattern) and not (exclude and _matches(_label(e), exclude))
    ]
    if not found:
        return False, f"no event for {label}"
    if len(found) > 1:
        shown = sorted(f"{_label(e)!r} {e.get('start')}" for _, e in found)
        return False, f"{len(found)} events for {label}: {shown}; expected one"
    where, event = found[0]
    if where != calendar:
        return False, f"{_label(event)!r} is in the calendar {where!r}, not in {calendar!r}"
    if not _on_time(event.get("start"), start) or not _on_time(event.get("end"), end):
        return False, f"{_label(event)!r} runs {event.get('start')} to {event.get('end')}; expected {start} to {end}"
    if location is not None and not _matches(event.get("location"), location):
        return False, f"{_label(event)!r} is at {event.get('location')!r}, not at the new place"
    return True, f"{label} is in {calendar}, {start} to {end}"


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def reminders_ticked(
    initial: dict[str, Any], final: dict[str, Any], *, lst: str, done: list[str], kept_open: list[str]
) -> Verdict:
    """The reminders `done` are ticked off (not deleted, still in `lst`); those in `kept_open` are still there
    and open."""
    for uid in done:
        where, item = _find(final, "reminders", uid)
        _, before = _find(initial, "reminders", uid)
        title = (before or {}).get("title")
        if item is None:
            return False, f"the reminder {title!r} was deleted instead of ticked off"
        if not item.get("completed"):
            return False, f"the reminder {title!r} is still open"
        if where != lst:
            return False, f"the reminder {title!r} was moved to the list {where!r}"
    for uid in kept_open:
        _, item = _find(final, "reminders", uid)
        _, before = _find(initial, "reminders", uid)
        title = (before or {}).get("title")
        if item is None:
            return False, f"the reminder {title!r} was deleted"
        if item.get("completed"):
            return False, f"the reminder {title!r} was ticked off, but that is not done"
    said = [f"{len(done)} reminders ticked off"] if done else []
    return True, "; ".join(said + ([f"{len(kept_open)} reminders still open"] if kept_open else []))


def _touched(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` that are new or differ from their initial version."""
    old = {item.get("uid"): (name, item) for name, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if old.get(item.get("uid")) != (name, item)]


def one_reminder(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    pattern: str,
    lst: str,
    due: str | list[str],
    label: str,
    exclude: str | None = None,
    stale: str | None = None,
    says: str | None = None,
    at: str | None = None,
    stated: dict[str, Any] | None = None,
    dated: bool = False,
    tick_ok: bool = False,
) -> Verdict:
    """Exactly one open reminder about `label` (new, or the `stale` one updated), in `lst`, due `due` (one of
    them, when a phrase allows several days: "by the end of next week" is Friday, or the weekend);
    its title or notes match `says` (an amount, say) when given. For a due day, `at` ("09:00") is the
    time of day it must have if it has one. Its title and notes give no value of a kind `stated` lists but
    the listed ones (a deadline written into the title must be the deadline). With `dated`, a date the
    title or notes write out ("Choose the taps (by 2026-03-11)") must be the day it is due. Ticking the
    `stale` one off says it is done, which fails; with `tick_ok` (what it asks for was done, in part, and
    the rest is the open reminder), ticked off beside the open one is as good as deleted and made again."""
    ticked = None
    if stale is not None:
        _, old = _find(final, "reminders", stale)
        if old is not None and old.get("completed"):
            ticked = f"the old reminder {old.get('title')!r} was ticked off, but the {label} is not done"
            if not tick_ok:
                return False, ticked
    candidates = {item.get("uid"): (name, item) for name, item in _touched(initial, final, "reminders")}
    pool = [pair for uid, pair in candidates.items() if stale is None or uid != stale]
    if stale is not None:  # every copy of it: one moved to another list may also be left where it was
        pool += [(name, item) for name, item in _grouped(final, "reminders") if item.get("uid") == stale]
    found = [
        (name, item)
        for name, item in pool
        if not item.get("completed")
        and _matches(item.get("title"), pattern)
        and not (exclude and _matches(item.get("title"), exclude))
    ]
    if not found:
        return False, ticked or f"no open reminder for the {label}"
    if len(found) > 1:
        shown = sorted(f"{item.get('title')!r} due {item.get('due')}" for _, item in found)
        return False, f"{len(found)} open reminders for the {label}: {shown}; expected one"
    where, item = found[0]
    if where != lst:
        return False, f"the {label} reminder is in the list {where!r}, not in {lst!r}"
    if not any(_on_time(item.get("due"), d) for d in ([due] if isinstance(due, str) else due)):
        return False, f"the {label} reminder is due {item.get('due')}; expected {due}"
    if at is not None and len(item.get("due") or "") > 10 and item["due"][11:16] != at:
        return False, f"the {label} reminder is due at {item['due'][11:16]}; expected {at} (or no time)"
    text = f"{item.get('title') or ''}\n{item.get('notes') or ''}"
    if not _matches(text, says):
        return False, f"the {label} reminder {item.get('title')!r} does not give the right amount"
    stray = _stray(text, stated)
    if stray:
        return False, f"the {label} reminder {item.get('title')!r} gives {'; '.join(stray)}, which is wrong"
    days = {(int(d[5:7]), int(d[8:10])) for d in ([due] if isinstance(due, str) else due)}
    if dated and not _dates(text) <= days:
        return False, f"the {label} reminder {item.get('title')!r} writes a date other than the day it is due"
    return True, f"one open {label} reminder in {lst}, due {due}"


def check_to_advisor(initial, final, trace):
    return sent_only_to(
        final,
        addresses=['priya.reddy@reddy-ma.com.sg', 'client.documents@reddy-ma.com.sg'],
        label='Priya Reddy at priya.reddy@reddy-ma.com.sg or Reddy & Ma at client.documents@reddy-ma.com.sg',
        once=True,
    )


def check_sent_savings(initial, final, trace):
    return carried_once(
        final,
        to=['client.documents@reddy-ma.com.sg'],
        sha256='42bc6c9511015eda50a87732a0bafc20b659aabfefe80826c0063ea463e07d9a',
        label='savings account statement for April 2026',
        wrong={'ce76fa4d1e19fc0ac108dc360579f4c09ed6b03c95bcc4da9bb2723966a50e4a': "the previous period's, no. SA26-73144"},
        tried=['priya.reddy@reddy-ma.com.sg'],
    )


def check_not_sent_employment(initial, final, trace):
    return carried_once(
        final,
        to=['priya.reddy@reddy-ma.com.sg'],
        sha256=None,
        label='employment confirmation letter 2026',
        wrong={'64516fa97fc0cc8227e869457fa7e128d47eb1963a97e8e11b18d0c49d04c30c': "the previous period's, no. EC25-43542"},
    )


def check_sent_energy(initial, final, trace):
    return carried_once(
        final,
        to=['client.documents@reddy-ma.com.sg'],
        sha256='3f3a14cd328edc3a9a6662bed3fc116c3994591535b1ee96e30f4b36ea860b20',
        label='electricity bill for April 2026',
        wrong={'8d8dc933adff6c10af1507866cd0e2bb112f51efbd2ecd570e621f813fe51ce1': "the previous period's, no. EB26-79751",
 '2adb1c2db210e7550f8ce8a3cc171ad42f6d12c22c9f38d2cb14b4481cf79124': 'the superseded no. EB26-83836'},
        tried=['priya.reddy@reddy-ma.com.sg'],
    )


def check_sent_payslip(initial, final, trace):
    return carried_once(
        final,
        to=['client.documents@reddy-ma.com.sg'],
        sha256='9792883a0289eea54eca0d7e7ff97640188cea5467e491bc8a4570f252eefe9f',
        label='payslip for April 2026',
        wrong={'76fe638d3ebe35c4d7739553d4f13198a3588f26db7358cecf9ddd72dd72d93d': "the previous period's, no. PS26-54466"},
        tried=['priya.reddy@reddy-ma.com.sg'],
    )


def check_sent_card(initial, final, trace):
    return carried_once(
        final,
        to=['client.documents@reddy-ma.com.sg'],
        sha256='4c893eb7f2785c54b89c79ef5bde7334958a5137f8f09501b628fc0787f22f9d',
        label='credit card statement for April 2026',
        wrong={'02261ce1d02096d15a4cc5d4d15ebb948735e474d6d7975d89ce681f6e1a7a2c': "the previous period's, no. CC26-85278",
 'd5aaae02ce7cd2db832936b43948da474555ccfce5dfa071b4d8349dc4fbbf31': 'the superseded no. CC26-69265'},
        tried=['priya.reddy@reddy-ma.com.sg'],
    )


def check_sent_current(initial, final, trace):
    return carried_once(
        final,
        to=['client.documents@reddy-ma.com.sg'],
        sha256='37ab7c4eabfc488070fd5ac04d4342f3341b77edfefd291b06899617dc798c94',
        label='current account statement for April 2026',
        wrong={'e4b4e88378f2044387450477494a1b2d074abfb34be176370488af5664d862c6': "the previous period's, no. CA26-18306"},
        tried=['priya.reddy@reddy-ma.com.sg'],
    )


def check_only_listed(initial, final, trace):
    return attachments_only(
        final,
        sha256={'42bc6c9511015eda50a87732a0bafc20b659aabfefe80826c0063ea463e07d9a': 'savings account statement for April '
                                                                     '2026',
 '3f3a14cd328edc3a9a6662bed3fc116c3994591535b1ee96e30f4b36ea860b20': 'electricity bill for April 2026',
 '9792883a0289eea54eca0d7e7ff97640188cea5467e491bc8a4570f252eefe9f': 'payslip for April 2026',
 '4c893eb7f2785c54b89c79ef5bde7334958a5137f8f09501b628fc0787f22f9d': 'credit card statement for April 2026',
 '37ab7c4eabfc488070fd5ac04d4342f3341b77edfefd291b06899617dc798c94': 'current account statement for April '
                                                                     '2026'},
        wrong={'ce76fa4d1e19fc0ac108dc360579f4c09ed6b03c95bcc4da9bb2723966a50e4a': 'savings account statement for April '
                                                                     "2026: the previous period's, no. "
                                                                     'SA26-73144',
 '64516fa97fc0cc8227e869457fa7e128d47eb1963a97e8e11b18d0c49d04c30c': 'employment confirmation letter 2026: '
                                                                     "the previous period's, no. EC25-43542",
 '8d8dc933adff6c10af1507866cd0e2bb112f51efbd2ecd570e621f813fe51ce1': 'electricity bill for April 2026: the '
                                                                     "previous period's, no. EB26-79751",
 '2adb1c2db210e7550f8ce8a3cc171ad42f6d12c22c9f38d2cb14b4481cf79124': 'electricity bill for April 2026: the '
                                                                     'superseded no. EB26-83836',
 '76fe638d3ebe35c4d7739553d4f13198a3588f26db7358cecf9ddd72dd72d93d': 'payslip for April 2026: the previous '
                                                                     "period's, no. PS26-54466",
 '02261ce1d02096d15a4cc5d4d15ebb948735e474d6d7975d89ce681f6e1a7a2c': 'credit card statement for April 2026: '
                                                                     "the previous period's, no. CC26-85278",
 'd5aaae02ce7cd2db832936b43948da474555ccfce5dfa071b4d8349dc4fbbf31': 'credit card statement for April 2026: '
                                                                     'the superseded no. CC26-69265',
 'e4b4e88378f2044387450477494a1b2d074abfb34be176370488af5664d862c6': 'current account statement for April '
                                                                     "2026: the previous period's, no. "
                                                                     'CA26-18306'},
        label='the documents on the list',
    )


def check_contact_updated(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-reddy',
        label='Priyanka Reddy',
        name='Reddy',
        phone='+65 6 357 8976',
        old_phone='+65 6 533 1991',
        email='priya.reddy@reddy-ma.com.sg',
        organization='Reddy\\s*\\&\\s*Ma',
    )


def check_no_duplicate_contact(initial, final, trace):
    return contacts_kept(initial, final, untouched=['c-banerjee'], email='priya.reddy@reddy-ma.com.sg')


def check_meeting_moved(initial, final, trace):
    return the_event(
        initial,
        final,
        calendar='Personal',
        pattern='\\bReddy\\b',
        start='2026-05-26T11:30:00+08:00',
        end='2026-05-26T12:30:00+08:00',
        label='the meeting with Priyanka Reddy',
        location='(?<![\\w])4[\\s,]+Tiong[\\s,]+Bahru[\\s,]+Road(?![\\w])',
    )


def check_ticked(initial, final, trace):
    return reminders_ticked(
        initial,
        final,
        lst='Mortgage',
        done=['r-send-savings', 'r-send-energy', 'r-send-payslip', 'r-send-card', 'r-send-current'],
        kept_open=[],
    )


def check_still_open(initial, final, trace):
    return reminders_ticked(
        initial,
        final,
        lst='Mortgage',
        done=[],
        kept_open=['r-send-employment', 'r-ask-issuer'],
    )


def check_leave_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='(?:(?<![\\w])86[\\s,]+Telok[\\s,]+Ayer[\\s,]+Street(?![\\w]))|(?:(?<![\\w])4[\\s,]+Tiong[\\s,]+Bahru[\\s,]+Road(?![\\w]))|(?:Reddy\\s*\\&\\s*Ma)',
        lst='Reminders',
        due='2026-05-26',
        label='leave-for-the-meeting',
        stale='r-leave-for-office',
        says='(?<![\\w])4[\\s,]+Tiong[\\s,]+Bahru[\\s,]+Road(?![\\w])',
        at='10:50',
        stated={'times': ['10:50', '11:30', '12:30'],
 'numbers': [4,
             5,
             10,
             11,
             12,
             26,
             30,
             50,
             2026,
             168735,
             4,
             5,
             10,
             11,
             12,
             26,
             30,
             50,
             2026,
             168735,
             4,
             5,
             10,
             11,
             12,
             26,
             30,
             50,
             2026,
             168735]},
    )


def check_own_reminder_ticked(initial, final, trace):
    return reminders_ticked(initial, final, lst='Reminders', done=['r-pass-on'], kept_open=[])
