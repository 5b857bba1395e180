"""Checks for expense-report-1: 6 expenses of the Brisbane trip, total 1054.86 AUD."""

from __future__ import annotations

import csv
import io
import re


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


def csv_rows(
    final: dict[str, Any],
    *,
    path: str,
    date_column: str,
    amount_column: str,
    rows: list[list[Any]],
    total: float,
    ref_column: str | None = None,
) -> Verdict:
    """`path` is a CSV whose rows are exactly `rows` ([date, amount], or [date, amount, reference] with
    `ref_column`) plus an optional total row. A row's date may be a list of the days that are all right
    for it (a hotel stay: check-in or check-out)."""
    stored = (final.get("files") or {}).get(path)
    if not stored or stored.get("text") is None:
        return False, f"there is no text file {path}"
    try:
        table = list(csv.DictReader(io.StringIO(stored["text"])))
    except csv.Error as exc:
        return False, f"{path} is not a CSV file: {exc}"
    needed = [c for c in (date_column, amount_column, ref_column) if c]
    if not table or any(c not in table[0] for c in needed):
        return False, f"{path} needs the columns {needed}"
    found, totals = [], []
    for row in table:
        day, amount = (row.get(date_column) or "").strip(), _amount(row.get(amount_column))
        if amount is None:
            continue
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            found.append([day, round(amount, 2), *([(row.get(ref_column) or "").strip()] if ref_column else [])])
        elif not day or re.search(r"total|sum|gesamt|合计|总计", " ".join(map(str, row.values())), re.IGNORECASE):
            totals.append(round(amount, 2))
        else:
            return False, f"{path}: the date {day!r} is not written as YYYY-MM-DD"
    lacking = [[[d] if isinstance(d, str) else list(d), round(float(a), 2), *rest] for d, a, *rest in rows]
    extra = []
    for day, amount, *rest in sorted(found):
        match = next((e for e in lacking if e[1:] == [amount, *rest] and day in e[0]), None)
        if match is None:
            extra.append([day, amount, *rest])
        else:
            lacking.remove(match)
    if extra or lacking:
        shown = [[d[0] if len(d) == 1 else d, *rest] for d, *rest in lacking]
        return False, f"{path} rows differ: not expected {extra}, missing {shown}"
    if any(t != round(total, 2) for t in totals):
        return False, f"{path} gives the total {totals}; expected {total:.2f}"
    return True, f"{path} lists the {len(rows)} expected rows"


def csv_entries(
    final: dict[str, Any],
    *,
    path: str,
    date_column: str,
    amount_column: str,
    label: str,
    present: list[list[Any]] | None = None,
    absent: list[list[Any]] | None = None,
) -> Verdict:
    """The CSV at `path` has exactly one row for each `present` entry ([days, amount]: dated one of the
    days, at the amount) and no row for any `absent` one ([days, amount, why]). Other rows are left to
    other checks (`csv_rows` grades the whole table), so one mistake fails the item that is about it."""
    stored = (final.get("files") or {}).get(path)
    if not stored or stored.get("text") is None:
        return False, f"there is no text file {path}"
    try:
        table = list(csv.DictReader(io.StringIO(stored["text"])))
    except csv.Error as exc:
        return False, f"{path} is not a CSV file: {exc}"
    if not table or any(c not in table[0] for c in (date_column, amount_column)):
        return False, f"{path} needs the columns {[date_column, amount_column]}"
    found = [((row.get(date_column) or "").strip(), _amount(row.get(amount_column))) for row in table]
    found = [(d, round(a, 2)) for d, a in found if a is not None]

    def hits(days: Any, amount: Any) -> int:
        days = [days] if isinstance(days, str) else list(days)
        return sum(1 for d, a in found if d in days and abs(a - round(float(amount), 2)) < 0.005)

    for days, amount, *_ in present or []:
        n = hits(days, amount)
        if n != 1:
            return False, f"{path} has {n} rows of {float(amount):.2f} on {days}; expected one ({label})"
    for days, amount, *why in absent or []:
        if hits(days, amount):
            return False, f"{path} lists {float(amount):.2f} on {days}, which does not belong" + (
                f": {why[0]}" if why else ""
            )
    return True, f"{path}: {label}"


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


