"""project-tracker (planning): the trades working on a home project mail their news; catch the plan up.

The user runs a home project (a kitchen, a bathroom, the back garden) from a plan note: a checklist
of who does each job and when, and a reminder per job in the Home list. This week two trades say
they are finished, one is running late and one needs the user to choose something by a date. The
agent ticks off the finished jobs' reminders, moves the late job's reminder to its new date and adds
a reminder for what the user has to choose; with cross_tool_consistency it also brings the plan note
up to date, so that the note and the reminders agree.

- entity_alignment: one of the finished trades writes from a personal address under a short name
  and never says which job; the plan and the address book know them by their full name.
- cross_source_conflict: the late trade mails twice; the later mail changes the date again.
- hidden_dependency: the next job waits some working days for the late one (drying time); that
  rule is only in the quotes note, so the next job moves as well.
- noisy_data: last year's project by the same people (its plan note, its ticked-off reminders)
  and the neighbour's building work in the inbox.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.people import LEGAL_FORMS, Person
from stageclaw.author.content.places import REGIONS, Region
from stageclaw.author.content.text import date_regex, day, money
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import contact_path, item_path, mail_path
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import entity_alignment as ea
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import project_tracker as solution

LIST, FOLDER = "Home", "Notes"
# Where the quotes' sums (pounds, dollars, euros) read as prices.
REGION_KEYS = ("uk", "us", "au", "de", "fr", "sg")


@dataclass(frozen=True)
class Step:
    key: str
    line: str  # the job in the plan note
    short: str  # the job in a reminder's title and in speech
    pattern: str  # what names the job in a plan line or a reminder (and nothing else in the plan)
    trade: str  # the tradesperson's job title
    firm: str  # their business, after their family name
    cost: tuple[int, int]  # what the quote came to, in tens


@dataclass(frozen=True)
class Ask:
    line: str  # the new job in the plan
    pattern: str
    subject: str
    text: str  # what the asker writes; {by}


@dataclass(frozen=True)
class Project:
    name: str
    short: str
    trades: str  # how the user talks about everyone working on it
    # In plan order: finished, finished (the mail that does not say which job), late, waits for the
    # late one, asks the user to choose something, last.
    steps: tuple[Step, ...]
    own: str  # the user's own job, done weeks ago
    finished: str  # the first finished trade's news
    vague: str  # the second one's: finished, without naming the job
    late: tuple[str, ...]  # why the late job slips
    again: str  # why the later mail moves it once more
    dry: str  # why the next job waits
    ask: Ask
    budget: tuple[int, int]
    previous: tuple[str, str, tuple[tuple[str, str], ...]]  # last year's project: name, short, (step key, line)


PROJECTS = (
    Project(
        "Kitchen renovation",
        "Kitchen",
        "builders",
        (
            Step("strip", "Strip out the old kitchen", "strip-out", r"strip", "Builder", "Building", (50, 90)),
            Step("electrics", "First-fix electrics", "electrics", r"electric", "Electrician", "Electrical", (120, 240)),
            Step(
                "plaster",
                "Plaster the walls and ceiling",
                "plastering",
                r"plaster",
                "Plasterer",
                "Plastering",
                (90, 180),
            ),
            Step("paint", "Paint the walls and ceiling", "painting", r"paint", "Decorator", "Decorating", (70, 140)),
            Step(
                "units",
                "Fit the units and worktop",
                "fitting",
                r"\bunits?\b|worktop",
                "Kitchen fitter",
                "Kitchens",
                (180, 320),
            ),
            Step("tiles", "Tile the splashback", "tiling", r"\btil(?:e|ing)", "Tiler", "Tiling", (40, 90)),
        ),
        "Order the appliances",
        "The old kitchen is all out and the skip went this afternoon, so the room's clear for the next trade.",
        "All finished at yours today, everything's tested and signed off. I've left the spare bits in the garage.",
        ("I'm running behind on another job", "my labourer's been off sick all week"),
        "the ceiling needs an extra coat",
        "the walls need to dry",
        Ask(
            "Choose the cabinet handles",
            r"handle",
            "Handles",
            "Could you choose the handles for the cabinets and let me know by {by}? They take a while to come in.",
        ),
        (14000, 26000),
        (
            "Bathroom renovation",
            "Bathroom",
            (
                ("strip", "Strip out the old bathroom"),
                ("plaster", "Plaster the ceiling"),
                ("tiles", "Tile the walls and floor"),
                ("paint", "Paint the ceiling"),
            ),
        ),
    ),
    Project(
        "Bathroom renovation",
        "Bathroom",
        "builders",
        (
            Step("strip", "Strip out the old bathroom", "strip-out", r"strip", "Builder", "Building", (40, 80)),
            Step("plumbing", "First-fix plumbing", "plumbing", r"plumb", "Plumber", "Plumbing", (90, 190)),
            Step("screed", "Screed the floor", "screed", r"screed", "Flooring contractor", "Flooring", (50, 110)),
            Step("tiles", "Tile the floor and walls", "tiling", r"\btil(?:e|ing)", "Tiler", "Tiling", (140, 260)),
            Step(
                "fit",
                "Fit the vanity unit and shower screen",
                "fitting",
                r"vanity|shower screen",
                "Bathroom fitter",
                "Bathrooms",
                (80, 150),
            ),
            Step("paint", "Paint the ceiling", "painting", r"paint", "Decorator", "Decorating", (25, 50)),
        ),
        "Order the shower tray",
        "The old suite's out and the skip went this afternoon, so the room's clear for the next trade.",
        "All finished at yours today, no leaks and the pressure test was fine. Spare fittings are in the garage.",
        ("the screed delivery got pushed back", "I'm running behind on another job"),
        "the floor needs a second layer",
        "the screed has to dry",
        Ask(
            "Choose the basin taps",
            r"\btaps?\b",
            "Taps",
            "Could you pick the taps for the basin and let me know by {by}? I need to order them in time.",
        ),
        (9000, 17000),
        (
            "Kitchen renovation",
            "Kitchen",
            (("strip", "Strip out the old kitchen"), ("tiles", "Tile the splashback"), ("paint", "Paint the walls")),
        ),
    ),
    Project(
        "Back garden makeover",
        "Back garden",
        "garden people",
        (
            Step("clear", "Clear the beds and old shrubs", "clearance", r"\bclear", "Gardener", "Gardens", (30, 70)),
            Step("drain", "Lay the drainage", "drainage", r"drain", "Groundworker", "Groundworks", (90, 180)),
            Step(
                "base",
                "Pour the concrete base",
                "concrete base",
                r"concrete|\bbase\b",
                "Builder",
                "Building",
                (70, 140),
            ),
            Step(
                "cabin",
                "Put up the summerhouse",
                "summerhouse",
                r"summerhouse",
                "Installer",
                "Garden Buildings",
                (60, 120),
            ),
            Step("fence", "Put in the new fence", "fencing", r"fenc", "Fencer", "Fencing", (110, 220)),
            Step("turf", "Lay the new turf", "turf", r"turf", "Landscaper", "Landscapes", (50, 110)),
        ),
        "Order the topsoil",
        "The beds are cleared and the green waste has gone, so it's all ready for the next lot.",
        "All done at yours today, it's all laid and backfilled. The spare pipe is behind the shed.",
        ("the concrete lorry can't come till later in the week", "I'm running behind on another job"),
        "there's frost forecast and the concrete can't go down in that",
        "the concrete has to cure",
        Ask(
            "Choose the fence stain",
            r"\bstain",
            "Fence stain",
            "Could you choose the stain colour for the fence and let me know by {by}? I'll order it with the panels.",
        ),
        (8000, 15000),
        (
            "Front garden makeover",
            "Front garden",
            (("clear", "Clear the front beds"), ("fence", "Put in the front fence"), ("turf", "Lay the front lawn")),
        ),
    ),
)
PROMPTS = (
    "The {trades} have been emailing me all week about the {project}. Can you go through it and bring my {plan} "
    "note and my Home reminders up to date (what's done, new dates, anything they need from me)?",
    "Can you catch up on this week's {project} mails for me and update the plan note and my Home reminders to "
    "match? Finished jobs, changed dates, anything new I have to do.",
)
PROMPTS_REMINDERS = (
    "Can you go through this week's {project} mails and sort out my Home reminders? Tick off what's finished, fix "
    "dates that changed and add anything they need from me. Just the reminders, I'll update the plan myself.",
    "Lots of mail from the {trades} about the {project}. Could you get my Home reminders in line with it (finished "
    "jobs, new dates, anything I have to do)? Leave the plan note alone, I'll do that later.",
)
FOLLOW = " If something has slipped, whatever depends on it slips too."
QUIET = " Don't reply to anyone, I'll ring them."
DONE_SUBJECTS = ("All done", "Finished at yours", "Done!")


def _day(d: date, region: Region) -> str:
    return solution.plan_day(d, region.month_first)


def _uncap(text: str) -> str:
    """'Choose the taps' as it reads inside a sentence or after a colon."""
    return text[0].lower() + text[1:]


@dataclass
class _Plan:
    """Who does what when, decided before any text is written."""

    project: Project
    me: Person
    now: datetime
    crew: list[Person]  # one per step, at their business address
    firms: list[str]  # their businesses
    dates: list[date]  # each step's date in the plan as it stands
    moved: date  # the late job's new date
    withdrawn: date | None  # the date an earlier mail gave, when a later one changes it
    gap: int  # working days the next job waits for the late one
    follows: date | None  # the next job's new date, when it waits for the late one
    by: date  # when the user has to choose
    own: date


@dataclass
class _Sender:
    """A mail the solution looks for: who, under which subject, and what it must say."""

    writer: Person
    subject: str
    says: str
    message: dict[str, Any]

    def facts(self) -> dict[str, str]:
        return {"surname": self.writer.family, "subject": self.subject, "says": self.says}


@register
class ProjectTracker(Family):
    name = "project-tracker"
    group = "planning"
    apps = ("mail", "notes", "reminders", "contacts")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = "the trades' news on a home project: tick off, move and add reminders (and update the plan note)"

    def _plan(self, ctx: Context) -> _Plan:
        rng, people = ctx.rng, ctx.people
        project = rng.choice(PROJECTS)
        region = REGIONS[rng.choice(REGION_KEYS)]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        crew: list[Person] = []
        firms: list[str] = []
        taken = {me.given, me.family}
        for n, step in enumerate(project.steps):
            aliased = n == 1 and ctx.on("entity_alignment")
            person = people.person(region, short_name=aliased)
            # The reminders name a trade by their given name, the plan by their full name: both must tell them apart.
            while {person.given, person.family} & taken:
                person = people.person(region, short_name=aliased)
            taken |= {person.given, person.family}
            name = f"{person.family} {step.firm}"
            firm = people.org(region, name, f"{name} {LEGAL_FORMS[region.key]}")
            crew.append(people.staff(person, firm, step.trade))
            firms.append(name)
        start = workday(now.date(), rng.randint(1, 2))
        slip = rng.randint(2, 4)
        moved = workday(start, slip)
        withdrawn = workday(start, rng.choice([n for n in range(1, 6) if n != slip]))
        gap = rng.randint(2, 4)
        follows = workday(moved, gap) if ctx.on("hidden_dependency") else None
        # Without the rule the next job is far enough out that nothing suggests moving it.
        waits = workday(start, gap) if follows else workday(moved, gap + rng.randint(1, 3))
        fitting = workday(follows or waits, rng.randint(2, 3))
        dates = [workday(now.date(), -3), workday(now.date(), -1), start, waits, fitting]
        dates.append(workday(fitting, rng.randint(2, 4)))
        return _Plan(
            project,
            me,
            now,
            crew,
            firms,
            dates,
            moved,
            withdrawn if ctx.on("cross_source_conflict") else None,
            gap,
            follows,
            workday(now.date(), rng.randint(2, 4)),
            now.date() - timedelta(days=rng.randint(14, 24)),
        )

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        p = self._plan(ctx)
        project, me, crew, region = p.project, p.me, p.crew, p.me.region
        steps = project.steps
        draft = TaskDraft(
            id="",
            title=f"Catch the {project.name.lower()} plan up with the trades' news",
            group=self.group,
            now=p.now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=60,
        )
        neighbour = people.person(region)
        while neighbour.given == me.given:  # their mail greets the user by name and signs with theirs
            neighbour = people.person(region)

        # The plan, the quotes (with the rule the next job waits by), a reminder per job.
        plan_title = f"{project.name} – plan"
        lines = [f"- [x] {project.own} – me – {_day(p.own, region)}"]
        lines += [
            f"- [ ] {s.line} – {c.name} – {_day(d, region)}" for s, c, d in zip(steps, crew, p.dates, strict=True)
        ]
        budget = money(rng.randint(*project.budget) // 100 * 100, region)
        plan = {
            "uid": draft.uid("n", plan_title),
            "title": plan_title,
            "body": f"{plan_title}\n\nBudget {budget} all in. Spare key with {neighbour.name} next door.\n\n"
            + "\n".join(lines),
            "tags": ["home"],
        }
        draft.add_note(FOLDER, plan)
        plan_path = item_path("notes", FOLDER, plan)
        late, waiting = steps[2], steps[3]
        rule = f"Starts {p.gap} working days after the {late.short} is finished ({project.dry})."
        quotes_title = f"{project.short} – quotes"
        quoted = [
            f"- {s.short.capitalize()}: {c.name} ({firm}), {money(rng.randint(*s.cost) * 10, region)}"
            + (f". {rule}" if s is waiting and p.follows else "")
            for s, c, firm in zip(steps, crew, p.firms, strict=True)
        ]
        quotes = {
            "uid": draft.uid("n", quotes_title),
            "title": quotes_title,
            "body": f"{quotes_title} (accepted)\n\n" + "\n".join(quoted),
            "tags": ["home"],
        }
        draft.add_note(FOLDER, quotes)
        todos = [
            draft.add_reminder(
                LIST,
                {
                    "uid": draft.uid("r", f"{project.short} {s.short}"),
                    "title": f"{project.short}: {s.short} – {c.given}",
                    "due": d.isoformat(),
                },
            )
            for s, c, d in zip(steps, crew, p.dates, strict=True)
        ]
        draft.add_reminder(
            LIST,
            {
                "uid": draft.uid("r", project.own),
                "title": f"{project.short}: {_uncap(project.own)}",
                "due": p.own.isoformat(),
                "completed": True,
                "completed_at": at(p.own, 19, 12, me.tz).isoformat(),
            },
        )
        contacts = [
            draft.add_contact(
                {
                    "uid": draft.uid("c", c.family),
                    "name": c.name,
                    "emails": [c.email],
                    "phones": [c.phone],
                    "organization": firm,
                    "title": c.title,
                }
            )
            for c, firm in zip(crew, p.firms, strict=True)
        ]

        senders = self._mails(ctx, draft, p, [contact_path(contacts[1]), plan_path])
        if p.follows:
            hd.move_fact(
                draft,
                fact=f"the {waiting.short} starts {p.gap} working days after the {late.short} is finished",
                item=item_path("notes", FOLDER, quotes),
                instead_of=plan_path,
            )
        self._surroundings(ctx, draft, p, plan, todos, neighbour)

        notes_too = ctx.on("cross_tool_consistency")
        prompt = rng.choice(PROMPTS if notes_too else PROMPTS_REMINDERS)
        prompt = prompt.format(
            project=project.name.lower(), plan=f"{project.short.lower()} plan", trades=project.trades
        )
        draft.prompt = prompt + (FOLLOW if p.follows else "") + QUIET
        draft.summary = (
            f"{steps[0].short} and {steps[1].short} done, {late.short} to {p.moved.isoformat()}"
            + (f", {waiting.short} to {p.follows.isoformat()}" if p.follows else "")
            + f", new: {project.ask.line.lower()} by {p.by.isoformat()}"
        )
        draft.hint = (
            f"Trades mail their news on a {project.name.lower()}: two are finished"
            + (" (one writes under a short name from a personal address)" if ctx.on("entity_alignment") else "")
            + f", the {late.short} is late"
            + (" (a later mail changes the date again)" if p.withdrawn else "")
            + (f", the {waiting.short} waits for it by a rule in the quotes note" if p.follows else "")
            + f", and the user must {project.ask.line.lower()} by a date; update the Home reminders"
            + (" and the plan note." if notes_too else ".")
        )
        self._rubric(ctx, draft, p, plan, todos, senders)
        draft.goal = self._goal(ctx, p, plan, todos, senders)
        draft.solution = solution.solve
        draft.facts = {
            "plan": plan_title,
            "list": LIST,
            "done": [{**senders[n].facts(), "pattern": steps[n].pattern} for n in (0, 1)],
            "delay": {**senders[2].facts(), "date": p.moved.isoformat(), "pattern": late.pattern},
            "follows": {
                "quotes": quotes_title,
                "pattern": waiting.pattern,
                "rule": rf"Starts (\d+) working days after the {re.escape(late.short)}",
            }
            if p.follows
            else None,
            "ask": {
                **senders[4].facts(),
                "date": p.by.isoformat(),
                "title": f"{project.short}: {_uncap(project.ask.line)}",
                "line": project.ask.line,
            },
            "note": notes_too,
            "month_first": region.month_first,
        }
        draft.alternatives = {"annotated": solution.solve_annotated, "read_all": solution.solve_read_all}
        return draft

    def _mails(self, ctx: Context, draft: TaskDraft, p: _Plan, known: list[str]) -> dict[int, _Sender]:
        """The week's news, by step: two finished, one late (twice, with a conflict), one asking."""
        rng, people, me, region = ctx.rng, ctx.people, p.me, p.me.region
        project, crew, steps = p.project, p.crew, p.project.steps

        def send(
            writer: Person,
            subject: str,
            text: str,
            says: str,
            when: datetime,
            quote: tuple[dict[str, Any], datetime] | None = None,
            signed: bool | None = None,
        ) -> _Sender:
            body = mails.letter(rng, writer, me, [text], full_signature=signed, quote=quote)
            replied = quote[0]["message_id"] if quote else None
            message = mails.mail(rng, writer, [me], subject, body, when, in_reply_to=replied)
            draft.add_message("INBOX", message)
            return _Sender(writer, subject, says, message)

        out: dict[int, _Sender] = {}
        evening = [at(d, rng.randint(16, 18), rng.randint(0, 59), me.tz) for d in p.dates[:2]]
        out[0] = send(crew[0], f"{steps[0].short.capitalize()} done", project.finished, project.finished, evening[0])
        writer = crew[1]
        if ctx.on("entity_alignment"):
            writer = ea.alias(draft, people, crew[1], where=known, verified_by=ea.UNVERIFIED)
        # A signature with a job title would say which job is finished.
        out[1] = send(writer, rng.choice(DONE_SUBJECTS), project.vague, project.vague, evening[1], signed=False)
        if ctx.on("entity_alignment"):
            draft.record(ea.NAME, {"items": [mail_path("INBOX", out[1].message)]})

        late = steps[2]
        subject = f"{late.short.capitalize()} – new date"
        first = p.withdrawn or p.moved
        reason = rng.choice(project.late)
        text = (
            f"Sorry, {reason}, so I won't be finished on {day(p.dates[2], 'en', region)}. I'll have the "
            f"{late.short} done by {day(first, 'en', region)}."
        )
        latest = p.now - timedelta(hours=rng.randint(13, 16), minutes=rng.randint(0, 59))
        if p.withdrawn is None:
            out[2] = send(crew[2], subject, text, day(p.moved, "en", region), latest)
        else:
            early = at(workday(p.now.date(), -2), 19, rng.randint(0, 59), me.tz)
            earlier = send(crew[2], subject, text, day(first, "en", region), early)
            earlier.message["flags"] = ["\\Seen"]
            again = (
                f"Change of plan, sorry: {project.again}, so it'll be {day(p.moved, 'en', region)} before I'm "
                "finished. Ignore the date in my last mail."
            )
            out[2] = send(
                crew[2], f"Re: {subject}", again, day(p.moved, "en", region), latest, quote=(earlier.message, early)
            )
            csc.supersede(
                draft,
                loser=mail_path("INBOX", earlier.message),
                winner=mail_path("INBOX", out[2].message),
                rule="the later mail changes the finishing date again",
                stated=True,
            )
        asked = at(workday(p.now.date(), -1), 12, rng.randint(0, 59), me.tz)
        by = day(p.by, "en", region)
        out[4] = send(crew[4], project.ask.subject, project.ask.text.format(by=by), by, asked)
        return out

    def _surroundings(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        plan: dict[str, Any],
        todos: list[dict[str, Any]],
        neighbour: Person,
    ) -> None:
        """The rest of the user's life; with noisy_data, last year's project and the neighbour's building work."""
        rng, people, me, region = ctx.rng, ctx.people, p.me, p.me.region
        bg = Background(draft, rng, people, me, p.now, "en")
        noise = bg.mail(3)
        bg.events(2, "Personal")
        bg.reminders(2, "Personal")
        bg.notes(2, FOLDER)
        bg.contacts([neighbour, *bg.friends[:2]])
        if not ctx.on("noisy_data"):
            return
        name, short, jobs = p.project.previous
        steps = {s.key: (s, c, todo) for s, c, todo in zip(p.project.steps, p.crew, todos, strict=True)}
        start = p.now.date() - timedelta(days=rng.randint(200, 320))
        old_lines, targets = [], {p.project.steps[n].key for n in (0, 1, 2)}
        if p.follows:
            targets.add(p.project.steps[3].key)
        for n, (key, line) in enumerate(jobs):
            step, person, todo = steps[key]
            when = workday(start, 4 * n)
            old_lines.append(f"- [x] {line} – {person.name} – {_day(when, region)}")
            old = {
                "uid": draft.uid("r", f"{short} {step.short}"),
                "title": f"{short}: {step.short} – {person.given}",
                "due": when.isoformat(),
                "completed": True,
                "completed_at": at(when, 18, rng.randint(0, 59), me.tz).isoformat(),
            }
            draft.add_reminder(LIST, old)
            here, there = item_path("reminders", LIST, todo), item_path("reminders", LIST, old)
            if key in targets and nd.looks_alike(here, todo, there, old):
                nd.twin(draft, here, todo, there, old)
            else:
                noise.append(there)
        title = f"{name} – plan"
        old_plan = {
            "uid": draft.uid("n", title),
            "title": title,
            "body": f"{title}\n\nAll done, came in just under budget.\n\n" + "\n".join(old_lines),
            "tags": ["home"],
        }
        draft.add_note(FOLDER, old_plan)
        nd.twin(draft, item_path("notes", FOLDER, plan), plan, item_path("notes", FOLDER, old_plan), old_plan)
        begins = workday(p.now.date(), rng.randint(2, 5))
        text = (
            f"Just a heads-up that our loft conversion starts on {day(begins, 'en', region)}. The scaffolders will "
            f"be there from 8 and they reckon it'll all be finished by {day(workday(begins, 15), 'en', region)}. "
            "Sorry in advance for the noise!"
        )
        body = mails.letter(rng, neighbour, me, [text], register=mails.CASUAL)
        when = p.now - timedelta(days=rng.randint(2, 4), hours=rng.randint(1, 8))
        message = mails.mail(rng, neighbour, [me], "Scaffolding next door", body, when, flags=["\\Seen"])
        draft.add_message("INBOX", message)
        nd.irrelevant(draft, [*noise, mail_path("INBOX", message)])

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        plan: dict[str, Any],
        todos: list[dict[str, Any]],
        senders: dict[int, _Sender],
    ) -> None:
        project, crew, region = p.project, p.crew, p.me.region
        steps, ask = project.steps, project.ask
        late, waiting = steps[2], steps[3]
        to_come = [todos[n]["uid"] for n in (4, 5)] + ([] if p.follows else [todos[3]["uid"]])
        allow, writes = [f"+reminders/{LIST}/*"], ["tick off the finished jobs' reminders"]
        why = (
            f"{crew[0].given} has finished",
            f"the 'all finished' mail from {senders[1].writer.display} is about {crew[1].name}'s {steps[1].short}",
        )
        for n in (0, 1):
            draft.check(
                Check(
                    f"{steps[n].key}_done",
                    f"The {steps[n].short} reminder is ticked off, not deleted ({why[n]}); the reminders of the jobs "
                    "still to come stay open",
                    v.reminder_done,
                    {"uid": todos[n]["uid"], "lst": LIST, "keep_open": to_come},
                    weight=2,
                    stage="matching the news to the jobs",
                )
            )
            allow += [f"~reminders/{LIST}/{todos[n]['uid']}#{f}" for f in ("completed", "completed_at")]
        moves = [(late, todos[2], p.moved, p.dates[2])]
        late_says = f"The {late.short} reminder is still open and now due {day(p.moved, 'en', region)}"
        if p.withdrawn:
            late_says += f", the date in {crew[2].given}'s later mail (not {day(p.withdrawn, 'en', region)})"
        described = [late_says]
        if p.follows:
            moves.append((waiting, todos[3], p.follows, p.dates[3]))
            described.append(
                f"The {waiting.short} reminder is still open and now due {day(p.follows, 'en', region)}, {p.gap} "
                f"working days after the {late.short} is finished"
            )
        for (step, todo, when, _), text in zip(moves, described, strict=True):
            draft.check(
                Check(
                    f"{step.key}_moved",
                    text,
                    v.one_reminder,
                    {
                        "pattern": step.pattern,
                        "lst": LIST,
                        "due": when.isoformat(),
                        "label": step.short,
                        "stale": todo["uid"],
                    },
                    weight=2,
                    stage="working out the new dates",
                )
            )
            allow += [f"~reminders/{LIST}/{todo['uid']}#{f}" for f in ("due", "title", "notes", "priority")]
            allow.append(f"-reminders/{LIST}/{todo['uid']}")
        writes.append("move the late job's reminder" + (" and the one that waits for it" if p.follows else ""))
        choice = _uncap(ask.line)
        draft.check(
            Check(
                "choice_reminder",
                f"One new open reminder in {LIST} to {choice}, due {day(p.by, 'en', region)}",
                v.one_reminder,
                {"pattern": ask.pattern, "lst": LIST, "due": p.by.isoformat(), "label": choice},
                weight=2,
                stage="noting what the user has to do",
            )
        )
        writes.append(f"a reminder to {choice}")
        patterns = {s.short: s.pattern for s in (steps[0], steps[1], *(s for s, _, _, _ in moves))}
        draft.check(
            Check(
                "only_these",
                "No other reminder is added, ticked off or changed",
                v.only_reminders,
                {"patterns": {**patterns, choice: ask.pattern}},
                critical=False,
                stage="leaving the rest alone",
            )
        )
        if ctx.on("cross_tool_consistency"):
            self._note_checks(draft, p, plan, moves, choice)
            ctc.agree(
                draft,
                apps=["notes", "reminders"],
                rule="the plan ticks off the jobs whose reminders are done and gives the dates the reminders are due",
                items=[c.id for c in draft.checks if c.id != "only_these"],
            )
            allow.append(f"~notes/{FOLDER}/{plan['uid']}#body")
            writes.append("bring the plan note up to date")
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")

    @staticmethod
    def _note_checks(
        draft: TaskDraft,
        p: _Plan,
        plan: dict[str, Any],
        moves: list[tuple[Step, dict[str, Any], date, date]],
        choice: str,
    ) -> None:
        """The plan agrees with the reminders: a line per job, ticked or open, with its (new) date."""
        project, region = p.project, p.me.region
        new = {step.key: (when, old) for step, _, when, old in moves}
        ticked, dated = [{"label": choice, "pattern": project.ask.pattern, "done": False}], []
        dated.append({"label": choice, "pattern": project.ask.pattern, "says": date_regex(p.by)})
        for n, step in reversed(list(enumerate(project.steps))):  # a later job's line may name an earlier one
            ticked.append({"label": step.short, "pattern": step.pattern, "done": n < 2})
            when, old = new.get(step.key, (p.dates[n], None))
            entry = {"label": step.short, "pattern": step.pattern, "says": date_regex(when)}
            if old is not None:
                stale = [old] + ([p.withdrawn] if p.withdrawn and step is project.steps[2] else [])
                entry["not_says"] = "|".join(date_regex(d) for d in stale)
            dated.append(entry)
        own = {"label": project.own.lower(), "pattern": re.escape(project.own)}
        ticked.append({**own, "done": True})
        dated.append({**own, "says": date_regex(p.own)})
        title = plan["title"]
        draft.check(
            Check(
                "note_ticked",
                f"The note '{title}' ticks off the {project.steps[0].short} and the {project.steps[1].short}; every "
                "other job, the new one included, is still open",
                v.checklist,
                {"uid": plan["uid"], "folder": FOLDER, "label": title, "entries": ticked},
                weight=2,
                stage="updating the plan",
            )
        )
        changed = ", ".join(f"the {step.short} on {_day(when, region)}" for step, _, when, _ in moves)
        draft.check(
            Check(
                "note_dates",
                f"The note gives {changed} (not the old dates), has a new line to {choice} by "
                f"{_day(p.by, region)}, and keeps every other date",
                v.checklist,
                {"uid": plan["uid"], "folder": FOLDER, "label": title, "entries": dated},
                weight=2,
                stage="updating the plan",
            )
        )

    @staticmethod
    def _goal(
        ctx: Context, p: _Plan, plan: dict[str, Any], todos: list[dict[str, Any]], senders: dict[int, _Sender]
    ) -> str:
        project, crew, region = p.project, p.crew, p.me.region
        steps = project.steps

        def when(d: date) -> str:
            return f"{day(d, 'en', region)} ({d.isoformat()})"

        writer = senders[1].writer
        lines = [
            "# Goal",
            "",
            f"The {project.name.lower()} runs from the note '{plan['title']}' (`{plan['uid']}`) and the {LIST} "
            "reminders. This week's mail:",
            "",
            f"- {crew[0].name} ({crew[0].title}) has finished the {steps[0].short}.",
            f"- {writer.display} <{writer.email}> writes 'all finished' without naming the job: "
            + (f"that is {crew[1].name}, " if writer is not crew[1] else "")
            + f"the {steps[1].short} job is finished.",
            f"- {crew[2].name}: the {steps[2].short} moves from {when(p.dates[2])} to **{when(p.moved)}**"
            + (f" (an earlier mail said {when(p.withdrawn)}; the later one changes it)." if p.withdrawn else "."),
        ]
        if p.follows:
            lines.append(
                f"- The quotes note says the {steps[3].short} starts {p.gap} working days after the {steps[2].short} "
                f"is finished: it moves from {when(p.dates[3])} to **{when(p.follows)}**."
            )
        lines += [
            f"- {crew[4].name} needs the user to {project.ask.line.lower()} by **{when(p.by)}**.",
            "",
            "The end state:",
            "",
            f"- **Reminders**: `{todos[0]['uid']}` and `{todos[1]['uid']}` ticked off (not deleted); "
            f"`{todos[2]['uid']}` open, due {p.moved.isoformat()}"
            + (f"; `{todos[3]['uid']}` open, due {p.follows.isoformat()}" if p.follows else "")
            + f"; one new open {LIST} reminder to {project.ask.line.lower()}, due {p.by.isoformat()}. "
            "The other reminders stay as they are.",
        ]
        if ctx.on("cross_tool_consistency"):
            lines.append(
                f"- **Note** `{plan['uid']}`: the {steps[0].short} and {steps[1].short} lines ticked off; the "
                f"{steps[2].short} line gives {_day(p.moved, region)}"
                + (f", the {steps[3].short} line {_day(p.follows, region)}" if p.follows else "")
                + f"; a new open line to {project.ask.line.lower()} by {_day(p.by, region)}; every other line as "
                "it was."
            )
        else:
            lines.append("- The plan note stays as it is (the user updates it).")
        lines.append("")
        if ctx.on("noisy_data"):
            lines.append(
                f"Last year's {project.previous[0].lower()} (its plan note and ticked-off reminders, by the same "
                "people) and the neighbour's mail about their loft stay as they are."
            )
        lines.append("Reading mail marks it seen; no mail is sent and nothing else changes.")
        return "\n".join(lines)
