"""contact-upkeep (communication): bring the address book up to date from recent mail, then tell people.

Six people the user knows have new details: one changed jobs (new company, title, work address
and direct line in their new signature), three moved (new home address and landline), two club
members switched providers (new mobile and email). The agent updates their existing contacts in
place, adds nobody and leaves every other contact exactly as it is; with cross_tool_consistency it
also sends each of them a short note, at the address now saved, giving the number now saved. All of
it sits in a full address book and months of ordinary mail, so the agent searches rather than reads.

Levers on every task (see `_levers`, written to the provenance): the user's address-book rules in a note
(the old home stays as the previous address; a change taken back leaves the card alone), a seventh friend
who announced a move and took it back in a later mail, and one move told only in a housewarming invitation.

- entity_alignment: the job changer writes from the new company under the short name they go by;
  the address book knows them by their full name and old work address, from which they announced
  the new one (so the world vouches for it).
- cross_source_conflict: their first announcement gave the new company's switchboard; a later
  mail corrects it to their direct line.
- hidden_dependency: the club members' new details are only in the member list (a CSV in the
  shared folder) the secretary's mail points to.
- noisy_data: a namesake of the job changer at another company, an out-of-office reply naming a
  stand-in's number, a shop's change-of-address newsletter and last year's member list.

Echoes (lever E, on every task): the request says once, in general words, that nothing of the user's they still
use or have planned should keep someone's old details, and names none of them. The user's own items that do: a
reminder to post the first mover's birthday card to their old home, the second mover's line on the Christmas card
list (a note), an evening still to come at the third mover's old home (an event), and the club members' rows, with
their old mobiles and emails, on the sheet of the club weekend the user organises (a file). Each is graded on its
own (`echo_fixed`: updated in place, or deleted and made again the same, never left beside a new one). Decoys that
must stay: the card list's line for the friend whose move fell through, last year's note of posted cards and a past
evening at the old home.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import JOB_TITLES, PERSONAL_DOMAINS, Org, People, Person, slug
from stageclaw.author.content.places import ENGLISH, REGIONS, City, Region
from stageclaw.author.content.text import day, phone_regex
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, file_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import contact_upkeep as solution

# (club, what its members call the next meeting)
CLUBS = (
    ("Harbour Road Runners", "Saturday's long run"),
    ("Riverside Rowing Club", "Sunday's outing"),
    ("Northside Book Club", "next month's meeting"),
    ("Thursday Night Choir", "Thursday's rehearsal"),
    ("Eastfield Climbing Club", "Wednesday's session"),
)
SHOPS = ("Foxglove Bakery", "Larkspur Books", "Saltmarsh Coffee Roasters", "Juniper Bike Repair", "Alder Wine Shop")
JOB_SUBJECTS = ("Some news", "New job, new details", "Moving on from {old}", "A change of scene")
MOVE_SUBJECTS = ("We've moved!", "New address", "Change of address", "Our new place")
NUMBER_SUBJECTS = ("New number", "New number and email", "My new details")
AWAY_TOPICS = ("Invoice for last month", "Catch-up next week?", "Slides from Tuesday", "Quick question")
PROMPTS = (
    "Can you go through my mail from the last couple of weeks and bring my address book up to date? A few "
    "people have changed jobs, moved or got new numbers.",
    "My contacts are getting out of date, people keep sending me new numbers and addresses. Could you go "
    "through the recent stuff and fix up the contacts?",
    "Please update my contacts with whatever changed lately (new jobs, people moving, new numbers). It should "
    "all be in my recent mail somewhere.",
)
RULES_TITLE = "Address book: how I keep it"
RULES = (
    "1. Work contacts: save their direct line, never the company's switchboard or reception.\n"
    "2. When someone moves, the new home address goes in the notes and the old one stays underneath as "
    '"Previous: ...", so I can still match old post and parcels.\n'
    "3. If someone takes a change back later (the move fell through, the number stayed), the later mail wins: "
    "their card stays exactly as it was, and they need no note.\n"
    "4. Never add a second card for someone who's already in there: update the one I have."
)
RULES_PROMPT = " As usual, go by my address-book rules in my notes."
PARTY_SUBJECTS = ("Housewarming on Saturday!", "Come and see the new place", "Drinks at ours?")
RETRACT_SUBJECTS = ("Exciting news: we're moving", "Moving day is set!")
ECHO = (
    " And tidy up anything of mine this changes: nothing I still use or have planned should have someone's old details."
)
CARD_FRIENDS = 4
TRAVEL = ("driving", "train", "needs a lift", "coach")
TELL = (
    " Then drop each person whose details changed a quick line with the number I've now got for them, so they "
    "can tell me if it's wrong."
)


@dataclass
class _Change:
    """One person whose details changed: who they were in the address book and who they are now."""

    before: Person
    after: Person  # as they write now: their new address, number (and job)
    contact: dict[str, Any]
    changes: dict[str, Any]  # the contacts_update arguments that bring the contact up to date
    search: dict[str, str]  # how the solution finds their (latest) mail
    expect: list[str]  # what that source must say
    file: str = ""
    note: str = ""  # the line to them, with cross_tool_consistency
    home: str = ""  # a mover's new home address
    old_home: str = ""


@dataclass
class _Taken:
    """What the people the task is about must not share: phone lines, and family names (two unrelated
    Ademolas among them would be a second, unplanned entity alignment)."""

    people: People
    region: Region
    lines: set[str] = field(default_factory=set)
    families: set[str] = field(default_factory=set)

    def line(self, phone: str) -> str:
        self.lines.add(re.sub(r"\D", "", phone)[-8:])
        return phone

    def phone(self, make: Callable[[], str]) -> str:
        """A number whose line (last eight digits) none of the others has."""
        while True:
            phone = make()
            if re.sub(r"\D", "", phone)[-8:] not in self.lines:
                return self.line(phone)

    def person(self, **kwargs: Any) -> Person:
        """Someone with a family name none of the others has, and their phone line taken."""
        while True:
            person = self.people.person(self.region, **kwargs)
            if person.family not in self.families:
                self.families.add(person.family)
                self.line(person.phone)
                return person


@dataclass
class _Echoes:
    """The user's own items that still give the old details of someone whose details changed (each made
    stale by the job), and the look-alikes that are not stale (decoys)."""

    card: dict[str, Any]  # a reminder to post a mover's birthday card to their old home
    cards: dict[str, Any]  # the Christmas card list: a mover's line (and, a decoy, the retracted friend's)
    cards_before: dict[str, Any]  # last year's posted cards: a decoy
    games: dict[str, Any]  # an evening at a mover's old home, still to come
    dinner: dict[str, Any]  # an evening there in the past: a decoy
    weekend: str  # the club weekend's sheet, with the club members' old mobiles and emails
    header: str
    rows: dict[str, str]  # name -> the line as it was
    card_line: str
    decoy_line: str
    keep_cards: list[str]
    last_year_lines: list[str]


def _street(address: str) -> str:
    """A pattern for an address's street part (house number and street: all but the town), however spaced."""
    return _address_regex(_house(address))


