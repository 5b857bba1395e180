"""receipts-reconciliation (documents): reconcile a month's card statement against the receipts in mail and
files, write the reconciliation sheet, and chase a double charge.

The statement (CSV or XLSX, in Downloads beside last month's) lists card payments under the shops'
registered names; the receipts (e-mails and PDFs in Documents/Receipts) show their brands, with the
registered name at the bottom. The user's note says how: one row per card payment with the
statement's date and amount, the receipt number and a status (matched, no receipt, double charge,
refunded); a mail to the shop about a double charge, and a reminder to follow up some working days
later. Each card payment's row is its own rubric item.

Planted on every task besides the operators (the levers are listed in the evidence of tool_state_update, each
with the item that grades it): a receipt the shop reissued under a new number (the first one still in the
mail; the row gives the new number), a receipt the user's partner forwarded with no "receipt" in its
subject, and the note's last rule: tick off the month's "Reconcile" reminder (last month's already is).

And a reaction: the double-charged shop has moved billing queries to another of its addresses. The first mail
to the contact address on the receipt (or, for a receipt that came by mail, a reply to it) brings an automatic
reply that names it, and the mail about the double charge has to reach that address (double_charge_mail).

And a joint decision: five purchases at one company's café and bakery, a few prices repeating. The café's
lines carry its own name, the bakery's the company's registered name, which the café's receipts give too; a
payment posts on the purchase day or up to three days later (the note says so). The draw is repeated until
exactly one complete matching of the five receipts to the five lines fits (all 120 are enumerated) and the
greedy walk (receipts in date order, each to the first free line that fits) reaches a dead end. A sixth
receipt from the same counter at the same price was paid with the user's other card. Each line's row is its
own rubric item, so a wrong matching fails at least two.

- tool_state_update (core): the sheet, the mail to the shop, the reminder, the month's reminder ticked off.
- (not declared as entity_alignment, whose detector looks for people: the statement's registered names
  against the receipts' brands is part of every task.)
- cross_source_conflict: a payment abroad: the receipt is in euros, the statement's converted amount is
  the one recorded.
- noisy_data: last month's statement beside this one; receipts of last month and one paid with another
  card; a coffee shop visited several times.
- temporal_reasoning: the follow-up is working days away across public holidays (in the calendar); a
  receipt's date is the purchase, the statement's the posting, a day or two later.
- hidden_dependency: the rules are the user's note; the holidays are in the calendar.
- cross_tool_consistency: the double charge is on the sheet, in the mail and in the reminder.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from math import perm
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import holidays, joint, money
from stageclaw.author.content import receipts_reconciliation as rr
from stageclaw.author.content.files import csv_text, pdf_pages
from stageclaw.author.content.life_en import VENDORS
from stageclaw.author.content.mail import message_id, moved_reply
from stageclaw.author.content.office import xlsx_file
from stageclaw.author.content.people import JOB_TITLES, Org
from stageclaw.author.content.places import REGIONS
from stageclaw.author.content.text import MONTHS, amount_regex, date_regex, day, full_date_regex
from stageclaw.author.content.timeline import at
from stageclaw.author.content.volume import Avoid, Life, Scale
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import file_path, item_path, mail_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import temporal_reasoning as tr
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import receipts_reconciliation as solution

SCALE = Scale(messages=230, series=6, events=100, contacts=80, files=60, notes=12, reminders=12)
HOLIDAYS = "Holidays"
RECEIPTS = "Documents/Receipts"
# (the statement's month, the mornings the user gets to it): a month with a clock change in it (the
# receipts carry two UTC offsets) and a morning with public holidays in the days after.
WHEN = {
    "uk": (date(2026, 3, 1), (date(2026, 4, 1), date(2026, 4, 2))),
    "us": (date(2026, 11, 1), (date(2026, 12, 21), date(2026, 12, 22), date(2026, 12, 28), date(2026, 12, 29))),
}


def _squashed(name: str) -> str:
    """A name as card networks print it run together: capitals and digits, accents dropped."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Z0-9]", "", plain.upper())


JOINT_CHOICES = 5  # receipts of the café and the bakery to match to their lines
# Where the double-charged shop now takes billing queries: (its mailbox, what its automatic reply says go there).
BILLING = (
    ("billing", "billing queries"),
    ("payments", "payment queries"),
    ("refunds", "refunds and billing queries"),
)


def joint_solve(receipts: list[tuple[str, Decimal, date]], lines: list[tuple[date, str, Decimal]], cafe: str) -> dict:
    """Every complete matching of `receipts` (brand, amount, purchase day; in date order) to `lines` (posting day,
    description, amount; in the statement's order) that the stated facts allow, and where the greedy walk (each
    receipt in date order takes the first free line that fits) gets stuck. A line fits a receipt with its amount,
    posted on the purchase day or up to three days later, under the receipt's café's name, or under the
    registered name, which both shops print at the bottom of their receipts."""
    squashed = _squashed(cafe)

    def fits(r: tuple[str, Decimal, date], line: tuple[date, str, Decimal]) -> bool:
        brand, amount, bought = r
        named = not line[1].startswith("SQ *") or (brand == cafe and squashed in _squashed(line[1]))
        return named and amount == line[2] and timedelta(0) <= line[0] - bought <= timedelta(days=3)

    valid = joint.choices(
        [range(len(lines))] * len(receipts),
        lambda order: all(fits(r, lines[i]) for r, i in zip(receipts, order, strict=False)),
        distinct=True,
    )
    greedy: list[int | None] = []
    stuck = None
    for n, r in enumerate(receipts):
        free = [i for i, line in enumerate(lines) if i not in greedy and fits(r, line)]
        greedy.append(free[0] if free else None)
        if not free and stuck is None:
            stuck = n
    if stuck is None and tuple(greedy) not in valid:  # pragma: no cover - every step fits, so it is valid
        stuck = len(receipts)
    return {
        "enumerated": perm(len(lines), len(receipts)),
        "valid": valid,
        "greedy": greedy,
        "stuck": stuck,
    }


