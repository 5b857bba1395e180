"""carpool-rota (scheduling): make the school-run carpool rota for the next three weeks from what the
parents said, and send it round.

Five families share the run. The group's note holds the rules (one driver a school day, nobody more
than twice a week, every family the same number of runs give or take one, only on days they can do,
none when school is closed) and the user's own days; the parents' replies give theirs. The agent puts
one event per school day in the Family calendar with the driver invited, writes the rota into the
note and mails it to the group.

The answer is not one rota: many fit the rules, and the checks grade the rules (every school day
covered once at the agreed time by a driver who can do it, no run on a closure, the weekly cap,
fair shares) and that the note and the mail say what the calendar says.

- temporal_reasoning: school days only: the window holds an INSET day (and sometimes a bank
  holiday); a parent's exception ("not Thursday 12th") falls on one of their weekdays.
- cross_source_conflict: a parent changes their days in a later mail; the latest word counts.
- entity_alignment: a partner replies for the driver, under their own name and address; the
  invitation goes to the driver the group knows.
- hidden_dependency: the closures are only in the Family calendar; the user's own days only in the note.
- noisy_data: last rota in the note, another lift share's thread.
- cross_tool_consistency: the calendar, the note and the mail give the same rota.
- tool_state_update: events, the note and a mail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author import verifylib as v
from stageclaw.author.content import carpool as t
from stageclaw.author.content import holidays
from stageclaw.author.content import mail as mails
from stageclaw.author.content.people import Person
from stageclaw.author.content.places import REGIONS
from stageclaw.author.content.text import WEEKDAYS, date_regex, day, short_day
from stageclaw.author.content.volume import Avoid, Life, Scale
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import temporal_reasoning as tr
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import carpool_rota as solution

FAMILY, NOTES, WORK = "Family", "Notes", "Work"
PATTERN = r"school run|carpool|car pool|lift|driv"
START, END = (8, 10), (8, 40)


@dataclass
class _Household:
    key: str
    driver: Person  # the parent in the group, who drives
    writer: Person  # who answered (a partner, with entity_alignment)
    weekdays: list[int]  # the weekdays they can do (their latest word)
    not_on: list[date] = field(default_factory=list)  # their exceptions
    withdrawn: list[int] = field(default_factory=list)  # weekdays an earlier mail offered and a later took back
    user: bool = False

    def can(self, on: date) -> bool:
        return on.weekday() in self.weekdays and on not in self.not_on


def _weekdays(days: list[int]) -> str:
    names = [f"{WEEKDAYS[d]}s" for d in sorted(days)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _rota(households: list[_Household], days: list[date], rng: Any) -> dict[date, _Household] | None:
    """A rota that keeps the rules, found by trying the families in a random order with backtracking."""
    most = -(-len(days) // len(households))  # fair shares: nobody more than the rounded-up share
    counts = {h.key: 0 for h in households}
    weekly: dict[tuple[str, int], int] = {}
    order = list(households)
    out: dict[date, _Household] = {}

    def fits(h: _Household, on: date) -> bool:
        week = on.isocalendar()[1]
        return h.can(on) and counts[h.key] < most and weekly.get((h.key, week), 0) < 2

    def place(n: int) -> bool:
        if n == len(days):
            return max(counts.values()) - min(counts.values()) <= 1
        on = days[n]
        rng.shuffle(order)
        for h in sorted(order, key=lambda h: counts[h.key]):
            if fits(h, on):
                week = on.isocalendar()[1]
                counts[h.key] += 1
                weekly[(h.key, week)] = weekly.get((h.key, week), 0) + 1
                out[on] = h
                if place(n + 1):
                    return True
                counts[h.key] -= 1
                weekly[(h.key, week)] -= 1
                del out[on]
        return False

    return out if place(0) else None


@register
class CarpoolRota(Family):
    name = "carpool-rota"
    group = "scheduling"
    apps = ("mail", "calendar", "contacts", "notes")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "temporal_reasoning",
        "tool_state_update",
    )
    summary = "the school-run carpool rota for three weeks: every school day a driver who can, fair shares, sent round"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS["uk"]
        business = holidays.calendar("uk")
        me = people.person(region, org=people.company(region), title=rng.choice(("Nurse", "Accountant", "Engineer")))
        first, closures, now = self._window(ctx, business, me)
        days = [first + timedelta(days=n) for n in range(19) if (first + timedelta(days=n)).weekday() < 5]
        school = [d for d in days if d not in closures]
        draft = TaskDraft(
            id="",
            title="Make the school-run carpool rota for three weeks and send it round",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            max_steps=80,
            time_budget_s=1500,
        )
        households, rota = self._households(ctx, me, school)
        cast = {"school": rng.choice(t.SCHOOLS), "spot": rng.choice(t.SPOTS), "child": None}
        note = self._note(ctx, draft, me, households, cast, first)
        sources = self._mail(ctx, draft, me, now, households, cast, first, days[-1])
        closure_events = self._calendar(ctx, draft, me, closures, business)
        cards = self._contacts(ctx, draft, households)
        self._life(ctx, draft, me, now, households, days)

        prompt = rng.choice(t.PROMPTS).format(start=day(first, "en", region), end=day(days[-1], "en", region))
        if not ctx.on("hidden_dependency"):
            prompt += t.RULES_IN_PROMPT
        draft.prompt = prompt
        draft.summary = f"{len(school)} school days from {first}; closures {', '.join(map(str, closures))}"
        draft.hint = (
            "A school-run carpool: from the parents' replies (latest word counts) and the group note's rules, one "
            "driver each school day (none on closures in the Family calendar), at most twice a week each, fair "
            "shares; events with the driver invited, the rota in the note, mailed to the group."
        )
        self._rubric(ctx, draft, me, households, school, closures, note, sources, cards, closure_events, rota)
        draft.goal = self._goal(ctx, households, school, closures, rota)
        draft.solution = solution.solve
        draft.alternatives = {"another_rota": solution.solve_another_rota, "table": solution.solve_table}
        draft.facts = self._facts(me, households, school, closures, note, cast, first, days[-1])
        return draft

    # -- when ---------------------------------------------------------------------------------

    def _window(
        self, ctx: Context, business: holidays.BusinessCalendar, me: Person
    ) -> tuple[date, list[date], datetime]:
        """Three school weeks from a Monday in term time, with an INSET day in them (and any bank holiday)."""
        rng = ctx.rng
        # The Mondays that start three weeks of one half of a term (no half term or holiday in them).
        halves = [(date(2026, 1, 5), date(2026, 2, 13)), (date(2026, 2, 23), date(2026, 3, 27))]
        halves += [(date(2026, 4, 20), date(2026, 5, 22)), (date(2026, 6, 1), date(2026, 7, 17))]
        halves += [(date(2026, 9, 7), date(2026, 10, 23)), (date(2026, 11, 2), date(2026, 12, 11))]
        lo, hi = rng.choice(halves)
        first = lo + timedelta(weeks=rng.randint(0, ((hi - lo).days - 18) // 7))
        weekdays = [first + timedelta(days=n) for n in range(19) if (first + timedelta(days=n)).weekday() < 5]
        banks = [d for d in weekdays if not business.is_business_day(d)]
        inset = rng.choice([d for d in weekdays[3:-3] if d not in banks and d.weekday() in (0, 4)])
        now_day = first - timedelta(days=rng.randint(3, 6))
        while not business.is_business_day(now_day):
            now_day -= timedelta(days=1)
        now = datetime.combine(now_day, time(rng.randint(19, 21), rng.choice((5, 18, 36, 47))), ZoneInfo(me.tz))
        return first, sorted([*banks, inset]), now

    # -- who ----------------------------------------------------------------------------------

    def _households(
        self, ctx: Context, me: Person, school: list[date]
    ) -> tuple[list[_Household], dict[date, _Household]]:
        """Five families and their days, made so that a rota exists and the rules bite: each can do two or
        three weekdays, one with an exception; the user's family all but one weekday."""
        rng, people = ctx.rng, ctx.people
        taken = {me.first}
        drivers = []
        for _ in range(4):
            for _ in range(40):
                person = people.person(me.region, short_name=True)
                if person.first not in taken and person.family != me.family:
                    taken.add(person.first)
                    drivers.append(person)
                    break
        for _ in range(200):
            skip = rng.randrange(5)
            households = [_Household("us", me, me, [d for d in range(5) if d != skip], user=True)]
            for person in drivers:
                households.append(
                    _Household(
                        re.sub(r"\W", "", person.family.lower()),
                        person,
                        person,
                        sorted(rng.sample(range(5), rng.choice((2, 2, 3)))),
                    )
                )
            for h in households[1:]:
                mine = [d for d in school if d.weekday() in h.weekdays]
                if rng.random() < 0.5 and mine:
                    h.not_on = [rng.choice(mine)]
            rota = _rota(households, school, rng)
            if rota is not None:
                break
        else:
            raise ValueError("no set of days with a rota")
        if ctx.on("cross_source_conflict"):  # someone first offered a weekday they later took back
            changer = rng.choice(households[1:])
            spare = [d for d in range(5) if d not in changer.weekdays]
            changer.withdrawn = [rng.choice(spare)]
        if ctx.on("entity_alignment"):  # a partner answers for the driver
            h = rng.choice([h for h in households[1:] if not h.withdrawn])
            partner = people.person(me.region, family=h.driver.family)
            h.writer = partner
        return households, rota

    # -- the note, mail, calendar, contacts ------------------------------------------------------

    def _line(self, on: date, who: _Household) -> str:
        return f"{short_day(on)}: {who.driver.first}" if not who.user else f"{short_day(on)}: {who.driver.first} (us)"

    def _note(
        self,
        ctx: Context,
        draft: TaskDraft,
        me: Person,
        households: list[_Household],
        cast: dict[str, Any],
        first: date,
    ) -> dict[str, Any]:
        rng = ctx.rng
        members = ", ".join(f"{h.driver.first} {h.driver.family}" for h in households)
        us = next(h for h in households if h.user)
        skip = next(d for d in range(5) if d not in us.weekdays)
        old_days = [first - timedelta(days=n) for n in range(28, 7, -1) if (first - timedelta(days=n)).weekday() < 5]
        old_lines = "\n".join(self._line(d, households[i % len(households)]) for i, d in enumerate(old_days))
        body = t.NOTE.format(
            school=cast["school"],
            members=members,
            spot=cast["spot"],
            us=t.US_LINE.format(days=f"{WEEKDAYS[skip]}s", why=rng.choice(t.US_REASONS)),
            old_start=short_day(old_days[0]),
            old_end=short_day(old_days[-1]),
            old_lines=old_lines,
        )
        note = {"uid": draft.uid("n", t.NOTE_TITLE), "title": t.NOTE_TITLE, "body": body, "tags": ["family"]}
        return draft.add_note(NOTES, note)

    def _mail(
        self,
        ctx: Context,
        draft: TaskDraft,
        me: Person,
        now: datetime,
        households: list[_Household],
        cast: dict[str, Any],
        first: date,
        last: date,
    ) -> dict[str, Any]:
        rng, region = ctx.rng, me.region
        others = households[1:]
        values = {"start": day(first, "en", region, weekday=False), "end": day(last, "en", region, weekday=False)}
        asked_at = now - timedelta(days=rng.randint(5, 8), hours=rng.randint(0, 3))
        body = t.ASK_BODY.format(**values, me=me.first)
        ask = draft.add_message(
            "Sent",
            mails.mail(
                rng, me, [h.driver for h in others], t.ASK_SUBJECT.format(**values), body, asked_at, flags=["\\Seen"]
            ),
        )
        out: dict[str, Any] = {"ask": ask, "replies": {}}
        when = asked_at
        for h in others:
            when = when + timedelta(hours=rng.randint(2, 20), minutes=rng.randint(0, 59))
            offered = sorted({*h.weekdays, *h.withdrawn})
            said = rng.choice(t.CAN).format(days=_weekdays(offered))
            if h.writer is not h.driver:
                said = rng.choice(t.PARTNER).format(partner=h.driver.first, days=_weekdays(offered))
            if h.not_on:
                said += rng.choice(t.EXCEPT).format(when=day(h.not_on[0], "en", region))
            body = mails.letter(
                rng, h.writer, me, [said], register=mails.CASUAL, full_signature=False, quote=(ask, asked_at)
            )
            reply = mails.mail(
                rng,
                h.writer,
                [me],
                f"Re: {ask['subject']}",
                body,
                min(when, now - timedelta(hours=30)),
                flags=["\\Seen"],
                in_reply_to=ask["message_id"],
            )
            out["replies"][h.key] = draft.add_message("INBOX", reply)
        for h in others:
            if not h.withdrawn:
                continue
            earlier = out["replies"][h.key]
            said = rng.choice(t.CHANGE).format(old=f"{WEEKDAYS[h.withdrawn[0]]}s", days=_weekdays(h.weekdays))
            sent = now - timedelta(hours=rng.randint(3, 20))
            body = mails.letter(rng, h.writer, me, [said], register=mails.CASUAL, full_signature=False)
            change = mails.mail(rng, h.writer, [me], earlier["subject"], body, sent, in_reply_to=earlier["message_id"])
            out["change"] = draft.add_message("INBOX", change)
            csc.supersede(
                draft,
                loser=mail_path("INBOX", earlier),
                winner=mail_path("INBOX", change),
                rule="a family's later message replaces the days it offered before (the group's rule: the latest "
                "word counts)",
                stated=True,
            )
        if ctx.on("noisy_data"):
            sender = others[0].driver
            saturday = first + timedelta(days=5)
            body = t.NOISE_BODY.format(first_sat=day(saturday, "en", region), first=sender.first)
            noise = mails.mail(
                rng,
                sender,
                [me, *[h.driver for h in others[1:3]]],
                t.NOISE_SUBJECT,
                body,
                now - timedelta(days=rng.randint(2, 4)),
                flags=["\\Seen"],
            )
            out["noise"] = draft.add_message("INBOX", noise)
            nd.irrelevant(draft, [mail_path("INBOX", noise)])
        return out

    def _calendar(
        self, ctx: Context, draft: TaskDraft, me: Person, closures: list[date], business: holidays.BusinessCalendar
    ) -> list[dict[str, Any]]:
        out = []
        for on in closures:
            holiday = business.holiday(on)
            title = f"{holiday.name} (school closed)" if holiday else "INSET day: school closed"
            event = {
                "uid": draft.uid("evt", title),
                "summary": title,
                "start": on.isoformat(),
                "end": (on + timedelta(days=1)).isoformat(),
            }
            out.append(draft.add_event(FAMILY, event))
        return out

    def _contacts(self, ctx: Context, draft: TaskDraft, households: list[_Household]) -> dict[str, dict[str, Any]]:
        cards = {}
        for h in households[1:]:
            for person in [h.driver] if h.writer is h.driver else [h.driver, h.writer]:
                card = {
                    "uid": draft.uid("c", person.name),
                    "name": person.name,
                    "emails": [person.email],
                    "phones": [person.phone],
                }
                if person is not h.driver:
                    card["notes"] = f"{h.driver.first}'s partner."
                draft.add_contact(card)
                cards[person.email] = card
        return cards

    def _life(
        self, ctx: Context, draft: TaskDraft, me: Person, now: datetime, households: list[_Household], days: list[date]
    ) -> None:
        named = [h.driver.name for h in households[1:]] + [h.writer.name for h in households[1:]]
        avoid = Avoid(
            people=named,
            words=["carpool", "car pool", "school run", "lift", "rota", "INSET", "school"],
            days=days,
            addresses=[h.driver.email for h in households[1:]],
        )
        Life.of(ctx, draft, me, now, avoid=avoid, calendars=(WORK, FAMILY)).fill(
            Scale(messages=200, series=6, events=100, contacts=80, files=60, notes=12, reminders=12)
        )

    # -- rubric -------------------------------------------------------------------------------

    @staticmethod
    def _names(h: _Household) -> str:
        """How a rota may name a family: the driver's first name or the family name (the user: also 'me')."""
        words = dict.fromkeys([h.driver.first, h.driver.given, h.driver.family])
        names = "|".join(rf"\b{re.escape(w)}\b" for w in words)
        return names + (r"|\bme\b|\bus\b|\bmyself\b" if h.user else "")

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        me: Person,
        households: list[_Household],
        school: list[date],
        closures: list[date],
        note: dict[str, Any],
        sources: dict[str, Any],
        cards: dict[str, dict[str, Any]],
        closure_events: list[dict[str, Any]],
        rota: dict[date, _Household],
    ) -> None:
        tz, region = ZoneInfo(me.tz), me.region
        drivers = {h.driver.email: [d.isoformat() for d in school if h.can(d)] for h in households}
        families = {h.driver.email: h.key for h in households}
        runs = []
        for on in school:
            start = datetime.combine(on, time(*START), tz)
            end = datetime.combine(on, time(*END), tz)
            runs.append(f"run_{on:%m%d}")
            draft.check(
                Check(
                    runs[-1],
                    f"{day(on, 'en', region)}: one run in {FAMILY}, 8.10 to 8.40, driven by someone who can do "
                    "that day",
                    v.school_run,
                    {
                        "calendar": FAMILY,
                        "pattern": PATTERN,
                        "day": on.isoformat(),
                        "start": start.isoformat(),
                        "end": end.isoformat(),
                        "user": me.email,
                        "drivers": drivers,
                        "label": f"the run on {on.isoformat()}",
                    },
                    stage="one run each school day",
                )
            )
        for on in closures:
            draft.check(
                Check(
                    f"no_run_{on:%m%d}",
                    f"No run on {day(on, 'en', region)}: the school is closed",
                    v.nothing_on,
                    {
                        "calendar": FAMILY,
                        "pattern": PATTERN,
                        "day": on.isoformat(),
                        "label": "school is closed that day",
                    },
                    stage="school days only",
                )
            )
        iso = [d.isoformat() for d in school]
        draft.check(
            Check(
                "fair_shares",
                "Nobody drives more than twice in a week, and every family the same number of times, give or take one",
                v.rota_fair,
                {
                    "calendar": FAMILY,
                    "pattern": PATTERN,
                    "days": iso,
                    "families": families,
                    "user": me.email,
                    "cap": 2,
                    "label": "the group's rule",
                },
                weight=2,
                stage="keeping the group's rules",
            )
        )
        dates = {d.isoformat(): date_regex(d) for d in school}
        names = {h.driver.email: self._names(h) for h in households}
        common = {"calendar": FAMILY, "pattern": PATTERN, "days": dates, "names": names, "user": me.email}
        draft.check(
            Check(
                "rota_in_note",
                "The carpool note gives the rota: each school day with the driver the calendar has",
                v.rota_written,
                {"uid": note["uid"], **common, "label": "the carpool note"},
                stage="writing the rota down",
            )
        )
        group = [h.driver.email for h in households[1:]]
        draft.check(
            Check(
                "rota_sent",
                "Every family in the group got the rota by mail, each day with its driver as in the calendar",
                v.rota_sent,
                {"to": group, **common},
                stage="sending the rota round",
            )
        )
        everyone = sorted({*group, *(h.writer.email for h in households[1:])})
        draft.check(
            Check(
                "only_the_group",
                "Mail went only to the group, once",
                v.audience,
                {"topics": [], "others": everyone, "user": me.email, "label": "the rota is the group's business"},
                stage="sending the rota round",
            )
        )
        allow = [f"+calendar/{FAMILY}/*", f"~notes/{NOTES}/{note['uid']}", "+mail/outbox/*", "+mail/folders/Sent/*"]
        allow.append("~mail/folders/*/*#flags")
        tsu.require(
            draft, ["an event per school day with the driver", "the rota in the note", "the rota mailed"], *allow
        )
        if ctx.on("temporal_reasoning"):
            facts = [f"{d:%a %d %b} is a school day" for d in school[:1]]
            facts += [f"{e['summary']} on {e['start']}: no run" for e in closure_events]
            facts += [f"{h.driver.first} cannot do {d:%a %d %b}" for h in households for d in h.not_on]
            tr.record(draft, kind="business_days", facts=facts, items=[*runs, *[f"no_run_{d:%m%d}" for d in closures]])
        if ctx.on("cross_tool_consistency"):
            ctc.agree(
                draft,
                apps=["calendar", "notes", "mail"],
                rule="the note and the mail give the calendar's rota",
                items=["rota_in_note", "rota_sent", *runs[:3]],
            )
        if ctx.on("hidden_dependency"):
            hd.move_fact(
                draft,
                fact="the days the school is closed",
                item=item_path("calendar", FAMILY, closure_events[0]),
                instead_of=mail_path("Sent", sources["ask"]),
            )
        if ctx.on("entity_alignment"):
            h = next(h for h in households if h.writer is not h.driver)
            draft.record(
                ea.NAME,
                {
                    "person": h.driver.name,
                    "names": [h.driver.name, h.writer.name],
                    "addresses": [h.driver.email, h.writer.email],
                    "items": [contact_path(cards[h.driver.email]), mail_path("INBOX", sources["replies"][h.key])],
                },
            )
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, [item_path("notes", NOTES, note)])

    @staticmethod
    def _goal(
        ctx: Context,
        households: list[_Household],
        school: list[date],
        closures: list[date],
        rota: dict[date, _Household],
    ) -> str:
        lines = ["# Goal", "", "Any rota that keeps the group's rules passes. The rules and each family's days:", ""]
        for h in households:
            extra = f", not {', '.join(f'{d:%a %d %b}' for d in h.not_on)}" if h.not_on else ""
            was = f" (an earlier mail also offered {WEEKDAYS[h.withdrawn[0]]}s)" if h.withdrawn else ""
            who = f" (answered by {h.writer.name})" if h.writer is not h.driver else ""
            lines.append(f"- {h.driver.name}{who}: {_weekdays(h.weekdays)}{extra}{was}")
        lines += [
            "",
            f"School days: {', '.join(f'{d:%a %d %b}' for d in school)}; "
            f"closed: {', '.join(f'{d:%a %d %b}' for d in closures)}.",
        ]
        lines += ["", "One valid rota (the reference solution may find another):", ""]
        lines += [f"- {d:%a %d %b}: {rota[d].driver.first}" for d in school]
        lines += [
            "",
            "Each run is an event 8.10-8.40 in Family with the driver invited; the rota goes into the carpool note "
            "and to the group.",
        ]
        return "\n".join(lines)

    @staticmethod
    def _facts(
        me: Person,
        households: list[_Household],
        school: list[date],
        closures: list[date],
        note: dict[str, Any],
        cast: dict[str, Any],
        first: date,
        last: date,
    ) -> dict[str, Any]:
        return {
            "me": me.first,
            "note": t.NOTE_TITLE,
            "calendar": FAMILY,
            "first": first.isoformat(),
            "last": last.isoformat(),
            "closures": [d.isoformat() for d in closures],
            "school": [d.isoformat() for d in school],
            "households": [
                {
                    "name": h.driver.name,
                    "first": h.driver.first,
                    "family": h.driver.family,
                    "weekdays": h.weekdays,
                    "not_on": [d.isoformat() for d in h.not_on],
                    "user": h.user,
                }
                for h in households
            ],
            "spot": cast["spot"],
            "start": f"{START[0]:02d}:{START[1]:02d}",
            "end": f"{END[0]:02d}:{END[1]:02d}",
        }
