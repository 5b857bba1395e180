"""invoice-filing (documents): file the new supplier invoices (downloaded or emailed) by the user's rules.

Early in the year, Downloads holds supplier invoices (PDF) next to quotes, tickets and other files, and
some suppliers sent their invoices by email instead. The user's filing rules (a note) say where an invoice
goes and how it is named (by its date, vendor and number, all of which are only inside the PDF), that each
year folder keeps an index, and that each filed invoice gets a "Pay ..." reminder in the Bills list, due on
the invoice's due date. Months of ordinary mail, calendar, contacts, files and reminders sit around it.

Levers on every task (written to the provenance): one invoice in Downloads is already filed and indexed
(it was downloaded again), and one emailed invoice was filed last month, so neither is filed, indexed or
reminded twice; both year folders already hold an index with earlier rows, which must be extended, not
replaced; one downloaded invoice is from December, so it goes to last year's folder and index; a
supplier's mail cancels a downloaded invoice and attaches the one that replaces it, and the user's open
reminder for the cancelled one is moved to the new one, not doubled or ticked off.

- hidden_dependency (core): the filing rules are a note, not a file next to the invoices.
- noisy_data: an invoice downloaded twice (an identical " (1)" copy), and a quote from the same
  vendor that looks like an invoice but is not one.
- tool_state_update (core): files moved, saved and deleted, two indexes extended, reminders added and one
  changed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.files import csv_text, pdf
from stageclaw.author.content.people import Org, Person, slug
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import price
from stageclaw.author.content.timeline import at
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import file_path, item_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import invoice_filing as solution

SERVICES = (
    ("Cloud hosting", 4000, 39000),
    ("Design retainer", 60000, 240000),
    ("Accounting services", 18000, 65000),
    ("Office cleaning", 9000, 26000),
    ("Software licences", 12000, 88000),
    ("Translation", 15000, 70000),
    ("Coworking desk", 18000, 42000),
    ("Legal advice", 25000, 120000),
    ("Photography", 30000, 95000),
    ("Copywriting", 20000, 80000),
    ("Courier services", 3000, 15000),
    ("IT support", 9000, 45000),
    ("Web analytics", 5000, 30000),
)
FOLDER = "Finance/Invoices"
BILLS = "Bills"
RULES = """# Filing rules (business)

These are for my suppliers' invoices, whether downloaded or sent to me by email as a PDF. Household bills
and shop receipts go to Documents as before.

- Invoices go to Finance/Invoices/<year>/ as "<invoice date> <vendor> <invoice no>.pdf",
  e.g. "2026-03-02 Kestrel Labs INV-2026-0412.pdf" (the date as YYYY-MM-DD, the year of the invoice date).
- Keep one copy of each invoice; delete duplicate downloads.
- If a supplier cancels an invoice and sends a new one instead, file only the new one and delete the
  cancelled copy.
- Each year folder has an index.csv with the columns date, vendor, invoice, amount (one row per invoice,
  the amount without currency sign).
- For each invoice, a reminder in my Bills list: "Pay <vendor> <invoice no>", due on the invoice's due
  date. I tick it off when I've paid.
