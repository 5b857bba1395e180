"""Realism lint: the details that give a synthetic world away, one rule each.

Players of stage40 noticed them at once: a parents' evening at 07:45, yen with decimals, a monthly
spend of MX$216.91, a Tokyo postcode in the wrong ward, an e-ticket sent after the train left, a
vendor named after the user, a mail signed off twice, two "March summary" mails with different
totals that nothing explains. An agent that notices them learns it is being tested; a careful one
may rightly distrust the world. Each rule reads the initial world only (never the hidden files)
and reports findings naming the item (by its diff path) and what is wrong.

Rules and their severity (a finding of a `fail` rule fails the structure dimension, of a `warning`
rule halves it):

| rule | severity | what it checks |
|---|---|---|
| `event_times` | warning | a timed event starts at a plausible local time for its kind |
| `currency` | warning | amounts have their currency's minor units and a plausible size |
| `mail_dates` | warning | a ticket or itinerary mail is sent before the journey it describes |
| `addresses` | warning | a postcode fits the city (and the Tokyo ward) it is written with |
| `named_after_user` | warning | no vendor or organisation carries the user's name |
| `greetings` | warning | one greeting and one sign-off per mail |
| `same_documents` | fail | two "same" documents do not disagree, unless an operator put them there and says so |

"Same" documents are mails with one sender and one subject (not a thread), notes with one title, and
files with one name (but for a " (1)" or a version) in one folder. An operator says so when its
`[provenance]` evidence names one of them.

A hand-written task without `[provenance]` evidence vouches for its look-alikes by declaring
`cross_source_conflict` or `noisy_data`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from stageclaw.task.loader import Task
from stageclaw.validate.report import FAIL, PASS, WARNING, Check, worst
from stageclaw.world.state import normalize

NAME = "realism"


@dataclass
class Finding:
    rule: str
    item: str  # a diff path (mail/folders/INBOX/<id>, calendar/Work/evt-1, files/...) or a web table row
    message: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "item": self.item, "message": self.message}


@dataclass
class World:
    """What the rules read: the initial state, the web apps' catalogues, the user and the task's evidence."""

    state: dict[str, Any]
    web: dict[str, Any]
    user: str
    timezone: str
    operators: list[str]
    evidence: dict[str, Any]

    def messages(self) -> Iterator[tuple[str, dict[str, Any]]]:
        for folder, messages in (self.state.get("mail") or {}).get("folders", {}).items():
            for message in messages:
                yield f"mail/folders/{folder}/{message['message_id']}", message

    def texts(self) -> Iterator[tuple[str, str]]:
        """(item, text) of every piece of prose: mail subjects and bodies, notes, files, web catalogues."""
        for path, message in self.messages():
            yield path, f"{message.get('subject') or ''}\n{message.get('body') or ''}"
            for attachment in message.get("attachments") or []:
                if attachment.get("text"):
                    yield f"{path}#{attachment.get('filename')}", attachment["text"]
        for folder, notes in (self.state.get("notes") or {}).items():
            for note in notes:
                yield f"notes/{folder}/{note['uid']}", f"{note.get('title') or ''}\n{note.get('body') or ''}"
        for path, file in (self.state.get("files") or {}).items():
            if file.get("text"):
                yield f"files/{path}", file["text"]
        for app, tables in self.web.items():
            for table, rows in (tables or {}).items():
                for row in rows if isinstance(rows, list) else []:
                    text = " | ".join(str(v) for v in row.values() if isinstance(v, str | int | float))
                    yield f"web/{app}/{table}/{row.get('id', '?')}", text


# -- event_times ------------------------------------------------------------------------------------

# (what the title says, earliest and latest local start in minutes); the first match decides.
EVENT_KINDS: tuple[tuple[str, tuple[int, int]], ...] = (
    (r"flight|\btrain\b|depart|boarding|check-?in|airport|航班|火车|高铁", (0, 24 * 60)),
    (r"breakfast|brunch|frühstück|早餐|早茶", (6 * 60, 11 * 60 + 30)),
    (r"\blunch|mittag|午饭|午餐", (11 * 60, 14 * 60 + 30)),
    (r"dinner|supper|abendessen|晚饭|晚餐", (17 * 60, 22 * 60 + 30)),
    (r"evening|drinks|party|concert|theat|\bgig\b|\bpub\b|cocktail|晚会|聚会", (16 * 60, 23 * 60)),
    (r"morning|晨", (5 * 60, 12 * 60)),
    (r"afternoon|下午", (12 * 60, 18 * 60)),
)
ANY_EVENT = (6 * 60, 23 * 60)  # anything else starts between 06:00 and 23:00 where the user is


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _minutes(value: str) -> int:
    return int(value[11:13]) * 60 + int(value[14:16])


def event_times(world: World) -> list[Finding]:
    out = []
    for calendar, events in (world.state.get("calendar") or {}).items():
        for event in events:
            start = event.get("start") or ""
            if event.get("all_day") or len(start) < 16:
                continue
            title = event.get("summary") or ""
            window = next((w for pattern, w in EVENT_KINDS if re.search(pattern, title, re.I)), ANY_EVENT)
            at = _minutes(start)
            if not window[0] <= at <= window[1]:
                out.append(
                    Finding(
                        "event_times",
                        f"calendar/{calendar}/{event['uid']}",
                        f"{title!r} starts at {start[11:16]}, an odd time for it "
                        f"(expected {_clock(window[0])}-{_clock(window[1])})",
                    )
                )
    return out


# -- currency ----------------------------------------------------------------------------------------

# Roughly what one unit is worth in euros, and how many decimals the currency has.
CURRENCIES: dict[str, tuple[float, int]] = {
    "EUR": (1.0, 2),
    "GBP": (1.17, 2),
    "USD": (0.92, 2),
    "AUD": (0.6, 2),
    "SGD": (0.68, 2),
    "MXN": (0.054, 2),
    "BRL": (0.18, 2),
    "INR": (0.011, 2),
    "NGN": (0.0006, 2),
    "SEK": (0.088, 2),
    "CNY": (0.13, 2),
    "JPY": (0.0061, 0),
    "KRW": (0.00068, 0),
}
_SYMBOLS = {"MX$": "MXN", "A$": "AUD", "S$": "SGD", "R$": "BRL", "US$": "USD", "€": "EUR", "£": "GBP", "$": "USD"}
_SYMBOLS |= {"₹": "INR", "₦": "NGN", "₩": "KRW"}
_NUMBER = r"(\d{1,3}(?:[,.' ]\d{3})+|\d+)([.,]\d{1,2})?(?!\d)"
_BEFORE = re.compile(r"(MX\$|A\$|S\$|R\$|US\$|€|£|₹|₦|₩|¥|\$|\b(?:" + "|".join(CURRENCIES) + r")\b)\s?" + _NUMBER)
_AFTER = re.compile(r"(?<![\d.,])" + _NUMBER + r"\s?(kr\b|元|円|\b(?:" + "|".join(CURRENCIES) + r")\b|€)")
# Someone's spending over a month is not pocket money: a card summary of €11 gives the world away.
_MONTHLY_SPEND = re.compile(
    r"\bspen[dt]\b(?:[^.\n]|\.\d)*\b(?:in|this|last|per)\b(?:[^.\n]|\.\d)*(?:month|january|february|march|april|"
    r"may|june|july|august|september|october|november|december)",
    re.I,
)
LIMITS = (0.05, 500_000.0)  # in euros: the smallest and largest amount a personal world holds
MONTHLY_SPEND_MIN = 100.0


def _yen(world: World) -> str:
    """¥ is yen in Japan and yuan in China: the user's zone says which."""
    return "CNY" if world.timezone in ("Asia/Shanghai", "Asia/Chongqing", "Asia/Hong_Kong") else "JPY"


