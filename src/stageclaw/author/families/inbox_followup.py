"""inbox-followup (communication): back from leave, deal with what came in while the user was away.

Three colleagues ask when a meeting is; two clients ask for a document from their client folder;
weekly newsletters piled up; and right before leaving the user promised two colleagues something.
The agent answers each colleague with the meeting's date and time, sends each client the document
they asked for (in their thread), moves the newsletters to where the earlier issues are, and makes
sure the Work list has a reminder for each promise on the day the user said. Around it, six months of
mail, a year of calendar, contacts, files, notes and reminders.

Levers on every task (see `_levers`, written to the provenance): one meeting was moved during the leave
(the organiser's announcement in the inbox still gives the old time; the calendar and the organiser's
later mail the new one); the second client asks for "the document we agreed on the call", which only the
user's call note names; one promise already has a reminder in Work for the day first promised, and the
user's last mail in that thread changed the day (the reminder is moved, not doubled); one newsletter
switched its sending address during the leave. The user also jotted each promise in their everyday list
(not Work), in their own words and for a wrong day (the day back; the day first promised): each ends as
the one open reminder for its promise, in Work on the right day (moved there, or deleted and made anew),
never left beside the Work one.

- hidden_dependency: the first meeting's date is only in the calendar (without it, the organiser's
  announcement in the inbox gives it too).
- entity_alignment: the first client writes under their short name from a personal address and asks for
  the document there; nothing in the world vouches for that address, so the document goes to the work
  address the address book knows (or the agent asks the user first). Only the contact's company says
  which client folder holds the document.
- cross_source_conflict: the first client asked for one document, then withdrew that and asked for
  another; the later mail counts.
- cross_tool_consistency: the user promised to deliver "the day before" the third meeting, so that reply
  and the reminder both follow from the calendar.
- noisy_data: the first meeting's previous instance, another client's folder with the same file names, a
  thread the user already answered, a phishing mail and an HR notification.
- a reaction: the second client went on leave right after asking; the first mail to them brings their
  automatic reply, which names a colleague at their company who covers for them meanwhile, and the document has
  to reach that colleague (forwarded, sent again, or the client in copy).
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import holidays, life_en
from stageclaw.author.content import mail as mails
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import JOB_TITLES, Org, People, Person
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import clock, date_regex, day, day_regex, short_day, time_regex
from stageclaw.author.content.timeline import at, local, pick_now
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
from stageclaw.author.solutions import inbox_followup as solution

OWN_LIST = "Reminders"  # the user's everyday list, beside Work

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
    (
        "{Meeting}",
        "do you know when the {meeting} is happening? I was told to ask you, and I'd like to put it in my diary.",
    ),
)
# The organiser's mail about the meeting moved during the leave: its subject does not name the meeting.
MOVES = (
    (
        "Change of plan next week",
        "we have to move the {meeting}: it is now on {when}, {room}. The invitation is updated.",
    ),
    ("New time", "a clash on my side, so the {meeting} moves to {when}, {room}. Sorry for the shuffle!"),
    ("Small change", "heads-up that the {meeting} is now on {when}, {room}. Your calendar should have the new time."),
)
# What a colleague asked the user to review before the leave, and the word the promise uses for it.
REVIEWS = (
    ("draft budget", "budget"),
    ("vendor shortlist", "shortlist"),
    ("onboarding handbook", "handbook"),
    ("hiring plan", "hiring plan"),
    ("process map", "process map"),
    ("survey questions", "survey"),
)
# A client document: how people call it, its file name, and its lines ({client}, {us} filled in).
DOCUMENTS = (
    ("signed contract", "contract-signed.pdf", ["Services agreement between {client} and {us}", "Term: 12 months"]),
    ("project plan", "project-plan.pdf", ["Project plan for {client}", "Discovery, build, rollout"]),
    ("kick-off slides", "kickoff-slides.pdf", ["{us} x {client}: kick-off", "Goals, team, timeline"]),
    ("price sheet", "price-sheet.pdf", ["Prices agreed with {client}", "Valid for the current year"]),
    ("meeting minutes", "minutes.pdf", ["Minutes: {client} and {us}", "Decisions and owners"]),
    ("data processing agreement", "dpa.pdf", ["Data processing agreement: {client} and {us}", "Annex: sub-processors"]),
)
# (name, address, what an issue is called, what issues are about); weekly, so a leave piles them up.
NEWSLETTERS = (
    (
        "Harbour Lines",
        "letters@harbourlines.com",
        "Harbour Lines #{n}",
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
# The second client's out-of-office (`mails.away_reply`, its fields): on leave, a colleague covers for them.
ON_LEAVE = (
    "Thank you for your email. I'm on leave until {back} and won't be reading mail until then.\n\n{handled}, "
    "please send it to my colleague {colleague} at {address}, who is covering my work while I'm away.\n\n{first}",
    "Hello, and thanks for your message. I'm away until {back}, without access to my email.\n\n{handled} in the "
    "meantime, please send it to {colleague} ({address}) instead: they're covering for me until I'm back and will "
    "take care of it.\n\nBest regards,\n{first}",
)
ON_LEAVE_FOR = "If you're sending a document or anything else I asked for"
REQUESTS = ("Quick favour", "Could you send something over?", "A document from your side", "Small request")
CALL_FOLLOWUPS = ("Following up on our call", "After our call", "From our call")
PROMPTS = (
    "Just back from leave and my inbox is a mess. Can you go through what came in while I was away? Reply to "
    "anything that's waiting on me, send people the files they asked for, and move the newsletters into my "
    "Newsletters folder (leave the rest where it is). Also I promised a couple of people things right before I "
    "left; make sure my Work list has a reminder for each, for when I said I'd do it, and just the one (I may "
    "have jotted some down elsewhere).",
    "Back at my desk after my time off. Please deal with the mail that came while I was away: answer whoever is "
    "waiting on me, send over any files people asked for, newsletters go in the Newsletters folder, nothing else "
    "moves. And I made a couple of promises before I left; check my Work list has a reminder for each on the day I "
    "said, and that I'm not reminded twice (I sometimes jot things in my other lists).",
    "Could you sort out my inbox from while I was away? Answer what needs an answer from me, send the documents "
    "people asked for, file the newsletters in Newsletters and leave everything else. I also promised two "
    "colleagues something just before leaving, so make sure there's a reminder in my Work list for each, for "
    "when it's due, and only that one (some may be jotted in another list).",
)
NEWSLETTER_NAMES = tuple(name for name, _, kind in life_en.VENDORS if kind == "newsletter")

Kind = tuple[str, str, list[str]]


@dataclass
class _Meeting:
    name: str
    room: str
    start: datetime
    minutes: int
    asker: Person
    organiser: Person
    was: datetime | None = None  # the time first announced, for the meeting moved during the leave
    event: dict[str, Any] = field(default_factory=dict)
    question: dict[str, Any] = field(default_factory=dict)

    @property
    def end(self) -> datetime:
        return self.start + timedelta(minutes=self.minutes)


@dataclass
class _Client:
    org: Org
    person: Person  # the contact in the address book
    wanted: Kind
    others: list[Kind]  # the other documents in their folder
    withdrawn: Kind | None = None  # asked for first, then withdrawn (cross_source_conflict)
    writer: Person | None = None  # who wrote (the person, or their short name at a personal address)
    requests: list[dict[str, Any]] = field(default_factory=list)
    path: str = ""
    sha256: str = ""
    wrong: dict[str, str] = field(default_factory=dict)
    note: dict[str, Any] | None = None  # the user's call note that names the document
    cover: Person | None = None  # on leave: the colleague their automatic reply names, who covers for them


@dataclass
class _Promise:
    key: str
    reviewer: Person
    review: tuple[str, str]
    due: date
    first: date | None = None  # the day first promised, when the user changed it before leaving
    anchor: _Meeting | None = None  # "the day before" this meeting
    stale: dict[str, Any] | None = None  # the reminder the user set for the first day
    own: dict[str, Any] | None = None  # the user's own jotting of it in their everyday list, for a wrong day
    text: str = ""  # the promise as the user wrote it last

    @property
    def title(self) -> str:
        return f"Send {self.reviewer.first} my comments on the {self.review[0]}"

    @property
    def pattern(self) -> str:
        return "|".join(re.escape(w) for w in (self.review[1], self.reviewer.given, self.reviewer.family))


@dataclass
class _Plan:
    """The facts of one task, decided before any text is written."""

    me: Person
    now: datetime
    left: datetime  # when the user wrote their last mail before the leave
    meetings: list[_Meeting]
    promises: list[_Promise]
    clients: list[_Client]
    other: Org  # another client, with a folder of its own
    letters: list[tuple[str, str, str, tuple[str, ...]]]
    moved_to: str  # the address the first newsletter writes from since the leave
    issues: list[dict[str, Any]] = field(default_factory=list)


def _newcomer(people: People, taken: set[str], region: Region, **kwargs: Any) -> Person:
    """Someone whose family and given names nobody else in the task has: a name then points at one person."""
    while True:
        person = people.person(region, **kwargs)
        if person.family not in taken and person.given not in taken:
            taken.update((person.family, person.given))
            return person


def _document(org: Org, us: Org, kind: Kind) -> bytes:
    title = kind[0][0].upper() + kind[0][1:]
    return pdf(f"{org.legal}: {title}", [line.format(client=org.name, us=us.name) for line in kind[2]])


def _office(moment: datetime) -> datetime:
    """`moment`, or the same day's working hours when it falls at night: people write to work by day."""
    if moment.hour < 8:
        return moment.replace(hour=8 + moment.minute % 3)
    if moment.hour >= 20:
        return moment.replace(hour=17 + moment.minute % 3)
    return moment


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@register
class InboxFollowup(Family):
    name = "inbox-followup"
    group = "communication"
    apps = ("mail", "calendar", "contacts", "files", "notes", "reminders")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = (
        "back from leave: answer colleagues from the calendar, send clients their documents, file newsletters, "
        "remind the promises"
    )

    def _plan(self, ctx: Context) -> _Plan:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(ENGLISH)]
        me = people.person(region, org=people.company(region), title=rng.choice(JOB_TITLES))
        assert me.org is not None
        now = pick_now(rng, me.tz)
        left = at(now.date() - timedelta(days=rng.randint(9, 15)), rng.randint(15, 17), rng.choice((5, 25, 40)), me.tz)
        business = holidays.calendar(region.key)
        days: list[date] = []
        on = now.date()
        while len(days) < 7:
            on += timedelta(days=1)
            if business.is_business_day(on):
                days.append(on)
        taken = {me.family, me.given}

        def colleague() -> Person:
            return _newcomer(people, taken, region, org=me.org, title=rng.choice(JOB_TITLES))

        # The third meeting anchors "the day before": a working day after today.
        third = rng.choice([d for d in days[1:6] if business.is_business_day(d - timedelta(days=1))])
        first, second = rng.sample([d for d in days[:6] if d != third], 2)
        was = rng.choice([d for d in days if d != second])
        meetings = [
            _Meeting(
                name,
                room,
                at(when, rng.randint(9, 15), rng.choice((0, 30)), me.tz),
                rng.choice((60, 90)),
                colleague(),
                colleague(),
            )
            for name, room, when in zip(
                rng.sample(MEETINGS, 3), rng.sample(ROOMS, 3), (first, second, third), strict=True
            )
        ]
        moved = meetings[1]
        while True:
            moved.was = at(was, rng.randint(9, 15), rng.choice((0, 30)), me.tz)
            if moved.was.time() != moved.start.time() or was != second:
                break
        reviews = rng.sample(REVIEWS, 2)
        anchor = meetings[2] if ctx.on("cross_tool_consistency") else None
        promised = anchor.start.date() - timedelta(days=1) if anchor else rng.choice(days[1:6])
        then, now_due = rng.sample(days[1:7], 2)
        promises = [
            _Promise("promise_reminder", colleague(), reviews[0], promised, anchor=anchor),
            _Promise("moved_promise_reminder", colleague(), reviews[1], now_due, first=then),
        ]
        orgs: list[Org] = []
        while len(orgs) < 3:
            org = people.company(region)
            if org.name not in {o.name for o in orgs} and org.name != me.org.name:
                orgs.append(org)
        kinds_a, kinds_b = rng.sample(DOCUMENTS, 3), rng.sample(DOCUMENTS, 3)
        clients = [
            _Client(
                orgs[0],
                _newcomer(people, taken, region, org=orgs[0], title=rng.choice(JOB_TITLES), short_name=ctx.on(ea.NAME)),
                kinds_a[0],
                kinds_a[1:],
                withdrawn=kinds_a[1] if ctx.on(csc.NAME) else None,
            ),
            _Client(
                orgs[1],
                _newcomer(people, taken, region, org=orgs[1], title=rng.choice(JOB_TITLES)),
                kinds_b[0],
                kinds_b[1:],
            ),
        ]
        letters = rng.sample(NEWSLETTERS, 3)
        stem = letters[0][1].split("@")[1].split(".")[0]
        return _Plan(me, now, left, meetings, promises, clients, orgs[2], letters, f"team@{stem}mail.com")

    def _avoid(self, p: _Plan) -> Avoid:
        """What the story owns: the background names none of it and takes none of its slots."""
        # the people the solution looks up by name; the organisers are only ever read about
        people = [m.asker for m in p.meetings] + [x.reviewer for x in p.promises] + [c.person for c in p.clients]
        slots = [(m.start, m.end) for m in p.meetings]
        moved = p.meetings[1]
        if moved.was is not None:
            slots.append((moved.was, moved.was + timedelta(minutes=moved.minutes)))
        words = [m.name for m in p.meetings] + [c.org.name for c in p.clients] + [p.other.name]
        words += [x.review[0] for x in p.promises] + [name for name, *_ in p.letters] + ["Newsletters"]
        return Avoid(
            people=[x.name for x in people],
            words=words,
            slots=slots,
            addresses=[x.email for x in people] + [m.organiser.email for m in p.meetings],
            paths=["Clients"],
        )

    def build(self, ctx: Context) -> TaskDraft:
        rng = ctx.rng
        p = self._plan(ctx)
        me = p.me
        first, second = p.clients
        draft = TaskDraft(
            id="",
            title="Back from leave: answer three colleagues from the calendar, send two clients their documents, "
            "file the newsletters, remind two promises",
            group=self.group,
            now=p.now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=120,
        )
        draft.mail.update({"INBOX": [], "Sent": [], "Archive": [], "Newsletters": []})
        life = Life(draft, rng, ctx.people, me, p.left - timedelta(hours=3), avoid=self._avoid(p), months=6)
        background = life.fill(Scale(messages=200, series=6, events=60, contacts=40, files=30, notes=6, reminders=8))
        self._tidy(draft, life)
        for n, meeting in enumerate(p.meetings):
            self._meeting(ctx, draft, p, n, meeting)
        for promise in p.promises:
            self._promise(ctx, draft, p, promise)
        self._jottings(ctx, draft, p)
        self._folders(ctx, draft, p)
        self._first_client(ctx, draft, p, first)
        self._second_client(ctx, draft, p, second)
        self._newsletters(ctx, draft, p)
        self._contacts(draft, p)
        self._noise(ctx, draft, p, background)
        arrival_order(draft)

        draft.prompt = rng.choice(PROMPTS)
        cover = self._on_leave(ctx, draft, p, second)
        writer = first.writer or first.person
        draft.summary = (
            f"reply to {', '.join(m.asker.name for m in p.meetings)} with the meetings' times, send {writer.email} "
            f"the {first.wanted[0]} and {second.person.name} the {second.wanted[0]} (it goes on to {cover.name}, "
            f"whom their automatic reply names), file {len(p.issues)} newsletters, remind the promises to "
            f"{p.promises[0].reviewer.name} and {p.promises[1].reviewer.name}"
        )
        draft.hint = (
            "Back from leave: three colleagues ask when a meeting is (the calendar knows; one was moved during the "
            f"leave), {first.org.name} asks for the {first.wanted[0]} from their client folder"
            + (" (writing from a personal address under a short name)" if ctx.on(ea.NAME) else "")
            + (" and then changes which document they want" if ctx.on(csc.NAME) else "")
            + f", {second.org.name} asks for the document agreed on a call (the user's call note names it; the "
            "client went on leave right after, and their automatic reply names the colleague who takes it), "
            f"{len(p.issues)} newsletters piled up next to a Newsletters folder with earlier issues, and the user's "
            "last mails before the leave promised two colleagues something by a day (one already has a reminder "
            "for the day first promised)."
        )
        self._rubric(ctx, draft, p)
        draft.goal = self._goal(ctx, p)
        draft.solution = solution.solve
        draft.facts = self._facts(ctx, p)
        draft.alternatives = {"new_messages": solution.solve_new_messages, "read_all": solution.solve_read_all}
        draft.note_levers(self._levers(ctx, p))
        return draft

    # -- the world -------------------------------------------------------------------------------

    @staticmethod
    def _tidy(draft: TaskDraft, life: Life) -> None:
        """Before the leave the user read their mail and filed every newsletter issue."""
        kinds = {address.casefold(): kind for _, address, kind in life.vendors}
        for folder in ("INBOX", "Archive"):
            keep = []
            for message in draft.mail.get(folder, []):
                sender = re.sub(r".*<|>.*", "", message["from"]).casefold()
                if folder == "INBOX" and "\\Seen" not in message["flags"]:
                    message["flags"].insert(0, "\\Seen")
                if kinds.get(sender) == "newsletter":
                    message["flags"] = ["\\Seen"]
                    draft.add_message("Newsletters", message)
                else:
                    keep.append(message)
            draft.mail[folder] = keep

    def _meeting(self, ctx: Context, draft: TaskDraft, p: _Plan, n: int, m: _Meeting) -> None:
        """The meeting in the Work calendar and the colleague's question about it. The first is announced by
        mail only without hidden_dependency; the second was announced, then moved during the leave."""
        rng, me = ctx.rng, p.me
        others = [x.reviewer for x in p.promises]
        m.event = {
            "uid": draft.uid("evt", m.name),
            "summary": m.name,
            "start": m.start.isoformat(),
            "end": m.end.isoformat(),
            "location": m.room,
            "attendees": sorted({me.email, m.asker.email, others[n % 2].email}),
            "organizer": m.organiser.mailbox,
        }
        draft.add_event("Work", m.event)
        announced = m.was or (m.start if n == 0 and not ctx.on(hd.NAME) else None)
        if announced is not None:
            body = mails.letter(
                rng,
                m.organiser,
                me,
                [
                    f"the {m.name.lower()} is set for {day(announced.date(), region=me.region)}, "
                    f"{clock(announced)} to {clock(announced + timedelta(minutes=m.minutes))}, in the {m.room}. "
                    "The agenda follows closer to the date."
                ],
            )
            sent = p.left - timedelta(days=rng.randint(2, 4), hours=rng.randint(1, 5))
            note = mails.mail(rng, m.organiser, [me, others[n % 2]], m.name, body, sent, flags=["\\Seen"])
            draft.add_message("INBOX", note)
        if m.was is not None:
            subject, text = rng.choice(MOVES)
            when = f"{day(m.start.date(), region=me.region)}, {clock(m.start)} to {clock(m.end)}"
            body = mails.letter(
                rng, m.organiser, me, [text.format(meeting=m.name.lower(), when=when, room=f"in the {m.room}")]
            )
            sent = at(p.left.date() + timedelta(days=rng.randint(2, 5)), rng.randint(10, 16), rng.randint(0, 59), me.tz)
            draft.add_message("INBOX", mails.mail(rng, m.organiser, [me, others[n % 2]], subject, body, sent))
        subject, ask = QUESTIONS[n] if n < len(QUESTIONS) else rng.choice(QUESTIONS)
        body = mails.letter(rng, m.asker, me, [ask.format(meeting=m.name.lower())])
        sent = _office(local(p.now - timedelta(hours=rng.randint(2, 20) + 22 * n, minutes=rng.randint(0, 59)), me.tz))
        sent = min(sent, p.now - timedelta(minutes=20))
        m.question = mails.mail(rng, m.asker, [me], subject.format(meeting=m.name.lower(), Meeting=m.name), body, sent)
        draft.add_message("INBOX", m.question)
        if n == 0 and ctx.on(hd.NAME):
            hd.move_fact(
                draft,
                fact=f"the date and time of the {m.name.lower()}",
                item=item_path("calendar", "Work", m.event),
                instead_of=mail_path("INBOX", m.question),
            )

    @staticmethod
    def _jottings(ctx: Context, draft: TaskDraft, p: _Plan) -> None:
        """The user jotted each promise in their everyday list too, in their own words: the first for the day
        they are back, the changed one for the day first promised."""
        rng = ctx.rng
        for x in p.promises:
            word, given = x.review[1], x.reviewer.given
            title = rng.choice(
                (f"{word[0].upper()}{word[1:]} feedback for {given}", f"{given}: my notes on the {word}")
            )
            when = x.first if x.first is not None else p.now.date()
            x.own = draft.add_reminder(
                OWN_LIST,
                {
                    "uid": draft.uid("r", f"{given} {word}"),
                    "title": title,
                    "due": when.isoformat(),
                    "notes": rng.choice(("", "before I forget", "after the leave")),
                },
            )

    def _promise(self, ctx: Context, draft: TaskDraft, p: _Plan, x: _Promise) -> None:
        """The colleague's request and the user's answer before the leave; for a changed promise, the day first
        promised, its reminder, the colleague's ask for another day and the user's yes."""
        rng, me, reviewer = ctx.rng, p.me, x.reviewer
        review, word = x.review
        back = day(p.now.date(), region=me.region)
        asked = p.left - (timedelta(days=rng.randint(3, 5)) if x.first else timedelta(hours=rng.randint(3, 6)))
        body = mails.letter(
            rng, reviewer, me, [f"could you have a look at the {review} and send me your comments? No rush."]
        )
        request = mails.mail(
            rng, reviewer, [me], f"Your comments on the {review}?", body, asked, flags=["\\Answered", "\\Seen"]
        )
        draft.add_message("INBOX", request)
        subject = f"Re: {request['subject']}"
        if x.anchor is not None:
            x.text = f"I'll send you my comments on the {word} the day before the {x.anchor.name.lower()}."
        else:
            x.text = f"I'll send you my comments on the {word} by {day(x.first or x.due, region=me.region)}."
        first_at = p.left if x.first is None else asked + timedelta(hours=rng.randint(1, 3))
        answer = mails.letter(
            rng,
            me,
            reviewer,
            [
                f"happy to. I'm off from {day(p.left.date() + timedelta(days=1), region=me.region)} and back on "
                f"{back}, so it will have to wait until then. {x.text}"
            ],
            quote=(request, asked),
        )
        reply = mails.mail(
            rng, me, [reviewer], subject, answer, first_at, flags=["\\Seen"], in_reply_to=request["message_id"]
        )
        draft.add_message("Sent", reply)
        if x.first is None:
            return
        # The user set a reminder for the day first promised; then the colleague asked for another day.
        x.stale = {
            "uid": draft.uid("r", f"comments {word}"),
            "title": f"Comments on the {review} for {reviewer.first}",
            "due": x.first.isoformat(),
        }
        draft.add_reminder("Work", x.stale)
        sooner = x.due < x.first
        why = (
            "the working group meets the day after, so I'd love to have them before that."
            if sooner
            else "I'm out myself until then, so there's no point in you rushing."
        )
        asked_again = first_at + timedelta(days=1, hours=rng.randint(1, 4))
        body = mails.letter(
            rng,
            reviewer,
            me,
            [f"thanks! Would {day(x.due, region=me.region)} work instead? {why[0].upper()}{why[1:]}"],
            quote=(reply, first_at),
        )
        again = mails.mail(
            rng,
            reviewer,
            [me],
            subject,
            body,
            asked_again,
            flags=["\\Answered", "\\Seen"],
            in_reply_to=reply["message_id"],
        )
        draft.add_message("INBOX", again)
        x.text = f"{day(x.due, region=me.region)} it is: I'll send you my comments on the {word} then."
        final = mails.letter(rng, me, reviewer, [f"sure, {x.text}"], quote=(again, asked_again))
        draft.add_message(
            "Sent",
            mails.mail(
                rng,
                me,
                [reviewer],
                subject,
                final,
                p.left - timedelta(minutes=rng.randint(30, 90)),
                flags=["\\Seen"],
                in_reply_to=again["message_id"],
            ),
        )

    def _folders(self, ctx: Context, draft: TaskDraft, p: _Plan) -> None:
        """Each client's folder; with noisy_data another client's folder has the first client's file names."""
        me = p.me
        assert me.org is not None
        first, second = p.clients
        for client in p.clients:
            for kind in [client.wanted, *client.others]:
                draft.add_file(f"Clients/{client.org.name}/{kind[1]}", _document(client.org, me.org, kind))
            client.path = f"Clients/{client.org.name}/{client.wanted[1]}"
            client.sha256 = _sha(_document(client.org, me.org, client.wanted))
            client.wrong = {
                _sha(_document(client.org, me.org, kind)): f"the {kind[0]}, not what they want"
                for kind in client.others
            }
        if first.withdrawn is not None:
            withdrawn = _sha(_document(first.org, me.org, first.withdrawn))
            first.wrong[withdrawn] = f"the {first.withdrawn[0]}, which their later mail withdrew"
        kinds = [first.wanted, *first.others] if ctx.on(nd.NAME) else [first.others[-1]]
        for kind in kinds:
            draft.add_file(f"Clients/{p.other.name}/{kind[1]}", _document(p.other, me.org, kind))
        if ctx.on(nd.NAME):
            twin = f"Clients/{p.other.name}/{first.wanted[1]}"
            first.wrong[_sha(_document(p.other, me.org, first.wanted))] = f"{p.other.name}'s copy"
            if nd.looks_alike(file_path(first.path), {}, file_path(twin), {}):
                nd.twin(draft, file_path(first.path), {}, file_path(twin), {})
            else:
                nd.irrelevant(draft, [file_path(twin)])
        for sha, why in list(first.wrong.items()):
            second.wrong.setdefault(sha, f"{first.org.name}'s document ({why})")
        second.wrong.setdefault(first.sha256, f"{first.org.name}'s {first.wanted[0]}")
        first.wrong.setdefault(second.sha256, f"{second.org.name}'s {second.wanted[0]}")

    def _first_client(self, ctx: Context, draft: TaskDraft, p: _Plan, c: _Client) -> None:
        """Their contact and their mail(s): under a short name from a personal address with entity_alignment,
        one document asked for and then withdrawn with cross_source_conflict."""
        rng, people, me = ctx.rng, ctx.people, p.me
        contact = self._contact(draft, c.person)
        writer = c.person
        if ctx.on(ea.NAME):
            writer = ea.alias(draft, people, c.person, where=[contact_path(contact)], verified_by=ea.UNVERIFIED)
        c.writer = writer
        aside = [f"{rng.choice(ea.REASONS)} {rng.choice(ea.REDIRECTS)}"] if writer is not c.person else []
        full = writer is c.person  # a work signature names the company; the personal account does not
        subject = rng.choice(REQUESTS)
        later = _office(local(p.now - timedelta(hours=rng.randint(20, 60), minutes=rng.randint(0, 59)), me.tz))
        ask = f"Could you send me the {c.wanted[0]}? Ours seems to have gone missing."
        if c.withdrawn is None:
            body = mails.letter(rng, writer, me, ["Hope you had a good break!", *aside, ask], full_signature=full)
            c.requests = [mails.mail(rng, writer, [me], subject, body, later)]
        else:
            early = later - timedelta(days=rng.randint(2, 4), hours=rng.randint(1, 6))
            first_ask = f"When you're back, could you send me the {c.withdrawn[0]}? I can't find it on our side."
            body = mails.letter(
                rng, writer, me, ["Hope you're enjoying the break!", *aside, first_ask], full_signature=full
            )
            first = mails.mail(rng, writer, [me], subject, body, early)
            finder = people.person(c.org.region, org=c.org)
            body = mails.letter(
                rng,
                writer,
                me,
                [
                    f"please ignore my last mail: {finder.given} found the {c.withdrawn[0]} after all. What I do need "
                    f"is the {c.wanted[0]}, could you send that over instead?"
                ],
                full_signature=full,
                quote=(first, early),
            )
            c.requests = [
                first,
                mails.mail(rng, writer, [me], f"Re: {subject}", body, later, in_reply_to=first["message_id"]),
            ]
            csc.supersede(
                draft,
                loser=mail_path("INBOX", first),
                winner=mail_path("INBOX", c.requests[-1]),
                rule="the later mail withdraws the earlier request and asks for another document",
                stated=True,
            )
        for request in c.requests:
            draft.add_message("INBOX", request)
        if writer is not c.person:
            draft.record(ea.NAME, {"items": [mail_path("INBOX", r) for r in c.requests]})

    def _second_client(self, ctx: Context, draft: TaskDraft, p: _Plan, c: _Client) -> None:
        """A call before the leave, the user's note of it (which names the document), and the client's mail
        asking for "the document we talked about"."""
        rng, me = ctx.rng, p.me
        self._contact(draft, c.person)
        c.writer = c.person
        on = p.left.date() - timedelta(days=rng.randint(1, 6))
        while on.weekday() >= 5:
            on -= timedelta(days=1)
        call = at(on, rng.choice((10, 11, 14, 15)), rng.choice((0, 30)), me.tz)
        draft.add_event(
            "Work",
            {
                "uid": draft.uid("evt", f"call {c.org.name}"),
                "summary": f"Call with {c.org.name}",
                "start": call.isoformat(),
                "end": (call + timedelta(minutes=30)).isoformat(),
                "attendees": sorted([me.email, c.person.email]),
                "organizer": me.mailbox,
            },
        )
        status = rng.choice(
            (
                "happy with the timeline; no change to the scope",
                "they want a fortnightly check-in instead of weekly",
                "budget approved on their side last week",
            )
        )
        c.note = {
            "uid": draft.uid("n", f"call {c.org.name}"),
            "title": f"Call with {c.org.name} ({short_day(on)})",
            "body": f"With {c.person.name}\n\n- {status[0].upper()}{status[1:]}\n"
            f"- {c.person.first} needs the {c.wanted[0]}: send it to them when I'm back from leave\n"
            "- Next call in about a month",
            "tags": ["meetings"],
        }
        draft.add_note("Work", c.note)
        body = mails.letter(
            rng,
            c.person,
            me,
            [
                "I hope you had a lovely break!",
                f"As agreed on our call on {day(on, region=me.region)}, could you send me the document we talked "
                "about now that you're back? Many thanks.",
            ],
            full_signature=True,
        )
        sent = _office(local(p.now - timedelta(hours=rng.randint(30, 80), minutes=rng.randint(0, 59)), me.tz))
        c.requests = [mails.mail(rng, c.person, [me], rng.choice(CALL_FOLLOWUPS), body, sent)]
        draft.add_message("INBOX", c.requests[0])

    @staticmethod
    def _on_leave(ctx: Context, draft: TaskDraft, p: _Plan, c: _Client) -> Person:
        """The second client went on leave right after asking: the first mail to them brings an automatic reply
        that names the colleague at their company who is covering for them meanwhile, and the document goes there.
        Drawn last, and from a generator of its own, so that the rest of the draw stays as it was."""
        rng = random.Random(f"{c.person.email} on leave {p.now.isoformat()}")
        people = ctx.people.drawing_with(rng)
        story = [p.me, *(m.asker for m in p.meetings), *(m.organiser for m in p.meetings)]
        story += [x.reviewer for x in p.promises] + [x.person for x in p.clients]
        taken = {n for x in story for n in (x.given, x.family)}
        c.cover = _newcomer(people, taken, c.org.region, org=c.org, title=rng.choice(JOB_TITLES))
        # back on a working day, two weeks or so from now: the document is wanted before that
        business = holidays.calendar(c.org.region.key)
        back = p.now.date() + timedelta(days=rng.randint(10, 16))
        while not business.is_business_day(back):
            back += timedelta(days=1)
        today, until = day(p.now.date(), region=c.person.region), day(back, region=c.person.region)
        draft.autoreplies.append(
            mails.away_reply(rng, c.person, c.cover, today, until, ON_LEAVE_FOR, p.now, texts=ON_LEAVE)
        )
        return c.cover

    def _newsletters(self, ctx: Context, draft: TaskDraft, p: _Plan) -> None:
        """Three weekly newsletters: two months of issues filed, the issues of the leave in the inbox; the
        first writes from a new address since the leave began."""
        rng, me = ctx.rng, p.me
        for k, (name, address, label, topics) in enumerate(p.letters):
            number = rng.randint(40, 180)
            weekday, hour = rng.randint(0, 4), rng.randint(6, 9)
            first = p.left.date() - timedelta(days=(p.left.date().weekday() - weekday) % 7 or 7) - timedelta(weeks=8)
            n, moved = 0, False
            while True:
                when = at(first + timedelta(weeks=n), hour, rng.choice((0, 15, 30)), me.tz)
                if when >= p.now:
                    break
                during = when > p.left
                sender = p.moved_to if during and k == 0 else address
                host = address.split("@")[1]
                body = f"Hi {me.first},\n\n"
                if during and k == 0 and not moved:
                    moved = True
                    body += (
                        f"A quick note first: {name} now comes from {p.moved_to}. Add it to your contacts so the "
                        "next issues don't end up in spam.\n\n"
                    )
                body += (
                    f"This week in {name}: {rng.choice(topics)}.\n\nRead it in your browser: "
                    f"https://{host}/issues/{number + n}\n\n--\nYou're receiving this because you "
                    f"subscribed to {name}.\nUnsubscribe: https://{host}/unsubscribe"
                )
                issue = mails.mail(
                    rng,
                    f"{name} <{sender}>",
                    [me],
                    label.format(n=number + n),
                    body,
                    when,
                    flags=[] if during else ["\\Seen"],
                )
                if during:
                    draft.add_message("INBOX", issue)
                    p.issues.append(issue)
                else:
                    draft.add_message("Newsletters", issue)
                n += 1

    @staticmethod
    def _contact(draft: TaskDraft, person: Person) -> dict[str, Any]:
        contact: dict[str, Any] = {
            "uid": draft.uid("c", person.family),
            "name": person.name,
            "emails": [person.email],
            "phones": [person.phone],
        }
        if person.org is not None:
            contact["organization"] = person.org.name
        if person.title:
            contact["title"] = person.title
        return draft.add_contact(contact)

    def _contacts(self, draft: TaskDraft, p: _Plan) -> None:
        for m in p.meetings:
            self._contact(draft, m.asker)
            self._contact(draft, m.organiser)
        for x in p.promises:
            self._contact(draft, x.reviewer)

    def _noise(self, ctx: Context, draft: TaskDraft, p: _Plan, background: list[str]) -> None:
        """With noisy_data the look-alikes and the mail that needs nothing; the phishing mail may go to Junk."""
        rng, people, me = ctx.rng, ctx.people, p.me
        assert me.org is not None
        other_contact = people.person(p.other.region, org=p.other, title=rng.choice(JOB_TITLES))
        self._contact(draft, other_contact)
        if not ctx.on(nd.NAME):
            return
        meeting = p.meetings[0]
        nd.event_twin(
            draft,
            "Work",
            item_path("calendar", "Work", meeting.event),
            meeting.event,
            uid=draft.uid("evt", f"{meeting.name} previous"),
            summary=meeting.name,
            shift=-timedelta(weeks=rng.randint(4, 8)),
            location=meeting.event["location"],
            attendees=meeting.event["attendees"],
            organizer=meeting.event["organizer"],
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
        nd.irrelevant(draft, [*noise, mail_path("INBOX", notice), *background[:40]])

    def _answered(self, ctx: Context, draft: TaskDraft, p: _Plan) -> list[str]:
        """A question about the first meeting that the user answered before the leave."""
        rng, me = ctx.rng, p.me
        assert me.org is not None
        meeting = p.meetings[0]
        story = {x.family for x in [*[m.asker for m in p.meetings], *[c.person for c in p.clients]]}
        colleague = ctx.people.person(me.region, org=me.org, title=rng.choice(JOB_TITLES))
        while colleague.family in story | {me.family}:
            colleague = ctx.people.person(me.region, org=me.org, title=rng.choice(JOB_TITLES))
        asked = p.left - timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 4))
        body = mails.letter(rng, colleague, me, [f"which room is the {meeting.name.lower()} in? Thanks!"])
        question = mails.mail(
            rng,
            colleague,
            [me],
            f"Room for the {meeting.name.lower()}?",
            body,
            asked,
            flags=["\\Answered", "\\Seen"],
        )
        answer = mails.letter(rng, me, colleague, [f"it's in the {meeting.room}."], quote=(question, asked))
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

    def _rubric(self, ctx: Context, draft: TaskDraft, p: _Plan) -> None:
        me = p.me
        first, second = p.clients
        writer = first.writer or first.person
        # The document goes to the address the world knows; one only their own mail vouches for is not it.
        client = first.person.email
        unverified = writer.email if writer is not first.person else None
        wrong = {unverified: "an address only their own mail vouches for"} if unverified else {}
        ask = {"unverified": [unverified], "pattern": ea.ASK, "instead_of": client} if unverified else None
        # The second client is on leave: their automatic reply names the colleague who covers for them.
        cover = second.cover
        assert cover is not None
        to = {m.asker.email: m.asker.name for m in p.meetings}
        to |= {client: first.person.name, cover.email: cover.name}
        draft.check(
            Check(
                "replies_sent",
                "Exactly one message went to each of "
                + ", ".join(f"{who} ({address})" for address, who in to.items())
                + ", each to that person alone, and nothing else was sent"
                + (f" (nothing to {unverified}; asking the user about it instead is fine)" if ask else "")
                + f": {cover.name} for {second.person.name}, whose automatic reply to the first mail says "
                f"{second.person.first} is on leave and {cover.first} covers for them meanwhile (that first mail to "
                f"{second.person.first} alone, or {second.person.first} in copy, is fine)",
                v.sent_each,
                {"to": to, "wrong": wrong, "ask": ask, "tried": {second.person.email: cover.email}},
                weight=3,
                stage="choosing what needs an answer, and the recipients",
            )
        )
        threads = {m.asker.email: [m.question["message_id"]] for m in p.meetings}
        subjects = {m.asker.email: m.question["subject"] for m in p.meetings}
        for c, address in ((first, client), (second, second.person.email)):
            if any(address not in r["from"] for r in c.requests):
                continue  # asked from an address nothing verifies: a new mail to the known one is the answer
            threads[address] = [r["message_id"] for r in c.requests]
            subjects[address] = c.requests[0]["subject"]
        draft.check(
            Check(
                "replies_in_thread",
                "Every message answers the mail it responds to (a reply, or a new message in its thread); the "
                "documents asked for from an unverified address may go to the known one in a new mail, and the "
                f"message to {cover.name}, who did not write, may be a new one",
                v.in_thread,
                {"threads": threads, "subjects": subjects, "ask": ask},
                critical=False,
                stage="replying in the thread",
            )
        )
        for n, m in enumerate(p.meetings, 1):
            when = f"{day(m.start.date(), region=me.region)} at {clock(m.start)}"
            dates = [m.start.date().isoformat()] + ([m.was.date().isoformat()] if m.was else [])
            draft.check(
                Check(
                    f"meeting_time_{n}",
                    f"The reply to {m.asker.name} says the {m.name.lower()} is on {when}"
                    + (" (the calendar's time, not the one first announced)" if m.was else ""),
                    v.message_says,
                    {
                        "to": m.asker.email,
                        # the moved meeting's old date may be given as history, so its day is the date itself
                        "patterns": {
                            "the day": date_regex(m.start.date()) if m.was else day_regex(m.start.date()),
                            f"the start time {clock(m.start)}": time_regex(m.start),
                        },
                        "dates": dates,
                    },
                    weight=2,
                    stage="looking the meeting up in the calendar",
                )
            )
        draft.check(
            Check(
                "document_attached",
                f"The message to {first.person.name} carries exactly one attachment: {first.org.name}'s "
                f"{first.wanted[0]} (`{first.path}`)",
                v.attached,
                {"to": client, "sha256": first.sha256, "wrong": first.wrong, "ask": ask},
                weight=3,
                stage="finding the client's document",
            )
        )
        draft.check(
            Check(
                "noted_document_attached",
                f"The message to {cover.name} carries exactly one attachment: the {second.wanted[0]} the user's call "
                f"note names for {second.person.name} (`{second.path}`); {second.person.first}'s automatic reply "
                f"says {cover.first} covers for them meanwhile; the first mail to {second.person.first} carries that "
                "file or none",
                v.attached,
                {
                    "to": cover.email,
                    "sha256": second.sha256,
                    "wrong": second.wrong,
                    "tried": [second.person.email],
                },
                weight=3,
                stage="finding which document the call agreed",
            )
        )
        ids = [m["message_id"] for m in p.issues]
        draft.check(
            Check(
                "newsletters_filed",
                f"The {len(ids)} newsletter issues that came during the leave (also those from "
                f"{p.letters[0][0]}'s new address) are in Newsletters, not in the inbox",
                v.filed,
                {"message_ids": ids, "folder": "Newsletters"},
                weight=2,
                stage="filing the newsletters",
            )
        )
        for x in p.promises:
            if x.anchor is not None:
                why = f"the day before the {x.anchor.name.lower()}"
            elif x.first is not None:
                why = (
                    f"the day the user's last mail agreed; the reminder for {x.first.isoformat()} is moved, not doubled"
                )
            else:
                why = "the day promised"
            args: dict[str, Any] = {"pattern": x.pattern, "lst": "Work", "due": x.due.isoformat(), "label": "promise"}
            if x.stale is not None:
                args["stale"] = x.stale["uid"]
            elif x.own is not None:  # the user's jotting in their everyday list: moved to Work, or replaced
                args["stale"] = x.own["uid"]
                why += f"; the user's own {x.own['title']!r} in {OWN_LIST} is moved to Work or replaced, not doubled"
            draft.check(
                Check(
                    x.key,
                    f"Exactly one open reminder in Work to send {x.reviewer.name} the comments on the {x.review[0]}, "
                    f"due {x.due.isoformat()} ({why})",
                    v.one_reminder,
                    args,
                    weight=2,
                    stage="finding the promise in the sent mail",
                )
            )
        for x in p.promises:
            if x.stale is None or x.own is None:
                continue
            draft.check(
                Check(
                    f"{x.key}_jotted",
                    f"The user's own {x.own['title']!r} ({OWN_LIST}, due {x.own['due']}) does not stay beside the "
                    f"Work reminder for the same promise: one open reminder for it, in Work, due {x.due.isoformat()}",
                    v.one_reminder,
                    {
                        "pattern": x.pattern,
                        "lst": "Work",
                        "due": x.due.isoformat(),
                        "label": "promise",
                        "stale": x.own["uid"],
                    },
                    weight=2,
                    stage="finding the promise in the sent mail",
                )
            )
        for x in p.promises:  # a reminder for one promise must not pass for the other
            for y in p.promises:
                hit = bool(re.search(y.pattern, x.title, re.IGNORECASE))
                if hit != (x is y) or any(
                    old and bool(re.search(y.pattern, old["title"], re.I)) != (x is y) for old in (x.stale, x.own)
                ):
                    raise AssertionError(f"the reminder {x.title!r} would pass for the promise to {y.reviewer.name}")
        if ctx.on(ctc.NAME):
            ctc.agree(
                draft,
                apps=["calendar", "mail", "reminders"],
                rule=f"the reply gives the {p.meetings[2].name.lower()}'s day and the promise reminder is due the "
                "day before it",
                items=["meeting_time_3", "promise_reminder"],
            )
        allow = ["+mail/outbox/*", "+mail/folders/Sent/*", "+reminders/Work/*"]
        allow += [f"+mail/folders/INBOX/{r['message_id']}" for r in draft.autoreplies]
        for x in p.promises:
            if x.stale is not None:
                allow += [f"~reminders/Work/{x.stale['uid']}#*", f"-reminders/Work/{x.stale['uid']}"]
            if x.own is not None:
                allow += [f"~reminders/{OWN_LIST}/{x.own['uid']}#*", f"-reminders/{OWN_LIST}/{x.own['uid']}"]
        for message_id in ids:
            allow += [f"-mail/folders/INBOX/{message_id}", f"+mail/folders/Newsletters/{message_id}"]
        tsu.require(
            draft,
            [
                "reply to the colleagues",
                "send the clients their documents",
                "move the newsletters",
                "add or move the reminders",
            ],
            *allow,
        )
        draft.permit("~mail/folders/*/*#flags")
        draft.judges.append(
            Judge(
                "reply_tone",
                "The replies are short and friendly",
                "Each reply to a colleague simply says when the meeting is (and where), and each message to a "
                "client is a short note that the document is attached; none adds confusing details.",
                stage="writing the replies",
            )
        )

    def _facts(self, ctx: Context, p: _Plan) -> dict[str, Any]:
        """What a careful person would look for; the solutions find everything else through the tools."""
        me = p.me
        first, second = p.clients
        writer = first.writer or first.person
        return {
            "window": [p.now.date().isoformat(), (p.now + timedelta(days=14)).date().isoformat()],
            "questions": [
                {
                    "asker": m.asker.name,
                    "meeting": m.name,
                    "answer": f"Hi {m.asker.first},\n\nIt's on {{when}}, in the {{where}}.\n\nBest,\n{me.first}",
                }
                for m in p.meetings
            ],
            "requests": [
                {
                    "requester": writer.display,
                    "contact": first.person.name,
                    "document": first.wanted[0],
                    "filename": first.wanted[1],
                    "note": None,
                    "cover": f"Hi {writer.first},\n\nHere's the {first.wanted[0]} you asked for.\n\nBest,\n{me.first}",
                    "known_only": ctx.on(ea.NAME),
                },
                {
                    "requester": second.person.name,
                    "contact": second.person.name,
                    "document": second.wanted[0],
                    "filename": second.wanted[1],
                    "note": f"Call with {second.org.name}",
                    "cover": f"Hi {second.person.first},\n\nAs promised on our call, here's the {second.wanted[0]}."
                    f"\n\nBest,\n{me.first}",
                    "known_only": False,
                },
            ],
            "folder": "Newsletters",
            "newsletters": [name for name, *_ in p.letters],
            "promises": [
                {
                    "promised_to": x.reviewer.name,
                    "promise": " ".join(x.text.split()),
                    "due": None if x.anchor else x.due.isoformat(),
                    "meeting": x.anchor.name if x.anchor else None,
                    "reminder": x.title,
                    "short": f"Comments on the {x.review[0]} to {x.reviewer.first}",
                    "names": [x.reviewer.first, x.reviewer.family],
                    "word": x.review[1],
                    "own": x.own["title"] if x.own else None,
                    "given": x.reviewer.given,
                }
                for x in p.promises
            ],
            "list": "Work",
            "own_list": OWN_LIST,
            "me": me.first,
        }

    @staticmethod
    def _levers(ctx: Context, p: _Plan) -> dict[str, str]:
        """Which planted difficulty each rubric item grades, for classifying a failed play."""
        moved, second = p.meetings[1], p.clients[1]
        changed = p.promises[1]
        first = p.clients[0]
        assert moved.was is not None and changed.first is not None and changed.stale is not None
        out = {
            "meeting_time_2": f"F stale source: the organiser's announcement in the inbox gives the "
            f"{moved.name.lower()} "
            f"on {moved.was.isoformat()}; it was moved during the leave to {moved.start.isoformat()} (the calendar, "
            "and a later mail from the organiser whose subject does not name the meeting)",
            "noted_document_attached": f"E one hop away: {second.person.name} asks for 'the document we talked about' "
            f"on the call; only the user's note '{second.note['title'] if second.note else ''}' names the "
            f"{second.wanted[0]}; their folder holds two other documents",
            "moved_promise_reminder": f"D half done: the Work list already has {changed.stale['title']!r} due "
            f"{changed.first.isoformat()}; the user's last mail in the thread agreed {changed.due.isoformat()}, so "
            "that reminder is moved (or replaced), not doubled or ticked off",
            "moved_promise_reminder_jotted": f"D disguised duplicate: the user's own {changed.own['title']!r} in "
            f"{OWN_LIST} (not Work), due {changed.first.isoformat()}, the day first promised; it does not stay "
            "beside the Work reminder (deleted, or moved to Work in its place)",
            "newsletters_filed": f"G completeness without one keyword: {p.letters[0][0]} writes from {p.moved_to} "
            "since the leave began, not from the address of the filed issues",
        }
        cover = second.cover
        assert cover is not None
        out["replies_sent"] = (
            f"R reaction: the first mail to {second.person.email} brings {second.person.name}'s automatic reply: on "
            f"leave, {cover.name} ({cover.email}) covers for them meanwhile; the {second.wanted[0]} counts once it "
            "reaches them (replies_sent, noted_document_attached)"
        )
        own = p.promises[0].own
        assert own is not None
        jotted = (
            f"D disguised duplicate: the user's own {own['title']!r} in {OWN_LIST} (not Work), due {own['due']} "
            "(the day back); it is moved to Work for the right day or replaced there, never left beside a new one"
        )
        out["promise_reminder"] = jotted
        if ctx.on(ctc.NAME):
            out["promise_reminder"] = (
                f"E one hop away: the promise says 'the day before the {p.meetings[2].name.lower()}'; only the "
                f"calendar gives that day; {jotted}"
            )
        if ctx.on(ea.NAME):
            out["document_attached"] = (
                f"E one hop away: {first.person.name} writes under a short name from an address nothing vouches for; "
                f"the contact card gives the work address and the company whose folder holds the {first.wanted[0]}"
                + ("; their later mail withdraws the first document" if ctx.on(csc.NAME) else "")
            )
        return out

    @staticmethod
    def _goal(ctx: Context, p: _Plan) -> str:
        first, second = p.clients
        cover = second.cover
        assert cover is not None
        writer = first.writer or first.person
        lines = ["# Goal", "", f"{p.me.name} is back from leave. The end state:", "", "- **Mail**:"]
        for m in p.meetings:
            lines.append(
                f"  - one reply to {m.asker.name} <{m.asker.email}> saying the {m.name.lower()} is on "
                f"{m.start.isoformat()} (in the {m.room})"
                + (f"; it was first announced for {m.was.isoformat()} and moved during the leave" if m.was else "")
            )
        lines += [
            f"  - one message to {first.person.name} <{first.person.email}> in their thread with exactly "
            f"`{first.path}` attached",
            f"  - one message to {cover.name} <{cover.email}> with exactly `{second.path}` attached (the call note "
            f"'{second.note['title'] if second.note else ''}' names it): the first mail, to {second.person.name} "
            f"<{second.person.email}> in their thread, brings an automatic reply: {second.person.first} is on leave "
            f"and {cover.name} ({cover.email}) is covering for them meanwhile, so the document has to reach "
            f"{cover.first} (forwarded, sent again, or {cover.first} written to with {second.person.first} in "
            "copy); that first mail carries the document or nothing",
            "  - nothing else is sent.",
            f"- **Mail folders**: the {len(p.issues)} newsletter issues of the leave ("
            + ", ".join(f"'{m['subject']}'" for m in p.issues)
            + f") are moved from INBOX to Newsletters, where the earlier issues are ({p.letters[0][0]} writes from "
            f"{p.moved_to} since the leave).",
            "- **Reminders** (Work): exactly one open reminder per promise:",
        ]
        for x in p.promises:
            lines.append(
                f"  - send {x.reviewer.name} the comments on the {x.review[0]}, due {x.due.isoformat()}"
                + (f" (the day before the {x.anchor.name.lower()})" if x.anchor else "")
                + (
                    f" (the existing reminder {x.stale['title']!r} due {x.first.isoformat()} is moved to it, or "
                    "replaced; not ticked off, not doubled)"
                    if x.stale and x.first
                    else ""
                )
            )
        lines.append("")
        if ctx.on(hd.NAME):
            lines.append(f"The {p.meetings[0].name.lower()}'s date is only in the Work calendar.")
        if ctx.on(ea.NAME):
            lines.append(
                f"{writer.display} is {first.person.name} of {first.org.name} (the contact, with "
                f"{first.person.email}). They write from {writer.email} and ask for the document there, but nothing in "
                f"the world vouches for that address: the document goes to {first.person.email}, or the agent sends "
                f"it nowhere and asks the user in its final answer. Only the contact's company says the folder is "
                f"`Clients/{first.org.name}`."
            )
        if ctx.on(csc.NAME) and first.withdrawn:
            lines.append(f"Their first mail asked for the {first.withdrawn[0]}; the later one withdraws it and counts.")
        if ctx.on(nd.NAME):
            lines.append(
                f"The previous {p.meetings[0].name.lower()}, {p.other.name}'s folder with the same file names, the "
                "room question already answered before the leave, the phishing mail and the HR notice need nothing "
                "(the phishing mail may go to Junk or Trash)."
            )
        lines += ["", "Reading mail marks it seen and replying marks it answered; nothing else changes."]
        return "\n".join(lines)