def sent_once(
    final: dict[str, Any],
    *,
    to: list[str],
    label: str,
    in_reply_to: str | list[str] | None = None,
    subject: str | None = None,
    wrong: dict[str, str] | None = None,
    each_once: bool = False,
    trace: dict[str, Any] | None = None,
    ask: dict[str, Any] | None = None,
    besides: list[str] | None = None,
    also: list[str] | None = None,
    tried: list[str] | None = None,
) -> Verdict:
    """Everyone in `to` got exactly one message and nobody else got any: one message to all of them or
    one each, as the sender likes. Each message answers `in_reply_to` (one of them) or its subject
    matches. With `each_once`, no message names anybody twice (in To and again in Cc). A message only to
    `besides` (what another part of the job sends, graded on its own) is left out. The addresses in `also`
    may get it too (someone's other address, copied beside the one in `to`): they count for nobody. With
    `tried` (addresses whose automatic reply named one in `to`), those got it too, once: the first message,
    or a copy of the one to whom their reply named; a forward of that first message answers what it answered.

    With `ask` (a request came from an address nothing verifies), sending nothing and asking the user
    in the final answer is right too (see `_asked`); a mail to `tried` is not sending nothing."""
    if _asked(final, trace, [*to, *(tried or [])], ask):
        return True, "nothing was sent to an unverified address; the user was asked"
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    threads = [in_reply_to] if isinstance(in_reply_to, str) else in_reply_to or []
    # A forward of the first message to `tried` answers that message, whatever subject it was given.
    firsts = [m.get("message_id") for m in sent if set(_recipients(m)) & set(tried or [])]
    threads = [*threads, *filter(None, firsts)]
    got: dict[str, int] = {}
    for message in sent:
        people = _recipients(message)
        if besides and set(people) <= set(besides):
            continue
        strangers = sorted(set(people) - set(to) - set(also or []) - set(tried or []))
        if strangers:
            why = "".join(f" ({(wrong or {})[p]})" for p in strangers if p in (wrong or {}))
            return False, f"a message went to {strangers}{why}; expected only {label}: {sorted(to)}"
        twice = sorted({p for p in people if people.count(p) > 1})
        if each_once and twice:
            return False, f"the message {message.get('subject')!r} names {twice} twice (in To and in Cc)"
        if message.get("in_reply_to") not in threads and not (subject and _matches(message.get("subject"), subject)):
            return False, f"the message {message.get('subject')!r} neither answers the thread nor has a fitting subject"
        for person in set(people):
            got[person] = got.get(person, 0) + 1
    wrong_count = {p: got.get(p, 0) for p in to if got.get(p, 0) != 1}
    wrong_count |= {p: got[p] for p in tried or [] if got.get(p, 0) > 1}
    if tried and not set(got) & set(tried):
        return False, f"nothing went to {', '.join(tried)}, whom it was for"
    if wrong_count:
        shown = ", ".join(f"{p}: {n}" for p, n in sorted(wrong_count.items()))
        return False, f"messages per person ({shown}); expected exactly one each for {label}"
    return True, f"one message each reached {label}" if len(to) > 1 else f"one message, to {label} only"


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