def _amounts(text: str, world: World) -> Iterator[tuple[str, float, bool, re.Match[str]]]:
    """(currency, value, has a decimal part, match) of each amount written with its currency."""
    for m in _BEFORE.finditer(text):
        marker, whole, cents = m.group(1), m.group(2), m.group(3)
        code = _yen(world) if marker == "¥" else _SYMBOLS.get(marker, marker)
        yield code, float(re.sub(r"\D", "", whole) + ("." + cents[1:] if cents else "")), bool(cents), m
    for m in _AFTER.finditer(text):
        whole, cents, marker = m.group(1), m.group(2), m.group(3)
        code = {"kr": "SEK", "元": "CNY", "円": "JPY", "€": "EUR"}.get(marker, marker)
        yield code, float(re.sub(r"\D", "", whole) + ("." + cents[1:] if cents else "")), bool(cents), m


def currency(world: World) -> list[Finding]:
    out = []
    for item, text in world.texts():
        for line in text.splitlines():
            for code, value, decimals, m in _amounts(line, world):
                if code not in CURRENCIES:
                    continue
                rate, digits = CURRENCIES[code]
                shown = m.group(0).strip()
                euros = value * rate
                if decimals and digits == 0:
                    out.append(Finding("currency", item, f"{shown}: {code} has no minor unit, so no decimals"))
                elif not LIMITS[0] <= euros <= LIMITS[1]:
                    out.append(Finding("currency", item, f"{shown} (about €{euros:,.2f}) is an implausible amount"))
                elif euros < MONTHLY_SPEND_MIN and _MONTHLY_SPEND.search(line):
                    out.append(Finding("currency", item, f"{shown} (about €{euros:,.2f}) is too little for a month"))
    for app, tables in world.web.items():  # the web apps keep amounts as numbers with a currency code
        for table, rows in (tables or {}).items():
            for row in rows if isinstance(rows, list) else []:
                code = row.get("currency")
                for field in ("amount", "price", "business_price", "total"):
                    value = row.get(field)
                    if isinstance(value, int | float) and CURRENCIES.get(code, (1, 2))[1] == 0 and value != int(value):
                        where = f"web/{app}/{table}/{row.get('id')}"
                        out.append(Finding("currency", where, f"{field} {value} {code}: {code} has no minor unit"))
    return out


