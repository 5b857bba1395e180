"""action-items (planning): turn yesterday's meeting notes into dated reminders and a summary note.

The minutes list action items for several people; the user's have relative deadlines ("30 days
before arrival", "the Friday before the offsite", "this Friday"). The agent puts the user's items
in the Work list with real dates and writes a note with the decisions.

- cross_source_conflict: the event moved: a cancelled invite for the old dates sits next to the
  new one, the first meeting's minutes still have the old plan, and two reminders from it carry
  the old deadlines (they must be moved, not duplicated or ticked off).
- hidden_dependency: the vendor's deadlines are only in their booking confirmation (mail), and the
  user's reminder rules only in a note ("as usual"): a supplier's deadline some days early, a weekend
  day to the Friday before (rule 1 first, then rule 2), except the day before the event; when the
  event moved, the block to prepare for it moves too (same time, same days before).
- noisy_data: the first meeting's minutes under a near-identical name, other people's and finished
  items in the minutes, and a colleague with the user's first name: the minutes tell them apart by
  an initial, and that colleague's item is not the user's.
- cross_tool_consistency: the note lists the user's items with the same dates as the reminders.

One of the user's items is already in the reminders on the right day (a second copy is a mistake).
The summary note may go in Notes or in Work (the request names no folder); a Home folder is no place
for it.

Around the story, half a year of the user's life (volume.Life, some 400 objects) that never names its
people, vendor, items or days: the reminders and the calendar are paged and searched, not read whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.people import COMPANY_ROOTS
from stageclaw.author.content.places import ENGLISH, REGIONS
from stageclaw.author.content.text import amount_regex, date_regex, figures_regex, money, short_day, time_regex
from stageclaw.author.content.timeline import at, pick_now, workday
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
from stageclaw.author.draft import Check, Judge, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import file_path, item_path, mail_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import action_items as solution


@dataclass(frozen=True)
class Item:
    key: str
    title: str  # the reminder, as the user would write it
    line: str  # the action item in the minutes; {when} is its deadline, {vendor} and {with} fill in
    pattern: str  # what a reminder for it is called


@dataclass(frozen=True)
class Project:
    key: str
    name: str  # what the team calls it
    event: str  # the calendar event; {place}
    vendor: str  # {root}
    arrival: str  # what the vendor counts the days to
    days: int
    deposit: Item
    final: Item
    own: tuple[Item, ...]  # items without a vendor rule
    others: tuple[str, ...]  # other people's open items; {who}
    done: tuple[str, ...]  # finished items; {who} (the user among them)
    decisions: tuple[str, ...]  # {budget} {time} {finance}
    places: tuple[str, ...]
    the: str  # how deadlines name it: "the offsite"
    hours: tuple[int, ...]  # when the {time} of the decisions can be
    moved: str  # why the dates changed; {vendor}, {name}


PROJECTS = (
    Project(
        "offsite",
        "offsite",
        "Team offsite – {place}",
        "{root} Lodge",
        "arrival",
        2,
        Item("deposit", "Pay the deposit to {vendor}", "pay the 30% deposit to {vendor} ({when})", "deposit"),
        Item(
            "final",
            "Send the final headcount and dietary needs to {vendor}",
            "send the final headcount + dietary requirements to {vendor} ({when})",
            r"head\s*-?count|dietary",
        ),
        (
            Item("agenda", "Draft the offsite agenda with {with}", "draft the agenda with {with}, {when}", "agenda"),
            Item(
                "budget",
                "Send {with} the updated budget sheet",
                "send {with} the updated budget sheet {when}",
                "budget",
            ),
            Item(
                "survey",
                "Send the team the pre-offsite survey",
                "send the team the pre-offsite survey {when}",
                "survey",
            ),
            Item(
                "icebreaker",
                "Plan the icebreaker session with {with}",
                "plan the icebreaker session with {with}, {when}",
                "icebreaker",
            ),
        ),
        ("{who} – book the chartered bus for the new dates", "{who} – collect session proposals in the team channel"),
        ("{who} – send the updated calendar invite", "{who} – check the per-diem policy (it doesn't apply)"),
        (
            "Budget cap stays at {budget} per person all-in ({finance} OK'd it).",
            "Chartered bus from the office, {time} departure on day 1.",
            "Day 2 afternoon is free time, no sessions after lunch.",
            "No partners / +1s this year.",
        ),
        ("Lake Tahoe", "the Peak District", "Valle de Bravo", "the Blue Mountains", "Lake Constance"),
        "the offsite",
        (7, 8),
        "{vendor} can't host us on the old dates (building works), so the offsite has moved.",
    ),
    Project(
        "launch",
        "launch event",
        "Launch event – {place}",
        "{root} Catering",
        "the event",
        1,
        Item(
            "deposit",
            "Pay the catering deposit to {vendor}",
            "pay the catering deposit to {vendor} ({when})",
            "deposit",
        ),
        Item(
            "final",
            "Send the final guest numbers to {vendor}",
            "send the final guest numbers + dietary requirements to {vendor} ({when})",
            r"guest|final numbers|dietary",
        ),
        (
            Item(
                "runsheet",
                "Write the run-of-show with {with}",
                "write the run-of-show with {with}, {when}",
                r"run.of.show",
            ),
            Item("press", "Send {with} the press list", "send {with} the press list {when}", r"press"),
            Item(
                "speech",
                "Draft the welcome speech with {with}",
                "draft the welcome speech with {with}, {when}",
                "speech",
            ),
            Item(
                "slides",
                "Send {with} the slides for the screens",
                "send {with} the slides for the screens {when}",
                "slides",
            ),
        ),
        ("{who} – order the banners and the photo wall", "{who} – book a photographer"),
        ("{who} – confirm the venue's AV setup", "{who} – check the parking permit (not needed)"),
        (
            "Total budget is {budget}, including the venue ({finance} signed it off).",
            "Doors open at {time}, speeches half an hour later.",
            "Guest list capped at 120, press included.",
            "No plus-ones for staff this time.",
        ),
        ("the Old Printworks", "Harbour Hall", "the Glasshouse", "Riverside Studios"),
        "the launch",
        (18, 19),
        "The venue double-booked the original evening, so the launch has moved; {vendor} can do the new date.",
    ),
    Project(
        "booth",
        "conference booth",
        "Expo booth – {place}",
        "{root} Exhibits",
        "the first day of the fair",
        3,
        Item("deposit", "Pay the stand deposit to {vendor}", "pay the stand deposit to {vendor} ({when})", "deposit"),
        Item(
            "final",
            "Send the final print files to {vendor}",
            "send the final print files for the walls to {vendor} ({when})",
            r"print files|artwork",
        ),
        (
            Item("demo", "Prepare the demo script with {with}", "prepare the demo script with {with}, {when}", "demo"),
            Item("travel", "Send {with} the travel budget", "send {with} the travel budget {when}", "travel"),
            Item(
                "leads",
                "Set up the lead-capture form with {with}",
                "set up the lead-capture form with {with}, {when}",
                r"lead.capture",
            ),
            Item("rota", "Send {with} the stand rota", "send {with} the stand rota {when}", r"\brota\b"),
        ),
        ("{who} – book the hotel rooms near the fair", "{who} – order the giveaways"),
        ("{who} – register the team for exhibitor passes", "{who} – check the shipping insurance (covered)"),
        (
            "Budget for the stand is {budget} all-in ({finance} approved it).",
            "Stand opens at {time} each day; two people on the stand at all times.",
            "Booth size stays at 6 x 4 m.",
            "No printed brochures, QR codes only.",
        ),
        ("Messe Berlin", "ExCeL London", "RAI Amsterdam", "Javits Center"),
        "the fair",
        (8, 9),
        "The organisers moved the fair (hall renovation); {vendor} will build the stand for the new dates.",
    ),
)
# Deadlines without a vendor rule: (rule, the words in the minutes)
RULES = (
    ("friday_before", "by the Friday before the {name}"),
    ("this_friday", "this Friday"),
    ("next_friday", "by the end of next week"),
    ("day_before", "the day before the {name}"),
    ("week_before", "a week before the {name}"),
)
PROMPTS = (
    "Can you go through the notes from yesterday's {name} planning meeting and put my action items in my Work "
    'reminders, with real due dates (not "3 weeks before" etc.)? I think I already have a couple of them from '
    "the first meeting. Also make me a note with what we decided, so I have it all in one place.",
    "Please turn my action items from yesterday's {name} meeting into Work reminders with actual dates, and write "
    "me a note summarising the decisions. Some of them may already be in my reminders from the kickoff.",
)
CTC_PROMPT = " Put my action items with their dates in the note too."
RULES_PROMPT = " Set the dates by my usual reminder rules (they're in my notes)."
RULES_NOTE = (
    "My rules for work reminders (so nothing sneaks up on me):\n\n"
    "1. Supplier deadlines (deposits, final numbers, anything a vendor needs from us by a date): remind me {lead} "
    "calendar days before their deadline, not on it. Finance needs the time.\n"
    "2. No reminders at weekends: if the day falls on a Saturday or Sunday, it goes on the Friday before.\n"
    "3. Rule 1 first, then rule 2.\n"
    "4. One exception to rule 2: anything due the day before an event stays on that day, weekend or not (I'm "
    "usually travelling or setting up then anyway).\n"
    "5. If an event moves, the time I've blocked in my calendar to prepare for it moves too: same time of day, "
    "same number of days before.\n"
)
PREP = "Prep for {the}"  # not the event's own title: a search for the event does not find it
# A notes folder of the user's home life: a work summary has no business there.
HOME_NOTES = (
    ("Bin days", "Black bin: every other Tuesday\nRecycling: the Tuesdays in between\nGarden waste: March to November"),
    (
        "Boiler",
        "Service once a year, usually in the autumn.\nAsk about the noisy pump next time.\nFilter changed last year.",
    ),
)
# What the background never says: the words of every item and of the vendor's terms.
STORY_WORDS = (
    "deposit",
    "headcount",
    "head count",
    "dietary",
    "agenda",
    "budget",
    "run-of-show",
    "run of show",
    "press",
    "demo",
    "travel",
    "print files",
    "artwork",
    "guest",
    "final numbers",
    "booking confirmation",
    "survey",
    "icebreaker",
    "speech",
    "slides",
    "lead-capture",
    "lead capture",
    "rota",
)
SCALE = Scale(messages=170, series=6, events=110, contacts=60, files=50, notes=15, reminders=20)


def _round_figure(value: float) -> int:
    """A budget as people set one: two significant figures (4,800, 87,000, 780,000)."""
    digits = max(0, len(str(int(value))) - 2)
    return round(value, -digits) if digits else round(value)


@register
class ActionItems(Family):
    name = "action-items"
    group = "planning"
    apps = ("files", "calendar", "mail", "reminders", "notes")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    summary = "meeting notes to dated Work reminders and a summary note"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        project = rng.choice(PROJECTS)
        region = REGIONS[rng.choice(ENGLISH)]
        employer = people.company(region)
        me = people.person(region, org=employer, title="Team Lead")
        now = pick_now(rng, me.tz)
        while now.weekday() not in (1, 2, 3):  # the meeting was "yesterday", Monday to Wednesday
            now += timedelta(days=1)
        meeting = workday(now.date(), -1)
        kickoff = meeting - timedelta(weeks=3)
        team = [people.person(region, org=employer) for _ in range(4)]
        namesake = None
        if ctx.on("noisy_data"):  # a colleague with the user's first name: the minutes tell them apart
            namesake = next(
                p
                for p in (people.person(region, org=employer, given=me.given) for _ in range(30))
                if p.family[:1] != me.family[:1]
            )
            team[3] = namesake
        notetaker, partner, finance, *others = team
        # How the minutes name people: by first name, with an initial where two share it.
        who = {p.name: f"{p.given} {p.family[0]}." if namesake else p.given for p in [me, *team]}
        who |= {p.name: p.given for p in team if namesake and p.given != me.given}
        vendor_name = project.vendor.format(root=rng.choice(COMPANY_ROOTS))
        vendor = people.org(region, vendor_name, f"{vendor_name} Ltd")
        contact = people.person(region, org=vendor, title="Events")
        place = rng.choice(project.places)
        event_name = project.event.format(place=place)
        moved = ctx.on("cross_source_conflict")
        start = now.date() + timedelta(days=rng.randint(38, 60))
        old_start = now.date() + timedelta(days=rng.randint(12, 24))
        if not moved:
            old_start = start
        deposit_days, final_days = rng.choice((30, 28, 21)), rng.choice((14, 10, 7))
        euros = rng.choice((1800, 2400, 3500, 4800, 6500)) if project.key == "offsite" else rng.randint(18, 60) * 500
        budget = float(_round_figure(euros * region.per_euro))
        clock_at = at(start, rng.choice(project.hours), rng.choice((0, 30)), me.tz)
        draft = TaskDraft(
            id="",
            title=f"Turn the {project.name} planning notes into dated reminders and a summary note",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=120,
        )

        # The calendar: the event (and, when it moved, the cancelled invite for the old dates).
        work = "Work"
        end = start + timedelta(days=project.days)
        event = {
            "uid": draft.uid("evt", project.key),
            "summary": event_name,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "all_day": True,
            "location": f"{vendor.name}, {place}",
            "organizer": notetaker.mailbox,
        }
        draft.add_event(work, event)
        if moved:
            cancelled = {
                **event,
                "uid": draft.uid("evt", f"{project.key} old dates"),
                "start": old_start.isoformat(),
                "end": (old_start + timedelta(days=project.days)).isoformat(),
                "status": "CANCELLED",
                "description": f"Cancelled: {vendor.name} can't host us on these dates. New dates to follow.",
            }
            draft.add_event(work, cancelled)
        prep = None
        if moved and ctx.on("hidden_dependency"):  # blocked for the old dates: rule 5 moves it with the event
            weekdays = [
                n for n in (2, 3, 1, 4, 5, 6) if all((d - timedelta(days=n)).weekday() < 5 for d in (old_start, start))
            ]
            before = (weekdays or [2])[0]
            hour = rng.choice((9, 10, 14))
            prep = {
                "uid": draft.uid("evt", f"{project.key} prep"),
                "summary": PREP.format(the=project.the),
                "start": at(old_start - timedelta(days=before), hour, 0, me.tz).isoformat(),
                "end": at(old_start - timedelta(days=before), hour + 2, 0, me.tz).isoformat(),
            }
            draft.add_event(work, prep)
            moved_prep = (
                at(start - timedelta(days=before), hour, 0, me.tz),
                at(start - timedelta(days=before), hour + 2, 0, me.tz),
            )
        for when_, label in ((kickoff, "kickoff"), (meeting, "follow-up")):
            draft.add_event(
                work,
                {
                    "uid": draft.uid("evt", f"planning {label}"),
                    "summary": f"{project.name.capitalize()} planning – {label}",
                    "start": at(when_, 16, 0, me.tz).isoformat(),
                    "end": at(when_, 17, 0, me.tz).isoformat(),
                    "attendees": sorted(p.email for p in [me, *team]),
                },
            )

        # The vendor's terms: in the minutes, or only in their booking confirmation.
        terms_mail = None
        deposit_words = f"{deposit_days} days before {project.arrival}"
        final_words = f"{final_days} days before {project.arrival}"
        if ctx.on("hidden_dependency"):
            body = mails.letter(
                rng,
                contact,
                me,
                [
                    f"thank you for booking with {vendor.name}. Here is a summary of our terms for your group:",
                    f"- Deposit: 30% of the estimate, due {deposit_words}\n"
                    f"- {project.final.title.split(' to ')[0].replace('Send the ', '').capitalize()}: due "
                    f"{final_words}\n- Free cancellation until 45 days before {project.arrival}\n"
                    "- Balance: payable on the day",
                    "If your dates change, these deadlines move with them.",
                ],
                register=mails.FORMAL,
                full_signature=True,
            )
            terms_mail = mails.mail(
                rng,
                contact,
                [me],
                f"Booking confirmation – {employer.name} group",
                body,
                at(kickoff - timedelta(days=2), 11, 20, me.tz),
                flags=["\\Seen"],
            )
            draft.add_message("INBOX", terms_mail)
            deposit_when, final_when = (
                "their terms; the deadline moves with the dates",
                "their deadline, see the booking terms",
            )
        else:
            deposit_when, final_when = deposit_words, final_words

        # My items, with their deadlines.
        own = list(rng.sample(project.own, 4))
        own_rules = rng.sample(RULES, 4)
        theirs = None  # the namesake's item, in the words of the user's
        if namesake is not None:
            theirs, own = (own[-1], own_rules[-1]), own[:-1]
            own_rules = own_rules[:-1]
        fill = {"vendor": vendor.name, "with": partner.given}
        mine = [
            (project.deposit, "deposit", project.deposit.line.format(when=deposit_when, **fill)),
            (project.final, "final", project.final.line.format(when=final_when, **fill)),
        ]
        mine += [
            (item, rule, item.line.format(when=words.format(name=project.the.removeprefix("the ")), **fill))
            for item, (rule, words) in zip(own, own_rules, strict=True)
        ]
        deadlines = {item.key: self._due(rule, start, meeting, deposit_days, final_days) for item, rule, _ in mine}
        # The user's reminder rules (a note): a supplier's deadline some days early, never on a weekend. The
        # lead is one that takes a supplier's reminder onto a weekend where one can, so the rules combine.
        lead = None
        if ctx.on("hidden_dependency"):
            leads = [2, 3, 4]
            rng.shuffle(leads)
            vendors = [deadlines[k] for k in ("deposit", "final")]
            lead = next((n for n in leads if any((d - timedelta(days=n)).weekday() >= 5 for d in vendors)), leads[0])
        rules = {item.key: rule for item, rule, _ in mine}
        dues = {key: solution.remind_on(rules[key], deadlines[key], lead) for key in deadlines}
        # "By the end of next week" is its Friday (the working week) to most, its Sunday (the calendar
        # week) to some: both read it right, a day in between neither.
        # The weekend rule, when the user has one, takes that Sunday back to the Friday.
        allowed = {
            item.key: [
                dues[item.key] + timedelta(days=n) for n in ((0, 2) if rule == "next_friday" and lead is None else (0,))
            ]
            for item, rule, _ in mine
        }
        # A line of the note may give an item's own deadline beside (or instead of) its reminder's day.
        noted = {key: sorted({*days, deadlines[key]}) for key, days in allowed.items()}
        for item, _, _ in mine:
            title = item.title.format(**fill)
            clashes = [o.key for o, _, _ in mine if re.search(o.pattern, title, re.IGNORECASE)]
            if clashes != [item.key]:
                raise AssertionError(f"{project.key}: the reminder {title!r} matches the patterns of {clashes}")

        decisions = [
            d.format(budget=money(budget, region), time=f"{clock_at:%H:%M}", finance=finance.given)
            for d in project.decisions
        ]
        minutes_path = f"meetings/{meeting.isoformat()} {project.name} planning follow-up.md"
        lines = [
            f"# {project.name.capitalize()} planning – follow-up",
            "",
            f"{short_day(meeting)} {meeting.year} · 16:00–17:00 · Room {rng.choice(('Atlas', 'Juniper', 'Harbour'))}",
            f"Present: {notetaker.name} (notes), {me.name}, {partner.name}, {finance.name} (first 20 min), "
            + ", ".join(o.name for o in others),
            "",
            "## Where we are",
            "",
        ]
        if moved:
            lines.append(
                f"- {project.moved.format(vendor=vendor.name)} {notetaker.given} sent the new calendar invite."
            )
        else:
            lines.append(f"- {vendor.name} confirmed the booking for the dates in the calendar invite.")
        lines += ["", "## Decisions", "", *(f"- {d}" for d in decisions), "", "## Action items", ""]
        others_lines = [o.format(who=who[p.name]) for o, p in zip(project.others, others, strict=False)]
        if theirs is not None and namesake is not None:
            item, (rule, words) = theirs
            when = words.format(name=project.the.removeprefix("the "))
            others_lines.append(f"{who[namesake.name]} – {item.line.format(when=when, **fill)}")
        done_lines = [d.format(who=who[p.name]) for d, p in zip(project.done, [notetaker, me], strict=True)]
        items_md = [f"- [ ] {who[me.name]} – {line}" for _, _, line in mine] + [f"- [ ] {o}" for o in others_lines]
        items_md = rng.sample(items_md, len(items_md)) + [f"- [x] {d}" for d in done_lines]
        lines += items_md
        minutes = "\n".join(lines) + "\n"
        draft.add_file(minutes_path, minutes)
        minutes_file = file_path(minutes_path)

        # The first meeting: its minutes, and the reminders made from them with the old deadlines.
        stale: dict[str, str] = {}
        if moved or ctx.on("noisy_data"):
            first_when = {"deposit": deposit_when, "final": final_when}
            if moved:  # the first meeting still had the old dates
                first_when = {
                    "deposit": f"by {short_day(old_start - timedelta(days=deposit_days))}",
                    "final": f"by {short_day(old_start - timedelta(days=final_days))}",
                }
            old_last = old_start + timedelta(days=project.days - 1)
            first_minutes = (
                "\n".join(
                    [
                        f"# {project.name.capitalize()} planning – kickoff",
                        "",
                        f"{short_day(kickoff)} {kickoff.year} · 16:00–16:45",
                        f"Present: {notetaker.name} (notes), {me.name}, {partner.name}, "
                        + ", ".join(o.name for o in others),
                        "",
                        f"- Venue: {vendor.name}, {place}, {short_day(old_start)} – {short_day(old_last)}.",
                        f"- Budget: {finance.given} to confirm the cap (proposal: {money(budget * 0.9, region)}).",
                        "",
                        "## Action items",
                        "",
                        f"- [ ] {who[me.name]} – {project.deposit.line.format(when=first_when['deposit'], **fill)}",
                        f"- [ ] {who[me.name]} – {project.final.line.format(when=first_when['final'], **fill)}",
                        f"- [ ] {notetaker.given} – send the invite to the whole team",
                    ]
                )
                + "\n"
            )
            kickoff_path = f"meetings/{kickoff.isoformat()} {project.name} planning kickoff.md"
            draft.add_file(kickoff_path, first_minutes)
            if ctx.on("noisy_data"):
                nd.twin(draft, minutes_file, {}, file_path(kickoff_path), {})
        if moved:
            for item in (project.deposit, project.final):
                days = deposit_days if item is project.deposit else final_days
                todo = {
                    "uid": draft.uid("r", item.key),
                    "title": item.title.format(**fill),
                    "due": solution.remind_on(item.key, old_start - timedelta(days=days), lead).isoformat(),
                }
                draft.add_reminder(work, todo)
                stale[item.key] = todo["uid"]
            csc.supersede(
                draft,
                loser=item_path("calendar", work, cancelled),
                winner=item_path("calendar", work, event),
                rule="the follow-up minutes say the event moved; the old invite is cancelled",
                stated=True,
            )
            draft.record(csc.NAME, {"stale": [f"reminders/{work}/{uid}" for uid in stale.values()]})
        if terms_mail is not None:
            hd.move_fact(
                draft,
                fact=f"{vendor.name}'s deadlines: deposit {deposit_words}, {final_words} for the final numbers",
                item=mail_path("INBOX", terms_mail),
                instead_of=minutes_file,
            )

        # Already done: one of the user's items put in the reminders last night, on the right day.
        latent_item = rng.choice([item for item, rule, _ in mine[2:] if rule != "day_before"])
        latent = draft.add_reminder(
            work,
            {
                "uid": draft.uid("r", f"{latent_item.key} set up"),
                "title": latent_item.title.format(**fill),
                "due": dues[latent_item.key].isoformat(),
            },
        )
        rules_note = None
        if lead is not None:
            rules_note = draft.add_note(
                work,
                {
                    "uid": draft.uid("n", "reminder rules"),
                    "title": "How I set my work reminders",
                    "body": RULES_NOTE.format(lead=lead),
                },
            )
            hd.move_fact(
                draft,
                fact=f"the user's reminder rules: {lead} days before a supplier's deadline, off weekends to the "
                "Friday before, except the day before the event",
                item=item_path("notes", work, rules_note),
                instead_of=minutes_file,
            )
        for title, body in HOME_NOTES:  # the folder a work summary does not go in
            draft.add_note("Home", {"uid": draft.uid("n", title), "title": title, "body": body})

        # The rest of the user's life, clear of the story: no look-alike item, vendor, event or meeting.
        draft.add_reminder(
            work,
            {
                "uid": draft.uid("r", "expenses"),
                "title": "Submit last month's expenses",
                "due": workday(now.date(), 3).isoformat(),
            },
        )
        Background(draft, rng, people, me, now, "en").contacts([partner, finance, contact])
        event_days = [start + timedelta(days=n) for n in range(project.days + 1)]
        event_days += [old_start + timedelta(days=n) for n in range(project.days + 1)]
        avoid = Avoid(
            people=[p.name for p in [*team, contact]],
            words=[vendor_name, place, project.name, event_name.split(" – ")[0], "prep", *STORY_WORDS],
            days=[kickoff, meeting, *event_days, *(d for ds in noted.values() for d in ds)],
            slots=[(at(d, 15, 0, me.tz), at(d, 18, 0, me.tz)) for d in (kickoff, meeting)],
            addresses=[contact.email],
            paths=[minutes_path.rsplit("/", 1)[0]],
        )
        life = Life.of(ctx, draft, me, now, avoid=avoid, months=6)
        background = life.fill(SCALE)
        arrival_order(draft)
        if ctx.on("noisy_data"):
            nd.irrelevant(draft, background[:: max(1, len(background) // 40)])
            draft.record(nd.NAME, {"other_peoples_items": others_lines, "done_items": done_lines})
            if namesake is not None:
                draft.record(nd.NAME, {"namesake": f"{namesake.name}, {who[namesake.name]} in the minutes"})

        # The request and the checks.
        prompt = rng.choice(PROMPTS).format(name=project.name)
        if ctx.on("cross_tool_consistency"):
            prompt += CTC_PROMPT
        if lead is not None:
            prompt += RULES_PROMPT
        draft.prompt = prompt
        draft.summary = f"{len(mine)} action items of {me.given} from the {project.name} follow-up, and a note"
        draft.hint = (
            f"Meeting notes give action items with relative deadlines; the {project.name} is in the calendar"
            + (", next to a cancelled invite for the old dates; stale reminders must be moved" if moved else "")
            + ("; the vendor's deadline rules are in their booking mail" if terms_mail else "")
            + "; write a note with the decisions."
        )
        patterns = {}
        for item, rule, _line in mine:
            title = item.title.format(**fill)
            due = dues[item.key]
            patterns[item.key] = item.pattern
            how = {
                "deposit": f"{deposit_days} days before {project.arrival}",
                "final": f"{final_days} days before {project.arrival}",
            }.get(rule) or dict(RULES)[rule].format(name=project.the.removeprefix("the "))
            if dues[item.key] != deadlines[item.key]:
                how += f", deadline {deadlines[item.key].isoformat()}, by the user's rules"
            if item is latent_item:
                how += ", already set up: left as it is"
            draft.check(
                Check(
                    f"{item.key}_reminder",
                    f"Exactly one open Work reminder to {title[0].lower()}{title[1:]}, due {due.isoformat()} ({how}"
                    + (", or that Sunday" if len(allowed[item.key]) > 1 else "")
                    + ")",
                    v.one_reminder,
                    {
                        "pattern": item.pattern,
                        "lst": work,
                        "due": due.isoformat()
                        if len(allowed[item.key]) == 1
                        else [d.isoformat() for d in allowed[item.key]],
                        "label": item.key,
                        "stale": latent["uid"] if item is latent_item else stale.get(item.key),
                    },
                    weight=2 if rule in ("deposit", "final") else 1,
                    critical=rule in ("deposit", "final"),
                    stage="resolving the deadline"
                    + (" from the vendor's terms" if rule in ("deposit", "final") else ""),
                )
            )
        draft.check(
            Check(
                "only_my_items",
                "No reminders for other people's or finished items; no stale duplicates",
                v.only_reminders,
                {"patterns": patterns},
                critical=False,
                stage="filtering the action items",
            )
        )
        if theirs is not None and namesake is not None:
            item = theirs[0]
            draft.check(
                Check(
                    "not_the_namesakes_item",
                    f"No reminder to {item.title.format(**fill).lower()}: that item is {namesake.name}'s "
                    f"({who[namesake.name]} in the minutes), not the user's",
                    v.no_new_items,
                    {"app": "reminders", "pattern": item.pattern, "label": f"{namesake.name}'s item"},
                    stage="filtering the action items",
                )
            )
        if prep is not None:
            draft.check(
                Check(
                    "prep_block",
                    f"The prep block '{prep['summary']}' moved with the {project.name}: one such event, in {work}, "
                    f"{moved_prep[0].isoformat()} to {moved_prep[1].isoformat()} (the user's rule 5)",
                    v.the_event,
                    {
                        "calendar": work,
                        "pattern": r"\bprep",
                        "start": moved_prep[0].isoformat(),
                        "end": moved_prep[1].isoformat(),
                        "label": "the prep block",
                    },
                    stage="consequences of the move",
                )
            )
        note_patterns = {"the budget": amount_regex(budget), "the time": time_regex(clock_at)}
        for template, decision in zip(project.decisions, decisions, strict=True):
            figures = figures_regex(template)
            if figures is not None:
                note_patterns[decision.rstrip(".")] = figures
        described = (
            f"One new note (in Notes or Work) records the decisions with their figures, among them the budget of "
            f"{money(budget, region)} and the {clock_at:%H:%M} start; every date it gives is right (an action item's "
            "line gives that item's due date)"
        )
        # The days a correct note may name: the meeting, the event's days, the new due dates.
        note_dates = {meeting, *(start + timedelta(days=n) for n in range(project.days + 1))}
        note_dates |= {d for days in noted.values() for d in days}
        # How a rule got there may be shown ("deadline Mon 2 Nov; 2 days before = Sat 31 Oct, so the Friday"):
        # the days from a reminder to its deadline, and the namesake's item, which the minutes give too.
        note_dates |= {dues[k] + timedelta(days=n) for k in dues for n in range((deadlines[k] - dues[k]).days + 1)}
        if theirs is not None:
            note_dates.add(self._due(theirs[1][0], start, meeting, deposit_days, final_days))
        if prep is not None:  # where the user's prep block moved with the event (rule 5)
            note_dates.add(moved_prep[0].date())
        if ctx.on("cross_tool_consistency"):
            note_patterns |= {
                # the item's own line gives its date: another item's date there is wrong
                f"{item.key} due {dues[item.key].isoformat()}": rf"(?im)^(?=[^\n]*(?:{item.pattern}))[^\n]*(?:"
                + "|".join(date_regex(d) for d in noted[item.key])
                + ")"
                for item, _, _ in mine
            }
            described += ", and lists the action items with their due dates"
        draft.check(
            Check(
                "summary_note",
                described,
                v.new_note,
                {
                    "folder": ["Notes", "Work"],  # the request names none: the default one, or the work one
                    "patterns": note_patterns,
                    "stated": {
                        "dates": sorted(d.isoformat() for d in note_dates),
                        # an item's line that gives a date gives that item's: not another item's, not a day off
                        "dated": {
                            item.key: {"pattern": item.pattern, "dates": [d.isoformat() for d in noted[item.key]]}
                            for item, _, _ in mine
                        },
                    },
                },
                weight=2,
                stage="summarising the meeting",
            )
        )
        if ctx.on("cross_tool_consistency"):
            ctc.agree(
                draft,
                apps=["reminders", "notes"],
                rule="the note gives the same due dates as the reminders",
                items=[*(f"{item.key}_reminder" for item, _, _ in mine), "summary_note"],
            )
        draft.judges.append(
            Judge(
                "note_useful",
                "The note is a clear, correct summary",
                f"The new note is a concise, correct summary of the {project.name} decisions ({'; '.join(decisions)}) "
                "with no stale facts such as the old dates.",
                stage="summarising the meeting",
            )
        )
        allow = [f"+reminders/{work}/*", "+notes/Notes/*", f"+notes/{work}/*"]
        for uid in stale.values():
            allow += [f"~reminders/{work}/{uid}#{f}" for f in ("due", "title", "notes", "priority")]
            allow.append(f"-reminders/{work}/{uid}")
        allow.append(f"-reminders/{work}/{latent['uid']}")  # replaced by an equal one: harmless
        if prep is not None:  # moved, or replaced by a new block
            allow += [f"~calendar/{work}/{prep['uid']}", f"-calendar/{work}/{prep['uid']}", f"+calendar/{work}/*"]
        tsu.require(draft, ["a dated reminder per action item", "a summary note"], *allow)
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"Yesterday's meeting is `{minutes_path}`. The {project.name} is `{event['uid']}`, starting "
                f"{start.isoformat()}"
                + (f" (moved from {old_start.isoformat()}; the old invite is cancelled)" if moved else "")
                + f". {vendor.name}'s terms: deposit {deposit_words}, final numbers {final_words}"
                + (" (only in their booking mail)." if terms_mail else "."),
                "",
                f"{me.given}'s open action items and their due dates:",
                "",
                *(
                    f"- {item.title.format(**fill)}: **{dues[item.key].isoformat()}**"
                    + (f" (deadline {deadlines[item.key].isoformat()})" * (dues[item.key] != deadlines[item.key]))
                    + (f" (update the stale reminder `{stale[item.key]}`)" if item.key in stale else "")
                    + (f" (already set up as `{latent['uid']}`: leave it)" if item is latent_item else "")
                    for item, _, _ in mine
                ),
                "",
                *(
                    [
                        f"The user's rules (note `{rules_note['uid']}`): a supplier's deadline {lead} days early, then "
                        "a weekend day to the Friday before, except the day before the event.",
                        "",
                        *(
                            [
                                f"The prep block `{prep['uid']}` moves with the event (rule 5): "
                                f"{moved_prep[0].isoformat()} to {moved_prep[1].isoformat()}.",
                                "",
                            ]
                            if prep
                            else []
                        ),
                    ]
                    if rules_note
                    else []
                ),
                *(
                    [
                        f"{theirs[0].title.format(**fill)} is {namesake.name}'s ({who[namesake.name]}), not the "
                        f"user's ({who[me.name]}): no reminder for it.",
                        "",
                    ]
                    if theirs and namesake
                    else []
                ),
                "Exactly one open Work reminder per item; stale ones are moved (or replaced), never ticked off. No "
                "reminders for other people's or finished items.",
                "",
                f"One new note (in Notes or Work) with the decisions: {'; '.join(decisions)}"
                + (" It also lists the items with their due dates." if ctx.on("cross_tool_consistency") else ""),
                "",
                "Nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        note_lines = [
            f"{project.name.capitalize()} – decisions ({short_day(meeting)})",
            "",
            *(f"- {d}" for d in decisions),
        ]
        if ctx.on("cross_tool_consistency"):
            note_lines += [
                "",
                "My action items:",
                *(f"- {item.title.format(**fill)}: {{{item.key}}}" for item, _, _ in mine),
            ]
        draft.facts = {
            "minutes": minutes_path,
            "lines": [" ".join(line.split()) for _, _, line in mine],
            "event": event_name.split(" – ")[0],
            "window": [now.date().isoformat(), (start + timedelta(days=30)).isoformat()],
            "terms_subject": terms_mail["subject"] if terms_mail else "",
            "rules": {"deposit": r"[Dd]eposit[^.]*?(\d+) days before", "final": r"[Ff]inal[^.]*?(\d+) days before"},
            "meeting": meeting.isoformat(),
            "items": [
                {"key": item.key, "rule": rule, "title": item.title.format(**fill), "pattern": item.pattern}
                for item, rule, _ in mine
            ],
            "list": work,
            "note_title": f"{project.name.capitalize()} – decisions and my to-dos",
            "note": "\n".join(note_lines) + "\n",
            "folder": "Notes",
            "rules_note": rules_note["title"] if rules_note else "",
            "prep": prep["summary"] if prep else "",
            "decisions": decisions,
            "name": project.name,
        }
        draft.alternatives = {"weekend": solution.solve_weekend, "read_all": solution.solve_read_all}
        return draft

    @staticmethod
    def _due(rule: str, start: date, meeting: date, deposit: int, final: int) -> date:
        return solution._due(rule, start, meeting, {"deposit": deposit, "final": final})
