"""Checks for receipts-reconciliation-2: 23 card lines reconciled, a double charge chased."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime


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
_MONEY_CELL = re.compile(r"[^\d]{0,12}?\(?-?\s?\d[\d.,' \u00a0]*\)?[^\d]{0,12}")
_DAY_CELL = re.compile(r"\d{4}-\d{1,2}(-\d{1,2})?|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}/\d{1,2}/\d{1,2}")


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


def _status(row: list[str], column: int | None, words: dict[str, str]) -> str | None:
    """What a reconciliation row says of its payment: the first status (of `words`, label -> pattern) its
    status cell (or, with no status column, the whole row) names."""
    text = row[column] if column is not None and column < len(row) else " ".join(row)
    return next((label for label, pattern in words.items() if _matches(text, pattern)), None)


def _cell_amounts(cells: list[str]) -> list[float]:
    """The money amounts among a row's cells: a cell holding one number (currency signs around it
    allowed), not a date or a month."""
    out = []
    for cell in cells:
        if _DAY_CELL.search(cell) or not _MONEY_CELL.fullmatch(cell):
            continue
        value = _amount(cell)
        if value is not None:
            out.append(abs(value))
    return out


def _has_amount(cells: list[str], amount: float) -> bool:
    return any(abs(a - abs(amount)) < 0.005 for a in _cell_amounts(cells))


def _status_column(rows: list[list[str]]) -> int | None:
    for row in rows[:3]:
        for n, cell in enumerate(row):
            if re.fullmatch(r"\s*status\s*", cell, re.IGNORECASE):
                return n
    return None


def _sheet(final: dict[str, Any], path: str) -> tuple[list[list[str]] | None, str]:
    """The rows (lists of cells) of the CSV at `path`, with `,`, `;` or tabs between cells."""
    stored = (final.get("files") or {}).get(path)
    if stored is None:
        return None, f"there is no file {path}"
    text = stored.get("text")
    if text is None:
        return None, f"{path} is not a text (CSV) file"
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t", key=first.count)
    try:
        rows = [[c.strip() for c in row] for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    except csv.Error as exc:
        return None, f"{path} is not a CSV file: {exc}"
    return [r for r in rows if any(r)], ""


def reconciled(
    final: dict[str, Any],
    *,
    path: str,
    date: str,
    amount: float,
    statuses: list[str],
    words: dict[str, str],
    label: str,
    receipt: str | None = None,
    not_receipt: str | None = None,
    stated: dict[str, Any] | None = None,
) -> Verdict:
    """The sheet at `path` has one row per statement line of `label` (found by its `date` pattern and its
    `amount`, in any column and format), with exactly `statuses` among them (named as in `words`); the
    receipt number `receipt` is on one of them, none names a receipt matching `not_receipt`, and none gives a
    value of a kind `stated` lists but the listed ones (another receipt's number beside the right one)."""
    rows, problem = _sheet(final, path)
    if rows is None:
        return False, problem
    column = _status_column(rows)
    found = [r for r in rows if _matches(" ".join(r), date) and _has_amount(r, amount)]
    if len(found) != len(statuses):
        return False, f"{path} has {len(found)} rows for {label}; expected {len(statuses)}"
    said = sorted(str(_status(r, column, words)) for r in found)
    if said != sorted(statuses):
        return False, f"{path} marks {label} {said}; expected {sorted(statuses)}"
    if receipt is not None and not any(_matches(" ".join(r), receipt) for r in found):
        return False, f"{path} does not give the receipt of {label}"
    wrong = [r for r in found if not_receipt and _matches(" ".join(r), not_receipt)]
    if wrong:
        return False, f"{path} matches {label} to a receipt that is not its own: {wrong[0]}"
    for row in found:
        stray = _stray(" ".join(row), stated)
        if stray:
            return False, f"{path}'s row {row} for {label} gives {'; '.join(stray)}, which is wrong"
    return True, f"{path} reconciles {label}"


def sheet_strays(final: dict[str, Any], *, path: str, lines: list[dict[str, Any]]) -> Verdict:
    """No dated row of the sheet at `path` gives an amount that no statement line ({date: pattern, amount})
    of that day has: nothing made up, nothing in another currency, nothing from another month."""
    rows, problem = _sheet(final, path)
    if rows is None:
        return False, problem
    for row in rows:
        text = " ".join(row)
        if not _DATED.search(text) or not _cell_amounts(row):
            continue
        if not any(_matches(text, line["date"]) and _has_amount(row, line["amount"]) for line in lines):
            return False, f"{path} has the row {row}, which is no line of the statement"
    return True, f"every dated row of {path} is a line of the statement"


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


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


def sent_alone(
    final: dict[str, Any],
    *,
    to: str | list[str],
    says: dict[str, str],
    label: str,
    not_says: dict[str, str] | None = None,
    stated: dict[str, Any] | None = None,
    replies: dict[str, str] | None = None,
    tried: list[str] | None = None,
) -> Verdict:
    """Exactly one message went to `to` (or to one of several addresses that reach the same people: the
    mail a reply goes to, the contact address), to nobody else; what it says (its own words, or a mail of the
    user's it forwards) says each thing of `says` and nothing of `not_says` (a wrong reference next to the right
    one); its subject and own words give no value of a kind `stated` lists but the listed ones. An address of
    `replies` (address -> message id) counts only for a reply to that message (a shop's receipts mailbox takes
    answers to its receipt). With `tried` (whose automatic reply named `to`), they got it too: in copy, or in
    one first message that says the same (a reply, where it went to an address of `replies`)."""
    addresses = [to] if isinstance(to, str) else to
    got = [m for m in _outbox(final) if set(_recipients(m)) & set(addresses)]
    if len(got) != 1:
        return False, f"{len(got)} messages went to {' or '.join(addresses)}; expected one ({label})"
    others = sorted(set(_recipients(got[0])) - set(addresses) - set(tried or []))
    if others:
        return False, f"the message to {' or '.join(addresses)} also went to {others}"
    first = _first_try(final, got[0], tried, addresses)
    for sent in [got[0], *([] if isinstance(first, str) else first)]:
        for address, answered in (replies or {}).items():
            if address in _recipients(sent) and sent.get("in_reply_to") != answered:
                return False, f"a new message went to {address}, which takes only replies to its own mail"
    if isinstance(first, str):
        return False, first
    for sent, whom in [*((m, " or ".join(tried or [])) for m in first), (got[0], " or ".join(addresses))]:
        text = _said(sent)
        missing = _missing(text, says)
        if missing:
            return False, f"the message to {whom} does not give {', '.join(missing)}"
        wrong = [what for what, pattern in (not_says or {}).items() if _matches(text, pattern)]
        wrong += _stray(text, stated)
        if wrong:
            return False, f"the message to {whom} gives {', '.join(wrong)}"
    return True, f"{' or '.join(addresses)} got {label}"


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


def _touched(initial: dict[str, Any], final: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """Items of `app` that are new or differ from their initial version."""
    old = {item.get("uid"): (name, item) for name, item in _grouped(initial, app)}
    return [(name, item) for name, item in _grouped(final, app) if old.get(item.get("uid")) != (name, item)]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


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


WORDS = {'double charge': 'double|duplicat|twice|charged again',
 'refunded': 'refund',
 'no receipt': 'no receipt|missing|no match|not found|unmatched|without|none',
 'matched': 'match|found|ok\\b|yes\\b|✓'}

NOT_RECEIPT = 'GG\\-942309|GG\\-175065|GG\\-875829|GG\\-741016|EO\\-449954|TDG\\-283939|HH\\-657290|HB\\-529037|PSF\\-810038|SF\\-140044|LST\\-816753|CC\\-284004|MP\\-885606|HM\\-578221|TCK\\-746752|CC\\-858567|CC\\-156468|CC\\-155705|CC\\-152960|CC\\-758336|GG\\-141556|GG\\-659936'

DATE = '(?<!\\d)0?11(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?11(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-11|(?<![\\d/.])0?11[./-]0?3[./-](?:2026|26)(?!\\d)'

DATE_2 = '(?<!\\d)0?14(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?14(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-14|(?<![\\d/.])0?14[./-]0?3[./-](?:2026|26)(?!\\d)'

DATE_3 = '(?<!\\d)0?18(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?18(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-18|(?<![\\d/.])0?18[./-]0?3[./-](?:2026|26)(?!\\d)'

DATE_4 = '(?<!\\d)0?30(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?30(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-30|(?<![\\d/.])0?30[./-]0?3[./-](?:2026|26)(?!\\d)'


def check_row_halcyon_booksellers_ltd_04(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?4(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?4(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-04|(?<![\\d/.])0?4[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=34.27,
        statuses=['double charge', 'matched'],
        words=WORDS,
        label='HALCYON BOOKSELLERS LTD £34.27 on 4 March 2026',
        receipt='HB\\-529037',
        stated={'codes': ['HB-529037'], 'amounts': [34.27, 34.27]},
    )


def check_row_sq_corner_kiosk_05(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?5(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?5(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-05|(?<![\\d/.])0?5[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=10.27,
        statuses=['no receipt'],
        words=WORDS,
        label='SQ *CORNER KIOSK £10.27 on 5 March 2026',
        not_receipt=NOT_RECEIPT,
    )


def check_row_metro_pharmacy_mancheste_06(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?6(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?6(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-06|(?<![\\d/.])0?6[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=17.06,
        statuses=['matched'],
        words=WORDS,
        label='METRO PHARMACY MANCHESTER £17.06 on 6 March 2026',
        receipt='MP\\-885606',
        stated={'codes': ['MP-885606', 'MP-429142'], 'amounts': [17.06, 17.06]},
    )


def check_row_eo_hospitality_ltd_10(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?10(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?10(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-10|(?<![\\d/.])0?10[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=52.57,
        statuses=['matched'],
        words=WORDS,
        label='EO HOSPITALITY LTD £52.57 on 10 March 2026',
        receipt='EO\\-449954',
        stated={'codes': ['EO-449954'], 'amounts': [52.57, 52.57]},
    )


def check_row_kettle_hospitality_ltd_11(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE,
        amount=3.85,
        statuses=['matched'],
        words=WORDS,
        label='KETTLE HOSPITALITY LTD £3.85 on 11 March 2026',
        receipt='CC\\-858567',
        stated={'codes': ['CC-858567'], 'amounts': [3.85, 3.85]},
    )


def check_row_sprout_and_company_ltd_11(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE,
        amount=26.87,
        statuses=['matched'],
        words=WORDS,
        label='SPROUT AND COMPANY LTD £26.87 on 11 March 2026',
        receipt='LST\\-816753',
        stated={'codes': ['LST-816753'], 'amounts': [26.87, 26.87]},
    )


def check_row_sq_thecopperkettle_13(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?13(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?13(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-13|(?<![\\d/.])0?13[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=3.85,
        statuses=['matched'],
        words=WORDS,
        label='SQ *THECOPPERKETTLE £3.85 on 13 March 2026',
        receipt='TCK\\-746752',
        stated={'codes': ['TCK-746752'], 'amounts': [3.85, 3.85]},
    )


def check_row_greenleaf_grocers_manche_14(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_2,
        amount=71.97,
        statuses=['matched'],
        words=WORDS,
        label='GREENLEAF GROCERS MANCHESTER £71.97 on 14 March 2026',
        receipt='GG\\-741016',
        stated={'codes': ['GG-741016'], 'amounts': [71.97, 71.97]},
    )


def check_row_kettle_hospitality_ltd_14(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_2,
        amount=3.85,
        statuses=['matched'],
        words=WORDS,
        label='KETTLE HOSPITALITY LTD £3.85 on 14 March 2026',
        receipt='CC\\-156468',
        stated={'codes': ['CC-156468'], 'amounts': [3.85, 3.85]},
    )


def check_row_kettle_hospitality_ltd_14_2(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_2,
        amount=4.6,
        statuses=['matched'],
        words=WORDS,
        label='KETTLE HOSPITALITY LTD £4.60 on 14 March 2026',
        receipt='CC\\-155705',
        stated={'codes': ['CC-155705'], 'amounts': [4.6, 4.6]},
    )


def check_row_hotel_miradouro_lisboa_e_18(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_3,
        amount=211.51,
        statuses=['matched'],
        words=WORDS,
        label='HOTEL MIRADOURO LISBOA EUR 243.65 £211.51 on 18 March 2026',
        receipt='HM\\-578221',
        stated={'codes': ['HM-578221'], 'amounts': [211.51, 243.65, 243.65]},
    )


def check_row_kettle_hospitality_ltd_18(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_3,
        amount=3.85,
        statuses=['matched'],
        words=WORDS,
        label='KETTLE HOSPITALITY LTD £3.85 on 18 March 2026',
        receipt='CC\\-152960',
        stated={'codes': ['CC-152960'], 'amounts': [3.85, 3.85]},
    )


def check_row_greenleaf_grocers_manche_20(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?20(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?20(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-20|(?<![\\d/.])0?20[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=52.88,
        statuses=['matched'],
        words=WORDS,
        label='GREENLEAF GROCERS MANCHESTER £52.88 on 20 March 2026',
        receipt='GG\\-875829',
        stated={'codes': ['GG-875829'], 'amounts': [52.88, 52.88]},
    )


def check_row_hh_trading_ltd_21(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?21(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?21(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-21|(?<![\\d/.])0?21[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=42.26,
        statuses=['matched'],
        words=WORDS,
        label='HH TRADING LTD £42.26 on 21 March 2026',
        receipt='HH\\-657290',
        stated={'codes': ['HH-657290'], 'amounts': [42.26, 42.26]},
    )


def check_row_greenleaf_grocers_manche_23(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?23(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?23(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-23|(?<![\\d/.])0?23[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=75.56,
        statuses=['matched'],
        words=WORDS,
        label='GREENLEAF GROCERS MANCHESTER £75.56 on 23 March 2026',
        receipt='GG\\-942309',
        stated={'codes': ['GG-942309'], 'amounts': [75.56, 75.56]},
    )


def check_row_sq_thedailygrind_24(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?24(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?24(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-24|(?<![\\d/.])0?24[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=7.52,
        statuses=['refunded'],
        words=WORDS,
        label='SQ *THEDAILYGRIND £7.52 on 24 March 2026',
        receipt='TDG\\-283939',
        stated={'codes': ['TDG-283939'], 'amounts': [7.52, 7.52]},
    )


def check_row_cobalt_leisure_ltd_26(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?26(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?26(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-26|(?<![\\d/.])0?26[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=18.04,
        statuses=['matched'],
        words=WORDS,
        label='COBALT LEISURE LTD £18.04 on 26 March 2026',
        receipt='CC\\-284004',
        stated={'codes': ['CC-284004'], 'amounts': [18.04, 18.04]},
    )


def check_row_sq_thedailygrind_refund_27_refund(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?27(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?27(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-27|(?<![\\d/.])0?27[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=7.52,
        statuses=['refunded'],
        words=WORDS,
        label='SQ *THEDAILYGRIND REFUND +£7.52 on 27 March 2026',
        receipt='TDG\\-283939',
        stated={'codes': ['TDG-283939'], 'amounts': [7.52, 7.52]},
    )


def check_row_swift_fuel_manchester_28(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?28(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?28(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-28|(?<![\\d/.])0?28[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=58.77,
        statuses=['matched'],
        words=WORDS,
        label='SWIFT FUEL MANCHESTER £58.77 on 28 March 2026',
        receipt='SF\\-140044',
        stated={'codes': ['SF-140044'], 'amounts': [58.77, 58.77]},
    )


def check_row_citypark_car_parks_30(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_4,
        amount=10.75,
        statuses=['no receipt'],
        words=WORDS,
        label='CITYPARK CAR PARKS £10.75 on 30 March 2026',
        not_receipt=NOT_RECEIPT,
    )


def check_row_sq_petalstreetflorist_30(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date=DATE_4,
        amount=31.11,
        statuses=['matched'],
        words=WORDS,
        label='SQ *PETALSTREETFLORIST £31.11 on 30 March 2026',
        receipt='PSF\\-810038',
        stated={'codes': ['PSF-810038'], 'amounts': [31.11, 31.11]},
    )


def check_row_greenleaf_grocers_manche_31(initial, final, trace):
    return reconciled(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        date='(?<!\\d)0?31(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?31(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-31|(?<![\\d/.])0?31[./-]0?3[./-](?:2026|26)(?!\\d)',
        amount=24.89,
        statuses=['matched'],
        words=WORDS,
        label='GREENLEAF GROCERS MANCHESTER £24.89 on 31 March 2026',
        receipt='GG\\-175065',
        stated={'codes': ['GG-175065'], 'amounts': [24.89, 24.89]},
    )


def check_no_strays(initial, final, trace):
    return sheet_strays(
        final,
        path='Finance/Reconciliation/2026-03.csv',
        lines=[{'date': '(?<!\\d)0?23(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?23(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-23|(?<![\\d/.])0?23[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 75.56},
 {'date': '(?<!\\d)0?31(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?31(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-31|(?<![\\d/.])0?31[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 24.89},
 {'date': '(?<!\\d)0?20(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?20(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-20|(?<![\\d/.])0?20[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 52.88},
 {'date': '(?<!\\d)0?14(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?14(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-14|(?<![\\d/.])0?14[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 71.97},
 {'date': '(?<!\\d)0?10(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?10(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-10|(?<![\\d/.])0?10[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 52.57},
 {'date': '(?<!\\d)0?24(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?24(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-24|(?<![\\d/.])0?24[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 7.52},
 {'date': '(?<!\\d)0?21(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?21(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-21|(?<![\\d/.])0?21[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 42.26},
 {'date': '(?<!\\d)0?4(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?4(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-04|(?<![\\d/.])0?4[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 34.27},
 {'date': '(?<!\\d)0?30(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?30(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-30|(?<![\\d/.])0?30[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 31.11},
 {'date': '(?<!\\d)0?28(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?28(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-28|(?<![\\d/.])0?28[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 58.77},
 {'date': '(?<!\\d)0?11(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?11(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-11|(?<![\\d/.])0?11[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 26.87},
 {'date': '(?<!\\d)0?26(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?26(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-26|(?<![\\d/.])0?26[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 18.04},
 {'date': '(?<!\\d)0?6(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?6(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-06|(?<![\\d/.])0?6[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 17.06},
 {'date': '(?<!\\d)0?4(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?4(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-04|(?<![\\d/.])0?4[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 34.27},
 {'date': '(?<!\\d)0?27(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?27(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-27|(?<![\\d/.])0?27[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 7.52},
 {'date': '(?<!\\d)0?5(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?5(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-05|(?<![\\d/.])0?5[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 10.27},
 {'date': '(?<!\\d)0?30(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?30(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-30|(?<![\\d/.])0?30[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 10.75},
 {'date': '(?<!\\d)0?18(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?18(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-18|(?<![\\d/.])0?18[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 211.51},
 {'date': '(?<!\\d)0?13(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?13(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-13|(?<![\\d/.])0?13[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 3.85},
 {'date': '(?<!\\d)0?11(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?11(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-11|(?<![\\d/.])0?11[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 3.85},
 {'date': '(?<!\\d)0?14(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?14(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-14|(?<![\\d/.])0?14[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 3.85},
 {'date': '(?<!\\d)0?14(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?14(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-14|(?<![\\d/.])0?14[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 4.6},
 {'date': '(?<!\\d)0?18(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?18(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-18|(?<![\\d/.])0?18[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 3.85},
 {'date': '(?<!\\d)0?28(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?28(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-28|(?<![\\d/.])0?28[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 63.49},
 {'date': '(?<!\\d)0?6(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?6(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-06|(?<![\\d/.])0?6[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 116.89},
 {'date': '(?<!\\d)0?8(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?8(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-08|(?<![\\d/.])0?8[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 14.08},
 {'date': '(?<!\\d)0?26(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?26(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-26|(?<![\\d/.])0?26[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 250.47},
 {'date': '(?<!\\d)0?29(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?Mar\\w*\\.?,?\\s+2026(?!\\d)|Mar\\w*\\.?\\s+0?29(?:st|nd|rd|th)?,?\\s+2026(?!\\d)|2026-03-29|(?<![\\d/.])0?29[./-]0?3[./-](?:2026|26)(?!\\d)',
  'amount': 2585.67}],
    )


def check_double_charge_mail(initial, final, trace):
    return sent_alone(
        final,
        to='refunds@halcyonbooks.co.uk',
        tried=['receipts@halcyonbooks.co.uk', 'help@halcyonbooks.co.uk'],
        replies={'receipts@halcyonbooks.co.uk': '<828ded49-741e-758c-01a3ecbb6c97@halcyonbooks.co.uk>'},
        says={'the receipt number': 'HB\\-529037',
 'the amount': '(?<![\\d.,])(?:34)[.,]27(?![\\d]|[.,]\\d)',
 'the date': '(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)|2026-03-04|(?<![\\d/.])4[./]3(?![\\d])|(?<![\\d/.])0?4[./]0?3[./]|3月4[日号]|(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)\\.?\\s*(?:of\\s+)?Mar\\w*|Mar\\w*\\.?\\s+(?<!\\d)0?4(?:st|nd|rd|th)?(?!\\d)|2026-03-04|(?<![\\d/.])4[./]3(?![\\d])|(?<![\\d/.])0?4[./]0?3[./]|3月4[日号]',
 'that it was charged twice': 'twice|double|duplicate|two (?:identical )?charges|charged 2|second charge'},
        label='the double charge',
        not_says={'another receipt number': '\\bHB-(?!529037\\b)\\d+'},
        stated={'dates': ['2026-03-04'], 'codes': ['HB-529037']},
    )


def check_follow_up(initial, final, trace):
    return one_reminder(
        initial,
        final,
        pattern='\\bHalcyon|\\bHalcyon',
        lst='Reminders',
        due='2026-04-10',
        label='Halcyon Books',
        at='09:00',
    )


def check_reminder_ticked(initial, final, trace):
    return reminder_done(
        initial,
        final,
        uid='r-reconcile-the-march-2026-car',
        lst='Reminders',
        keep_open=[],
    )
