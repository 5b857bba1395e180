"""Checks for contact-upkeep-1: Alexander Holloway changed jobs, Fiona Winslow, Deepika Krishnamurthy and Nnamdi Okeke moved, Stuart Blackwood and Eleanor Thornton have new details."""

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


def _item_text(app: str, item: dict[str, Any]) -> str:
    """What the user's own item says: a reminder's title and notes, an event's title, place and notes, a
    note's title and body, a file's text."""
    fields = {
        "reminders": ("title", "notes"),
        "calendar": ("summary", "location", "description"),
        "notes": ("title", "body"),
        "files": ("text",),
    }[app]
    return "\n".join(str(item.get(f) or "") for f in fields)


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


def _iso_like(value: str) -> bool:
    return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:T.*)?", value))


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _own_items(initial: dict[str, Any], final: dict[str, Any], app: str, uid: str) -> list[tuple[Any, Any, bool]]:
    """(where, item, is it `uid`) for `uid` and every item of `app` made since the start; files are keyed by
    their path (`uid`), which a file written again keeps."""
    if app == "files":
        stored = (final.get("files") or {}).get(uid)
        return [(None, stored, True)] if stored and stored.get("text") is not None else []
    old = {item.get("uid") for _, item in _grouped(initial, app)}
    return [
        (where, item, item.get("uid") == uid)
        for where, item in _grouped(final, app)
        if item.get("uid") == uid or item.get("uid") not in old
    ]


def echo_fixed(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    app: str,
    uid: str,
    about: str,
    new: dict[str, str],
    old: str,
    label: str,
    lines: bool = False,
    same: list[str] | None = None,
    keep: list[str] | None = None,
) -> Verdict:
    """The user's own item `uid` of `app` (a reminder, an event, a note, or a file by its path) gave someone's
    old details (`old` matches them) and now gives the new ones, updated in place or deleted and made again:
    of `uid` and the items made since the start that match `about` (with `lines`, of their lines that match
    `about`: a row of a file, a line of a list in a note), exactly one gives every pattern of `new`, and none
    that is still live (a reminder not ticked off) gives `old` without them (the old one left beside the new
    one). The one that gives them is where `uid` was (its calendar, list or folder), has `uid`'s `same` fields
    (a due day, a start and an end) as they were and, with `keep`, still has each of those lines as it was."""
    found = [
        (where, item, mine)
        for where, item, mine in _own_items(initial, final, app, uid)
        if not item.get("completed") and item.get("status") != "CANCELLED"
    ]
    units = []
    for where, item, mine in found:
        text = _item_text(app, item)
        parts = [line for line in text.splitlines() if mine or _matches(line, about)] if lines else [text]
        for part in parts:
            if mine and lines and not _matches(part, about) and not _matches(part, old):
                continue
            if mine or _matches(part, about):
                units.append((where, item, part))
    stale = [part for _, _, part in units if _matches(part, old) and _missing(part, new)]
    if stale:
        return False, f"the {label} still gives the old details: {stale[0].strip()[:120]!r}"
    giving = [(where, item, part) for where, item, part in units if not _missing(part, new)]
    if not giving:
        missing = sorted({m for _, _, part in units for m in _missing(part, new)})
        return False, f"nothing of the user's gives the {label} with {', '.join(missing) or 'the new details'}"
    if len(giving) > 1:
        return False, f"{len(giving)} items or lines give the {label}; expected one (the old one updated)"
    where, item, _ = giving[0]
    if app != "files":
        before_where, before = _find(initial, app, uid)
        if where != before_where:
            return False, f"the {label} is in {where!r}, not in {before_where!r} where it was"
        for name in same or []:
            was, now = (before or {}).get(name), item.get(name)
            kept = _on_time(now, was) if isinstance(was, str) and _iso_like(was) else now == was
            if not kept:
                return False, f"the {label}'s {name} is {now!r}; it was {was!r}"
    have = {line.strip() for line in _item_text(app, item).splitlines()}
    lost = [line for line in keep or [] if line.strip() not in have]
    if lost:
        return False, f"the {label}: the line {lost[0].strip()!r} beside it was changed or removed"
    return True, f"the {label} gives the new details, once, where it was"


