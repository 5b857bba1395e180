"""data-report (documents): last month's export summarised as a Markdown report, the totals mailed on.

A small shop (ceramics, tea) or a sports club exports its orders or payments from its platform as
CSV. The user wants the month's summary in Reports/, like last month's: the total per product or
budget line, the overall total and the three customers or members who spent the most. Their
business partner (or the club chair) asked by mail for the totals.

- cross_tool_consistency (core): the report and the reply give the same per-line totals and total.
- hidden_dependency: the export names only the items; which line each counts under, and which item
  is no income at all (gift cards, away-trip deposits), is in a note.
- cross_source_conflict: a corrections file next to the export replaces the amounts of refunded or
  mischarged rows.
- entity_alignment: a regular paid once from a personal address under their short name; their mail
  says so, and the address book knows their usual address.
- noisy_data: the export repeats some rows, a stale mid-month export lies next to the full one, and
  files about other things sit nearby.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import pairwise
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import COMPANY_ROOTS, JOB_TITLES, Org, Person
from stageclaw.author.content.places import REGIONS, Region
from stageclaw.author.content.text import MONTHS, amount_regex, money
from stageclaw.author.content.timeline import at, pick_now
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import data_report as solution

# Regions whose money is written with a symbol before it and cents after a point, like the exports do.
REGION_KEYS = ("uk", "us", "au", "de", "fr", "sg")
REPORTS = "Reports"
TOP = 3
TOTAL = r"\btotal\b|overall|altogether|in all|\bsum\b"


@dataclass(frozen=True)
class Domain:
    """One kind of business and its export: vocabulary, catalogue and what its people write."""

    names: tuple[str, ...]  # the business, from a root word: "{root} Ceramics"
    platform: str
    folder: str  # where the exports are saved
    columns: tuple[str, str, str, str]  # the export's reference, person, item and line columns
    ref: str  # the shape of a reference: "#{n}"
    rows: str  # what a row is, in the export's file name
    party: str  # customer, member
    line: str  # product line, budget line
    what: str  # sales, income
    lines: dict[str, tuple[tuple[str, int, int], ...]]  # line -> (item, lowest, highest price in cents)
    excluded: tuple[str, tuple[int, ...], str]  # an item that is no income, its prices, the note's words
    staff: bool  # the user and the partner write from the business's own domain
    most: int  # the most of one item in a row
    endings: tuple[int, ...]  # the cents a price ends in
    user_title: str
    partner_title: str
    request: tuple[str, str]  # subject and text asking for the totals: {month} {line} {what}
    refunds: tuple[str, str]  # why a row is refunded in full, why in part
    alias: tuple[str, str]  # the regular's subject and text: {item}
    regular: str  # the contact's notes on the regular
    aside: tuple[str, str]  # a file about something else: path under the folder's parent, text
    prompts: tuple[str, ...]  # {month} {platform} {first}

    @property
    def note(self) -> str:
        """The title of the user's note that maps items to lines."""
        return f"{self.line.capitalize()}s"

    @property
    def headers(self) -> list[str]:
        """The report's table columns and the heading of its ranking."""
        return [self.line.capitalize(), self.what.capitalize(), f"Top {self.party}s"]


