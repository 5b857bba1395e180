"""Checks for expense-report-1: 5 expenses of the Sydney trip, total 746.31 AUD."""

from __future__ import annotations

import csv
import io
import re


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


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
    `ref_column`) plus an optional total row."""
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
    expected = sorted([d, round(float(a), 2), *rest] for d, a, *rest in rows)
    if sorted(found) != expected:
        extra = [r for r in found if r not in expected]
        lacking = [r for r in expected if r not in found]
        return False, f"{path} rows differ: not expected {extra}, missing {lacking}"
    if any(t != round(total, 2) for t in totals):
        return False, f"{path} gives the total {totals}; expected {total:.2f}"
    return True, f"{path} lists the {len(rows)} expected rows"


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


def check_report_rows(initial, final, trace):
    return csv_rows(
        final,
        path='Expenses/2026-09-sydney.csv',
        date_column='date',
        amount_column='amount',
        rows=[['2026-09-11', 481.0],
 ['2026-09-08', 122.12],
 ['2026-09-11', 47.52],
 ['2026-09-09', 18.68],
 ['2026-09-08', 76.99]],
        total=746.31,
    )


def check_sent_to_finance(initial, final, trace):
    return sent_once(
        final,
        to=['xiuying.zhang@larkspur-analytics.com.au'],
        label='Xiuying Zhang',
        subject='expense|claim|receipt|report',
    )


def check_report_attached(initial, final, trace):
    return attached(
        initial,
        final,
        to='xiuying.zhang@larkspur-analytics.com.au',
        file='Expenses/2026-09-sydney.csv',
    )


def check_total_in_mail(initial, final, trace):
    return message_says(
        final,
        to='xiuying.zhang@larkspur-analytics.com.au',
        patterns={'the total': '(?<![\\d.,])(?:746)[.,]31(?![\\d]|[.,]\\d)'},
        stated={'dates': ['2026-09-08', '2026-09-09', '2026-09-10', '2026-09-11'],
 'years': [2026],
 'counts': {'(?:receipts?|expenses?|items?)': 5},
 'amounts': [18.68, 47.52, 76.99, 122.12, 481.0, 746.31]},
    )
