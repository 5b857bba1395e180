"""invoice-filing (documents): file the invoices in Downloads by the user's rules and write an index.

Downloads holds invoices (PDF) from several vendors next to quotes, tickets and other files. The
user's filing rules say where an invoice goes and how it is named (by its date, vendor and number,
all of which are only inside the PDF). The agent files each invoice once, leaves everything else
where it is and writes the year's index CSV.

- hidden_dependency (core): the filing rules are a note, not a file next to the invoices.
- noisy_data: an invoice downloaded twice (an identical " (1)" copy), and a quote from the same
  vendor that looks like an invoice but is not one.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

from stageclaw.author import verifylib as v
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import slug
from stageclaw.author.content.places import ENGLISH, REGIONS
from stageclaw.author.content.text import price
from stageclaw.author.content.timeline import pick_now
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
)
FOLDER = "Finance/Invoices"
RULES = """# Filing rules

- Invoices go to Finance/Invoices/<year>/ as "<invoice date> <vendor> <invoice no>.pdf",
  e.g. "2026-03-02 Kestrel Labs INV-2026-0412.pdf" (the date as YYYY-MM-DD).
- Keep one copy of each invoice; delete duplicate downloads.
- Each year folder has an index.csv with the columns date, vendor, invoice, amount (one row per invoice,
  the amount without currency sign).