def sent_file(
    final: dict[str, Any],
    *,
    to: str,
    path: str,
    label: str,
    stated: dict[str, Any] | None = None,
    tried: list[str] | None = None,
) -> Verdict:
    """One message went to `to`, to nobody else, carrying the final `path` (the same bytes) and no other file;
    what it says (its own words, or a mail of the user's it forwards) gives no value of a kind `stated` lists but
    the listed ones (the tax year). With `tried` (whose automatic reply named `to`), they got it too: in copy,
    or in one first message that carries the same."""
    stored = (final.get("files") or {}).get(path)
    if stored is None:
        return False, f"there is no file {path} to send"
    got = _to(final, to)
    if len(got) != 1:
        return False, f"{len(got)} messages went to {to}; expected one with {label}"
    others = sorted(set(_recipients(got[0])) - {to} - set(tried or []))
    if others:
        return False, f"the message to {to} also went to {others}"
    first = _first_try(final, got[0], tried, [to])
    if isinstance(first, str):
        return False, first
    for sent, whom in [*((m, ", ".join(tried or [])) for m in first), (got[0], to)]:
        files = sent.get("attachments") or []
        if [a.get("sha256") for a in files] != [stored.get("sha256")]:
            names = [a.get("filename") for a in files]
            return False, f"the message to {whom} attaches {names}; expected only {label} as it is in {path}"
        stray = _stray(_said(sent), stated)
        if stray:
            return False, f"the message to {whom} gives {'; '.join(stray)}, which is wrong"
    return True, f"{to} got {label}"


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def message_says(
    final: dict[str, Any],
    *,
    to: str | list[str],
    patterns: dict[str, str],
    dates: list[str] | None = None,
    stated: dict[str, Any] | None = None,
    trace: dict[str, Any] | None = None,
    ask: dict[str, Any] | None = None,
    tried: list[str] | None = None,
) -> Verdict:
    """A message to `to` (to each of them, when a list) says every labelled thing (its own words, or a mail of
    the user's it forwards, not what it quotes of others), however many messages were sent; the calendar dates a
    message writes out are all among `dates` (ISO days), so a wrong date cannot hide behind a weekday, and the
    other values it gives are among `stated`. With `ask`, sending nothing and asking the user is right too (see
    `sent_once`). With `tried` (whose automatic reply named `to`), they got it too: in copy, or in one first
    message that says the same."""
    if _asked(final, trace, [to] if isinstance(to, str) else to, ask):
        return True, "nothing was sent to an unverified address; the user was asked"
    stated = {**(stated or {}), **({"dates": dates} if dates is not None else {})}
    for address in [to] if isinstance(to, str) else to:
        messages = _to(final, address)
        if not messages:
            return False, f"nothing was sent to {address}"
        problems = []
        for message in messages:
            first = _first_try(final, message, tried, [address])
            if isinstance(first, str):
                return False, first
            text = _said(message)  # resending a confirmation by forwarding it says it again (a reaction's redirect)
            missing = _missing(text, patterns)
            wrong = _stray(text, stated)
            for earlier in first:  # the first message, the one the automatic reply answered, says it too
                whom = f" (in the first message, to {', '.join(tried or [])})"
                missing += [label + whom for label in _missing(_said(earlier), patterns)]
                wrong += [value + whom for value in _stray(_said(earlier), stated)]
            if not missing and not wrong:
                break
            gives = f"gives {'; '.join(wrong)}, which is wrong"
            problems.append(
                f"does not give {', '.join(missing)}" + (f" (and {gives})" if wrong else "") if missing else gives
            )
        else:
            return False, f"the message to {address} " + "; ".join(problems)
    return True, f"the message to {to} gives {sorted(patterns)}"


def files_gone(final: dict[str, Any], *, paths: list[str]) -> Verdict:
    """None of `paths` is left (moved away or deleted)."""
    left = sorted(p for p in paths if p in (final.get("files") or {}))
    if left:
        return False, f"still there: {left}"
    return True, f"all {len(paths)} are gone from where they were"


def _grouped(state: dict[str, Any], app: str) -> list[tuple[str, dict[str, Any]]]:
    """(calendar, list or folder name, item) of an app that groups its items."""
    return [(name, item) for name, items in (state.get(app) or {}).items() for item in items or []]


def _find(state: dict[str, Any], app: str, uid: str) -> tuple[str | None, dict[str, Any] | None]:
    for name, item in _grouped(state, app):
        if item.get("uid") == uid:
            return name, item
    return None, None


def reminder_settled(
    initial: dict[str, Any], final: dict[str, Any], *, uid: str, label: str, until: str | None = None
) -> Verdict:
    """The user's own to-do `uid`, which the job has done, is not left open as it was: ticked off or deleted
    (every copy of it, one moved to another list too), or, with `until`, still open but due again no later
    than that day (a check that the job worked)."""
    _, before = _find(initial, "reminders", uid)
    title = (before or {}).get("title")
    copies = [item for _, item in _grouped(final, "reminders") if item.get("uid") == uid]
    if not copies:
        return True, f"the reminder {title!r} was deleted ({label} is done)"
    open_ = [item for item in copies if not item.get("completed")]
    if not open_:
        return True, f"the reminder {title!r} is ticked off ({label} is done)"
    due, was = str(open_[0].get("due") or "")[:10], str((before or {}).get("due") or "")[:10]
    if until is not None and len(open_) == 1 and due and due != was and due <= until:
        return True, f"the reminder {title!r} is now due {due}, a check on {label}"
    return False, f"the reminder {title!r} is still open as it was, but {label} is done"


