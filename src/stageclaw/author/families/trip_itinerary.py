"""trip-itinerary (scheduling): the booked flights into the calendar at their real times.

The airline's confirmation gives each flight's departure and arrival in the local time of its
airport. The agent adds one event per flight to the Travel calendar, from departure to arrival
(two time zones per event) and, with cross_tool_consistency, a check-in reminder 24 hours before
each departure.

- hidden_dependency: the confirmation mail shows only the outbound flight; the return flight is
  in the itinerary (.ics) the user downloaded.
- cross_source_conflict: a later schedule-change mail moves the outbound flight; the downloaded
  itinerary still has the old times.
- noisy_data: last trip's flights in the calendar, an older booking and the airline's sale mail.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import ics
from stageclaw.author.content.places import ENGLISH, REGIONS
from stageclaw.author.content.text import clock, day
from stageclaw.author.content.timeline import at, local, pick_now
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import file_path, item_path, mail_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import trip_itinerary as solution

# city -> (airport, IATA code, latitude, longitude); the zone is the city's
AIRPORTS = {
    "London": ("London Heathrow", "LHR", 51.47, -0.45),
    "Manchester": ("Manchester", "MAN", 53.35, -2.27),
    "Edinburgh": ("Edinburgh", "EDI", 55.95, -3.37),
    "Berlin": ("Berlin Brandenburg", "BER", 52.37, 13.5),
    "Hamburg": ("Hamburg", "HAM", 53.63, 9.99),
    "München": ("Munich", "MUC", 48.35, 11.79),
    "Chicago": ("Chicago O'Hare", "ORD", 41.98, -87.9),
    "New York": ("New York JFK", "JFK", 40.64, -73.78),
    "Seattle": ("Seattle-Tacoma", "SEA", 47.45, -122.31),
    "Denver": ("Denver", "DEN", 39.86, -104.67),
    "Ciudad de México": ("Mexico City", "MEX", 19.44, -99.07),
    "Guadalajara": ("Guadalajara", "GDL", 20.52, -103.31),
    "Bengaluru": ("Bengaluru", "BLR", 13.2, 77.71),
    "Pune": ("Pune", "PNQ", 18.58, 73.92),
    "Melbourne": ("Melbourne", "MEL", -37.67, 144.84),
    "Sydney": ("Sydney", "SYD", -33.94, 151.18),
    "Brisbane": ("Brisbane", "BNE", -27.38, 153.12),
    "São Paulo": ("São Paulo Guarulhos", "GRU", -23.43, -46.47),
    "Lagos": ("Lagos", "LOS", 6.58, 3.32),
    "Stockholm": ("Stockholm Arlanda", "ARN", 59.65, 17.92),
    "Paris": ("Paris Charles de Gaulle", "CDG", 49.01, 2.55),
    "Lyon": ("Lyon", "LYS", 45.73, 5.08),
    "Singapore": ("Singapore Changi", "SIN", 1.36, 103.99),
    "Tokyo": ("Tokyo Haneda", "HND", 35.55, 139.78),
}
AIRLINES = (("Skylark Airways", "SQ"), ("Northwind Air", "NQ"), ("Meridian Airlines", "MD"), ("Bluefin Air", "BQ"))
PROMPTS = (
    "I've booked my flights for the {city} trip. Can you put them in my Travel calendar? One event per flight, "
    "from departure to arrival at the real times, with the flight number in the title.",
    "Please add my {city} flights to the Travel calendar: each flight as its own event from take-off to landing, "
    "flight number in the title. Careful with the time zones.",
)
REMIND = " Also remind me to check in online 24 hours before each flight."


@dataclass
class Flight:
    number: str
    origin: str  # city
    to: str
    departs: datetime  # aware, in the origin's zone
    arrives: datetime  # aware, in the destination's zone

    def line(self) -> str:
        a, b = AIRPORTS[self.origin], AIRPORTS[self.to]
        return f"{self.number} · {a[0]} ({a[1]}) {clock(self.departs)} → {b[0]} ({b[1]}) {clock(self.arrives)}" + (
            " (+1 day)" if self.arrives.date() > self.departs.date() else ""
        )


def _hours(a: str, b: str) -> float:
    """Flying time between two airports: great-circle distance at 800 km/h, plus taxi and climb."""
    (_, _, la1, lo1), (_, _, la2, lo2) = AIRPORTS[a], AIRPORTS[b]
    p1, p2, dl = math.radians(la1), math.radians(la2), math.radians(lo2 - lo1)
    km = 6371 * math.acos(min(1.0, math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)))
    return km / 800 + 0.5


def _flight(number: str, origin: str, to: str, when: datetime, tz_from: str, tz_to: str) -> Flight:
    departs = when.replace(tzinfo=ZoneInfo(tz_from))
    minutes = round(_hours(origin, to) * 60 / 5) * 5
    return Flight(number, origin, to, departs, local(departs + timedelta(minutes=minutes), tz_to))


@register
class TripItinerary(Family):
    name = "trip-itinerary"
    group = "scheduling"
    apps = ("mail", "files", "calendar", "reminders")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    # The check-in reminders are core: they make each flight's instant matter in a second app.
    core = ("cross_tool_consistency", "tool_state_update")
    summary = "booked flights into the calendar from departure to arrival across time zones, with check-in reminders"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people = ctx.rng, ctx.people
        region = REGIONS[rng.choice(ENGLISH)]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        home = me.city
        away_region = REGIONS[rng.choice([k for k in ENGLISH if k != region.key])]
        away = rng.choice(away_region.cities)
        airline, code = rng.choice(AIRLINES)
        domain = f"{re.sub(r'[^a-z]', '', airline.lower())}.com"
        booking = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        number = rng.randint(100, 1800)
        out_day = now.date() + timedelta(days=rng.randint(6, 20))
        back_day = out_day + timedelta(days=rng.randint(3, 8))
        out_time = at(out_day, rng.randint(6, 19), rng.choice((5, 15, 25, 40, 50)), home.tz).replace(tzinfo=None)
        back_time = at(back_day, rng.randint(7, 20), rng.choice((0, 10, 35, 45, 55)), away.tz).replace(tzinfo=None)
        outbound = _flight(f"{code} {number}", home.name, away.name, out_time, home.tz, away.tz)
        inbound = _flight(f"{code} {number + 1}", away.name, home.name, back_time, away.tz, home.tz)
        changed = None
        if ctx.on("cross_source_conflict"):
            shift = timedelta(minutes=rng.choice((-50, -35, 40, 45, 70, 95)))
            changed = Flight(
                outbound.number, outbound.origin, outbound.to, outbound.departs + shift, outbound.arrives + shift
            )
        draft = TaskDraft(
            id="",
            title=f"Put the flights to {away.name} in the Travel calendar at their real times",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
        )

        # The confirmation, and what was downloaded.
        hidden = ctx.on("hidden_dependency")
        booked = now - timedelta(days=rng.randint(3, 12), hours=rng.randint(1, 9))
        lines = [f"Outbound · {day(outbound.departs.date(), 'en', region)}", outbound.line()]
        if not hidden:
            lines += ["", f"Return · {day(inbound.departs.date(), 'en', region)}", inbound.line()]
        body = (
            f"Dear {me.name},\n\nthank you for flying with {airline}. Your booking {booking} is confirmed.\n\n"
            + "\n".join(lines)
            + "\n\nAll times are local at each airport. Online check-in opens 24 hours before departure."
            + (
                "\n\n"
                + mails.wrap(
                    "Your full itinerary with the return flight is under Manage my booking, where "
                    "you can download it as a calendar file."
                )
                if hidden
                else ""
            )
            + f"\n\nHave a good trip,\n{airline}"
        )
        confirmation = mails.mail(
            rng,
            f"{airline} <bookings@{domain}>",
            [me],
            f"Booking confirmed: {booking}",
            body,
            local(booked, me.tz),
            flags=["\\Seen"],
        )
        draft.add_message("INBOX", confirmation)
        itinerary = f"Downloads/itinerary-{booking}.ics"
        stamp = booked.astimezone(ZoneInfo("UTC"))
        draft.add_file(
            itinerary,
            ics(
                [
                    {
                        "uid": f"{booking}-{n}@{domain}",
                        "stamp": stamp,
                        "tz": home.tz if f is outbound else away.tz,
                        "start": f.departs.replace(tzinfo=None),
                        "end": local(f.arrives, home.tz if f is outbound else away.tz).replace(tzinfo=None),
                        "summary": f"Flight {f.number} {f.origin} - {f.to}",
                        "location": AIRPORTS[f.origin][0],
                        "description": f"Booking {booking}. Arrival {clock(f.arrives)} local time at {f.to}.",
                    }
                    for n, f in enumerate((outbound, inbound), 1)
                ],
                prodid=f"-//{airline}//Itinerary//EN",
            ),
        )
        if hidden:
            hd.move_fact(
                draft,
                fact=f"the return flight {inbound.number}",
                item=file_path(itinerary),
                instead_of=mail_path("INBOX", confirmation),
            )
        final = [changed or outbound, inbound]
        if changed is not None:
            change = mails.mail(
                rng,
                f"{airline} <bookings@{domain}>",
                [me],
                f"Schedule change: booking {booking}",
                f"Dear {me.name},\n\n"
                + mails.wrap(
                    f"the schedule of your flight {outbound.number} on {day(outbound.departs.date(), 'en', region)} "
                    f"has changed. It now departs at {clock(changed.departs)} (was {clock(outbound.departs)}) and "
                    f"arrives at {clock(changed.arrives)} (was {clock(outbound.arrives)}), local times. Your seat "
                    "stays the same; nothing else changes in your booking."
                )
                + f"\n\nWe apologise for any inconvenience.\n"
                f"{airline}",
                local(now - timedelta(hours=rng.randint(5, 40)), me.tz),
            )
            draft.add_message("INBOX", change)
            csc.supersede(
                draft,
                loser=file_path(itinerary),
                winner=mail_path("INBOX", change),
                rule=f"the schedule change moves {outbound.number}; the itinerary file predates it",
                stated=True,
            )

        # The rest of the user's travel and life.
        bg = Background(draft, rng, people, me, now, "en")
        noise = bg.mail(2)
        bg.events(2, "Personal")
        draft.calendar.setdefault("Travel", [])
        if ctx.on("noisy_data"):
            past = at(now.date() - timedelta(days=rng.randint(60, 160)), 9, 20, home.tz)
            other = rng.choice([c for k in ENGLISH for c in REGIONS[k].cities if c.name not in (home.name, away.name)])
            old = _flight(f"{code} {number + 64}", home.name, other.name, past.replace(tzinfo=None), home.tz, other.tz)
            previous = {
                "uid": draft.uid("evt", f"flight {old.number}"),
                "summary": f"Flight {old.number} {old.origin} → {old.to}",
                "start": old.departs.isoformat(),
                "end": local(old.arrives, home.tz).isoformat(),
                "location": AIRPORTS[old.origin][0],
            }
            draft.add_event("Travel", previous)
            sale = mails.mail(
                rng,
                f"{airline} <offers@{domain}>",
                [me],
                f"Fly to {away.name} from {region.symbol}99",
                f"Hi {me.first},\n\n"
                + mails.wrap(f"our spring sale is on: fly to {away.name} and 40 more cities for less. Book by Sunday.")
                + f"\n\n{airline}\n\nUnsubscribe",
                local(now - timedelta(days=2), me.tz),
            )
            draft.add_message("INBOX", sale)
            nd.irrelevant(draft, [item_path("calendar", "Travel", previous), mail_path("INBOX", sale), *noise])
            old_ref = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
            older = mails.mail(
                rng,
                f"{airline} <bookings@{domain}>",
                [me],
                f"Booking confirmed: {old_ref}",
                f"Dear {me.name},\n\nthank you for flying with {airline}. Your booking {old_ref} is "
                f"confirmed.\n\nOutbound · {day(old.departs.date(), 'en', region)}\n{old.line()}\n\n"
                f"All times are local at each airport.\n\nHave a good trip,\n{airline}",
                local(past - timedelta(days=30), me.tz),
                flags=["\\Seen"],
            )
            draft.add_message("INBOX", older)
            nd.twin(draft, mail_path("INBOX", confirmation), confirmation, mail_path("INBOX", older), older)

        # The request and the checks.
        draft.prompt = rng.choice(PROMPTS).format(city=away.name) + REMIND
        draft.summary = f"{final[0].number} and {inbound.number} between {home.name} and {away.name}"
        draft.hint = (
            "An airline confirmation gives flight times in each airport's local time; add each flight as an event "
            "from departure to arrival"
            + ("; the return flight is only in the downloaded itinerary" if hidden else "")
            + ("; a schedule change moved the outbound flight" if changed else "")
            + "."
        )
        events = [
            {
                "pattern": re.escape(f.number).replace("\\ ", "\\s?"),
                "start": local(f.departs, me.tz).isoformat(),
                "end": local(f.arrives, me.tz).isoformat(),
            }
            for f in final
        ]
        for f, key, event in zip(final, ("outbound", "return"), events, strict=True):
            draft.check(
                Check(
                    f"{key}_flight",
                    f"One new event in Travel for the {key} flight ({f.number} in the title), from departure to "
                    "arrival at the real instants (local airport times converted)",
                    v.event_created,
                    {"calendar": "Travel", **event, "label": f"the {key} flight"},
                    weight=2,
                    stage="time zone conversion",
                )
            )
        draft.check(
            Check(
                "only_flights",
                "Nothing else is added to the calendars: two flight events, no copies",
                v.created_count,
                {"app": "calendar", "count": 2},
                stage="time zone conversion",
            )
        )
        for f, key, event in zip(final, ("outbound", "return"), events, strict=True):
            due = local(f.departs - timedelta(hours=24), me.tz)
            draft.check(
                Check(
                    f"{key}_check_in",
                    f"One new open reminder to check in for the {key} flight, due 24 hours before it departs",
                    v.one_reminder,
                    {
                        "pattern": event["pattern"],
                        "lst": "Reminders",
                        "due": due.isoformat(),
                        "label": f"{key} check-in",
                    },
                    weight=2 if key == "outbound" else 1,
                    stage="deriving the reminder from the flight",
                )
            )
        ctc.agree(
            draft,
            apps=["calendar", "reminders"],
            rule="each check-in reminder is 24 hours before its flight's departure",
            items=["outbound_flight", "return_flight", "outbound_check_in", "return_check_in"],
        )
        draft.reminders.setdefault("Reminders", [])
        bg.reminders(2, "Reminders", avoid="check")
        allow = ["+calendar/Travel/*", "+reminders/Reminders/*"]
        writes = ["an event per flight", "a check-in reminder per flight"]
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"Booking {booking} with {airline} (local times at each airport):",
                "",
                *(
                    f"- {f.line()}: {f.departs.isoformat()} to {f.arrives.isoformat()} = "
                    f"{local(f.departs, me.tz).isoformat()} to {local(f.arrives, me.tz).isoformat()} in {me.tz}"
                    for f in final
                ),
                "",
                ("The return flight is only in `" + itinerary + "`. " if hidden else "")
                + (
                    f"The schedule change mail moves {outbound.number} from {clock(outbound.departs)}; the itinerary "
                    "file still has the old time. "
                    if changed
                    else ""
                )
                + "The end state: exactly these two new events in the Travel calendar"
                + " and one open check-in reminder 24 hours before each departure. Nothing else changes.",
            ]
        )
        draft.alternatives = {"utc": solution.solve_utc, "read_all": solution.solve_read_all}
        draft.solution = solution.solve
        draft.facts = {
            "airline_domain": f"bookings@{domain}",
            "booking": booking,
            "itinerary": itinerary if hidden else "",
            "flights": [
                {
                    "number": f.number,
                    "title": f"Flight {f.number} {f.origin} → {f.to}",
                    "airport": AIRPORTS[f.origin][0],
                    "shown": [clock(f.departs), clock(f.arrives)]
                    if f is not inbound or not hidden
                    else [f"{f.departs:%Y%m%dT%H%M%S}"],
                    "departs": [f.departs.year, f.departs.month, f.departs.day, f.departs.hour, f.departs.minute],
                    "from_zone": str(f.departs.tzinfo),
                    "arrives": [f.arrives.year, f.arrives.month, f.arrives.day, f.arrives.hour, f.arrives.minute],
                    "to_zone": str(f.arrives.tzinfo),
                }
                for f in final
            ],
            "calendar": "Travel",
        }
        return draft
