"""document-request (communication): an advisor asks for a document; send the version that counts.

The advisor (tax advisor, mortgage broker, financial adviser) asks by mail for a document the
user received from an issuer (property manager, payroll, pension fund) and mentions a new
office line. The agent sends the document, updates the advisor's contact and ticks off the
reminder to send it.

- entity_alignment: the advisor's practice merged; they write from the new firm's domain under
  the short name they sign with, while the address book has their full name and old address. A
  mail from the old address announced the new one, so the world vouches for it.
- cross_source_conflict: the issuer sent a correction that voids the first version; both
  downloads sit side by side with near-identical names.
- hidden_dependency: the issuer's mails carry no attachment (the documents are on a portal);
  the files are only in the user's Downloads.
- noisy_data: last year's document next to this year's, a namesake in the address book, and a
  second reminder about the same document that is a different job.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import COMPANY_ROOTS, Person, slug
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import MONTHS, day, money, price
from stageclaw.author.content.timeline import local, pick_now
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import document_request as solution


@dataclass(frozen=True)
class Kind:
    """One kind of document: who asks for it, who issues it, what goes wrong in the first version."""

    key: str
    advisor: str  # their role, in the user's words
    advisor_title: str
    trade: str  # the practice's trade, in its name
    purpose: str
    document: str  # '{year}' and '{month}' are filled in
    stem: str
    issuer: str  # '{root}' is filled in
    issuer_team: str
    error: str
    other_job: str  # a reminder about the same document that is a different job
    word: str  # the word the mails use for it


KINDS = (
    Kind(
        "utility",
        "tax advisor",
        "Tax Advisor",
        "Tax Advisory",
        "my tax return",
        "utility cost statement {year}",
        "Utility_Statement_{year}",
        "{root} Property Management",
        "Tenant accounts",
        "the heating costs were split across the flats incorrectly",
        "Pay the {year} utility back payment to {issuer}",
        "statement",
    ),
    Kind(
        "payslip",
        "mortgage broker",
        "Mortgage Adviser",
        "Mortgage Brokers",
        "the mortgage application",
        "payslip for {month} {year}",
        "Payslip_{year}-{mm}",
        "{root} Payroll Services",
        "Payroll",
        "the overtime hours were counted twice",
        "Check the {month} overtime hours with {issuer}",
        "payslip",
    ),
    Kind(
        "pension",
        "financial adviser",
        "Financial Adviser",
        "Financial Planning",
        "the retirement plan review",
        "annual pension statement {year}",
        "Pension_Statement_{year}",
        "{root} Pensions",
        "Member services",
        "last year's employer contributions were missing",
        "Ask {issuer} about the {year} employer top-up",
        "statement",
    ),
)
PROMPTS = (
    "{who} (my {role}) needs the {document} for {purpose}, can you email it to them? They mentioned new contact "
    "details in their last mail, please update their contact with them. And tick off the reminder for it once "
    "it's sent.",
    "Could you send {who} the {document}? It's for {purpose}. Their details changed recently (see their mail), "
    "so update their contact too, and mark the reminder done after sending.",
)


@dataclass
class _Version:
    number: str
    issued: datetime
    lines: list[str]
    balance: float
    data: bytes


def _figures(kind: Kind, rng: random.Random, region: Region) -> list[float]:
    """The amount the document states, before and after the correction: [first, corrected], in the region's money."""
    base = price(rng, 18000, 420000, region) if kind.key != "payslip" else price(rng, 210000, 520000, region)
    error = price(rng, 9000, 60000, region)
    return [round(base + error, region.decimals), base]


