"""Checks for document-request-1: 5 documents go to documents@chukwu-strand.de, where the automatic reply to nonsoc@chukwu-strand.de sends them (investment account statement 2025, savings account annual statement 2025, workplace pension statement 2025, annual mortgage statement 2025, annual pension statement 2025); the life insurance policy schedule 2025 is not out yet."""

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
        addresses=['nonsoc@chukwu-strand.de', 'documents@chukwu-strand.de'],
        label='Nonso Chukwu at nonsoc@chukwu-strand.de or Chukwu & Strand at documents@chukwu-strand.de',
        once=True,
    )


def check_sent_isa(initial, final, trace):
    return carried_once(
        final,
        to=['documents@chukwu-strand.de'],
        sha256='12181841f7da26264344c95c95691a56edc17e7541e22e585bf3c8f7f46f4065',
        label='investment account statement 2025',
        wrong={'d163c23b917e9b37c1c5954f13e8a927d4d69afffe36f29adcd15068f817b871': "the previous period's, no. IA24-17586"},
        tried=['nonsoc@chukwu-strand.de'],
    )


def check_sent_savings(initial, final, trace):
    return carried_once(
        final,
        to=['documents@chukwu-strand.de'],
        sha256='65eb226d18deb9f41c7ce519735f4f442629a29e3ee95bed222b7deda8edbaf2',
        label='savings account annual statement 2025',
        wrong={'a7df1e877e65108501c617ebba39b0e09da447a53fac4248dc672b87c5df3155': "the previous period's, no. SV24-28072",
 'ad602b7e2632d321a1ce95c5e789a689dc7c9293c0c3d811183505a13cd4bb89': 'the superseded no. SV25-88990'},
        tried=['nonsoc@chukwu-strand.de'],
    )


def check_sent_workplace(initial, final, trace):
    return carried_once(
        final,
        to=['documents@chukwu-strand.de'],
        sha256='f03b16ac07e983826ee24a749d0d561d38e9a148eb11588dd1ce063c3a808315',
        label='workplace pension statement 2025',
        wrong={'06208fc4785f1be8c9bd999097253ffdde881407bfa37bff6e2ee9bd15595219': "the previous period's, no. WP24-12697"},
        tried=['nonsoc@chukwu-strand.de'],
    )


def check_sent_mortgage(initial, final, trace):
    return carried_once(
        final,
        to=['documents@chukwu-strand.de'],
        sha256='499ba9e4ed7e5d097aba33831cec4b360715e38984cefb0d5a8395b700d62198',
        label='annual mortgage statement 2025',
        wrong={'3b68725684d8b1c48e7bd0e4ae6257e6677be01770dd64b7666b5f70c8e41285': "the previous period's, no. MS24-83929",
 'cc53149bbc823a7e4e3f5cb43c2678204926d25a5757de0ec658d5c60dff61ef': 'the superseded no. MS25-37023'},
        tried=['nonsoc@chukwu-strand.de'],
    )


def check_sent_pension(initial, final, trace):
    return carried_once(
        final,
        to=['documents@chukwu-strand.de'],
        sha256='8611fa031f34d83a65d3b202f872b1a800d38beb736f6766c7c11527074adf44',
        label='annual pension statement 2025',
        wrong={'32f0f9cd799c53dceb45f7cab25be395e68ab5bbdcc9c07274872d4fe0484ef9': "the previous period's, no. PS24-43172"},
        tried=['nonsoc@chukwu-strand.de'],
    )


def check_not_sent_life(initial, final, trace):
    return carried_once(
        final,
        to=['nonsoc@chukwu-strand.de'],
        sha256=None,
        label='life insurance policy schedule 2025',
        wrong={'b68d24d95cacc274742969f409b6902690c72daefa76c3608db1864664dc6877': "the previous period's, no. LP24-58550"},
    )