# -- mail_dates ---------------------------------------------------------------------------------------

_JOURNEY = re.compile(r"e-?ticket|your ticket|boarding pass|itinerary|schedule change|\bdep(?:arts?|arture|\.)", re.I)
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE = re.compile(
    r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\.?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+(\d{4}))?"
    r"|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?"
    r"|\b(\d{4})-(\d{2})-(\d{2})\b",
    re.I,
)
_DEPARTS = re.compile(r"\bdep(?:arts?|arture|\.)?\s*:?\s*(?:at\s+)?(\d{1,2}):(\d{2})", re.I)


def _written_dates(text: str, near: date) -> list[date]:
    """The calendar dates in `text`; a date without a year is taken in the year that puts it nearest `near`."""
    out = []
    for m in _DATE.finditer(text):
        try:
            if m.group(7):
                out.append(date(int(m.group(7)), int(m.group(8)), int(m.group(9))))
                continue
            day_, month, year = (
                (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(4), m.group(6))
            )
            number = _MONTH_NAMES.index(month.lower()[:3]) + 1
            if year:
                out.append(date(int(year), number, int(day_)))
            else:
                options = [date(near.year + k, number, int(day_)) for k in (-1, 0, 1)]
                out.append(min(options, key=lambda d: abs((d - near).days)))
        except ValueError:
            continue
    return out


def mail_dates(world: World) -> list[Finding]:
    out = []
    for path, message in world.messages():
        text = f"{message.get('subject') or ''}\n{_own(message.get('body') or '')}"
        if not _JOURNEY.search(text) or not message.get("date"):
            continue
        sent = datetime.fromisoformat(message["date"])
        journeys = _written_dates(text, sent.date())
        if not journeys:
            continue
        first = min(journeys)
        departs = _DEPARTS.search(text)
        late = first < sent.date() or (
            first == sent.date()
            and departs is not None
            and (int(departs[1]), int(departs[2])) < (sent.hour, sent.minute)
        )
        if late:
            out.append(
                Finding(
                    "mail_dates",
                    path,
                    f"{message.get('subject')!r} is sent {message['date'][:16]}, after the journey it describes "
                    f"({first.isoformat()}{' ' + departs[1] + ':' + departs[2] if departs else ''})",
                )
            )
    return out


# -- addresses ------------------------------------------------------------------------------------------