def lines_kept(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    app: str,
    uid: str,
    lines: list[str],
    label: str,
    wrong: str | None = None,
) -> Verdict:
    """The lines `lines` of the user's note or file `uid` (a file by its path) are still there as they were
    (a note deleted and made again in its folder may hold them), and no line of it matches `wrong` (a change
    that is not so)."""
    found = _own_items(initial, final, app, uid)
    if app == "notes":
        before_where, _ = _find(initial, app, uid)
        found = [(where, item, mine) for where, item, mine in found if mine or where == before_where]
    texts = [_item_text(app, item) for _, item, _ in found]
    have = {line.strip() for text in texts for line in text.splitlines()}
    lost = [line for line in lines if line.strip() not in have]
    if lost:
        return False, f"{label}: the line {lost[0].strip()!r} was changed or removed"
    if wrong is not None:
        bad = [line for text in texts for line in text.splitlines() if _matches(line, wrong)]
        if bad:
            return False, f"{label}: {bad[0].strip()!r} is not so"
    return True, f"{label}: as it was"


def _label(item: dict[str, Any]) -> str:
    return item.get("summary") or item.get("title") or item.get("subject") or item.get("name") or ""


def events_kept(initial: dict[str, Any], final: dict[str, Any], *, uids: list[str], label: str) -> Verdict:
    """Each event of `uids` is as it was, in the same calendar."""
    for uid in uids:
        if _find(final, "calendar", uid) != _find(initial, "calendar", uid):
            _, before = _find(initial, "calendar", uid)
            return False, f"{_label(before or {})!r} ({uid}) was changed or removed: {label}"
    return True, f"the {len(uids)} events are as they were"


def _times_of_day(text: str) -> set[tuple[int, int]]:
    """(hour, minute) of every time of day written out in `text`: 16:00, 4pm, 4.30 p.m., 16h30."""
    found = set()
    for m in re.finditer(r"(?<![\d:.])(\d{1,2})(?:[:.h](\d{2}))?\s*([ap])\.?m\b\.?", text, re.I):
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
        found.add((hour, int(m.group(2) or 0)))
    for m in re.finditer(r"(?<![\d:.])(\d{1,2})[:h](\d{2})(?!\s*[ap]\.?m\b)(?![\d:])", text, re.I):
        found.add((int(m.group(1)), int(m.group(2))))
    return found


def _written_dates(text: str, dates: list[str] | None) -> list[tuple[int, int]]:
    """The calendar dates `text` writes out that are not among `dates` (ISO days); none when not given."""
    if dates is None:
        return []
    return sorted(_dates(text) - {(int(d[5:7]), int(d[8:10])) for d in dates})


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def answered(
    final: dict[str, Any],
    *,
    to: str,
    thread: list[str],
    subject: str,
    patterns: dict[str, str],
    label: str,
    dates: list[str] | None = None,
    times: list[str] | None = None,
) -> Verdict:
    """Exactly one message the agent wrote went to `to`, and it answers their mail: its In-Reply-To is one
    of `thread` (a reply) or its subject holds `subject` (a new message in the thread). Its own words give
    every labelled fact; the calendar dates they write out are all among `dates` (ISO days) and the times
    of day among `times` (HH:MM) when given, so a wrong day or hour cannot ride along with a right one."""
    got = _to(final, to)
    if not got:
        return False, f"nothing was sent to {label} ({to})"
    if len(got) > 1:
        return False, f"{len(got)} messages went to {label}; one answer is enough"
    message = got[0]
    if message.get("in_reply_to") not in thread and subject.casefold() not in (message.get("subject") or "").casefold():
        return False, f"the message {message.get('subject')!r} to {label} does not answer their mail"
    text = _own_words(message)
    missing = _missing(text, patterns)
    if missing:
        return False, f"the answer to {label} does not give " + "; ".join(missing)
    wrong = _written_dates(text, dates)
    if wrong:
        return False, f"the answer to {label} gives the wrong date(s) {wrong} (month, day)"
    if times is not None:
        odd = sorted(_times_of_day(text) - {(int(x[:2]), int(x[3:5])) for x in times})
        if odd:
            return False, f"the answer to {label} gives the wrong time(s) {odd} (hour, minute)"
    return True, f"{label} got one answer, giving {sorted(patterns)}"