def _lines(kind: Kind, me: Person, home: str, year: int, month: int, figure: float, number: str) -> list[str]:
    def m(amount: float) -> str:
        return money(amount, me.region)

    if kind.key == "utility":
        heating = round(figure * 0.46, 2)
        rest = round(figure - heating, 2)
        return [
            f"Property: {home}",
            f"Tenant: {me.name}",
            f"Period: 1 January - 31 December {year}",
            f"Heating and hot water: {m(heating)}",
            f"Water, waste, caretaker and insurance: {m(rest)}",
            f"Balance due: {m(figure)}",
            f"Statement no. {number}",
        ]
    if kind.key == "payslip":
        return [
            f"Employee: {me.name}",
            f"Pay period: {MONTHS[month - 1]} {year}",
            f"Gross pay: {m(round(figure * 1.38, 2))}",
            f"Tax and contributions: {m(round(figure * 0.38, 2))}",
            f"Net pay: {m(figure)}",
            f"Payslip no. {number}",
        ]
    return [
        f"Member: {me.name}",
        f"Contributions {year} (you and your employer): {m(round(figure * 0.1, 2))}",
        f"Projected annual pension at 67: {m(figure)}",
        f"Statement no. {number}",
    ]


@register
class DocumentRequest(Family):
    name = "document-request"
    group = "communication"
    apps = ("mail", "contacts", "reminders", "files")
    operators = ("cross_source_conflict", "entity_alignment", "hidden_dependency", "noisy_data", "tool_state_update")
    summary = (
        "an advisor asks for a document: send the version that counts, update their contact, tick off the reminder"
    )

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        kind = rng.choice(KINDS)
        region = REGIONS[rng.choice(ENGLISH)]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        year = now.year - 1 if kind.key != "payslip" else (now - timedelta(days=20)).year
        month = (now - timedelta(days=20)).month
        fill = {"year": year, "month": MONTHS[month - 1], "mm": f"{month:02d}"}
        document = kind.document.format(**fill)
        draft = TaskDraft(
            id="",
            title=f"Send the {document} to the {kind.advisor}, update their contact, tick off the reminder",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=50,
        )

        # The advisor and their practice, before and after the merger.
        # Their firms carry their names: never the user's.
        mine = set(me.name.split())
        advisor = people.person(region, short_name=ctx.on("entity_alignment"), title=kind.advisor_title)
        while advisor.family in mine:
            advisor = people.person(region, short_name=ctx.on("entity_alignment"), title=kind.advisor_title)
        old_firm = people.org(region, f"{advisor.family} {kind.trade}", f"{advisor.family} {kind.trade} Ltd")
        advisor = people.staff(advisor, old_firm, kind.advisor_title)
        partner = people.person(region)
        while partner.family in mine or partner.family == advisor.family:
            partner = people.person(region)
        writer, new_firm = advisor, None
        phone = region.phone(rng, old_firm.city)
        if ctx.on("entity_alignment"):
            new_name = f"{advisor.family} & {partner.family}"
            new_firm = people.org(
                region,
                new_name,
                f"{new_name} {kind.trade} LLP",
                f"{slug(advisor.family)}-{slug(partner.family)}.{region.tld}",
            )
        contact = {
            "uid": draft.uid("c", advisor.family),
            "name": advisor.name,
            "emails": [advisor.email],
            "phones": [advisor.phone],
            "organization": old_firm.name,
            "title": kind.advisor_title,
            "notes": f"My {kind.advisor} since {now.year - rng.randint(2, 6)}.",
        }
        draft.add_contact(contact)
        if new_firm is not None:
            writer = ea.alias(
                draft, people, advisor, where=[contact_path(contact)], domain=new_firm.domain, verified_by=ea.ANNOUNCED
            )
            writer = replace(writer, org=new_firm)
            merged = (now - timedelta(days=3)).date()
            told = local(now - timedelta(days=rng.randint(10, 14), hours=rng.randint(1, 8)), me.tz)
            ea.announce(
                draft,
                rng,
                advisor,
                writer,
                me,
                told,
                org=new_firm.name,
                when=day(merged, region=region),
                kind=ea.MERGER,
            )

        # The issuer and the document, in one or two versions.
        issuer_name = kind.issuer.format(root=rng.choice(COMPANY_ROOTS))
        issuer = people.org(region, issuer_name, f"{issuer_name} Ltd")
        clerk = people.person(region, org=issuer, title=kind.issuer_team)
        team = people.claim(f"{slug(kind.issuer_team).replace('-', '.')}@{issuer.domain}")
        figures = _figures(kind, rng, region)
        home = region.street_address(rng, me.city)
        first_at = local(now - timedelta(days=rng.randint(9, 16), hours=rng.randint(1, 8)), me.tz)
        fixed_at = local(first_at + timedelta(days=rng.randint(3, 6), hours=rng.randint(1, 5)), me.tz)
        numbers = [f"{year}-{rng.randint(1000, 4999):04d}", f"{year}-{rng.randint(5000, 9999):04d}"]
        title = document[0].upper() + document[1:]
        versions = []
        for n, (figure, number, issued) in enumerate(zip(figures, numbers, (first_at, fixed_at), strict=True)):
            lines = _lines(kind, me, home, year, month, figure, number)
            if n == 1:
                lines.insert(0, f"CORRECTED VERSION - replaces no. {numbers[0]} of {first_at.date().isoformat()}")
            versions.append(_Version(number, issued, lines, figure, pdf(f"{issuer.legal}: {title}", lines)))
        conflict = ctx.on("cross_source_conflict")
        valid = versions[1] if conflict else versions[0]
        if not conflict:
            valid.issued = fixed_at
        portal = ctx.on("hidden_dependency")
        stem = kind.stem.format(**fill)
        filename = f"{stem}.pdf"

        def attach(version: _Version) -> list[dict[str, str]]:
            if portal:
                return []
            return [{"filename": filename, "path": draft.add_asset(filename, version.data)}]

        sign = f"{clerk.name}\n{kind.issuer_team}\n\n{issuer.legal}\n{issuer.address}\nTel. {issuer.phone}"
        first_body = (
            f"Dear {me.name},\n\n"
            + mails.wrap(
                (
                    f"please find attached your {document} (no. {versions[0].number}). "
                    if not portal
                    else f"your {document} (no. {versions[0].number}) is now available in our portal. "
                )
                + f"The amount is {money(versions[0].balance, region)}."
            )
            + f"\n\nKind regards\n{sign}"
        )
        notices = []
        if conflict:
            first = mails.mail(
                rng,
                f"{issuer.name} <{team}>",
                [me],
                title,
                first_body,
                versions[0].issued,
                flags=["\\Seen"],
                attachments=attach(versions[0]),
            )
            draft.add_message("INBOX", first)
            fix_body = (
                f"Dear {me.name},\n\n"
                + mails.wrap(
                    f"unfortunately the {document} we sent on {day(versions[0].issued.date(), 'en', region)} "
                    f"contained an error: {kind.error}. "
                    + ("Attached is " if not portal else "Our portal now has ")
                    + f"the corrected version, no. {numbers[1]}. No. {numbers[0]} is void; please use "
                    "only the corrected version."
                )
                + "\n\n"
                + mails.wrap(
                    f"The amount is now {money(figures[1], region)} (instead of {money(figures[0], region)}). "
                    "We apologise for the inconvenience."
                )
                + f"\n\nKind regards\n{sign}"
            )
            fix = mails.mail(
                rng,
                f"{issuer.name} <{team}>",
                [me],
                f"Correction: {title}",
                fix_body,
                fixed_at,
                flags=["\\Seen"],
                attachments=attach(versions[1]),
            )
            draft.add_message("INBOX", fix)
            notices = [first, fix]
            csc.supersede(
                draft,
                loser=mail_path("INBOX", first),
                winner=mail_path("INBOX", fix),
                rule=f"the correction voids statement no. {numbers[0]}",
                stated=True,
            )
        else:
            only = mails.mail(
                rng,
                f"{issuer.name} <{team}>",
                [me],
                title,
                first_body,
                fixed_at,
                flags=["\\Seen"],
                attachments=attach(valid),
            )
            draft.add_message("INBOX", only)
            notices = [only]

        # What the user downloaded: both versions when there are two, under the browser's names.
        paths = {}
        if conflict:
            paths[f"Downloads/{filename}"] = versions[0]
            paths[f"Downloads/{stem} (1).pdf"] = versions[1]
        else:
            paths[f"Downloads/{filename}"] = valid
        for path, version in paths.items():
            draft.add_file(path, version.data)
        valid_path = next(p for p, ver in paths.items() if ver is valid)
        if portal:
            hd.move_fact(
                draft,
                fact=f"the {document} itself (no. {valid.number}) is only in the user's Downloads",
                item=file_path(valid_path),
                instead_of=mail_path("INBOX", notices[-1]),
            )

        # The user asked when the advisor needs the documents; the advisor answers.
        asked_at = local(now - timedelta(days=rng.randint(4, 7), hours=rng.randint(1, 6)), me.tz)
        my_mail = mails.mail(
            rng,
            me,
            [advisor],
            f"Documents for {kind.purpose}",
            mails.letter(
                rng,
                me,
                advisor,
                [f"just checking what you still need from me for {kind.purpose}. I'd like to get it off my desk soon."],
                register=mails.WORK,
            ),
            asked_at,
            flags=["\\Seen"],
        )
        draft.add_message("Sent", my_mail)
        answered = local(now - timedelta(hours=rng.randint(18, 50)), me.tz)
        paragraphs = [
            f"thanks for getting back to me. Most of what I need I already have. The one thing still missing is "
            f"the {document}, could you just email me the PDF?",
        ]
        if new_firm is not None:
            paragraphs.append(
                f"Also a bit of housekeeping: our practice has merged with {partner.name}'s and we now work as "
                f"{new_firm.name}. Please use this address from now on, my old one ({advisor.email}) will be switched "
                f"off at the end of the month. Our office line has changed too, it's now {phone}."
            )
        else:
            paragraphs.append(f"We've also moved to a bigger office; the new office line is {phone}.")
        # They sign with the new line and, after a move or merger, the new office.
        office = new_firm or replace(old_firm, address=region.street_address(rng, old_firm.city))
        sender = replace(writer, phone=phone, org=replace(office, phone=phone))
        body = mails.letter(rng, sender, me, paragraphs, register=mails.WORK, quote=(my_mail, asked_at))
        request = mails.mail(
            rng, sender, [me], f"Re: {my_mail['subject']}", body, answered, in_reply_to=my_mail["message_id"]
        )
        draft.add_message("INBOX", request)
        request_path = mail_path("INBOX", request)
        if new_firm is not None:
            draft.record(ea.NAME, {"items": [request_path]})

        # Reminders: the job to tick off, and one about the same document that stays open.
        lst = "Reminders"
        todo = {
            "uid": draft.uid("r", f"send {kind.key}"),
            "title": f"Send the {document} to {advisor.given}",
            "due": (now + timedelta(days=rng.randint(2, 6))).date().isoformat(),
            "priority": 5,
        }
        other = {
            "uid": draft.uid("r", kind.other_job.split()[0]),
            "title": kind.other_job.format(year=year, month=MONTHS[month - 1], issuer=issuer.name),
            "due": (now + timedelta(days=rng.randint(5, 20))).date().isoformat(),
            "priority": 1,
        }
        draft.add_reminder(lst, todo)
        draft.add_reminder(lst, other)
        bg = Background(draft, rng, people, me, now, "en")
        keep_open = [other["uid"], *(p.rsplit("/", 1)[1] for p in bg.reminders(2, lst, avoid=kind.word))]
        noise = bg.mail(3)
        bg.contacts([clerk, *bg.friends[:2]])

        untouched = []
        if ctx.on("noisy_data"):
            last_year = _Version(
                f"{year - 1}-{rng.randint(1000, 9999):04d}", first_at - timedelta(days=365), [], 0, b""
            )
            old_fill = {**fill, "year": year - 1}
            last_year.lines = _lines(kind, me, home, year - 1, month, round(figures[1] * 0.93, 2), last_year.number)
            last_year.data = pdf(
                f"{issuer.legal}: {kind.document.format(**old_fill)[0].upper()}{kind.document.format(**old_fill)[1:]}",
                last_year.lines,
            )
            old_path = f"Downloads/{kind.stem.format(**old_fill)}.pdf"
            draft.add_file(old_path, last_year.data)
            nd.twin(draft, file_path(valid_path), {}, file_path(old_path), {})
            namesake = people.person(
                REGIONS[rng.choice(ENGLISH)],
                org=people.company(REGIONS[rng.choice(ENGLISH)]),
                given=advisor.given,
                title=rng.choice(("Art Director", "Architect", "Sales Lead")),
            )
            twin_contact = {
                "uid": draft.uid("c", namesake.family),
                "name": namesake.name,
                "emails": [namesake.email],
                "phones": [namesake.phone],
                "organization": namesake.org.name if namesake.org else "",
                "title": namesake.title,
            }
            draft.add_contact(twin_contact)
            untouched.append(twin_contact["uid"])
            if nd.looks_alike(item_path("reminders", lst, todo), todo, item_path("reminders", lst, other), other):
                nd.twin(draft, item_path("reminders", lst, todo), todo, item_path("reminders", lst, other), other)
            nd.irrelevant(draft, [*noise, contact_path(twin_contact)])
            if new_firm is not None:
                letter = mails.mail(
                    rng,
                    f"{new_firm.name} <info@{new_firm.domain}>",
                    [me],
                    f"Client update: {old_firm.name} is now {new_firm.name}",
                    "Dear clients,\n\n"
                    + mails.wrap(
                        f"{old_firm.name} and {partner.name}'s practice now work together as {new_firm.legal}. "
                        "Your usual contacts stay the same and will be in touch with their new details."
                    )
                    + f"\n\nBest regards\nYour team at {new_firm.name}\n\nUnsubscribe: info@{new_firm.domain}",
                    local(now - timedelta(days=rng.randint(3, 6)), me.tz),
                )
                draft.add_message("INBOX", letter)

        # The request and the checks.
        who = sender.first
        draft.prompt = rng.choice(PROMPTS).format(who=who, role=kind.advisor, document=document, purpose=kind.purpose)
        draft.summary = f"the {document} no. {valid.number} goes to {sender.email}"
        draft.hint = (
            f"A {kind.advisor} asks by mail for the {document} and gives a new office line"
            + (" after a merger, writing under a short name from a new address" if new_firm else "")
            + ("; the issuer sent a correction that voids the first version" if conflict else "")
            + "; send it, update the contact, tick off the reminder."
        )
        wrong_people = {advisor.email: "the old address, switched off at the end of the month"} if new_firm else {}
        draft.check(
            Check(
                "sent_to_advisor",
                f"Exactly one message was sent, to {sender.email} only",
                v.sent_once,
                {
                    "to": [sender.email],
                    "label": sender.display,
                    "in_reply_to": request["message_id"],
                    # a new message on the thread's subject answers it as well as a reply does
                    "subject": f"{kind.word}|{kind.key}|{year}|{re.escape(my_mail['subject'])}",
                    "wrong": wrong_people,
                },
                weight=2,
                stage="resolving the advisor's current address",
            )
        )
        wrong_files = {ver.number: ver for ver in versions if ver is not valid}
        bad = {hashlib.sha256(ver.data).hexdigest(): f"the void no. {ver.number}" for ver in wrong_files.values()}
        if ctx.on("noisy_data"):
            bad[hashlib.sha256(last_year.data).hexdigest()] = f"last year's, no. {last_year.number}"
        plain = kind.document.split(" {")[0].replace(" for", "")  # no year: the cover note may word it freely
        draft.check(
            Check(
                "right_document",
                "The message carries exactly one attachment: the " + ("corrected " if conflict else "") + plain,
                v.attached,
                {"to": sender.email, "sha256": hashlib.sha256(valid.data).hexdigest(), "wrong": bad},
                weight=3,
                stage="picking the right document",
            )
        )
        draft.check(
            Check(
                "cover_note_right",
                f"Whatever the message says about the document is right: any year it names is {year}"
                + (f", any document number is no. {valid.number}" if conflict else ""),
                v.message_says,
                {
                    "to": sender.email,
                    "patterns": {},
                    "stated": {"years": [year], "refs": {r"(?<![\w-])\d{4}-\d{4}(?![\w-])": [valid.number]}},
                },
                critical=False,
                stage="writing the cover note",
            )
        )
        contact_args: dict[str, Any] = {
            "uid": contact["uid"],
            "label": advisor.name,
            "name": advisor.family,
            "phone": phone,
            "old_phone": advisor.phone,
        }
        if new_firm is not None:
            contact_args |= {"email": sender.email, "organization": re.escape(new_firm.name).replace("\\ ", "\\s*")}
        draft.check(
            Check(
                "contact_updated",
                f"{advisor.name}'s contact has the new office line"
                + (f", {sender.email} as primary email and {new_firm.name} as organization" if new_firm else "")
                + " (and not the old number)",
                v.contact_is,
                contact_args,
                weight=2,
                stage="updating the contact",
            )
        )
        draft.check(
            Check(
                "no_duplicate_contact",
                "No new contact was created; the existing one was updated and the namesake left alone",
                v.contacts_kept,
                {"untouched": untouched, "email": sender.email},
                critical=False,
                stage="matching the advisor to the stored contact",
            )
        )
        draft.check(
            Check(
                "reminder_ticked",
                f"The reminder to send the {plain} is completed; the other reminders stay open",
                v.reminder_done,
                {"uid": todo["uid"], "lst": lst, "keep_open": keep_open},
                weight=2,
                stage="closing the loop in reminders",
            )
        )
        draft.judges.append(
            Judge(
                "cover_note",
                "The email is a short, friendly cover note",
                f"The email to {who} is a short, friendly note that says the {document} is attached"
                + (
                    f" (ideally that it is the corrected version) and does not present the void amount of "
                    f"{money(figures[0], region)} as current."
                    if conflict
                    else "."
                ),
                stage="writing the email",
            )
        )
        tsu.require(
            draft,
            ["send the document", "update the contact", "tick off the reminder"],
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
            f"~{contact_path(contact)}",
            f"~reminders/{lst}/{todo['uid']}",
        )
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"{advisor.name}, the user's {kind.advisor}, asks for the **{document}**"
                + (f", writing as {who} from {sender.email} after the merger into {new_firm.name}" if new_firm else "")
                + f"; the new office line is {phone}.",
                "",
                f"The document to send is no. {valid.number} (`{valid_path}`)"
                + (f"; no. {numbers[0]} is void, voided by the correction mail." if conflict else ".")
                + (" The issuer's mails carry no attachment; the files are in Downloads." if portal else ""),
                "",
                "The end state:",
                "",
                f"- **Mail**: exactly one message, to {sender.email} only, with exactly that attachment.",
                f"- **Contacts**: `{contact['uid']}` has the new office line instead of {advisor.phone}"
                + (f", {sender.email} as its first email and {new_firm.name} as organization" if new_firm else "")
                + "; no new contact"
                + (", and the namesake is untouched." if untouched else "."),
                f"- **Reminders**: `{todo['uid']}` is completed; `{other['uid']}` ({other['title']}) stays open.",
                "",
                "Reading mail marks it seen; nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        draft.facts = {
            "surname": advisor.family,
            "document_word": kind.word,
            "phone": phone,
            "issuer_domain": issuer.domain,
            "number": valid.number,
            "writer": sender.display,
            "subject": f"{title}" + (" (corrected version)" if conflict else ""),
            "body": f"Hi {who},\n\nhere's the {document} you asked for"
            + (f" (the corrected version, no. {valid.number}; the first one is void)" if conflict else "")
            + f".\n\nI've updated your details on my side.\n\nBest,\n{me.given}",
            "contact": advisor.name,
            "organization": new_firm.name if new_firm else "",
            "reminder": todo["title"],
            "me": me.given,
            "who": who,
            "document": document,
        }
        draft.alternatives = {"read_all": solution.solve_read_all, "contact_first": solution.solve_contact_first}
        return draft
