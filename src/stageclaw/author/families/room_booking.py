"""room-booking (life_admin): book an intranet meeting room for a club the user runs at work.

The user asked the club's mailing list who is in for the next get-together, offering one day with
a lunchtime and an after-work slot. The agent counts who said yes, takes the slot the user's
calendar leaves free, reserves on the Northwind intranet a room that seats everyone, has
what the group needs and is free then, cancels the small placeholder room the user grabbed
earlier, puts the get-together in the calendar and mails the details to the people coming at
their work addresses. Around it sit months of ordinary mail, calendar, contacts, files and reminders.

The room is a joint decision: three colleagues mailed the user asking for rooms that day, each session
overlapping the get-together and the others, each with its own headcount and equipment. Exactly one
assignment of a room to each of the four bookings works (`_decided` tries every one); the get-together
fits two rooms, and the first of them on the rooms page is the only one for a session, so taking the
bookings in turn and each the first free room that fits runs into a dead end. Each session is graded by
its own reservation and by the colleague being told the room.

Levers on every task (`_levers`, written to the provenance): a Facilities mail points to the intranet's news,
which closes a room that seats everyone, has what the group needs and looks free on its schedule; the user's
calendar already holds the get-together at the placeholder's time and room, so it is moved (or replaced),
not doubled; the placeholder reservation is cancelled, not left next to the new one. The placeholder holds
the slot the user has since lost, and two things of the user's own, in their words, hang off it: a reminder
to pick up its key a little before the old time, and a line in their note on the club naming the room and
time held. Both follow the booking (changed, or deleted and written again), never left or doubled.

- cross_source_conflict: a member who declined and one who was unsure write again to say yes,
  and another takes their yes back. Counting the first answers picks a room one seat too small.
- entity_alignment: a member answers from a personal address under her short name; the address
  book has her full name on that address, the intranet directory her work address (next to a
  colleague with the same family name).
- hidden_dependency: what the room must have (step-free access, a kitchenette, a screen) is only
  in the user's note on the club, not in the call.
- noisy_data: last month's thread, the user's cancelled reservation and the event from last
  month, and a room whose name differs from the right one by a word.
- cross_tool_consistency: the calendar event (the held one, moved) has the room as its location and
  invites the people coming; the mail gives the room and time of the reservation.
- tool_state_update (always): the intranet cannot move a reservation, so the placeholder is
  cancelled, not left next to the new one.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import joint
from stageclaw.author.content import mail as mails
from stageclaw.author.content.people import JOB_TITLES, Org, Person, slug
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import clock, date_regex, day, day_regex, time_regex
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import room_booking as solution


@dataclass(frozen=True)
class Club:
    name: str  # as the user writes it in a sentence
    title: str  # of the reservation and the event
    pattern: str  # how any title for it reads
    list_name: str  # the mailing list's local part
    calendar: str
    minutes: int
    history: tuple[str, ...]  # lines of the user's note on it


CLUBS = (
    Club(
        "book club",
        "Book club",
        r"book\s*club",
        "bookclub",
        "Personal",
        60,
        ("Read so far: Piranesi, Klara and the Sun, The Overstory", "Next pick: vote at the meeting"),
    ),
    Club(
        "board games night",
        "Board games night",
        r"board\s*games?",
        "boardgames",
        "Personal",
        90,
        ("Games cupboard key: ask reception", "Wishlist: Wingspan, Cascadia"),
    ),
    Club(
        "bake sale planning meeting",
        "Bake sale planning",
        r"bake\s*sale",
        "bakesale",
        "Work",
        60,
        ("Last sale raised money for the food bank", "Float and card reader: Finance lends them"),
    ),
    Club(
        "parents' network meetup",
        "Parents' network meetup",
        r"parent",
        "parents",
        "Work",
        60,
        ("Topics so far: school holidays cover, flexible hours", "HR wants our notes for the survey"),
    ),
    Club(
        "language exchange",
        "Language exchange",
        r"language\s*exchange",
        "tandem",
        "Personal",
        60,
        ("Pairs rotate every meeting", "Bring a short text to read aloud"),
    ),
)
# (the room feature, why the group needs it; {who} is one of the people coming)
NEEDS = (
    ("Step-free access", "{who} is on crutches for a few more weeks, so the room needs step-free access."),
    ("Kitchenette", "everyone is bringing food to share, so we need a room with a kitchenette."),
    ("Screen", "{who} wants to show some photos, so we need a room with a screen."),
)
EQUIPMENT = (
    "Whiteboard",
    "Flip chart",
    "Speakerphone",
    "Video conferencing",
    "Step-free access",
    "Kitchenette",
    "Screen",
)
ROOM_NAMES = (
    "Harbour",
    "Orchard",
    "Summit",
    "Meadow",
    "Lantern",
    "Beacon",
    "Willow",
    "Granite",
    "Compass",
    "Skylight",
    "Foundry",
    "Atrium",
    "Quarry",
    "Aurora",
    "Cedar",
    "Juniper",
)
NEWS_WORKS = ("new carpets and lighting", "the air-conditioning upgrade", "repainting", "new windows")
TWINS = ("{} View", "{} Annex", "{} Lounge", "{} Corner", "Little {}")
DEPARTMENTS = ("Finance", "Operations", "Marketing", "Engineering", "People", "Sales", "Legal", "Customer Success")
BUSY = (  # (summary, calendar) of what keeps the user from one of the two slots
    ("Quarterly planning", "Work"),
    ("Interview panel", "Work"),
    ("Budget review", "Work"),
    ("Dentist", "Personal"),
    ("Physio", "Personal"),
)
MEETINGS = ("Sprint review", "Hiring sync", "Vendor demo", "Team retro", "Training: new CRM", "Board prep")
YES = ("Count me in!", "I'm in, thanks for organising.", "Yes please, I'll be there.", "Sounds great, I'll come.")
NO = (
    "Sorry, I can't make it this time.",
    "I'll have to skip this one, I'm away that week.",
    "Unfortunately I can't join, it clashes with something.",
)
MAYBE = ("Not sure yet, I'll let you know.", "Possibly, I need to check my diary first.")
LATER_YES = ("Good news, I can make it after all, so count me in.", "Turns out I'm free after all, I'll be there.")
LATER_NO = ("Sorry, something's come up and I can't make it after all.", "Bad news, I have to drop out after all.")
HOME = (
    "I'm off this week, so writing from my personal account. Send the details to my work address as usual.",
    "Writing from my phone as my work mail won't load here. Details to my work address please.",
)
PROMPTS = (
    "Can you book a room on the intranet for the {club}? Go by who actually said yes, and take the slot I can "
    "make. I grabbed a small room as a placeholder a while ago, so sort that out too, along with anything I set "
    "up around it. Then put it in my {calendar} calendar{invite} and email the people coming (work addresses) "
    "with where and when.",
    "Need a room for the {club}: check who's in, pick the time I'm free for and book something that fits on "
    "the intranet (my placeholder booking was only a stopgap, so tidy up whatever hangs off it). Add it to my "
    "{calendar} calendar{invite} and send the people coming the details, to their work emails.",
    "Please sort out the room for the {club}. See who's coming, book a room on the intranet for whichever slot "
    "works for me instead of the placeholder I made (and whatever I'd set up around that), put it in my "
    "{calendar} calendar{invite} and let everyone coming know where and when (work addresses).",
)
INVITE = " (the room as the location, and invite them)"
# Colleagues who asked the user for a room around the same time that day: what the session is, how its title may
# read, and what its room must have, in their words.
SESSIONS = (
    ("design review", r"design|review"),
    ("new starters' induction", r"induction|starter"),
    ("customer workshop", r"customer|workshop"),
    ("supplier interviews", r"supplier|interview"),
    ("data training", r"data|training"),
    ("roadmap session", r"roadmap"),
)
SESSION_NEEDS = {
    "Video conferencing": "half the team joins from the other office, so it needs video conferencing",
    "Speakerphone": "two people will dial in, so it needs a speakerphone",
    "Whiteboard": "we'll be sketching things out, so it needs a whiteboard",
    "Flip chart": "we split into groups and write things up, so it needs a flip chart",
    "Screen": "I'm presenting slides, so it needs a screen",
    "Step-free access": "one of the visitors uses a wheelchair, so it needs step-free access",
}
ASKS = (
    "Could you book me a room on {day} from {start} to {end} for the {what}? We'll be {n} including me, and {why}.",
    "Would you mind booking a room for the {what} on {day}, {start} to {end}? There will be {n} of us with me, and "
    "{why}.",
)
ASK_SUBJECTS = ("Room for the {what}?", "Room booking: {what}", "Could you book a room? ({what})")
PROMPT_SESSIONS = (
    " A few colleagues mailed me asking for rooms that same day as well; book theirs too (one room each, we can't "
    "share) and tell each of them which room they've got.",
    " Some colleagues also asked me to book rooms for them on that day. Please do those too, one room each, and let "
    "each of them know where they are.",
)
# The user's own reminder and note line about the placeholder; neither shares a word with the request.
KEY_REMINDERS = ("Pick up the {room} key from reception", "Get the {room} key off reception", "{room} key - reception")
HOLDING = (
    "Holding {room} on {day} at {time} for now, swap if more people come",
    "Got {room} for {day}, {time} (small, change it if numbers go up)",
    "{room} pencilled in: {day} {time}",
)


@dataclass
class _Room:
    name: str
    capacity: int
    features: list[str]
    floor: str

    @property
    def id(self) -> str:
        return slug(self.name)


@dataclass
class _Session:
    """A colleague's request for a room around the same time as the get-together."""

    who: Person
    what: str  # the session, as they write it
    pattern: str  # how the reservation's title may read
    start: datetime
    end: datetime
    seats: int  # with them
    need: str  # the feature
    room: _Room | None = None  # the one that works in the only complete assignment
    mail: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Member:
    work: Person  # as the directory knows them
    writes_as: Person  # as their mail shows them (with entity_alignment, one writes from a personal address)
    answers: list[str]  # the sentence that answers the call, one per mail, in order
    coming: bool
    mails: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Plan:
    """The facts of one task, decided before the world is written."""

    region: Region
    org: Org
    me: Person
    now: datetime
    club: Club
    on: date
    lunch: datetime
    evening: datetime
    chosen: datetime
    members: list[_Member]
    quiet: list[Person]
    need: str
    need_text: str

    @property
    def length(self) -> timedelta:
        return timedelta(minutes=self.club.minutes)

    @property
    def blocked(self) -> datetime:
        return self.evening if self.chosen == self.lunch else self.lunch

    @property
    def coming(self) -> list[_Member]:
        return [m for m in self.members if m.coming]

    @property
    def headcount(self) -> int:
        return len(self.coming) + 1  # the user comes too


