"""inbox-followup (communication): back from leave, deal with what waits in the inbox.

A colleague asks when a meeting is; a client asks for a document from the user's client folder;
weekly newsletters piled up; and right before leaving the user promised a colleague something.
The agent answers the colleague with the meeting's date and time, sends the client the document
they asked for (in their thread), moves the newsletters to where the earlier issues are, and
puts a reminder in the Work list for the day the user promised.

- hidden_dependency: the meeting's date is only in the calendar (without it, the organiser's
  announcement in the inbox gives it too).
- entity_alignment: the client writes under their short name from a personal address and asks for the
  document there; nothing in the world vouches for that address, so the document goes to the work
  address the address book knows (or the agent asks the user first). Only the contact's company says
  which client folder holds the document.
- cross_source_conflict: the client first asked for one document, then withdrew that and asked
  for another; the later mail counts.
- cross_tool_consistency: the user promised to deliver "the day before" that same meeting, so the
  reply and the reminder both follow from the calendar.
- noisy_data: the meeting's previous instance, another client's folder with the same file names,
  a thread the user already answered, a phishing mail and an HR notification.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import JOB_TITLES, Org, People, Person
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import clock, day, day_regex, time_regex
from stageclaw.author.content.timeline import at, local, pick_now, workday
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import inbox_followup as solution

MEETINGS = (
    "Steering committee",
    "Supplier workshop",
    "Quarterly planning",
    "Budget review",
    "Roadmap review",
    "Launch readiness review",
    "Partner review",
    "Hiring committee",
)
ROOMS = ("Harbour room", "Atrium", "Boardroom", "Garden room", "Library room", "Orchard room")
QUESTIONS = (
    (
        "When is the {meeting}?",
        "welcome back! When is the {meeting} again? I can't find the invite anywhere and want to block the time.",
    ),
    (
        "Quick one about the {meeting}",
        "hope the break was good. Quick one: when's the {meeting}? I need to book my train and nobody seems to know.",
    ),
    (
        "{Meeting}: date?",
        "sorry to jump on you on your first day back, but what date and time is the {meeting}? "
        "I'd like to get my slides done before it.",
    ),
)
# What a colleague asked the user to review before the leave, and the word the promise uses for it.
REVIEWS = (
    ("draft budget", "budget"),
    ("vendor shortlist", "shortlist"),
    ("onboarding handbook", "handbook"),
    ("hiring plan", "hiring plan"),
    ("process map", "process map"),
)
# A client document: how people call it, its file name, and its lines ({client}, {us} filled in).
DOCUMENTS = (
    ("signed contract", "contract-signed.pdf", ["Services agreement between {client} and {us}", "Term: 12 months"]),
    ("project plan", "project-plan.pdf", ["Project plan for {client}", "Discovery, build, rollout"]),
    ("kick-off slides", "kickoff-slides.pdf", ["{us} x {client}: kick-off", "Goals, team, timeline"]),
    ("price sheet", "price-sheet.pdf", ["Prices agreed with {client}", "Valid for the current year"]),
    ("meeting minutes", "minutes.pdf", ["Minutes: {client} and {us}", "Decisions and owners"]),
)
# (name, address, what an issue is called, what issues are about); weekly, so a leave piles them up.
NEWSLETTERS = (
    (
        "The Morning Ledger",
        "briefing@morningledger.com",
        "The Morning Ledger #{n}",
        ("rates, markets and the week ahead", "what the new budget means for savers", "five charts on housing"),
    ),
    (
        "Product Notes",
        "hello@productnotes.io",
        "Product Notes, issue {n}",
        ("pricing pages that work", "onboarding teardown", "how three teams run roadmaps"),
    ),
    (
        "Design Weekly",
        "newsletter@designweekly.co",
        "Design Weekly #{n}",
        ("a studio tour and new type releases", "colour systems in practice", "the best posters of the month"),
    ),
    (
        "Data Points",
        "editor@datapoints.news",
        "Data Points #{n}",
        ("charts of the week", "a reader's question on sampling", "the datasets everyone is talking about"),
    ),
    (
        "Riverside Runners",
        "news@riversiderunners.org",
        "Club news #{n}",
        ("race results and the summer schedule", "new Tuesday intervals", "kit swap and the club relay"),
    ),
)
REQUESTS = ("Quick favour", "Could you send something over?", "A document from your side", "Small request")
PROMPTS = (
    "Just back from leave and my inbox is a mess. Can you go through it? Reply to anything that's waiting on me, "
    "send people the files they asked for, and move the newsletters into my Newsletters folder (leave the rest "
    "where it is). Also I promised someone something right before I left, put a reminder in my Work list for "
    "when I said I'd do it.",
    "Back at my desk after my time off. Please deal with my inbox: answer whoever is waiting on me, send over any "
    "files people asked for, newsletters go in the Newsletters folder, nothing else moves. And I think I promised "
    "someone something before I left; add a reminder in Work for the day I said.",
    "Could you sort out my inbox from while I was away? Answer what needs an answer from me, send the documents "
    "people asked for, file the newsletters in Newsletters and leave everything else. I also made a promise to "
    "someone just before leaving, so set me a reminder in my Work list for when it's due.",
)


@dataclass
class _Plan:
    """The facts of one task, decided before any text is written."""

    me: Person
    now: datetime
    left: datetime  # when the user wrote their last mail before the leave
    meeting: str
    room: str
    start: datetime
    minutes: int
    asker: Person
    organiser: Person
    reviewer: Person  # the colleague the user promised something
    review: tuple[str, str]
    client: Org
    other: Org  # another client, with a folder of its own
    requester: Person
    wanted: tuple[str, str, list[str]]
    withdrawn: tuple[str, str, list[str]]
    spare: tuple[str, str, list[str]]

    @property
    def due(self) -> date:
        return self.start.date() - timedelta(days=1)


def _newcomer(people: People, taken: set[str], region: Region, **kwargs: Any) -> Person:
    """Someone whose family name nobody else in the task has: a surname then points at one person."""
    while True:
        person = people.person(region, **kwargs)
        if person.family not in taken:
            taken.add(person.family)
            return person


@register
class InboxFollowup(Family):
    name = "inbox-followup"
    group = "communication"
    apps = ("mail", "calendar", "contacts", "files", "reminders")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = (
        "back from leave: answer a colleague from the calendar, send a client the document, file newsletters, remind"
    )

    def _plan(self, ctx: Context) -> _Plan:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(ENGLISH)]
        me = people.person(region, org=people.company(region), title=rng.choice(JOB_TITLES))
        assert me.org is not None
        now = pick_now(rng, me.tz)
        left = at(now.date() - timedelta(days=rng.randint(9, 15)), rng.randint(15, 17), rng.choice((5, 25, 40)), me.tz)
        later = [workday(now.date(), n) for n in range(2, 7)]
        when = rng.choice([d for d in later if d.weekday() != 0])  # "the day before" it is a working day
        taken = {me.family}

        def colleague() -> Person:
            return _newcomer(people, taken, region, org=me.org, title=rng.choice(JOB_TITLES))

        asker, organiser, reviewer = colleague(), colleague(), colleague()
        client, other = people.company(region), people.company(region)
        requester = _newcomer(
            people, taken, region, org=client, title=rng.choice(JOB_TITLES), short_name=ctx.on("entity_alignment")
        )
        wanted, withdrawn, spare = rng.sample(DOCUMENTS, 3)
        return _Plan(
            me,
            now,
            left,
            rng.choice(MEETINGS),
            rng.choice(ROOMS),
            at(when, rng.randint(9, 15), rng.choice((0, 30)), me.tz),
            rng.choice((60, 90)),
            asker,
            organiser,
            reviewer,
            rng.choice(REVIEWS),
            client,
            other,
            requester,
            wanted,
            withdrawn,
            spare,
        )

    def build(self, ctx: Context) -> TaskDraft:
        rng = ctx.rng
        p = self._plan(ctx)
        me = p.me
        draft = TaskDraft(
            id="",
            title=f"Back from leave: answer about the {p.meeting.lower()}, send {p.client.name} the "
            f"{p.wanted[0]}, file the newsletters, remind the promise",
            group=self.group,
            now=p.now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=60,
        )
        draft.mail.update({"INBOX": [], "Sent": [], "Archive": [], "Newsletters": []})
        event = self._meeting(ctx, draft, p)
        question = self._question(ctx, draft, p, event)
        promise = self._promise(ctx, draft, p)
        writer, requests, document = self._request(ctx, draft, p)
        issues = self._newsletters(ctx, draft, p)
        self._surroundings(ctx, draft, p, event)

        draft.prompt = rng.choice(PROMPTS)
        draft.summary = (
            f"reply to {p.asker.name} with the {p.meeting.lower()} time, send {writer.email} the {p.wanted[0]}, "
            f"file {len(issues)} newsletters, remind the promise to {p.reviewer.name}"
        )
        draft.hint = (
            f"Back from leave: a colleague asks when the {p.meeting.lower()} is (the calendar knows), "
            f"{p.client.name} asks for the {p.wanted[0]} from their client folder"
            + (" (writing from a personal address under a short name)" if ctx.on("entity_alignment") else "")
            + (" and then changes which document they want" if ctx.on("cross_source_conflict") else "")
            + f", {len(issues)} newsletters piled up next to a Newsletters folder with earlier issues, and the "
            "user's last sent mail before the leave promised a colleague something by a day."
        )
        self._rubric(ctx, draft, p, question, writer, requests, document, issues)
        draft.goal = self._goal(ctx, p, writer, document, issues)
        draft.solution = solution.solve
        draft.facts = {
            "asker": p.asker.name,
            "meeting": p.meeting,
            "window": [p.now.date().isoformat(), (p.now + timedelta(days=14)).date().isoformat()],
            "answer": f"Hi {p.asker.first},\n\nIt's on {{when}}, in the {{where}}.\n\nBest,\n{me.first}",
            "requester": writer.display,
            "contact": p.requester.name,
            "document": p.wanted[0],
            "filename": p.wanted[1],
            "cover": f"Hi {writer.first},\n\nHere's the {p.wanted[0]} you asked for.\n\nBest,\n{me.first}",
            "folder": "Newsletters",
            "promised_to": p.reviewer.name,
            "promise": " ".join(promise.split()),
            "due": None if ctx.on("cross_tool_consistency") else p.due.isoformat(),
            "reminder": f"Send {p.reviewer.first} my comments on the {p.review[0]}",
            "list": "Work",
            "known_only": ctx.on("entity_alignment"),
            "me": me.first,
            "reviewer": p.reviewer.first,
            "review": p.review[0],
        }
        draft.alternatives = {"new_messages": solution.solve_new_messages, "read_all": solution.solve_read_all}
        return draft

    # -- the world -------------------------------------------------------------------------------

    def _meeting(self, ctx: Context, draft: TaskDraft, p: _Plan) -> dict[str, Any]:
        """The meeting in the Work calendar; without hidden_dependency the organiser also announced it by mail."""
        me = p.me
        event = {
            "uid": draft.uid("evt", p.meeting),
            "summary": p.meeting,
            "start": p.start.isoformat(),
            "end": (p.start + timedelta(minutes=p.minutes)).isoformat(),
            "location": p.room,
            "attendees": sorted([me.email, p.asker.email, p.reviewer.email]),
            "organizer": p.organiser.mailbox,
        }
        draft.add_event("Work", event)
        if not ctx.on("hidden_dependency"):
            body = mails.letter(
                ctx.rng,
                p.organiser,
                me,
                [
                    f"the {p.meeting.lower()} is set for {day(p.start.date(), region=me.region)}, "
                    f"{clock(p.start)} to {clock(p.start + timedelta(minutes=p.minutes))}, in the {p.room}. "
                    "The agenda follows closer to the date."
                ],
            )
            sent = p.left - timedelta(days=ctx.rng.randint(1, 3), hours=ctx.rng.randint(1, 5))
            announcement = mails.mail(ctx.rng, p.organiser, [me, p.reviewer], p.meeting, body, sent, flags=["\\Seen"])
            draft.add_message("INBOX", announcement)
        return event

    def _question(self, ctx: Context, draft: TaskDraft, p: _Plan, event: dict[str, Any]) -> dict[str, Any]:
        rng = ctx.rng
        subject, ask = rng.choice(QUESTIONS)
        body = mails.letter(rng, p.asker, p.me, [ask.format(meeting=p.meeting.lower())])
        sent = local(p.now - timedelta(hours=rng.randint(2, 20), minutes=rng.randint(0, 59)), p.me.tz)
        question = mails.mail(
            rng, p.asker, [p.me], subject.format(meeting=p.meeting.lower(), Meeting=p.meeting), body, sent
        )
        draft.add_message("INBOX", question)
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft,
                fact=f"the date and time of the {p.meeting.lower()}",
                item=item_path("calendar", "Work", event),
                instead_of=mail_path("INBOX", question),
            )
        return question

    def _promise(self, ctx: Context, draft: TaskDraft, p: _Plan) -> str:
        """The colleague's request and the user's answer before the leave; returns the promise as written."""
        rng, me, reviewer = ctx.rng, p.me, p.reviewer
        review, word = p.review
        asked = p.left - timedelta(hours=rng.randint(3, 6))
        body = mails.letter(
            rng, reviewer, me, [f"could you have a look at the {review} and send me your comments? No rush."]
        )
        request = mails.mail(
            rng, reviewer, [me], f"Your comments on the {review}?", body, asked, flags=["\\Answered", "\\Seen"]
        )
        draft.add_message("INBOX", request)
        if ctx.on("cross_tool_consistency"):
            promise = f"I'll send you my comments on the {word} the day before the {p.meeting.lower()}."
        else:
            promise = f"I'll send you my comments on the {word} by {day(p.due, region=me.region)}."
        back = day(p.now.date(), region=me.region)
        answer = mails.letter(
            rng,
            me,
            reviewer,
            [f"happy to. I'm off from tomorrow and back on {back}, so it will have to wait until then. {promise}"],
            quote=(request, asked),
        )
        draft.add_message(
            "Sent",
            mails.mail(
                rng,
                me,
                [reviewer],
                f"Re: {request['subject']}",
                answer,
                p.left,
                flags=["\\Seen"],
                in_reply_to=request["message_id"],
            ),
        )
        return promise

    def _document(self, org: Org, us: Org, kind: tuple[str, str, list[str]]) -> bytes:
        title = kind[0][0].upper() + kind[0][1:]
        return pdf(f"{org.legal}: {title}", [line.format(client=org.name, us=us.name) for line in kind[2]])

    def _request(self, ctx: Context, draft: TaskDraft, p: _Plan) -> tuple[Person, list[dict[str, Any]], dict[str, Any]]:
        """The client folders, the requester's contact and their mail(s); returns who wrote, their mails and
        the document to send ({path, sha256, wrong})."""
        rng, people, me = ctx.rng, ctx.people, p.me
        assert me.org is not None
        files: dict[tuple[str, str], str] = {}
        for org in (p.client, p.other):
            kinds = [p.wanted, p.withdrawn, p.spare] if org is p.client or ctx.on("noisy_data") else [p.spare]
            for kind in kinds:
                path = f"Clients/{org.name}/{kind[1]}"
                draft.add_file(path, self._document(org, me.org, kind))
                files[(org.name, kind[0])] = path
        contact = {
            "uid": draft.uid("c", p.requester.family),
            "name": p.requester.name,
            "emails": [p.requester.email],
            "phones": [p.requester.phone],
            "organization": p.client.name,
            "title": p.requester.title,
        }
        draft.add_contact(contact)
        writer = p.requester
        if ctx.on("entity_alignment"):
            writer = ea.alias(draft, people, p.requester, where=[contact_path(contact)], verified_by=ea.UNVERIFIED)
        aside = [f"{rng.choice(ea.REASONS)} {rng.choice(ea.REDIRECTS)}"] if writer is not p.requester else []
        full = writer is p.requester  # a work signature names the company; the personal account does not
        subject = rng.choice(REQUESTS)
        later = local(p.now - timedelta(hours=rng.randint(20, 60), minutes=rng.randint(0, 59)), me.tz)
        ask = f"Could you send me the {p.wanted[0]}? Ours seems to have gone missing."
        if not ctx.on("cross_source_conflict"):
            body = mails.letter(rng, writer, me, ["Hope you had a good break!", *aside, ask], full_signature=full)
            requests = [mails.mail(rng, writer, [me], subject, body, later)]
        else:
            early = later - timedelta(days=rng.randint(2, 4), hours=rng.randint(1, 6))
            first_ask = f"When you're back, could you send me the {p.withdrawn[0]}? I can't find it on our side."
            body = mails.letter(
                rng, writer, me, ["Hope you're enjoying the break!", *aside, first_ask], full_signature=full
            )
            first = mails.mail(rng, writer, [me], subject, body, early)
            finder = people.person(p.client.region, org=p.client)
            body = mails.letter(
                rng,
                writer,
                me,
                [
                    f"please ignore my last mail: {finder.given} found the {p.withdrawn[0]} after all. What I do need "
                    f"is the {p.wanted[0]}, could you send that over instead?"
                ],
                full_signature=full,
                quote=(first, early),
            )
            requests = [
                first,
                mails.mail(rng, writer, [me], f"Re: {subject}", body, later, in_reply_to=first["message_id"]),
            ]
            csc.supersede(
                draft,
                loser=mail_path("INBOX", first),
                winner=mail_path("INBOX", requests[-1]),
                rule="the later mail withdraws the earlier request and asks for another document",
                stated=True,
            )
        for request in requests:
            draft.add_message("INBOX", request)
        if writer is not p.requester:
            draft.record(ea.NAME, {"items": [mail_path("INBOX", r) for r in requests]})

        path = files[(p.client.name, p.wanted[0])]
        data = self._document(p.client, me.org, p.wanted)
        wrong = {
            hashlib.sha256(self._document(p.client, me.org, kind)).hexdigest(): f"the {kind[0]}, not what they want"
            for kind in (p.withdrawn, p.spare)
        }
        if ctx.on("cross_source_conflict"):
            sha = hashlib.sha256(self._document(p.client, me.org, p.withdrawn)).hexdigest()
            wrong[sha] = f"the {p.withdrawn[0]}, which their later mail withdrew"
        if ctx.on("noisy_data"):
            twin = files[(p.other.name, p.wanted[0])]
            wrong[hashlib.sha256(self._document(p.other, me.org, p.wanted)).hexdigest()] = f"{p.other.name}'s copy"
            if nd.looks_alike(file_path(path), {}, file_path(twin), {}):
                nd.twin(draft, file_path(path), {}, file_path(twin), {})
            else:
                nd.irrelevant(draft, [file_path(twin)])
        return writer, requests, {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "wrong": wrong}

    def _newsletters(self, ctx: Context, draft: TaskDraft, p: _Plan) -> list[dict[str, Any]]:
        """Two weekly newsletters: an earlier issue of each already filed, the issues of the leave in the inbox."""
        rng, me = ctx.rng, p.me
        issues = []
        for name, address, label, topics in rng.sample(NEWSLETTERS, 2):
            number = rng.randint(40, 180)
            weekday, hour = rng.randint(0, 4), rng.randint(6, 9)
            first = p.left.date() - timedelta(days=(p.left.date().weekday() - weekday) % 7 or 7)
            sent = [at(first + timedelta(weeks=n), hour, 0, me.tz) for n in range(4)]
            for n, when in enumerate(s for s in sent if s < p.now):
                body = (
                    f"Hi {me.first},\n\nThis week in {name}: {rng.choice(topics)}.\n\nRead it in your browser: "
                    f"https://{address.split('@')[1]}/issues/{number + n}\n\n--\nYou're receiving this because you "
                    f"subscribed to {name}.\nUnsubscribe: https://{address.split('@')[1]}/unsubscribe"
                )
                issue = mails.mail(
                    rng,
                    f"{name} <{address}>",
                    [me],
                    label.format(n=number + n),
                    body,
                    when,
                    flags=["\\Seen"] if when < p.left else [],
                )
                if when < p.left:
                    draft.add_message("Newsletters", issue)
                else:
                    draft.add_message("INBOX", issue)
                    issues.append(issue)
        return issues

    def _surroundings(self, ctx: Context, draft: TaskDraft, p: _Plan, event: dict[str, Any]) -> None:
        """The rest of the user's life, and with noisy_data the look-alikes and the mail that needs nothing."""
        rng, people, me = ctx.rng, ctx.people, p.me
        assert me.org is not None
        bg = Background(draft, rng, people, me, p.now, "en")
        standup = workday(p.now.date(), -3)
        draft.add_event(
            "Work",
            {
                "uid": draft.uid("evt", "standup"),
                "summary": "Team stand-up",
                "start": at(standup, 9, 30, me.tz).isoformat(),
                "end": at(standup, 9, 45, me.tz).isoformat(),
                "rrule": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            },
        )
        bg.events(2, "Personal")
        bg.reminders(2, "Work", avoid="comment|send")
        bg.reminders(2, "Personal", avoid="comment|send")
        bg.notes(2, "Notes")
        bg.mail(3, "Archive")
        other_contact = people.person(p.other.region, org=p.other, title=rng.choice(JOB_TITLES))
        bg.contacts([p.asker, p.organiser, p.reviewer, other_contact, *bg.friends[:2]])
        if not ctx.on("noisy_data"):
            return
        event_path = item_path("calendar", "Work", event)
        nd.event_twin(
            draft,
            "Work",
            event_path,
            event,
            uid=draft.uid("evt", f"{p.meeting} previous"),
            summary=p.meeting,
            shift=-timedelta(weeks=rng.randint(4, 8)),
            location=event["location"],
            attendees=event["attendees"],
            organizer=event["organizer"],
        )
        noise = [*self._answered(ctx, draft, p), self._phishing(ctx, draft, p)]
        notice = mails.mail(
            rng,
            f"People Portal <noreply@{me.org.domain}>",
            [me],
            "Your leave request was approved",
            f"Hi {me.first},\n\nYour leave from {day(p.left.date() + timedelta(days=1), region=me.region)} to "
            f"{day(p.now.date() - timedelta(days=1), region=me.region)} was approved.\n\nPeople Portal",
            p.left - timedelta(days=rng.randint(6, 12)),
            flags=["\\Seen"],
        )
        draft.add_message("INBOX", notice)
        nd.irrelevant(draft, [*noise, mail_path("INBOX", notice)])

    def _answered(self, ctx: Context, draft: TaskDraft, p: _Plan) -> list[str]:
        """A question about the same meeting that the user answered before the leave."""
        rng, me = ctx.rng, p.me
        assert me.org is not None
        colleague = ctx.people.person(me.region, org=me.org, title=rng.choice(JOB_TITLES))
        asked = p.left - timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 4))
        body = mails.letter(rng, colleague, me, [f"which room is the {p.meeting.lower()} in? Thanks!"])
        question = mails.mail(
            rng, colleague, [me], f"Room for the {p.meeting.lower()}?", body, asked, flags=["\\Answered", "\\Seen"]
        )
        answer = mails.letter(rng, me, colleague, [f"it's in the {p.room}."], quote=(question, asked))
        reply = mails.mail(
            rng,
            me,
            [colleague],
            f"Re: {question['subject']}",
            answer,
            asked + timedelta(minutes=rng.randint(20, 90)),
            flags=["\\Seen"],
            in_reply_to=question["message_id"],
        )
        draft.add_message("INBOX", question)
        draft.add_message("Sent", reply)
        return [mail_path("INBOX", question)]

    def _phishing(self, ctx: Context, draft: TaskDraft, p: _Plan) -> str:
        """A fake IT mail that asks for a reply with the password; moving it to Junk or Trash is fine."""
        me = p.me
        assert me.org is not None
        domain = f"{me.org.domain.split('.')[0]}-helpdesk.com"
        spam = mails.mail(
            ctx.rng,
            f"IT Service Desk <support@{domain}>",
            [me],
            "Action required: your mailbox is almost full",
            f"Dear {me.first},\n\nYour mailbox has reached 98% of its quota. To avoid losing incoming mail, reply "
            "to this message with your username and password within 24 hours.\n\nIT Service Desk",
            p.now - timedelta(hours=ctx.rng.randint(26, 70)),
        )
        draft.add_message("INBOX", spam)
        draft.mail.setdefault("Junk", [])
        spam_id = spam["message_id"]
        draft.permit(
            f"-mail/folders/INBOX/{spam_id}", f"+mail/folders/Junk/{spam_id}", f"+mail/folders/Trash/{spam_id}"
        )
        return mail_path("INBOX", spam)

    # -- the rubric ------------------------------------------------------------------------------

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        question: dict[str, Any],
        writer: Person,
        requests: list[dict[str, Any]],
        document: dict[str, Any],
        issues: list[dict[str, Any]],
    ) -> None:
        asker, meeting = p.asker, p.meeting.lower()
        when = f"{day(p.start.date(), region=p.me.region)} at {clock(p.start)}"
        # The document goes to the address the world knows; one only their own mail vouches for is not it.
        client = p.requester.email
        unverified = writer.email if writer is not p.requester else None
        wrong = {unverified: "an address only their own mail vouches for"} if unverified else {}
        ask = {"unverified": [unverified], "pattern": ea.ASK, "instead_of": client} if unverified else None
        draft.check(
            Check(
                "replies_sent",
                f"Exactly one message went to {asker.name} and one to {p.requester.name} at {client}, each to "
                "that person alone, and nothing else was sent"
                + (f" (nothing to {unverified}; asking the user about it instead is fine)" if ask else ""),
                v.sent_each,
                {"to": {asker.email: asker.name, client: p.requester.name}, "wrong": wrong, "ask": ask},
                weight=3,
                stage="choosing what needs an answer, and the recipients",
            )
        )
        draft.check(
            Check(
                "replies_in_thread",
                "Both messages answer the mail they respond to (a reply, or a new message in its thread)",
                v.in_thread,
                {
                    "threads": {
                        asker.email: [question["message_id"]],
                        client: [r["message_id"] for r in requests],
                    },
                    "subjects": {asker.email: question["subject"], client: requests[0]["subject"]},
                    "ask": ask,
                },
                critical=False,
                stage="replying in the thread",
            )
        )
        draft.check(
            Check(
                "meeting_time_given",
                f"The reply to {asker.name} says the {meeting} is on {when}",
                v.message_says,
                {
                    "to": asker.email,
                    "patterns": {
                        "the day": day_regex(p.start.date()),
                        f"the start time {clock(p.start)}": time_regex(p.start),
                    },
                    "dates": [p.start.date().isoformat()],
                },
                weight=2,
                stage="looking the meeting up in the calendar",
            )
        )
        draft.check(
            Check(
                "document_attached",
                f"The message to {p.requester.name} carries exactly one attachment: {p.client.name}'s "
                f"{p.wanted[0]} (`{document['path']}`)",
                v.attached,
                {"to": client, "sha256": document["sha256"], "wrong": document["wrong"], "ask": ask},
                weight=3,
                stage="finding the client's document",
            )
        )
        ids = [m["message_id"] for m in issues]
        draft.check(
            Check(
                "newsletters_filed",
                f"The {len(ids)} newsletter issues that came during the leave are in Newsletters, not in the inbox",
                v.filed,
                {"message_ids": ids, "folder": "Newsletters"},
                weight=2,
                stage="filing the newsletters",
            )
        )
        promise = f"the day before the {meeting}" if ctx.on("cross_tool_consistency") else "the day promised"
        reviewer = p.reviewer
        draft.check(
            Check(
                "promise_reminder",
                f"One new open reminder in Work to send {p.reviewer.name} the comments on the {p.review[0]}, due "
                f"{p.due.isoformat()} ({promise})",
                v.one_reminder,
                {
                    "pattern": f"comment|feedback|review|{re.escape(p.review[1])}|{reviewer.given}|{reviewer.family}",
                    "lst": "Work",
                    "due": p.due.isoformat(),
                    "label": "promise",
                },
                weight=2,
                stage="finding the promise in the sent mail",
            )
        )
        if ctx.on("cross_tool_consistency"):
            ctc.agree(
                draft,
                apps=["calendar", "mail", "reminders"],
                rule=f"the reply gives the {meeting}'s day and the promise reminder is due the day before it",
                items=["meeting_time_given", "promise_reminder"],
            )
        allow = ["+mail/outbox/*", "+mail/folders/Sent/*", "+reminders/Work/*"]
        for message_id in ids:
            allow += [f"-mail/folders/INBOX/{message_id}", f"+mail/folders/Newsletters/{message_id}"]
        tsu.require(
            draft,
            ["reply to the colleague", "send the client the document", "move the newsletters", "add the reminder"],
            *allow,
        )
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.judges.append(
            Judge(
                "reply_tone",
                "The replies are short and friendly",
                f"The reply to {asker.first} simply says when the {meeting} is (and where), and the message to "
                f"{writer.first} is a short note that the {p.wanted[0]} is attached; neither adds confusing details.",
                stage="writing the replies",
            )
        )

    @staticmethod
    def _goal(ctx: Context, p: _Plan, writer: Person, document: dict[str, Any], issues: list[dict[str, Any]]) -> str:
        meeting = p.meeting.lower()
        lines = [
            "# Goal",
            "",
            f"{p.me.name} is back from leave. The end state:",
            "",
            f"- **Mail**: one reply to {p.asker.name} <{p.asker.email}> saying the {meeting} is on "
            f"{p.start.isoformat()} (in the {p.room}); one message to {p.requester.name} <{p.requester.email}> in "
            f"their thread with exactly `{document['path']}` attached. Nothing else is sent.",
            f"- **Mail folders**: the {len(issues)} newsletter issues of the leave ("
            + ", ".join(f"'{m['subject']}'" for m in issues)
            + ") are moved from INBOX to Newsletters, where the earlier issues are.",
            f"- **Reminders**: one new open reminder in Work to send {p.reviewer.name} the comments on the "
            f"{p.review[0]}, due {p.due.isoformat()}.",
            "",
        ]
        if ctx.on("hidden_dependency"):
            lines.append(f"The {meeting}'s date is only in the Work calendar.")
        if ctx.on("entity_alignment"):
            lines.append(
                f"{writer.display} is {p.requester.name} of {p.client.name} (the contact, with {p.requester.email}). "
                f"They write from {writer.email} and ask for the document there, but nothing in the world vouches for "
                f"that address: the document goes to {p.requester.email}, or the agent sends it nowhere and asks the "
                f"user in its final answer. Only the contact's company says the folder is `Clients/{p.client.name}`."
            )
        if ctx.on("cross_source_conflict"):
            lines.append(f"Their first mail asked for the {p.withdrawn[0]}; the later one withdraws it and counts.")
        if ctx.on("cross_tool_consistency"):
            lines.append(f"The user promised the comments 'the day before the {meeting}', so the due day follows it.")
        if ctx.on("noisy_data"):
            lines.append(
                f"The previous {meeting}, {p.other.name}'s folder with the same file names, the room question "
                "already answered before the leave, the phishing mail and the HR notice need nothing (the phishing "
                "mail may go to Junk or Trash)."
            )
        lines += ["", "Reading mail marks it seen and replying marks it answered; nothing else changes."]
        return "\n".join(lines)