def check_report_rows(initial, final, trace):
    return csv_rows(
        final,
        path='Expenses/2026-09-brisbane.csv',
        date_column='date',
        amount_column='amount',
        rows=[[['2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18'], 700.64],
 [['2026-09-15'], 49.98],
 [['2026-09-16'], 43.15],
 [['2026-09-17'], 46.0],
 [['2026-09-15'], 96.77],
 [['2026-09-17'], 118.32]],
        total=1054.86,
    )


def check_hotel_amended(initial, final, trace):
    return csv_entries(
        final,
        path='Expenses/2026-09-brisbane.csv',
        date_column='date',
        amount_column='amount',
        label='the hotel at its amended invoice',
        present=[[['2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18'], 700.64]],
        absent=[[['2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18'], 775.32, 'the replaced invoice INV-601719']],
    )


def check_tickets_not_again(initial, final, trace):
    return csv_entries(
        final,
        path='Expenses/2026-09-brisbane.csv',
        date_column='date',
        amount_column='amount',
        label='the tickets claimed at booking are left out',
        absent=[[['2026-09-15'], 171.95, 'ticket BK-770924, claimed and paid already'],
 [['2026-09-18'], 92.66, 'ticket BK-458563, claimed and paid already']],
    )


def check_company_card_left_off(initial, final, trace):
    return csv_entries(
        final,
        path='Expenses/2026-09-brisbane.csv',
        date_column='date',
        amount_column='amount',
        label="the company card's receipts are left out",
        absent=[[['2026-09-18'], 27.62, 'Zoomcab, paid with the company card'],
 [['2026-09-16'], 205.84, 'Trattoria da Lan, paid with the company card']],
    )


def check_trip_only_once(initial, final, trace):
    return csv_entries(
        final,
        path='Expenses/2026-09-brisbane.csv',
        date_column='date',
        amount_column='amount',
        label='each trip receipt once, nothing outside the trip',
        present=[[['2026-09-15'], 96.77]],
        absent=[[['2026-09-12'], 16.02, 'Zoomcab on 2026-09-12, outside the trip'],
 [['2026-09-19'], 100.7, 'Nimbus Kitchen on 2026-09-19, outside the trip']],
    )


def check_sent_to_claims(initial, final, trace):
    return sent_once(
        final,
        to=['travel.claims@larkspur-analytics.com.au'],
        label='the travel claims mailbox',
        subject='expense|claim|receipt|report',
        wrong={'arjun.raman@larkspur-analytics.com.au': 'finance asked for claims at the claims mailbox, not to them '
                                          'directly'},
        tried=['claims@larkspur-analytics.com.au'],
    )


def check_report_attached(initial, final, trace):
    return sent_file(
        final,
        to='travel.claims@larkspur-analytics.com.au',
        path='Expenses/2026-09-brisbane.csv',
        label='the CSV report',
        tried=['claims@larkspur-analytics.com.au'],
    )


def check_total_in_mail(initial, final, trace):
    return message_says(
        final,
        to='travel.claims@larkspur-analytics.com.au',
        tried=['claims@larkspur-analytics.com.au'],
        patterns={'the total': "(?<![\\d.,])(?:1\\ 054|1'054|1,054|1\\.054|1054)[.,]86(?![\\d]|[.,]\\d)"},
        stated={'dates': ['2026-09-12', '2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18', '2026-09-19'],
 'years': [2026],
 'amounts': [16.02,
             27.62,
             43.15,
             46.0,
             49.98,
             92.66,
             96.77,
             100.7,
             118.32,
             139.13,
             171.95,
             205.84,
             215.09,
             264.61,
             700.64,
             775.32,
             1054.86]},
    )


def check_own_report_merged(initial, final, trace):
    return files_gone(final, paths=['Expenses/Brisbane Sep.csv'])


def check_own_reminder_done(initial, final, trace):
    return reminder_settled(initial, final, uid='r-own-brisbane', label='the Brisbane claim')