@dataclass
class Receipt:
    brand: str
    legal: str
    number: str
    bought: date
    total: Decimal
    currency: str
    card: str
    support: str
    items: str
    sender: str = ""
    mail: str = ""  # the diff path of the mail that carries it
    path: str = ""  # or its file
    address: str = ""
    replaces: str = ""  # the number of the receipt this one was reissued for
    forwarded: bool = False  # came forwarded by the user's partner, who paid with the user's card


@dataclass
class Line:
    """A line of the statement."""

    day: date
    description: str
    amount: Decimal  # what left (or came into) the account, in the home currency
    kind: str  # the bank's type of line
    paid_in: bool = False
    card: bool = False
    receipt: Receipt | None = None
    status: str = ""
    group: str = ""  # lines graded together (the two halves of a double charge)
    twist: str = ""


@dataclass
class _Story:
    ctx: Context
    lines: list[Line] = field(default_factory=list)
    receipts: list[Receipt] = field(default_factory=list)

    def __post_init__(self) -> None:
        ctx = self.ctx
        rng, people = ctx.rng, ctx.people
        self.rng = rng
        self.region = REGIONS[rng.choice(sorted(WHEN))]
        self.calendar = holidays.calendar(self.region.key)
        employer = people.company(self.region)
        while not tr.dst_changes(employer.city.tz, date(2026, 1, 1), date(2026, 12, 31)):
            employer = people.company(self.region)
        self.me = people.person(self.region, org=employer, title=rng.choice(JOB_TITLES))
        self.month, mornings = WHEN[self.region.key]
        today = rng.choice(mornings)
        self.now = at(today, rng.randint(8, 10), rng.choice((10, 25, 45)), self.me.tz)
        self.follow = next(
            n for n in rng.sample((3, 4, 5), 3) if self.calendar.add(today, n) - today > timedelta(days=n)
        )
        self.due = self.calendar.add(today, self.follow)
        self.end = (self.month + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        card, other = rr.CARDS[self.region.key]
        self.card = f"{card} ending {rng.randint(1000, 9999)}"
        self.other_card = f"{other} ending {rng.randint(1000, 9999)}"
        self.draft = TaskDraft(
            id="",
            title="Reconcile the month's card statement against the receipts",
            group="documents",
            now=self.now.isoformat(),
            timezone=self.me.tz,
            user={"name": self.me.name, "email": self.me.email},
            time_budget_s=1800,
            max_steps=90,  # the reference solution takes 35-40 calls (stage40's seeds: 37): about 2.4 times that
        )
        self.orgs: dict[str, Org] = {}
        self.partner = people.person(self.region, family=self.me.family)
        # the reaction: the shop's addresses that answer the first mail about the double charge automatically, the
        # one they name instead, and what goes there (see moved)
        self.answering: list[str] = []
        self.billing = ""
        self.about = ""

    # -- small parts ---------------------------------------------------------------------------

    def money(self, value: Decimal, currency: str | None = None) -> str:
        if currency is None or currency == self.region.currency:
            return money.format_amount(value, self.region)
        return f"{currency} {value:,.2f}"

    def day(self, on: date) -> str:
        return f"{day(on, 'en', self.region, weekday=False)} {on.year}"

    def statement_day(self, on: date) -> str:
        return f"{on:%m/%d/%Y}" if self.region.month_first else f"{on:%d/%m/%Y}"

    def org(self, brand: str, legal: str) -> Org:
        if brand not in self.orgs:
            domain = f"{re.sub(r'[^a-z0-9]', '', brand.lower())}.{self.region.tld}"
            self.orgs[brand] = self.ctx.people.org(self.region, brand, legal, domain)
        return self.orgs[brand]

    def amount(self, low: float, high: float) -> Decimal:
        taken = {line.amount for line in self.lines}
        while True:
            value = money.amount(self.rng, low, high, self.region.currency)
            if value not in taken:
                return value

    def posting(self, taken: set[date]) -> date:
        while True:
            on = self.month + timedelta(days=self.rng.randint(1, (self.end - self.month).days))
            if on not in taken and on.weekday() < 6:
                return on

    def descriptor(self, brand: str, legal: str, style: str) -> str:
        squashed = _squashed(brand)
        if style == "legal":
            return f"{legal.upper()} {rr.LEGAL_FORM[self.region.key].upper()}"
        if style == "square":
            return f"SQ *{squashed}"
        if style == "paypal":
            return f"PAYPAL *{squashed}"
        return f"{brand.upper()} {self.me.city.name.upper()}"

    # -- the month -------------------------------------------------------------------------------

    def shopping(self, conflict: bool, noisy: bool) -> None:
        """The card payments of the month and their receipts, with the twists."""
        rng = self.rng
        shops = rng.sample(rr.SHOPS, rng.randint(9, 11))
        used: set[date] = set()
        for n, (brand, legal_root, items, style, (low, high)) in enumerate(shops):
            legal = f"{legal_root} {rr.LEGAL_FORM[self.region.key]}"
            org = self.org(brand, legal)
            visits = rng.randint(2, 4) if n == 0 and noisy else 1  # the coffee shop round the corner
            for _ in range(visits):
                posted = self.posting(used)
                used.add(posted)
                amount = self.amount(low, high)
                line = Line(posted, self.descriptor(brand, legal_root, style), amount, rr.CARD_TYPE[self.region.key])
                line.card, line.status = True, "matched"
                line.twist = "registered name" if style == "legal" else ""
                line.receipt = self.receipt(org, legal, posted, amount, items)
                self.lines.append(line)
        card_lines = list(self.lines)
        double = rng.choice([line for line in card_lines if line.receipt is not None][1:])
        twin = Line(double.day, double.description, double.amount, double.kind, card=True, receipt=double.receipt)
        twin.status, twin.twist, double.twist = "double charge", "double charge", "double charge"
        self.lines.append(twin)
        self.double = double
        refunded = rng.choice([line for line in card_lines if line is not double and line.receipt is not None][1:])
        back = min(refunded.day + timedelta(days=rng.randint(3, 9)), self.end)
        refund = Line(back, f"{refunded.description} REFUND", refunded.amount, refunded.kind, paid_in=True, card=True)
        refund.receipt, refund.status, refund.twist = refunded.receipt, "refunded", "refund"
        refunded.status, refunded.twist = "refunded", "refunded"
        self.lines.append(refund)
        self.refunded = refunded
        for description in rng.sample(rr.NO_RECEIPT, rng.randint(1, 2)):
            line = Line(self.posting(used), description, self.amount(2, 14), rr.CARD_TYPE[self.region.key], card=True)
            line.status, line.twist = "no receipt", "no receipt"
            self.lines.append(line)
        if conflict:
            brand, town, legal, currency, (low, high), tld = rng.choice(rr.ABROAD)
            foreign = money.amount(rng, low, high, "EUR")
            rate = Decimal(str(round(rng.uniform(*rr.RATES[self.region.key]), 4)))
            home = (foreign * rate).quantize(Decimal("0.01"), ROUND_HALF_UP)
            posted = self.posting(used)
            description = f"{brand.upper()} {town.upper()} {currency} {foreign:.2f}"
            line = Line(posted, description, home, rr.CARD_TYPE[self.region.key], card=True, status="matched")
            line.twist = "abroad"
            domain = f"{re.sub(r'[^a-z]', '', brand.lower().replace('é', 'e'))}.{tld}"
            org = self.ctx.people.org(self.region, brand, legal, domain)
            line.receipt = self.receipt(org, legal, posted, foreign, "", currency=currency, file=True)
            self.lines.append(line)
            self.abroad = line

    def joint(self) -> None:
        """Five purchases at one company's café and bakery, amounts repeating: the café's lines carry its own
        name, the bakery's the company's registered name (the café's too). Drawn again until exactly one
        complete matching of receipts to lines fits the dates, amounts and names, and matching each receipt
        in date order to the first line that fits runs into a dead end."""
        rng, key = self.rng, self.region.key
        legal_root, cafe, bakery, menu = rng.choice(rr.JOINT)
        legal = f"{legal_root} {rr.LEGAL_FORM[key]}"
        self.joint_shops = (cafe, bakery)
        prices = [(Decimal(a), what) for a, what in menu[key]]
        printed = {
            cafe: self.descriptor(cafe, legal_root, "square"),
            bakery: self.descriptor(bakery, legal_root, "legal"),
        }
        last = (self.end - self.month).days - 14
        for _attempt in range(2000):
            start = self.month + timedelta(days=rng.randint(1, last))
            days = sorted(rng.sample(range(10), JOINT_CHOICES))
            draws = []
            for offset in days:
                brand = rng.choice((cafe, bakery))
                amount, what = rng.choice(prices)
                bought = start + timedelta(days=offset)
                draws.append((brand, amount, what, bought, bought + timedelta(days=rng.randint(0, 3))))
            lines = sorted({(d[4], printed[d[0]], d[1]) for d in draws})
            # a sheet's row is known by its date and amount: no two lines of the month share both
            dated = {(on, amount) for on, _, amount in lines}
            taken = {(x.day, x.amount) for x in self.lines}
            if (
                len(dated) < len(draws)
                or dated & taken
                or any(on.weekday() == 6 or on > self.end for on, _, _ in lines)
            ):
                continue
            solved = joint_solve([(d[0], d[1], d[3]) for d in draws], lines, cafe)
            if len(solved["valid"]) == 1 and solved["stuck"] is not None:
                break
        else:  # pragma: no cover - the draw above succeeds within a few dozen attempts
            raise AssertionError("no joint draw with one matching and a failing greedy walk")
        self.joint_lines: list[Line] = []
        for brand, amount, what, bought, posted in draws:
            line = Line(posted, printed[brand], amount, rr.CARD_TYPE[key], card=True, status="matched", twist="joint")
            line.receipt = self.receipt(self.org(brand, legal), legal, posted, amount, what)
            line.receipt.bought = bought
            self.lines.append(line)
            self.joint_lines.append(line)
        self.joint_solved = solved
        # and one more at the same counter, the same price, paid with the user's other card: it fits a line's
        # date, name and amount, but not the card the statement is for
        bought = {x.receipt.bought for x in self.joint_lines if x.receipt is not None}
        free = {
            id(x): [x.day - timedelta(days=n) for n in range(4) if x.day - timedelta(days=n) not in bought]
            for x in self.joint_lines
        }
        line = rng.choice([x for x in self.joint_lines if free[id(x)]])
        days, r = free[id(line)], line.receipt
        assert r is not None
        decoy = self.receipt(self.orgs[r.brand], legal, line.day, r.total, r.items)
        decoy.bought, decoy.card = rng.choice(days), self.other_card
        self.joint_decoy = (decoy, line)

    def straddle(self) -> None:
        """One purchase on the other side of the month's clock change from the rest (a weekend purchase
        posted on Monday, or one in the month's last days), its receipt by mail: the month's times carry
        two UTC offsets, as a real month of mail around a clock change does."""
        change = tr.dst_changes(self.me.tz, self.month - timedelta(days=3), self.end + timedelta(days=1))[0].at.date()
        plain = [line for line in self.lines if not line.twist and line.receipt is not None]
        line = self.rng.choice(plain)
        assert line.receipt is not None
        self.straddled = line
        if change.day > 15:  # late in the month: a purchase after it
            line.day = self.end - timedelta(days=self.rng.randint(0, 1))
            line.receipt.bought = max(change, line.day - timedelta(days=1))
        else:  # early: a purchase before it, posted after
            line.receipt.bought = change - timedelta(days=1)
            line.day = line.receipt.bought + timedelta(days=2)
        line.receipt.path = ""

    def reissue_and_forward(self) -> None:
        """Two receipts that a search for 'receipt' in subjects does not settle: one the shop reissued under a new
        number (the row gives the new one), one the user's partner forwarded from their own inbox."""
        rng = self.rng
        plain = [x for x in self.lines if not x.twist and x.receipt is not None and x is not self.straddled]
        reissued, forwarded = rng.sample(plain, 2)
        for line, twist in ((reissued, "reissued"), (forwarded, "forwarded")):
            assert line.receipt is not None
            line.twist, line.receipt.path = twist, ""
        r = reissued.receipt
        assert r is not None
        prefix = r.number.split("-")[0]
        r.replaces, r.number = r.number, f"{prefix}-{rng.randint(100000, 999999)}"
        self.reissued = reissued
        assert forwarded.receipt is not None
        forwarded.receipt.forwarded = True
        self.forwarded = forwarded

    def receipt(
        self, org: Org, legal: str, posted: date, total: Decimal, items: str, *, currency: str = "", file: bool = False
    ) -> Receipt:
        rng = self.rng
        bought = posted - timedelta(days=rng.choice((0, 1, 1, 2)))
        number = f"{''.join(w[0] for w in org.name.split() if w[0].isalpha()).upper()}-{rng.randint(100000, 999999)}"
        receipt = Receipt(
            org.name,
            legal,
            number,
            bought,
            total,
            currency or self.region.currency,
            self.card,
            f"help@{org.domain}",
            items or "Food and drinks",
            sender=f"{org.name} <receipts@{org.domain}>",
            address=org.address,
        )
        receipt.path = "file" if file or rng.random() < 0.35 else ""
        self.receipts.append(receipt)
        return receipt

    def lines_of_pdf(self, r: Receipt) -> list[str]:
        values = {
            "brand": r.brand,
            "address": r.address,
            "number": r.number,
            "date": self.day(r.bought),
            "items": r.items[0].upper() + r.items[1:],
            "total": self.money(r.total, r.currency),
            "card": r.card,
            "support": r.support,
            "legal": r.legal,
        }
        return [line.format(**values) for line in rr.RECEIPT_LINES]

    def deliver(self) -> None:
        """Each receipt into the mail or into Documents/Receipts, as it came."""
        rng, scans, named = self.rng, 0, set()
        prefixes = ("Scan", "IMG", "receipt")
        for r in self.receipts:
            lines = self.lines_of_pdf(r)
            if r.path:
                scans += 1
                # two scans of one day never share a name but for the counter (a reader takes them for versions)
                first = prefixes.index(rng.choice(prefixes))
                free = [p for p in prefixes[first:] + prefixes[:first] if (p, r.bought) not in named]
                prefix = free[0] if free else re.sub(r"\W", "", r.brand)
                named.add((prefix, r.bought))
                r.path = f"{RECEIPTS}/{prefix}_{r.bought:%m%d}_{scans}.pdf"
                self.draft.add_file(r.path, pdf_pages([(f"{r.brand}: receipt", lines[1:])]))
                continue
            when = at(r.bought, rng.randint(8, 20), rng.randint(0, 59), self.me.tz)
            if r.forwarded:
                values = {"brand": r.brand, "number": r.number, "sender": r.sender, "lines": "\n".join(lines[2:])}
                subject, text = (t.format(**values) for t in rr.FORWARDED_MAIL)
                later = when + timedelta(hours=rng.randint(2, 30))
                r.mail = self.mail(self.partner.mailbox, subject, text, min(later, self.now), self.partner.first)
                continue
            if r.replaces:  # the first receipt, then its replacement a day or two on
                first = "\n".join(self.lines_of_pdf(replace(r, number=r.replaces))[2:])
                subject = rr.RECEIPT_MAIL[0].format(brand=r.brand, number=r.replaces)
                self.mail(r.sender, subject, rr.RECEIPT_MAIL[1].format(lines=first), when, f"The {r.brand} team")
                when = min(when + timedelta(days=rng.randint(1, 2), hours=rng.randint(1, 5)), self.now)
                values = {"brand": r.brand, "number": r.number, "old": r.replaces, "lines": "\n".join(lines[2:])}
                subject, text = (t.format(**values) for t in rr.REISSUE_MAIL)
                r.mail = self.mail(r.sender, subject, text, when, f"The {r.brand} team")
                continue
            body = rr.RECEIPT_MAIL[1].format(lines="\n".join(lines[2:]))
            r.mail = self.mail(
                r.sender, rr.RECEIPT_MAIL[0].format(brand=r.brand, number=r.number), body, when, f"The {r.brand} team"
            )

    def mail(self, sender: str, subject: str, text: str, when: datetime, signed: str) -> str:
        message = {
            "message_id": message_id(self.rng, sender.rsplit("@", 1)[1].rstrip(">"), when),
            "from": sender,
            "to": [self.me.mailbox],
            "subject": subject,
            "date": when.isoformat(),
            "flags": ["\\Seen"] if (self.now - when).days > 1 else [],
            "body": f"Hi {self.me.first},\n\n{text}\n\n{signed}",
        }
        folder = "INBOX"
        self.draft.add_message(folder, message)
        return mail_path(folder, message)

    def noise(self) -> list[Receipt]:
        """Receipts that are not this statement's: one paid with the other card this month, one of last
        month (on last month's statement), both from shops on this one."""
        rng, out = self.rng, []
        shop = rng.choice([line.receipt for line in self.lines if line.receipt is not None and not line.twist])
        assert shop is not None
        low, high = next(s[4] for s in rr.SHOPS if s[0] == shop.brand)
        for card, posted in (
            (self.other_card, self.month + timedelta(days=rng.randint(3, 25))),
            (self.card, self.month - timedelta(days=rng.randint(4, 12))),
        ):
            receipt = self.receipt(self.orgs[shop.brand], shop.legal, posted, self.amount(low, high), shop.items)
            receipt.card = card
            out.append(receipt)
        return out

    def refund_mail(self) -> str:
        r, line = self.refunded.receipt, next(x for x in self.lines if x.twist == "refund")
        assert r is not None
        when = at(line.day - timedelta(days=self.rng.randint(1, 2)), self.rng.randint(9, 17), 5, self.me.tz)
        subject, text = (t.format(number=r.number, total=self.money(r.total), card=r.card) for t in rr.REFUND_MAIL)
        return self.mail(r.sender, subject, text, when, f"The {r.brand} team")

    def moved(self) -> None:
        """The double-charged shop has moved billing queries to a mailbox of its own: the first mail to the
        contact address on the receipt brings an automatic reply that names it, and so does a reply to a receipt
        that came by mail (the note allows either, so whichever the user writes to answers). Drawn last, from a
        generator of its own, so that the rest of the draw stays as it was."""
        r = self.double.receipt
        assert r is not None
        rng = random.Random(f"{r.number} {r.support} moved")
        domain = r.support.rsplit("@", 1)[1]
        # a reply to the mailed receipt first: the route the reference solution takes
        self.answering = [*([r.sender.split("<")[1].rstrip(">")] if r.mail else []), r.support]
        for local, about in rng.sample(BILLING, len(BILLING)):
            try:
                self.billing = self.ctx.people.claim(f"{local}@{domain}")
            except ValueError:  # someone of the background has it: another name
                continue
            self.about = about
            break
        assert self.billing, f"no billing address left at {domain}"
        for address in self.answering:
            self.draft.autoreplies.append(moved_reply(rng, r.brand, address, self.billing, self.about, self.now))

    def other_lines(self, month: date) -> list[Line]:
        """Direct debits, a transfer and the salary: lines that need no receipt."""
        rng, out = self.rng, []
        end = (month + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        for description, kind, (low, high), paid_in in rr.OTHER_LINES[self.region.key]:
            on = month + timedelta(days=rng.randint(0, (end - month).days))
            out.append(Line(on, description, money.amount(rng, low, high, self.region.currency), kind, paid_in))
        assert self.me.org is not None
        text, kind = rr.SALARY[self.region.key]
        pay = money.amount(rng, 2400, 4200, self.region.currency)
        out.append(
            Line(
                end - timedelta(days=rng.randint(2, 4)), text.format(employer=self.me.org.name.upper()), pay, kind, True
            )
        )
        return out

    def statement(self, lines: list[Line], month: date, form: str) -> tuple[str, bytes]:
        """The bank's export of a month: CSV or XLSX, with the columns its region's banks use."""
        bank, _ = rr.BANKS[self.region.key]
        balance = money.amount(self.rng, 1500, 4000, self.region.currency)
        rows: list[list[Any]] = []
        for line in sorted(lines, key=lambda x: (x.day, x.paid_in, x.description)):
            balance += line.amount if line.paid_in else -line.amount
            when = self.statement_day(line.day)
            if self.region.key == "uk":
                out, into = (None, line.amount) if line.paid_in else (line.amount, None)
                rows.append([when, line.kind, line.description, out, into, balance])
            else:
                rows.append([when, line.description, line.kind, line.amount if line.paid_in else -line.amount, balance])
        header = list(rr.STATEMENT_COLUMNS[self.region.key])
        name = f"Downloads/{bank.replace(' ', '-')}-statement-{month:%Y-%m}.{form}"
        if form == "csv":
            text = [[f"{c:.2f}" if isinstance(c, Decimal) else c or "" for c in row] for row in rows]
            return name, csv_text(header, text).encode()
        cells = [[float(c) if isinstance(c, Decimal) else c for c in row] for row in rows]
        written = at((month + timedelta(days=32)).replace(day=2), 6, 30, self.me.tz)
        sheet = f"{MONTHS[month.month - 1]} {month.year}"
        return name, xlsx_file([(sheet, [header, *cells])], title=f"{bank} statement", author=bank, written=written)

    def last_month(self, receipt: Receipt) -> list[Line]:
        """Last month's lines: its bills and a few card payments, one of them `receipt`'s."""
        rng = self.rng
        month = (self.month - timedelta(days=1)).replace(day=1)
        lines = self.other_lines(month)
        lines.append(Line(receipt.bought, self.descriptor_of(receipt), receipt.total, rr.CARD_TYPE[self.region.key]))
        for brand, legal_root, _items, style, (low, high) in rng.sample(rr.SHOPS, 4):
            on = month + timedelta(days=rng.randint(0, 26))
            lines.append(Line(on, self.descriptor(brand, legal_root, style), self.amount(low, high), lines[0].kind))
        return lines

    def descriptor_of(self, receipt: Receipt) -> str:
        brand, legal_root, _items, style, _range = next(s for s in rr.SHOPS if s[0] == receipt.brand)
        return self.descriptor(brand, legal_root, style)

    def reminders(self) -> dict[str, Any]:
        """The monthly reminder to reconcile, open for this month and ticked off for the last; this month's."""
        last = (self.month - timedelta(days=1)).replace(day=1)
        out = []
        for month, done in ((last, True), (self.month, False)):
            due = at((month + timedelta(days=32)).replace(day=1), 9, 0, self.me.tz)
            title = rr.REMINDER.format(month=f"{MONTHS[month.month - 1]} {month.year}")
            todo: dict[str, Any] = {"uid": self.draft.uid("r", title), "title": title, "due": due.isoformat()}
            if done:
                todo |= {"completed": True, "completed_at": (due + timedelta(days=1, hours=2)).isoformat()}
            out.append(self.draft.add_reminder("Reminders", todo))
        self.todo_title = out[1]["title"]
        return out[1]

    def note(self) -> dict[str, Any]:
        note = {
            "uid": self.draft.uid("n", "reconciling"),
            "title": rr.NOTE_TITLE,
            "body": rr.NOTE.format(
                card=self.card,
                card_type=f"type {rr.CARD_TYPE[self.region.key]}",
                currency={"GBP": "pounds", "USD": "dollars"}[self.region.currency],
                n=self.follow,
            ),
        }
        self.draft.add_note("Notes", note)
        return note


@register
class ReceiptsReconciliation(Family):
    name = "receipts-reconciliation"
    group = "documents"
    apps = ("files", "mail", "reminders", "notes", "calendar")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "hidden_dependency",
        "noisy_data",
        "temporal_reasoning",
        "tool_state_update",
    )
    core = ("temporal_reasoning", "tool_state_update")
    summary = "a month's card statement reconciled against mailed and scanned receipts, a double charge chased"

    def build(self, ctx: Context) -> TaskDraft:
        s = _Story(ctx)
        draft, rng = s.draft, s.rng
        s.shopping(ctx.on("cross_source_conflict"), ctx.on("noisy_data"))
        s.straddle()
        s.reissue_and_forward()
        s.joint()  # after the twists that move a line's day: no other line shares a day and amount with these
        extra = s.noise() if ctx.on("noisy_data") else []
        s.deliver()
        s.refund_mail()
        form = rng.choice(("csv", "xlsx"))
        lines = [*s.lines, *s.other_lines(s.month)]
        statement, data = s.statement(lines, s.month, form)
        draft.add_file(statement, data)
        bank, domain = rr.BANKS[s.region.key]
        month_name = f"{MONTHS[s.month.month - 1]} {s.month.year}"
        ready = at(s.end + timedelta(days=1), 6, rng.randint(0, 50), s.me.tz)
        subject, text = (t.format(month=month_name) for t in rr.STATEMENT_MAIL)
        s.mail(f"{bank} <statements@{domain}>", subject, text, ready, bank)
        note = s.note()
        todo = s.reminders()
        events = [
            item_path("calendar", HOLIDAYS, draft.add_event(HOLIDAYS, e)) for e in holidays.as_events(s.region.key)
        ]
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft, fact="how the user reconciles", item=item_path("notes", "Notes", note), instead_of=statement
            )
            hd.move_fact(draft, fact="the public holidays", item=events[0].rsplit("/", 1)[0], instead_of="the note")
        if ctx.on("cross_source_conflict"):
            r = s.abroad.receipt
            assert r is not None
            csc.supersede(
                draft,
                loser=file_path(r.path),
                winner=file_path(statement),
                rule=f"the receipt is in {r.currency}; the note records the statement's amount in the home currency",
                stated=True,
            )
        if ctx.on("noisy_data"):
            previous, old = s.statement(s.last_month(extra[1]), (s.month - timedelta(days=1)).replace(day=1), form)
            draft.add_file(previous, old)
            nd.twin(draft, file_path(statement), {}, file_path(previous), {})
            nd.irrelevant(draft, [r.mail or file_path(r.path) for r in extra])
        story = [r.brand for r in s.receipts] + [r.legal for r in s.receipts] + [bank, "receipt", "refund", "statement"]
        life_shops = [name for name, _, kind in VENDORS if kind in ("shop", "ride", "food", "bank")]
        avoid = Avoid(words=[*story, *life_shops], paths=[RECEIPTS, "Finance"])
        noise = Life.of(ctx, draft, s.me, s.now, avoid=avoid, months=6).fill(SCALE)
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, noise[:: max(1, len(noise) // 10)])
        s.moved()  # last, from its own generator: the rest of the draw stays as it was
        self._rubric(ctx, s, lines, todo)
        cafe, bakery = s.joint_shops
        aside = rng.choice(rr.JOINT_ASIDES).format(cafe=cafe, bakery=bakery)
        draft.prompt = f"{rng.choice(rr.PROMPTS).format(month=MONTHS[s.month.month - 1])} {aside}"
        cards = sum(1 for line in s.lines if line.card)
        draft.hint = (
            f"{cards} card lines of the {month_name} statement ({form.upper()}) against receipts in mail and "
            "Documents/Receipts (brands vs registered names): a café and a bakery of one company whose repeated "
            "amounts only one matching fits, a double charge, a refund, a payment abroad, payments "
            f"with no receipt; the double charge mailed to the shop and a follow-up {s.follow} working days on."
        )
        draft.summary = f"{cards} card lines reconciled, a double charge chased"
        draft.goal = self._goal(s, statement)
        draft.solution = solution.solve
        draft.alternatives = {"new_message": solution.solve_new_message, "as_printed": solution.solve_as_printed}
        draft.facts = {
            "note": rr.NOTE_TITLE,
            "receipts": RECEIPTS,
            "holidays": HOLIDAYS,
            "card": s.card,
            "month": f"{s.month:%Y-%m}",
            "month_first": s.region.month_first,
            "card_type": rr.CARD_TYPE[s.region.key],
            "follow": s.follow,
        }
        return draft

    def _rubric(self, ctx: Context, s: _Story, lines: list[Line], todo: dict[str, Any]) -> None:
        draft, month_first = s.draft, s.region.month_first
        sheet = f"Finance/Reconciliation/{s.month:%Y-%m}.csv"
        numbers = "|".join(re.escape(r.number) for r in s.receipts)
        groups: dict[tuple[date, str, Decimal, bool], list[Line]] = {}
        for line in s.lines:
            groups.setdefault((line.day, line.description, line.amount, line.paid_in), []).append(line)
        rows: dict[int, str] = {}  # id of a line -> its rubric item
        for (on, description, amount, paid_in), group in sorted(groups.items()):
            receipt = group[0].receipt
            item = f"row_{re.sub(r'[^a-z0-9]+', '_', description.lower()).strip('_')[:24]}_{on:%d}"
            item += "_refund" if paid_in else ""
            item += f"_{len([i for i in rows.values() if i.startswith(item)]) + 1}" if item in rows.values() else ""
            statuses = sorted(line.status for line in group)
            rows.update({id(line): item for line in group})
            what = f"{description} {'+' if paid_in else ''}{s.money(amount)} on {s.day(on)}"
            args: dict[str, Any] = {
                "path": sheet,
                "date": full_date_regex(on, month_first),
                "amount": float(amount),
                "statuses": statuses,
                "words": rr.STATUS_WORDS,
                "label": what,
            }
            if receipt is not None:
                args["receipt"] = re.escape(receipt.number)
                # the row's amounts are the statement's (a foreign amount printed in the line's text too) or
                # the receipt's; its receipt number is this one
                printed = [float(a.replace(",", ".")) for a in re.findall(r"\d+[.,]\d\d\b", description)]
                # a reissued receipt's cancelled number may stand beside the new one as history
                codes = [receipt.number, *([receipt.replaces] if receipt.replaces else [])]
                args["stated"] = {"codes": codes, "amounts": [float(amount), float(receipt.total), *printed]}
            else:
                args["not_receipt"] = numbers
            shown = " and ".join(statuses) + (f", receipt {receipt.number}" if receipt else ", no receipt")
            draft.check(
                Check(
                    item,
                    f"The sheet has {len(group)} row{'s' if len(group) > 1 else ''} for {what}: {shown}",
                    v.reconciled,
                    args,
                    weight=2 if group[0].twist else 1,
                    stage="matching each payment to its receipt",
                )
            )
        draft.check(
            Check(
                "no_strays",
                "Every row of the sheet is a line of this month's statement, in the statement's currency",
                v.sheet_strays,
                {
                    "path": sheet,
                    "lines": [{"date": full_date_regex(x.day, month_first), "amount": float(x.amount)} for x in lines],
                },
                stage="matching each payment to its receipt",
            )
        )
        double = s.double
        r = double.receipt
        assert r is not None
        prefix, digits = r.number.split("-")
        first = f"{r.support} or in reply to the receipt" if r.mail else r.support
        draft.check(
            Check(
                "double_charge_mail",
                f"{r.brand} got one message about the double charge at {s.billing}, to nobody else, giving the "
                f"receipt number {r.number}, the amount {s.money(double.amount)} and the date: the automatic reply "
                f"to the first mail ({first}) says {s.about} go there now (that first mail, or a copy to it, is "
                "fine; a mail to the first address alone is not)",
                v.sent_alone,
                {
                    "to": s.billing,
                    # whichever address the user wrote to first answers; the receipts mailbox takes only replies
                    "tried": s.answering,
                    **({"replies": {s.answering[0]: r.mail.rsplit("/", 1)[1]}} if r.mail else {}),
                    "says": {
                        "the receipt number": re.escape(r.number),
                        "the amount": amount_regex(float(double.amount)),
                        # the note asks for the day it was charged: the statement's, not the receipt's
                        "the date": "|".join(date_regex(x.day) for x in lines if x.receipt is r and not x.paid_in),
                        "that it was charged twice": rr.DOUBLE_WORDS,
                    },
                    "label": "the double charge",
                    "not_says": {"another receipt number": rf"\b{prefix}-(?!{digits}\b)\d+"},
                    # any date it gives is the purchase's or one of the charges'; any number is the receipt's
                    "stated": {
                        "dates": sorted({d.isoformat() for d in [r.bought, *(x.day for x in lines if x.receipt is r)]}),
                        "codes": [r.number],
                    },
                },
                weight=2,
                stage="chasing the double charge",
            )
        )
        title = "|".join(rf"\b{re.escape(w.split()[0])}" for w in (r.brand, r.legal) if w.split()[0] != "The")
        draft.check(
            Check(
                "follow_up",
                f"One open reminder in Reminders to follow up with {r.brand} on {s.day(s.due)}, {s.follow} working "
                "days on",
                v.one_reminder,
                {"pattern": title, "lst": "Reminders", "due": s.due.isoformat(), "label": r.brand, "at": "09:00"},
                weight=2,
                stage="chasing the double charge",
            )
        )
        skipped = [h.name for on, h in sorted(s.calendar.holidays.items()) if s.now.date() < on <= s.due]
        tr.record(
            draft,
            kind="business_days",
            facts=[f"{s.follow} working days after {s.day(s.now.date())} is {s.day(s.due)}, past {', '.join(skipped)}"],
            items=["follow_up"],
            region=s.region.key,
        )
        draft.check(
            Check(
                "reminder_ticked",
                f"The reminder {todo['title']!r} is ticked off",
                v.reminder_done,
                {"uid": todo["uid"], "lst": "Reminders", "keep_open": []},
                stage="closing the month",
            )
        )
        decoy, decoy_line = s.joint_decoy
        reissued, forwarded = s.reissued.receipt, s.forwarded.receipt
        assert reissued is not None and forwarded is not None
        # for the lead's classification of a blind play: each planted lever and the item that grades it
        draft.record(
            tsu.NAME,
            {
                "levers": [
                    f"C: the follow-up {s.follow} working days on past the calendar's holidays (follow_up)",
                    f"E: {s.refunded.description} refunded within the month (its row and the refund's row)",
                    f"F: {reissued.brand}'s receipt {reissued.replaces} reissued as {reissued.number} "
                    f"({rows[id(s.reissued)]})",
                    f"G: {forwarded.brand}'s receipt forwarded by {s.partner.name} as 'Fwd: {forwarded.brand} "
                    f"order' ({rows[id(s.forwarded)]})",
                    "B: the note's monthly reminder ticked off (reminder_ticked)",
                    f"J joint: {self._greedy_story(s)} ({', '.join(rows[id(x)] for x in s.joint_lines)})",
                    f"K: {decoy.brand}'s receipt {decoy.number} of {s.day(decoy.bought)}, {s.money(decoy.total)} "
                    f"paid with the {decoy.card}, fits the {decoy_line.description} line of {s.day(decoy_line.day)} "
                    f"but for the card ({rows[id(decoy_line)]})",
                    f"R reaction: the first mail to {' or '.join(s.answering)} brings {r.brand}'s automatic reply: "
                    f"{s.about} go to {s.billing} now (double_charge_mail)",
                ],
                "joint": {
                    "choices": len(s.joint_lines),
                    "enumerated": s.joint_solved["enumerated"],
                    "valid": len(s.joint_solved["valid"]),
                    # what each row would say after the greedy walk: its receipt, or none past the dead end
                    "greedy": {rows[key]: number for key, number in self._greedy_rows(s).items()},
                },
            },
        )
        double_row = rows[id(double)]
        if ctx.on("cross_tool_consistency"):
            ctc.agree(
                draft,
                apps=["files", "mail", "reminders"],
                rule="the double charge is on the sheet, in the mail to the shop and in the follow-up reminder",
                items=[double_row, "double_charge_mail", "follow_up"],
            )
        tsu.require(
            draft,
            [
                "write the reconciliation sheet",
                "mail the shop about the double charge",
                "set the follow-up",
                "tick off the month's reminder",
            ],
            f"+files/{sheet}",
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
            "+reminders/Reminders/*",
            f"~reminders/Reminders/{todo['uid']}",
            *(f"+mail/folders/INBOX/{reply['message_id']}" for reply in draft.autoreplies),
        )
        draft.permit("~mail/folders/*/*#flags")

    @staticmethod
    def _joint_order(s: _Story) -> list[Line]:
        """The café's and the bakery's lines in the statement's order (the order joint_solve saw them)."""
        return sorted(s.joint_lines, key=lambda x: (x.day, x.description, x.amount))

    @classmethod
    def _greedy_rows(cls, s: _Story) -> dict[int, str]:
        """Each joint line's id -> the receipt number the greedy walk gives it ("none" where it gives none)."""
        order = cls._joint_order(s)
        out = {id(x): "none" for x in order}
        for line, taken in zip(s.joint_lines, s.joint_solved["greedy"], strict=True):
            if taken is not None:
                assert line.receipt is not None
                out[id(order[taken])] = line.receipt.number
        return out

    @classmethod
    def _greedy_story(cls, s: _Story) -> str:
        order, greedy, stuck = cls._joint_order(s), s.joint_solved["greedy"], s.joint_solved["stuck"]
        owner = {id(x): x for x in s.joint_lines}
        for line, taken in zip(s.joint_lines, greedy, strict=True):
            if taken is not None and order[taken] is not line:
                r, stolen = line.receipt, order[taken]
                assert r is not None and stolen.receipt is not None and owner[id(stolen)] is stolen
                lost = s.joint_lines[stuck].receipt
                assert lost is not None
                return (
                    f"matching the receipts in date order to the first line that fits gives {r.brand}'s "
                    f"{s.money(r.total)} of {s.day(r.bought)} the {stolen.description} line of {s.day(stolen.day)} "
                    f"({stolen.receipt.brand}'s receipt {stolen.receipt.number}), which leaves {lost.brand}'s "
                    f"{s.money(lost.total)} of {s.day(lost.bought)} no line"
                )
        raise AssertionError("the greedy walk took no other receipt's line")

    @staticmethod
    def _goal(s: _Story, statement: str) -> str:
        lines = ["# Goal", "", f"`{statement}` has these card lines; the sheet gives each its row:", ""]
        for line in sorted(s.lines, key=lambda x: (x.day, x.paid_in)):
            r = line.receipt
            where = (r.mail or r.path) if r else "no receipt anywhere"
            lines.append(
                f"- {s.day(line.day)} {line.description} {'+' if line.paid_in else '-'}{s.money(line.amount)}: "
                f"{line.status}"
                + (f", {r.brand} receipt {r.number} ({where})" if r else "")
                + (
                    f", reissued: it replaces {r.replaces}, which the row must not give alone"
                    if r and r.replaces
                    else ""
                )
                + (", forwarded by the user's partner (no 'receipt' in the subject)" if r and r.forwarded else "")
            )
        r = s.double.receipt
        assert r is not None
        first = f"{r.support}, or a reply to the receipt" if r.mail else r.support
        lines += [
            "",
            f"The double charge goes to {r.brand} ({first}) with {r.number}, the amount and the date; that first mail "
            f"brings an automatic reply: {s.about} go to {s.billing} now, so the mail has to reach {s.billing} "
            "(resent, forwarded, or copied). "
            f"A reminder in Reminders for {s.day(s.due)} ({s.follow} working days after today, holidays skipped).",
            "",
            "Receipts paid with another card or of last month, and last month's statement, are not this month's.",
            "",
            f"The {' and '.join(sorted({x.description for x in s.joint_lines}))} lines: one company's café and bakery, "
            "the same prices again and again; the café's lines carry its name, the bakery's the registered name "
            "(the café's too). "
            "Only one matching fits every purchase date (posted that day or up to three days later) and amount; "
            "taking the receipts in date order, each to the first line that fits, runs into a dead end.",
            "",
            f"The note's last rule: the reminder '{s.todo_title}' is ticked off (last month's already is).",
        ]
        return "\n".join(lines)
