"""document-request (communication): an advisor's list of missing documents; send the versions that count.

The advisor (tax advisor, mortgage broker, financial adviser) answers the user's mail: six documents
are still missing for the user's file, two of them named in the mail and all six on a list; they also
give new contact details and say the meeting already in the user's calendar is now at their new
office. The agent sends each document that exists, in the version that counts (one mail or several),
updates the advisor's contact and the meeting's place, and ticks off the user's reminders for what it
sent. All of it sits in months of ordinary mail, a full address book and folders of last year's papers.

Levers on every task (`_levers`, written to the provenance): a document the issuer reissued by mail
whose filed copy is stale; a document not issued yet (the issuer's mail gives the date) beside the
previous period's copy, with the user's reminder for it that stays open; the meeting, already in the
calendar at the old office, is moved, not doubled; the advisor's card, under their full name, is
updated in place; the user's own reminder in their everyday list to leave for the old office's street on
the meeting's day gets the new street (updated, or deleted and made again, never left beside a new one);
and their own reminder there to pass one of the documents on, worded their way, is ticked off once it went.

- entity_alignment: the advisor's practice merged; they write from the new firm's domain under
  the short name they sign with, while the address book has their full name and old address. A
  mail from the old address announced the new one, so the world vouches for it.
- cross_source_conflict: one issuer sent a correction that voids the first version; both downloads
  sit side by side with near-identical names.
- hidden_dependency: the mail names two documents and points to the full list in the shared folder;
  one document is only attached to its issuer's mail.
- noisy_data: the previous period's copy of every document (and its mail), a namesake in the address
  book, and a reminder about one document that is a different job.
- a reaction: the first mail to the advisor's address brings their firm's automatic reply: client documents go
  to a documents mailbox of the firm now, and every document has to reach it (the advisor having it too).
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.advisor_documents import KINDS, Doc, Kind
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import COMPANY_ROOTS, Org, Person, slug
from stageclaw.author.content.places import ENGLISH, REGIONS
from stageclaw.author.content.text import MONTHS, day, money, price
from stageclaw.author.content.timeline import at, local, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import document_request as solution

PROMPTS = (
    "{who} (my {role}) says there are still some documents missing for {purpose}. Could you send them "
    "everything they need, the right versions please? Their details have changed too: update their contact, "
    "and our appointment if it's affected. Then tick off my reminders for whatever you've sent.",
    "Can you sort out what {who} (my {role}) still needs for {purpose}? Send them the documents they asked "
    "for (make sure they're the current versions), update their contact with the new details from their "
    "mail and fix our appointment if anything about it changed. Tick off my reminders for what you send.",
)
CORRECTED, REISSUED, MAIL_ONLY, LATER, FILED = "corrected", "reissued", "mail_only", "later", "filed"
SHARED = "Shared"
DESKS = ("documents", "clientdocuments", "client.documents", "clientfiles")  # the firm's mailbox for documents
OWN_LIST = "Reminders"  # the user's everyday list, beside the one for this job


@dataclass
class _Version:
    number: str
    issued: datetime
    amounts: list[float]
    data: bytes = b""


@dataclass
class _Item:
    """One document on the advisor's list, as the world holds it."""

    doc: Doc
    role: str
    name: str  # with its period: 'bank interest certificate 2025', 'payslip for March 2026'
    stem: str  # the file name of this period's copy, without '.pdf'
    issuer: Org
    team: str  # the issuer's sending address
    valid: _Version | None = None
    wrong: dict[str, str] = field(default_factory=dict)  # sha256 -> what that file is
    path: str = ""  # the valid version's file, when the user has it
    mail: dict[str, Any] | None = None  # the issuer's latest mail about it
    stale: str = ""  # the filed copy a reissue replaced
    reminder: dict[str, Any] = field(default_factory=dict)
    later: date | None = None  # when a late document will be issued
    named: bool = False  # the advisor's mail names it (the rest are only on the list)

    @property
    def sha(self) -> str:
        assert self.valid is not None
        return hashlib.sha256(self.valid.data).hexdigest()

    @property
    def title(self) -> str:
        return self.name[0].upper() + self.name[1:]


def _periods(doc: Doc, now: datetime) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """(name suffix, file suffix, period line) for this period's document and the previous one's."""
    if not doc.monthly:
        year = now.year if doc.current else now.year - 1
        return (
            (f"{year}", f"{year}", f"1 January - 31 December {year}"),
            (f"{year - 1}", f"{year - 1}", f"1 January - 31 December {year - 1}"),
        )
    # the last month whose statements are out for at least a fortnight
    first = now.date().replace(day=1)
    month = (first - timedelta(days=1)).replace(day=1) if now.day >= 17 else (first - timedelta(days=32)).replace(day=1)
    before = (month - timedelta(days=1)).replace(day=1)
    out = []
    for m in (month, before):
        label = f"{MONTHS[m.month - 1]} {m.year}"
        out.append((f"for {label}", f"{m.year}-{m.month:02d}", label))
    return out[0], out[1]


def _street(address: str) -> str:
    """The street part of an address, without the town and postcode."""
    parts = address.split(", ")
    return ", ".join(parts[:-1]) if len(parts) > 1 else address