# City -> the postcodes it has; a postcode written with another city's name is a slip.
POSTCODES: dict[str, str] = {
    "London": r"(?:EC|WC|E|N|NW|SE|SW|W)\d[\dA-Z]? \d[A-Z]{2}",
    "Manchester": r"M\d{1,2} \d[A-Z]{2}",
    "Edinburgh": r"EH\d{1,2} \d[A-Z]{2}",
    "Berlin": r"1[0-4]\d{3}",
    "Hamburg": r"2[0-2]\d{3}",
    "München": r"8[01]\d{3}",
    "Chicago": r"IL 606\d\d",
    "New York": r"NY 10[0-2]\d\d",
    "Seattle": r"WA 981\d\d",
    "Denver": r"CO 802\d\d",
    "Ciudad de México": r"(?:0\d|1[0-6])\d{3}",
    "Guadalajara": r"4[45]\d{3}",
    "Bengaluru": r"560\d{3}",
    "Pune": r"41[01]\d{3}",
    "Melbourne": r"VIC 3\d{3}",
    "Sydney": r"NSW 2\d{3}",
    "Brisbane": r"QLD 40\d\d",
    "São Paulo": r"0[1-5]\d{3}-\d{3}",
    "Lagos": r"1\d{5}",
    "Stockholm": r"1\d\d \d\d",
    "Paris": r"750\d\d",
    "Lyon": r"6900\d",
    "Singapore": r"\d{6}",
    "Tokyo": r"1\d\d-\d{4}",
}
# Tokyo's wards and the first three digits of their postcodes.
TOKYO_WARDS: dict[str, tuple[str, ...]] = {
    "Chiyoda": ("100", "101", "102"),
    "Chuo": ("103", "104"),
    "Minato": ("105", "106", "107", "108"),
    "Shinjuku": ("160", "161", "162", "169"),
    "Shibuya": ("150", "151"),
    "Meguro": ("152", "153"),
    "Setagaya": ("154", "155", "156", "157", "158"),
}
_POSTCODE = (
    r"((?:IL|NY|WA|CO|CA|TX|MA|OR|VIC|NSW|QLD) \d{4,5}"  # a state and a ZIP or postcode
    r"|[A-Z]{1,2}\d[\dA-Z]? \d[A-Z]{2}"  # British
    r"|\d{3}-\d{4}|\d{5}-\d{3}|\d{3} \d{2}|\d{4,6})"  # Japanese, Brazilian, Swedish, the plain ones
)


def addresses(world: World) -> list[Finding]:
    out = []
    for item, text in world.texts():
        for line in text.splitlines():
            for city, pattern in POSTCODES.items():
                # An address writes the postcode right before or after the city (or leaves it out); a
                # number after an airline's code is a flight ("NQ 1726 Sydney").
                written = re.search(
                    rf"(?:(?<![\w-])(?<![A-Z]{{2}}\s){_POSTCODE}\s+{re.escape(city)}\b|\b{re.escape(city)},?\s+{_POSTCODE}(?![\w-]))",
                    line,
                )
                if written is None:
                    continue
                code = written.group(1) or written.group(2)
                if not re.fullmatch(pattern, code):
                    out.append(Finding("addresses", item, f"{code} is not a {city} postcode: {line.strip()!r}"))
                elif city == "Tokyo":
                    ward = next((w for w in TOKYO_WARDS if w in line), None)
                    if ward and code[:3] not in TOKYO_WARDS[ward]:
                        out.append(Finding("addresses", item, f"{code} is not in {ward}: {line.strip()!r}"))
    return out


# -- named_after_user -------------------------------------------------------------------------------

_ROLE = re.compile(
    r"^(?:no-?reply|info|hello|billing|support|orders?|receipts?|reservations?|tickets?|bookings?|service|team|"
    r"news(?:letter)?|accounts?|invoices?|offers?|notifications?|contact|office|sales)@",
    re.I,
)


