"""expense-claim (life_admin): file a business trip's expenses on Expensely, the company's portal.

Back from a trip, the receipts are in the user's mail and their manager wants the claim on the
portal. The agent files one report per claimable receipt the way the portal's policy says
(categories, meals capped at the city's rate, the trip's project code as the business purpose),
finishes and submits the draft the user started during the trip instead of filing that expense
again, and tells the manager it is in. Around it, months of ordinary mail, calendar, contacts and files.

Levers on every task (see `_levers`, written to the provenance): the outward ticket was submitted the
day it was booked and is approved (its e-ticket sits in the inbox next to the return's, still to file);
the meal rate is the trip city's in finance's rate sheet for the year in the user's files (last year's
sheet and the home city's rate differ), and two dinners are above it; the ride's draft (see
tool_state_update).

- tool_state_update (core): reports filed and submitted in the browser; the draft completed, not copied.
- hidden_dependency: the project code is not in the manager's mail: the trip's calendar event gives it.
- cross_source_conflict: the hotel sent a corrected invoice (the corporate rate) replacing the first, which
  the user had already filed and submitted at check-out: that report is corrected, not filed again.
- noisy_data: a receipt sent twice, a weekend ride before the trip with the same ride company, a
  souvenir bought on the trip, and last trip's reports on the portal next to the draft.
- entity_alignment: the manager, in the address book under their full name and work address, writes
  from a personal address under the name they go by and asks for the answer there; nothing vouches
  for that address, so the answer goes to the work address (or the agent asks the user first).
- a reaction: the manager is on leave from today; the first mail to their work address brings an automatic
  reply naming the colleague who approves expense claims meanwhile, and the message has to reach that colleague.
- cross_tool_consistency: the message to the manager gives the total of what was submitted.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import COMPANY_ROOTS, People, Person, ascii_fold, slug
from stageclaw.author.content.places import REGIONS, City, Region
from stageclaw.author.content.text import WEEKDAYS, amount_regex, day, money
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import expense_claim as solution

Cost = Callable[[int, int], float]  # a random price between two amounts in cents

# Regions whose money the portal takes, each with a second city to travel to (and how one gets there).
HOMES = {"uk": "train", "de": "train", "fr": "train", "us": "flight"}
CARRIERS = {
    "uk": ("Northern Star Rail", "Albion Trains"),
    "de": ("Nordexpress", "Rheintal Bahn"),
    "fr": ("Ligne Azur", "TransFrance Rail"),
    "us": ("Bluejay Air", "Summit Airlines", "Prairie Air"),
}
RIDES = ("Zipcab", "Ryde", "CityHop Cars")
HOTELS = ("Hotel {root}", "The {root}", "{root} Suites", "{root} House Hotel")
EATERIES = ("Bistro {given}", "{root} Kitchen", "Trattoria {family}", "Café {given}", "{given}'s Grill")
SHOPS = ("{city} Design Store", "Museum Shop {city}", "{root} Gifts")
SOUVENIRS = (
    "2 x silk scarf, 1 x tote bag",
    "1 x framed city print, 1 x mug",
    "3 x postcards, 1 x tea towel, 1 x enamel pin",
)
TOPICS = ("workshop", "kick-off", "quarterly review", "site visit", "training days")
MANAGER_TITLES = ("Head of Consulting", "Engagement Director", "Practice Lead")
# The manager's out-of-office (`mails.away_reply`, its fields): on leave, a colleague approves claims meanwhile.
COVER = (
    "Thank you for your email. I'm on leave until {back} and won't be reading mail until then.\n\n"
    "{handled}, please write to {colleague} at {address}, who is covering for me and signs them off while I'm "
    "away.\n\n{first}",
    "Hello, and thanks for your message. I'm out of the office from {today} until {back}, without access to my "
    "email.\n\n{handled} in the meantime, please contact {colleague} ({address}), who is approving them on my "
    "behalf until I'm back.\n\nBest regards,\n{first}",
)
COVERED = "For expense claims and anything else that needs my approval"
# The category the policy gives each kind of receipt (a purchase in a shop is personal: none).
CATEGORIES = {"hotel": "Lodging", "travel": "Travel", "ride": "Transport", "meal": "Meals"}
PROMPTS = (
    "Back from {city}! Can you file my trip expenses on Expensely and submit them? I started a draft for one of "
    "them while I was there. Then let {manager} know it's in{total}.",
    "{manager} wants my {city} expenses on Expensely this week. Could you file and submit everything I can claim "
    "(there's a half-done draft from the trip) and let them know once it's done{total}?",
    "Please sort out my expense claim for the {city} trip on Expensely, all submitted, including the draft I "
    "never finished. And let {manager} know{total}.",
)


@dataclass
class Receipt:
    kind: str  # hotel, travel, ride, meal, shop
    vendor: str
    sender: str
    day: date
    amount: float  # what the receipt says
    ref: str
    subject: str
    body: str = ""
    sent: datetime | None = None
    message: dict[str, Any] = field(default_factory=dict)

    @property
    def category(self) -> str | None:
        return CATEGORIES.get(self.kind)


def _dated(d: date, region: Region) -> str:
    """'3 March 2026', or 'March 3, 2026' where the month comes first."""
    text = day(d, "en", region, weekday=False)
    return f"{text}, {d.year}" if region.month_first else f"{text} {d.year}"


def _ref_pattern(ref: str) -> str:
    return rf"(?<![\w-]){re.escape(ref)}(?![\w-])"


@dataclass
class _Trip:
    me: Person
    manager: Person
    client_name: str
    code: str
    home: City
    there: City
    first: date
    last: date
    now: datetime
    cap: float
    topic: str

    @property
    def region(self) -> Region:
        return self.me.region

    @property
    def nights(self) -> int:
        return (self.last - self.first).days


@register
class ExpenseClaim(Family):
    name = "expense-claim"
    group = "life_admin"
    apps = ("mail", "expenses", "calendar", "contacts", "files")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = "a trip's receipts filed on Expensely by its policy, the stale draft finished, the manager told"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        trip = self._trip(ctx)
        me, region = trip.me, trip.region
        draft = TaskDraft(
            id="",
            title=f"File the {trip.there.name} trip's expenses on Expensely by the policy and tell the manager",
            group=self.group,
            now=trip.now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=2700,
            max_steps=250,
        )

        def cost(low: int, high: int) -> float:
            return round(rng.randint(low, high) / 100, 2)

        receipts = self._receipts(rng, people, trip, HOMES[region.key], cost)
        hotel, ride = receipts[0], next(r for r in receipts if r.kind == "ride")  # the first ride has the draft
        outbound = next(r for r in receipts if r.kind == "travel")  # filed on the portal the day it was booked
        meals = [r for r in receipts if r.kind == "meal"]
        over = [m for m in meals if m.amount > trip.cap]  # the meals above the city's rate
        replaced = None
        if ctx.on("cross_source_conflict"):
            replaced = self._first_invoice(rng, trip, hotel)
        extra: list[Receipt] = []
        if ctx.on("noisy_data"):
            extra = self._noise(rng, trip, ride, rng.choice([m for m in meals if m not in over]), cost)
        for r in [*receipts, *([replaced] if replaced else []), *extra]:
            sent = r.sent or at(r.day, rng.randint(8, 22), rng.randint(0, 59), me.tz)
            flags = ["\\Seen"] if rng.random() < 0.6 else []
            r.message = mails.mail(rng, f"{r.vendor} <{r.sender}>", [me], r.subject, r.body, sent, flags=flags)
            draft.add_message("INBOX", r.message)

        # The trip in the calendar; with hidden_dependency the project code is only there.
        event = {
            "uid": draft.uid("evt", f"{trip.there.name} trip"),
            "summary": f"{trip.client_name} {trip.topic} ({trip.there.name})",
            "start": trip.first.isoformat(),
            "end": (trip.last + timedelta(days=1)).isoformat(),
            "all_day": True,
            "location": trip.there.name,
            "description": (
                f"Project {trip.code}, {trip.client_name} {trip.topic}. " if ctx.on("hidden_dependency") else ""
            )
            + f"Hotel: {hotel.vendor}.",
        }
        draft.add_event("Work", event)
        assert me.org is not None
        contact = {
            "uid": draft.uid("c", trip.manager.family),
            "name": trip.manager.name,
            "emails": [trip.manager.email],
            "phones": [trip.manager.phone],
            "organization": me.org.name,
            "title": trip.manager.title,
        }
        draft.add_contact(contact)
        request, writer = self._request(ctx, draft, trip, contact)

        # The portal: last trip's reports, and the draft saved during this one.
        reports, started, done = self._portal(ctx, trip, ride, cost, outbound, replaced)
        draft.web = {"expenses": {"reports": reports, "policy": self._policy(trip)}}
        sheets = self._rate_sheets(draft, rng, trip)

        # A life around the trip: months of mail, a calendar, an address book and files, none of it naming the
        # story's people, vendors or amounts.
        everything = [*receipts, *([replaced] if replaced else []), *extra]
        avoid = Avoid(
            people=[trip.manager.name, writer.name],
            words=[*{r.vendor for r in everything}, "expense", "reimburs", trip.client_name, trip.there.name],
            amounts=sorted({r.amount for r in everything}),
            addresses=[trip.manager.email, writer.email, *{r.sender for r in everything}],
            paths=["Expenses"],
        )
        life = Life.of(ctx, draft, me, trip.now, avoid=avoid, months=5)
        noise = life.fill(Scale(messages=170, series=6, events=80, contacts=45, files=30, notes=6, reminders=8))
        arrival_order(draft)
        deputy = self._away(ctx, draft, trip)

        claims = [self._claim(trip, r) for r in receipts if r is not outbound]
        total = round(sum(c["amount"] for c in claims), 2)
        wrong = {_ref_pattern(outbound.ref): f"the outward ticket, submitted as {done['ticket']['id']} already"}
        if replaced is not None:
            wrong[_ref_pattern(replaced.ref)] = f"the hotel's first invoice, replaced by {hotel.ref}"
            csc.supersede(
                draft,
                loser=mail_path("INBOX", replaced.message),
                winner=mail_path("INBOX", hotel.message),
                rule=f"the corrected invoice {hotel.ref} replaces invoice no. {replaced.ref}",
                stated=True,
            )
        if extra:
            personal_ride, resent, shop = extra
            wrong[_ref_pattern(personal_ride.ref)] = "a personal ride before the trip"
            wrong[_ref_pattern(shop.ref)] = "souvenirs, a personal purchase"
            nd.twin(
                draft,
                mail_path("INBOX", ride.message),
                ride.message,
                mail_path("INBOX", personal_ride.message),
                personal_ride.message,
            )
            original = next(m for m in meals if m.ref == resent.ref)
            nd.twin(
                draft,
                mail_path("INBOX", original.message),
                original.message,
                mail_path("INBOX", resent.message),
                resent.message,
            )
            previous = next(r for r in reports if r["merchant"] == ride.vendor and r["status"] != "draft")
            nd.twin(
                draft,
                f"web/expenses/reports/{started['id']}",
                started,
                f"web/expenses/reports/{previous['id']}",
                previous,
            )
            nd.irrelevant(draft, [mail_path("INBOX", shop.message), file_path(sheets[0]), *noise[:20]])
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft,
                fact=f"the trip's project code is {trip.code}",
                item=item_path("calendar", "Work", event),
                instead_of=mail_path("INBOX", request),
            )

        self._rubric(
            ctx, draft, trip, claims, started, ride, over, hotel, replaced, wrong, writer, request, total,
            outbound, done, sheets[1], [r.amount for r in everything], deputy,
        )  # fmt: skip
        draft.note_levers(self._levers(ctx, trip, ride, started, outbound, hotel, replaced, over, done, sheets, deputy))
        draft.prompt = rng.choice(PROMPTS).format(
            city=trip.there.name,
            manager=trip.manager.given,  # as the address book knows them
            total=", with the total" if ctx.on("cross_tool_consistency") else "",
        )
        draft.summary = f"{len(claims)} expenses of the {trip.there.name} trip, total {money(total, region)}"
        draft.hint = (
            "Receipts of a business trip are in the mail; file each claimable one on the Expensely portal by its "
            "policy (categories, meal cap, project code), finish the draft started during the trip, tell the manager"
            + ("; the hotel sent a corrected invoice" if replaced else "")
            + ("; one receipt came twice, a ride and a purchase are personal" if extra else "")
            + "."
        )
        draft.goal = self._goal(
            ctx, trip, [r for r in receipts if r is not outbound], claims, ride, started, replaced, extra, writer,
            total, event["uid"], outbound, done, sheets[1], deputy,
        )  # fmt: skip
        draft.solution = solution.solve
        draft.facts = {
            "manager": trip.manager.family,
            "subject": request["subject"],
            "window": [(trip.first - timedelta(days=1)).isoformat(), (trip.last + timedelta(days=2)).isoformat()],
            "trip": trip.there.name,
            "code_in": "calendar" if ctx.on("hidden_dependency") else "mail",
            "vendors": self._vendors([*receipts, *extra]),
            "draft_merchant": ride.vendor,
            "rates": sheets[1],
            "currency": region.currency,
            "purpose": f"{{code}} {trip.client_name} {trip.topic}",
            "symbol": region.symbol,
            "reply": f"Hi {writer.first},\n\nmy {trip.there.name} expenses are all submitted on Expensely, "
            f"{{total}} in total.\n\nThanks,\n{me.given}",
            "known_only": ctx.on("entity_alignment"),
            "me": me.given,
        }
        draft.alternatives = {"draft_last": solution.solve_draft_last, "read_all": solution.solve_read_all}
        return draft

    # -- the facts ---------------------------------------------------------------------------

    def _trip(self, ctx: Context) -> _Trip:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(sorted(HOMES))]
        employer = people.company(region)
        me = people.person(region, org=employer, title="Senior Consultant")
        manager = people.person(
            region, org=employer, title=rng.choice(MANAGER_TITLES), short_name=ctx.on("entity_alignment")
        )
        now = pick_now(rng, me.tz)
        home = me.city
        there = rng.choice([c for c in region.cities if c.name != home.name])
        nights = rng.randint(2, 3)
        starts = [now.date() - timedelta(days=k) for k in range(nights + 3, nights + 13)]
        first = rng.choice([d for d in starts if d.weekday() + nights <= 4])
        client = people.company(region)
        prefix = re.sub(r"[^A-Z]", "", ascii_fold(client.name).upper())[:3].ljust(3, "X")
        return _Trip(
            me,
            manager,
            client.name,
            f"{prefix}-{rng.randint(1000, 9999)}",
            home,
            there,
            first,
            first + timedelta(days=nights),
            now,
            float(rng.choice((40, 45, 50, 60))),
            rng.choice(TOPICS),
        )

    def _receipts(self, rng: random.Random, people: People, trip: _Trip, transport: str, cost: Cost) -> list[Receipt]:
        """What the trip cost: the hotel, the way there and back, a ride or two, a dinner over the cap and perhaps
        a lunch."""
        region, me = trip.region, trip.me
        root = rng.choice(COMPANY_ROOTS)
        hotel_name = rng.choice(HOTELS).format(root=root)
        rate = float(rng.randint(95, 185))
        amount = round(rate * trip.nights, 2)
        number = f"INV-{trip.last.year}-{rng.randint(1000, 9999)}"
        hotel = Receipt(
            "hotel",
            hotel_name,
            f"reservations@{slug(hotel_name)}.{region.tld}",
            trip.last,
            amount,
            number,
            f"Your invoice {number} from {hotel_name}",
        )
        hotel.body = self._invoice(hotel, trip, rate)
        carrier = rng.choice(CARRIERS[region.key])
        booked = at(trip.first - timedelta(days=rng.randint(12, 20)), rng.randint(9, 20), rng.randint(0, 50), me.tz)
        legs = []
        for when, origin, to in (
            (trip.first, trip.home.name, trip.there.name),
            (trip.last, trip.there.name, trip.home.name),
        ):
            price = cost(12900, 38900) if transport == "flight" else cost(3900, 14900)
            code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
            leg = Receipt(
                "travel",
                carrier,
                f"no-reply@{slug(carrier)}.{region.tld}",
                when,
                price,
                code,
                f"Your {transport} to {to} on {day(when, 'en', region, weekday=False)}",
            )
            leg.body = (
                f"Hello {me.given},\n\nthank you for travelling with {carrier}. Your e-ticket:\n\n"
                f"{origin} to {to}, departing {rng.randint(6, 18):02d}:{rng.choice((5, 12, 28, 41, 56)):02d}\n"
                f"Date: {_dated(when, region)}\nBooking reference: {code}\nPassenger: {me.name}\n"
                f"Total: {money(price, region)}\n\nHave a good trip!\n{carrier}"
            )
            # the way back was booked a few days later, once the last day's plans were settled
            leg.sent = booked + timedelta(days=3 * len(legs), minutes=rng.randint(0, 240) * len(legs))
            legs.append(leg)
        vendor = rng.choice(RIDES)
        days = [trip.first + timedelta(days=n) for n in range(trip.nights + 1)]
        rides = [self._ride(rng, trip, vendor, on, cost(1400, 3800), trip.there) for on in days]
        # A dinner each evening, two of them above the city's meal rate, and a lunch or two under it.
        dearer = set(rng.sample(range(trip.nights), 2))
        meals, names = [], set()
        for n in range(trip.nights):
            amount = trip.cap + cost(600, 4000) if n in dearer else trip.cap - cost(500, 2000)
            meals.append(self._meal(rng, trip, people, days[n], round(amount, 2), rng.randint(1, 3), 20, names))
        for n in sorted(rng.sample(range(trip.nights), rng.randint(1, 2))):
            lunch = round(trip.cap - cost(1200, 2500), 2)
            meals.append(self._meal(rng, trip, people, days[n], lunch, 1, 12, names))
        return [hotel, *legs, *rides, *meals]

    @staticmethod
    def _invoice(hotel: Receipt, trip: _Trip, rate: float, replaces: str = "") -> str:
        region = trip.region
        lines = [
            f"Dear {trip.me.name},",
            "",
            mails.wrap(
                f"we've applied your company's corporate rate, which was missed at check-out. This invoice replaces "
                f"invoice no. {replaces}; the difference has been refunded to your card."
            )
            if replaces
            else "thank you for staying with us. Please find your invoice below.",
            "",
            f"Invoice no. {hotel.ref}",
            f"Guest: {trip.me.name}",
            f"Check-in: {_dated(trip.first, region)}",
            f"Check-out: {_dated(trip.last, region)}",
            f"Room, {trip.nights} nights x {money(rate, region)}",
            f"Total: {money(hotel.amount, region)}",
            "Paid by card.",
            "",
            f"Kind regards,\n{hotel.vendor}",
        ]
        return "\n".join(lines)

    def _first_invoice(self, rng: random.Random, trip: _Trip, hotel: Receipt) -> Receipt:
        """The invoice at the standard rate; the one in `receipts` becomes its corrected replacement."""
        corporate = hotel.amount / trip.nights
        standard = round(corporate + rng.randint(15, 35), 2)
        first = Receipt(
            "hotel",
            hotel.vendor,
            hotel.sender,
            hotel.day,
            round(standard * trip.nights, 2),
            f"INV-{trip.last.year}-{rng.randint(1000, 9999)}",
            hotel.subject,
        )
        while first.ref == hotel.ref:
            first.ref = f"INV-{trip.last.year}-{rng.randint(1000, 9999)}"
        first.subject = f"Your invoice {first.ref} from {hotel.vendor}"
        first.body = self._invoice(first, trip, standard)
        hotel.subject = f"Corrected invoice {hotel.ref} from {hotel.vendor}"
        hotel.body = self._invoice(hotel, trip, corporate, replaces=first.ref)
        hotel.sent = at(trip.last + timedelta(days=rng.randint(1, 2)), 10, rng.randint(0, 59), trip.me.tz)
        first.sent = at(trip.last, 8, rng.randint(0, 45), trip.me.tz)  # at check-out
        return first

    def _ride(self, rng: random.Random, trip: _Trip, vendor: str, when: date, amount: float, city: City) -> Receipt:
        ref = f"RC-{rng.randint(100000, 999999)}"
        names = city.street_names
        a, b = rng.sample(names, 2) if len(names) > 1 else (names[0], "Central Station")
        r = Receipt(
            "ride",
            vendor,
            f"receipts@{slug(vendor)}.com",
            when,
            amount,
            ref,
            f"Your {WEEKDAYS[when.weekday()]} trip with {vendor}",
        )
        r.sent = at(when, rng.randint(8, 21), rng.randint(0, 59), trip.me.tz)
        r.body = (
            f"Thanks for riding, {trip.me.given}!\n\nDate: {_dated(when, trip.region)}, {r.sent:%H:%M}\n"
            f"{a} to {b}, {city.name}\nTotal: {money(amount, trip.region)}\nReceipt no. {ref}\n"
            f"Paid with Visa ending {rng.randint(1000, 9999)}"
        )
        r.sent += timedelta(minutes=rng.randint(18, 50))  # the receipt comes once the ride is over
        return r

    def _meal(
        self,
        rng: random.Random,
        trip: _Trip,
        people: People,
        when: date,
        amount: float,
        covers: int,
        hour: int,
        taken: set[str],
    ) -> Receipt:
        name = ""
        while not name or name in taken:  # no two restaurants of one name
            host = people.person(trip.region)
            name = rng.choice(EATERIES).format(given=host.given, family=host.family, root=rng.choice(COMPANY_ROOTS))
        taken.add(name)
        ref = f"R-{rng.randint(10000, 99999)}"
        r = Receipt("meal", name, f"receipts@{slug(name)}.{trip.region.tld}", when, amount, ref, f"Receipt from {name}")
        r.sent = at(when, hour, rng.randint(0, 59), trip.me.tz)
        r.body = (
            f"{name}\n{trip.region.street_address(rng, trip.there)}\n\nReceipt no. {ref}\n"
            f"Date: {_dated(when, trip.region)}, {r.sent:%H:%M}\nTable {rng.randint(2, 30)}, covers: {covers}\n"
            f"Total: {money(amount, trip.region)} (service included)\n\nThank you for dining with us!"
        )
        return r

    def _noise(self, rng: random.Random, trip: _Trip, ride: Receipt, meal: Receipt, cost: Cost) -> list[Receipt]:
        """A weekend ride at home before the trip, a meal's receipt sent again, souvenirs bought on the trip."""
        weekend = trip.first - timedelta(days=trip.first.weekday() + rng.choice((1, 2)))
        personal = self._ride(rng, trip, ride.vendor, weekend, cost(900, 2900), trip.home)
        resent = Receipt("meal", meal.vendor, meal.sender, meal.day, meal.amount, meal.ref, f"{meal.subject} (resent)")
        resent.body = "As requested, here is your receipt again.\n\n" + meal.body
        resent.sent = at(meal.day + timedelta(days=1), 9, rng.randint(0, 59), trip.me.tz)
        name = rng.choice(SHOPS).format(city=trip.there.name, root=rng.choice(COMPANY_ROOTS))
        ref = f"ORD-{rng.randint(10000, 99999)}"
        when = trip.first + timedelta(days=rng.randint(0, trip.nights))
        amount = cost(1800, 6500)
        shop = Receipt(
            "shop", name, f"orders@{slug(name)}.{trip.region.tld}", when, amount, ref, f"Your order at {name}"
        )
        shop.body = (
            f"Thank you for shopping at {name}!\n\nOrder no. {ref}\nDate: {_dated(when, trip.region)}\n"
            f"{rng.choice(SOUVENIRS)}\nTotal: {money(amount, trip.region)}\n\nSee you again soon."
        )
        return [personal, resent, shop]

    def _request(
        self, ctx: Context, draft: TaskDraft, trip: _Trip, contact: dict[str, Any]
    ) -> tuple[dict[str, Any], Person]:
        """The manager's mail asking for the claim; with entity_alignment from their personal address."""
        rng, me, manager = ctx.rng, trip.me, trip.manager
        writer, aside = manager, []
        if ctx.on("entity_alignment"):
            writer = ea.alias(draft, ctx.people, manager, where=[contact_path(contact)], verified_by=ea.UNVERIFIED)
            aside = [f"{rng.choice(ea.REASONS)} {rng.choice(ea.REDIRECTS)}"]
        asks = [
            f"Could you put your {trip.there.name} expenses on Expensely this week? Everything that's claimable, "
            "one report per receipt, the way the policy on there says."
        ]
        if not ctx.on("hidden_dependency"):
            asks.append(f"It all goes on project {trip.code} ({trip.client_name}).")
        asks.append(
            "Once it's all submitted, let me know the total so I can approve it in one go."
            if ctx.on("cross_tool_consistency")
            else "Let me know once it's all submitted so I can approve it in one go."
        )
        body = mails.letter(rng, writer, me, [*aside, *asks], full_signature=False)
        sent = min(
            at(workday(trip.last, 1), rng.randint(9, 17), rng.randint(0, 59), me.tz), trip.now - timedelta(hours=1)
        )
        request = mails.mail(rng, writer, [me], f"{trip.there.name} expenses", body, sent)
        draft.add_message("INBOX", request)
        if writer is not manager:
            draft.record(ea.NAME, {"items": [mail_path("INBOX", request)]})
        return request, writer

    @staticmethod
    def _away(ctx: Context, draft: TaskDraft, trip: _Trip) -> Person:
        """The manager is on leave from today: the first mail to their work address brings an automatic reply that
        names the colleague who approves claims meanwhile (the deputy, returned). Drawn last, and from a generator of
        its own, so that the rest of the draw stays as it was."""
        rng = random.Random(f"{trip.manager.email} away {trip.now.isoformat()}")
        people = ctx.people.drawing_with(rng)
        assert trip.me.org is not None
        title = rng.choice([t for t in MANAGER_TITLES if t != trip.manager.title])
        deputy = people.person(trip.region, org=trip.me.org, title=title)
        back = workday(trip.now.date(), rng.randint(7, 12))  # back on a working day, two weeks or so from now
        today, until = day(trip.now.date(), "en", trip.region), day(back, "en", trip.region)
        draft.autoreplies.append(
            mails.away_reply(rng, trip.manager, deputy, today, until, COVERED, trip.now, texts=COVER)
        )
        return deputy

    def _portal(
        self, ctx: Context, trip: _Trip, ride: Receipt, cost: Cost, outbound: Receipt, replaced: Receipt | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, dict[str, Any]]]:
        """The last trip's reports, approved; this trip's outward ticket, submitted the day it was booked and approved;
        the draft the user saved for this trip's ride; and (with a corrected invoice) the hotel, submitted at
        check-out with the invoice that was replaced since."""
        rng, region, tz = ctx.rng, trip.region, trip.me.tz
        before = trip.first - timedelta(days=rng.randint(30, 60))
        old = [
            ("Travel", rng.choice(CARRIERS[region.key]), cost(4900, 29900), f"BK{rng.randint(1000, 9999)}"),
            ("Lodging", rng.choice(HOTELS).format(root=rng.choice(COMPANY_ROOTS)), cost(18000, 36000), "invoice.pdf"),
            ("Meals", f"{rng.choice(COMPANY_ROOTS)} Kitchen", cost(1800, 3900), f"R-{rng.randint(10000, 99999)}"),
        ]
        if ctx.on("noisy_data"):
            old.append(("Transport", ride.vendor, cost(1200, 3200), f"RC-{rng.randint(100000, 999999)}"))
        first_id = rng.randrange(700, 980, 10) + rng.randint(1, 4)  # the draft's id looks like the others'
        reports = []
        for n, (category, merchant, amount, receipt) in enumerate(old):
            when = before + timedelta(days=min(n, 2))
            reports.append(
                {
                    "id": f"EXP-{first_id + n:04d}",
                    "date": when.isoformat(),
                    "merchant": merchant,
                    "category": category,
                    "amount": amount,
                    "currency": region.currency,
                    "description": f"Client visit, {trip.there.name}",  # they go there now and then
                    "receipt": receipt,
                    "status": "approved",
                    "submitted_at": at(when + timedelta(days=4), 17, rng.randint(0, 59), tz).isoformat(),
                }
            )
        purpose = f"{trip.code} {trip.client_name} {trip.topic}"
        assert outbound.sent is not None
        done = {
            "ticket": {
                "id": f"EXP-{first_id + len(old):04d}",
                "date": outbound.day.isoformat(),
                "merchant": outbound.vendor,
                "category": "Travel",
                "amount": outbound.amount,
                "currency": region.currency,
                "description": purpose,
                "receipt": outbound.ref,
                "status": "approved",  # approved within days, like the last trip's
                "submitted_at": (outbound.sent + timedelta(minutes=rng.randint(20, 90))).isoformat(),
            }
        }
        guess = float((int(ride.amount) // 5 + 1) * 5)
        started = {
            "id": f"EXP-{first_id + len(old) + 1:04d}",
            "date": ride.day.isoformat(),
            "merchant": ride.vendor,
            "category": "Travel",
            "amount": guess,
            "currency": region.currency,
            "status": "draft",
        }
        if replaced is not None:
            done["hotel"] = {
                "id": f"EXP-{first_id + len(old) + 2:04d}",
                "date": replaced.day.isoformat(),
                "merchant": replaced.vendor,
                "category": "Lodging",
                "amount": replaced.amount,
                "currency": region.currency,
                "description": purpose,
                "receipt": replaced.ref,
                "status": "submitted",
                "submitted_at": at(replaced.day, rng.randint(12, 14), rng.randint(0, 59), tz).isoformat(),
            }
        return [*reports, done["ticket"], started, *([done["hotel"]] if "hotel" in done else [])], started, done

    @staticmethod
    def _policy(trip: _Trip) -> str:
        return "\n\n".join(
            [
                "File one report per receipt within 30 days of the trip, and submit it: a draft is not seen by "
                "anyone. The receipt reference is the receipt, invoice or booking number printed on it.",
                "Date: the day of the expense; for a hotel, the day you checked out.",
                "Categories: hotels: Lodging. Trains, flights and coaches: Travel. Taxis, ride-hailing and public "
                "transport: Transport. Meals: Meals.",
                "Meals: up to the meal rate of the city you ate in, per meal, service included, as finance's rate "
                "sheet for the year lists it (a copy is in your Expenses folder). For a dearer meal, claim the rate "
                "and pay the rest yourself.",
                "Business purpose: the trip's project code, so the cost lands on the right budget.",
                "A submitted report can be edited until it is approved: correct it there rather than filing the "
                "expense again.",
                "Not reimbursed: personal purchases (gifts, souvenirs, toiletries), minibar and films, and anything "
                "outside the business trip.",
            ]
        )

    @staticmethod
    def _rate_sheets(draft: TaskDraft, rng: random.Random, trip: _Trip) -> tuple[str, str]:
        """Finance's meal rates per city, last year's and this year's: the trip's city at `trip.cap` this year."""
        year = trip.first.year
        cities = [c.name for c in trip.region.cities]
        rates = {c: float(rng.choice((30, 35, 40, 45, 50, 55, 60, 65))) for c in cities}
        rates[trip.there.name] = trip.cap
        while rates[trip.home.name] == trip.cap:
            rates[trip.home.name] = float(rng.choice((30, 35, 40, 45, 50, 55, 60, 65)))
        paths = []
        for when, change in ((year - 1, -5.0), (year, 0.0)):
            drift = {c: change if c == trip.there.name else rng.choice((0.0, change)) for c in cities}
            rows = [[c, f"{rates[c] + drift[c]:.2f}"] for c in sorted(cities)]
            path = f"Expenses/meal-rates-{when}.csv"
            draft.add_file(path, csv_text(["city", f"meal rate ({trip.region.currency})"], rows))
            paths.append(path)
        return paths[0], paths[1]

    def _claim(self, trip: _Trip, r: Receipt) -> dict[str, Any]:
        amount = min(r.amount, trip.cap) if r.kind == "meal" else r.amount
        # A stay is dated by its first night or by its invoice (the last day); no receipt gives a day between.
        dates = [trip.first.isoformat(), (trip.first + timedelta(days=trip.nights)).isoformat()]
        what = {
            "hotel": f"the hotel stay at {r.vendor} (invoice {r.ref})",
            "travel": f"the {r.vendor} ticket {r.ref} ({r.day.isoformat()})",
            "ride": f"the {r.vendor} ride ({r.ref})",
            "meal": f"the meal at {r.vendor} ({r.ref})",
        }[r.kind]
        return {
            "what": what,
            "receipt": _ref_pattern(r.ref),
            "amount": round(amount, 2),
            "dates": dates if r.kind == "hotel" else [r.day.isoformat()],
            "currency": trip.region.currency,
            "category": r.category,
            "merchant": re.escape(r.vendor),
            "description": rf"(?<![\w-]){re.escape(trip.code)}(?!\d)",
        }

    @staticmethod
    def _vendors(receipts: list[Receipt]) -> list[dict[str, Any]]:
        """Whom a careful person searches the mail for, with what each of them sells."""
        out: dict[str, dict[str, Any]] = {}
        for r in receipts:
            out.setdefault(r.sender, {"sender": r.sender, "vendor": r.vendor, "kind": r.kind, "category": r.category})
        return list(out.values())

    @staticmethod
    def _levers(
        ctx: Context,
        trip: _Trip,
        ride: Receipt,
        started: dict[str, Any],
        outbound: Receipt,
        hotel: Receipt,
        replaced: Receipt | None,
        over: list[Receipt],
        done: dict[str, dict[str, Any]],
        sheets: tuple[str, str],
        deputy: Person,
    ) -> dict[str, str]:
        """What each planted difficulty is and which rubric item grades it, for classifying a blind play."""
        region = trip.region
        out = {
            "ticket_not_again": f"D already done: the outward ticket {outbound.ref} was submitted as "
            f"{done['ticket']['id']} the day it was booked and is approved; its e-ticket is in the inbox like the "
            "return's, which is still to file",
            "draft_completed": f"D half done: the draft {started['id']} for the {ride.vendor} ride on "
            f"{ride.day.isoformat()} is completed and submitted, not filed again",
            "meal_capped": f"B one hop: the policy caps meals at the city's rate in finance's sheet ({sheets[1]}: "
            f"{trip.there.name} {money(trip.cap, region)}); last year's sheet ({sheets[0]}) and the home city's "
            "rate differ; " + ", ".join(f"{m.vendor} {money(m.amount, region)}" for m in over) + " are above it",
            "manager_told": f"R reaction: the first mail to {trip.manager.email} brings {trip.manager.name}'s "
            f"automatic reply: on leave, {deputy.name} ({deputy.email}) approves claims meanwhile; E identity: the "
            "request came from an address nothing vouches for; the answer goes to the address book's one",
            "business_purpose": "B one hop: the project code is not in the manager's request; the trip's calendar "
            "event gives it (and so do the trip's reports already on the portal)",
        }
        if replaced is not None:
            out["hotel_corrected"] = (
                f"D+C already done, then replaced: the hotel was submitted at check-out as {done['hotel']['id']} with "
                f"invoice {replaced.ref}; the corrected {hotel.ref} ({money(hotel.amount, region)}) came later, so "
                "that report is corrected, not filed again"
            )
        if not ctx.on("entity_alignment"):
            out["manager_told"] = out["manager_told"].split("; E identity")[0]
        if not ctx.on("hidden_dependency"):
            out.pop("business_purpose")
        return out

    # -- the rubric --------------------------------------------------------------------------

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        trip: _Trip,
        claims: list[dict[str, Any]],
        started: dict[str, Any],
        ride: Receipt,
        over: list[Receipt],
        hotel: Receipt,
        replaced: Receipt | None,
        wrong: dict[str, str],
        writer: Person,
        request: dict[str, Any],
        total: float,
        outbound: Receipt,
        done: dict[str, dict[str, Any]],
        rates: str,
        known: list[float],
        deputy: Person,
    ) -> None:
        region = trip.region
        listed = "; ".join(f"{c['what']}: {money(c['amount'], region)}" for c in claims)
        draft.check(
            Check(
                "claims_filed",
                f"Exactly {len(claims)} reports are filed and submitted, one per claimable receipt, at the amounts "
                f"the policy allows: {listed}",
                v.expense_claims,
                {"claims": claims, "fields": ["amount"], "wrong": wrong},
                weight=3,
                stage="collecting the receipts",
            )
        )
        draft.check(
            Check(
                "claim_details",
                "Each report has the expense's date, merchant and currency, and the category the policy gives "
                "(taxis under Transport)",
                v.expense_claims,
                {"claims": claims, "fields": ["date", "merchant", "category", "currency"], "complete": False},
                weight=2,
                stage="filling in the portal",
            )
        )
        draft.check(
            Check(
                "business_purpose",
                f"Each report's business purpose gives the trip's project code, {trip.code}",
                v.expense_claims,
                {"claims": claims, "fields": ["description"], "complete": False},
                weight=2,
                stage="finding the project code",
            )
        )
        cap = money(trip.cap, region)
        capped = [c for c in claims if c["receipt"] in {_ref_pattern(m.ref) for m in over}]
        draft.check(
            Check(
                "meal_capped",
                "The meals above "
                + trip.there.name
                + "'s meal rate in "
                + rates
                + f" ({cap}) are claimed at that rate: "
                + "; ".join(f"{m.vendor} ({money(m.amount, region)})" for m in over),
                v.expense_claims,
                {"claims": capped, "fields": ["amount"], "complete": False},
                weight=2,
                stage="applying the policy",
            )
        )
        ticket = done["ticket"]
        draft.check(
            Check(
                "ticket_not_again",
                f"The outward ticket {outbound.ref}, submitted as {ticket['id']} the day it was booked and approved "
                "since, is not filed again",
                v.not_refiled,
                {"receipts": {_ref_pattern(outbound.ref): f"already claimed as {ticket['id']}"}},
                weight=2,
                stage="checking what is on the portal already",
            )
        )
        if "hotel" in done:
            stay = done["hotel"]
            draft.check(
                Check(
                    "hotel_corrected",
                    f"The hotel's report {stay['id']}, submitted at check-out with the replaced invoice, now holds the "
                    f"corrected {hotel.ref} at {money(hotel.amount, region)} (or was withdrawn for a new one), so the "
                    "stay is not claimed twice",
                    v.report_corrected,
                    {
                        "report": stay["id"],
                        "receipt": _ref_pattern(hotel.ref),
                        "amount": hotel.amount,
                        "label": "the hotel stay",
                    },
                    weight=2,
                    stage="updating what was filed",
                )
            )
        draft.check(
            Check(
                "draft_completed",
                f"The draft {started['id']} for the {ride.vendor} ride was completed (receipt {ride.ref}, "
                f"{money(ride.amount, region)}) and submitted, not left behind or filed again",
                v.report_submitted,
                {
                    "report": started["id"],
                    "receipt": _ref_pattern(ride.ref),
                    "amount": ride.amount,
                    "label": "the ride",
                },
                weight=2,
                stage="updating the existing draft",
            )
        )
        if replaced is not None:
            hotel_claim = next(c for c in claims if c["receipt"] == _ref_pattern(hotel.ref))
            draft.check(
                Check(
                    "corrected_invoice",
                    f"The hotel is claimed by the corrected invoice {hotel.ref} ({money(hotel.amount, region)}), "
                    f"not by the replaced {replaced.ref} ({money(replaced.amount, region)})",
                    v.expense_claims,
                    {"claims": [hotel_claim], "fields": ["amount"], "complete": False},
                    weight=2,
                    stage="choosing the invoice that counts",
                )
            )
        # The answer goes to the address the world knows; one only the request vouches for is not it.
        manager = trip.manager.email
        unverified = writer.email if writer is not trip.manager else None
        wrong_address = {unverified: "an address only their own mail vouches for"} if unverified else {}
        ask = {"unverified": [unverified], "pattern": ea.ASK} if unverified else None
        draft.check(
            Check(
                "manager_told",
                f"The message answering the request reached {deputy.name} ({deputy.email}), once, and nobody else: "
                f"the automatic reply to the first mail, to {trip.manager.first}'s address {manager}, says "
                f"{deputy.first} approves claims while {trip.manager.first} is on leave (that one first mail, or a "
                "copy to it, is fine; a mail to it alone does not count)"
                + (f"; nothing to {unverified}, which nothing verifies (asking the user is fine)" if ask else ""),
                v.sent_once,
                {
                    "to": [deputy.email],
                    "label": deputy.display,
                    "in_reply_to": request["message_id"],
                    "subject": "expense|claim|" + re.escape(trip.there.name),
                    "wrong": wrong_address,
                    "ask": ask,
                    "tried": [manager],
                },
                weight=2,
                stage="telling the manager",
            )
        )
        allow = ["+web/expenses/reports/*", f"~web/expenses/reports/{started['id']}#*"]
        if "hotel" in done:
            allow.append(f"~web/expenses/reports/{done['hotel']['id']}#*")
        allow += ["+mail/outbox/*", "+mail/folders/Sent/*"]
        allow += [f"+mail/folders/INBOX/{r['message_id']}" for r in draft.autoreplies]  # the manager's away reply
        writes = ["file and submit a report per claimable receipt", "complete and submit the draft", "tell the manager"]
        if ctx.on("cross_tool_consistency"):
            draft.check(
                Check(
                    "total_in_mail",
                    f"The message to {manager} (the first one, or the one copied to it) gives the total submitted, "
                    f"{money(total, region)}",
                    v.message_says,
                    {"to": manager, "patterns": {"the total": amount_regex(total)}, "ask": ask},
                    weight=2,
                    stage="adding up",
                )
            )
            ctc.agree(
                draft,
                apps=["web", "mail"],
                rule="the total in the message is the sum of the reports submitted on the portal",
                items=["claims_filed", "total_in_mail"],
            )
        draft.check(
            Check(
                "message_right",
                f"Whatever the messages to {manager} and {deputy.email} say about the claim is right: any total is "
                f"{money(total, region)}, any other amount one of the trip's receipts or claims, what a category of "
                "the claims comes to, or the whole trip's with the approved ticket",
                v.message_says,
                {
                    "to": [manager, deputy.email],
                    "patterns": {},
                    "ask": ask,
                    "stated": {
                        # the whole trip with the ticket approved at booking is a true figure too, and so is
                        # what each category of the claims comes to
                        "amounts": sorted(
                            {
                                total,
                                round(total + outbound.amount, 2),
                                *(c["amount"] for c in claims),
                                *known,
                                *(
                                    round(sum(c["amount"] for c in claims if c["category"] == k), 2)
                                    for k in {c["category"] for c in claims}
                                ),
                            }
                        ),
                        "total": total,
                    },
                },
                critical=False,
                stage="telling the manager",
            )
        )
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.judges.append(
            Judge(
                "clear_message",
                "The message to the manager is short and clear",
                f"The message to {writer.first} (and on to {deputy.first}, whom their automatic reply names) says "
                f"the {trip.there.name} expenses are submitted on Expensely"
                + (f" and gives the total, {money(total, region)}" if ctx.on("cross_tool_consistency") else "")
                + ", without wrong or confusing details.",
                stage="telling the manager",
            )
        )

    def _goal(
        self,
        ctx: Context,
        trip: _Trip,
        counted: list[Receipt],
        claims: list[dict[str, Any]],
        ride: Receipt,
        started: dict[str, Any],
        replaced: Receipt | None,
        extra: list[Receipt],
        writer: Person,
        total: float,
        event_uid: str,
        outbound: Receipt,
        done: dict[str, dict[str, Any]],
        rates: str,
        deputy: Person,
    ) -> str:
        region = trip.region
        lines = [
            "# Goal",
            "",
            f"The {trip.there.name} trip ran {trip.first.isoformat()} to {trip.last.isoformat()} (`{event_uid}`), "
            f"project **{trip.code}**. The portal's policy: one report per receipt, taxis under Transport, meals "
            f"capped at the city's rate ({trip.there.name}: {money(trip.cap, region)} in `{rates}`; last year's "
            "sheet and the home city's rate do not apply), the project code as the business purpose, a submitted "
            "report corrected rather than filed again.",
            "",
            "Submitted reports on Expensely (each with its receipt reference and the project code):",
            "",
        ]
        for r, c in zip(counted, claims, strict=True):
            lines.append(
                f"- {c['dates'][-1] if r.kind == 'hotel' else r.day.isoformat()} {r.vendor} ({c['category']}): "
                f"{money(c['amount'], region)} [{r.ref}]"
                + (f" (the receipt says {money(r.amount, region)})" if c["amount"] != r.amount else "")
                + (f" (the draft `{started['id']}`, completed and submitted)" if r is ride else "")
                + (
                    f" (the report `{done['hotel']['id']}` submitted at check-out, corrected)"
                    if r.kind == "hotel" and "hotel" in done
                    else ""
                )
            )
        lines += [
            "",
            f"Already on the portal and left alone: `{done['ticket']['id']}`, the outward {outbound.vendor} ticket "
            f"{outbound.ref} ({money(outbound.amount, region)}), submitted the day it was booked and approved.",
        ]
        lines += ["", f"Total **{money(total, region)}**.", ""]
        if replaced is not None:
            lines.append(
                f"The hotel's first invoice {replaced.ref} ({money(replaced.amount, region)}) is replaced by the "
                f"corrected {counted[0].ref}."
            )
        if extra:
            lines.append(
                f"Not claimed: the {extra[0].vendor} ride on {extra[0].day.isoformat()} (personal, before the trip), "
                f"the resent copy of the {extra[1].vendor} receipt, the souvenirs from {extra[2].vendor}."
            )
        lines.append(
            f"One message to {trip.manager.email}, answering the request"
            + (f", giving the total {money(total, region)}" if ctx.on("cross_tool_consistency") else "")
            + f"; it brings an automatic reply: {trip.manager.first} is on leave and {deputy.name} ({deputy.email}) "
            f"approves claims meanwhile, so the message has to reach {deputy.first} too (resent, forwarded, or "
            "copied), and nobody else."
        )
        if writer is not trip.manager:
            lines.append(
                f"{writer.display} is {trip.manager.name} (the address book knows {trip.manager.email}). They ask "
                f"for replies to {writer.email}, but nothing in the world vouches for that address: the answer goes "
                "to the known one, or the agent sends none and asks the user in its final answer."
            )
        if ctx.on("hidden_dependency"):
            lines.append("The project code is only in the trip's calendar event.")
        lines += ["", "Reading mail marks it seen; nothing else changes."]
        return "\n".join(lines)