SHOP_PROMPTS = (
    "Could you do the {month} sales summary from the {platform} export? Sales per product line, the total and our "
    "top three customers by spend, as a markdown file in Reports/ like last month's. {first} is waiting for the "
    "numbers too, so send them over when it's done.",
    "Can you pull the {month} numbers together from the {platform} export? Markdown summary in Reports/, same as "
    "last time: what each product line sold, the total, and who our three best customers were. Then email {first} "
    "the figures they asked for.",
)
SHOP_REQUEST = (
    "{Month} numbers?",
    "Could you send me the {month} {what} per {line} and the total once you've done the export? I want to get them "
    "into the spreadsheet for the accountant this week.",
)
SHOP_ALIAS = (
    "Order from my other address",
    "Quick one: I ordered the {item} from my personal address (this one) rather than my usual account. Could it "
    "still count towards my loyalty stamps? Thanks!",
)
DOMAINS = (
    Domain(
        names=("{root} Ceramics", "{root} Pottery"),
        platform="Tillbox",
        folder="Shop/exports",
        columns=("order", "customer", "product", "product_line"),
        ref="#{n}",
        rows="orders",
        party="customer",
        line="product line",
        what="sales",
        lines={
            "Mugs": (("Tall mug", 2200, 2800), ("Espresso cup", 1400, 1800), ("Travel mug", 2600, 3200)),
            "Bowls": (("Ramen bowl", 3200, 3800), ("Breakfast bowl", 2400, 2800), ("Serving bowl", 5200, 6400)),
            "Plates": (("Side plate", 1800, 2200), ("Dinner plate", 2800, 3400)),
            "Vases": (("Bud vase", 1900, 2400), ("Tall vase", 4800, 6200)),
            "Workshops": (("Wheel-throwing taster", 4500, 6500), ("Glazing evening", 3500, 4500)),
        },
        excluded=(
            "Gift card",
            (2500, 5000),
            "Gift cards aren't sales until someone redeems them, so leave them out of the monthly numbers.",
        ),
        staff=True,
        most=3,
        endings=(0, 50, 95),
        user_title="Owner",
        partner_title="Co-owner",
        request=SHOP_REQUEST,
        refunds=("returned, refunded in full", "arrived chipped, partial refund"),
        alias=SHOP_ALIAS,
        regular="Regular customer, loyalty card.",
        aside=(
            "Shop/packaging.md",
            "# Packaging\n\n- Boxes: Kraftline, 40 per pack, reorder at 10 left\n- Tissue: the recycled one, not the "
            "white\n- Fragile stickers: top drawer\n",
        ),
        prompts=SHOP_PROMPTS,
    ),
    Domain(
        names=("{root} Tea Co.", "{root} Tea House"),
        platform="Shopwell",
        folder="Shop/exports",
        columns=("order", "customer", "product", "product_line"),
        ref="SW-{n}",
        rows="orders",
        party="customer",
        line="product line",
        what="sales",
        lines={
            "Black tea": (
                ("Assam breakfast", 850, 1250),
                ("Darjeeling first flush", 1800, 2600),
                ("Earl Grey", 900, 1300),
            ),
            "Green tea": (("Sencha", 1100, 1600), ("Jasmine pearls", 1900, 2700), ("Genmaicha", 950, 1350)),
            "Herbal": (("Rooibos vanilla", 800, 1100), ("Peppermint leaf", 650, 900), ("Chamomile flowers", 700, 1000)),
            "Teaware": (("Glass teapot", 2800, 3900), ("Tea strainer", 650, 1200), ("Cast-iron kettle", 5400, 7800)),
            "Tasting boxes": (("Discovery box", 2400, 3200), ("Monthly tasting box", 1900, 2500)),
        },
        excluded=(
            "Gift card",
            (2000, 4000),
            "Gift cards only count as sales once they're redeemed, so leave them out of the monthly numbers.",
        ),
        staff=True,
        most=3,
        endings=(0, 50, 95),
        user_title="Founder",
        partner_title="Co-founder",
        request=SHOP_REQUEST,
        refunds=("parcel lost, refunded in full", "arrived damaged, partial refund"),
        alias=SHOP_ALIAS,
        regular="Regular customer since the market stall days.",
        aside=(
            "Shop/suppliers.md",
            "# Suppliers\n\n- Loose leaf: order on the 1st, arrives in about ten days\n- Tins: minimum order 200\n"
            "- Labels: the print shop on the high street\n",
        ),
        prompts=SHOP_PROMPTS,
    ),
    Domain(
        names=("{root} Park Tennis Club", "{root} Lawn Tennis Club"),
        platform="ClubPay",
        folder="Club/ClubPay",
        columns=("ref", "member", "item", "budget_line"),
        ref="CP-{n}",
        rows="payments",
        party="member",
        line="budget line",
        what="income",
        lines={
            "Membership": (("Adult membership", 9000, 12000), ("Junior membership", 4000, 5500)),
            "Court hire": (("Evening court", 1200, 1600), ("Weekend court", 1500, 2000), ("Floodlights", 400, 600)),
            "Coaching": (("Coaching block", 6000, 8500), ("Private lesson", 3000, 4200)),
            "Events": (("Club tournament entry", 1500, 2500), ("Summer social ticket", 1800, 2800)),
            "Kit": (("Club polo shirt", 2400, 3200), ("Tube of balls", 600, 900)),
        },
        excluded=(
            "Away trip deposit",
            (3000, 4500),
            "Away trip deposits are collected for the coach company and passed on, so they're not club income: leave "
            "them out of the monthly numbers.",
        ),
        staff=False,
        most=1,
        endings=(0, 50),
        user_title="Treasurer",
        partner_title="Club chair",
        request=(
            "{Month} income for the committee",
            "Could you send me {month}'s {what} per {line} and the total before the committee meeting? Just the "
            "figures is fine.",
        ),
        refunds=("cancelled, refunded in full", "overcharged, difference refunded"),
        alias=(
            "Paid from my personal account",
            "Just so the records make sense: I paid for the {item} from my personal account, so it'll show up under "
            "this address rather than my usual one.",
        ),
        regular="Member since the new clubhouse opened.",
        aside=(
            "Club/fixtures.md",
            "# League fixtures\n\n- Home matches on Saturdays, courts 1-3 blocked from 1pm\n- Teas: rota on the "
            "noticeboard\n",
        ),
        prompts=(
            "Can you do the {month} income summary from the {platform} export? Income per budget line, the total and "
            "the three members who paid the most, as a markdown file in Reports/ like last month's. Then send {first} "
            "the figures for the committee.",
            "Could you write up {month}'s {platform} payments? A markdown summary in Reports/ like last time: each "
            "budget line, the total, and our three biggest-paying members. {first} asked for the totals, please "
            "email them over.",
        ),
    ),
)