def _organisations(world: World) -> Iterator[tuple[str, str]]:
    """(item, name) of every organisation or vendor the world names."""
    for contact in world.state.get("contacts") or []:
        if contact.get("organization"):
            yield f"contacts/{contact['uid']}", contact["organization"]
    for path, message in world.messages():
        sender = message.get("from") or ""
        found = re.match(r"\s*(.*?)\s*<([^>]+)>", sender)
        if found and found.group(1) and _ROLE.match(found.group(2)):
            yield path, found.group(1).strip('"')
    for app, tables in world.web.items():
        for table, rows in (tables or {}).items():
            for row in rows if isinstance(rows, list) else []:
                for field in ("merchant", "name", "airline"):
                    if isinstance(row.get(field), str) and table != "people":
                        yield f"web/{app}/{table}/{row.get('id')}", row[field]


def named_after_user(world: World) -> list[Finding]:
    parts = [p for p in re.split(r"[\s-]+", world.user) if len(p) >= 3]
    out = []
    for item, name in _organisations(world):
        hit = next((p for p in parts if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", name, re.I)), None)
        if hit:
            out.append(Finding("named_after_user", item, f"{name!r} carries the user's name ({hit})"))
    return out


# -- greetings --------------------------------------------------------------------------------------------

_GREETING = re.compile(
    r"^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|hallo|liebe[rs]?|bonjour|hola|olá)\b[^.?]{0,40}[,!:]?$"
    r"|^.{0,12}(?:你好|您好)[：:，,！!]?$|^(?:尊敬的|嗨).{0,12}[：:，,！!]$",
    re.I,
)
_SIGN_OFF = re.compile(
    r"^(?:best|best regards|kind regards|regards|warm regards|cheers|thanks|thanks a lot|thanks again|thank you|"
    r"many thanks|best wishes|all the best|see you|see you soon|talk soon|yours sincerely|yours|with best regards|"
    r"viele grüße|beste grüße|mit freundlichen grüßen|saludos|cordialement|x+|谢谢|祝好|多谢|此致|顺祝商祺|回头聊|谢啦)"
    r"[,.!！]?$",
    re.I,
)
# A closing line: a sign-off, or a parting wish ("See you at the run!", "Hope one of those fits!") that is
# one when only the signature follows it.
_CLOSING = re.compile(
    r"^(?:see you|hope|looking forward|talk soon|speak soon|take care|have a (?:good|great|nice)|enjoy)\b.{0,60}[.!]$",
    re.I,
)
_QUOTE_START = re.compile(r"^(?:On .* wrote:|在 .* 写道：|-{3,}\s*(?:Forwarded|Original) [Mm]essage.*|From: .*)$")


def _own(body: str) -> str:
    """A mail's own words: without quoted lines and without what follows an attribution or forward marker."""
    lines = []
    for line in body.splitlines():
        if _QUOTE_START.match(line.strip()):
            break
        if not line.lstrip().startswith(">"):
            lines.append(line)
    return "\n".join(lines)


def _signature(line: str) -> bool:
    """A line of a signature: a name, a title, a phone number, the "--" above them."""
    return line == "--" or (len(line.split()) <= 6 and not re.search(r"[.!?]$", line))


def _sign_offs(lines: list[str]) -> list[str]:
    """The closing lines: each sign-off, and each parting wish after which only closings and the signature
    follow."""
    out = []
    for n, line in enumerate(lines):
        rest = [x for x in lines[n + 1 :] if x]
        if _SIGN_OFF.match(line) or (
            _CLOSING.match(line) and all(_SIGN_OFF.match(x) or _CLOSING.match(x) or _signature(x) for x in rest)
        ):
            out.append(line)
    return out


def greetings(world: World) -> list[Finding]:
    out = []
    for path, message in world.messages():
        lines = [line.strip() for line in _own(message.get("body") or "").splitlines()]
        hellos = [line for line in lines if _GREETING.match(line)]
        byes = _sign_offs(lines)
        if len(hellos) > 1:
            out.append(Finding("greetings", path, f"{len(hellos)} greetings: {hellos}"))
        if len(byes) > 1:
            out.append(Finding("greetings", path, f"{len(byes)} sign-offs: {byes}"))
    return out


# -- same_documents -------------------------------------------------------------------------------------

_FIGURE = re.compile(r"\d[\d,.']*\d|\d")


def _bare(subject: str) -> str:
    return re.sub(r"^\s*(?:(?:re|aw|fwd?|wg|回复|转发)\s*[:：]\s*)+", "", subject or "", flags=re.I).strip().lower()


def _figures(text: str) -> list[str]:
    return sorted(_FIGURE.findall(text))


def _explained(world: World, paths: list[str]) -> bool:
    """An operator put the look-alikes there and says so: its evidence names one of them. A hand-written task
    without evidence vouches for them by declaring an operator that makes look-alikes."""
    if not world.evidence:
        return bool({"cross_source_conflict", "noisy_data"} & set(world.operators))
    text = repr(world.evidence)
    return any(p in text for p in paths)


def same_documents(world: World) -> list[Finding]:
    groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    replies = {m.get("in_reply_to") for _, m in world.messages()}
    for path, message in world.messages():
        sender = re.sub(r".*<|>.*", "", message.get("from") or "").lower()
        if message.get("in_reply_to") or message.get("message_id") in replies:
            continue  # a thread's messages answer each other; they are not copies
        key = ("mail", sender, _bare(message.get("subject") or ""))
        groups.setdefault(key, []).append((path, f"{message.get('subject')}\n{_own(message.get('body') or '')}"))
    for folder, notes in (world.state.get("notes") or {}).items():
        for note in notes:
            key = ("note", (note.get("title") or "").strip().lower())
            groups.setdefault(key, []).append((f"notes/{folder}/{note['uid']}", note.get("body") or ""))
    for path, file in (world.state.get("files") or {}).items():
        folder, _, name = path.rpartition("/")  # the same name in another folder is another client's, say
        stem = re.sub(r"(?:\s*\(\d+\)|[-_ ]v?\d)?\.\w+$", "", name).lower()
        key = ("file", folder, stem)
        groups.setdefault(key, []).append((f"files/{path}", file.get("text") or file.get("sha256") or ""))
    out = []
    for key, docs in groups.items():
        if len(docs) < 2 or not key[-1]:
            continue
        variants = {tuple(_figures(text)) for _, text in docs}
        if len(variants) > 1 and not _explained(world, [p for p, _ in docs]):
            out.append(
                Finding(
                    "same_documents",
                    docs[0][0],
                    f"{len(docs)} {key[0]}s called {key[-1]!r} give different figures and nothing in [provenance] "
                    "says why: " + ", ".join(p for p, _ in docs),
                )
            )
    return out


RULES: dict[str, tuple[Callable[[World], list[Finding]], str]] = {
    "event_times": (event_times, WARNING),
    "currency": (currency, WARNING),
    "mail_dates": (mail_dates, WARNING),
    "addresses": (addresses, WARNING),
    "named_after_user": (named_after_user, WARNING),
    "greetings": (greetings, WARNING),
    "same_documents": (same_documents, FAIL),
}


def lint(task: Task) -> list[Finding]:
    """Every finding of every rule on the task's initial world."""
    web = task.world.web.model_dump(mode="json", exclude_none=True) if task.world.web else {}
    provenance = task.config.provenance
    world = World(
        state=normalize(task.world, task.dir),
        web={k: v for k, v in web.items() if v},
        user=task.world.user.name,
        timezone=task.world.timezone,
        operators=list(task.config.operators),
        evidence=dict(provenance.evidence) if provenance is not None else {},
    )
    return [finding for rule, _ in RULES.values() for finding in rule(world)]


def check_realism(task: Task) -> Check:
    """The structure dimension's `realism` check: pass, or the worst severity among the rules that found something."""
    findings = lint(task)
    if not findings:
        return Check(NAME, PASS, f"no tell-tale details ({len(RULES)} rules)")
    status = worst(RULES[f.rule][1] for f in findings)
    shown = "; ".join(f"[{f.rule}] {f.item}: {f.message}" for f in findings[:6])
    more = f" (+{len(findings) - 6} more)" if len(findings) > 6 else ""
    return Check(
        NAME,
        status,
        f"{len(findings)} details give the synthetic world away: {shown}{more}",
        [f.to_json() for f in findings],
        "make the content plausible (times, money, dates, addresses, names, one greeting and sign-off), or record "
        "deliberate look-alikes in [provenance]",
    )