def _first_try(
    final: dict[str, Any], message: dict[str, Any], tried: list[str] | None, also: list[str]
) -> list[dict[str, Any]] | str:
    """With `tried` (an address whose automatic reply named the one `message` went to): the one earlier message
    to it, if any (to it alone, or with `also`; it has to say what `message` says); a reason when there were
    more, or when `tried` got nothing at all."""
    if not tried:
        return []
    first = [m for m in _outbox(final) if set(_recipients(m)) & set(tried) and m is not message]
    if len(first) > 1:
        return f"{len(first)} messages went to {', '.join(tried)}; expected one at most"
    if not first and not set(_recipients(message)) & set(tried):
        return f"nothing went to {', '.join(tried)}, whom it was for"
    others = sorted({a for m in first for a in _recipients(m)} - set(tried) - set(also))
    return f"the message to {', '.join(tried)} also went to {others}" if others else first


def _said(message: dict[str, Any]) -> str:
    """What a message says in its sender's name: its own words, and what it forwards of the sender's own earlier
    mail (resending a message by forwarding it says it again)."""
    sender = _address(str(message.get("from") or ""))
    kept, own, headers = [], False, False
    for line in (message.get("body") or "").splitlines():
        quoted = line.lstrip()
        if not quoted.startswith(">"):
            kept.append(line)
            own = headers = False
            continue
        text = quoted[1:].strip()
        if text.lower().startswith("from:"):  # a forwarded message's headers begin
            own, headers = bool(sender) and _address(text[5:]) == sender, True
        elif headers:
            headers = bool(text)  # its headers end at the first empty line
            if own and text.lower().startswith("subject:"):
                kept.append(text[8:].strip())
        elif own and not text.startswith(">"):  # what that mail quoted in turn is not the user's
            kept.append(text)
    return f"{message.get('subject') or ''}\n" + "\n".join(kept)


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
    tried: dict[str, str] | None = None,
) -> Verdict:
    """One message to each address in `to` (address -> who), to that address alone, and nothing else sent;
    with `says`, the message to an address gives each labelled thing (address -> label -> pattern), and
    with `stated` (address -> kinds), no other value of a listed kind. With `ask`, the person
    `ask["instead_of"]` may go without one when the user was asked (see `sent_once`). With `tried` (an
    address whose automatic reply named one of `to` -> that one), the answering address got it too: in copy
    of the message to the named one, or in one first message to it alone, which counts for nobody (see
    `_first_try`); a forward of that first message says what it said."""
    wrong = wrong or {}
    tried = tried or {}
    if ask is not None and _asked(final, trace, [ask["instead_of"]], ask):
        to = {a: who for a, who in to.items() if a != ask["instead_of"]}
    by_address: dict[str, list[dict[str, Any]]] = {}
    for message in _outbox(final):
        people = sorted(set(_recipients(message)))
        # an address whose automatic reply named another stands for that one (its first message, or a copy)
        whose = sorted({tried.get(p, p) for p in people})
        if len(whose) != 1 or whose[0] not in to:
            why = "".join(f" ({wrong[p]})" for p in people if p in wrong)
            return False, f"the message {message.get('subject')!r} went to {people}{why}; expected one of {sorted(to)}"
        if set(people) <= set(tried):
            continue  # the first message, the one the automatic reply answered (`_first_try` below)
        by_address.setdefault(whose[0], []).append(message)
    for address, who in to.items():
        got = by_address.get(address, [])
        if len(got) != 1:
            return False, f"{len(got)} messages went to {who} ({address}); expected one"
        text = _said(got[0]) if address in tried.values() else _own_words(got[0])
        missing = _missing(text, (says or {}).get(address, {}))
        if missing:
            return False, f"the message to {who} does not give " + "; ".join(missing)
        stray = _stray(text, (stated or {}).get(address))
        if stray:
            return False, f"the message to {who} gives {'; '.join(stray)}, which is wrong"
    for answered, named in tried.items():
        if named in by_address:
            first = _first_try(final, by_address[named][0], [answered], [named])
            if isinstance(first, str):
                return False, first
    return True, f"one message each to {sorted(to.values())}"