@dataclass
class _Rooms:
    right: _Room
    short: _Room  # one seat too few: the room for the first answers
    busy: _Room  # big enough and equipped, but taken at the free slot
    placeholder: _Room
    lacking: _Room  # big enough, without what the group needs; with noisy_data named like the right one
    closed: _Room  # big enough, equipped and free on the schedule, but closed that day (the intranet's news)
    others: list[_Room]
    shared: _Room  # fits the get-together too and comes first on the rooms page, but is the only one for a session
    second: _Room  # for a session that could also have the right room
    third: _Room  # for a session that could also have `second`

    @property
    def all(self) -> list[_Room]:
        return [
            self.right,
            self.short,
            self.busy,
            self.placeholder,
            self.lacking,
            self.closed,
            *self.others,
            self.shared,
            self.second,
            self.third,
        ]


def _span(event: dict[str, Any]) -> tuple[datetime, datetime]:
    return datetime.fromisoformat(event["start"]), datetime.fromisoformat(event["end"])


def _overlaps(start: datetime, end: datetime, other: tuple[datetime, datetime]) -> bool:
    return start < other[1] and end > other[0]


def _name_regex(name: str, others: list[str]) -> str:
    """`name` as a whole word, but not as the start of a longer room name ("Harbour", not "Harbour View")."""
    longer = [o[len(name) :] for o in others if o != name and o.startswith(name)]
    ahead = "".join(f"(?!{re.escape(rest)})" for rest in longer)
    return f"(?<!\\w){re.escape(name)}(?!\\w){ahead}"