def _house(address: str) -> str:
    """The house number and street of an address: all but its last part, the town and postcode."""
    return address.rsplit(",", 1)[0]


def _street_name(address: str) -> str:
    """The street of an address, without its house number."""
    return re.sub(r"[\d\s,-]+", " ", _house(address)).strip()


def _address_regex(address: str) -> str:
    """A street address however its parts are separated (commas, spaces, line breaks)."""
    parts = [re.escape(p) for p in re.split(r"[\s,]+", address) if p]
    return "(?<![\\w])" + "[\\s,]+".join(parts) + "(?![\\w])"


def _avoid(draft: TaskDraft, words: list[str]) -> Avoid:
    """What the story owns: the family names of everyone its mail and address book name (a background namesake
    would be a look-alike nobody planted; a shared given name is ordinary life, and blocking those too would use
    up a small culture's names), their addresses, their organisations and the shared folder."""
    senders = [m["from"] for folder in draft.mail.values() for m in folder]
    names = [c["name"] for c in draft.contacts] + [s.split("<")[0].strip().strip('"') for s in senders]
    addresses = [e for c in draft.contacts for e in c.get("emails", [])]
    addresses += [s.split("<")[-1].strip(">") for s in senders]
    orgs = [c["organization"] for c in draft.contacts if c.get("organization")]
    families = [n.split()[-1] for n in names if n.strip()]
    return Avoid(people=families, words=orgs + words, addresses=addresses, paths=["Shared"])


def _names(changes: list[_Change]) -> str:
    names = [c.before.name for c in changes]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _org_regex(org: Org) -> str:
    return re.escape(org.name).replace("\\ ", "\\s*")


def _club_friends(draft: TaskDraft, friends: list[Person], club: str) -> None:
    """The user's friends from the club, in the address book as they are on the club's list."""
    for friend in friends:
        draft.add_contact(
            {
                "uid": draft.uid("c", friend.family),
                "name": friend.name,
                "emails": [friend.email],
                "phones": [friend.phone],
                "notes": club,
            }
        )