KEEP = ['name,mobile,email,travel',
 'Abhishek Banerjee,+44 7027 182904,abanerjee@gmail.com,train',
 'Wojciech Mazur,+44 7922 867401,wojciech_mazur@outlook.com,train',
 'Daniel Pemberton,+44 7935 640598,daniel_pemberton@outlook.com,driving']

TO = {'alex@fernhill-media.co.uk': 'Alexander Holloway',
 'fiona.winslow@outlook.com': 'Fiona Winslow',
 'deepika_krishnamurthy@hotmail.co.uk': 'Deepika Krishnamurthy',
 'nokeke@gmail.com': 'Nnamdi Okeke',
 'stuart_blackwood@outlook.com': 'Stuart Blackwood',
 'eleanor.thornton@gmail.com': 'Eleanor Thornton'}


def check_new_job(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-holloway',
        label='Alexander Holloway',
        name='Holloway',
        organization='Fernhill\\s*Media',
        title='^\\s*Operations\\ Lead\\s*$',
    )


def check_new_job_reach(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-holloway',
        label='Alexander Holloway',
        name='Holloway',
        email='alex@fernhill-media.co.uk',
        phone='+44 161 496 7331',
        old_phone=['+44 20 7657 0966', '+44 161 496 7395'],
    )


def check_moved_address(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-winslow',
        label='Fiona Winslow',
        name='Winslow',
        notes='(?<![\\w])16[\\s,]+Rye[\\s,]+Lane[\\s,]+London[\\s,]+SE15[\\s,]+4QN(?![\\w])',
        notes_stated={'numbers': [16, 136, 136]},
    )


def check_moved_number(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-winslow',
        label='Fiona Winslow',
        name='Winslow',
        phone='+44 20 7433 5258',
        old_phone='+44 161 496 8882',
    )


def check_moved_history(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-winslow',
        label='Fiona Winslow',
        name='Winslow',
        notes='(?<![\\w])136[\\s,]+Deansgate[\\s,]+Manchester[\\s,]+M3[\\s,]+4LQ(?![\\w])',
    )


def check_moved_address_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-krishnamurthy',
        label='Deepika Krishnamurthy',
        name='Krishnamurthy',
        notes='(?<![\\w])159[\\s,]+Broughton[\\s,]+Street[\\s,]+Edinburgh[\\s,]+EH1[\\s,]+3RJ(?![\\w])',
        notes_stated={'numbers': [159, 23, 23]},
    )


def check_moved_number_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-krishnamurthy',
        label='Deepika Krishnamurthy',
        name='Krishnamurthy',
        phone='+44 131 496 9323',
        old_phone='+44 161 496 5624',
    )


def check_moved_history_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-krishnamurthy',
        label='Deepika Krishnamurthy',
        name='Krishnamurthy',
        notes='(?<![\\w])23[\\s,]+Oldham[\\s,]+Street[\\s,]+Manchester[\\s,]+M1[\\s,]+1JQ(?![\\w])',
    )