@register
class RoomBooking(Family):
    name = "room-booking"
    group = "life_admin"
    apps = ("mail", "calendar", "notes", "contacts", "intranet")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = "book an intranet room for a club: who said yes, the free slot, the one room that fits; invite them"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice([k for k in ENGLISH if k not in ("jp", "ng")])]  # their name pools run dry
        trade = rng.choice(("Logistics", "Analytics", "Systems", "Health", "Media"))
        org = people.org(region, f"Northwind {trade}", f"Northwind {trade} Ltd")
        me = people.person(region, org=org, title=rng.choice(JOB_TITLES))
        now = pick_now(rng, me.tz)
        club = rng.choice(CLUBS)
        draft = TaskDraft(
            id="",
            title=f"Book intranet rooms for the {club.name} and three overlapping sessions, one room each; cancel the "
            "placeholder, invite",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=170,  # the reference solution alone takes about 76 calls
        )
        p = self._plan(ctx, draft, region, org, me, now, club)
        busy = self._calendar(ctx, draft, p)
        call = self._call(ctx, draft, p)
        self._answers(ctx, draft, p, call)
        note = {
            "uid": draft.uid("n", club.title),
            "title": club.title,
            "body": "\n".join(
                [f"Mailing list: {call['to'][0]}", *club.history]
                + ([f"Rooms: {p.need_text}"] if ctx.on("hidden_dependency") else [])
            ),
        }
        draft.add_note("Notes", note)
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft,
                fact=f"the room needs: {p.need}",
                item=item_path("notes", "Notes", note),
                instead_of=mail_path("Sent", call),
            )
        rooms = self._rooms(ctx, p)
        sessions = self._sessions(ctx, p, rooms)
        placeholder = self._intranet(ctx, draft, p, rooms, sessions)
        closure = self._closure(ctx, draft, p, rooms)
        self._requests(ctx, draft, p, sessions)
        stale = self._held(draft, p, rooms, placeholder)
        own = self._own_items(ctx, draft, p, rooms, placeholder, note)
        joint = self._decided(draft, p, rooms, sessions, closure)
        avoid = self._avoid(draft, p, rooms, call, sessions)
        life = Life(draft, rng, people, me, now, avoid=avoid, months=5)
        noise = life.fill(Scale(messages=170, series=6, events=80, contacts=30, files=30, notes=8, reminders=12))
        if ctx.on("noisy_data"):
            self._noise(ctx, draft, p, rooms, placeholder, noise[:3])
        arrival_order(draft)

        self._rubric(ctx, draft, p, rooms, placeholder, stale, own, sessions)
        invite = INVITE if ctx.on("cross_tool_consistency") else ""
        draft.prompt = rng.choice(PROMPTS).format(club=club.name, calendar=club.calendar, invite=invite)
        draft.prompt += rng.choice(PROMPT_SESSIONS)
        draft.summary = (
            f"{rooms.right.name} for {p.headcount} on {p.chosen.isoformat()}; {placeholder['id']} cancelled; "
            + ", ".join(f"{s.room.name} for {s.who.first}" for s in sessions)
        )
        draft.hint = (
            f"Book a room on the intranet for the {club.name}: count the yeses to the call (later answers win), "
            "take the slot the calendar leaves free and a room that seats everyone, has what the group needs "
            "and is free then; cancel the placeholder, add the event, mail the people coming at their work addresses. "
            "Book the colleagues' requested rooms too: the sessions overlap the get-together, so give the four "
            "bookings one room each so that all of them fit, and tell each colleague their room."
        )
        draft.goal = self._goal(ctx, p, rooms, placeholder, busy, closure, own, sessions, joint)
        draft.note_levers(self._levers(ctx, p, rooms, placeholder, closure, own, sessions, joint))
        draft.solution = solution.solve
        draft.facts = {
            "subject": call["subject"],
            "options": " ".join(self._options(p).split()),
            "slots": [[s.isoformat(), (s + p.length).isoformat()] for s in (p.lunch, p.evening)],
            "day": p.on.isoformat(),
            "accept": sorted({*YES, *LATER_YES}),
            "decline": sorted({*NO, *LATER_NO, *MAYBE}),
            "need": p.need,
            "need_phrase": " ".join(p.need_text.split()),
            "note": club.title if ctx.on("hidden_dependency") else None,
            "domain": org.domain,
            "title": club.title,
            "calendar": club.calendar,
            "consistent": ctx.on("cross_tool_consistency"),
            "invite_subject": f"{club.title}: room booked",
            "invite": f"Hi all,\n\nthe {club.name} is on {{when}} in {{room}}. See you there!\n\n{me.first}",
            "me": me.first,
            "pattern": club.pattern,
            "news": closure["title"],
            "notice": closure["mail"]["subject"],
            "list": own["list"],
            "requests": [x.mail["subject"] for x in sessions],
            "session_needs": {need: phrase for need, phrase in SESSION_NEEDS.items()},
        }
        draft.alternatives = {"per_person": solution.solve_per_person, "event_first": solution.solve_event_first}
        return draft

    # -- the plan -----------------------------------------------------------------------------------

    def _plan(
        self, ctx: Context, draft: TaskDraft, region: Region, org: Org, me: Person, now: datetime, club: Club
    ) -> _Plan:
        rng = ctx.rng
        # A day next week or the one after; the surrounding life keeps clear of its two slots, one of which
        # gets blocked later.
        on = workday(now.date(), rng.randint(4, 9))
        lunch = at(on, 12, rng.choice((0, 30)), me.tz)
        evening = at(on, 17, rng.choice((0, 30)), me.tz) + timedelta(minutes=rng.choice((0, 30)))
        members, quiet = self._members(ctx, draft, org, me)
        need, reason = rng.choice(NEEDS)
        who = rng.choice([m for m in members if m.coming]).writes_as.first
        text = reason.format(who=who)
        return _Plan(
            region,
            org,
            me,
            now,
            club,
            on,
            lunch,
            evening,
            rng.choice((lunch, evening)),
            members,
            quiet,
            need,
            text[0].upper() + text[1:],
        )

    def _members(self, ctx: Context, draft: TaskDraft, org: Org, me: Person) -> tuple[list[_Member], list[Person]]:
        """Who answered the call and how, and the list members who stayed quiet."""
        rng, people = ctx.rng, ctx.people
        yes = rng.randint(8, 10)
        total = yes + 2 + rng.randint(1, 3)  # two say no, the rest stay quiet
        aliased = rng.randrange(yes) if ctx.on("entity_alignment") else -1
        listed = [
            people.person(me.region, org=org, title=rng.choice(JOB_TITLES), short_name=n == aliased)
            for n in range(total)
        ]
        members = []
        for n, person in enumerate(listed[: yes + 2]):
            coming = n < yes
            writes_as = person
            if n == aliased:
                # her contact card lists the personal address; the directory gives the work one the mail goes to
                writes_as = ea.alias(draft, people, person, where=[], verified_by=ea.CONTACT)
            members.append(_Member(person, writes_as, [rng.choice(YES if coming else NO)], coming))
        if ctx.on("cross_source_conflict"):
            # The later mail is the one that counts; the aliased member answers once, plainly.
            plain = [m for n, m in enumerate(members) if n != aliased]
            turned, unsure = [m for m in plain if m.coming][:2]
            dropped = next(m for m in plain if not m.coming)
            turned.answers = [rng.choice(NO), rng.choice(LATER_YES)]
            unsure.answers = [rng.choice(MAYBE), rng.choice(LATER_YES)]
            dropped.answers = [rng.choice(YES), rng.choice(LATER_NO)]
        rng.shuffle(members)
        return members, listed[yes + 2 :]

    @staticmethod
    def _options(p: _Plan) -> str:
        lunch, evening = p.lunch, p.evening
        return (
            f"{day(p.on, 'en', p.region)}, either at lunchtime ({clock(lunch)}–{clock(lunch + p.length)}) or "
            f"after work ({clock(evening)}–{clock(evening + p.length)})"
        )

    # -- the user's calendar, mail and answers --------------------------------------------------------

    def _calendar(self, ctx: Context, draft: TaskDraft, p: _Plan) -> dict[str, Any]:
        """What keeps the user from the other slot; returns it."""
        rng = ctx.rng
        summary, calendar = rng.choice(BUSY)
        start = p.blocked + timedelta(minutes=rng.choice((-30, 0, 15)))
        event = {
            "uid": draft.uid("evt", summary),
            "summary": summary,
            "start": start.isoformat(),
            "end": (start + timedelta(minutes=rng.choice((60, 90)))).isoformat(),
        }
        draft.add_event(calendar, event)
        return event

    def _call(self, ctx: Context, draft: TaskDraft, p: _Plan) -> dict[str, Any]:
        rng, me, club = ctx.rng, p.me, p.club
        address = ctx.people.claim(f"{club.list_name}@{p.org.domain}")
        when = at(workday(p.now.date(), -rng.randint(3, 4)), rng.randint(9, 11), rng.randint(0, 59), me.tz)
        paragraphs = [
            f"Time for the next {club.name}! I'm thinking {self._options(p)}, whichever I can get a room for.",
            f"Let me know if you're in by {day(workday(when.date(), 2), 'en', p.region)}.",
        ]
        if not ctx.on("hidden_dependency"):
            paragraphs.insert(1, p.need_text)
        call = mails.mail(
            rng,
            me,
            [f"{club.title} <{address}>"],
            f"{club.title}: {day(p.on, 'en', p.region, weekday=False)}?",
            "Hi all,\n\n" + "\n\n".join(mails.wrap(x) for x in paragraphs) + f"\n\n{me.first}",
            when,
            flags=["\\Seen"],
        )
        draft.add_message("Sent", call)
        return call

    def _answers(self, ctx: Context, draft: TaskDraft, p: _Plan, call: dict[str, Any]) -> None:
        """Each member's answers; a second mail from someone overrides their first."""
        rng, me = ctx.rng, p.me
        sent = datetime.fromisoformat(call["date"])
        for member in p.members:
            writer = member.writes_as
            first_at = sent + timedelta(hours=rng.choice((1, 2, 4, 6, 22, 23, 25, 27)), minutes=rng.randint(0, 59))
            aside = [rng.choice(HOME)] if writer is not member.work else []
            body = mails.letter(rng, writer, me, [*aside, member.answers[0]], register=mails.CASUAL, quote=(call, sent))
            subject = f"Re: {call['subject']}"
            first = mails.mail(
                rng, writer, [me], subject, body, first_at, flags=["\\Seen"], in_reply_to=call["message_id"]
            )
            draft.add_message("INBOX", first)
            member.mails.append(first)
            if len(member.answers) == 1:
                continue
            later_at = at(workday(p.now.date(), -1), rng.randint(9, 18), rng.randint(0, 59), me.tz)
            body = mails.letter(rng, writer, me, [member.answers[1]], register=mails.CASUAL, quote=(first, first_at))
            later = mails.mail(rng, writer, [me], subject, body, later_at, in_reply_to=first["message_id"])
            draft.add_message("INBOX", later)
            member.mails.append(later)
            csc.supersede(
                draft,
                loser=mail_path("INBOX", first),
                winner=mail_path("INBOX", later),
                rule=f"{writer.first}'s later answer replaces their first",
                stated=True,
            )
        for member in p.members:
            if member.writes_as is member.work:
                continue
            contact = {
                "uid": draft.uid("c", member.work.family),
                "name": member.work.name,
                "emails": [member.writes_as.email],
                "phones": [ctx.people.person(p.region).phone],
            }
            draft.add_contact(contact)
            draft.record(
                ea.NAME,
                {"items": [contact_path(contact), *(mail_path("INBOX", m) for m in member.mails)]},
            )

    # -- the intranet ---------------------------------------------------------------------------------

    def _rooms(self, ctx: Context, p: _Plan) -> _Rooms:
        rng, need, seats = ctx.rng, p.need, p.headcount
        spare = [e for e in EQUIPMENT if e != p.need]
        for _ in range(50):  # until the rooms page lists the shared room before the right one, two after it
            names = rng.sample(ROOM_NAMES, 13)
            right = names[0]
            lacking = names[1]
            if ctx.on("noisy_data"):  # the same name with a word more or less
                twin = rng.choice(TWINS).format(names[0])
                right, lacking = (names[0], twin) if rng.random() < 0.5 else (twin, names[0])
            before = [n for n in names[2:] if n < right]
            after = [n for n in names[2:] if n > right]
            if before and len(after) >= 2:
                break
        else:
            raise AssertionError("room-booking: no draw of room names puts the right room between the others")
        shared = rng.choice(before)
        second, third = sorted(rng.sample(after, 2))
        rest = [n for n in names[2:] if n not in (shared, second, third)]

        def room(name: str, capacity: int, equipped: bool) -> _Room:
            extra = rng.sample(spare, rng.randint(1, 2))
            features = sorted([*extra, need]) if equipped else sorted(extra)
            return _Room(name, capacity, features, rng.choice(("G", "1", "2", "3", "4")))

        return _Rooms(
            right=room(right, seats + rng.randint(0, 3), True),
            short=room(rest[0], seats - 1, True),
            busy=room(rest[1], seats + rng.randint(1, 6), True),
            placeholder=room(rest[2], seats - rng.randint(2, 3), rng.random() < 0.5),
            lacking=room(lacking, seats + rng.randint(0, 4), False),
            closed=room(rest[5], seats + rng.randint(1, 5), True),
            others=[
                room(rest[3], rng.randint(2, 4), rng.random() < 0.5),
                room(rest[4], rng.randint(20, 30), False),
                room(rest[6], rng.randint(4, 8), rng.random() < 0.5),
            ],
            shared=room(shared, seats + rng.randint(0, 3), True),
            second=room(second, rng.randint(8, 14), False),
            third=room(third, rng.randint(5, 10), False),
        )

    def _sessions(self, ctx: Context, p: _Plan, rooms: _Rooms) -> list[_Session]:
        """Three colleagues' sessions around the get-together, each of which overlaps it and the others, and
        equipment that leaves them one complete assignment: the shared room is the only one for the first, the
        right room or `second` for the next, `second` or `third` for the last. Returned in the order the
        requests arrive."""
        rng, people = ctx.rng, ctx.people
        feats = rng.sample([f for f in SESSION_NEEDS if f != p.need], 3)
        # minutes before the get-together starts; no two of the sessions' times are an hour apart
        offsets = rng.sample((90, 75, 45), 3)
        whats = rng.sample(SESSIONS, 3)
        design = [(rooms.shared,), (rooms.right, rooms.second), (rooms.second, rooms.third)]
        sessions = []
        for k in range(3):
            start = p.chosen - timedelta(minutes=offsets[k])
            end = p.chosen + timedelta(minutes=rng.choice((30, 60)))
            seats = rng.randint(3, min(r.capacity for r in design[k]))
            who = people.person(p.region, org=p.org, title=rng.choice(JOB_TITLES))
            what, pattern = whats[k]
            sessions.append(
                _Session(who, what, f"{pattern}|{re.escape(who.first)}", start, end, seats, feats[k], design[k][-1])
            )
        sessions[0].room = rooms.shared
        sessions[1].room = rooms.second
        sessions[2].room = rooms.third
        # The equipment that decides it: each design room has its session's need and none of the others';
        # elsewhere a session's need is only in rooms too small for it, taken then or closed.
        keep = {rooms.busy.id, rooms.closed.id}
        for room in rooms.all:
            wanted = {feats[k] for k in range(3) if room in design[k]}
            unwanted = set(feats) - wanted
            features = set(room.features) | wanted
            if room.id not in keep:
                features -= {f for f in unwanted if any(s.need == f and room.capacity >= s.seats for s in sessions)}
            if room in (rooms.second, rooms.third):
                features.discard(p.need)
            room.features = sorted(features)
        order = list(range(3))
        rng.shuffle(order)
        return [sessions[k] for k in order]

    def _intranet(
        self, ctx: Context, draft: TaskDraft, p: _Plan, rooms: _Rooms, sessions: list[_Session]
    ) -> dict[str, Any]:
        """The directory, the rooms and the day's reservations; returns the user's placeholder."""
        rng, people, me, tz = ctx.rng, ctx.people, p.me, p.me.tz
        colleagues = [people.person(p.region, org=p.org, title=rng.choice(JOB_TITLES)) for _ in range(4)]
        staff = [m.work for m in p.members] + p.quiet + colleagues + [s.who for s in sessions] + [me]
        aliased = [m.work for m in p.members if m.writes_as is not m.work]
        for person in aliased:  # a colleague with the same family name, so the surname alone is not enough
            staff.append(people.person(p.region, org=p.org, title=rng.choice(JOB_TITLES), family=person.family))
        numbers = iter(rng.sample(range(100, 1000), 14))
        reservations: list[dict[str, Any]] = []

        def reserve(room: _Room, title: str, start: datetime, minutes: int, **extra: Any) -> dict[str, Any]:
            res = {
                "id": f"RES-0{next(numbers)}",
                "room": room.id,
                "title": title,
                "start": start.isoformat(),
                "end": (start + timedelta(minutes=minutes)).isoformat(),
                **extra,
            }
            reservations.append(res)
            return res

        meetings = iter(rng.sample(MEETINGS, 6))
        host = iter(rng.sample(colleagues, 4))
        overlap = p.chosen - timedelta(minutes=30)
        reserve(rooms.busy, next(meetings), overlap, 90 + 30 * rng.randint(0, 2), organizer=next(host).mailbox)
        morning = at(p.on, rng.choice((8, 9)), 0, tz)
        reserve(rooms.right, next(meetings), morning, 60, organizer=next(host).mailbox)
        early = at(p.on, 8, rng.choice((0, 30)), tz)  # the sessions' rooms are in use before them, not during
        reserve(rooms.shared, next(meetings), early, 60, organizer=rng.choice(colleagues).mailbox)
        reserve(
            rooms.second, next(meetings), early + timedelta(minutes=30), 60, organizer=rng.choice(colleagues).mailbox
        )
        reserve(rooms.lacking, next(meetings), p.blocked, 60, organizer=next(host).mailbox)
        # held for the slot the user has since lost, so what was set up around it has the wrong time too
        placeholder = reserve(rooms.placeholder, p.club.title, p.blocked, p.club.minutes)
        later = at(workday(p.on, rng.randint(1, 4)), rng.choice((11, 14, 15)), 0, tz)
        reserve(rooms.others[0], f"1:1 with {colleagues[0].first}", later, 30)

        staff_rows = [
            {
                "id": f"p-{slug(x.email.split('@')[0])}",  # addresses are unique, names need not be
                "name": x.name,
                "title": x.title,
                "department": rng.choice(DEPARTMENTS),
                "email": x.email,
                "phone": x.phone,
                "office": f"{p.org.city.name}, floor {rng.randint(1, 4)}",
            }
            for x in staff
        ]
        rng.shuffle(staff_rows)
        shown = rooms.all
        rng.shuffle(shown)
        draft.web = {
            "intranet": {
                "rooms": [
                    {"id": r.id, "name": r.name, "floor": r.floor, "capacity": r.capacity, "equipment": r.features}
                    for r in shown
                ],
                "people": staff_rows,
                "announcements": [
                    {
                        "id": "a-bikes",
                        "title": "New bike racks",
                        "date": workday(p.now.date(), -6).isoformat(),
                        "body": "There are twenty new bike racks by the back entrance. Please don't lock bikes to "
                        "the railings.",
                    },
                    {
                        # every room's key is at reception: the user's key reminder follows the booking
                        "id": "a-room-keys",
                        "title": "Meeting room keys",
                        "date": workday(p.now.date(), -15).isoformat(),
                        "body": "Meeting rooms are locked outside their bookings. Please pick up the key at "
                        "reception before your booking and bring it back straight after.",
                    },
                    {
                        "id": "a-starters",
                        "title": "Welcome to our new starters",
                        "date": workday(p.now.date(), -2).isoformat(),
                        "body": f"A warm welcome to {colleagues[1].name} and {colleagues[2].name}, who joined "
                        "this week.",
                    },
                ],
                "reservations": reservations,
            }
        }
        for person in aliased:
            draft.record(ea.NAME, {"items": [f"web/intranet/people/p-{slug(person.email.split('@')[0])}"]})
        return placeholder

    def _closure(self, ctx: Context, draft: TaskDraft, p: _Plan, rooms: _Rooms) -> dict[str, Any]:
        """Facilities close the floor of a room that would otherwise fit: their mail points to the intranet's
        news, which names the rooms and the days."""
        rng, me = ctx.rng, p.me
        also = rooms.others[0]
        also.floor = rooms.closed.floor
        for room in draft.web["intranet"]["rooms"]:  # the rooms page was written before the closure chose it
            if room["id"] == also.id:
                room["floor"] = also.floor
        first, last = workday(p.on, -rng.randint(1, 3)), workday(p.on, rng.randint(1, 4))
        posted = workday(p.now.date(), -rng.randint(1, 3))
        work = rng.choice(NEWS_WORKS)
        news = {
            "id": "a-floor-works",
            "title": f"Floor {rooms.closed.floor} meeting rooms closed for {work}",
            "date": posted.isoformat(),
            "body": f"{rooms.closed.name} and {also.name} on floor {rooms.closed.floor} are closed from "
            f"{day(first, 'en', p.region)} to {day(last, 'en', p.region)} for {work}. The booking system still "
            "shows them as free, so please book another room for those days.\n\nThanks for bearing with us, "
            "Facilities",
        }
        draft.web["intranet"]["announcements"].append(news)
        desk = ctx.people.person(p.region, org=p.org, title="Facilities Coordinator")
        body = mails.letter(
            rng,
            desk,
            me,
            [
                f"A heads-up that some meeting rooms will be out of use for a few days soon, for {work}.",
                "Which rooms and which days are on the intranet's news page. Please check it before you book "
                "a room for the coming weeks.",
            ],
            register=mails.WORK,
        )
        sent = at(posted, rng.randint(9, 11), rng.randint(0, 59), me.tz)
        message = mails.mail(rng, desk, [me], f"Meeting rooms out of use: {work}", body, sent)
        draft.add_message("INBOX", message)
        self.facilities = desk
        return {"title": news["title"], "first": first, "last": last, "mail": message, "also": also}

    def _requests(self, ctx: Context, draft: TaskDraft, p: _Plan, sessions: list[_Session]) -> None:
        """Each colleague's mail asking for a room: when, how many and what it needs, in their words."""
        rng, me = ctx.rng, p.me
        days = sorted(rng.sample(range(1, 6), len(sessions)), reverse=True)
        for session, back in zip(sessions, days, strict=True):
            ask = rng.choice(ASKS).format(
                day=day(p.on, "en", p.region),
                start=clock(session.start),
                end=clock(session.end),
                what=session.what,
                n=session.seats,
                why=SESSION_NEEDS[session.need],
            )
            sent = at(workday(p.now.date(), -back), rng.randint(9, 16), rng.randint(0, 59), me.tz)
            body = mails.letter(rng, session.who, me, [ask], register=mails.WORK)
            subject = rng.choice(ASK_SUBJECTS).format(what=session.what)
            session.mail = mails.mail(rng, session.who, [me], subject, body, sent)
            draft.add_message("INBOX", session.mail)

    @staticmethod
    def _held(draft: TaskDraft, p: _Plan, rooms: _Rooms, placeholder: dict[str, Any]) -> dict[str, Any]:
        """The user's calendar already has the get-together, at the placeholder's time and room."""
        event = {
            "uid": draft.uid("evt", f"{p.club.title} placeholder"),
            "summary": p.club.title,
            "start": placeholder["start"],
            "end": placeholder["end"],
            "location": rooms.placeholder.name,
        }
        draft.add_event(p.club.calendar, event)
        return event

    @staticmethod
    def _own_items(
        ctx: Context, draft: TaskDraft, p: _Plan, rooms: _Rooms, placeholder: dict[str, Any], note: dict[str, Any]
    ) -> dict[str, Any]:
        """What the user set up around the placeholder, in their own words: a reminder to fetch the room's key a
        little before it starts, and a line in their note on the club saying which room they hold and when."""
        rng = ctx.rng
        old = datetime.fromisoformat(placeholder["start"])
        ahead = timedelta(minutes=rng.choice((10, 15, 20)))
        lst = "Work" if p.club.calendar == "Work" else "Reminders"
        title = rng.choice(KEY_REMINDERS).format(room=rooms.placeholder.name)
        todo = {"uid": draft.uid("r", f"{p.club.title} key"), "title": title, "due": (old - ahead).isoformat()}
        draft.add_reminder(lst, todo)
        line = rng.choice(HOLDING).format(room=rooms.placeholder.name, day=day(p.on, "en", p.region), time=clock(old))
        lines = note["body"].split("\n")
        lines.insert(rng.randint(2, len(lines)), line)
        note["body"] = "\n".join(lines)
        return {"reminder": todo, "list": lst, "ahead": ahead, "note": note, "line": line, "old": old}

    def _avoid(
        self, draft: TaskDraft, p: _Plan, rooms: _Rooms, call: dict[str, Any], sessions: list[_Session]
    ) -> Avoid:
        margin = timedelta(minutes=90)
        people = [m.work.name for m in p.members] + [x.name for x in p.quiet] + [s.who.name for s in sessions]
        words = [p.club.title, p.club.name, p.club.list_name, *(r.name for r in rooms.all), "meeting room"]
        return Avoid(
            people=people,
            words=words + [s.what for s in sessions] + ["book a room", "room booking"],
            slots=[(s - margin, s + p.length + margin) for s in (p.lunch, p.evening)],
            addresses=[x["email"] for x in draft.web["intranet"]["people"]]
            + [m.writes_as.email for m in p.members]
            + [re.sub(r".*<|>.*", "", call["to"][0])],
        )

    @staticmethod
    def _decided(
        draft: TaskDraft, p: _Plan, rooms: _Rooms, sessions: list[_Session], closure: dict[str, Any]
    ) -> dict[str, Any]:
        """Every assignment of a room to each booking (the get-together and the sessions) is tried: exactly one
        fits every booking, with no room twice at overlapping times; taking the bookings in the order the task
        gives them (the get-together, then the requests as they came) and each the first room on the rooms page
        that fits and is still free runs into a dead end. Counting the first answers, or the closed room, would
        change the get-together's room."""
        closed = {rooms.closed.id, closure["also"].id}
        shown = sorted(rooms.all, key=lambda r: (r.name, r.id))  # the rooms page's order
        bookings = [("the " + p.club.name, p.chosen, p.chosen + p.length, p.headcount, p.need)]
        bookings += [(f"{s.who.first}'s {s.what}", s.start, s.end, s.seats, s.need) for s in sessions]
        taken = [
            (r["room"], _span(r))
            for r in draft.web["intranet"]["reservations"]
            if r.get("status", "confirmed") == "confirmed"
        ]

        def fits(room: _Room, booking: tuple[Any, ...], seats: int | None = None, shut: set[str] = closed) -> bool:
            _, start, end, wanted, need = booking
            return (
                room.capacity >= (wanted if seats is None else seats)
                and need in room.features
                and room.id not in shut
                and not any(rid == room.id and _overlaps(start, end, span) for rid, span in taken)
            )

        def clash(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
            return _overlaps(a[1], a[2], (b[1], b[2]))

        def valid(assignment: tuple[_Room, ...]) -> bool:
            if not all(fits(r, b) for r, b in zip(assignment, bookings, strict=True)):
                return False
            pairs = [(i, j) for i in range(len(bookings)) for j in range(i + 1, len(bookings))]
            return all(assignment[i] is not assignment[j] or not clash(bookings[i], bookings[j]) for i, j in pairs)

        tried = len(shown) ** len(bookings)
        solutions = joint.choices([shown] * len(bookings), valid)
        want = (rooms.right, *(s.room for s in sessions))
        if solutions != [want]:
            found = [[r.name for r in a] for a in solutions]
            raise AssertionError(f"room-booking: the complete assignments are {found}, not one")

        def greedy(order: list[int]) -> tuple[dict[int, _Room], int | None]:
            got: dict[int, _Room] = {}
            for k in order:
                free = [
                    r
                    for r in shown
                    if fits(r, bookings[k]) and not any(got[j] is r and clash(bookings[j], bookings[k]) for j in got)
                ]
                if not free:
                    return got, k
                got[k] = free[0]
            return got, None

        presented = list(range(len(bookings)))
        by_time = sorted(presented, key=lambda k: bookings[k][1])
        walk, stuck = greedy(presented)
        if stuck is None or greedy(by_time)[1] is None:
            raise AssertionError("room-booking: the first-free-room walk finds the assignment")
        orders = list(itertools.permutations(presented))
        greedy_wins = sum(greedy(list(o))[1] is None for o in orders)
        picks = "; ".join(f"{bookings[k][0]} in {walk[k].name}" for k in walk)
        # the other planted difficulties still decide the get-together's room
        club = bookings[0]
        if not fits(rooms.short, club, seats=p.headcount - 1):
            raise AssertionError("room-booking: the room one seat short is not free for the miscount")
        if fits(rooms.short, club) or not fits(rooms.closed, club, shut=set()) or fits(rooms.closed, club):
            raise AssertionError("room-booking: the short or the closed room does not tell")
        return {
            "bookings": len(bookings),
            "tried": tried,
            "greedy": f"taking the bookings in turn and each the first free room that fits: {picks}, which leaves "
            f"{bookings[stuck][0]} no room",
            "greedy_wins": greedy_wins,
            "orders": len(orders),
            "walk": {k: r.id for k, r in walk.items()},
            "stuck": stuck,
        }

    def _noise(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        rooms: _Rooms,
        placeholder: dict[str, Any],
        noise: list[str],
    ) -> None:
        """Last month's thread, reservation and event, and the room named like the right one."""
        rng, me, club = ctx.rng, p.me, p.club
        before = p.on - timedelta(weeks=4)
        old_subject = f"{club.title}: {day(before, 'en', p.region, weekday=False)}?"
        quiet = rng.choice(p.quiet)  # said yes last month, nothing this time
        when = at(before - timedelta(days=rng.randint(3, 6)), rng.randint(9, 17), rng.randint(0, 59), me.tz)
        body = mails.letter(rng, quiet, me, [rng.choice(YES)], register=mails.CASUAL)
        old = mails.mail(rng, quiet, [me], f"Re: {old_subject}", body, when, flags=["\\Seen"])
        draft.add_message("INBOX", old)
        answer = p.members[0].mails[0]
        nd.twin(draft, mail_path("INBOX", answer), answer, mail_path("INBOX", old), old)

        last = at(before, p.chosen.hour, p.chosen.minute, me.tz)
        cancelled = {
            "id": f"RES-0{rng.randint(10, 99)}",
            "room": rooms.busy.id,
            "title": club.title,
            "start": last.isoformat(),
            "end": (last + p.length).isoformat(),
            "status": "cancelled",
        }
        draft.web["intranet"]["reservations"].append(cancelled)
        path = "web/intranet/reservations/"
        nd.twin(draft, path + placeholder["id"], placeholder, path + cancelled["id"], cancelled)

        held = at(before, p.blocked.hour, p.blocked.minute, me.tz)
        event = {
            "uid": draft.uid("evt", f"{club.title} last month"),
            "summary": club.title,
            "start": held.isoformat(),
            "end": (held + p.length).isoformat(),
            "location": rooms.busy.name,
        }
        draft.add_event(club.calendar, event)
        nd.irrelevant(draft, [*noise, item_path("calendar", club.calendar, event)])
        draft.record(nd.NAME, {"look_alike_rooms": [f"{rooms.lacking.name} ~ {rooms.right.name}"]})

    @staticmethod
    def _levers(
        ctx: Context,
        p: _Plan,
        rooms: _Rooms,
        placeholder: dict[str, Any],
        closure: dict[str, Any],
        own: dict[str, Any],
        sessions: list[_Session],
        joint: dict[str, Any],
    ) -> dict[str, str]:
        """Which planted difficulty each rubric item grades, for classifying a blind play."""
        levers = {
            "room_reserved": f"H one hop away: a Facilities mail points to the intranet's news, which closes "
            f"{rooms.closed.name} (big enough, equipped, free on its schedule) on the day"
            + (f"; what the room needs ({p.need}) is only in the user's note" if ctx.on("hidden_dependency") else ""),
            "in_calendar": f"D already done: the user's calendar holds the {p.club.name} at the placeholder's time "
            f"and room ({rooms.placeholder.name}); it is moved (or replaced), not doubled",
            "placeholder_cancelled": f"D half done: the placeholder reservation {placeholder['id']} is cancelled, "
            "not left next to the new one",
            "key_reminder": f"D disguised, another app: the user's reminder '{own['reminder']['title']}' is due "
            f"{own['ahead'].seconds // 60} minutes before the placeholder's old time; it follows the booking "
            f"({rooms.right.name}, before {clock(p.chosen)}), updated or replaced, not left or doubled",
            "club_note": f"D disguised, another app: the user's note on the club says '{own['line']}'; the line "
            f"gives {rooms.right.name} at {clock(p.chosen)}, changed or rewritten, not left or doubled",
        }
        for n, session in enumerate(sessions, 1):
            levers[f"session_{n}_room"] = (
                f"J joint: {session.who.first}'s {session.what} gets {session.room.name}, the room the one complete "
                f"assignment leaves it (room_reserved and session_1..{len(sessions)}_room together)"
            )
        levers[f"session_{joint['stuck']}_room"] = (
            f"J joint: {joint['bookings']} bookings overlap that day and each needs its own room; of the "
            f"{joint['tried']} assignments of the {len(rooms.all)} rooms only one works; greedy: {joint['greedy']} "
            f"(the walk works in {joint['greedy_wins']} of the {joint['orders']} orders)"
        )
        invited = []
        if ctx.on("cross_source_conflict"):
            invited.append("three members wrote twice and their later answer counts (the headcount picks the room)")
        if ctx.on("entity_alignment"):
            invited.append("one member wrote from a personal address; the work address is only in the directory")
        if invited:
            levers["invited"] = "H/C " + "; ".join(invited)
        if ctx.on("cross_tool_consistency"):
            levers["event_matches"] = "D already done: the held event's location and guests change with it"
        return levers

    # -- the rubric -----------------------------------------------------------------------------------

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        rooms: _Rooms,
        placeholder: dict[str, Any],
        stale: dict[str, Any],
        own: dict[str, Any],
        sessions: list[_Session],
    ) -> None:
        club, start, end = p.club, p.chosen, p.chosen + p.length
        total = 1 + len(sessions)
        addresses = sorted(m.work.email for m in p.coming)
        room = rooms.right
        room_rx = _name_regex(room.name, [r.name for r in rooms.all])
        when = f"{day(p.on, 'en', p.region)}, {clock(start)}–{clock(end)}"
        draft.check(
            Check(
                "room_reserved",
                f"Exactly one new confirmed reservation: {room.name}, {when} ({p.headcount} people with the user, "
                f"{p.need.lower()}, free then)",
                v.reserved_once,
                {
                    "room": room.id,
                    "start": start.isoformat(),
                    "end": end.isoformat(),
                    "pattern": club.pattern,
                    "label": room.name,
                    "same_start": True,
                    "total": total,
                },
                weight=3,
                stage="choosing the room",
            )
        )
        names = [r.name for r in rooms.all]
        times = sorted({clock(t) for s in sessions for t in (s.start, s.end)})
        asked = sorted(s.who.email for s in sessions)
        draft.check(
            Check(
                "sessions_answered",
                "Each colleague who asked for a room got exactly one message about it (one each or one to all of "
                "them): " + ", ".join(asked),
                v.sent_once,
                {
                    "to": asked,
                    "label": "the colleagues who asked for rooms",
                    "in_reply_to": [s.mail["message_id"] for s in sessions],
                    "subject": "room|book|" + "|".join(s.pattern for s in sessions),
                    "each_once": True,
                    "besides": addresses,
                },
                weight=1,
                stage="choosing the rooms together",
            )
        )
        for n, session in enumerate(sessions, 1):
            span = f"{day(p.on, 'en', p.region)}, {clock(session.start)}–{clock(session.end)}"
            draft.check(
                Check(
                    f"session_{n}_room",
                    f"Exactly one new confirmed reservation for {session.who.name}'s {session.what}: "
                    f"{session.room.name}, {span} ({session.seats} people, {session.need.lower()}; the one room "
                    "left for it once every booking that day has its own)",
                    v.reserved_once,
                    {
                        "room": session.room.id,
                        "start": session.start.isoformat(),
                        "end": session.end.isoformat(),
                        "pattern": session.pattern,
                        "label": f"{session.room.name} for the {session.what}",
                        "same_start": True,
                        "total": total,
                    },
                    weight=2,
                    stage="choosing the rooms together",
                )
            )
            draft.check(
                Check(
                    f"session_{n}_told",
                    f"{session.who.name} ({session.who.email}) is told their room: {session.room.name}",
                    v.message_says,
                    {
                        "to": [session.who.email],
                        "patterns": {"the room": _name_regex(session.room.name, names)},
                        "stated": {"dates": [p.on.isoformat()], "times": times},
                    },
                    weight=1,
                    stage="choosing the rooms together",
                )
            )
        draft.check(
            Check(
                "placeholder_cancelled",
                f"The placeholder reservation {placeholder['id']} ({rooms.placeholder.name}, too small) is cancelled",
                v.reservation_cancelled,
                {"reservation": placeholder["id"], "label": "the placeholder"},
                weight=2,
                stage="replacing the placeholder",
            )
        )
        draft.check(
            Check(
                "in_calendar",
                f"One event in {club.calendar} for the {club.name}, {start.isoformat()} to {end.isoformat()}: the "
                "one the user held for the placeholder, moved, or a new one in its place (never both)",
                v.one_event,
                {
                    "stale": stale["uid"],
                    "calendar": club.calendar,
                    "pattern": club.pattern,
                    "label": club.name,
                    "start": start.isoformat(),
                    "end": end.isoformat(),
                },
                weight=2,
                stage="recording it",
            )
        )
        wrong = {m.work.email: "took their yes back" for m in p.members if not m.coming}
        wrong.update({m.writes_as.email: "a personal address; the work one was asked for" for m in p.coming})
        wrong.update({x.email: "did not answer" for x in p.quiet})
        wrong = {k: v_ for k, v_ in wrong.items() if k not in addresses}
        draft.check(
            Check(
                "invited",
                f"Each of the {len(addresses)} people coming got exactly one message (one to all or one each) at "
                "their work address, and nobody else got one: " + ", ".join(addresses),
                v.sent_once,
                {
                    "to": addresses,
                    "label": "the people coming",
                    "subject": f"{club.pattern}|room|invit|detail|{day_regex(p.on)}",
                    "wrong": dict(sorted(wrong.items())),
                    "each_once": True,
                    "besides": sorted(s.who.email for s in sessions),
                },
                weight=2,
                stage="who is coming",
            )
        )
        draft.check(
            Check(
                "invite_details",
                f"The message each of them got gives the room, {room.name}, and when: {when}",
                v.message_says,
                {
                    "to": addresses,
                    "patterns": {
                        "the room": room_rx,
                        "the day": day_regex(p.on),
                        f"the start, {clock(start)}": time_regex(start),
                        f"the end, {clock(end)}": time_regex(end),
                    },
                    "dates": [p.on.isoformat()],
                },
                weight=2,
                critical=False,
                stage="telling them",
            )
        )
        names = sorted((r.name for r in rooms.all), key=len, reverse=True)
        any_room = "(?<!\\w)(?:" + "|".join(re.escape(n) for n in names) + ")(?!\\w)"
        old_rx = _name_regex(rooms.placeholder.name, names)
        todo, lst, note, old = own["reminder"], own["list"], own["note"], own["old"]
        draft.check(
            Check(
                "key_reminder",
                f"The user's reminder '{todo['title']}' (due {todo['due']}, before the placeholder) follows the "
                f"booking: one open reminder to fetch the key, due up to an hour before {start.isoformat()} and "
                f"naming no room but {room.name} (updated, or deleted and made again; not left, ticked off or "
                "doubled)",
                v.one_reminder,
                {
                    "pattern": r"\bkey|reception|unlock",
                    "lst": lst,
                    "due": [(start - timedelta(minutes=5 * k)).isoformat() for k in range(13)],
                    "label": "room key",
                    "stale": todo["uid"],
                    "stated": {"refs": {any_room: [room.name]}},
                },
                weight=2,
                stage="replacing the placeholder",
            )
        )
        draft.check(
            Check(
                "club_note",
                f"The line in the user's note '{note['title']}' on the room they hold ('{own['line']}') now gives "
                f"{room.name} on {p.on.isoformat()} at {clock(start)}, not {rooms.placeholder.name} at "
                f"{clock(old)} (changed, or removed and written again; one such line)",
                v.checklist,
                {
                    "uid": note["uid"],
                    "folder": "Notes",
                    "label": f"the note '{note['title']}'",
                    "entries": [
                        {
                            "label": "the room held",
                            "pattern": any_room,
                            "says": f"^(?=.*(?:{room_rx}))(?=.*(?:{date_regex(p.on)}))(?=.*(?:{time_regex(start)}))",
                            "not_says": f"{old_rx}|{time_regex(old)}",
                        }
                    ],
                },
                weight=2,
                stage="recording it",
            )
        )
        path = f"web/intranet/reservations/{placeholder['id']}"
        allow = [f"~{path}#status", "+web/intranet/reservations/*", f"+calendar/{club.calendar}/*"]
        allow += [f"~reminders/{lst}/{todo['uid']}#*", f"-reminders/{lst}/{todo['uid']}", f"+reminders/{lst}/*"]
        allow += [f"~notes/Notes/{note['uid']}#body"]
        allow += [f"~calendar/{club.calendar}/{stale['uid']}#*", f"-calendar/{club.calendar}/{stale['uid']}"]
        allow += ["+mail/outbox/*", "+mail/folders/Sent/*"]
        writes = ["cancel the placeholder", "reserve the room", "move the held event", "send the details"]
        writes += ["reserve the colleagues' rooms", "tell each colleague their room"]
        writes += ["move the key reminder", "update the note's line on the room"]
        if ctx.on("cross_tool_consistency"):
            draft.check(
                Check(
                    "event_matches",
                    f"The event's location is {room.name} and it invites the {len(addresses)} people coming",
                    v.one_event,
                    {
                        "stale": stale["uid"],
                        "calendar": club.calendar,
                        "pattern": club.pattern,
                        "label": club.name,
                        "start": start.isoformat(),
                        "end": end.isoformat(),
                        "location": room_rx,
                        "attendees": addresses,
                        "host": p.me.email,
                    },
                    stage="keeping the apps in step",
                )
            )
            ctc.agree(
                draft,
                apps=["web", "calendar", "mail"],
                rule="the reservation, the event and the message give the same room and time; the event invites "
                "the people the message goes to",
                items=["room_reserved", "in_calendar", "event_matches", "invite_details"],
            )
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.judges.append(
            Judge(
                "friendly_invite",
                "The message is a short, friendly invitation",
                f"The message to the people coming to the {club.name} tells them where and when in a short, "
                "friendly way, without listing who declined.",
                stage="telling them",
            )
        )

    @staticmethod
    def _goal(
        ctx: Context,
        p: _Plan,
        rooms: _Rooms,
        placeholder: dict[str, Any],
        busy: dict[str, Any],
        closure: dict[str, Any],
        own: dict[str, Any],
        sessions: list[_Session],
        joint: dict[str, Any],
    ) -> str:
        club, room, start, end = p.club, rooms.right, p.chosen, p.chosen + p.length
        coming = ", ".join(sorted(f"{m.work.name} <{m.work.email}>" for m in p.coming))
        lines = [
            "# Goal",
            "",
            f"The user asked the {club.name} list about {day(p.on, 'en', p.region)}, at {clock(p.lunch)} or "
            f"{clock(p.evening)}. {len(p.coming)} members said yes in the end, so {p.headcount} people come with "
            f"the user. '{busy['summary']}' blocks {clock(p.blocked)}, which leaves **{clock(start)}–{clock(end)}**. "
            f"The room needs: {p.need}. Two rooms seat {p.headcount}, have it, are free then and are not closed "
            f"that day: {rooms.shared.name} and {room.name}; {rooms.shared.name} is the only room for one of the "
            f"colleagues' sessions, so the get-together gets **{room.name}**.",
            "",
            "The end state:",
            "",
            f"- **Intranet**: one new confirmed reservation of {room.name} ({room.id}), {start.isoformat()} to "
            f"{end.isoformat()}, titled for the {club.name}; the placeholder {placeholder['id']} "
            f"({rooms.placeholder.name}, {rooms.placeholder.capacity} seats) is cancelled.",
            f"- **Calendar**: one event in {club.calendar} (the one the user held at the placeholder's time and "
            f"room, moved, or a new one in its place), {start.isoformat()} to {end.isoformat()}"
            + (f", location {room.name}, inviting the people coming." if ctx.on("cross_tool_consistency") else "."),
            f"- **Mail**: one message to exactly the people coming, at their work addresses ({coming}), giving the "
            "room, the day and the time.",
            f"- **Reminders**: the user's '{own['reminder']['title']}' (list {own['list']}, due "
            f"{own['reminder']['due']}) is due before {start.isoformat()} (up to an hour) and names {room.name} or "
            "no room; moved, or deleted and made again, never doubled.",
            f"- **Notes**: in '{own['note']['title']}', the line '{own['line']}' gives {room.name} on its day "
            f"at {clock(start)} instead.",
            "",
            f"{rooms.short.name} seats {rooms.short.capacity}, one too few; {rooms.busy.name} is taken then; "
            f"{rooms.lacking.name} has no {p.need.lower()}; {rooms.closed.name} fits and looks free, but the "
            f"intranet's news '{closure['title']}' (which the Facilities mail points to) closes it "
            f"{closure['first'].isoformat()} to {closure['last'].isoformat()}.",
        ]
        if ctx.on("cross_source_conflict"):
            lines.append("Three members wrote twice; their later answer counts.")
        if ctx.on("entity_alignment"):
            for m in p.coming:
                if m.writes_as is not m.work:
                    lines.append(
                        f"{m.writes_as.display} <{m.writes_as.email}> is {m.work.name}: the address book has their "
                        f"full name on that address, the directory their work address {m.work.email}."
                    )
        if ctx.on("hidden_dependency"):
            lines.append(f"What the room needs is only in the user's note '{club.title}'.")
        if ctx.on("noisy_data"):
            lines.append(
                "Last month's answer, cancelled reservation and event, and the room named like the right one, "
                "are not this month's."
            )
        lines += ["", f"Colleagues' requests that day (all overlap the {club.name} and each other):", ""]
        for session in sessions:
            lines.append(
                f"- {session.who.name} <{session.who.email}>: {session.what}, {clock(session.start)}–"
                f"{clock(session.end)}, {session.seats} people, {session.need.lower()} → **{session.room.name}** "
                "(reserved, and they are told)"
            )
        lines += [
            "",
            f"Of the {joint['tried']} ways to give the {joint['bookings']} bookings a room each, only this one works; "
            f"{joint['greedy']}.",
        ]
        lines += ["", "Reading mail marks it seen; nothing else changes."]
        return "\n".join(lines)