def _address_regex(text: str) -> str:
    """`text` however its parts are separated (commas, spaces, line breaks)."""
    parts = [re.escape(p) for p in re.split(r"[\s,]+", text) if p]
    return "(?<![\\w])" + "[\\s,]+".join(parts) + "(?![\\w])"


@register
class DocumentRequest(Family):
    name = "document-request"
    group = "communication"
    apps = ("mail", "contacts", "calendar", "reminders", "files")
    operators = ("cross_source_conflict", "entity_alignment", "hidden_dependency", "noisy_data", "tool_state_update")
    summary = (
        "an advisor lists the documents still missing: send the versions that count, update their contact and the "
        "meeting, tick off the reminders"
    )

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        kind = rng.choice(KINDS)
        region = REGIONS[rng.choice([k for k in ENGLISH if k != "jp"])]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        draft = TaskDraft(
            id="",
            title=f"Send the {kind.advisor} the documents still missing, update their contact and the meeting",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=2400,
            max_steps=120,
        )
        families = {me.family}

        # The advisor and their practice, before and after the merger. Their firms carry their names: never
        # the user's.
        advisor = people.person(region, short_name=ctx.on("entity_alignment"), title=kind.advisor_title)
        while advisor.family in families:
            advisor = people.person(region, short_name=ctx.on("entity_alignment"), title=kind.advisor_title)
        families.add(advisor.family)
        # a practice in the user's own city: they meet at its office
        old_firm = people.org(
            region, f"{advisor.family} {kind.trade}", f"{advisor.family} {kind.trade} Ltd", at=me.city
        )
        advisor = people.staff(advisor, old_firm, kind.advisor_title)
        partner = people.person(region)
        while partner.family in families:
            partner = people.person(region)
        families.add(partner.family)
        writer, new_firm = advisor, None
        phone = region.phone(rng, old_firm.city)
        if ctx.on("entity_alignment"):
            new_name = f"{advisor.family} & {partner.family}"
            new_firm = people.org(
                region,
                new_name,
                f"{new_name} {kind.trade} LLP",
                f"{slug(advisor.family)}-{slug(partner.family)}.{region.tld}",
                at=old_firm.city,
            )
        contact = {
            "uid": draft.uid("c", advisor.family),
            "name": advisor.name,
            "emails": [advisor.email],
            "phones": [advisor.phone],
            "organization": old_firm.name,
            "title": kind.advisor_title,
            "notes": f"My {kind.advisor} since {now.year - rng.randint(2, 6)}. Office: {old_firm.address}",
        }
        draft.add_contact(contact)
        if new_firm is not None:
            writer = ea.alias(
                draft, people, advisor, where=[contact_path(contact)], domain=new_firm.domain, verified_by=ea.ANNOUNCED
            )
            writer = replace(writer, org=new_firm)
            merged = (now - timedelta(days=3)).date()
            told = local(now - timedelta(days=rng.randint(15, 20), hours=rng.randint(1, 8)), me.tz)
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
        # They sign with the new line and, after a move or merger, the new office.
        office = new_firm or replace(old_firm, address=region.street_address(rng, old_firm.city))
        sender = replace(writer, phone=phone, org=replace(office, phone=phone))
        to = sender.email

        items = self._items(ctx, draft, kind, me, now, families)
        year = now.year - 1
        folder = kind.folder.format(year=year)
        for item in items:
            self._world_of(ctx, draft, kind, item, me, now, folder, year)

        # The user asked what is missing; the advisor answers with the list, the new details and the meeting.
        meeting_day = workday(now.date(), rng.randint(3, 6))
        meeting_start = at(meeting_day, rng.choice((9, 10, 11, 14, 15)), rng.choice((0, 30)), me.tz)
        meeting_end = meeting_start + timedelta(hours=1)
        meeting = draft.add_event(
            "Personal",
            {
                "uid": draft.uid("e", f"{kind.key} meeting"),
                "summary": f"{kind.meeting} {advisor.given} {advisor.family}",
                "start": meeting_start.isoformat(),
                "end": meeting_end.isoformat(),
                "location": old_firm.address,
                "description": f"Bring the folder. {old_firm.name}, {old_firm.phone}",
            },
        )
        asked_at = local(now - timedelta(days=rng.randint(5, 8), hours=rng.randint(1, 6)), me.tz)
        subject = f"Documents for {kind.purpose}"
        my_mail = mails.mail(
            rng,
            me,
            [advisor],
            subject[0].upper() + subject[1:],
            mails.letter(
                rng,
                me,
                advisor,
                [
                    f"just checking what you still need from me for {kind.purpose}. I'd like to get it all to you "
                    "before we meet."
                ],
                register=mails.WORK,
            ),
            asked_at,
            flags=["\\Seen"],
        )
        draft.add_message("Sent", my_mail)
        listed = ctx.on("hidden_dependency")
        shared = ""
        names = [i for i in items if i.named] if listed else items
        if listed:
            firm = (new_firm or old_firm).name
            shared = f"{SHARED}/{firm}/Outstanding documents.pdf"
            lines = [
                f"Client: {me.name}",
                f"For: {kind.purpose.replace('my ', 'your ')}",
                "",
                "Already received, thank you:",
                *(f"- {r}" for r in kind.received),
                "",
                "Still needed:",
                *(f"- {i.title}" for i in items),
                "",
                f"Prepared by {advisor.name}",
            ]
            draft.add_file(shared, pdf(f"Outstanding documents: {me.name}", lines))
        answered = local(now - timedelta(hours=rng.randint(18, 44)), me.tz)
        wanted = " and the ".join(i.name for i in names[:2]) if listed else ""
        paragraphs = [
            (
                f"thanks for checking. I've gone through what you've sent so far and updated the list of what's "
                f"still outstanding in our shared folder ({shared.rsplit('/', 1)[0]}). The main things are the "
                f"{wanted}, plus a few smaller bits, all on the list. Could you email them to me as PDFs?"
                if listed
                else "thanks for checking. What I still need is: "
                + "; ".join(f"the {i.name}" for i in items)
                + ". Could you email them to me as PDFs?"
            )
        ]
        if new_firm is not None:
            paragraphs.append(
                f"Also a bit of housekeeping: our practice has merged with {partner.name}'s and we now work as "
                f"{new_firm.name}. Please use this address from now on, my old one ({advisor.email}) will be switched "
                f"off at the end of the month. Our office line has changed too, it's now {phone}."
            )
        else:
            paragraphs.append(f"We've also moved to a bigger office; the new office line is {phone}.")
        paragraphs.append(
            f"Our meeting on {day(meeting_day, region=region)} at {meeting_start:%H:%M} stays as it is, but it will be "
            f"at our new office: {office.address}. The old one is being cleared out."
        )
        body = mails.letter(rng, sender, me, paragraphs, register=mails.WORK, quote=(my_mail, asked_at))
        request = mails.mail(
            rng,
            sender,
            [me],
            f"Re: {my_mail['subject']}",
            body,
            answered,
            in_reply_to=my_mail["message_id"],
            attachments=[],
        )
        draft.add_message("INBOX", request)
        if new_firm is not None:
            draft.record(ea.NAME, {"items": [mail_path("INBOX", request)]})

        # Reminders: one to send each document, a job about one of them that stays open, one done long ago.
        lst = kind.reminders
        for item in items:
            item.reminder = draft.add_reminder(
                lst,
                {
                    "uid": draft.uid("r", f"send {item.doc.key}"),
                    "title": f"Send {advisor.given} the {item.doc.plain}",
                    "due": (now + timedelta(days=rng.randint(1, 6))).date().isoformat(),
                    "priority": 5,
                },
            )
        about = next(i for i in items if i.doc.key == kind.other_job[0])
        other = draft.add_reminder(
            lst,
            {
                "uid": draft.uid("r", "ask issuer"),
                "title": kind.other_job[1].format(issuer=about.issuer.name),
                "due": (now + timedelta(days=rng.randint(5, 20))).date().isoformat(),
                "priority": 1,
            },
        )
        booked = local(asked_at - timedelta(days=rng.randint(10, 20)), me.tz)
        draft.add_reminder(
            lst,
            {
                "uid": draft.uid("r", "book meeting"),
                "title": f"Book a meeting with {advisor.given}",
                "due": booked.date().isoformat(),
                "completed": True,
                "completed_at": booked.isoformat(),
            },
        )

        # The user's own reminders in their everyday list, in their own words: when to leave for the old office
        # on the meeting's day (the move makes it stale), and one to pass a document on (sending it does it).
        own = OWN_LIST
        leave = meeting_start - timedelta(minutes=rng.choice((30, 40, 45)))
        old_street = _street(old_firm.address)
        trip = draft.add_reminder(
            own,
            {
                "uid": draft.uid("r", "leave for office"),
                "title": f"Leave by {leave:%H:%M} for {old_street}",
                "due": leave.isoformat(),
                "notes": rng.choice(("Park round the back.", "Take the folder and the reading glasses.", "")),
                "priority": 5,
            },
        )
        passed = rng.choice([i for i in items if i.role in (REISSUED, MAIL_ONLY, FILED) and i is not about])
        apostrophe = "'" if passed.issuer.name.endswith("s") else "'s"
        handed = draft.add_reminder(
            own,
            {
                "uid": draft.uid("r", "pass on"),
                "title": f"Pass {passed.issuer.name}{apostrophe} {passed.doc.plain} on to {advisor.given}",
                "due": (now + timedelta(days=rng.randint(2, 5))).date().isoformat(),
                "priority": 9,
            },
        )

        # A namesake of the advisor in the address book and the new firm's circular.
        untouched, noise = [], []
        if ctx.on("noisy_data"):
            namesake = people.person(
                region,
                org=people.company(region),
                given=advisor.given,
                title=rng.choice(("Art Director", "Architect", "Sales Lead")),
            )
            while namesake.family in families:
                namesake = people.person(region, org=people.company(region), given=advisor.given, title="Architect")
            families.add(namesake.family)
            twin_contact = draft.add_contact(
                {
                    "uid": draft.uid("c", namesake.family),
                    "name": namesake.name,
                    "emails": [namesake.email],
                    "phones": [namesake.phone],
                    "organization": namesake.org.name if namesake.org else "",
                    "title": namesake.title,
                }
            )
            untouched.append(twin_contact["uid"])
            noise.append(contact_path(twin_contact))
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

        # Months of ordinary life around the story, naming none of its people, firms or papers.
        avoid = Avoid(
            people=sorted(families),
            words=[
                *(i.issuer.name for i in items),
                *(i.doc.plain for i in items),
                *(d.plain for d in kind.docs),
                old_firm.name,
                *([new_firm.name] if new_firm else []),
                *kind.clash,
                kind.trade,
            ],
            slots=[(meeting_start, meeting_end)],
            addresses=[advisor.email, sender.email],
            paths=[SHARED, folder, kind.folder.format(year=year - 1), *(f"Downloads/{i.doc.stem}" for i in items)],
        )
        life = Life.of(ctx, draft, me, now, avoid=avoid, months=6)
        noise += life.fill(Scale(messages=190, series=5, events=70, contacts=60, files=40, notes=6, reminders=6))
        arrival_order(draft)
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, noise[:40])
            mine, theirs = item_path("reminders", lst, about.reminder), item_path("reminders", lst, other)
            if nd.looks_alike(mine, about.reminder, theirs, other):
                nd.twin(draft, mine, about.reminder, theirs, other)

        later = next(i for i in items if i.role == LATER)
        sent = [i for i in items if i.role != LATER]
        who = sender.first
        draft.prompt = rng.choice(PROMPTS).format(who=who, role=kind.advisor, purpose=kind.purpose)
        # The firm takes client documents at a mailbox of its own now: the first mail to the advisor brings an
        # automatic reply that names it. Drawn last, and from a generator of its own, so that the rest of the draw
        # stays as it was.
        react = random.Random(f"{to} {office.name} documents")
        desk = ctx.people.claim(f"{react.choice(DESKS)}@{to.rsplit('@', 1)[1]}")
        reply = mails.moved_reply(react, office.name, to, desk, "client documents", now)
        draft.autoreplies.append(reply | {"from": sender.mailbox})  # the firm's rule answers from the advisor's box
        draft.summary = (
            f"{len(sent)} documents go to {desk}, where the automatic reply to {to} sends them "
            f"({', '.join(i.name for i in sent)}); the {later.name} is not out yet"
        )
        draft.hint = (
            f"A {kind.advisor} lists six documents still missing"
            + (" (the list is in the shared folder)" if listed else "")
            + (", writing under a short name from a new address after a merger" if new_firm else "")
            + "; one was reissued by mail, one is not issued yet"
            + ("; one issuer sent a correction that voids the first version" if ctx.on("cross_source_conflict") else "")
            + "; send the rest, update the contact and the meeting's place, tick off the reminders for what was sent."
        )
        self._rubric(
            ctx, draft, items, sender, advisor, contact, new_firm, phone, untouched, meeting, office, lst, desk
        )
        self._own_rubric(draft, trip, handed, passed, old_firm, new_firm, office, meeting, meeting_day)
        draft.note_levers(
            self._levers(ctx, items, shared, kind, office)
            | {
                "to_advisor": (
                    f"R reaction: the first mail to {to} brings {office.name}'s automatic reply: client documents go "
                    f"to {desk} now; each document counts once it reaches {desk} (sent_*)"
                ),
                "leave_reminder": (
                    f"D: the user's own reminder '{trip['title']}' (list {OWN_LIST}, due {trip['due']}) names the old "
                    f"office; it is brought to {_street(office.address)} (updated, or deleted and made again), "
                    "never left stale beside a new one"
                ),
                "own_reminder_ticked": (
                    f"D: the user's own reminder '{handed['title']}' in the list {OWN_LIST}, worded their own way, is "
                    f"about the {passed.name} that goes out; it is ticked off too"
                ),
            }
        )
        draft.judges.append(
            Judge(
                "cover_note",
                "The mail says what is attached and that the late document follows",
                f"The mail(s) to {who} (and on to {desk}, where the automatic reply sends documents) say which "
                f"documents are attached and that the {later.doc.plain} is not issued "
                f"yet (the issuer expects it by {day(later.later, region=region)}) and will follow; no mail presents a "
                "void or superseded version as current.",
                stage="writing the email",
            )
        )
        tsu.require(
            draft,
            ["send the documents", "update the contact", "move the meeting", "tick off the reminders"],
            "+mail/outbox/*",
            "+mail/folders/Sent/*",
            f"~{contact_path(contact)}",
            f"~calendar/Personal/{meeting['uid']}",
            *(f"~reminders/{lst}/{i.reminder['uid']}" for i in sent),
            f"~reminders/{OWN_LIST}/{trip['uid']}",
            f"~reminders/{OWN_LIST}/{handed['uid']}",
            *(f"+mail/folders/INBOX/{r['message_id']}" for r in draft.autoreplies),
        )
        # saving an attachment before sending it, and a meeting deleted and entered again at the new place
        draft.permit(
            "~mail/folders/INBOX/*#flags",
            "+files/**",
            f"-calendar/Personal/{meeting['uid']}",
            "+calendar/Personal/*",
            f"-reminders/{OWN_LIST}/{trip['uid']}",
            f"+reminders/{OWN_LIST}/*",
        )
        draft.goal = self._goal(
            items, sender, advisor, contact, new_firm, phone, meeting, office, lst, other, shared, desk
        )
        draft.solution = solution.solve
        draft.facts = {
            "surname": advisor.family,
            "contact": advisor.name,
            "phone": phone,
            "organization": new_firm.name if new_firm else "",
            "writer": sender.display,
            "who": who,
            "me": me.given,
            "shared": SHARED if listed else "",
            "folders": sorted({p.split("/")[0] for p in [folder, *(i.path for i in items if i.path)]}),
            "docs": [
                {
                    "plain": i.doc.plain,
                    "issuer": i.issuer.domain,
                    "stem": i.doc.stem,
                    "number": i.valid.number if i.valid else None,
                    "reminder": i.reminder["title"],
                }
                for i in items
            ],
            "list": lst,
            "meeting": advisor.family,
            "street": _street(office.address),
            "since": now.date().isoformat(),
            "own_list": OWN_LIST,
            "old_street": old_street,
            "passed": handed["title"],
        }
        draft.alternatives = {"save_and_reply": solution.solve_save_and_reply, "one_each": solution.solve_one_each}
        return draft

    # -- the documents ---------------------------------------------------------------------------

    def _items(
        self, ctx: Context, draft: TaskDraft, kind: Kind, me: Person, now: datetime, families: set[str]
    ) -> list[_Item]:
        """Six documents of the kind, each with its role: the late one (there is one per kind), a reissued one,
        a corrected one and one only in mail (with those operators), the rest filed."""
        rng = ctx.rng
        late = next(d for d in kind.docs if d.late)
        asked = next(d for d in kind.docs if d.key == kind.other_job[0])  # the other reminder's document
        others = [asked, *rng.sample([d for d in kind.docs if not d.late and d is not asked], 4)]
        rng.shuffle(others)
        roles = [
            REISSUED,
            CORRECTED if ctx.on("cross_source_conflict") else FILED,
            MAIL_ONLY if ctx.on("hidden_dependency") else FILED,
            FILED,
            FILED,
        ]
        docs = [(late, LATER), *zip(others, roles, strict=True)]
        rng.shuffle(docs)
        roots = rng.sample(COMPANY_ROOTS, len(docs))
        items = []
        for (doc, role), root in zip(docs, roots, strict=True):
            name, _, _ = _periods(doc, now)[0]
            issuer_name = doc.issuer.format(root=root)
            issuer = ctx.people.org(me.region, issuer_name, f"{issuer_name} Ltd")
            team = ctx.people.claim(f"{slug(doc.team).replace('-', '.')}@{issuer.domain}")
            items.append(_Item(doc, role, f"{doc.plain} {name}", f"{doc.stem}{_periods(doc, now)[0][1]}", issuer, team))
        # the advisor's mail names two of them, never the late one; the rest are only on the list
        for item in rng.sample([i for i in items if i.role != LATER], 2):
            item.named = True
        return items

    def _world_of(
        self,
        ctx: Context,
        draft: TaskDraft,
        kind: Kind,
        item: _Item,
        me: Person,
        now: datetime,
        folder: str,
        year: int,
    ) -> None:
        """One document's mails and files: this period's version(s) and the previous period's copy."""
        rng, region, doc = ctx.rng, me.region, item.doc
        (_, _, period), (old_name, old_suffix, old_period) = _periods(doc, now)
        clerk = ctx.people.person(region, org=item.issuer, title=doc.team)
        sign = f"{clerk.name}\n{doc.team}\n\n{item.issuer.legal}\n{item.issuer.address}\nTel. {item.issuer.phone}"
        frm = f"{item.issuer.name} <{item.team}>"
        base = [price(rng, 900, 48000, region) for _ in doc.figures]
        this_year = int(_periods(doc, now)[0][1][:4])

        def number(y: int) -> str:
            return f"{doc.code}{y % 100:02d}-{rng.randint(10000, 99999)}"

        def document(version: _Version, period_line: str, name: str, note: str = "") -> bytes:
            lines = [
                *([note] if note else []),
                f"Customer: {me.name}",
                f"Period: {period_line}",
                *(f"{label}: {money(a, region)}" for label, a in zip(doc.figures, version.amounts, strict=True)),
                f"Document no. {version.number}",
                f"Issued: {day(version.issued.date(), region=region)}",
            ]
            return pdf(f"{item.issuer.legal}: {name[0].upper()}{name[1:]}", lines)

        def notice(subject: str, text: str, when: datetime, attach: list[tuple[str, bytes]]) -> dict[str, Any]:
            body = f"Dear {me.name},\n\n" + mails.wrap(text) + f"\n\nKind regards\n{sign}"
            files = [{"filename": n, "path": draft.add_asset(n, data)} for n, data in attach]
            message = mails.mail(rng, frm, [me], subject, body, when, flags=["\\Seen"], attachments=files)
            return draft.add_message("INBOX", message)

        # The previous period's copy, filed, and the mail it came with: a look-alike of this one.
        gap = timedelta(days=31 if doc.monthly else 365)
        old = _Version(number(int(old_suffix[:4])), now - gap, [round(a * 0.94, 2) for a in base])
        old_title = f"{doc.plain} {old_name}"
        old.issued = local(now - gap - timedelta(days=rng.randint(9, 20)), me.tz)
        old.data = document(old, old_period, old_title)
        old_folder = folder if doc.monthly else kind.folder.format(year=year - 1)
        old_path = f"{old_folder}/{doc.stem}{old_suffix}.pdf"
        draft.add_file(old_path, old.data)
        item.wrong[hashlib.sha256(old.data).hexdigest()] = f"the previous period's, no. {old.number}"
        if rng.random() < 0.6:
            notice(
                f"Your {doc.plain} has been issued",
                f"please find attached your {old_title} (no. {old.number}).",
                old.issued,
                [(f"{doc.stem}{old_suffix}.pdf", old.data)],
            )

        first_at = local(now - timedelta(days=rng.randint(12, 16), hours=rng.randint(1, 8)), me.tz)
        later_at = local(first_at + timedelta(days=rng.randint(3, 6), hours=rng.randint(1, 5)), me.tz)
        file_name = f"{item.stem}.pdf"
        if item.role == LATER:
            item.later = workday(now.date(), rng.randint(6, 12))
            item.mail = notice(
                f"Your {doc.plain}: when it will be issued",
                f"you asked about your {item.name}. Unfortunately {doc.late}. We expect to issue it by "
                f"{day(item.later, region=region)} and will send it to you as soon as it is ready.",
                later_at,
                [],
            )
            return
        first = _Version(number(this_year), first_at, list(base))
        if item.role in (CORRECTED, REISSUED):
            first.amounts[0] = round(base[0] + price(rng, 60, 900, region), 2)
        first.data = document(first, period, item.name)
        if item.role in (FILED, MAIL_ONLY):
            item.valid = first
            text = f"please find attached your {item.name} (no. {first.number})."
            item.mail = notice(f"Your {doc.plain} is ready", text, later_at, [(file_name, first.data)])
            if item.role == FILED:
                item.path = f"{folder}/{file_name}"
                draft.add_file(item.path, first.data)
            else:
                hd.move_fact(
                    draft,
                    fact=f"the {item.name} (no. {first.number}) is only attached to the issuer's mail",
                    item=mail_path("INBOX", item.mail),
                    instead_of=f"files/{folder}",
                )
            return
        fixed = _Version(number(this_year), later_at, list(base))
        old_date = first_at.date().isoformat()
        item.valid = fixed
        item.wrong[hashlib.sha256(first.data).hexdigest()] = f"the superseded no. {first.number}"
        if item.role == CORRECTED:
            fixed.data = document(
                fixed, period, item.name, f"CORRECTED VERSION - replaces no. {first.number} of {old_date}"
            )
            one = notice(
                f"Your {doc.plain} is available online",
                f"your {item.name} (no. {first.number}) is now available in your online account.",
                first_at,
                [],
            )
            item.mail = notice(
                f"Correction: your {doc.plain}",
                f"unfortunately the {item.name} we issued on {day(first_at.date(), region=region)} contained an "
                f"error: {doc.error}. Your online account now has the corrected version, no. {fixed.number}. "
                f"No. {first.number} is void; please use only the corrected version.",
                later_at,
                [],
            )
            draft.add_file(f"Downloads/{file_name}", first.data)
            item.path = f"Downloads/{item.stem} (1).pdf"
            draft.add_file(item.path, fixed.data)
            csc.supersede(
                draft,
                loser=mail_path("INBOX", one),
                winner=mail_path("INBOX", item.mail),
                rule=f"the correction voids {item.name} no. {first.number}",
                stated=True,
            )
            if nd.looks_alike(file_path(item.path), {}, file_path(f"Downloads/{file_name}"), {}):
                nd.twin(draft, file_path(item.path), {}, file_path(f"Downloads/{file_name}"), {})
            return
        # reissued: the user filed the first version; the reissue is only attached to a later mail
        fixed.data = document(fixed, period, item.name, f"REISSUED - replaces no. {first.number} of {old_date}")
        notice(
            f"Your {doc.plain} is ready",
            f"please find attached your {item.name} (no. {first.number}).",
            first_at,
            [(file_name, first.data)],
        )
        item.stale = f"{folder}/{file_name}"
        draft.add_file(item.stale, first.data)
        item.mail = notice(
            f"Reissued: your {doc.plain}",
            f"we have reissued your {item.name} because {doc.error}. The new document, no. {fixed.number}, is "
            f"attached; it replaces no. {first.number} of {day(first_at.date(), region=region)}, which should no "
            "longer be used.",
            later_at,
            [(file_name, fixed.data)],
        )

    # -- grading ---------------------------------------------------------------------------------

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        items: list[_Item],
        sender: Person,
        advisor: Person,
        contact: dict[str, Any],
        new_firm: Org | None,
        phone: str,
        untouched: list[str],
        meeting: dict[str, Any],
        office: Org,
        lst: str,
        desk: str,
    ) -> None:
        to = sender.email
        draft.check(
            Check(
                "to_advisor",
                f"Every message went to {to} or {desk} only"
                + (f" (not to the old {advisor.email})" if new_firm else "")
                + ", none of them twice",
                v.sent_only_to,
                {
                    "addresses": [to, desk],
                    "label": f"{sender.display} at {to} or {office.name} at {desk}",
                    "once": True,
                },
                weight=2,
                stage="resolving the advisor's current address",
            )
        )
        wrong_all = {sha: f"{i.name}: {what}" for i in items for sha, what in i.wrong.items()}
        for item in items:
            if item.role == LATER:
                draft.check(
                    Check(
                        f"not_sent_{item.doc.key}",
                        f"No message carries an older {item.doc.plain}: this one is not issued yet",
                        v.carried_once,
                        {"to": [to], "sha256": None, "label": item.name, "wrong": item.wrong},
                        weight=2,
                        stage="noticing a document is not out yet",
                    )
                )
                continue
            draft.check(
                Check(
                    f"sent_{item.doc.key}",
                    f"The {item.doc.plain}, in the version that counts, reached {desk} exactly once, and no other "
                    f"version of it went anywhere: the automatic reply to the first mail, to {sender.display}'s "
                    f"address, says client documents go there now, and {sender.first} has it too, once (the first "
                    "mail, or a copy)",
                    v.carried_once,
                    {"to": [desk], "sha256": item.sha, "label": item.name, "wrong": item.wrong, "tried": [to]},
                    weight=2,
                    stage="picking the right version",
                )
            )
        draft.check(
            Check(
                "only_listed",
                "Every file attached is one of the documents on the list, in the version that counts",
                v.attachments_only,
                {
                    "sha256": {i.sha: i.name for i in items if i.valid is not None},
                    "wrong": wrong_all,
                    "label": "the documents on the list",
                },
                stage="picking the right version",
            )
        )
        contact_args: dict[str, Any] = {
            "uid": contact["uid"],
            "label": advisor.name,
            "name": re.escape(advisor.family),
            "phone": phone,
            "old_phone": advisor.phone,
        }
        if new_firm is not None:
            contact_args |= {"email": to, "organization": re.escape(new_firm.name).replace("\\ ", "\\s*")}
        draft.check(
            Check(
                "contact_updated",
                f"{advisor.name}'s contact has the new office line"
                + (f", {to} as primary email and {new_firm.name} as organization" if new_firm else "")
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
                {"untouched": untouched, "email": to},
                stage="matching the advisor to the stored contact",
            )
        )
        draft.check(
            Check(
                "meeting_moved",
                f"Exactly one calendar entry for the meeting with {advisor.name}, still at its time, at "
                f"{_street(office.address)}",
                v.the_event,
                {
                    "calendar": "Personal",
                    "pattern": rf"\b{re.escape(advisor.family)}\b",
                    "start": meeting["start"],
                    "end": meeting["end"],
                    "label": f"the meeting with {advisor.name}",
                    "location": _address_regex(_street(office.address)),
                },
                weight=2,
                stage="updating the meeting that is already in the calendar",
            )
        )
        sent = [i for i in items if i.role != LATER]
        later = [i for i in items if i.role == LATER]
        draft.check(
            Check(
                "ticked",
                "The reminders for the documents sent are ticked off: " + ", ".join(i.doc.plain for i in sent),
                v.reminders_ticked,
                {"lst": lst, "done": [i.reminder["uid"] for i in sent], "kept_open": []},
                weight=2,
                stage="closing the loop in reminders",
            )
        )
        other = [r for r in draft.reminders[lst] if r["uid"].startswith("r-ask")]
        draft.check(
            Check(
                "still_open",
                f"The reminder for the {later[0].doc.plain} (not issued yet) and the one to "
                f"{other[0]['title'][0].lower()}{other[0]['title'][1:]} stay open",
                v.reminders_ticked,
                {"lst": lst, "done": [], "kept_open": [later[0].reminder["uid"], other[0]["uid"]]},
                weight=2,
                stage="closing the loop in reminders",
            )
        )

    @staticmethod
    def _own_rubric(
        draft: TaskDraft,
        trip: dict[str, Any],
        handed: dict[str, Any],
        passed: _Item,
        old_firm: Org,
        new_firm: Org | None,
        office: Org,
        meeting: dict[str, Any],
        meeting_day: date,
    ) -> None:
        new_street = _address_regex(_street(office.address))
        fresh = [new_street, *([re.escape(new_firm.name).replace("\\ ", "\\s*")] if new_firm else [])]
        about = [_address_regex(_street(old_firm.address)), *fresh]
        leave, start, end = trip["due"], meeting["start"], meeting["end"]
        times = sorted({leave[11:16], start[11:16], end[11:16]})
        allowed = {int(n) for t in times for n in t.split(":")}
        allowed |= {meeting_day.day, meeting_day.month, meeting_day.year}
        allowed |= set(v.numbers_in(office.address))
        draft.check(
            Check(
                "leave_reminder",
                f"The user's reminder to leave for the meeting ({trip['title']!r}) now gives the new office, "
                f"{_street(office.address)}: updated, or replaced by one new reminder on that day, not left beside it",
                v.one_reminder,
                {
                    "pattern": "|".join(f"(?:{p})" for p in about),
                    "lst": OWN_LIST,
                    "due": meeting_day.isoformat(),
                    "label": "leave-for-the-meeting",
                    "stale": trip["uid"],
                    "says": new_street,
                    # the hour to leave stays; no number of the old street is left (the new address, the
                    # meeting's day and hours may be written out, each a few times)
                    "at": leave[11:16],
                    "stated": {"times": times, "numbers": sorted(allowed) * 3},
                },
                weight=2,
                stage="updating the meeting that is already in the calendar",
            )
        )
        draft.check(
            Check(
                "own_reminder_ticked",
                f"The user's reminder {handed['title']!r} (the {passed.doc.plain}, now sent) is ticked off",
                v.reminders_ticked,
                {"lst": OWN_LIST, "done": [handed["uid"]], "kept_open": []},
                weight=2,
                stage="closing the loop in reminders",
            )
        )

    @staticmethod
    def _levers(ctx: Context, items: list[_Item], shared: str, kind: Kind, office: Org) -> dict[str, str]:
        """Which planted difficulty each rubric item grades (WAVE-D's letters), for classifying a failure."""
        out: dict[str, str] = {}
        for item in items:
            key, parts = item.doc.key, []
            if item.role == CORRECTED:
                parts.append(
                    f"F/E: the issuer's correction voids the first version; both downloads sit side by side "
                    f"(Downloads/{item.stem}.pdf is void, {item.path} counts)"
                )
            elif item.role == REISSUED:
                parts.append(
                    f"E: information one hop away, the copy filed as {item.stale} is stale: "
                    "a later mail reissued it, attached only there"
                )
            elif item.role == MAIL_ONLY:
                parts.append("G: only attached to the issuer's mail; the files hold only the previous period's copy")
            elif item.role == LATER:
                out[f"not_sent_{key}"] = (
                    f"F: the {item.name} is not issued yet (the issuer's mail says by {item.later}); the previous "
                    "period's copy in the files is not it"
                )
                out["still_open"] = (
                    f"D: the user's reminder to send the {item.doc.plain} stays open (not sent), beside the ones "
                    "ticked off; a reminder about another job stays open too"
                )
                continue
            if shared and not item.named:
                parts.append(f"G: named only on the list in {shared}, not in the advisor's mail")
            parts.append("F: the previous period's copy beside it")
            out[f"sent_{key}"] = "; ".join(parts)
        out["meeting_moved"] = (
            f"D: the meeting is already in the calendar at the old office; it is moved to {_street(office.address)}, "
            "not doubled"
        )
        out["contact_updated"] = (
            "D: the advisor's card exists under their full name with the old details; it is updated in place"
            + (" (A: the new address vouched for by the merger announcement)" if ctx.on("entity_alignment") else "")
        )
        return out

    @staticmethod
    def _goal(
        items: list[_Item],
        sender: Person,
        advisor: Person,
        contact: dict[str, Any],
        new_firm: Org | None,
        phone: str,
        meeting: dict[str, Any],
        office: Org,
        lst: str,
        other: dict[str, Any],
        shared: str,
        desk: str,
    ) -> str:
        lines = [
            "# Goal",
            "",
            f"{advisor.name}, the user's advisor, asks for six documents"
            + (f" (the full list is `{shared}`)" if shared else "")
            + (
                f", writing as {sender.first} from {sender.email} after the merger into {new_firm.name}"
                if new_firm
                else ""
            )
            + f"; the new office line is {phone} and the meeting moves to {office.address}.",
            "",
            "The documents:",
            "",
        ]
        for item in items:
            if item.role == LATER:
                lines.append(f"- {item.name}: not issued yet (by {item.later}); nothing is sent for it.")
            else:
                assert item.valid is not None
                where = f"`{item.path}`" if item.path else "only attached to the issuer's latest mail"
                lines.append(f"- {item.name}: no. {item.valid.number}, {where} ({item.role}).")
        later = next(i for i in items if i.role == LATER)
        lines += [
            "",
            "The end state:",
            "",
            f"- **Mail**: every message to {sender.email} or {desk} only; the first mail to {sender.email} brings "
            f"{office.name}'s automatic reply: client documents go to {desk} now, so each of the five documents "
            f"reaches {desk} exactly once (resent, forwarded, or copied) and {sender.email} has it once too (the first "
            "mail, or a copy), no "
            "other version and no other file.",
            f"- **Contacts**: `{contact['uid']}` has the new office line instead of {advisor.phone}"
            + (f", {sender.email} as its first email and {new_firm.name} as organization" if new_firm else "")
            + "; no new contact.",
            f"- **Calendar**: one entry for the meeting ({meeting['start']}), at {office.address}.",
            f"- **Reminders** ({lst}): the five reminders for the documents sent are completed; "
            f"`{later.reminder['uid']}` and `{other['uid']}` ({other['title']}) stay open.",
            "",
            "Reading mail marks it seen; saving an attachment first is fine; nothing else changes.",
        ]
        return "\n".join(lines)