def check_moved_address_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-okeke',
        label='Nnamdi Okeke',
        name='Okeke',
        notes='(?<![\\w])187[\\s,]+Bishopsgate[\\s,]+London[\\s,]+EC2M[\\s,]+4YE(?![\\w])',
        notes_stated={'numbers': [187, 116, 116]},
    )


def check_moved_number_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-okeke',
        label='Nnamdi Okeke',
        name='Okeke',
        phone='+44 20 7821 7081',
        old_phone='+44 131 496 4793',
    )


def check_moved_history_3(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-okeke',
        label='Nnamdi Okeke',
        name='Okeke',
        notes='(?<![\\w])116[\\s,]+Cockburn[\\s,]+Street[\\s,]+Edinburgh[\\s,]+EH1[\\s,]+1BS(?![\\w])',
    )


def check_retracted_kept(initial, final, trace):
    return contacts_kept(initial, final, untouched=['c-farah'], email='mohammed.farah@gmail.com')


def check_club_member(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-blackwood',
        label='Stuart Blackwood',
        name='Blackwood',
        email='stuart_blackwood@outlook.com',
        phone='+44 7977 086990',
        old_phone='+44 7308 639709',
    )


def check_club_member_2(initial, final, trace):
    return contact_is(
        initial,
        final,
        uid='c-thornton',
        label='Eleanor Thornton',
        name='Thornton',
        email='eleanor.thornton@gmail.com',
        phone='+44 7941 403715',
        old_phone='+44 7603 526705',
    )


def check_no_strays(initial, final, trace):
    return contacts_kept(
        initial,
        final,
        untouched=['c-pemberton',
 'c-mazur',
 'c-wojcik',
 'c-holloway-2',
 'c-iyer',
 'c-kulkarni',
 'c-caldwell',
 'c-nair',
 'c-folasade-akinola',
 'c-huda-nasser',
 'c-huda-haddad',
 'c-malgorzata-krol',
 'c-kwabena-agyeman',
 'c-deepika-mehta',
 'c-harriet-ellison',
 'c-ngozi-eze',
 'c-folasade-okonjo',
 'c-daniel-radcliffe',
 'c-oliver-hargreaves',
 'c-victoria-hargreaves',
 'c-rania-saleh',
 'c-subramanian-desai',
 'c-matthew-ellison',
 'c-ifeoma-nwosu',
 'c-aleksander-sikora',
 'c-benjamin-ellison',
 'c-funmilayo-okonjo',
 'c-magdalena-nowak',
 'c-oluwatobi-adebayo',
 'c-priyanka-raman',
 'c-nicholas-osborne',
 'c-charlotte-prescott',
 'c-olufemi-balogun',
 'c-rania-khalil',
 'c-adaeze-nwosu',
 'c-charlotte-radcliffe',
 'c-kwame-agyeman',
 'c-rohan-reddy',
 'c-raghavendra-sharma',
 'c-nnamdi-chukwu',
 'c-abhishek-rao',
 'c-folasade-afolabi',
 'c-yousef-aziz',
 'c-olufemi-akinola',
 'c-jonathan-fairbanks',
 'c-imogen-sinclair',
 'c-elizabeth-hadley',
 'c-subramanian-mehta',
 'c-yasmin-aziz',
 'c-charlotte-fletcher',
 'c-rachel-barnes',
 'c-ayodeji-adeyemi',
 'c-kwabena-owusu',
 'c-joanna-zajac',
 'c-krzysztof-sikora',
 'c-abena-boateng',
 'c-vikram-mehta',
 'c-wojciech-krol',
 'c-siddharth-reddy',
 'c-olufemi-ademola',
 'c-chiamaka-obi',
 'c-pawel-sikora',
 'c-magdalena-krawczyk',
 'c-chukwuemeka-onyekachi',
 'c-tariq-hamdan',
 'c-samantha-langley',
 'c-harriet-ashworth',
 'c-amara-nwachukwu',
 'c-arjun-desai',
 'c-charlotte-barnes',
 'c-thomas-cartwright',
 'c-abena-darko',
 'c-chinonso-anyanwu',
 'c-adebayo-okonjo',
 'c-aishwarya-rao',
 'c-graham-turnbull',
 'c-matthew-osborne',
 'c-oluwaseun-fashola'],
        email='alex@fernhill-media.co.uk',
    )