@dataclass
class Row:
    ref: str
    day: date
    who: Person  # the person who paid
    name: str  # name and address as the export shows them
    email: str
    item: str
    line: str | None  # None: not income at all
    cents: int


@dataclass
class Ledger:
    """The month's rows and what the report must say about them."""

    rows: list[Row]
    fixes: dict[str, tuple[int, str]] = field(default_factory=dict)  # ref -> corrected cents, reason
    repeated: list[Row] = field(default_factory=list)  # rows the export shows twice
    merge: dict[str, str] = field(default_factory=dict)  # a personal address -> the usual one

    def amount(self, row: Row) -> int:
        return self.fixes[row.ref][0] if row.ref in self.fixes else row.cents

    def per_line(self) -> dict[str, int]:
        out: dict[str, int] = defaultdict(int)
        for row in self.rows:
            if row.line is not None:
                out[row.line] += self.amount(row)
        return dict(out)

    def per_person(self, merged: bool = True, everything: bool = False) -> list[tuple[int, str]]:
        """(cents, address) of everyone who spent, most first; `merged` counts a person's two addresses as one,
        `everything` counts what is no income too."""
        out: dict[str, int] = defaultdict(int)
        for row in self.rows:
            if row.line is not None or everything:
                out[self.merge.get(row.email, row.email) if merged else row.email] += self.amount(row)
        return sorted(((c, e) for e, c in out.items()), reverse=True)


