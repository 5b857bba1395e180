"""expense-report (documents): the receipts of a business trip as a CSV file, sent to finance.

Receipts arrived by mail (hotel, train, a ride and a meal most days). The agent writes one row per
claimable trip expense to a CSV in the workspace, the way the user's notes in `Expenses/README.md`
say, and mails it to finance with the total. Around it, months of ordinary mail, calendar, contacts
and files.

Levers on every task (see `_levers`, written to the provenance): the train tickets were claimed when
they were booked (the user's mail to finance in Sent, finance's answer in the inbox), so they stay out;
a ride and the team dinner went on the company card, whose last digits only the README gives; finance
asked, weeks ago, for claims to go to a shared claims mailbox instead of to the person the README and
the address book name.

- a reaction: the first mail to the claims mailbox brings its automatic reply: travel expense claims are handled
  at another address of the employer's now, and the report has to reach it (the claims mailbox may keep the first
  mail, or be copied).
- cross_tool_consistency (core): the mail's attachment is the file just written, and the total
  in the mail is the sum of its rows.
- cross_source_conflict: the hotel sent an amended invoice that replaces the first one.
- hidden_dependency: which days the trip covered is only in the calendar.
- noisy_data: a receipt sent twice, and a ride and a meal from the same kinds of vendors outside the trip.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import COMPANY_ROOTS, People, Person, slug
from stageclaw.author.content.places import REGIONS, City, Region
from stageclaw.author.content.text import amount_regex, day, money, price
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import file_path, item_path, mail_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import expense_report as solution

DOMESTIC = ("uk", "de", "us", "mx", "in", "au", "fr")  # regions with two cities a trip can go between
RIDES = ("Zoomcab", "RideNow", "Cabbit")
RAIL = ("Northline Rail", "Intercity Express", "Coastline Trains")
EATERIES = ("Trattoria da {name}", "{root} Kitchen", "Café {name}", "Brasserie {name}", "{name}'s Noodle Bar")
README = "Expenses/README.md"
# Where the claims mailbox sends trip claims now. Each ends in "claims@", which the life around the story avoids.
TRAVEL_DESKS = ("travel.claims", "travel-claims", "travelclaims")
TRAVEL_CLAIMS = ("travel expense claims", "expense claims for business trips")
PROMPTS = (
    "Can you put together my expense report for the {trip} trip, the usual way (my notes are in {readme})? "
    "One row per receipt (date as YYYY-MM-DD, vendor, category, amount) in a CSV at {path}, then send it to "
    "finance with the total.",
    "I need to claim my expenses from the {trip} trip. Please make a CSV at {path} with a row per expense "
    "(columns date, vendor, category, amount; dates as YYYY-MM-DD), following my notes in {readme}, and send it "
    "to finance with the total in the mail.",
)


@dataclass
class Receipt:
    vendor: str
    category: str
    day: date
    amount: float
    ref: str
    subject: str
    body: str
    sender: str
    trip: bool = True  # part of the trip (not a personal one before or after)
    card: str = ""  # the card it was paid with, as the receipt prints it
    clock: tuple[int, int] | None = None  # when a ride ended: its receipt comes a little later


@dataclass
class _Cards:
    mine: str  # 'Visa •••• 4410'
    company: str  # 'Amex •••• 3007'
    company_digits: str


def _ref(rng: random.Random, prefix: str) -> str:
    return f"{prefix}-{rng.randint(100000, 999999)}"


@register
class ExpenseReport(Family):
    name = "expense-report"
    group = "documents"
    apps = ("mail", "calendar", "files", "contacts")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    core = ("cross_tool_consistency", "tool_state_update")
    summary = "a trip's receipts from the mail as a CSV report by the user's notes, sent to finance with the total"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(DOMESTIC)]
        employer = people.company(region)
        me = people.person(region, org=employer, title="Senior Consultant")
        now = pick_now(rng, me.tz)
        there: City = rng.choice([c for c in region.cities if c.name != me.city.name])
        nights = rng.randint(3, 4)
        last = now.date() - timedelta(days=rng.randint(2, 6))
        first = last - timedelta(days=nights)
        finance = people.person(region, org=employer, title="Finance Business Partner")
        partner = people.person(region, org=employer, title="Accounts Assistant")
        while partner.family in (finance.family, me.family):
            partner = people.person(region, org=employer, title="Accounts Assistant")
        claims_box = f"claims@{employer.domain}"
        digits = f"{rng.randint(1000, 9999)}"
        cards = _Cards(f"Visa •••• {rng.randint(1000, 9999)}", f"Amex •••• {digits}", digits)
        path = f"Expenses/{first:%Y-%m}-{slug(there.name)}.csv"
        draft = TaskDraft(
            id="",
            title=f"Expense report for the {there.name} trip as a CSV, sent to finance with the total",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=120,
        )

        def cost(low: int, high: int) -> float:
            """A price between two amounts in euro cents, in the region's money."""
            return price(rng, low, high, region)

        receipts = self._receipts(rng, people, me, region, there, first, last, cost, cards)
        hotel = receipts[0]
        trains = [r for r in receipts if r.category == "travel"]
        rides = [r for r in receipts if r.category == "taxi"]
        meals = [r for r in receipts if r.category == "meals"]
        company = [r for r in receipts if r.card == cards.company]
        amended = None
        if ctx.on("cross_source_conflict"):
            fixed = round(hotel.amount - round(cost(1800, 4600), 2), 2)
            amended = Receipt(
                hotel.vendor,
                hotel.category,
                hotel.day,
                fixed,
                _ref(rng, "INV"),
                f"Amended invoice – {hotel.vendor}",
                "",
                hotel.sender,
                card=hotel.card,
            )
            amended.body = (
                f"Dear {me.name},\n\n"
                + mails.wrap(
                    "we have removed the minibar charge that was added to your bill by mistake. "
                    f"This invoice replaces invoice no. {hotel.ref}; the difference has been refunded to your card. "
                    "We apologise for the error."
                )
                + f"\n\nInvoice no. {amended.ref}\nStay: {day(first, 'en', region)} – {day(last, 'en', region)}"
                f" ({nights} nights)\nTotal: {money(fixed, region)}\nCard: {hotel.card}\n\nKind regards\n{hotel.vendor}"
            )
        personal = []
        duplicate = None
        if ctx.on("noisy_data"):
            ride = rides[0]
            before = first - timedelta(days=rng.randint(3, 6))
            after = last + timedelta(days=1)
            personal = [
                self._ride(rng, me, region, ride.vendor, ride.sender, before, cost(900, 2900), me.city, cards.mine),
                self._meal(
                    rng,
                    people,
                    me,
                    region,
                    after,
                    cost(2400, 7800),
                    cards.mine,
                    covers=2,
                    taken={m.vendor for m in meals},
                ),
            ]
            for r in personal:
                r.trip = False
            meal = next(m for m in meals if m.card != cards.company)
            duplicate = Receipt(
                meal.vendor,
                meal.category,
                meal.day,
                meal.amount,
                meal.ref,
                f"{meal.subject} (copy)",
                "As requested, a copy of your receipt.\n\n" + meal.body,
                meal.sender,
                card=meal.card,
            )

        # The mailbox: every receipt on its day, the amended invoice and the copies after.
        counted = [r for r in receipts if r is not hotel or amended is None]
        if amended is not None:
            counted.insert(0, amended)
        counted = [r for r in counted if r not in trains and r.card != cards.company]
        everything = [*receipts, *personal] + ([amended] if amended else []) + ([duplicate] if duplicate else [])
        booked = at(first - timedelta(days=rng.randint(14, 21)), rng.randint(9, 20), rng.randint(0, 50), me.tz)
        messages: dict[int, dict[str, Any]] = {}
        for r in everything:
            if r in trains:
                when = booked + timedelta(minutes=trains.index(r))  # both legs booked at once, one mail each
            else:
                hour = rng.randint(8, 22) if r is not amended else 10
                after = 1 if r is amended or r is duplicate else 0  # a receipt comes after the purchase
                when = at(r.day + timedelta(days=after), hour, rng.randint(0, 59), me.tz)
                if r.clock is not None:
                    when = at(r.day, *r.clock, me.tz) + timedelta(minutes=rng.randint(2, 25))
            msg = mails.mail(
                rng,
                f"{r.vendor} <{r.sender}>",
                [me],
                r.subject,
                r.body,
                when,
                flags=["\\Seen"] if rng.random() < 0.7 else [],
            )
            draft.add_message("INBOX", msg)
            messages[id(r)] = msg
        paths = {key: mail_path("INBOX", msg) for key, msg in messages.items()}
        advance, _ = self._advance_claim(draft, rng, me, finance, trains, booked, there, region)
        moved = self._new_mailbox(draft, rng, me, finance, partner, claims_box, booked, first)

        # The trip in the calendar.
        trip = {
            "uid": draft.uid("evt", f"trip {there.name}"),
            "summary": f"Trip: {there.name} ({employer.name} client work)",
            "start": first.isoformat(),
            "end": (last + timedelta(days=1)).isoformat(),
            "all_day": True,
            "location": there.name,
        }
        draft.add_event("Work", trip)
        draft.add_file(README, self._readme(employer.name, finance, cards))
        earlier = self._earlier_report(draft, rng, region, me, first, cost)
        started, todo = self._own_start(draft, rng, region, me, finance, there, first, last, receipts)
        contact = {
            "uid": draft.uid("c", finance.family),
            "name": finance.name,
            "emails": [finance.email],
            "phones": [finance.phone],
            "organization": employer.name,
            "title": finance.title,
        }
        draft.add_contact(contact)

        # A life around the trip: months of mail, a calendar, an address book and files, none of it naming the
        # story's people, vendors or amounts.
        vendors = sorted({r.vendor for r in everything})
        avoid = Avoid(
            people=[finance.name, partner.name],
            words=[*vendors, "expense", "reimburs", "claims@", there.name],
            amounts=sorted({r.amount for r in everything}),
            addresses=[finance.email, partner.email, claims_box, *{r.sender for r in everything}],
            paths=["Expenses"],
        )
        life = Life.of(ctx, draft, me, now, avoid=avoid, months=5)
        noise = life.fill(Scale(messages=170, series=6, events=80, contacts=45, files=30, notes=6, reminders=8))
        arrival_order(draft)

        total = round(sum(r.amount for r in counted), 2)
        # The claims mailbox answers the first mail automatically: trip claims have moved to a desk of their own.
        # Drawn last, and from a generator of its own, so that the rest of the draw stays as it was.
        react = random.Random(f"{claims_box} {me.email} {first.isoformat()} travel desk")
        travel_box = f"{react.choice(TRAVEL_DESKS)}@{employer.domain}"
        about = react.choice(TRAVEL_CLAIMS)
        draft.autoreplies.append(
            mails.moved_reply(react, f"{employer.name} Finance", claims_box, travel_box, about, now)
        )
        if amended is not None:
            csc.supersede(
                draft,
                loser=paths[id(hotel)],
                winner=paths[id(amended)],
                rule=f"the amended invoice replaces invoice no. {hotel.ref}",
                stated=True,
            )
        if ctx.on("noisy_data"):
            assert duplicate is not None
            original = id(next(r for r in receipts if r.ref == duplicate.ref))
            nd.twin(draft, paths[original], messages[original], paths[id(duplicate)], messages[id(duplicate)])
            nd.irrelevant(draft, [paths[id(r)] for r in personal] + [file_path(earlier)] + noise[:20])
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft,
                fact=f"the trip ran {first.isoformat()} to {last.isoformat()}",
                item=item_path("calendar", "Work", trip),
                instead_of="prompt.md",
            )
        trip_words = (
            there.name
            if ctx.on("hidden_dependency")
            else (f"{there.name} ({day(first, 'en', region)} – {day(last, 'en', region)})")
        )
        draft.prompt = rng.choice(PROMPTS).format(trip=trip_words, path=path, readme=README)
        draft.summary = f"{len(counted)} expenses of the {there.name} trip, total {total:.2f} {region.currency}"
        draft.hint = (
            "Receipts of a business trip are in the mail; write the claimable ones as a CSV report by the user's "
            "notes (not the company card, not what was claimed already) and mail it to finance's claims mailbox, "
            "whose automatic reply sends trip claims to another address"
            + ("; the hotel sent an amended invoice" if amended else "")
            + ("; one receipt came twice and some are personal, outside the trip" if duplicate else "")
            + "."
        )
        hotel_days = [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]

        def dated(r: Receipt) -> list[str]:
            """A hotel stay may be dated by any of its days, from check-in to the payment at check-out."""
            return hotel_days if r.category == "lodging" else [r.day.isoformat()]

        def entry(r: Receipt, why: str = "") -> list[Any]:
            return [dated(r), round(r.amount, 2), *([why] if why else [])]

        self._rubric(
            ctx, draft, path, claims_box, travel_box, finance, region, counted, total, dated, entry,
            hotel, amended, trains, company, personal, duplicate,
        )  # fmt: skip
        ctc.agree(
            draft,
            apps=["files", "mail"],
            rule="the attachment is the report just written and the mail's total is the sum of its rows",
            items=["report_rows", "report_attached", "total_in_mail"],
        )
        draft.judges.append(
            Judge(
                "clear_mail",
                "The mail is a short, clear cover note",
                f"The mail to finance says which trip the attached report is for and gives the total "
                f"({money(total, region)}), without wrong or confusing details.",
            )
        )
        tsu.require(
            draft,
            ["write the report", "mail it to finance's claims mailbox, then where its automatic reply says"],
            f"+{file_path(path)}",
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
            *(f"+mail/folders/INBOX/{r['message_id']}" for r in draft.autoreplies),
        )
        draft.permit("~mail/folders/INBOX/*#flags", "~mail/folders/Sent/*#flags")
        draft.goal = self._goal(
            there, first, last, trip["uid"], counted, total, region, path, claims_box, travel_box, finance, hotel,
            amended, trains, company, duplicate, advance, moved, cards,
        )  # fmt: skip
        self._own_checks(draft, started, todo, path, there)
        draft.goal += (
            f"\n\nThe user's own start on this trip's report, `{started}` (the README keeps one CSV per trip), is not "
            f"left beside `{path}`: moved there and completed, or deleted. Their own reminder {todo['title']!r} "
            f"({todo['list']}, due {todo['due']}) is done by this job: ticked off or deleted, not left open."
        )
        draft.note_levers(
            {
                **self._levers(finance, claims_box, travel_box, hotel, amended, trains, company, cards, advance, moved),
                "own_report_merged": f"L latent file: the user began this trip's report themselves as {started!r} "
                "(the first day's rows, their own name for it); the README keeps one CSV per trip, so writing the "
                "report beside it leaves two",
                "own_reminder_done": f"L latent in another app: the user's own reminder {todo['title']!r} in "
                f"{todo['list']} (due {todo['due']}, the README's 30 days) is this very job; left open, it asks for "
                "the claim again",
            }
        )
        draft.solution = solution.solve
        draft.facts = {
            "trip": "Trip:",
            "window": [(first - timedelta(days=14)).isoformat(), now.date().isoformat()],
            "readme": README,
            "finance": finance.family,
            "receipts": [
                {
                    "sender": r.sender,
                    "subject": r.subject.removesuffix(" (copy)"),
                    "shown": money(r.amount, region),
                    "when": day(r.day, "en", region, weekday=False),
                    "date": r.day.isoformat(),
                    "amount": r.amount,
                    "vendor": r.vendor,
                    "category": r.category,
                    "ref": r.ref,
                }
                for r in [*receipts, *personal] + ([amended] if amended else [])
            ],
            "path": path,
            "subject": f"Expenses: {there.name} trip {first:%B %Y}",
            "symbol": region.symbol,
            "body": f"Hello,\n\nattached is my expense report for the {there.name} trip, total {{total}}.\n\n"
            f"Thanks,\n{me.given}",
            "currency": region.currency,
            "city": there.name,
            "me": me.given,
        }
        draft.alternatives = {"check_in_dates": solution.solve_check_in_dates, "read_all": solution.solve_read_all}
        return draft

    # -- the rubric -----------------------------------------------------------------------------------

    @staticmethod
    def _rubric(
        ctx: Context,
        draft: TaskDraft,
        path: str,
        box: str,
        desk: str,
        finance: Person,
        region: Region,
        counted: list[Receipt],
        total: float,
        dated: Callable[[Receipt], list[str]],
        entry: Callable[..., list[Any]],
        hotel: Receipt,
        amended: Receipt | None,
        trains: list[Receipt],
        company: list[Receipt],
        personal: list[Receipt],
        duplicate: Receipt | None,
    ) -> None:
        table = {"path": path, "date_column": "date", "amount_column": "amount"}
        draft.check(
            Check(
                "report_rows",
                f"The CSV report has one row per claimable trip expense, {len(counted)} in all, dated YYYY-MM-DD, "
                f"totalling {money(total, region)}",
                v.csv_rows,
                {**table, "rows": [[dated(r), round(r.amount, 2)] for r in counted], "total": total},
                weight=3,
                stage="collecting the receipts",
            )
        )
        if amended is not None:
            draft.check(
                Check(
                    "hotel_amended",
                    f"The hotel is in the report once, at the amended invoice's {money(amended.amount, region)}, "
                    f"not the replaced {money(hotel.amount, region)}",
                    v.csv_entries,
                    {
                        **table,
                        "label": "the hotel at its amended invoice",
                        "present": [entry(amended)],
                        "absent": [entry(hotel, f"the replaced invoice {hotel.ref}")],
                    },
                    weight=2,
                    stage="choosing the invoice that counts",
                )
            )
        draft.check(
            Check(
                "tickets_not_again",
                "The train tickets, claimed and paid when they were booked, are not in the report again ("
                + ", ".join(f"{t.ref} {money(t.amount, region)}" for t in trains)
                + ")",
                v.csv_entries,
                {
                    **table,
                    "label": "the tickets claimed at booking are left out",
                    "absent": [entry(t, f"ticket {t.ref}, claimed and paid already") for t in trains],
                },
                weight=2,
                stage="checking what was claimed already",
            )
        )
        draft.check(
            Check(
                "company_card_left_off",
                "Nothing paid with the company card is in the report ("
                + ", ".join(f"{r.vendor} {r.day.isoformat()} {money(r.amount, region)}" for r in company)
                + ")",
                v.csv_entries,
                {
                    **table,
                    "label": "the company card's receipts are left out",
                    "absent": [entry(r, f"{r.vendor}, paid with the company card") for r in company],
                },
                weight=2,
                stage="applying the user's notes",
            )
        )
        if duplicate is not None:
            draft.check(
                Check(
                    "trip_only_once",
                    f"The {duplicate.vendor} meal sent twice is in the report once, and the ride and meal outside "
                    "the trip are not",
                    v.csv_entries,
                    {
                        **table,
                        "label": "each trip receipt once, nothing outside the trip",
                        "present": [entry(duplicate)],
                        "absent": [entry(r, f"{r.vendor} on {r.day.isoformat()}, outside the trip") for r in personal],
                    },
                    stage="collecting the receipts",
                )
            )
        draft.check(
            Check(
                "sent_to_claims",
                f"The report reached {desk} once, and nobody else but {box} got it: finance asked for claims at "
                f"their claims mailbox {box} instead of to {finance.name}, and the automatic reply to the first mail "
                f"there sends trip claims to {desk} (that first mail, or a copy to {box}, is fine)",
                v.sent_once,
                {
                    "to": [desk],
                    "label": "the travel claims mailbox",
                    "subject": "expense|claim|receipt|report",
                    "wrong": {finance.email: "finance asked for claims at the claims mailbox, not to them directly"},
                    "tried": [box],
                },
                weight=2,
                stage="sending the report",
            )
        )
        draft.check(
            Check(
                "report_attached",
                f"The message to {desk} carries exactly one attachment: the CSV report as it is in the workspace, "
                f"and so does the first one, to {box} (or {box} is in copy)",
                v.sent_file,
                {"to": desk, "path": path, "label": "the CSV report", "tried": [box]},
                weight=2,
                stage="sending the report",
            )
        )
        # Anything true about the trip may be said (what was left out and why, with its amount and day), nothing else.
        told = [*counted, *trains, *company, *personal, hotel]
        days = {d for r in told for d in dated(r)}
        # What each category of the claim comes to ("Meals: A$215.09") is true too.
        subtotals = {round(sum(r.amount for r in counted if r.category == c), 2) for c in {r.category for r in counted}}
        draft.check(
            Check(
                "total_in_mail",
                f"The message to {desk} gives the total, {money(total, region)}, and so does the first one, to {box} "
                "(a forward of it says what it forwards); nothing they say about the trip is wrong",
                v.message_says,
                {
                    "to": desk,
                    "tried": [box],
                    "patterns": {"the total": amount_regex(total)},
                    "stated": {
                        "dates": sorted(days),
                        "years": sorted({date.fromisoformat(d).year for d in days}),
                        "amounts": sorted(
                            {total, round(sum(t.amount for t in trains), 2), *(r.amount for r in told), *subtotals}
                        ),
                    },
                },
                critical=False,
                stage="adding up",
            )
        )

    @staticmethod
    def _levers(
        finance: Person,
        box: str,
        desk: str,
        hotel: Receipt,
        amended: Receipt | None,
        trains: list[Receipt],
        company: list[Receipt],
        cards: _Cards,
        advance: dict[str, Any],
        moved: dict[str, Any],
    ) -> dict[str, str]:
        """What each planted difficulty is and which rubric item grades it, for classifying a blind play."""
        refs = ", ".join(t.ref for t in trains)
        out = {
            "tickets_not_again": f"D already done: the train tickets ({refs}) were claimed the day they were "
            f"booked (the user's mail in Sent, {advance['subject']!r}) and finance answered that they are paid; "
            "the README says claimed items stay out, and their e-tickets are in the inbox like any receipt",
            "company_card_left_off": f"B one hop: only the README gives the company Amex's last digits "
            f"({cards.company_digits}); "
            + " and ".join(f"{r.vendor} on {r.day.isoformat()}" for r in company)
            + " show that card on their receipts and stay out",
            "sent_to_claims": f"B one hop, stale source: the README and the address book name {finance.name}; "
            f"their mail {moved['subject']!r} moves claims to {box}; R reaction: the first mail to {box} brings its "
            f"automatic reply: trip claims go to {desk} now",
            "trip_only_once": "F look-alikes: a meal receipt sent twice, a ride with the same company before the "
            "trip and a meal after it (the trip's days are in the calendar)",
        }
        if amended is not None:
            out["hotel_amended"] = (
                f"C conflict: the hotel's amended invoice {amended.ref}, a day after the first, replaces {hotel.ref}"
            )
        return out

    @staticmethod
    def _goal(
        there: City,
        first: date,
        last: date,
        uid: str,
        counted: list[Receipt],
        total: float,
        region: Region,
        path: str,
        box: str,
        desk: str,
        finance: Person,
        hotel: Receipt,
        amended: Receipt | None,
        trains: list[Receipt],
        company: list[Receipt],
        duplicate: Receipt | None,
        advance: dict[str, Any],
        moved: dict[str, Any],
        cards: _Cards,
    ) -> str:
        lines = [
            "# Goal",
            "",
            f"The {there.name} trip ran {first.isoformat()} to {last.isoformat()} (`{uid}`). Its claimable expenses:",
            "",
            *(f"- {r.day.isoformat()} {r.vendor} ({r.category}): {money(r.amount, region)} [{r.ref}]" for r in counted),
            "",
            f"Total **{money(total, region)}**.",
            "",
            "Left out:",
            "",
            f"- the train tickets {', '.join(t.ref for t in trains)}: claimed when booked (`{advance['subject']}` in "
            "Sent) and paid, as finance's answer says; the README says not to claim anything twice;",
            f"- paid with the company Amex ending {cards.company_digits} (README): "
            + "; ".join(f"{r.vendor} {r.day.isoformat()} {money(r.amount, region)}" for r in company)
            + ";",
        ]
        if amended is not None:
            lines.append(
                f"- the hotel's first invoice {hotel.ref} ({money(hotel.amount, region)}), replaced by the amended one;"
            )
        if duplicate is not None:
            lines.append(
                f"- the copy of the {duplicate.vendor} receipt (count it once), a ride before and a meal after the "
                "trip (personal)."
            )
        lines += [
            "",
            f"The end state: `{path}` is a CSV with the columns date, vendor, category, amount and exactly these rows "
            f"(a total row is fine; the hotel may be dated by any day of the stay). The claim goes to {box} "
            f"(finance's mail {moved['subject']!r} asks for claims there, not to {finance.email}), with that file "
            f"attached and the total in the text; that first mail brings the mailbox's automatic reply, which sends "
            f"trip claims to {desk}, so the report has to reach {desk} once, with the file attached and the total "
            f"(forwarded or resent there; a mail to {desk} with {box} in copy does both at once). {box} gets it "
            "once, nobody else at all. Nothing else changes.",
        ]
        return "\n".join(lines)

    # -- the story's mail and files ------------------------------------------------------------------

    @staticmethod
    def _advance_claim(
        draft: TaskDraft,
        rng: random.Random,
        me: Person,
        finance: Person,
        trains: list[Receipt],
        booked: datetime,
        there: City,
        region: Region,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The train tickets, claimed the day they were booked (in Sent), and finance's answer that they are paid."""
        lines = "\n".join(
            f"- {t.vendor}, {t.subject.removeprefix('Your e-ticket: ')} on {day(t.day, 'en', region, weekday=False)}, "
            f"booking {t.ref}: {money(t.amount, region)}"
            for t in trains
        )
        total = round(sum(t.amount for t in trains), 2)
        body = (
            f"Hi {finance.first},\n\n"
            + mails.wrap(
                f"I've just booked my train for the {there.name} trip. The fares are a fair bit, so could you "
                "reimburse the tickets now rather than with the trip's report?"
            )
            + f"\n\n{lines}\n\nTotal {money(total, region)}; the booking confirmations are in my inbox if you "
            "need them."
            f"\n\nThanks!\n{me.given}"
        )
        sent = mails.mail(
            rng,
            me,
            [finance],
            f"Train tickets for the {there.name} trip",
            body,
            booked + timedelta(minutes=rng.randint(20, 70)),
            flags=["\\Seen"],
        )
        draft.add_message("Sent", sent)
        answer = (
            f"Hi {me.first},\n\n"
            + mails.wrap(
                f"no problem: both tickets ({money(total, region)}) are approved and go out with Friday's payment "
                "run. Just leave them off the trip's report so we don't pay them twice."
            )
            + f"\n\nBest,\n{finance.first}"
        )
        paid = mails.mail(
            rng,
            finance,
            [me],
            f"Re: {sent['subject']}",
            answer,
            at(workday(booked.date(), 1), rng.randint(9, 16), rng.randint(0, 59), me.tz),
            flags=["\\Seen"],
            in_reply_to=sent["message_id"],
        )
        draft.add_message("INBOX", paid)
        return sent, paid

    @staticmethod
    def _new_mailbox(
        draft: TaskDraft,
        rng: random.Random,
        me: Person,
        finance: Person,
        partner: Person,
        box: str,
        booked: datetime,
        first: date,
    ) -> dict[str, Any]:
        """Finance's note, between the booking and the trip, that claims now go to a shared mailbox."""
        when = at(workday(booked.date(), rng.randint(3, 5)), rng.randint(9, 11), rng.randint(0, 59), me.tz)
        assert when.date() < first
        body = (
            "Hi all,\n\n"
            + mails.wrap(
                f"from today, please send expense claims to {box} instead of to me directly. {partner.name} and I "
                "both work from that mailbox, so nothing waits when one of us is out. Claims you've already sent "
                "me are fine, no need to send them again."
            )
            + f"\n\nThanks,\n{finance.name}\n{finance.title}"
        )
        note = mails.mail(rng, finance, [me], "Expense claims: new mailbox", body, when, flags=["\\Seen"])
        draft.add_message("INBOX", note)
        return note

    @staticmethod
    def _readme(employer: str, finance: Person, cards: _Cards) -> str:
        return (
            "# Expenses\n\n"
            "One CSV per trip: date, vendor, category, amount. Categories: lodging, travel, taxi, meals. If I "
            "started one as I went, the finished report takes its place: never two files for a trip.\n\n"
            "- Only what I paid myself goes in. The company Amex (card ending "
            f"{cards.company_digits}) is billed to {employer} directly, so anything paid with it stays out.\n"
            "- Train tickets I often claim as soon as I book them (see my mails to finance): anything already "
            "claimed stays out of the trip's report.\n"
            f"- Send the CSV to finance ({finance.name}) within 30 days of the trip, with the total in the mail, "
            "and tick off my reminder for it.\n"
        )

    @staticmethod
    def _own_start(
        draft: TaskDraft,
        rng: random.Random,
        region: Region,
        me: Person,
        finance: Person,
        there: City,
        first: date,
        last: date,
        receipts: list[Receipt],
    ) -> tuple[str, dict[str, Any]]:
        """The user's own start on this trip's report (the first day's ride and meal, typed in on the evening),
        and their own reminder to get the money back within the README's 30 days."""
        rows = [
            [r.day.isoformat(), r.vendor, r.category, f"{r.amount:.2f}"]
            for r in receipts
            if r.day == first and r.category in ("taxi", "meals") and not r.card.startswith("Amex")
        ]
        started = f"Expenses/{there.name} {first:%b}.csv"
        draft.add_file(started, csv_text(["date", "vendor", "category", "amount"], rows))
        lst = "Work"
        title = rng.choice(
            (
                f"Get the {there.name} money back ({finance.first})",
                f"{there.name} receipts to {finance.first}",
                f"Money back for {there.name}",
            )
        )
        todo = {
            "uid": draft.uid("r", f"own {there.name}"),
            "title": title,
            "due": (last + timedelta(days=30)).isoformat(),
            "list": lst,
        }
        draft.add_reminder(lst, {k: val for k, val in todo.items() if k != "list"})
        return started, todo

    @staticmethod
    def _own_checks(draft: TaskDraft, started: str, todo: dict[str, Any], path: str, there: City) -> None:
        draft.check(
            Check(
                "own_report_merged",
                f"The user's own start on the {there.name} report, {started}, is not left beside {path} (one CSV "
                "per trip): moved there and completed, or deleted",
                v.files_gone,
                {"paths": [started]},
                stage="writing the report",
            )
        )
        draft.check(
            Check(
                "own_reminder_done",
                f"The user's own reminder {todo['title']!r} ({todo['list']}, due {todo['due']}) is ticked off or "
                "deleted once the report is sent",
                v.reminder_settled,
                {"uid": todo["uid"], "label": f"the {there.name} claim"},
                stage="sending the report",
            )
        )
        draft.permit(
            f"-files/{started}",
            f"~reminders/{todo['list']}/{todo['uid']}#*",
            f"-reminders/{todo['list']}/{todo['uid']}",
        )

    @staticmethod
    def _earlier_report(
        draft: TaskDraft,
        rng: random.Random,
        region: Region,
        me: Person,
        first: date,
        cost: Callable[[int, int], float],
    ) -> str:
        """Last trip's report, as the user wrote it then."""
        city = rng.choice([c for c in region.cities if c.name != me.city.name])
        start = first - timedelta(days=rng.randint(50, 90))
        rows = [
            [start.isoformat(), f"Hotel {rng.choice(COMPANY_ROOTS)}", "lodging", f"{cost(18000, 30000):.2f}"],
            [start.isoformat(), rng.choice(RIDES), "taxi", f"{cost(1100, 3100):.2f}"],
            [(start + timedelta(days=1)).isoformat(), f"{rng.choice(COMPANY_ROOTS)} Kitchen", "meals",
             f"{cost(2200, 5400):.2f}"],
        ]  # fmt: skip
        path = f"Expenses/{start:%Y-%m}-{slug(city.name)}.csv"
        draft.add_file(path, csv_text(["date", "vendor", "category", "amount"], rows))
        return path

    # -- the receipts ---------------------------------------------------------------------------------

    def _receipts(
        self,
        rng: random.Random,
        people: People,
        me: Person,
        region: Region,
        there: City,
        first: date,
        last: date,
        cost: Callable[[int, int], float],
        cards: _Cards,
    ) -> list[Receipt]:
        """The hotel, the train there and back, a ride most days (one with the team on the company card) and a
        meal each evening (the team dinner on the company card)."""
        hotel_name = f"Hotel {rng.choice(COMPANY_ROOTS)}"
        hotel_domain = f"{slug(hotel_name)}.{region.tld}"
        nights = (last - first).days
        hotel_amount = round(cost(9000, 17000) * nights, 2)
        ref = _ref(rng, "INV")
        hotel = Receipt(
            hotel_name,
            "lodging",
            last,
            hotel_amount,
            ref,
            f"Your invoice from {hotel_name} – {ref}",
            f"Dear {me.name},\n\nthank you for staying with us. Your invoice:\n\nInvoice no. {ref}\n"
            f"Stay: {day(first, 'en', region)} – {day(last, 'en', region)} ({nights} nights)\n"
            f"Room: Superior Double, breakfast included\nTotal: {money(hotel_amount, region)}\n"
            f"Paid by card ({cards.mine}) on {day(last, 'en', region, weekday=False)}.\n\nWe hope to welcome you "
            f"again soon.\n{hotel_name}\n{region.street_address(rng, there)}",
            f"reservations@{hotel_domain}",
            card=cards.mine,
        )
        rail = rng.choice(RAIL)
        rail_domain = f"tickets.{slug(rail)}.{region.tld}"
        trains = []
        for when, origin, to in ((first, me.city.name, there.name), (last, there.name, me.city.name)):
            amount = round(cost(3500, 12900), 2)
            code = _ref(rng, "BK")
            trains.append(
                Receipt(
                    rail,
                    "travel",
                    when,
                    amount,
                    code,
                    f"Your e-ticket: {origin} → {to}",
                    f"Hello {me.first},\n\nthanks for booking with {rail}. Your ticket for "
                    f"{day(when, 'en', region, weekday=False)}:\n\n{origin} → {to}, dep. {rng.randint(6, 18):02d}:"
                    f"{rng.choice((5, 12, 28, 41, 56)):02d}\nBooking reference: {code}\n"
                    f"Price: {money(amount, region)}\nPaid with {cards.mine}\n\n"
                    f"Show the QR code in the app when asked.\n{rail}",
                    f"no-reply@{rail_domain}",
                    card=cards.mine,
                )
            )
        ride = rng.choice(RIDES)
        ride_domain = f"receipts.{slug(ride)}.com"
        days = [first + timedelta(days=n) for n in range(nights + 1)]
        ride_days = [days[0], *sorted(rng.sample(days[1:], 3))]
        team_ride = rng.randrange(1, len(ride_days))
        rides = [
            self._ride(
                rng,
                me,
                region,
                ride,
                f"receipts@{ride_domain}",
                when,
                cost(900, 3400),
                there,
                cards.company if n == team_ride else cards.mine,
            )
            for n, when in enumerate(ride_days)
        ]
        hosts: set[str] = set()
        meals = []
        team_dinner = rng.randrange(nights)
        for n in range(nights):
            meal = self._meal(
                rng,
                people,
                me,
                region,
                first + timedelta(days=n),
                cost(9000, 24000) if n == team_dinner else cost(1800, 8900),
                cards.company if n == team_dinner else cards.mine,
                covers=rng.randint(5, 8) if n == team_dinner else rng.randint(1, 3),
                taken=hosts,
            )
            meals.append(meal)
        return [hotel, *trains, *rides, *meals]

    @staticmethod
    def _ride(
        rng: random.Random,
        me: Person,
        region: Region,
        vendor: str,
        sender: str,
        when: date,
        amount: float,
        city: City,
        card: str,
    ) -> Receipt:
        amount = round(amount, 2)
        ref = _ref(rng, "RC")
        names = city.street_names
        streets = rng.sample(names, 2) if len(names) > 1 else [names[0], "Central Station"]
        clock = (rng.randint(7, 22), rng.randint(0, 59))
        return Receipt(
            vendor,
            "taxi",
            when,
            amount,
            ref,
            f"Your {when:%A} trip with {vendor}",
            f"Thanks for riding, {me.first}!\n\nTrip on {day(when, 'en', region, weekday=False)} · "
            f"{clock[0]:02d}:{clock[1]:02d}\n{streets[0]} → {streets[1]}, {city.name}\n"
            f"Total: {money(amount, region)}\nReceipt {ref}\nPaid with {card}",
            sender,
            card=card,
            clock=clock,
        )

    @staticmethod
    def _meal(
        rng: random.Random,
        people: People,
        me: Person,
        region: Region,
        when: date,
        amount: float,
        card: str,
        *,
        covers: int,
        taken: set[str] | None = None,
    ) -> Receipt:
        amount = round(amount, 2)
        taken = set() if taken is None else taken
        name = ""
        while not name or name in taken:  # no two restaurants of one name
            host = people.person(region)
            while host.given in me.name.split() or host.family == me.family:  # none named after the user
                host = people.person(region)
            name = rng.choice(EATERIES).format(name=host.given, root=rng.choice(COMPANY_ROOTS))
        taken.add(name)
        ref = _ref(rng, "R")
        return Receipt(
            name,
            "meals",
            when,
            amount,
            ref,
            f"Receipt from {name}",
            f"Receipt {ref}\n{name}\n\n{day(when, 'en', region, weekday=False)}, table {rng.randint(2, 30)}\n"
            f"{covers} covers\nTotal: {money(amount, region)}\nCard: {card}\n\nThank you for dining with us!",
            f"receipts@{slug(name)}.{region.tld}",
            card=card,
        )