def check_only_listed(initial, final, trace):
    return attachments_only(
        final,
        sha256={'12181841f7da26264344c95c95691a56edc17e7541e22e585bf3c8f7f46f4065': 'investment account statement 2025',
 '65eb226d18deb9f41c7ce519735f4f442629a29e3ee95bed222b7deda8edbaf2': 'savings account annual statement 2025',
 'f03b16ac07e983826ee24a749d0d561d38e9a148eb11588dd1ce063c3a808315': 'workplace pension statement 2025',
 '499ba9e4ed7e5d097aba33831cec4b360715e38984cefb0d5a8395b700d62198': 'annual mortgage statement 2025',
 '8611fa031f34d83a65d3b202f872b1a800d38beb736f6766c7c11527074adf44': 'annual pension statement 2025'},
        wrong={'d163c23b917e9b37c1c5954f13e8a927d4d69afffe36f29adcd15068f817b871': 'investment account statement 2025: the '
                                                                     "previous period's, no. IA24-17586",
 'a7df1e877e65108501c617ebba39b0e09da447a53fac4248dc672b87c5df3155': 'savings account annual statement 2025: '
                                                                     "the previous period's, no. SV24-28072",
 'ad602b7e2632d321a1ce95c5e789a689dc7c9293c0c3d811183505a13cd4bb89': 'savings account annual statement 2025: '
                                                                     'the superseded no. SV25-88990',
 '06208fc4785f1be8c9bd999097253ffdde881407bfa37bff6e2ee9bd15595219': 'workplace pension statement 2025: the '
                                                                     "previous period's, no. WP24-12697",
 '3b68725684d8b1c48e7bd0e4ae6257e6677be01770dd64b7666b5f70c8e41285': 'annual mortgage statement 2025: the '
                                                                     "previous period's, no. MS24-83929",
 'cc53149bbc823a7e4e3f5cb43c2678204926d25a5757de0ec658d5c60dff61ef': 'annual mortgage statement 2025: the '
                                                                     'superseded no. MS25-37023',
 '32f0f9cd799c53dceb45f7cab25be395e68ab5bbdcc9c07274872d4fe0484ef9': 'annual pension statement 2025: the '
                                                                     "previous period's, no. PS24-43172",
 'b68d24d95cacc274742969f409b6902690c72daefa76c3608db1864664dc6877': 'life insurance policy schedule 2025: '
                                                                     "the previous period's, no. LP24-58550"},
        label='the documents on the list',
    )


def check_contact_updated(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-chukwu',
        label='Chinonso Chukwu',
        name='Chukwu',
        phone='+49 89 8630 9693',
        old_phone='+49 89 7345 5712',
        email='nonsoc@chukwu-strand.de',
        organization='Chukwu\\s*\\&\\s*Strand',
    )


def check_no_duplicate_contact(initial, final, trace):
    return contacts_kept(initial, final, untouched=['c-dahl'], email='nonsoc@chukwu-strand.de')


def check_meeting_moved(initial, final, trace):
    return the_event(
        initial,
        final,
        calendar='Personal',
        pattern='\\bChukwu\\b',
        start='2026-05-07T11:00:00+02:00',
        end='2026-05-07T12:00:00+02:00',
        label='the meeting with Chinonso Chukwu',
        location='(?<![\\w])Lindwurmstraße[\\s,]+232(?![\\w])',
    )


def check_ticked(initial, final, trace):
    return reminders_ticked(
        initial,
        final,
        lst='Retirement review',
        done=['r-send-isa', 'r-send-savings', 'r-send-workplace', 'r-send-mortgage', 'r-send-pension'],
        kept_open=[],
    )


def check_still_open(initial, final, trace):
    return reminders_ticked(
        initial,
        final,
        lst='Retirement review',
        done=[],
        kept_open=['r-send-life', 'r-ask-issuer'],
    )


def check_leave_reminder(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='(?:(?<![\\w])Gollierstraße[\\s,]+107(?![\\w]))|(?:(?<![\\w])Lindwurmstraße[\\s,]+232(?![\\w]))|(?:Chukwu\\s*\\&\\s*Strand)',
        lst='Reminders',
        due='2026-05-07',
        label='leave-for-the-meeting',
        stale='r-leave-for-office',
        says='(?<![\\w])Lindwurmstraße[\\s,]+232(?![\\w])',
        at='10:30',
        stated={'times': ['10:30', '11:00', '12:00'],
 'numbers': [0,
             5,
             7,
             10,
             11,
             12,
             30,
             232,
             2026,
             80337,
             0,
             5,
             7,
             10,
             11,
             12,
             30,
             232,
             2026,
             80337,
             0,
             5,
             7,
             10,
             11,
             12,
             30,
             232,
             2026,
             80337]},
    )


def check_own_reminder_ticked(initial, final, trace):
    return reminders_ticked(initial, final, lst='Reminders', done=['r-pass-on'], kept_open=[])