def check_echo_card(initial, final, trace):
    return echo_fixed(
        initial,
        final,
        app='reminders',
        uid='r-fiona-birthday-card',
        about='card',
        new={'the new home': '(?<![\\w])16[\\s,]+Rye[\\s,]+Lane[\\s,]+London[\\s,]+SE15[\\s,]+4QN(?![\\w])'},
        old='(?<![\\w])136[\\s,]+Deansgate(?![\\w])',
        label="reminder to post Fiona's birthday card",
        same=['due'],
    )


def check_echo_card_list(initial, final, trace):
    return echo_fixed(
        initial,
        final,
        app='notes',
        uid='n-christmas-card-list',
        about='Deepika|Krishnamurthy',
        new={'the new home': '(?<![\\w])159[\\s,]+Broughton[\\s,]+Street[\\s,]+Edinburgh[\\s,]+EH1[\\s,]+3RJ(?![\\w])'},
        old='(?<![\\w])23[\\s,]+Oldham[\\s,]+Street(?![\\w])',
        label="Deepika Krishnamurthy's line of the card list",
        lines=True,
        keep=['Addresses for the cards',
 'Benjamin Caldwell: 38 Mare Street, London E8 3RL',
 'Rajesh Iyer: 8 Upper Street, London N1 2XG',
 'Krishnan Kulkarni: 234 Cowcross Street, London EC1M 6DR',
 'Raghavendra Nair: 233 Kingsland Road, London E8 4AA'],
    )


def check_decoy_card_list(initial, final, trace):
    return lines_kept(
        initial,
        final,
        app='notes',
        uid='n-christmas-card-list',
        lines=['Mohammed Farah: 58 Broughton Street, Edinburgh EH1 3RJ'],
        label="Mohammed Farah's line of the card list",
        wrong='(?<![\\w])19[\\s,]+Leith[\\s,]+Walk(?![\\w])',
    )


def check_decoy_last_year(initial, final, trace):
    return lines_kept(
        initial,
        final,
        app='notes',
        uid='n-christmas-cards-2025',
        lines=['Posted Sunday 7 December:',
 '- Rajesh Iyer, 8 Upper Street, London N1 2XG ✓',
 '- Deepika Krishnamurthy, 23 Oldham Street, Manchester M1 1JQ ✓',
 '- Krishnan Kulkarni, 234 Cowcross Street, London EC1M 6DR ✓'],
        label="the note 'Christmas cards 2025'",
    )


def check_echo_games(initial, final, trace):
    return echo_fixed(
        initial,
        final,
        app='calendar',
        uid='evt-games-night-nnamdi',
        about='\\bgames\\b',
        new={'the new home': '(?<![\\w])187[\\s,]+Bishopsgate[\\s,]+London[\\s,]+EC2M[\\s,]+4YE(?![\\w])'},
        old='(?<![\\w])116[\\s,]+Cockburn[\\s,]+Street(?![\\w])',
        label='evening "Games night at Nnamdi\'s"',
        same=['start', 'end'],
    )


def check_decoy_dinner(initial, final, trace):
    return events_kept(
        initial,
        final,
        uids=['evt-dinner-nnamdi'],
        label='a past evening is history, not a plan',
    )