- Quotes, tickets and everything else stay in Downloads.
"""
PROMPTS = (
    "Can you catch up on my invoice filing? There are new invoices in Downloads, and some suppliers emailed "
    "theirs. File them according to my filing rules, indexes and reminders included. Leave everything that "
    "isn't an invoice where it is.",
    "Please sort out the supplier invoices: the ones sitting in my Downloads and the ones that came in by email. "
    "Do it the way my filing rules say, with the index and the payment reminders. Only invoices, nothing else.",
)
SENT = (
    "Please find attached our invoice {number} for {service}.",
    "Attached is invoice {number} for {service}. Thank you for your business.",
    "Our invoice {number} for {service} is attached. Payment details are on the invoice.",
)
CORRECTION = (
    "Apologies: the invoice {old} we sent on {sent} had the wrong hours on it. Please disregard it; the "
    "attached invoice {new} replaces it.",
    "We issued {old} on {sent} with an error in the amount, so we have cancelled it. Please use the attached "
    "{new} instead and ignore the earlier one.",
)
OTHER_DOWNLOADS = (
    ("Downloads/boarding-pass.pdf", "Boarding pass", ["Passenger: {me}", "Seat 14C", "Gate closes 20 minutes before"]),
    ("Downloads/gym-timetable.pdf", "Winter timetable", ["Mon 07:00 Spin", "Wed 18:30 Yoga", "Sat 09:00 Circuits"]),
    ("Downloads/concert-ticket.pdf", "E-ticket", ["Admit one", "Row F, seat 22", "Doors 19:00"]),
)


@dataclass
class _Invoice:
    vendor: Org
    sender: Person | None  # who emails it from the vendor's accounts desk (only for emailed invoices)
    service: str
    number: str
    when: date
    due: date
    amount: float
    data: bytes = b""

    @property
    def name(self) -> str:
        return f"{self.when.isoformat()} {self.vendor.name} {self.number}.pdf"

    @property
    def target(self) -> str:
        return f"{FOLDER}/{self.when.year}/{self.name}"

    @property
    def sha(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def key(self) -> str:
        return slug(self.vendor.name).replace("-", "_")

    @property
    def row(self) -> list[Any]:
        return [self.when.isoformat(), self.amount, self.number]

    @property
    def title(self) -> str:
        return f"Pay {self.vendor.name} {self.number}"


def _vendor_rx(inv: _Invoice) -> str:
    return r"\s*".join(re.escape(w) for w in inv.vendor.name.split())


def _first_rx(inv: _Invoice) -> str:
    """The supplier's first word, which no other supplier's name starts with (how the user writes for themselves)."""
    return rf"\b{re.escape(inv.vendor.name.split()[0])}\b"


# The user's own reminders about a supplier's bill, in another list and in their own words.
OWN_DUPLICATE = (
    "Transfer {amount} to {first}",
    "{first} {service} - {amount}",
    "Bank transfer: {first}, {amount}",
)
OWN_STALE = (
    "Settle {first}'s {service} bill ({amount})",
    "{first}: {amount} for the {service}",
    "Money to {first} for the {service}, {amount}",
)


def _now(rng: Any, tz: str) -> datetime:
    """A Monday to Thursday morning from mid-January to late February 2026: last year's December is recent."""
    while True:
        d = date(2026, 1, 19) + timedelta(days=rng.randint(0, 38))
        if d.weekday() < 4:
            return at(d, rng.randint(8, 10), rng.choice((5, 12, 20, 34, 41, 50)), tz)


@register
class InvoiceFiling(Family):
    name = "invoice-filing"
    group = "documents"
    apps = ("files", "notes", "mail", "reminders")
    operators = ("hidden_dependency", "noisy_data", "tool_state_update")
    core = ("hidden_dependency", "tool_state_update")
    summary = "supplier invoices from Downloads and mail filed by the user's rules, indexes extended, pay reminders"

    def build(self, ctx: Context) -> TaskDraft:
        rng = ctx.rng
        region = REGIONS[rng.choice(ENGLISH)]
        me = ctx.people.person(region)
        now = _now(rng, me.tz)
        draft = TaskDraft(
            id="",
            title="File the new invoices from Downloads and mail by the filing rules, with indexes and reminders",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=120,
        )
        story = _Filing(ctx, draft, region, me, now)
        story.cast()
        life = Life(draft, rng, ctx.people, me, now, avoid=story.avoid(), months=5)
        background = life.fill(Scale(messages=170, series=6, events=70, contacts=60, files=40, notes=6, reminders=12))
        story.world()
        arrival_order(draft)
        story.rubric()
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, [*story.irrelevant, *background[:3]])
        draft.prompt = rng.choice(PROMPTS)
        year = now.year
        draft.summary = f"{len(story.new)} invoices to {FOLDER}/{year - 1}/ and {FOLDER}/{year}/, indexes, reminders"
        draft.hint = (
            "File the new supplier invoices (Downloads and email attachments) by the filing rules note: named by "
            "date, vendor and number from inside the PDF, in the year's folder, each index extended, a Pay "
            "reminder each in Bills; one download and one emailed invoice are already filed, one invoice is "
            "from last December, and a supplier's mail cancels a downloaded invoice (its reminder moves to the "
            "new one)."
        )
        draft.goal = story.goal()
        draft.solution = solution.solve
        draft.facts = {
            "rules_title": "Filing rules (business)",
            "pattern_words": "<invoice date> <vendor> <invoice no>",
            "folder": FOLDER,
            "bills": BILLS,
            "cancel_words": ["disregard", "cancelled", "ignore the earlier"],
        }
        draft.alternatives = {"terminal": solution.solve_terminal, "keep_the_copy": solution.solve_keep_the_copy}
        draft.provenance["levers"] = story.levers()
        return draft