@register
class ContactUpkeep(Family):
    name = "contact-upkeep"
    group = "communication"
    apps = ("mail", "contacts", "files", "calendar", "notes", "reminders")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = "people announced new jobs, addresses and numbers: update their contacts in place and tell them"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        # Not Japan: the story keeps a dozen family names out of the background, which a region drawing most
        # of its people from one small name pool cannot spare for a full address book.
        region = REGIONS[rng.choice([k for k in ENGLISH if k != "jp"])]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        draft = TaskDraft(
            id="",
            title="Bring the address book up to date from recent mail",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=2400,
            max_steps=100,
        )
        taken = _Taken(people, region, families={me.family})
        noise: list[str] = []

        job = self._job(ctx, draft, me, now, taken)
        # the third mover only invites to a housewarming: no "moved" or "address" in the subject
        moves = [self._move(ctx, draft, me, now, taken, party=n == 2) for n in range(3)]
        clubs, club_name, friends = self._club(ctx, draft, me, now, taken)
        changed = [job, *moves, *clubs]
        self._others(ctx, draft, region, me, now, job, noise)
        retracted = self._retracted(ctx, draft, me, now, taken)
        echoes = self._echoes(ctx, draft, me, now, taken, moves, clubs, club_name, friends, retracted)
        rules = self._rules(draft)
        # A full address book and months of mail around the story, none of it naming its people or places.
        assert job.after.org is not None
        life = Life.of(ctx, draft, me, now, avoid=_avoid(draft, [job.after.org.name, club_name]), months=6)
        noise += life.fill(Scale(messages=220, series=6, events=60, contacts=70, files=25, notes=8, reminders=8))
        untouched = [
            c["uid"] for c in draft.contacts if all(c is not x.contact for x in changed) and c is not retracted.contact
        ]
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, noise)

        draft.prompt = rng.choice(PROMPTS) + (TELL if ctx.on("cross_tool_consistency") else "") + ECHO + RULES_PROMPT
        draft.summary = f"{job.before.name} changed jobs, {_names(moves)} moved, {_names(clubs)} have new details"
        draft.hint = (
            f"{len(changed)} people announced new details (a new job in a new signature, moves, new mobiles and "
            "emails"
            + (" only in a club's member list" if ctx.on("hidden_dependency") else "")
            + "): update their existing contacts, add no one, leave the rest"
            + (", then send each a note with the number saved" if ctx.on("cross_tool_consistency") else "")
            + "; the user's own reminder, card list, evening out and club weekend sheet that still give old details "
            "are brought up to date, last year's cards, a past evening and the friend whose move fell through are not."
        )
        self._rubric(ctx, draft, job, moves, clubs, untouched, retracted, echoes)
        draft.goal = self._goal(ctx, job, moves, clubs, club_name, retracted, echoes)
        draft.provenance["levers"] = self._levers(ctx, job, moves, clubs, retracted, rules, echoes)
        draft.solution = solution.solve
        draft.alternatives = {
            "read_all_reply": solution.solve_read_all_reply,
            "notes_first": solution.solve_notes_first,
        }
        draft.facts = {
            "people": [
                {
                    "search": c.search,
                    "file": c.file,
                    "row": c.before.name,
                    "expect": c.expect,
                    "known_address": c.before.email,
                    "changes": c.changes,
                    "first": c.after.first,
                    "email": c.after.email,
                    "phone": c.after.phone,
                    "home": c.home,
                }
                for c in changed
            ],
            "me": me.first,
            "since": (now - timedelta(days=21)).date().isoformat(),  # every announcement is younger
            "today": now.date().isoformat(),
            "echoes": {
                "card": {"old": moves[0].old_home, "new": moves[0].home},
                "cards": {"title": echoes.cards["title"], "old": moves[1].old_home, "new": moves[1].home},
                "games": {"old": moves[2].old_home, "new": moves[2].home},
                "weekend": {
                    "name": echoes.weekend.rsplit("/", 1)[-1],
                    "swaps": [[c.before.phone, c.after.phone] for c in clubs]
                    + [[c.before.email, c.after.email] for c in clubs],
                },
            },
            "notes": [
                {"to": [c.after.mailbox], "subject": "Your new details", "body": c.note}
                for c in changed
                if ctx.on("cross_tool_consistency")
            ],
        }
        return draft

    # -- the changes -------------------------------------------------------------------------

    def _job(self, ctx: Context, draft: TaskDraft, me: Person, now: datetime, taken: _Taken) -> _Change:
        """Someone moved to another company: new org, title, work address and direct line."""
        rng, people, region = ctx.rng, ctx.people, taken.region
        old_org, new_org = people.company(region), people.company(region)
        old_title, new_title = rng.sample(JOB_TITLES, 2)
        before = taken.person(org=old_org, title=old_title, short_name=ctx.on("entity_alignment"))
        contact = {
            "uid": draft.uid("c", before.family),
            "name": before.name,
            "emails": [before.email],
            "phones": [before.phone],
            "organization": old_org.name,
            "title": old_title,
        }
        draft.add_contact(contact)
        switchboard = taken.line(new_org.phone)  # what the first mail gives, with a conflict
        after = people.staff(before, new_org, new_title)
        after = replace(after, phone=taken.phone(lambda: f"{new_org.phone[:-2]}{rng.randint(10, 99)}"))
        if ctx.on("entity_alignment"):
            alias = ea.alias(
                draft, people, before, where=[contact_path(contact)], domain=new_org.domain, verified_by=ea.ANNOUNCED
            )
            after = replace(after, goes_by=alias.goes_by, email=alias.email)
            before = replace(before, goes_by=alias.goes_by)  # they sign with it from the old address too
        years = rng.randint(3, 9)
        subject = rng.choice(JOB_SUBJECTS).format(old=old_org.name)
        sources: list[str] = []
        if ctx.on("cross_source_conflict"):
            first_at = now - timedelta(days=rng.randint(12, 16), hours=rng.randint(0, 8))
            start = workday(first_at.date(), rng.randint(2, 4))
            body = mails.letter(
                rng,
                before,
                me,
                [
                    f"Some news: after {years} years I'm leaving {old_org.name}. From {day(start, region=region)} "
                    f"I'll be joining {new_org.name} as {new_title}.",
                    f"My new email there will be {after.email}, and you'll be able to reach me on {switchboard}. "
                    "This address stops working at the end of the month.",
                ],
                full_signature=False,
            )
            first = mails.mail(rng, before, [me], subject, body, first_at, flags=["\\Seen"])
            draft.add_message("INBOX", first)
            if ctx.on("entity_alignment"):
                draft.record(ea.NAME, {"announced_in": [mail_path("INBOX", first)]})
            sent = now - timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 9))
            body = mails.letter(
                rng,
                after,
                me,
                [
                    f"Settling in nicely at {new_org.name}! One correction to my last mail: {switchboard} is the "
                    f"main switchboard, not my line. My direct line is {after.phone}.",
                ],
                full_signature=True,
                quote=(first, first_at),
            )
            news = mails.mail(rng, after, [me], f"Re: {subject}", body, sent, in_reply_to=first["message_id"])
            draft.add_message("INBOX", news)
            csc.supersede(
                draft,
                loser=mail_path("INBOX", first),
                winner=mail_path("INBOX", news),
                rule="the later mail corrects the number the first one gave (the switchboard) to the direct line",
                stated=True,
            )
            sources.append(mail_path("INBOX", first))
        else:
            start = workday(now.date(), -rng.randint(4, 7))
            sent = now - timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 9))
            if ctx.on("entity_alignment"):  # the old address announced the new one; the news come from there
                told = at(start - timedelta(days=rng.randint(3, 6)), rng.randint(9, 17), rng.randint(0, 59), me.tz)
                ea.announce(draft, rng, before, after, me, told, org=new_org.name, when=day(start, region=region))
                paragraphs = [
                    f"Some news: after {years} years at {old_org.name} I've moved on, and since "
                    f"{day(start, region=region)} I've been at {new_org.name} as {new_title}.",
                    f"This is my new email, and my direct line is {after.phone}.",
                ]
                writer = after
            else:  # from the old address, which vouches for the new one
                paragraphs = [
                    f"Some news: after {years} years at {old_org.name} I've moved on, and since "
                    f"{day(start, region=region)} I've been at {new_org.name} as {new_title}.",
                    f"My new email is {after.email} and my direct line is {after.phone}. This address will stop "
                    "working soon, so please use those from now on.",
                ]
                writer = before
            body = mails.letter(rng, writer, me, paragraphs, full_signature=writer is after)
            news = mails.mail(rng, writer, [me], subject, body, sent)
            draft.add_message("INBOX", news)
        sources.append(mail_path("INBOX", news))
        if ctx.on("entity_alignment"):
            draft.record(ea.NAME, {"items": sources})
        return _Change(
            before,
            after,
            contact,
            {
                "emails": [after.email],
                "phones": [after.phone],
                "organization": new_org.name,
                "title": new_title,
            },
            {"sender": before.family, "subject": subject},
            [after.phone, new_title, new_org.name],
            note=(
                f"Hi {after.first},\n\nCongratulations on the new job! I've updated your details: {after.email}, "
                f"direct line {after.phone}. Let me know if anything's off.\n\nBest,\n{me.first}"
            ),
        )

    def _move(
        self, ctx: Context, draft: TaskDraft, me: Person, now: datetime, taken: _Taken, party: bool = False
    ) -> _Change:
        """A friend moved house: new home address and landline, same email; with `party`, they say so only in
        an invitation to their housewarming."""
        rng, region = ctx.rng, taken.region
        before = taken.person()
        old_home = region.street_address(rng, before.city)
        old_line = taken.phone(lambda: region.phone(rng, before.city))
        before = replace(before, phone=old_line)
        cities = [c for c in region.cities if c != before.city] or [before.city]
        city: City = rng.choice(cities)
        home = old_home
        while home.split(",")[0] == old_home.split(",")[0]:
            home = region.street_address(rng, city)
        after = replace(before, city=city, phone=taken.phone(lambda: region.phone(rng, city)))
        contact = {
            "uid": draft.uid("c", before.family),
            "name": before.name,
            "emails": [before.email],
            "phones": [old_line],
            "notes": f"Home: {old_home}",
        }
        draft.add_contact(contact)
        where = f"we've moved to {city.name}!" if city != before.city else "we've moved, just across town."
        paragraphs = [
            f"We finally did it: {where} The new address is {home}.",
            f"The old landline went with the flat, so the home number is now {after.phone}.",
            "Come and visit once we've unpacked the last boxes.",
        ]
        if party:
            paragraphs = [
                f"The boxes are (mostly) unpacked, so we're having a few people round to warm the new place: "
                f"Saturday from 7, at {home}.",
                f"Ring the bell, or call the house phone on {after.phone} if you get lost. Bring nothing but yourself!",
            ]
        body = mails.letter(rng, before, me, paragraphs, register=mails.CASUAL, full_signature=False)
        sent = now - timedelta(days=rng.randint(3, 9), hours=rng.randint(0, 9))
        subject = rng.choice(PARTY_SUBJECTS if party else MOVE_SUBJECTS)
        message = mails.mail(rng, before, [me], subject, body, sent, flags=["\\Seen"])
        draft.add_message("INBOX", message)
        return _Change(
            before,
            after,
            contact,
            {"phones": [after.phone], "notes": f"Home: {home}\nPrevious: {old_home}"},
            {"sender": before.email},
            [home, after.phone],
            note=(
                f"Hi {after.first},\n\nCongrats on the move! I've saved your new address and the home number "
                f"{after.phone}. Shout if that's wrong.\n\nSee you soon,\n{me.first}"
            ),
            home=home,
            old_home=old_home,
        )

    def _retracted(self, ctx: Context, draft: TaskDraft, me: Person, now: datetime, taken: _Taken) -> _Change:
        """A friend announced a move, then took it back: their card stays as it is."""
        rng, region = ctx.rng, taken.region
        before = taken.person()
        old_home = region.street_address(rng, before.city)
        before = replace(before, phone=taken.phone(lambda: region.phone(rng, before.city)))
        home = old_home
        while home.split(",")[0] == old_home.split(",")[0]:
            home = region.street_address(rng, before.city)
        after = replace(before, phone=taken.phone(lambda: region.phone(rng, before.city)))
        contact = draft.add_contact(
            {
                "uid": draft.uid("c", before.family),
                "name": before.name,
                "emails": [before.email],
                "phones": [before.phone],
                "notes": f"Home: {old_home}",
            }
        )
        first_at = now - timedelta(days=rng.randint(10, 16), hours=rng.randint(0, 9))
        body = mails.letter(
            rng,
            before,
            me,
            [
                f"We've signed for a house! From the end of the month we'll be at {home}, and the new home number "
                f"will be {after.phone}.",
                "I'll send a proper invite once we're in.",
            ],
            register=mails.CASUAL,
            full_signature=False,
        )
        subject = rng.choice(RETRACT_SUBJECTS)
        first = mails.mail(rng, before, [me], subject, body, first_at, flags=["\\Seen"])
        draft.add_message("INBOX", first)
        back_at = now - timedelta(days=rng.randint(2, 5), hours=rng.randint(0, 9))
        body = mails.letter(
            rng,
            before,
            me,
            [
                "Scratch my last mail, I'm afraid: the sale fell through at the last minute, so we're staying put. "
                "Same address, same number as always.",
            ],
            register=mails.CASUAL,
            full_signature=False,
            quote=(first, first_at),
        )
        draft.add_message(
            "INBOX", mails.mail(rng, before, [me], f"Re: {subject}", body, back_at, in_reply_to=first["message_id"])
        )
        return _Change(before, after, contact, {}, {"sender": before.email}, [], home=home, old_home=old_home)

    def _echoes(
        self,
        ctx: Context,
        draft: TaskDraft,
        me: Person,
        now: datetime,
        taken: _Taken,
        moves: list[_Change],
        clubs: list[_Change],
        club: str,
        friends: list[Person],
        retracted: _Change,
    ) -> _Echoes:
        """What the user wrote down before the news came, in their own places: a birthday card to post to the
        first mover's old home, the second mover's line on the Christmas card list, an evening at the third
        mover's old home and the club weekend's sheet with the members' old mobiles and emails. Beside them,
        what is not stale: the friend whose move fell through on the same card list, last year's posted cards
        and an evening at the old home that is over."""
        rng, region = ctx.rng, taken.region
        fiona, deepika, nnamdi = moves
        due = (now + timedelta(days=rng.randint(9, 20))).date()
        title = f"Post {fiona.after.first}'s birthday card to {fiona.old_home}"
        card = draft.add_reminder(
            "Reminders",
            {"uid": draft.uid("r", f"{fiona.after.first} birthday card"), "title": title, "due": due.isoformat()},
        )

        # The card list: friends in the address book with their homes, the mover and the retracted friend.
        others = [taken.person() for _ in range(CARD_FRIENDS)]
        # on streets of their own: a friend next door to a mover's old or new home would be a look-alike
        story = [m.old_home for m in moves] + [m.home for m in moves] + [retracted.old_home, retracted.home]
        streets = {_street_name(a) for a in story}
        homes = {}
        taken_homes = {_house(a) for a in story}
        for person in others:
            # a street of the region none of the story's homes is on, while there is one; else another house
            draws = [region.street_address(rng, rng.choice(region.cities)) for _ in range(40)]
            free = [h for h in draws if _street_name(h) not in streets]
            home = free[0] if free else next(h for h in draws if _house(h) not in taken_homes)
            streets.add(_street_name(home))
            taken_homes.add(_house(home))
            homes[person.name] = home
        for person in others:
            draft.add_contact(
                {
                    "uid": draft.uid("c", person.family),
                    "name": person.name,
                    "emails": [person.email],
                    "phones": [person.phone],
                    "notes": f"Home: {homes[person.name]}",
                }
            )
        homes[deepika.before.name] = deepika.old_home
        homes[retracted.before.name] = retracted.old_home

        def family(name: str) -> str:
            return name.split()[-1]

        listed = sorted(homes, key=family)
        lines = {name: f"{name}: {homes[name]}" for name in listed}
        body = "Addresses for the cards\n\n" + "\n".join(lines[n] for n in listed)
        cards = draft.add_note(
            "Notes", {"uid": draft.uid("n", "christmas card list"), "title": "Christmas card list", "body": body}
        )
        keep = ["Addresses for the cards"] + [
            lines[n] for n in listed if n not in (deepika.before.name, retracted.before.name)
        ]
        # Last year's cards, as posted: the mover's old home was right then.
        posted = date(now.year - 1, 12, rng.randint(6, 14))
        sent_to = [deepika.before.name, *rng.sample([p.name for p in others], 2)]
        last = [f"Posted {day(posted, region=region)}:"] + [f"- {n}, {homes[n]} ✓" for n in sorted(sent_to, key=family)]
        before = draft.add_note(
            "Notes",
            {
                "uid": draft.uid("n", f"christmas cards {posted.year}"),
                "title": f"Christmas cards {posted.year}",
                "body": "\n".join(last),
            },
        )

        # An evening at the third mover's, still to come, and one that is over, both at the old home.
        host = nnamdi.after.first
        night = at(now.date() + timedelta(days=rng.randint(10, 20)), 19, 30, me.tz)
        games = draft.add_event(
            "Personal",
            {
                "uid": draft.uid("evt", f"games night {host}"),
                "summary": f"Games night at {host}'s",
                "start": night.isoformat(),
                "end": (night + timedelta(hours=3)).isoformat(),
                "location": nnamdi.old_home,
            },
        )
        past = at(now.date() - timedelta(days=rng.randint(35, 70)), 19, 0, me.tz)
        dinner = draft.add_event(
            "Personal",
            {
                "uid": draft.uid("evt", f"dinner {host}"),
                "summary": f"Dinner at {host}'s",
                "start": past.isoformat(),
                "end": (past + timedelta(hours=3)).isoformat(),
                "location": nnamdi.old_home,
            },
        )

        # The club weekend the user organises: who comes, how to reach them, how they travel.
        path = f"Documents/{club}/weekend away.csv"
        header = ("name", "mobile", "email", "travel")
        people = [me, *friends, *(c.before for c in clubs)]
        rows = sorted(([p.name, p.phone, p.email, rng.choice(TRAVEL)] for p in people), key=lambda r: family(r[0]))
        draft.add_file(path, csv_text(header, rows))
        written = csv_text(header, rows).splitlines()
        return _Echoes(
            card=card,
            cards=cards,
            cards_before=before,
            games=games,
            dinner=dinner,
            weekend=path,
            header=written[0],
            rows={row[0]: line for row, line in zip(rows, written[1:], strict=True)},
            card_line=lines[deepika.before.name],
            decoy_line=lines[retracted.before.name],
            keep_cards=keep,
            last_year_lines=last,
        )

    @staticmethod
    def _rules(draft: TaskDraft) -> dict[str, Any]:
        """The user's standing rules for the address book, in their notes."""
        note = {"uid": draft.uid("n", RULES_TITLE), "title": RULES_TITLE, "body": RULES}
        return draft.add_note("Notes", note)

    def _club(
        self,
        ctx: Context,
        draft: TaskDraft,
        me: Person,
        now: datetime,
        taken: _Taken,
        count: int = 2,
    ) -> tuple[list[_Change], str, list[Person]]:
        """Club members with a new mobile and email: each in their own mail, or only in the club's member list;
        and two of the user's friends in the club, whose details stay."""
        rng, people, region = ctx.rng, ctx.people, taken.region
        club, meeting = rng.choice(CLUBS)
        members: list[tuple[Person, Person, dict[str, Any]]] = []
        for _ in range(count):
            before = taken.person()
            domain = rng.choice([d for d in PERSONAL_DOMAINS[region.key] if d != before.email.split("@")[1]])
            after = replace(
                before,
                email=people.email(before.given, before.family, domain),
                phone=taken.phone(lambda: region.phone(rng, mobile=True)),
            )
            contact = {
                "uid": draft.uid("c", before.family),
                "name": before.name,
                "emails": [before.email],
                "phones": [before.phone],
                "notes": club,
            }
            draft.add_contact(contact)
            members.append((before, after, contact))

        def note(after: Person, how: str) -> str:
            return (
                f"Hi {after.first},\n\n{how} I've saved your new number, {after.phone}, and your new email. Tell me "
                f"if that's not right.\n\nCheers,\n{me.first}"
            )

        if not ctx.on("hidden_dependency"):  # each from their old address, which vouches for the new one
            changes = []
            for before, after, contact in members:
                body = mails.letter(
                    rng,
                    before,
                    me,
                    [
                        f"Quick heads-up: I've finally switched providers, so I have a new mobile number: "
                        f"{after.phone}.",
                        f"My email changes too: please use {after.email} from now on, this one closes at the end of "
                        "the month.",
                    ],
                    register=mails.CASUAL,
                    full_signature=False,
                )
                sent = now - timedelta(days=rng.randint(2, 8), hours=rng.randint(0, 9))
                draft.add_message("INBOX", mails.mail(rng, before, [me], rng.choice(NUMBER_SUBJECTS), body, sent))
                changes.append(
                    _Change(
                        before,
                        after,
                        contact,
                        {"emails": [after.email], "phones": [after.phone]},
                        {"sender": before.email},
                        [after.phone],
                        note=note(after, "Thanks for the heads-up!"),
                    )
                )
            friends = [taken.person() for _ in range(2)]
            _club_friends(draft, friends, club)
            return changes, club, friends

        # The secretary's mail only says the list changed; the new details are in the list itself.
        secretary = taken.person()
        path = f"Shared/{club}/members-{now.year}.csv"
        friends = [taken.person() for _ in range(2)]
        strangers = [people.person(region) for _ in range(3)]
        changed = [before for before, _, _ in members]
        since = {p.email: str(now.year - rng.randint(1, 7)) for p in [me, secretary, *changed, *friends, *strangers]}
        since[strangers[0].email] = str(now.year)  # joined this year: not on last year's list

        def row(p: Person, joined: str) -> list[str]:
            return [p.name, p.email, p.phone, joined]

        current = [row(p, since[p.email]) for p in [me, secretary, *friends, *strangers]]
        current += [row(after, since[before.email]) for before, after, _ in members]
        header = ("name", "email", "mobile", "member_since")
        draft.add_file(path, csv_text(header, sorted(current)))
        body = mails.letter(
            rng,
            secretary,
            me,
            [
                f"I've updated the member list in our shared folder ({path}). A few people have new numbers or "
                f"emails, so please check your own line and tell me if anything's wrong before {meeting}.",
            ],
            register=mails.CASUAL,
            full_signature=False,
        )
        sent = now - timedelta(days=rng.randint(1, 5), hours=rng.randint(0, 9))
        subject = f"{club}: updated member list"
        announcement = mails.mail(rng, secretary, [me], subject, body, sent)
        draft.add_message("INBOX", announcement)
        _club_friends(draft, friends, club)
        for before, _, _ in members:
            hd.move_fact(
                draft,
                fact=f"{before.name}'s new mobile and email",
                item=file_path(path),
                instead_of=mail_path("INBOX", announcement),
            )
        if ctx.on("noisy_data"):
            left = people.person(region)
            old = [row(p, since[p.email]) for p in [me, secretary, *changed, *friends, *strangers[1:]]]
            old.append(row(left, str(now.year - rng.randint(2, 8))))
            old_path = f"Shared/{club}/members-{now.year - 1}.csv"
            draft.add_file(old_path, csv_text(header, sorted(old)))
            nd.twin(draft, file_path(path), {}, file_path(old_path), {})
        return (
            [
                _Change(
                    before,
                    after,
                    contact,
                    {"emails": [after.email], "phones": [after.phone]},
                    {"sender": secretary.email, "subject": subject},
                    [after.email, after.phone],
                    file=path,
                    note=note(after, f"I saw your new details on the {club} list."),
                )
                for before, after, contact in members
            ],
            club,
            friends,
        )

    # -- everyone else ------------------------------------------------------------------------

    def _others(
        self,
        ctx: Context,
        draft: TaskDraft,
        region: Region,
        me: Person,
        now: datetime,
        job: _Change,
        noise: list[str],
    ) -> None:
        """Contacts that stay as they are and, with noisy_data, the look-alikes and traps around the changes."""
        rng, people = ctx.rng, ctx.people
        colleague = people.person(region, org=people.company(region), title=rng.choice(JOB_TITLES))
        self._contact(draft, colleague)
        if not ctx.on("noisy_data"):
            return
        # A namesake at another company: the same name, other addresses.
        elsewhere = people.company(region)
        namesake = people.person(region, org=elsewhere, title=rng.choice(JOB_TITLES))
        namesake = replace(
            namesake,
            given=job.before.given,
            family=job.before.family,
            email=people.email(job.before.given, job.before.family, elsewhere.domain),
        )
        twin = self._contact(draft, namesake)
        nd.twin(draft, contact_path(job.contact), job.contact, contact_path(twin), twin)

        # An out-of-office reply: the stand-in's number is not the sender's new one.
        stand_in = people.person(region, org=colleague.org, title=rng.choice(JOB_TITLES))
        back = workday(now.date(), rng.randint(3, 8))
        body = mails.wrap(
            f"Thank you for your message. I'm out of the office until {day(back, region=region)} with limited "
            f"access to email. For anything urgent, please contact {stand_in.name} on {stand_in.phone} or "
            f"{stand_in.email}."
        )
        body += f"\n\n{colleague.name}\n{colleague.title}"
        away = mails.mail(
            rng,
            colleague,
            [me],
            f"Automatic reply: {rng.choice(AWAY_TOPICS)}",
            body,
            now - timedelta(hours=rng.randint(2, 20)),
        )
        draft.add_message("INBOX", away)

        # A shop that moved: a newsletter, not a contact.
        shop = rng.choice(SHOPS)
        shop_address = people.claim(f"hello@{slug(shop)}.{region.tld}")
        text = mails.wrap(
            f"Big news: we've moved! From {day(workday(now.date(), 2), region=region)} you'll find us at "
            f"{region.street_address(rng, me.city)}, with more space and the same opening hours.\n\n"
            f"Come and say hello at the reopening.\n\nThe {shop} team"
        )
        letter = mails.mail(
            rng, f"{shop} <{shop_address}>", [me], f"{shop} has moved!", text, now - timedelta(days=rng.randint(2, 6))
        )
        draft.add_message("INBOX", letter)
        noise += [mail_path("INBOX", away), mail_path("INBOX", letter)]

    @staticmethod
    def _contact(draft: TaskDraft, person: Person) -> dict[str, Any]:
        assert person.org is not None
        contact = {
            "uid": draft.uid("c", person.family),
            "name": person.name,
            "emails": [person.email],
            "phones": [person.phone],
            "organization": person.org.name,
            "title": person.title,
        }
        return draft.add_contact(contact)

    @staticmethod
    def _levers(
        ctx: Context,
        job: _Change,
        moves: list[_Change],
        clubs: list[_Change],
        retracted: _Change,
        rules: dict[str, Any],
        echoes: _Echoes,
    ) -> list[str]:
        """What each planted lever is and which rubric items grade it, for classifying a blind play."""
        party = moves[2]
        out = [
            f"A rules that combine: the note {rules['title']!r} (rule 2 keeps the old home as the previous "
            "address, graded by moved_history*; rule 3 says a change taken back wins over the announcement, "
            "graded by retracted_kept"
            + (
                ", and over the rule to tell everyone whose details changed (told_each)"
                if ctx.on("cross_tool_consistency")
                else ""
            )
            + ")",
            f"F look-alike decided by a later message: {retracted.before.name} announced a move to {retracted.home} "
            "and a new number, then retracted it in a reply in the same thread (retracted_kept"
            + (", told_each" if ctx.on("cross_tool_consistency") else "")
            + ")",
            f"G completeness without one keyword: {party.before.name}'s move is only in a housewarming invitation "
            "(no 'move' or 'address' in the subject or body; found by reading recent personal mail or searching "
            f"the new home's street) (moved_address_3, moved_number_3, moved_history_3)",
        ]
        if ctx.on("cross_source_conflict"):
            out.append(
                f"F/A: {job.before.name}'s first mail gives the switchboard, the later one the direct line, and rule "
                "1 says direct lines only (new_job_reach)"
            )
        fiona, deepika, nnamdi = moves
        out += [
            f"{echoes.card['uid']}: E echo: the reminder {echoes.card['title']!r} (list Reminders, due "
            f"{echoes.card['due']}) still gives {fiona.before.name}'s old home (echo_card)",
            f"{echoes.cards['uid']}: E echo: the note {echoes.cards['title']!r} has the line {echoes.card_line!r}, "
            f"{deepika.before.name}'s old home (echo_card_list)",
            f"{echoes.games['uid']}: E echo: the event {echoes.games['summary']!r} on {echoes.games['start'][:10]} "
            f"(Personal) is at {nnamdi.before.name}'s old home (echo_games)",
        ]
        out += [
            f"files/{echoes.weekend}: E echo: {club.before.name}'s row {echoes.rows[club.before.name]!r} gives the "
            f"old mobile and email (echo_weekend{'' if n == 1 else f'_{n}'})"
            for n, club in enumerate(clubs, 1)
        ]
        out += [
            f"{echoes.cards['uid']}: E decoy: the card list's line {echoes.decoy_line!r}: {retracted.before.name}'s "
            "move fell through, so it stays (decoy_card_list)",
            f"{echoes.cards_before['uid']}: E decoy: the note {echoes.cards_before['title']!r}, last year's posted "
            f"cards, gives {deepika.before.name}'s old home as it was then (decoy_last_year, no_collateral_damage)",
            f"{echoes.dinner['uid']}: E decoy: the past event {echoes.dinner['summary']!r} on "
            f"{echoes.dinner['start'][:10]} at {nnamdi.before.name}'s old home is history (decoy_dinner, "
            "no_collateral_damage)",
        ]
        return out

    # -- grading ------------------------------------------------------------------------------

    @staticmethod
    def _echo_checks(
        draft: TaskDraft, moves: list[_Change], clubs: list[_Change], retracted: _Change, echoes: _Echoes
    ) -> None:
        """One item for each of the user's own stale items, one for each decoy beside them."""
        fiona, deepika, nnamdi = moves
        card, cards, games = echoes.card, echoes.cards, echoes.games
        draft.check(
            Check(
                "echo_card",
                f"The user's reminder to post {fiona.after.first}'s birthday card gives the new home, {fiona.home}, "
                f"not {fiona.old_home}; still open, due {card['due']}, once (updated, or deleted and made again)",
                v.echo_fixed,
                {
                    "app": "reminders",
                    "uid": card["uid"],
                    "about": "card",
                    "new": {"the new home": _address_regex(fiona.home)},
                    "old": _street(fiona.old_home),
                    "label": f"reminder to post {fiona.after.first}'s birthday card",
                    "same": ["due"],
                },
                weight=2,
                stage="bringing the reminders up to date",
            )
        )
        others = [re.escape(deepika.before.given), re.escape(deepika.before.family)]
        draft.check(
            Check(
                "echo_card_list",
                f"The note {cards['title']!r} gives {deepika.before.name}'s new home, {deepika.home}, on her line "
                "instead of the old one, once; its other lines are as they were",
                v.echo_fixed,
                {
                    "app": "notes",
                    "uid": cards["uid"],
                    "about": "|".join(others),
                    "new": {"the new home": _address_regex(deepika.home)},
                    "old": _street(deepika.old_home),
                    "label": f"{deepika.before.name}'s line of the card list",
                    "lines": True,
                    "keep": echoes.keep_cards,
                },
                weight=2,
                stage="bringing the notes up to date",
            )
        )
        draft.check(
            Check(
                "decoy_card_list",
                f"{retracted.before.name}'s line of the card list still gives the home they stay in (their move fell "
                f"through), not {retracted.home}",
                v.lines_kept,
                {
                    "app": "notes",
                    "uid": cards["uid"],
                    "lines": [echoes.decoy_line],
                    "label": f"{retracted.before.name}'s line of the card list",
                    "wrong": _street(retracted.home),
                },
                stage="choosing what is stale in the notes",
            )
        )
        draft.check(
            Check(
                "decoy_last_year",
                f"The note {echoes.cards_before['title']!r} (the cards already posted, to the homes of the time) is "
                "as it was",
                v.lines_kept,
                {
                    "app": "notes",
                    "uid": echoes.cards_before["uid"],
                    "lines": echoes.last_year_lines,
                    "label": f"the note {echoes.cards_before['title']!r}",
                },
                stage="choosing what is stale in the notes",
            )
        )
        draft.check(
            Check(
                "echo_games",
                f"The evening {games['summary']!r} on {games['start'][:10]} is at {nnamdi.after.first}'s new home, "
                f"{nnamdi.home}, not the old one; same times, in Personal, once",
                v.echo_fixed,
                {
                    "app": "calendar",
                    "uid": games["uid"],
                    "about": r"\bgames\b",
                    "new": {"the new home": _address_regex(nnamdi.home)},
                    "old": _street(nnamdi.old_home),
                    "label": f"evening {games['summary']!r}",
                    "same": ["start", "end"],
                },
                weight=2,
                stage="bringing the calendar up to date",
            )
        )
        draft.check(
            Check(
                "decoy_dinner",
                f"The past evening {echoes.dinner['summary']!r} on {echoes.dinner['start'][:10]} is as it was (it "
                "happened at the old home)",
                v.events_kept,
                {"uids": [echoes.dinner["uid"]], "label": "a past evening is history, not a plan"},
                stage="choosing what is stale in the calendar",
            )
        )
        for n, club in enumerate(clubs, 1):
            suffix = "" if n == 1 else f"_{n}"
            keep = [echoes.header] + [
                line for name, line in echoes.rows.items() if all(name != c.before.name for c in clubs)
            ]
            draft.check(
                Check(
                    f"echo_weekend{suffix}",
                    f"{club.before.name}'s row of {echoes.weekend} gives the mobile {club.after.phone} and "
                    f"{club.after.email}, not the old ones, once; the other rows are as they were",
                    v.echo_fixed,
                    {
                        "app": "files",
                        "uid": echoes.weekend,
                        "about": re.escape(club.before.family),
                        "new": {
                            "the new mobile": phone_regex(club.after.phone),
                            "the new email": re.escape(club.after.email),
                        },
                        "old": f"{phone_regex(club.before.phone)}|{re.escape(club.before.email)}",
                        "label": f"{club.before.name}'s row of the club weekend sheet",
                        "lines": True,
                        "keep": keep,
                    },
                    weight=2,
                    stage="bringing the files up to date",
                )
            )

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        job: _Change,
        moves: list[_Change],
        clubs: list[_Change],
        untouched: list[str],
        retracted: _Change,
        echoes: _Echoes,
    ) -> None:
        conflict = ctx.on("cross_source_conflict")
        new_org = job.after.org
        assert new_org is not None
        draft.check(
            Check(
                "new_job",
                f"{job.before.name}'s contact has {new_org.name} as organization and {job.after.title} as job title",
                v.contact_is,
                {
                    "uid": job.contact["uid"],
                    "label": job.before.name,
                    "name": re.escape(job.before.family),
                    "organization": _org_regex(new_org),
                    "title": f"^\\s*{re.escape(job.after.title)}\\s*$",
                },
                weight=2,
                stage="reading the new signature",
            )
        )
        stale = [job.before.phone] + ([new_org.phone] if conflict else [])
        draft.check(
            Check(
                "new_job_reach",
                f"{job.before.name}'s contact has {job.after.email} as primary email and the direct line "
                f"{job.after.phone}"
                + (", not the switchboard the first mail gave" if conflict else "")
                + f" (nor the old {job.before.org.name if job.before.org else ''} line)",
                v.contact_is,
                {
                    "uid": job.contact["uid"],
                    "label": job.before.name,
                    "name": re.escape(job.before.family),
                    "email": job.after.email,
                    "phone": job.after.phone,
                    "old_phone": stale,
                },
                weight=2,
                stage="taking the latest word" if conflict else "reading the announcement",
            )
        )
        for n, move in enumerate(moves, 1):
            suffix = "" if n == 1 else f"_{n}"
            draft.check(
                Check(
                    f"moved_address{suffix}",
                    f"{move.before.name}'s contact notes give the new home address, {move.home}",
                    v.contact_is,
                    {
                        "uid": move.contact["uid"],
                        "label": move.before.name,
                        "name": re.escape(move.before.family),
                        "notes": _address_regex(move.home),
                        # the old home may stay as history, but as it was: no number but the two addresses' own
                        "notes_stated": {"numbers": v.numbers_in(f"{move.changes['notes']}\n{move.contact['notes']}")},
                    },
                    weight=2,
                    stage="reading the change of address",
                )
            )
            draft.check(
                Check(
                    f"moved_number{suffix}",
                    f"{move.before.name}'s contact has the new home number {move.after.phone} instead of the old "
                    "landline",
                    v.contact_is,
                    {
                        "uid": move.contact["uid"],
                        "label": move.before.name,
                        "name": re.escape(move.before.family),
                        "phone": move.after.phone,
                        "old_phone": move.before.phone,
                    },
                    stage="reading the change of address",
                )
            )
            draft.check(
                Check(
                    f"moved_history{suffix}",
                    f"{move.before.name}'s contact notes keep the old home address, {move.old_home}, as the "
                    "previous one (the user's rule 2)",
                    v.contact_is,
                    {
                        "uid": move.contact["uid"],
                        "label": move.before.name,
                        "name": re.escape(move.before.family),
                        "notes": _address_regex(move.old_home),
                    },
                    stage="following the address-book rules",
                )
            )
        draft.check(
            Check(
                "retracted_kept",
                f"{retracted.before.name}'s contact is exactly as it was: their move fell through (their later mail, "
                "the user's rule 3)",
                v.contacts_kept,
                {"untouched": [retracted.contact["uid"]], "email": retracted.before.email},
                weight=2,
                stage="taking the latest word",
            )
        )
        for n, club in enumerate(clubs, 1):
            suffix = "" if n == 1 else f"_{n}"
            draft.check(
                Check(
                    f"club_member{suffix}",
                    f"{club.before.name}'s contact has {club.after.email} as primary email and the mobile "
                    f"{club.after.phone} instead of the old one",
                    v.contact_is,
                    {
                        "uid": club.contact["uid"],
                        "label": club.before.name,
                        "name": re.escape(club.before.family),
                        "email": club.after.email,
                        "phone": club.after.phone,
                        "old_phone": club.before.phone,
                    },
                    weight=2,
                    stage="reading the member list" if club.file else "reading the new-number mail",
                )
            )
        draft.check(
            Check(
                "no_strays",
                "No contact was created (the existing ones were updated) and every other contact is as it was",
                v.contacts_kept,
                {"untouched": untouched, "email": job.after.email},
                weight=2,
                stage="matching people to their stored contacts",
            )
        )
        self._echo_checks(draft, moves, clubs, retracted, echoes)
        changed = [job, *moves, *clubs]
        fields = [(c, f) for c in changed for f in dict.fromkeys([*c.changes, "notes"])]
        allow = [f"~{contact_path(c.contact)}#{f}" for c, f in fields]
        writes = [f"update {c.before.name}'s contact" for c in changed]
        if ctx.on("cross_tool_consistency"):
            people = {c.after.email: c.before.name for c in changed}
            wrong = {job.before.email: "their old work address"} | {c.before.email: "their old address" for c in clubs}
            draft.check(
                Check(
                    "told_each",
                    f"One note each went to the {len(changed)} people, at the addresses now saved for them, and "
                    "nothing else was sent",
                    v.sent_each,
                    {"to": people, "wrong": wrong},
                    weight=2,
                    stage="writing to the updated addresses",
                )
            )
            says = {c.after.email: {"the number now saved": phone_regex(c.after.phone)} for c in changed}
            # A note may name the person's addresses, the old one it replaces too, but nobody else's.
            stated = {c.after.email: {"addresses": sorted({c.after.email, c.before.email})} for c in changed}
            draft.check(
                Check(
                    "told_numbers",
                    "Each note gives the number now saved for that person, and no address but theirs",
                    v.sent_each,
                    {"to": people, "says": says, "stated": stated},
                    critical=False,
                    stage="writing to the updated addresses",
                )
            )
            ctc.agree(
                draft,
                apps=["contacts", "mail"],
                rule="each note goes to the address now saved on the contact and gives the number saved there",
                items=["new_job_reach", "moved_number", "club_member", "told_each", "told_numbers"],
            )
            draft.judges.append(
                Judge(
                    "notes_tone",
                    "The notes are short and friendly",
                    "Each note is a short, friendly message that says the user has updated their details and gives "
                    "the saved number, without asking for anything else.",
                    stage="writing the notes",
                )
            )
            allow += ["+mail/outbox/*", "+mail/folders/Sent/*"]
            writes.append("send each of them a note")
        writes.append("bring the user's own items that give the old details up to date")
        allow += [
            f"reminders/Reminders/{echoes.card['uid']}",
            "+reminders/Reminders/*",
            f"notes/Notes/{echoes.cards['uid']}",
            "+notes/Notes/*",
            f"calendar/Personal/{echoes.games['uid']}",
            "+calendar/Personal/*",
            f"files/{echoes.weekend}",
        ]
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")

    @staticmethod
    def _goal(
        ctx: Context,
        job: _Change,
        moves: list[_Change],
        clubs: list[_Change],
        club_name: str,
        retracted: _Change,
        echoes: _Echoes,
    ) -> str:
        org = job.after.org
        assert org is not None
        lines = [
            "# Goal",
            "",
            f"{1 + len(moves) + len(clubs)} existing contacts are updated in place; nobody is added and every other "
            "contact is unchanged.",
            "",
            f"- **{job.before.name}** (`{job.contact['uid']}`) changed jobs: organization {org.name}, title "
            f"{job.after.title}, primary email {job.after.email}, phone {job.after.phone} (the old "
            f"{job.before.phone} gone).",
        ]
        lines += [
            f"- **{move.before.name}** (`{move.contact['uid']}`) moved: notes give the home address "
            f"{move.home} with the old one, {move.old_home}, kept as the previous address; phone {move.after.phone} "
            f"(the old landline {move.before.phone} gone)."
            for move in moves
        ]
        lines += [
            f"- **{club.before.name}** (`{club.contact['uid']}`) of the {club_name}: primary email "
            f"{club.after.email}, phone {club.after.phone} (the old {club.before.phone} gone)."
            for club in clubs
        ]
        lines += [
            f"- **{retracted.before.name}** (`{retracted.contact['uid']}`) announced a move to {retracted.home}, then "
            "took it back (the sale fell through): their card stays exactly as it was"
            + (", and they get no note." if ctx.on("cross_tool_consistency") else "."),
            "",
            f"The rules are in the note {RULES_TITLE!r}: direct lines, never a switchboard; the old home kept as the "
            "previous address; a change taken back leaves the card alone; no second card.",
            "",
        ]
        if ctx.on("cross_tool_consistency"):
            lines += [
                "Each of them gets one note, at the address now saved for them, giving the number now saved; "
                "nothing else is sent.",
                "",
            ]
        if ctx.on("entity_alignment"):
            lines.append(
                f"{job.before.name} writes as {job.after.display} from {job.after.email}; the contact knows them by "
                f"their full name and {job.before.email}, from which they announced the new address."
            )
        if ctx.on("cross_source_conflict"):
            lines.append(
                f"Their first mail gave {org.phone}, the new company's switchboard; the later one corrects it to the "
                "direct line, which is the one to save."
            )
        if ctx.on("hidden_dependency"):
            lines.append(
                f"{_names(clubs)}'s new details are only in {clubs[0].file}; the secretary's mail just points there."
            )
        if ctx.on("noisy_data"):
            lines.append(
                f"A namesake {job.before.name} at another company, the out-of-office reply's stand-in, the shop "
                "that moved"
                + (" and last year's member list" if ctx.on("hidden_dependency") else "")
                + " are not changes to make."
            )
        fiona, deepika, nnamdi = moves
        lines += [
            "",
            "The request asks, in general words, for the user's own things that still give old details to be tidied "
            "up. They are (each updated in place, or deleted and made again, never doubled):",
            f"- the reminder `{echoes.card['uid']}` {echoes.card['title']!r} (Reminders, due {echoes.card['due']}): "
            f"gives {fiona.home} instead;",
            f"- the note {echoes.cards['title']!r} (`{echoes.cards['uid']}`): {deepika.before.name}'s line gives "
            f"{deepika.home}; every other line as it was;",
            f"- the event {echoes.games['summary']!r} (`{echoes.games['uid']}`, {echoes.games['start'][:16]}): "
            f"location {nnamdi.home}, same times;",
            f"- {echoes.weekend}: "
            + " and ".join(f"{c.before.name}'s row gives {c.after.phone} and {c.after.email}" for c in clubs)
            + "; every other row as it was.",
            "",
            f"Not stale, so left alone: {retracted.before.name}'s line on the card list (the move fell through), the "
            f"note {echoes.cards_before['title']!r} (cards already posted) and the past event "
            f"{echoes.dinner['summary']!r} ({echoes.dinner['start'][:10]}).",
        ]
        lines += ["", "Reading mail marks it seen; nothing else changes."]
        return "\n".join(lines)