def check_echo_weekend(initial, final, trace):
    return echo_fixed(
        initial,
        final,
        app='files',
        uid='Documents/Eastfield Climbing Club/weekend away.csv',
        about='Blackwood',
        new={'the new mobile': '7[\\s().-]*7[\\s().-]*0[\\s().-]*8[\\s().-]*6[\\s().-]*9[\\s().-]*9[\\s().-]*0(?!\\d)',
 'the new email': 'stuart_blackwood@outlook\\.com'},
        old='0[\\s().-]*8[\\s().-]*6[\\s().-]*3[\\s().-]*9[\\s().-]*7[\\s().-]*0[\\s().-]*9(?!\\d)|stuart_blackwood@gmail\\.com',
        label="Stuart Blackwood's row of the club weekend sheet",
        lines=True,
        keep=KEEP,
    )


def check_echo_weekend_2(initial, final, trace):
    return echo_fixed(
        initial,
        final,
        app='files',
        uid='Documents/Eastfield Climbing Club/weekend away.csv',
        about='Thornton',
        new={'the new mobile': '4[\\s().-]*1[\\s().-]*4[\\s().-]*0[\\s().-]*3[\\s().-]*7[\\s().-]*1[\\s().-]*5(?!\\d)',
 'the new email': 'eleanor\\.thornton@gmail\\.com'},
        old='0[\\s().-]*3[\\s().-]*5[\\s().-]*2[\\s().-]*6[\\s().-]*7[\\s().-]*0[\\s().-]*5(?!\\d)|eleanort@outlook\\.com',
        label="Eleanor Thornton's row of the club weekend sheet",
        lines=True,
        keep=KEEP,
    )


def check_told_each(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        wrong={'alexander_holloway@nimbus-robotics.co.uk': 'their old work address',
 'stuart_blackwood@gmail.com': 'their old address',
 'eleanort@outlook.com': 'their old address'},
    )


def check_told_numbers(initial, final, trace):
    return sent_each(
        final,
        to=TO,
        says={'alex@fernhill-media.co.uk': {'the number now saved': '1[\\s().-]*4[\\s().-]*9[\\s().-]*6[\\s().-]*7[\\s().-]*3[\\s().-]*3[\\s().-]*1(?!\\d)'},
 'fiona.winslow@outlook.com': {'the number now saved': '7[\\s().-]*4[\\s().-]*3[\\s().-]*3[\\s().-]*5[\\s().-]*2[\\s().-]*5[\\s().-]*8(?!\\d)'},
 'deepika_krishnamurthy@hotmail.co.uk': {'the number now saved': '1[\\s().-]*4[\\s().-]*9[\\s().-]*6[\\s().-]*9[\\s().-]*3[\\s().-]*2[\\s().-]*3(?!\\d)'},
 'nokeke@gmail.com': {'the number now saved': '7[\\s().-]*8[\\s().-]*2[\\s().-]*1[\\s().-]*7[\\s().-]*0[\\s().-]*8[\\s().-]*1(?!\\d)'},
 'stuart_blackwood@outlook.com': {'the number now saved': '7[\\s().-]*7[\\s().-]*0[\\s().-]*8[\\s().-]*6[\\s().-]*9[\\s().-]*9[\\s().-]*0(?!\\d)'},
 'eleanor.thornton@gmail.com': {'the number now saved': '4[\\s().-]*1[\\s().-]*4[\\s().-]*0[\\s().-]*3[\\s().-]*7[\\s().-]*1[\\s().-]*5(?!\\d)'}},
        stated={'alex@fernhill-media.co.uk': {'addresses': ['alex@fernhill-media.co.uk',
                                             'alexander_holloway@nimbus-robotics.co.uk']},
 'fiona.winslow@outlook.com': {'addresses': ['fiona.winslow@outlook.com']},
 'deepika_krishnamurthy@hotmail.co.uk': {'addresses': ['deepika_krishnamurthy@hotmail.co.uk']},
 'nokeke@gmail.com': {'addresses': ['nokeke@gmail.com']},
 'stuart_blackwood@outlook.com': {'addresses': ['stuart_blackwood@gmail.com',
                                                'stuart_blackwood@outlook.com']},
 'eleanor.thornton@gmail.com': {'addresses': ['eleanor.thornton@gmail.com', 'eleanort@outlook.com']}},
    )
