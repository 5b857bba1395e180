"""The values a text states (addresses, phone numbers, dates, times, amounts, codes, numbers), each
with its place, what it means and the words around it; and the two near misses of each value that
mutants are made of:

- `one_off`: one unit or one digit off: an hour, a day, the last digit of an amount, a code or a
  phone number, two letters of an address swapped;
- `from_world`: a plausible wrong value: another value of the same kind that the initial world
  states, the one in the most similar context first (the withdrawn figure next to the corrected
  one, the time of the slot that was taken back).

Values are found by pattern, in the order of `KINDS`: a span taken by an earlier kind is not read
again (a date's day is not also a number). Paths, file names and web addresses hold digits that
are names, not values: they are skipped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from difflib import SequenceMatcher
from typing import Any

ADDRESS, PHONE, DATE, TIME, AMOUNT, CODE, YEAR, NUMBER = (
    "address",
    "phone",
    "date",
    "time",
    "amount",
    "code",
    "year",
    "number",
)
KINDS = (ADDRESS, DATE, PHONE, TIME, CODE, AMOUNT, YEAR, NUMBER)

# fmt: off
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# Function words of the languages the tasks are written in; they say nothing about which fact a
# value belongs to.
STOPWORDS = {
    "the", "and", "for", "with", "that", "this", "from", "are", "was", "were", "has", "have", "had", "not", "but",
    "its", "his", "her", "she", "him", "they", "them", "you", "your", "our", "who", "which", "what", "when", "than",
    "then", "there", "their", "one", "all", "any", "each", "per", "into", "onto", "only", "also", "new", "der",
    "die", "das", "und", "mit", "von", "für", "den", "dem", "des", "ein", "eine", "ist", "nicht", "auf", "los",
    "las", "del", "con", "por", "para", "una", "que", "les", "une", "est", "pour", "avec",
}
# fmt: on
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_SKIP = re.compile(
    r"https?://\S+|\S+/\S+|\S+\.(?:md|markdown|csv|txt|pdf|docx?|xlsx?|odt|json|ics|vcf|png|jpe?g)\b", re.I
)
_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    ADDRESS: [re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")],
    PHONE: [re.compile(r"(?<![\w+])(?:\+|00?|\(0?\d)[\d()][\d\s().-]{5,}\d(?!\d)")],
    DATE: [
        re.compile(
            r"(?<![\d-])(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})"
            r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d:])"
        ),
        re.compile(
            r"(?<![\d.])(?P<day>\d{1,2})(?P<suffix>st|nd|rd|th|\.)?[^\S\n]+(?:of[^\S\n]+)?"
            + _MONTH
            + r"(?:,?[^\S\n]+(?P<year>\d{4}))?",
            re.I,
        ),
        re.compile(
            r"\b" + _MONTH + r"[^\S\n]+(?P<day>\d{1,2})(?P<suffix>st|nd|rd|th)?(?![\d:.])(?![^\S\n]*[ap]\.?m\b)"
            r"(?:,?[^\S\n]+(?P<year>\d{4}))?",
            re.I,
        ),
        re.compile(r"(?:(?P<year>\d{4})年)?(?P<mon>\d{1,2})月(?P<day>\d{1,2})(?P<suffix>[日号])"),
    ],
    TIME: [
        re.compile(
            r"(?<![\d:+.-])(?P<hour>[01]?\d|2[0-3])(?P<sep>[:h])(?P<minute>[0-5]\d)(?!\d|:\d)(?P<ampm>\s?[ap]\.?m\b\.?)?",
            re.I,
        ),
        re.compile(r"(?<![\d:.])(?P<hour>1[0-2]|0?[1-9])(?P<ampm>\s?[ap]\.?m\b\.?)", re.I),
        re.compile(r"(?<!\d)(?P<hour>[01]?\d|2[0-3])(?P<sep>[点时])(?:(?P<minute>[0-5]?\d)分)?"),
    ],
    # A reference: letters and digits (72GQA3, INV-2026-2224) or digit groups joined by dashes (2025-6306).
    CODE: [
        re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w-])"),
        re.compile(r"(?<![\w.,-])\d+(?:-\d+)+(?![\w-])"),
    ],
    AMOUNT: [
        re.compile(r"(?<![\w.,])\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?(?![\d])"),
        re.compile(r"(?<![\w.,])\d+[.,]\d{1,2}(?![\d])"),
    ],
    YEAR: [re.compile(r"(?<![\w.,])(?:19[5-9]\d|20[0-4]\d)(?![\w])")],  # LH 2058 is a flight
    NUMBER: [re.compile(r"(?<![\w.,])\d+(?!\w)")],
}
_CURRENCY = re.compile(r"[€$£¥₹]|\b(?:eur|usd|gbp|chf|sek|nok|dkk|inr|jpy|cny|rmb|sgd|aud|cad|kr|zł|元)\b", re.I)
_WORD = re.compile(r"[^\W\d_]{3,}")
_ENUMERATION = re.compile(r"(?m)^[ \t]*\d{1,2}[.)](?=\s)")  # "1. Guillaume": a list's numbering, not a value


@dataclass(frozen=True)
class Token:
    """One value in a text: `value` compares equal for equal facts however they are written."""

    kind: str
    start: int
    end: int
    text: str
    value: Any
    context: frozenset[str]


def context_words(text: str, start: int, end: int, width: int = 4) -> frozenset[str]:
    """Up to `width` content words on each side of text[start:end], cut to their first five letters."""
    found = [(m.start(), m.end(), m.group(0).lower()[:5]) for m in _WORD.finditer(text)]
    found = [f for f in found if f[2] not in STOPWORDS]
    left = [stem for s, e, stem in found if e <= start][-width:]
    right = [stem for s, e, stem in found if s >= end][:width]
    return frozenset(left) | frozenset(right)


def _month(word: str) -> int:
    return next(n for n, name in enumerate(MONTHS, 1) if name.startswith(word.lower().rstrip(".")[:3]))


def _amount(text: str) -> float:
    digits = re.sub(r"[^\d.,]", "", text)
    last = max(digits.rfind("."), digits.rfind(","))
    if last != -1 and len(digits) - last - 1 in (1, 2):
        return float(re.sub(r"\D", "", digits[:last]) + "." + digits[last + 1 :])
    return float(re.sub(r"\D", "", digits))


def _value(kind: str, match: re.Match[str]) -> Any:
    text = match.group(0)
    groups = match.groupdict()
    if kind == ADDRESS:
        return text.lower()
    if kind in (PHONE,):
        return re.sub(r"\D", "", text)[-8:]
    if kind == DATE:
        month = int(groups["mon"]) if groups.get("mon") else _month(groups["month"])
        return (month, int(groups["day"]))
    if kind == TIME:
        hour, minute = int(groups["hour"]), int(groups.get("minute") or 0)
        ampm = (groups.get("ampm") or "").strip().lower()[:1]
        if ampm == "p" and hour < 12:
            hour += 12
        elif ampm == "a" and hour == 12:
            hour = 0
        return hour * 60 + minute
    if kind in (AMOUNT, NUMBER, YEAR):
        return _amount(text)
    return text.upper()


def _is_amount(text: str, start: int, end: int, token: str) -> bool:
    """A number is an amount when it has cents or thousands, or a currency stands next to it."""
    if re.search(r"[.,\u00a0\u202f ]\d{3}\b|[.,]\d{1,2}$", token):
        return True
    return bool(_CURRENCY.search(text[max(0, start - 4) : start]) or _CURRENCY.search(text[end : end + 5]))


def tokens(text: str) -> list[Token]:
    """Every value `text` states, in order of appearance."""
    if not text:
        return []
    taken = [(m.start(), m.end()) for pattern in (_SKIP, _ENUMERATION) for m in pattern.finditer(text)]
    found: list[Token] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    for kind in KINDS:
        for pattern in _PATTERNS[kind]:
            for match in pattern.finditer(text):
                start, end = match.span()
                if not free(start, end):
                    continue
                if kind == PHONE and len(re.sub(r"\D", "", match.group(0))) < 8:
                    continue
                if kind == CODE and len(match.group(0)) < 5:  # EH1, 1YZ, +1s: too short to be a reference
                    continue
                kind_here = AMOUNT if kind == NUMBER and _is_amount(text, start, end, match.group(0)) else kind
                try:
                    value = _value(kind_here, match)
                except (StopIteration, ValueError):
                    continue
                taken.append((start, end))
                context = context_words(text, start, end)
                found.append(Token(kind_here, start, end, match.group(0), value, context))
    return sorted(found, key=lambda t: t.start)


def bump_last_digit(text: str) -> str | None:
    """The last digit of `text` changed (a phone number or an amount one digit off)."""
    for i in range(len(text) - 1, -1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :]
    return None


def swap_letters(address: str) -> str | None:
    """Two neighbouring letters of an address's local part swapped."""
    local, _, domain = address.partition("@")
    for i in range(len(local) // 2, len(local) - 1):
        if local[i] != local[i + 1] and local[i].isalpha() and local[i + 1].isalpha():
            return local[:i] + local[i + 1] + local[i] + local[i + 2 :] + "@" + domain
    return None


def _shift_day(token: Token) -> str | None:
    """The date a day later (a day earlier at a month's end), written the same way."""
    match = _match(token)
    if match is None:
        return None
    groups = match.groupdict()
    day = int(groups["day"])
    if groups.get("year") and groups.get("mon") and "-" in token.text:
        moved = date(int(groups["year"]), int(groups["mon"]), day) + timedelta(days=1)
        return moved.isoformat() + token.text[10:]
    new = day + 1 if day < 28 else day - 1
    start, end = match.span("day")
    return token.text[:start] + _digits(new, groups["day"]) + token.text[end:]


def _digits(number: int, like: str, pad: bool = False) -> str:
    """`number` with a leading zero when `like` has one (or `pad`: an ISO date always has)."""
    return str(number).zfill(len(like)) if pad or like.startswith("0") else str(number)


def _match(token: Token) -> re.Match[str] | None:
    for pattern in _PATTERNS[token.kind]:
        match = pattern.fullmatch(token.text)
        if match is not None:
            return match
    return None


def _time_text(token: Token, minutes: int) -> str | None:
    """`minutes` after midnight written the way `token` writes a time."""
    match = _match(token)
    if match is None:
        return None
    groups = match.groupdict()
    hour, minute = divmod(minutes % (24 * 60), 60)
    ampm = groups.get("ampm")
    if ampm:
        suffix = ampm.strip()
        letter = "a" if hour < 12 else "p"
        suffix = (letter.upper() if suffix[0].isupper() else letter) + suffix[1:]
        shown = hour % 12 or 12
        space = " " if ampm.startswith(" ") else ""
        minutes_part = f"{groups['sep']}{minute:02d}" if groups.get("minute") is not None else ""
        if not minutes_part and minute:
            minutes_part = f":{minute:02d}"
        return f"{shown}{minutes_part}{space}{suffix}"
    width = len(groups["hour"])
    sep = groups.get("sep") or ":"
    if sep in "点时":
        return f"{hour}{sep}" + (f"{minute}分" if groups.get("minute") else "")
    return f"{hour:0{width}d}{sep}{minute:02d}"


def _date_text(token: Token, value: tuple[int, int]) -> str | None:
    """The day `value` (month, day) written the way `token` writes a date."""
    match = _match(token)
    if match is None:
        return None
    groups = match.groupdict()
    month, day = value
    text = token.text
    iso = "-" in text
    parts = sorted(
        [(match.span("day"), _digits(day, groups["day"], iso))]
        + ([(match.span("mon"), _digits(month, groups["mon"], iso))] if groups.get("mon") else [])
        + ([(match.span("month"), _month_word(groups["month"], month))] if groups.get("month") else []),
        reverse=True,
    )
    for (start, end), new in parts:
        text = text[:start] + new + text[end:]
    return text


def _month_word(like: str, month: int) -> str:
    name = MONTHS[month - 1]
    dot = "." if like.endswith(".") else ""
    word = like.rstrip(".")
    name = name[: len(word)] if len(word) <= 4 else name
    return (name.capitalize() if word[:1].isupper() else name) + dot


def _amount_text(token: Token, value: float) -> str:
    """`value` written with the separators and decimals `token` uses."""
    text = token.text
    digits = re.sub(r"[^\d.,\u00a0\u202f ]", "", text)
    last = max(digits.rfind("."), digits.rfind(","))
    decimals = len(digits) - last - 1 if last != -1 and len(digits) - last - 1 in (1, 2) else 0
    point = digits[last] if decimals else "."
    grouping = next((c for c in digits[: last if decimals else None] if not c.isdigit()), "")
    whole, cents = divmod(round(value * 10**decimals), 10**decimals)
    shown = f"{whole:,}".replace(",", grouping) if grouping else str(whole)
    return shown + (f"{point}{cents:0{decimals}d}" if decimals else "")


def one_off(token: Token) -> str | None:
    """The value one unit or one digit off, written the same way."""
    if token.kind == ADDRESS:
        return swap_letters(token.text)
    if token.kind == TIME:
        return _time_text(token, token.value + (60 if token.value < 23 * 60 else -60))
    if token.kind == DATE:
        return _shift_day(token)
    return bump_last_digit(token.text)


def render(token: Token, other: Token) -> str | None:
    """`other`'s value written the way `token` is written."""
    if token.kind == TIME:
        return _time_text(token, other.value)
    if token.kind == DATE:
        return _date_text(token, other.value)
    if token.kind == AMOUNT:
        return _amount_text(token, other.value)
    return other.text


def _adjacent(a: Token, b: Token) -> bool:
    """One unit apart (a day, an hour): `one_off`'s ground, and where a task may rightly accept either
    (a hotel night dated by arrival or departure)."""
    if a.kind == TIME:
        return abs(a.value - b.value) <= 60
    if a.kind == DATE:
        (ma, da), (mb, db) = a.value, b.value
        return ma == mb and abs(da - db) <= 1
    return False


def _distance(a: Token, b: Token) -> float:
    if a.kind in (AMOUNT, NUMBER, YEAR):
        return abs(math.log((abs(a.value) + 1) / (abs(b.value) + 1)))
    if a.kind == TIME:
        return abs(a.value - b.value) / 60
    if a.kind == DATE:
        return abs((a.value[0] * 31 + a.value[1]) - (b.value[0] * 31 + b.value[1]))
    return 1 - SequenceMatcher(None, str(a.value), str(b.value)).ratio()


@dataclass(frozen=True)
class Stated:
    """A value the world states, and where."""

    token: Token
    source: str


def world_values(texts: Iterable[tuple[str, str]]) -> dict[str, list[Stated]]:
    """The values stated by (source, text) pairs, by kind."""
    out: dict[str, list[Stated]] = {}
    for source, text in texts:
        for token in tokens(text):
            out.setdefault(token.kind, []).append(Stated(token, source))
    return out


def from_world(token: Token, world: dict[str, list[Stated]], *, avoid: Iterable[Any] = ()) -> Token | None:
    """The world's value of the token's kind most likely to be confused with it: one no source states
    next to the token's value (a source giving both, an invoice with its arrival and departure dates,
    may leave either right), in the most similar context, the nearest."""
    skip = {token.value, *avoid}
    kind = world.get(token.kind, [])
    with_value = {s.source for s in kind if s.token.value == token.value}
    alongside = {s.token.value for s in kind if s.source in with_value}
    best: tuple[Any, ...] | None = None
    for stated in kind:
        other = stated.token
        if other.value in skip or _adjacent(token, other):
            continue
        rank = (other.value in alongside, -len(other.context & token.context), _distance(token, other))
        if best is None or rank < best[0]:
            best = (rank, other)
    return None if best is None else best[1]