def _price(rng: random.Random, low: int, high: int, endings: tuple[int, ...]) -> int:
    return rng.randint(low // 100, high // 100 - 1) * 100 + rng.choice(endings)


def _part(cents: int, percent: int) -> int:
    """`percent` of an amount, down to five cents."""
    return cents * percent // 500 * 5


def _shown(cents: int) -> str:
    return f"{cents / 100:.2f}"


def _month(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.year}"


@dataclass
class _Plan:
    """The facts of one task, decided before any text is written."""

    domain: Domain
    region: Region
    business: Org
    me: Person
    partner: Person
    now: datetime
    first: date
    last: date
    catalogue: dict[str, list[tuple[str, int]]]
    regular: Person
    alias: Person | None
    ledger: Ledger

    @property
    def month(self) -> str:
        return MONTHS[self.first.month - 1]

    @property
    def stem(self) -> str:
        d = self.domain
        return f"{d.folder}/{d.platform.lower()}-{d.rows}-{self.first.isoformat()}_"

    @property
    def export(self) -> str:
        return f"{self.stem}{self.last.isoformat()}.csv"

    @property
    def corrections(self) -> str:
        return f"{self.stem}{self.last.isoformat()}-corrections.csv"

    @property
    def report(self) -> str:
        return f"{REPORTS}/{self.first:%Y-%m} {self.domain.what} summary.md"

    def title(self, first: date) -> str:
        return f"{self.business.name}: {_month(first)} {self.domain.what}"

    def money(self, cents: int) -> str:
        return money(cents / 100, self.region)

    def payers(self) -> dict[str, Person]:
        """Everyone who paid, by their usual address."""
        return {r.email: r.who for r in self.ledger.rows if r.email not in self.ledger.merge}


@register
class DataReport(Family):
    name = "data-report"
    group = "documents"
    apps = ("files", "mail", "notes", "contacts")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    core = ("cross_tool_consistency", "tool_state_update")
    summary = "a month's CSV export summarised per line with a top three as a Markdown report; totals mailed on"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        domain = rng.choice(DOMAINS)
        region = REGIONS[rng.choice(REGION_KEYS)]
        name = rng.choice(domain.names).format(root=rng.choice(COMPANY_ROOTS))
        business = people.org(region, name, name)
        org = business if domain.staff else None
        me = people.person(region, org=org, title=domain.user_title)
        partner = people.person(region, org=org, title=domain.partner_title)
        now = pick_now(rng, me.tz)
        last = now.date().replace(day=1) - timedelta(days=1)
        first = last.replace(day=1)
        draft = TaskDraft(
            id="",
            title=f"Summarise last month's {domain.platform} export as a Markdown report and mail the totals",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=60,
        )
        bg = Background(draft, rng, people, me, now, "en")
        noise = bg.mail(2)
        bg.notes(1, "Notes")
        bg.contacts([partner, *bg.friends[:2]])

        catalogue = {
            line: [(item, _price(rng, low, high, domain.endings)) for item, low, high in domain.lines[line]]
            for line in rng.sample(sorted(domain.lines), rng.randint(3, 4))
        }
        customers = self._customers(ctx, region, {p.family for p in (me, partner, *bg.friends)})
        alias = ea.alias(draft, people, customers[0], where=[], verified_by=ea.UNVERIFIED) if ctx.on(ea.NAME) else None
        ledger = self._ledger(ctx, domain, catalogue, customers, alias, first, last)
        p = _Plan(domain, region, business, me, partner, now, first, last, catalogue, customers[0], alias, ledger)

        self._files(ctx, draft, p, noise)
        request = self._mail(ctx, draft, p)
        self._rubric(ctx, draft, p, request)
        draft.prompt = rng.choice(domain.prompts).format(month=p.month, platform=domain.platform, first=partner.first)
        total = sum(ledger.per_line().values())
        draft.summary = f"{domain.what} per {domain.line}, total {_shown(total)} {region.currency}, top three"
        draft.hint = (
            f"A {domain.platform} CSV export of last month's {domain.rows} is summarised as a Markdown report (per "
            f"{domain.line}, the total, the top three {domain.party}s) and the totals go by mail to the "
            f"{domain.partner_title.lower()}, who asked for them"
            + ("; a note maps items to lines and leaves one out" if ctx.on(hd.NAME) else "")
            + ("; a corrections file replaces some amounts" if ctx.on(csc.NAME) else "")
            + ("; a regular paid once from a personal address" if alias else "")
            + ("; the export repeats rows and a stale partial export sits next to it" if ctx.on(nd.NAME) else "")
            + "."
        )
        draft.goal = self._goal(ctx, p)
        draft.solution = solution.solve
        ref, party, item, line = domain.columns
        draft.facts = {
            "partner": partner.family,
            "subject": request["subject"],
            "export": p.export,
            "folder": domain.folder,
            "columns": {"ref": ref, "party": party, "item": item, "line": line},
            "note": domain.note if ctx.on(hd.NAME) else None,
            "leave_out": domain.excluded[2] if ctx.on(hd.NAME) else None,
            "regular": p.regular.family if alias else None,
            "alias_subject": domain.alias[0],
            "report": p.report,
            "title": p.title(first),
            "headers": domain.headers,
            "symbol": region.symbol,
            "top": TOP,
            "reply": f"Hi {partner.first},\n\nhere are the {p.month} figures:\n\n{{figures}}\n\nThe full summary is "
            f"in {{report}}.\n\nBest,\n{me.first}",
            "currency": region.currency,
            "me": me.first,
        }
        draft.alternatives = {"list_new_message": solution.solve_list_new_message, "read_all": solution.solve_read_all}
        return draft

    @staticmethod
    def _customers(ctx: Context, region: Region, taken: set[str]) -> list[Person]:
        """Seven to nine people whose family names no one else in the world has, so that a family name
        picks out one person; the first is a regular with a short name who orders from work."""
        out: list[Person] = []
        want = ctx.rng.randint(7, 9)
        while len(out) < want:
            person = ctx.people.person(region, short_name=not out)
            if person.family in taken:
                continue
            taken.add(person.family)
            if not out:
                person = ctx.people.staff(person, ctx.people.company(region), ctx.rng.choice(JOB_TITLES))
            out.append(person)
        return out

    def _ledger(
        self,
        ctx: Context,
        domain: Domain,
        catalogue: dict[str, list[tuple[str, int]]],
        customers: list[Person],
        alias: Person | None,
        first: date,
        last: date,
    ) -> Ledger:
        """Rows drawn until every figure is unambiguous and every trap changes the answer."""
        rng = ctx.rng
        for _ in range(500):
            weights = [rng.randint(1, 6) for _ in customers]
            picks: list[tuple[Person, str | None, str, int]] = []
            for _ in range(rng.randint(14, 20)):
                who = rng.choices(customers, weights)[0]
                line = rng.choice(sorted(catalogue))
                item, price = rng.choice(catalogue[line])
                picks.append((who, line, item, price * rng.randint(1, domain.most)))
            if ctx.on(hd.NAME):
                item, prices, _ = domain.excluded
                picks += [(rng.choice(customers), None, item, rng.choice(prices)) for _ in range(2)]
            rng.shuffle(picks)
            days = sorted(first + timedelta(days=rng.randint(0, (last - first).days)) for _ in picks)
            number = rng.randint(1040, 8800)
            rows = []
            for day, (who, line, item, cents) in zip(days, picks, strict=True):
                number += rng.randint(1, 4)
                rows.append(Row(domain.ref.format(n=number), day, who, who.name, who.email, item, line, cents))
            ledger = Ledger(rows)
            if alias is not None:
                own = [r for r in rows if r.who is customers[0] and r.line is not None]
                if len(own) < 2:
                    continue
                for row in rng.sample(own, rng.randint(1, len(own) - 1)):
                    row.name, row.email = alias.display, alias.email
                ledger.merge = {alias.email: customers[0].email}
            income = [r for r in rows if r.line is not None]
            if ctx.on(csc.NAME):
                full, part = rng.sample(income, 2)
                cut = _part(part.cents, rng.choice((50, 60, 75)))
                ledger.fixes = {full.ref: (0, domain.refunds[0]), part.ref: (cut, domain.refunds[1])}
            if ctx.on(nd.NAME):
                ledger.repeated = rng.sample(income, rng.randint(1, 2))
            if self._clear(ledger, catalogue, alias):
                return ledger
        raise AssertionError("no unambiguous ledger in 500 draws")

    @staticmethod
    def _clear(ledger: Ledger, catalogue: dict[str, list[tuple[str, int]]], alias: Person | None) -> bool:
        """Whether the figures are positive and distinct, the ranking has no ties down to fourth place and is
        the same whether or not what is no income counts as spending, and (with an alias) only merging the
        regular's two addresses puts them in the top three."""
        lines = ledger.per_line()
        values = [lines.get(line, 0) for line in catalogue]
        if min(values) <= 0 or len(set(values)) != len(values) or sum(values) in values:
            return False
        ranking = [c for c, _ in ledger.per_person()]
        if len(ranking) <= TOP or any(a <= b for a, b in pairwise(ranking[: TOP + 1])):
            return False
        if ledger.per_person(everything=True)[:TOP] != ledger.per_person()[:TOP]:
            return False
        if alias is None:
            return True
        usual = ledger.merge[alias.email]
        split = [e for _, e in ledger.per_person(merged=False)[:TOP]]
        return usual in [e for _, e in ledger.per_person()[:TOP]] and usual not in split and alias.email not in split

    def _files(self, ctx: Context, draft: TaskDraft, p: _Plan, noise: list[str]) -> None:
        """The export (and its stale partial twin), the corrections, the line note, last month's report."""
        rng, domain, ledger = ctx.rng, p.domain, p.ledger
        ref, party, item, line = domain.columns
        mapped = ctx.on(hd.NAME)  # the lines are in the note, not in the export
        header = [ref, "date", party, "email", item, *([] if mapped else [line]), "amount"]

        def table(rows: list[Row]) -> str:
            return csv_text(
                header,
                [
                    [r.ref, r.day.isoformat(), r.name, r.email, r.item, *([] if mapped else [r.line]), _shown(r.cents)]
                    for r in rows
                ],
            )

        shown = list(ledger.rows)
        for row in ledger.repeated:  # the re-export repeats the row a little further down
            after = shown.index(row) + 1
            shown.insert(rng.randint(after, min(after + 3, len(shown))), row)
        draft.add_file(p.export, table(shown))
        draft.add_file(*domain.aside)

        if ctx.on(nd.NAME):
            cutoff = p.first + timedelta(days=rng.randint(12, 16))
            stale = f"{p.stem}{cutoff.isoformat()}.csv"
            draft.add_file(stale, table([r for r in ledger.rows if r.day <= cutoff]))
            nd.twin(draft, file_path(p.export), {}, file_path(stale), {})
            nd.irrelevant(draft, [file_path(domain.aside[0]), *noise])
            draft.record(nd.NAME, {"repeated_rows": [f"{file_path(p.export)}: {r.ref}" for r in ledger.repeated]})

        if ctx.on(csc.NAME):
            fixes = sorted([r, _shown(cents), why] for r, (cents, why) in ledger.fixes.items())
            draft.add_file(p.corrections, csv_text([ref, "corrected_amount", "reason"], fixes))
            csc.supersede(
                draft,
                loser=file_path(p.export),
                winner=file_path(p.corrections),
                rule="a corrected amount replaces the export's amount for that reference",
                stated=True,
            )

        if mapped:
            mapping = "\n".join(f"- {name}: {', '.join(i for i, _ in items)}" for name, items in p.catalogue.items())
            body = f"Which {domain.line} each {item} counts under:\n\n{mapping}\n\n{domain.excluded[2]}\n"
            note = {"uid": draft.uid("n", domain.note), "title": domain.note, "body": body, "tags": ["admin"]}
            draft.add_note("Notes", note)
            hd.move_fact(
                draft,
                fact=f"which {domain.line} each {item} counts under, and that a {domain.excluded[0].lower()} is no "
                "income",
                item=item_path("notes", "Notes", note),
                instead_of=file_path(p.export),
            )

        # Last month's report: the layout to follow, with figures and people like this month's.
        before = p.first - timedelta(days=1)
        people = sorted({r.who.name for r in ledger.rows})
        spent = [_part(c, rng.randint(70, 130)) for c, _ in ledger.per_person()[:TOP]]
        best = sorted(zip(spent, rng.sample(people, TOP), strict=True), reverse=True)
        current = ledger.per_line()
        lines = {name: _part(current[name], rng.randint(70, 130)) for name in p.catalogue}
        draft.add_file(
            f"{REPORTS}/{before:%Y-%m} {domain.what} summary.md",
            solution.report_text(
                p.title(before.replace(day=1)),
                domain.headers,
                [(name, p.money(c)) for name, c in lines.items()],
                p.money(sum(lines.values())),
                [(name, p.money(c)) for c, name in best],
            ),
        )

    def _mail(self, ctx: Context, draft: TaskDraft, p: _Plan) -> dict[str, Any]:
        """The partner's request for the totals, and the regular's note about their other address."""
        rng, domain, me = ctx.rng, p.domain, p.me
        subject, text = domain.request
        text = text.format(month=p.month, line=domain.line, what=domain.what)
        request = mails.mail(
            rng,
            p.partner,
            [me],
            subject.format(Month=p.month),
            mails.letter(rng, p.partner, me, [text], register=mails.CASUAL),
            at(p.now.date() - timedelta(days=rng.randint(1, 3)), rng.randint(8, 20), rng.randint(0, 59), me.tz),
            flags=["\\Seen"] if rng.random() < 0.5 else [],
        )
        draft.add_message("INBOX", request)
        if p.alias is None:
            return request
        ordered = next(r for r in p.ledger.rows if r.email == p.alias.email)
        item = ordered.item
        day = min(ordered.day + timedelta(days=rng.randint(0, 2)), p.now.date() - timedelta(days=1))
        sent = at(day, rng.randint(8, 21), rng.randint(0, 59), me.tz)
        text = domain.alias[1].format(item=item.lower())
        message = mails.mail(
            rng,
            p.alias,
            [me],
            domain.alias[0],
            mails.letter(rng, p.alias, me, [text], register=mails.CASUAL),
            sent,
            flags=["\\Seen"],
        )
        draft.add_message("INBOX", message)
        contact = {
            "uid": draft.uid("c", p.regular.family),
            "name": p.regular.name,
            "emails": [p.regular.email],
            "phones": [p.regular.phone],
            "organization": p.regular.org.name if p.regular.org else "",
            "notes": domain.regular,
        }
        draft.add_contact(contact)
        draft.record(ea.NAME, {"items": [contact_path(contact), mail_path("INBOX", message), file_path(p.export)]})
        return request

    def _rubric(self, ctx: Context, draft: TaskDraft, p: _Plan, request: dict[str, Any]) -> None:
        domain, ledger, partner = p.domain, p.ledger, p.partner
        lines = ledger.per_line()
        total = sum(lines.values())
        top = ledger.per_person()[:TOP]
        payers = p.payers()
        per_line = {
            f"{name} {p.money(lines[name])}": [rf"\b{re.escape(name)}\b", amount_regex(lines[name] / 100)]
            for name in p.catalogue
        }
        listed = "; ".join(per_line)
        draft.check(
            Check(
                "line_totals",
                f"One new Markdown report in {REPORTS}/ gives the {domain.what} of each {domain.line}: {listed}; "
                f"any year it names is {p.first.year}",
                v.report_figures,
                {"folder": REPORTS, "figures": per_line, "stated": {"years": [p.first.year]}},
                weight=3,
                stage="adding up per line",
            )
        )
        draft.check(
            Check(
                "grand_total",
                f"The report gives the total {domain.what}, {p.money(total)}",
                v.report_figures,
                {"folder": REPORTS, "figures": {f"the total {p.money(total)}": [TOTAL, amount_regex(total / 100)]}},
                weight=2,
                stage="adding up",
            )
        )
        ranked = {
            f"{payers[e].name} {p.money(c)}": [rf"\b{re.escape(payers[e].family)}\b", amount_regex(c / 100)]
            for c, e in top
        }
        merged = f" ({p.alias.display}'s payments from {p.alias.email} counted as theirs)" if p.alias else ""
        draft.check(
            Check(
                "top_three",
                f"The report ranks the three {domain.party}s who spent the most{merged}: "
                + ", then ".join(f"{payers[e].name} ({p.money(c)})" for c, e in top),
                v.report_figures,
                {"folder": REPORTS, "figures": ranked, "ranked": True},
                weight=2,
                stage=f"ranking the {domain.party}s",
            )
        )
        draft.check(
            Check(
                "reply_sent",
                f"Exactly one message was sent, to {partner.email} only, answering their request",
                v.sent_once,
                {
                    "to": [partner.email],
                    "label": partner.name,
                    "in_reply_to": request["message_id"],
                    "subject": f"{p.month}|{domain.what}|figures|numbers|totals|summary|report",
                },
                stage="replying",
            )
        )
        draft.check(
            Check(
                "reply_figures",
                f"The message gives the {domain.what} of each {domain.line} and the total, as the report does: "
                f"{listed}; total {p.money(total)}",
                v.message_says,
                {
                    "to": partner.email,
                    "patterns": {
                        **{label: pattern[1] for label, pattern in per_line.items()},
                        f"the total {p.money(total)}": amount_regex(total / 100),
                    },
                },
                weight=2,
                stage="mailing the totals",
            )
        )
        ctc.agree(
            draft,
            apps=["files", "mail"],
            rule="the reply gives the same per-line totals and total as the report",
            items=["line_totals", "grand_total", "reply_figures"],
        )
        tsu.require(
            draft,
            ["write the report", "reply with the totals"],
            f"+files/{REPORTS}/*",
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
        )
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.judges.append(
            Judge(
                "readable_report",
                "The report is laid out like last month's and easy to read",
                f"The new report in {REPORTS}/ follows the layout of last month's (a table of the {domain.line}s with "
                f"the total, then the top three {domain.party}s) and holds no wrong or confusing figures.",
                stage="writing the report",
            )
        )

    @staticmethod
    def _goal(ctx: Context, p: _Plan) -> str:
        domain, ledger = p.domain, p.ledger
        lines = ledger.per_line()
        total = sum(lines.values())
        payers = p.payers()
        out = [
            "# Goal",
            "",
            f"{domain.platform}'s export of {_month(p.first)}'s {domain.rows} is `{p.export}`.",
        ]
        if ctx.on(hd.NAME):
            out.append(
                f"It names only the {domain.columns[2]}s: the note '{domain.note}' says which "
                f"{domain.line} each counts under, and that {domain.excluded[0].lower()} rows are no income (left out)."
            )
        if ctx.on(csc.NAME):
            fixed = ", ".join(f"{r} to {p.money(c)}" for r, (c, _) in sorted(ledger.fixes.items()))
            out.append(f"`{p.corrections}` replaces the amounts of {fixed}.")
        if ctx.on(nd.NAME):
            refs = ", ".join(r.ref for r in ledger.repeated)
            out.append(
                f"The export repeats {refs} (one reference is one payment); the file ending in an earlier date is a "
                "stale mid-month export, and the other files are about other things."
            )
        if p.alias is not None:
            out.append(
                f"{p.alias.display} <{p.alias.email}> is {p.regular.name} <{p.regular.email}> (their mail says so, "
                "their contact has the usual address): their payments count together."
            )
        out += ["", f"| {domain.line} | {domain.what} |", "|---|---:|"]
        out += [f"| {name} | {p.money(lines[name])} |" for name in p.catalogue]
        out += [f"| total | {p.money(total)} |", "", f"Top three {domain.party}s:", ""]
        out += [f"- {payers[e].name}: {p.money(c)}" for c, e in ledger.per_person()[:TOP]]
        out += [
            "",
            f"The end state: one new Markdown file in `{REPORTS}/` giving each {domain.line}'s {domain.what}, the "
            f"total and the top three in order; one reply to {p.partner.email} only, giving the same per-line totals "
            "and total. Reading mail marks it seen; nothing else changes.",
        ]
        return "\n".join(out)