class _Filing:
    """One task's invoices and the world around them."""

    def __init__(self, ctx: Context, draft: TaskDraft, region: Region, me: Person, now: datetime) -> None:
        self.ctx, self.draft, self.region, self.me, self.now = ctx, draft, region, me, now
        self.rng, self.people = ctx.rng, ctx.people
        self.irrelevant: list[str] = []
        self.duplicates: list[str] = []

    # -- who and what -------------------------------------------------------------------------------

    def _vendor(self) -> Org:
        """A supplier whose name starts with a word no other supplier's does."""
        for _ in range(200):
            vendor = self.people.company(self.region)
            word = vendor.name.split()[0]
            if word not in self.vendor_words and self.me.family not in vendor.name:
                self.vendor_words.add(word)
                return vendor
        raise ValueError("no supplier with a name of its own")

    def _sender(self, inv: _Invoice) -> Person:
        if inv.sender is None:
            title = self.rng.choice(("Accounts", "Billing", "Finance"))
            inv.sender = self.people.person(self.region, org=inv.vendor, title=title)
        return inv.sender

    def _invoice(self, service: tuple[str, int, int], when: date, vendor: Org | None = None) -> _Invoice:
        rng = self.rng
        vendor = vendor or self._vendor()
        number = f"INV-{when.year}-{rng.randint(1000, 9999)}"
        while number in self.numbers:
            number = f"INV-{when.year}-{rng.randint(1000, 9999)}"
        self.numbers.add(number)
        amount = price(rng, service[1], service[2], self.region)
        due = when + timedelta(days=rng.choice((14, 30)))
        inv = _Invoice(vendor, None, service[0], number, when, due, amount)
        cur, dec = self.region.currency, self.region.decimals
        inv.data = pdf(
            f"{vendor.legal} - Invoice",
            [
                f"From: {vendor.name}",
                f"{vendor.legal}, {vendor.address}",
                f"To: {self.me.name}",
                f"Invoice no. {number}",
                f"Invoice date: {when.isoformat()}",
                f"Due date: {due.isoformat()}",
                f"{service[0]}: {cur} {amount:,.{dec}f}",
                f"Total due: {cur} {amount:,.{dec}f}",
                f"Payment by the due date to the account on file, quoting {number}.",
            ],
        )
        return inv

    def cast(self) -> None:
        rng, now = self.rng, self.now.date()
        year = now.year
        self.numbers: set[str] = set()
        services = rng.sample(SERVICES, 12)
        self.vendor_words: set[str] = set()

        def day_in(first: date, last: date) -> date:
            return first + timedelta(days=rng.randint(0, max(0, (last - first).days)))

        jan = date(year, 1, 2)
        # Filed before: three of last year's (one came by email), two of this year's.
        self.old_last = [
            self._invoice(services[i], day_in(date(year - 1, 10, 1), date(year - 1, 12, 5))) for i in range(3)
        ]
        self.old_last.sort(key=lambda i: i.when)
        early = now - timedelta(days=12)
        self.emailed_filed = self._invoice(services[3], day_in(jan, early - timedelta(days=3)))
        self.again = self._invoice(services[4], day_in(jan, early))  # filed, and downloaded a second time
        # New: three downloads of this year, one of last December, two emailed, and a cancelled download with
        # the invoice that replaces it (emailed).
        recent = now - timedelta(days=2)
        self.downloads = [self._invoice(services[5 + i], day_in(early, recent)) for i in range(3)]
        self.december = self._invoice(services[8], day_in(date(year - 1, 12, 8), date(year - 1, 12, 23)))
        self.emailed = [self._invoice(services[9 + i], day_in(early, recent)) for i in range(2)]
        cancelled_on = day_in(early - timedelta(days=6), now - timedelta(days=6))
        self.cancelled = self._invoice(services[11], cancelled_on)
        self.replacement = self._invoice(
            services[11], day_in(cancelled_on + timedelta(days=2), recent), vendor=self.cancelled.vendor
        )
        for inv in (self.old_last[1], self.emailed_filed, *self.emailed, self.cancelled):
            self._sender(inv)
        self.replacement.sender = self.cancelled.sender

    @property
    def new(self) -> list[_Invoice]:
        return [*self.downloads, self.december, *self.emailed, self.replacement]

    @property
    def every(self) -> list[_Invoice]:
        return [*self.old_last, self.emailed_filed, self.again, *self.new, self.cancelled]

    def avoid(self) -> Avoid:
        senders = [i.sender for i in self.every if i.sender is not None]
        return Avoid(
            people=[s.name for s in senders],
            words=[i.vendor.name for i in self.every]
            + [i.vendor.name.split()[0] for i in self.every]
            + ["INV-", "invoice", "Invoice"],
            addresses=[s.email for s in senders],
            paths=["Finance", "Downloads"],
            amounts=[i.amount for i in self.every],
        )

    # -- the world ------------------------------------------------------------------------------------

    def _mail(self, inv: _Invoice, paragraph: str, when: datetime, folder: str = "INBOX") -> dict[str, Any]:
        rng = self.rng
        sender = self._sender(inv)
        body = mails.letter(rng, sender, self.me, [paragraph], register=mails.WORK)
        name = f"{inv.number}.pdf"
        message = mails.mail(
            rng,
            sender,
            [self.me],
            rng.choice(
                (
                    f"Invoice {inv.number}",
                    f"{inv.vendor.name}: invoice {inv.number}",
                    f"Your invoice from {inv.vendor.name}",
                )
            ),
            body,
            when,
            flags=["\\Seen"],
            attachments=[{"filename": name, "path": self.draft.add_asset(name, inv.data)}],
        )
        self.draft.add_message(folder, message)
        return message

    def _sent_at(self, inv: _Invoice) -> datetime:
        return at(inv.when, self.rng.randint(8, 17), self.rng.randint(0, 59), self.me.tz)

    def _reminder(self, inv: _Invoice, paid: bool) -> dict[str, Any]:
        todo: dict[str, Any] = {"uid": self.draft.uid("r", inv.title), "title": inv.title, "due": inv.due.isoformat()}
        if paid:
            done = at(inv.due - timedelta(days=self.rng.randint(1, 5)), 19, self.rng.randint(0, 59), self.me.tz)
            todo |= {"completed": True, "completed_at": min(done, self.now - timedelta(hours=20)).isoformat()}
        self.draft.add_reminder(BILLS, todo)
        return todo

    def _own(self, inv: _Invoice, lst: str, words: tuple[str, ...], due: date) -> dict[str, Any]:
        """A reminder the user wrote for themselves about paying `inv`: its supplier's first word and its amount,
        in `lst` (not Bills), no invoice number."""
        title = self.rng.choice(words).format(
            first=inv.vendor.name.split()[0],
            service=inv.service.lower(),
            amount=f"{inv.amount:,.{self.region.decimals}f}",
        )
        todo = {
            "uid": self.draft.uid("r", f"{lst} {inv.vendor.name}"),
            "title": title,
            "due": due.isoformat(),
        }
        self.draft.add_reminder(lst, todo)
        return todo

    def _own_reminders(self) -> None:
        """Two of the user's own reminders to pay a new invoice, outside Bills: one when the first emailed invoice
        came (same amount and day: filing it would double it), one in December for the December invoice, on the
        day they expected to pay rather than the due date the invoice gives (stale)."""
        mailed, dec = self.emailed[0], self.december
        self.own_mailed = self._own(mailed, "Work", OWN_DUPLICATE, mailed.due)
        self.own_mailed_list = "Work"
        guessed = dec.when + timedelta(days=30 if (dec.due - dec.when).days == 14 else 14)
        self.own_december = self._own(dec, "Reminders", OWN_STALE, guessed)
        self.own_december_list = "Reminders"

    def world(self) -> None:
        draft, rng, me, year = self.draft, self.rng, self.me, self.now.year
        # What was filed before, with both indexes and the reminders (paid ones ticked off).
        for y, filed in ((year - 1, self.old_last), (year, [self.emailed_filed, self.again])):
            for inv in filed:
                draft.add_file(inv.target, inv.data)
            rows = [
                [i.when.isoformat(), i.vendor.name, i.number, f"{i.amount:.{self.region.decimals}f}"] for i in filed
            ]
            draft.add_file(f"{FOLDER}/{y}/index.csv", csv_text(["date", "vendor", "invoice", "amount"], sorted(rows)))
        for inv in self.old_last:
            self._reminder(inv, paid=True)
        self._reminder(self.emailed_filed, paid=True)
        self.again_todo = self._reminder(self.again, paid=False)
        self.stale = self._reminder(self.cancelled, paid=False)  # made when the cancelled invoice came
        self._own_reminders()

        # Mail: last year's emailed one (archived), this year's filed one, two new ones, the correction.
        self._mail(
            self.old_last[1],
            rng.choice(SENT).format(number=self.old_last[1].number, service=self.old_last[1].service.lower()),
            self._sent_at(self.old_last[1]),
            folder="Archive",
        )
        self.filed_mail = self._mail(
            self.emailed_filed,
            rng.choice(SENT).format(number=self.emailed_filed.number, service=self.emailed_filed.service.lower()),
            self._sent_at(self.emailed_filed),
        )
        self.new_mails = [
            self._mail(i, rng.choice(SENT).format(number=i.number, service=i.service.lower()), self._sent_at(i))
            for i in self.emailed
        ]
        r, c = self.replacement, self.cancelled
        self.correction = self._mail(
            r,
            rng.choice(CORRECTION).format(old=c.number, new=r.number, sent=c.when.strftime("%-d %B")),
            self._sent_at(r),
        )
        self.correction["subject"] = rng.choice(
            (f"Corrected invoice {r.number}", f"{r.vendor.name}: corrected invoice", f"Invoice {r.number}")
        )

        # Downloads: the new invoices, the one filed before, the cancelled one, the rest of a Downloads folder.
        names: dict[str, str] = {}

        def download(inv: _Invoice) -> str:
            stem = rng.choice(("invoice", "Invoice", slug(inv.vendor.name), f"{slug(inv.vendor.name)}-invoice"))
            path = f"Downloads/{stem}-{inv.number.split('-')[-1]}.pdf"
            draft.add_file(path, inv.data)
            names[inv.number] = path
            return path

        for inv in [*self.downloads, self.december, self.again, self.cancelled]:
            download(inv)
        self.paths = names
        for path, title, lines in OTHER_DOWNLOADS:
            draft.add_file(path, pdf(title, [line.format(me=me.name) for line in lines]))
        draft.add_file("Downloads/sourdough.txt", "Starter: 100 g flour, 100 g water, feed daily.\nBake at 240 C.\n")
        if self.ctx.on("noisy_data"):
            first = self.downloads[0]
            copy = names[first.number].replace(".pdf", " (1).pdf")
            draft.add_file(copy, first.data)
            self.duplicates.append(copy)
            quote_no = f"Q-{year}-{first.number.split('-')[-1][::-1]}"
            quote = pdf(
                f"{first.vendor.legal} - Quote",
                [
                    f"From: {first.vendor.name}",
                    f"To: {me.name}",
                    f"Quote no. {quote_no}",
                    f"Valid until: {(first.when + timedelta(days=30)).isoformat()}",
                    f"Total: {self.region.currency} {first.amount * 1.4:,.{self.region.decimals}f}",
                ],
            )
            quote_path = f"Downloads/quote-{slug(first.vendor.name)}-{quote_no.split('-')[-1]}.pdf"
            draft.add_file(quote_path, quote)
            nd.twin(draft, file_path(names[first.number]), {}, file_path(copy), {})
            self.irrelevant += [file_path(quote_path), "files/Downloads/boarding-pass.pdf"]

        note = {
            "uid": draft.uid("n", "filing rules"),
            "title": "Filing rules (business)",
            "body": RULES,
            "tags": ["admin"],
        }
        draft.add_note("Notes", note)
        hd.move_fact(
            draft,
            fact="where invoices go, how they are named, the index and the pay reminders",
            item=item_path("notes", "Notes", note),
            instead_of="the Finance folder",
        )

    # -- the rubric -------------------------------------------------------------------------------------

    def rubric(self) -> None:
        draft, year = self.draft, self.now.year
        for inv in self.new:
            where = self.paths.get(inv.number) or "an email attachment"
            draft.check(
                Check(
                    f"filed_{inv.key}",
                    f"The {inv.vendor.name} invoice {inv.number} ({where}) is filed as {inv.target}",
                    v.file_at,
                    {"path": inv.target, "sha256": inv.sha, "label": f"invoice {inv.number}"},
                    weight=2,
                    stage="reading each invoice",
                )
            )
        this_year = [self.emailed_filed, self.again, *[i for i in self.new if i.when.year == year]]
        last_year = [*self.old_last, self.december]
        for y, filed, label in ((year, this_year, "this_year"), (year - 1, last_year, "last_year")):
            draft.check(
                Check(
                    f"only_invoices_{label}",
                    f"{FOLDER}/{y} holds its invoices, each once, and the index, nothing else",
                    v.files_in,
                    {
                        "folder": f"{FOLDER}/{y}",
                        "expected": {i.target: i.sha for i in filed},
                        "extra": [f"{FOLDER}/{y}/index.csv"],
                    },
                    stage="filing",
                )
            )
            rows = sorted(i.row for i in filed)
            draft.check(
                Check(
                    f"index_{label}",
                    f"{FOLDER}/{y}/index.csv lists every invoice of {y} once (the earlier rows kept, the new added)",
                    v.csv_rows,
                    {
                        "path": f"{FOLDER}/{y}/index.csv",
                        "date_column": "date",
                        "amount_column": "amount",
                        "ref_column": "invoice",
                        "rows": rows,
                        "total": round(sum(r[1] for r in rows), 2),
                    },
                    weight=2,
                    stage="writing the index",
                )
            )
        gone = [self.paths[i.number] for i in [*self.downloads, self.december, self.again, self.cancelled]]
        gone += self.duplicates
        draft.check(
            Check(
                "downloads_cleared",
                "No invoice is left in Downloads: the filed ones moved, the one filed before, the cancelled one"
                + (" and the duplicate download" if self.duplicates else "")
                + " deleted",
                v.files_gone,
                {"paths": gone},
                stage="filing",
            )
        )
        kept = [p for p in self.draft.files if p.startswith("Downloads/") and p not in gone]
        draft.check(
            Check(
                "rest_kept",
                "Everything in Downloads that is not an invoice is still there",
                v.files_kept,
                {"paths": sorted(kept), "label": "what is not an invoice"},
                stage="filing",
            )
        )
        own = {
            self.emailed[0].number: (self.own_mailed, self.own_mailed_list, "is not doubled: it becomes this one"),
            self.december.number: (self.own_december, self.own_december_list, "with the wrong day becomes this one"),
        }
        for inv in self.new:
            stale = self.stale["uid"] if inv is self.replacement else None
            mine = own.get(inv.number)
            if mine is not None:
                stale = mine[0]["uid"]
            draft.check(
                Check(
                    f"remind_{inv.key}",
                    f"One open reminder in {BILLS} to pay {inv.vendor.name} {inv.number}, due {inv.due.isoformat()}"
                    + (
                        f" (the reminder for the cancelled {self.cancelled.number} moved to it)"
                        if inv is self.replacement
                        else ""
                    )
                    + (
                        f" (the user's own reminder '{mine[0]['title']}' in {mine[1]}, due {mine[0]['due']}, "
                        f"{mine[2]}: changed and moved to {BILLS}, or deleted and made anew)"
                        if mine
                        else ""
                    ),
                    v.one_reminder,
                    {
                        "pattern": _first_rx(inv) if mine else _vendor_rx(inv),
                        "lst": BILLS,
                        "due": inv.due.isoformat(),
                        "label": f"{inv.vendor.name} invoice",
                        "says": re.escape(inv.number),
                        **({"stale": stale} if stale else {}),
                    },
                    stage="payment reminders",
                )
            )
        draft.check(
            Check(
                f"remind_{self.again.key}_once",
                f"The open reminder to pay {self.again.vendor.name} {self.again.number} (filed before) is not doubled",
                v.one_reminder,
                {
                    "pattern": _vendor_rx(self.again),
                    "lst": BILLS,
                    "due": self.again.due.isoformat(),
                    "label": f"{self.again.vendor.name} invoice",
                    "says": re.escape(self.again.number),
                    "stale": self.again_todo["uid"],
                },
                stage="payment reminders",
            )
        )
        draft.check(
            Check(
                f"remind_{self.emailed_filed.key}_paid",
                f"No new reminder to pay {self.emailed_filed.vendor.name} {self.emailed_filed.number} (filed and "
                "paid before)",
                v.no_new_items,
                {
                    "app": "reminders",
                    "pattern": _vendor_rx(self.emailed_filed),
                    "label": f"the paid {self.emailed_filed.vendor.name} invoice",
                },
                stage="payment reminders",
            )
        )
        allow = [f"+files/{FOLDER}/{year}/*", f"+files/{FOLDER}/{year - 1}/*"]
        allow += [f"~files/{FOLDER}/{y}/index.csv" for y in (year, year - 1)]
        allow += [f"-files/{p}" for p in gone]
        allow += [f"+reminders/{BILLS}/*", f"~reminders/{BILLS}/{self.stale['uid']}#*"]
        allow += [f"-reminders/{BILLS}/{self.stale['uid']}"]
        for todo, lst in ((self.own_mailed, self.own_mailed_list), (self.own_december, self.own_december_list)):
            allow += [f"~reminders/{lst}/{todo['uid']}#*", f"-reminders/{lst}/{todo['uid']}"]
        writes = [
            "move and rename each downloaded invoice",
            "save each emailed invoice",
            "delete the downloads filed before or cancelled",
            "extend both indexes",
            "add a pay reminder for each, move the cancelled one's and the user's own two to Bills",
        ]
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags", "~mail/folders/Archive/*#flags")

    def goal(self) -> str:
        year = self.now.year
        c, r = self.cancelled, self.replacement
        lines = [
            "# Goal",
            "",
            "The new supplier invoices (date, vendor, number and due date only inside each PDF) are filed as:",
            "",
            *(
                f"- `{i.target}` (from `{self.paths.get(i.number, 'the mail attachment')}`), a reminder "
                f"'{i.title}' due {i.due.isoformat()} in {BILLS}"
                for i in self.new
            ),
            "",
            f"`{FOLDER}/{year}/index.csv` and `{FOLDER}/{year - 1}/index.csv` keep their rows and gain one per new "
            f"invoice of their year ({self.december.number} is from December {year - 1}).",
            f"{self.again.number} ({self.paths[self.again.number]}) was already filed and indexed, with an open "
            f"reminder: the download is deleted, nothing is added. {self.emailed_filed.number} (emailed) was filed "
            "and paid: nothing is added.",
            f"{r.vendor.name}'s mail cancels {c.number} ({self.paths[c.number]}) for {r.number}: the download is "
            f"deleted, {r.number} is filed, and the open reminder '{c.title}' now stands for {r.number}, due "
            f"{r.due.isoformat()} (changed, or replaced by a new one; not ticked off).",
        ]
        for inv, todo, lst in (
            (self.emailed[0], self.own_mailed, self.own_mailed_list),
            (self.december, self.own_december, self.own_december_list),
        ):
            lines.append(
                f"The user's own reminder '{todo['title']}' ({lst}, due {todo['due']}) is about {inv.number}: it "
                f"becomes '{inv.title}' in {BILLS} due {inv.due.isoformat()} (changed and moved, or deleted and "
                "made anew); it is not left beside the Bills one, nor ticked off."
            )
        if self.duplicates:
            lines.append("The duplicate download " + ", ".join(f"`{d}`" for d in self.duplicates) + " is deleted.")
        lines += ["Everything that is not an invoice stays in Downloads.", "", "Nothing else changes."]
        return "\n".join(lines)

    def levers(self) -> list[str]:
        year = self.now.year
        c, r, d = self.cancelled, self.replacement, self.december
        return [
            f"only_invoices_this_year, index_this_year, downloads_cleared, remind_{self.again.key}_once: D already "
            f"done: {self.again.number} in Downloads was filed and indexed before and has its open reminder; "
            "filing, indexing or reminding it again fails",
            f"only_invoices_this_year, index_this_year, remind_{self.emailed_filed.key}_paid: D already done: the "
            f"emailed {self.emailed_filed.number} is filed, indexed and its reminder ticked off (paid)",
            "index_this_year, index_last_year: D already done: both indexes hold earlier rows; writing a fresh "
            "index loses them",
            f"filed_{d.key}, index_last_year, only_invoices_last_year: A rule from inside the PDF: {d.number} is "
            f"dated December {year - 1}, so it goes to {year - 1}'s folder and index",
            f"filed_{r.key}, downloads_cleared, only_invoices_this_year, index_this_year: H one hop away: "
            f"{r.vendor.name}'s mail says {c.number} (in Downloads, looks valid) is cancelled and attaches {r.number}",
            f"remind_{r.key}: D half done: the open reminder '{c.title}' must now stand for {r.number} (due "
            f"{r.due.isoformat()}), not doubled or ticked off",
            *(
                f"filed_{i.key}, remind_{i.key}: H one hop away: {i.number} came only as an email attachment"
                for i in self.emailed
            ),
            f"remind_{self.emailed[0].key}: L latent in another list: the user's own '{self.own_mailed['title']}' "
            f"in {self.own_mailed_list} (due {self.own_mailed['due']}, same amount, no invoice number) is this "
            f"emailed invoice's payment; a Bills reminder beside it doubles it",
            f"remind_{d.key}: L latent and stale: the user's own '{self.own_december['title']}' in "
            f"{self.own_december_list}, due {self.own_december['due']} (a guess made in December), is the December "
            f"invoice's payment; the invoice says due {d.due.isoformat()}; left beside a Bills reminder it stays at "
            "the wrong day",
        ]
