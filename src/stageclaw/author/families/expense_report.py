"""expense-report (documents): the receipts of a business trip as a CSV file, sent to finance.

Receipts arrived by mail (hotel, train, rides, meals). The agent writes one row per trip expense
to a CSV in the workspace and mails it to the finance contact with the total.

- cross_tool_consistency (core): the mail's attachment is the file just written, and the total
  in the mail is the sum of its rows.
- cross_source_conflict: the hotel sent an amended invoice that replaces the first one.
- hidden_dependency: which days the trip covered is only in the calendar.
- noisy_data: a receipt sent twice, and rides and meals from the same vendors outside the trip.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.people import COMPANY_ROOTS, People, Person, slug
from stageclaw.author.content.places import REGIONS, City, Region
from stageclaw.author.content.text import amount_regex, day, money, price
from stageclaw.author.content.timeline import at, pick_now
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
PROMPTS = (
    "Can you put together my expense report for the {trip} trip? One row per receipt (date as YYYY-MM-DD, vendor, "
    "category, amount) in a CSV at {path}, then email it to {finance} with the total.",
    "I need to claim my expenses from the {trip} trip. Please make a CSV at {path} with a row per expense "
    "(columns date, vendor, category, amount; dates as YYYY-MM-DD) and send it to {finance}, with the total in "
    "the mail.",
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
    summary = "a trip's receipts from the mail as a CSV report, sent to finance with the total"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(DOMESTIC)]
        employer = people.company(region)
        me = people.person(region, org=employer, title="Senior Consultant")
        now = pick_now(rng, me.tz)
        there: City = rng.choice([c for c in region.cities if c.name != me.city.name])
        nights = rng.randint(2, 3)
        last = now.date() - timedelta(days=rng.randint(2, 6))
        first = last - timedelta(days=nights)
        finance = people.person(region, org=employer, title="Finance Business Partner")
        path = f"Expenses/{first:%Y-%m}-{slug(there.name)}.csv"
        draft = TaskDraft(
            id="",
            title=f"Expense report for the {there.name} trip as a CSV, sent to finance with the total",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=60,
        )

        def cost(low: int, high: int) -> float:
            """A price between two amounts in euro cents, in the region's money."""
            return price(rng, low, high, region)

        receipts = self._receipts(rng, people, me, region, there, first, last, cost)
        amended = None
        if ctx.on("cross_source_conflict"):
            hotel = receipts[0]
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
            )
            amended.body = (
                f"Dear {me.name},\n\n"
                + mails.wrap(
                    "we have removed the minibar charge that was added to your bill by mistake. "
                    f"This invoice replaces invoice no. {hotel.ref}. We apologise for the error."
                )
                + f"\n\nInvoice no. {amended.ref}\nStay: {day(first, 'en', region)} – {day(last, 'en', region)}"
                f" ({nights} nights)\nTotal: {money(fixed, region)}\n\nKind regards\n{hotel.vendor}"
            )
        personal = []
        duplicate = None
        if ctx.on("noisy_data"):
            ride = next(r for r in receipts if r.category == "taxi")
            before = first - timedelta(days=rng.randint(3, 6))
            after = last + timedelta(days=1)
            personal = [
                self._ride(rng, me, region, ride.vendor, ride.sender, before, cost(900, 2900), me.city),
                self._meal(rng, people, me, region, after, cost(2400, 7800)),
            ]
            for r in personal:
                r.trip = False
            meal = next(r for r in receipts if r.category == "meals")
            duplicate = Receipt(
                meal.vendor,
                meal.category,
                meal.day,
                meal.amount,
                meal.ref,
                f"{meal.subject} (copy)",
                meal.body,
                meal.sender,
            )

        # The mailbox: every receipt on its day, the amended invoice and the copies after.
        counted = [r for r in receipts if not (amended is not None and r is receipts[0])]
        if amended is not None:
            counted.insert(0, amended)
        everything = [*receipts, *personal] + ([amended] if amended else []) + ([duplicate] if duplicate else [])
        messages: dict[int, dict[str, Any]] = {}
        for r in everything:
            hour = rng.randint(8, 22) if r is not amended else 10
            # A receipt comes after the purchase; an e-ticket when the ticket is bought, days before the train.
            after = -rng.randint(3, 12) if r.category == "travel" else 1 if r is amended or r is duplicate else 0
            when = at(r.day + timedelta(days=after), hour, rng.randint(0, 59), me.tz)
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
        bg = Background(draft, rng, people, me, now, "en")
        bg.events(2, "Personal")
        noise = bg.mail(2)
        bg.notes(1, "Notes")
        draft.add_file(
            "Expenses/README.md",
            "# Expenses\n\nOne CSV per trip: date, vendor, category, amount.\n"
            "Categories: lodging, travel, taxi, meals.\nSend to finance within 30 days of the trip.\n",
        )
        contacts = [finance, *bg.friends[:2]]
        bg.contacts(contacts)

        total = round(sum(r.amount for r in counted), 2)
        if amended is not None:
            csc.supersede(
                draft,
                loser=paths[id(receipts[0])],
                winner=paths[id(amended)],
                rule=f"the amended invoice replaces invoice no. {receipts[0].ref}",
                stated=True,
            )
        if ctx.on("noisy_data"):
            assert duplicate is not None
            original = id(next(r for r in receipts if r.category == "meals"))
            nd.twin(draft, paths[original], messages[original], paths[id(duplicate)], messages[id(duplicate)])
            nd.irrelevant(draft, [paths[id(r)] for r in personal] + noise)
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
        draft.prompt = rng.choice(PROMPTS).format(trip=trip_words, path=path, finance=finance.name)
        draft.summary = f"{len(counted)} expenses of the {there.name} trip, total {total:.2f} {region.currency}"
        draft.hint = (
            "Receipts of a business trip are in the mail; write them as a CSV report and mail it to finance"
            + ("; the hotel sent an amended invoice" if amended else "")
            + ("; one receipt came twice and some are personal, outside the trip" if duplicate else "")
            + "."
        )
        # A hotel stay may be dated by any of its days, from check-in to the payment at check-out.
        rows = [
            [[(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)], round(r.amount, 2)]
            if r.category == "lodging"
            else [r.day.isoformat(), round(r.amount, 2)]
            for r in counted
        ]
        draft.check(
            Check(
                "report_rows",
                f"The CSV report has one row per trip expense, {len(counted)} in all, dated YYYY-MM-DD, totalling "
                f"{money(total, region)}",
                v.csv_rows,
                {"path": path, "date_column": "date", "amount_column": "amount", "rows": rows, "total": total},
                weight=3,
                stage="collecting the receipts",
            )
        )
        draft.check(
            Check(
                "sent_to_finance",
                f"Exactly one message was sent, to {finance.email} only",
                v.sent_once,
                {"to": [finance.email], "label": finance.name, "subject": "expense|claim|receipt|report"},
                stage="sending the report",
            )
        )
        draft.check(
            Check(
                "report_attached",
                "The message carries exactly one attachment: the CSV report as it is in the workspace",
                v.attached,
                {"to": finance.email, "file": path},
                weight=2,
                stage="sending the report",
            )
        )
        draft.check(
            Check(
                "total_in_mail",
                f"The message gives the total, {money(total, region)}, and nothing it says about the trip is wrong",
                v.message_says,
                {
                    "to": finance.email,
                    "patterns": {"the total": amount_regex(total)},
                    "stated": {
                        "dates": sorted(
                            {(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)}
                            | {r.day.isoformat() for r in counted}
                        ),
                        "years": sorted({first.year, last.year}),
                        "counts": {r"(?:receipts?|expenses?|items?)": len(counted)},
                        "amounts": sorted({total, *(r.amount for r in counted)}),
                    },
                },
                critical=False,
                stage="adding up",
            )
        )
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
                f"The mail to {finance.given} says which trip the attached report is for and gives the total "
                f"({money(total, region)}), without wrong or confusing details.",
            )
        )
        tsu.require(
            draft,
            ["write the report", "mail it to finance"],
            f"+{file_path(path)}",
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
        )
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"The {there.name} trip ran {first.isoformat()} to {last.isoformat()} (`{trip['uid']}`). Its expenses:",
                "",
                *(
                    f"- {r.day.isoformat()} {r.vendor} ({r.category}): {money(r.amount, region)} [{r.ref}]"
                    for r in counted
                ),
                "",
                f"Total **{money(total, region)}**."
                + (
                    f" The hotel's first invoice {receipts[0].ref} ({money(receipts[0].amount, region)}) is "
                    "replaced by the amended one."
                    if amended
                    else ""
                )
                + (
                    " One meal receipt came twice (count it once); a ride before and a meal after the trip are "
                    "personal."
                    if duplicate
                    else ""
                ),
                "",
                f"The end state: `{path}` is a CSV with the columns date, vendor, category, amount and exactly these "
                f"rows (a total row is fine); one message to {finance.email} only, with that file attached and the "
                "total in the text. Nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        draft.facts = {
            "trip": "Trip:",
            "window": [(first - timedelta(days=14)).isoformat(), now.date().isoformat()],
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
            "finance": finance.mailbox,
            "subject": f"Expenses: {there.name} trip {first:%B %Y}",
            "symbol": region.symbol,
            "body": f"Hi {finance.given},\n\nattached is my expense report for the {there.name} trip: {{count}} "
            f"receipts, total {{total}}.\n\nThanks,\n{me.given}",
            "currency": region.currency,
            "city": there.name,
            "me": me.given,
        }
        draft.alternatives = {"check_in_dates": solution.solve_check_in_dates, "read_all": solution.solve_read_all}
        return draft

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
    ) -> list[Receipt]:
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
            f"Paid by card on {day(last, 'en', region, weekday=False)}.\n\nWe hope to welcome you again soon.\n"
            f"{hotel_name}\n{region.street_address(rng, there)}",
            f"reservations@{hotel_domain}",
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
                    f"Price: {money(amount, region)}\n\n"
                    f"Show the QR code in the app when asked.\n{rail}",
                    f"no-reply@{rail_domain}",
                )
            )
        ride = rng.choice(RIDES)
        ride_domain = f"receipts.{slug(ride)}.com"
        rides = [
            self._ride(
                rng, me, region, ride, f"receipts@{ride_domain}", first + timedelta(days=1), cost(900, 3400), there
            )
        ]
        meals = [
            self._meal(
                rng,
                people,
                me,
                region,
                first + timedelta(days=rng.randint(0, (last - first).days - 1)),
                cost(1800, 8900),
            )
        ]
        return [hotel, *trains, *rides, *meals]

    @staticmethod
    def _ride(
        rng: random.Random, me: Person, region: Region, vendor: str, sender: str, when: date, amount: float, city: City
    ) -> Receipt:
        amount = round(amount, 2)
        ref = _ref(rng, "RC")
        names = city.street_names
        streets = rng.sample(names, 2) if len(names) > 1 else [names[0], "Central Station"]
        return Receipt(
            vendor,
            "taxi",
            when,
            amount,
            ref,
            f"Your {when:%A} trip with {vendor}",
            f"Thanks for riding, {me.first}!\n\nTrip on {day(when, 'en', region, weekday=False)} · "
            f"{rng.randint(7, 23):02d}:{rng.randint(0, 59):02d}\n{streets[0]} → {streets[1]}, {city.name}\n"
            f"Total: {money(amount, region)}\nReceipt {ref}\nPaid with Visa •••• {rng.randint(1000, 9999)}",
            sender,
        )

    @staticmethod
    def _meal(rng: random.Random, people: People, me: Person, region: Region, when: date, amount: float) -> Receipt:
        amount = round(amount, 2)
        host = people.person(region)
        while host.given in me.name.split() or host.family == me.family:  # no restaurant named after the user
            host = people.person(region)
        name = rng.choice(EATERIES).format(name=host.given, root=rng.choice(COMPANY_ROOTS))
        ref = _ref(rng, "R")
        return Receipt(
            name,
            "meals",
            when,
            amount,
            ref,
            f"Receipt from {name}",
            f"Receipt {ref}\n{name}\n\n{day(when, 'en', region, weekday=False)}, table {rng.randint(2, 30)}\n"
            f"{rng.randint(2, 4)} covers\nTotal: {money(amount, region)}\n\nThank you for dining with us!",
            f"receipts@{slug(name)}.{region.tld}",
        )