- Quotes, tickets and everything else stay in Downloads.
"""
PROMPTS = (
    "My Downloads folder is a mess. Can you file the invoices in there according to my filing rules, index "
    "included? Leave everything that isn't an invoice where it is.",
    "Please sort the invoices out of my Downloads and file them the way my filing rules say, with the index for "
    "the year. Only invoices, nothing else.",
)


@register
class InvoiceFiling(Family):
    name = "invoice-filing"
    group = "documents"
    apps = ("files", "notes")
    operators = ("hidden_dependency", "noisy_data", "tool_state_update")
    core = ("hidden_dependency", "tool_state_update")
    summary = "invoices in Downloads filed by the user's naming rules (data from inside the PDFs), with an index"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(ENGLISH)]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        draft = TaskDraft(
            id="",
            title="File the invoices from Downloads by the filing rules",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=60,
        )
        earliest = max(now.date() - timedelta(days=45), date(now.year, 1, 1))
        invoices = []
        for service, low, high in rng.sample(SERVICES, rng.randint(3, 4)):
            vendor = people.company(region)
            when = earliest + timedelta(days=rng.randint(0, (now.date() - earliest).days - 1))
            number = f"INV-{when.year}-{rng.randint(1000, 9999)}"
            while any(number.split("-")[-1] in path for path in draft.files):
                number = f"INV-{when.year}-{rng.randint(1000, 9999)}"
            amount = price(rng, low, high, region)
            lines = [
                f"From: {vendor.name}",
                f"{vendor.legal}, {vendor.address}",
                f"To: {me.name}",
                f"Invoice no. {number}",
                f"Invoice date: {when.isoformat()}",
                f"{service}: {region.currency} {amount:,.{region.decimals}f}",
                f"Total due: {region.currency} {amount:,.{region.decimals}f}",
                f"Payment within 30 days to the account on file, quoting {number}.",
            ]
            data = pdf(f"{vendor.legal} - Invoice", lines)
            download = f"Downloads/{rng.choice(('invoice', 'Invoice', slug(vendor.name)))}-{number.split('-')[-1]}.pdf"
            draft.add_file(download, data)
            invoices.append((vendor, when, number, amount, data, download))

        # What is not an invoice stays: a ticket, a recipe, and (with noise) a quote and a duplicate.
        draft.add_file("Downloads/boarding-pass.pdf", pdf("Boarding pass", [f"Passenger: {me.name}", "Seat 14C"]))
        draft.add_file("Downloads/sourdough.txt", "Starter: 100 g flour, 100 g water, feed daily.\nBake at 240 C.\n")
        duplicates = []
        if ctx.on("noisy_data"):
            vendor, when, number, amount, data, download = invoices[0]
            copy = download.replace(".pdf", " (1).pdf")
            draft.add_file(copy, data)
            duplicates.append(copy)
            quote_no = f"Q-{when.year}-{number.split('-')[-1][::-1]}"
            quote = pdf(
                f"{vendor.legal} - Quote",
                [
                    f"From: {vendor.name}",
                    f"To: {me.name}",
                    f"Quote no. {quote_no}",
                    f"Valid until: {(when + timedelta(days=30)).isoformat()}",
                    f"Total: {region.currency} {amount * 1.4:,.{region.decimals}f}",
                ],
            )
            quote_path = f"Downloads/quote-{slug(vendor.name)}-{quote_no.split('-')[-1]}.pdf"
            draft.add_file(quote_path, quote)
            nd.twin(draft, file_path(download), {}, file_path(copy), {})
            nd.irrelevant(draft, [file_path(quote_path), "files/Downloads/boarding-pass.pdf"])

        note = {"uid": draft.uid("n", "filing rules"), "title": "Filing rules", "body": RULES, "tags": ["admin"]}
        draft.add_note("Notes", note)
        hd.move_fact(
            draft,
            fact="where invoices go and how they are named",
            item=item_path("notes", "Notes", note),
            instead_of="the Finance folder",
        )
        bg = Background(draft, rng, people, me, now, "en")
        bg.notes(2, "Notes")

        year = invoices[0][1].year
        expected = {
            f"{FOLDER}/{w.year}/{w.isoformat()} {vnd.name} {n}.pdf": hashlib.sha256(d).hexdigest()
            for vnd, w, n, _, d, _ in invoices
        }
        draft.prompt = rng.choice(PROMPTS)
        draft.summary = f"{len(invoices)} invoices to {FOLDER}/{year}/"
        draft.hint = (
            f"Downloads holds {len(invoices)} invoices ({', '.join(inv[0].name for inv in invoices)}) among other "
            "files; the user's filing rules (a note) name each invoice by its date, vendor and number, found only "
            "inside the PDF"
            + ("; one invoice was downloaded twice and a quote looks like an invoice" if duplicates else "")
            + "; file each once and leave the rest."
        )
        for n, ((vnd, _, number, _, data, download), path) in enumerate(zip(invoices, expected, strict=True), 1):
            draft.check(
                Check(
                    f"invoice_{n}",
                    f"The {vnd.name} invoice ({download}) is filed as {path}",
                    v.file_at,
                    {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "label": f"invoice {number}"},
                    weight=2,
                    stage="reading each invoice",
                )
            )
        draft.check(
            Check(
                "only_invoices",
                f"{FOLDER}/{year} holds the invoices and the index, nothing else",
                v.files_in,
                {"folder": f"{FOLDER}/{year}", "expected": expected, "extra": [f"{FOLDER}/{year}/index.csv"]},
                stage="filing",
            )
        )
        draft.check(
            Check(
                "downloads_cleared",
                "No invoice is left in Downloads" + (" (the duplicate download is deleted)" if duplicates else ""),
                v.files_gone,
                {"paths": [inv[5] for inv in invoices] + duplicates},
                stage="filing",
            )
        )
        allow = [f"+files/{FOLDER}/{year}/*"] + [f"-files/{p}" for p in [inv[5] for inv in invoices] + duplicates]
        writes = ["move and rename each invoice"] + (["delete the duplicate download"] if duplicates else [])
        rows = [[w.isoformat(), amount, number] for _, w, number, amount, _, _ in invoices]
        draft.check(
            Check(
                "index",
                "The year's index.csv lists every filed invoice with its date, number and amount",
                v.csv_rows,
                {
                    "path": f"{FOLDER}/{year}/index.csv",
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
        writes.append("write the index")
        tsu.require(draft, writes, *allow)
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                "The invoices in Downloads (date, vendor and number are only inside each PDF) are filed as:",
                "",
                *(f"- `{p}` (from `{inv[5]}`)" for p, inv in zip(expected, invoices, strict=True)),
                "",
                (
                    "The duplicate download "
                    + ", ".join(f"`{d}`" for d in duplicates)
                    + " is deleted; the quote stays. "
                    if duplicates
                    else ""
                )
                + "Everything that is not an invoice stays in Downloads."
                + f" `{FOLDER}/{year}/index.csv` lists date, vendor, invoice and amount of each.",
                "",
                "Nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        draft.facts = {
            "rules_title": "Filing rules",
            "pattern_words": "<invoice date> <vendor> <invoice no>",
            "folder": FOLDER,
        }
        draft.alternatives = {"terminal": solution.solve_terminal, "keep_the_copy": solution.solve_keep_the_copy}
        return draft
