"""project-tracker (planning): the trades working on a home project mail their news; catch the plan up.

The user runs a home project (a kitchen, a bathroom, the back garden) of eight jobs from a plan note: a
checklist of who does each job and when, a reminder per job in the Home list, and each trade's day on
site in the Personal calendar. This week two trades say they are finished, one is running late, one
sends an updated job sheet, two need the user to choose something by a date and the last confirms
their day. The agent ticks off the finished jobs' reminders, moves the reminders and the calendar days
of the jobs whose dates changed, and sees to the two choices; with cross_tool_consistency it also
brings the plan note up to date, so that the note, the reminders and the calendar agree.

Levers on every task (`_rubric` returns them for the provenance): the trades' days are already in
the calendar, so a moved job's day is moved, not doubled; the user already noted the first choice
as an undated reminder when the quote came, which is given its date, not doubled; one trade's mail
says only that their day moved, and the new day is on the job sheet it attaches (one hop); a second
trade asks for another choice in a mail of its own.

- entity_alignment: one of the finished trades writes from a personal address under a short name
  and never says which job; the plan and the address book know them by their full name.
- cross_source_conflict: the late trade mails twice; the later mail changes the date again.
- hidden_dependency: the next job waits some working days for the late one (drying time); that
  rule is only in the quotes note, so the next job (its reminder and its day) moves as well.
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
from stageclaw.author.content.files import pdf
from stageclaw.author.content.people import LEGAL_FORMS, Person
from stageclaw.author.content.places import REGIONS, Region
from stageclaw.author.content.text import clock, date_regex, day, money
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
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

LIST, FOLDER, CALENDAR = "Home", "Notes", "Personal"
# Where the quotes' sums (pounds, dollars, euros) read as prices.
REGION_KEYS = ("uk", "us", "au", "de", "fr", "sg")


@dataclass(frozen=True)
class Step:
    key: str
    line: str  # the job in the plan note
    short: str  # the job in a reminder's title, a calendar day's title and in speech
    pattern: str  # what names the job in a plan line, a reminder or a site day (and nothing else in the plan)
    trade: str  # the tradesperson's job title
    firm: str  # their business, after their family name
    cost: tuple[int, int]  # what the quote came to, in tens


@dataclass(frozen=True)
class Ask:
    line: str  # the new job in the plan
    pattern: str
    subject: str
    text: str  # what the asker writes; {by}
    pending: str = ""  # the user's own undated reminder about it, from when the quote came (the first ask only)


@dataclass(frozen=True)
class Project:
    name: str
    short: str
    trades: str  # how the user talks about everyone working on it
    # In plan order (see the roles below): finished, finished (the mail that does not say which job), late,
    # waits for the late one, asks the user to choose something, moved on a job sheet, asks again, last.
    steps: tuple[Step, ...]
    own: str  # the user's own job, done weeks ago
    finished: str  # the first finished trade's news
    vague: str  # the second one's: finished, without naming the job
    late: tuple[str, ...]  # why the late job slips
    again: str  # why the later mail moves it once more
    dry: str  # why the next job waits
    ask: Ask
    sheet: str  # what the trade whose day moved writes about the job, before the job sheet
    ask2: Ask
    budget: tuple[int, int]
    previous: tuple[str, str, tuple[tuple[str, str], ...]]  # last year's project: name, short, (step key, line)


# The steps' roles, by their place in the plan.
DONE, VAGUE, LATE, WAITS, ASKS, SHEET, ASKS2, LAST = range(8)

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
            Step("units", "Fit the kitchen units", "units", r"\bunits?\b", "Kitchen fitter", "Kitchens", (180, 320)),
            Step("worktop", "Template and fit the worktop", "worktop", r"worktop", "Stonemason", "Stone", (150, 300)),
            Step("tiles", "Tile the splashback", "tiling", r"\btil(?:e|ing)", "Tiler", "Tiling", (40, 90)),
            Step("plumb", "Plumb in the sink and dishwasher", "plumbing", r"plumb", "Plumber", "Plumbing", (30, 70)),
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
            "cabinet handles?",
        ),
        "We've got the template measurements and the stone is on order.",
        Ask(
            "Choose the grout colour",
            r"grout",
            "Grout",
            "Which grout colour would you like with the tiles? Let me know by {by} and I'll bring it on the day.",
        ),
        (16000, 28000),
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
                "vanity",
                "Fit the vanity unit and toilet",
                "vanity",
                r"vanity",
                "Bathroom fitter",
                "Bathrooms",
                (80, 150),
            ),
            Step("screen", "Fit the shower screen", "shower screen", r"shower screen", "Glazier", "Glass", (60, 120)),
            Step(
                "electrics",
                "Second-fix electrics and extractor",
                "second fix",
                r"second[- ]fix",
                "Electrician",
                "Electrical",
                (40, 90),
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
            "basin taps?",
        ),
        "The glass is measured up and on order.",
        Ask(
            "Choose the light fittings",
            r"light fitting",
            "Light fittings",
            "Have you decided on the light fittings for the bathroom? Let me know by {by} so I can get them in.",
        ),
        (11000, 19000),
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
            Step("patio", "Lay the patio", "patio", r"patio", "Paver", "Paving", (150, 280)),
            Step(
                "lights",
                "Put in the outdoor lighting",
                "lighting",
                r"lighting",
                "Electrician",
                "Electrical",
                (50, 110),
            ),
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
            "fence stain colour?",
        ),
        "The slabs are ordered and the sand and cement are booked in.",
        Ask(
            "Choose the light fittings",
            r"light fitting",
            "Light fittings",
            "Have you picked the light fittings for the garden yet? Let me know by {by} so I can order them.",
        ),
        (10000, 18000),
        (
            "Front garden makeover",
            "Front garden",
            (("clear", "Clear the front beds"), ("fence", "Put in the front fence"), ("turf", "Lay the front lawn")),
        ),
    ),
)
PROMPTS = (
    "The {trades} have been emailing me all week about the {project}. Can you go through it and bring my {plan} "
    "note, my Home reminders and their days in my calendar up to date (what's done, new dates, anything they need "
    "from me)?",
    "Can you catch up on this week's {project} mails for me and update the plan note, my Home reminders and the "
    "trades' days in my calendar to match? Finished jobs, changed dates, anything new I have to do.",
)
PROMPTS_REMINDERS = (
    "Can you go through this week's {project} mails and sort out my Home reminders and the trades' days in my "
    "calendar? Tick off what's finished, fix dates that changed and add anything they need from me. Leave the plan "
    "note, I'll update it myself.",
    "Lots of mail from the {trades} about the {project}. Could you get my Home reminders and the trades' days in my "
    "calendar in line with it (finished jobs, new dates, anything I have to do)? Leave the plan note alone, I'll do "
    "that later.",
)
FOLLOW = " If something has slipped, whatever depends on it slips too."
QUIET = " Don't reply to anyone, I'll ring them."
DONE_SUBJECTS = ("All done", "Finished at yours", "Done!")
STILL_ON = (
    "Just confirming I'm still booked in with you for {day} for the {job}. I'll be there first thing.",
    "All still on for the {job} on {day}. I'll aim to be with you for 8.",
)


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
    sheet: date  # the day the job sheet attached to a trade's mail gives their job now
    by2: date  # when the user has to make the second choice
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
    apps = ("mail", "notes", "reminders", "calendar", "contacts", "files")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "entity_alignment",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = (
        "the trades' news on a home project: tick off, move and add reminders, move their calendar days (and "
        "update the plan note)"
    )

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
        dates.append(workday(fitting, rng.randint(2, 3)))  # the job the job sheet moves
        dates.append(workday(dates[SHEET], rng.randint(3, 4)))
        dates.append(workday(dates[ASKS2], rng.randint(2, 3)))
        sheet = workday(dates[SHEET], rng.randint(1, 2))  # still before the job after it
        by = workday(now.date(), rng.randint(2, 4))
        by2 = workday(now.date(), rng.choice([n for n in range(3, 7) if workday(now.date(), n) != by]))
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
            by,
            sheet,
            by2,
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
            time_budget_s=2000,
            max_steps=120,
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
        # Set when the quote came, before the trade gave a date.
        pending_title = f"{project.short}: {project.ask.pending}"
        pending = draft.add_reminder(LIST, {"uid": draft.uid("r", pending_title), "title": pending_title})
        days = self._site_days(ctx, draft, p)
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

        senders = self._mails(ctx, draft, p, [contact_path(contacts[1]), plan_path], days)
        if p.follows:
            hd.move_fact(
                draft,
                fact=f"the {waiting.short} starts {p.gap} working days after the {late.short} is finished",
                item=item_path("notes", FOLDER, quotes),
                instead_of=plan_path,
            )
        self._surroundings(ctx, draft, p, plan, todos, neighbour)
        arrival_order(draft)

        notes_too = ctx.on("cross_tool_consistency")
        prompt = rng.choice(PROMPTS if notes_too else PROMPTS_REMINDERS)
        prompt = prompt.format(
            project=project.name.lower(), plan=f"{project.short.lower()} plan", trades=project.trades
        )
        draft.prompt = prompt + (FOLLOW if p.follows else "") + QUIET
        draft.summary = (
            f"{steps[DONE].short} and {steps[VAGUE].short} done, {late.short} to {p.moved.isoformat()}"
            + (f", {waiting.short} to {p.follows.isoformat()}" if p.follows else "")
            + f", {steps[SHEET].short} to {p.sheet.isoformat()} (job sheet); {_uncap(project.ask.line)} by "
            f"{p.by.isoformat()} (the reminder exists), {_uncap(project.ask2.line)} by {p.by2.isoformat()}"
        )
        draft.hint = (
            f"Trades mail their news on a {project.name.lower()}: two are finished"
            + (" (one writes under a short name from a personal address)" if ctx.on("entity_alignment") else "")
            + f", the {late.short} is late"
            + (" (a later mail changes the date again)" if p.withdrawn else "")
            + (f", the {waiting.short} waits for it by a rule in the quotes note" if p.follows else "")
            + f", the {steps[SHEET].short} day moved (only its job sheet says to when), and the user must "
            f"{_uncap(project.ask.line)} (an undated reminder exists) and {_uncap(project.ask2.line)} by dates; "
            "update the Home reminders, the trades' days in the calendar"
            + (" and the plan note." if notes_too else ".")
        )
        draft.note_levers(self._rubric(ctx, draft, p, plan, todos, pending, days, senders))
        draft.goal = self._goal(ctx, p, plan, todos, pending, days, senders)
        draft.solution = solution.solve
        draft.facts = {
            "plan": plan_title,
            "list": LIST,
            "calendar": CALENDAR,
            "done": [{**senders[n].facts(), "pattern": steps[n].pattern} for n in (DONE, VAGUE)],
            "delay": {**senders[LATE].facts(), "date": p.moved.isoformat(), "pattern": late.pattern},
            "sheet": {**senders[SHEET].facts(), "date": p.sheet.isoformat(), "pattern": steps[SHEET].pattern},
            "confirmed": senders[LAST].facts(),
            "follows": {
                "quotes": quotes_title,
                "pattern": waiting.pattern,
                "rule": rf"Starts (\d+) working days after the {re.escape(late.short)}",
            }
            if p.follows
            else None,
            "asks": [
                {
                    **senders[n].facts(),
                    "date": by.isoformat(),
                    "title": f"{project.short}: {_uncap(a.line)}",
                    "line": a.line,
                    "pattern": a.pattern,
                }
                for n, a, by in ((ASKS, project.ask, p.by), (ASKS2, project.ask2, p.by2))
            ],
            "note": notes_too,
            "month_first": region.month_first,
        }
        draft.alternatives = {"annotated": solution.solve_annotated, "read_all": solution.solve_read_all}
        return draft

    @staticmethod
    def _site_days(ctx: Context, draft: TaskDraft, p: _Plan) -> list[dict[str, Any]]:
        """The user's calendar holds the day each trade is on site (to be home, or to leave the key)."""
        rng, me = ctx.rng, p.me
        days = []
        for step, person, when in zip(p.project.steps, p.crew, p.dates, strict=True):
            begins = at(when, rng.choice((7, 8, 8)), rng.choice((0, 30)), me.tz)
            event = {
                "uid": draft.uid("evt", f"{p.project.short} {step.short}"),
                "summary": f"{p.project.short}: {step.short} ({person.given})",
                "start": begins.isoformat(),
                "end": (begins + timedelta(hours=rng.randint(7, 9))).isoformat(),
                "description": f"{person.name}, {person.phone}",
            }
            days.append(draft.add_event(CALENDAR, event))
        return days

    def _mails(
        self, ctx: Context, draft: TaskDraft, p: _Plan, known: list[str], days: list[dict[str, Any]]
    ) -> dict[int, _Sender]:
        """The week's news, by step: two finished, one late (twice, with a conflict), one asking, one job sheet,
        another asking, and the last trade confirming their day."""
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
        out[ASKS] = send(crew[ASKS], project.ask.subject, project.ask.text.format(by=by), by, asked)
        # The job sheet: the mail says a day moved, only the attachment says which.
        step, writer = steps[SHEET], crew[SHEET]
        on = day(p.sheet, "en", region)
        # the crew comes at the hour the user already has in the calendar: only the day moves
        arrives = clock(datetime.fromisoformat(days[SHEET]["start"]), twelve=True)
        sheet = pdf(
            "Job sheet",
            [
                f"{p.firms[SHEET]} {LEGAL_FORMS[region.key]}",
                f"Customer: {me.name}",
                f"Job: {step.line}",
                "Materials: ordered",
                f"On site: {on}, from {arrives}",
                "Please keep the room clear and the driveway free for the van.",
            ],
        )
        name = f"Job sheet {p.firms[SHEET]}.pdf"
        body = mails.letter(
            rng, writer, me,
            [f"{project.sheet} One change on our side: the day for the {step.short} has moved, it's on the "
             "updated job sheet attached."],
        )  # fmt: skip
        sent = at(workday(p.now.date(), -2), rng.randint(10, 15), rng.randint(0, 59), me.tz)
        message = mails.mail(
            rng, writer, [me], f"Your {step.short}", body, sent,
            attachments=[{"filename": name, "path": draft.add_asset(name, sheet)}],
        )  # fmt: skip
        draft.add_message("INBOX", message)
        out[SHEET] = _Sender(writer, f"Your {step.short}", on, message)
        by2 = day(p.by2, "en", region)
        asked = at(workday(p.now.date(), -1), rng.randint(15, 18), rng.randint(0, 59), me.tz)
        out[ASKS2] = send(crew[ASKS2], project.ask2.subject, project.ask2.text.format(by=by2), by2, asked)
        # The last trade only confirms: nothing changes.
        still = day(p.dates[LAST], "en", region)
        text = rng.choice(STILL_ON).format(day=still, job=steps[LAST].short)
        confirmed = at(workday(p.now.date(), -1), rng.randint(9, 11), rng.randint(0, 59), me.tz)
        out[LAST] = send(crew[LAST], f"{steps[LAST].short.capitalize()} on {still}", text, still, confirmed)
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
        rng, me, region = ctx.rng, p.me, p.me.region
        project = p.project
        avoid = Avoid(
            people=[me.name, neighbour.name, *(c.name for c in p.crew), *(c.display for c in p.crew)],
            words=[
                project.name, project.short, *(w for s in project.steps for w in (s.short, s.firm, s.trade)),
                project.ask.line, project.ask2.line, "renovation",
            ],
            addresses=[c.email for c in p.crew] + [neighbour.email],
        )  # fmt: skip
        life = Life.of(ctx, draft, me, p.now, avoid=avoid, months=4)
        life.ensure_cast(colleagues=8, clients=4, friends=10, family=4)
        noise = life.fill(Scale(messages=170, series=6, events=110, contacts=55, files=40, notes=14, reminders=16))
        draft.add_contact(
            {
                "uid": draft.uid("c", neighbour.name),
                "name": neighbour.name,
                "emails": [neighbour.email],
                "notes": "Next door",
            }
        )
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
        nd.irrelevant(draft, [*noise[:: max(1, len(noise) // 30)], mail_path("INBOX", message)])

    def _rubric(
        self,
        ctx: Context,
        draft: TaskDraft,
        p: _Plan,
        plan: dict[str, Any],
        todos: list[dict[str, Any]],
        pending: dict[str, Any],
        days: list[dict[str, Any]],
        senders: dict[int, _Sender],
    ) -> dict[str, str]:
        """The checks, the changes they allow, and (returned) which planted difficulty each item grades."""
        project, crew, region = p.project, p.crew, p.me.region
        steps, ask, ask2 = project.steps, project.ask, project.ask2
        late, waiting, sheet = steps[LATE], steps[WAITS], steps[SHEET]
        levers: dict[str, str] = {}
        moved = [LATE, WAITS, SHEET] if p.follows else [LATE, SHEET]
        to_come = [todos[n]["uid"] for n in range(len(steps)) if n not in (DONE, VAGUE, *moved)]
        allow, writes = [f"+reminders/{LIST}/*"], ["tick off the finished jobs' reminders"]
        why = (
            f"{crew[DONE].given} has finished",
            f"the 'all finished' mail from {senders[VAGUE].writer.display} is about {crew[VAGUE].name}'s "
            f"{steps[VAGUE].short}",
        )
        for n in (DONE, VAGUE):
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
        if senders[VAGUE].writer is not crew[VAGUE]:
            levers[f"{steps[VAGUE].key}_done"] = (
                f"F: the 'all finished' mail comes from {senders[VAGUE].writer.display} at a personal address and "
                f"names no job; the contacts and the plan know {crew[VAGUE].name}, the {steps[VAGUE].short}"
            )
        new = {LATE: p.moved, WAITS: p.follows, SHEET: p.sheet}
        said = {
            LATE: f"The {late.short} reminder is still open and now due {day(p.moved, 'en', region)}"
            + (
                f", the date in {crew[LATE].given}'s later mail (not {day(p.withdrawn, 'en', region)})"
                if p.withdrawn
                else ""
            ),
            WAITS: f"The {waiting.short} reminder is still open and now due {day(p.follows or p.moved, 'en', region)}, "
            f"{p.gap} working days after the {late.short} is finished",
            SHEET: f"The {sheet.short} reminder is still open and now due {day(p.sheet, 'en', region)}, the day on "
            f"the job sheet {crew[SHEET].given} attached",
        }  # fmt: skip
        for n in moved:
            step, todo, when = steps[n], todos[n], new[n]
            assert when is not None
            draft.check(
                Check(
                    f"{step.key}_moved",
                    said[n],
                    v.one_reminder,
                    {
                        "pattern": step.pattern,
                        "lst": LIST,
                        "due": when.isoformat(),
                        "label": step.short,
                        "stale": todo["uid"],
                        "dated": True,
                    },
                    weight=2,
                    stage="working out the new dates",
                )
            )
            allow += [f"~reminders/{LIST}/{todo['uid']}#{f}" for f in ("due", "title", "notes", "priority")]
            allow.append(f"-reminders/{LIST}/{todo['uid']}")
            event = days[n]
            shift = when - p.dates[n]
            start, end = (datetime.fromisoformat(event[k]) + shift for k in ("start", "end"))
            draft.check(
                Check(
                    f"{step.key}_day",
                    f"The calendar has {crew[n].given}'s day for the {step.short} on {day(when, 'en', region)}, "
                    f"{start.isoformat()} to {end.isoformat()}, and not on {day(p.dates[n], 'en', region)} as well",
                    v.the_event,
                    {
                        "calendar": CALENDAR,
                        "pattern": step.pattern,
                        "start": start.isoformat(),
                        "end": end.isoformat(),
                        "label": f"the {step.short} day",
                    },
                    weight=2,
                    stage="working out the new dates",
                )
            )
            allow += [f"~calendar/{CALENDAR}/{event['uid']}#*", f"-calendar/{CALENDAR}/{event['uid']}"]
            levers[f"{step.key}_day"] = (
                f"D: the {step.short} day is already in the calendar ({event['summary']!r} on "
                f"{p.dates[n].isoformat()}): moved, not doubled"
            )
        if p.withdrawn:
            levers[f"{late.key}_moved"] = (
                f"E: {crew[LATE].given}'s later mail changes the date again ({p.withdrawn.isoformat()} -> "
                f"{p.moved.isoformat()})"
            )
        if p.follows:
            levers[f"{waiting.key}_moved"] = (
                f"A+G: the quotes note's rule ({p.gap} working days after the {late.short}) moves the {waiting.short}"
            )
        levers[f"{sheet.key}_moved"] = (
            f"G: one hop, {crew[SHEET].given}'s mail says only that the day moved; the new day "
            f"({p.sheet.isoformat()}) is on the attached job sheet"
        )
        levers[f"{sheet.key}_day"] = levers[f"{sheet.key}_moved"] + "; " + levers[f"{sheet.key}_day"][3:]
        writes.append("move the reminders and the calendar days of the jobs whose dates changed")
        choice, choice2 = _uncap(ask.line), _uncap(ask2.line)
        draft.check(
            Check(
                "choice_reminder",
                f"One open reminder in {LIST} to {choice}, due {day(p.by, 'en', region)}: the user's own "
                f"'{pending['title']}' given the date, or a new one in its place",
                v.one_reminder,
                {
                    "pattern": ask.pattern,
                    "lst": LIST,
                    "due": p.by.isoformat(),
                    "label": choice,
                    "stale": pending["uid"],
                    "dated": True,
                },
                weight=2,
                stage="noting what the user has to do",
            )
        )
        allow += [f"~reminders/{LIST}/{pending['uid']}#{f}" for f in ("due", "title", "notes", "priority")]
        allow.append(f"-reminders/{LIST}/{pending['uid']}")
        levers["choice_reminder"] = (
            f"D: half done, the user's own undated reminder {pending['title']!r} is given the date "
            f"{p.by.isoformat()}, not doubled"
        )
        draft.check(
            Check(
                "choice2_reminder",
                f"One new open reminder in {LIST} to {choice2}, due {day(p.by2, 'en', region)}",
                v.one_reminder,
                {"pattern": ask2.pattern, "lst": LIST, "due": p.by2.isoformat(), "label": choice2, "dated": True},
                weight=2,
                stage="noting what the user has to do",
            )
        )
        levers["choice2_reminder"] = (
            f"G: a second trade ({crew[ASKS2].given}) needs a choice by {p.by2.isoformat()}, in a mail of its own"
        )
        writes.append(f"reminders to {choice} and to {choice2}")
        patterns = {steps[n].short: steps[n].pattern for n in (DONE, VAGUE, *moved)}
        draft.check(
            Check(
                "only_these",
                "No other reminder is added, ticked off or changed",
                v.only_reminders,
                {"patterns": {**patterns, choice: ask.pattern, choice2: ask2.pattern}},
                critical=False,
                stage="leaving the rest alone",
            )
        )
        draft.check(
            Check(
                "only_these_days",
                "No other day in the calendar is added or changed",
                v.only_events,
                {"patterns": {steps[n].short: steps[n].pattern for n in moved}},
                critical=False,
                stage="leaving the rest alone",
            )
        )
        allow.append(f"+calendar/{CALENDAR}/*")
        if ctx.on("cross_tool_consistency"):
            self._note_checks(draft, p, plan, moved, new)
            ctc.agree(
                draft,
                apps=["notes", "reminders", "calendar"],
                rule="the plan ticks off the jobs whose reminders are done and gives the dates the reminders are "
                "due and the calendar holds",
                items=[c.id for c in draft.checks if not c.id.startswith("only_these")],
            )
            allow.append(f"~notes/{FOLDER}/{plan['uid']}#body")
            writes.append("bring the plan note up to date")
            levers["note_dates"] = (
                f"B+G: the plan note follows every change: {len(moved)} moved jobs (the job sheet's among them) and "
                "two new lines"
            )
        tsu.require(draft, writes, *allow)
        # Reading the job sheet means saving it somewhere first; a mail client's "save attachment" adds a file.
        draft.permit("~mail/folders/INBOX/*#flags", "+files/**")
        return levers

    @staticmethod
    def _note_checks(
        draft: TaskDraft, p: _Plan, plan: dict[str, Any], moved: list[int], new: dict[int, date | None]
    ) -> None:
        """The plan agrees with the reminders: a line per job, ticked or open, with its (new) date."""
        project, region = p.project, p.me.region
        asks = [(project.ask, p.by), (project.ask2, p.by2)]
        ticked = [{"label": _uncap(a.line), "pattern": a.pattern, "done": False} for a, _ in asks]
        dated = [{"label": _uncap(a.line), "pattern": a.pattern, "says": date_regex(by)} for a, by in asks]
        for n, step in reversed(list(enumerate(project.steps))):  # a later job's line may name an earlier one
            ticked.append({"label": step.short, "pattern": step.pattern, "done": n in (DONE, VAGUE)})
            when = new[n] if n in moved else p.dates[n]
            assert when is not None
            entry = {"label": step.short, "pattern": step.pattern, "says": date_regex(when)}
            if n in moved:
                stale = [p.dates[n]] + ([p.withdrawn] if p.withdrawn and n == LATE else [])
                entry["not_says"] = "|".join(date_regex(d) for d in stale)
                entry["was"] = [p.dates[n].isoformat()]
            dated.append(entry)
        own = {"label": project.own.lower(), "pattern": re.escape(project.own)}
        ticked.append({**own, "done": True})
        dated.append({**own, "says": date_regex(p.own)})
        title = plan["title"]
        steps = project.steps
        draft.check(
            Check(
                "note_ticked",
                f"The note '{title}' ticks off the {steps[DONE].short} and the {steps[VAGUE].short}; every "
                "other job, the two new ones included, is still open",
                v.checklist,
                {"uid": plan["uid"], "folder": FOLDER, "label": title, "entries": ticked},
                weight=2,
                stage="updating the plan",
            )
        )
        changed = ", ".join(f"the {steps[n].short} on {_day(new[n] or p.moved, region)}" for n in moved)
        draft.check(
            Check(
                "note_dates",
                f"The note gives {changed} (not the old dates), has new lines to {_uncap(project.ask.line)} by "
                f"{_day(p.by, region)} and to {_uncap(project.ask2.line)} by {_day(p.by2, region)}, and keeps every "
                "other date",
                v.checklist,
                {"uid": plan["uid"], "folder": FOLDER, "label": title, "entries": dated},
                weight=2,
                stage="updating the plan",
            )
        )

    @staticmethod
    def _goal(
        ctx: Context,
        p: _Plan,
        plan: dict[str, Any],
        todos: list[dict[str, Any]],
        pending: dict[str, Any],
        days: list[dict[str, Any]],
        senders: dict[int, _Sender],
    ) -> str:
        project, crew, region = p.project, p.crew, p.me.region
        steps = project.steps

        def when(d: date) -> str:
            return f"{day(d, 'en', region)} ({d.isoformat()})"

        writer = senders[VAGUE].writer
        lines = [
            "# Goal",
            "",
            f"The {project.name.lower()} runs from the note '{plan['title']}' (`{plan['uid']}`), the {LIST} "
            f"reminders and the trades' days in the {CALENDAR} calendar. This week's mail:",
            "",
            f"- {crew[DONE].name} ({crew[DONE].title}) has finished the {steps[DONE].short}.",
            f"- {writer.display} <{writer.email}> writes 'all finished' without naming the job: "
            + (f"that is {crew[VAGUE].name}, " if writer is not crew[VAGUE] else "")
            + f"the {steps[VAGUE].short} job is finished.",
            f"- {crew[LATE].name}: the {steps[LATE].short} moves from {when(p.dates[LATE])} to **{when(p.moved)}**"
            + (f" (an earlier mail said {when(p.withdrawn)}; the later one changes it)." if p.withdrawn else "."),
        ]
        moves = [(LATE, p.moved)]
        if p.follows:
            moves.append((WAITS, p.follows))
            lines.append(
                f"- The quotes note says the {steps[WAITS].short} starts {p.gap} working days after the "
                f"{steps[LATE].short} is finished: it moves from {when(p.dates[WAITS])} to **{when(p.follows)}**."
            )
        moves.append((SHEET, p.sheet))
        lines += [
            f"- {crew[ASKS].name} needs the user to {_uncap(project.ask.line)} by **{when(p.by)}**; the user's own "
            f"reminder `{pending['uid']}` ('{pending['title']}', no date) is that job.",
            f"- {crew[SHEET].name} says the {steps[SHEET].short} day moved; the attached job sheet gives "
            f"**{when(p.sheet)}** (it was {when(p.dates[SHEET])}).",
            f"- {crew[ASKS2].name} needs the user to {_uncap(project.ask2.line)} by **{when(p.by2)}**.",
            "",
            "The end state:",
            "",
            f"- **Reminders**: `{todos[DONE]['uid']}` and `{todos[VAGUE]['uid']}` ticked off (not deleted); "
            + "; ".join(f"`{todos[n]['uid']}` open, due {d.isoformat()}" for n, d in moves)
            + f"; `{pending['uid']}` (or one reminder in its place) open, due {p.by.isoformat()}; one new open "
            f"{LIST} reminder to {_uncap(project.ask2.line)}, due {p.by2.isoformat()}. The other reminders stay as "
            "they are.",
            f"- **Calendar** ({CALENDAR}): "
            + "; ".join(f"`{days[n]['uid']}` on {d.isoformat()} at the same times (one event each)" for n, d in moves)
            + ". The other days stay as they are.",
        ]
        if ctx.on("cross_tool_consistency"):
            lines.append(
                f"- **Note** `{plan['uid']}`: the {steps[DONE].short} and {steps[VAGUE].short} lines ticked off; "
                + ", ".join(f"the {steps[n].short} line gives {_day(d, region)}" for n, d in moves)
                + f"; new open lines to {_uncap(project.ask.line)} by {_day(p.by, region)} and to "
                f"{_uncap(project.ask2.line)} by {_day(p.by2, region)}; every other line as it was."
            )
        else:
            lines.append("- The plan note stays as it is (the user updates it).")
        lines.append("")
        if ctx.on("noisy_data"):
            lines.append(
                f"Last year's {project.previous[0].lower()} (its plan note and ticked-off reminders, by the same "
                "people) and the neighbour's mail about their loft stay as they are."
            )
        lines.append(
            "Reading mail marks it seen, and the job sheet may be saved to the files to read it; no mail is sent and "
            "nothing else changes."
        )
        return "\n".join(lines)
