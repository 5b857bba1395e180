"""A believable life at scale around a task's planted story: months of mail, a year of calendar,
a full address book, folders of files, notes and reminder lists.

A family plants its story, then calls `Life(...).fill(Scale(...))` (or the per-app methods) to
surround it with hundreds of ordinary items, so that reading everything is no longer an option. Every
item is drawn from the family's random stream (same seed, same world) and follows the rules of real
life that `validate`'s realism lint checks:

- events happen at times that fit their kind (a parents' evening at 18:00, a stand-up at 09:30), and
  work happens on the region's business days (its public holidays are EXDATEs of work series);
- money has the currency's minor units and local magnitudes (`money`);
- a mail is dated to fit what it describes: an invitation before the meeting, a shipping notice after
  the order, a cancellation before the cancelled occurrence; nothing is dated after `now`;
- every mail has one greeting and one sign-off above any quoted history;
- no vendor or organisation is named after the user; an organisation keeps one address;
- no two "same" documents disagree: a month's statement, bill and invoice are one ledger entry, shown
  the same in the mail and in the file.

`Avoid` keeps the surroundings clear of the story: no person, word, day, time slot, amount, address
or path it names, so that any look-alike or conflict in the world is one the family planted (and
recorded as evidence). Every method returns the diff paths of what it added (`noisy_data`'s
`irrelevant` evidence takes them).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.author.content import holidays, life_en, life_zh, money
from stageclaw.author.content import mail as mails
from stageclaw.author.content.people import JOB_TITLES, JOB_TITLES_ZH, Org, People, Person, slug
from stageclaw.author.content.text import MONTHS, clock, day
from stageclaw.author.draft import TaskDraft

WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def payments(total: Decimal) -> int:
    """How many card payments a month's statement total is made of: a function of the total, so the
    statement mail and the statement file say the same."""
    return 18 + int(total) % 47


@dataclass
class Avoid:
    """What the story owns. Background items never name these people (full, given or family names),
    contain these words, fall on these days or overlap these time slots, show these amounts, use
    these addresses, or take these file paths (or paths below them)."""

    people: Iterable[str] = ()
    words: Iterable[str] = ()
    days: Iterable[date] = ()
    slots: Iterable[tuple[datetime, datetime]] = ()
    amounts: Iterable[Decimal | float | str] = ()
    addresses: Iterable[str] = ()
    paths: Iterable[str] = ()

    def __post_init__(self) -> None:
        self._names = {n.casefold() for name in self.people for n in [name, *name.split()] if n.strip()}
        self._words = [w.casefold() for w in self.words if w.strip()]
        self._days = set(self.days)
        self._slots = [(a, b) for a, b in self.slots]
        self._amounts = {Decimal(str(a)) for a in self.amounts}
        self._addresses = {a.casefold() for a in self.addresses}
        self._paths = [p.rstrip("/") for p in self.paths]

    def person(self, person: Person) -> bool:
        names = {person.name, person.given, person.family, person.first, person.display}
        return not ({n.casefold() for n in names} & self._names) and person.email.casefold() not in self._addresses

    def text(self, *texts: str) -> bool:
        return not any(w in t.casefold() for t in texts for w in self._words)

    def day(self, value: date) -> bool:
        return value not in self._days

    def slot(self, start: datetime, end: datetime) -> bool:
        return not any(start < b and a < end for a, b in self._slots)

    def amount(self, value: Decimal) -> bool:
        return value not in self._amounts

    def address(self, value: str) -> bool:
        return value.casefold() not in self._addresses

    def path(self, value: str) -> bool:
        return not any(value == p or value.startswith(p + "/") for p in self._paths)


@dataclass(frozen=True)
class Scale:
    """How much of each app; `busy()` is a full, ordinary account."""

    messages: int = 250
    series: int = 8
    events: int = 140
    contacts: int = 110
    files: int = 110
    notes: int = 30
    reminders: int = 30

    @classmethod
    def busy(cls) -> Scale:
        return cls()

    @classmethod
    def of(cls, objects: int) -> Scale:
        """About `objects` items: 40% mail, 40% calendar, 10% contacts, 10% files (the 5,000-object
        benchmark world is 2,000 + 2,000 + 500 + 500)."""
        events = int(objects * 0.4)
        series = max(4, min(20, events // 80))  # a real calendar has a dozen or two series, not hundreds
        return cls(
            messages=int(objects * 0.4),
            series=series,
            events=events - series,
            contacts=int(objects * 0.1),
            files=objects - int(objects * 0.4) - events - int(objects * 0.1),
            notes=0,
            reminders=0,
        )


@dataclass
class _Cast:
    colleagues: list[Person] = field(default_factory=list)
    clients: list[Person] = field(default_factory=list)
    friends: list[Person] = field(default_factory=list)
    family: list[Person] = field(default_factory=list)
    acquaintances: list[Person] = field(default_factory=list)
    birthdays: dict[str, date] = field(default_factory=dict)  # email -> birthday

    def everyone(self) -> list[Person]:
        return [*self.colleagues, *self.clients, *self.friends, *self.family, *self.acquaintances]


class Life:
    """The ordinary life of `user` (a `People` person of the draft's world) up to `now`.

    Mail spans the `months` before `now`; the calendar spans them and the months after. Work
    happens where the user works (`user.org`, or a company made for them).
    """

    def __init__(
        self,
        draft: TaskDraft,
        rng: random.Random,
        people: People,
        user: Person,
        now: datetime,
        locale: str = "en",
        *,
        avoid: Avoid | None = None,
        months: int = 6,
        calendars: tuple[str, str] = ("Work", "Personal"),
        mail_folders: tuple[str, str, str] = ("INBOX", "Archive", "Sent"),
    ) -> None:
        self.draft, self.rng, self.people, self.user, self.locale = draft, rng, people, user, locale
        self.zh = locale == "zh"
        self.t: Any = life_zh if self.zh else life_en
        self.avoid = avoid or Avoid()
        self.tz = ZoneInfo(user.tz)
        self.now = now.astimezone(self.tz)
        self.start = self.now - timedelta(days=30 * months)
        self.region = user.region
        self.business = holidays.calendar(self.region.key)
        self.calendars = {"work": calendars[0], "personal": calendars[1]}
        self.inbox, self.archive, self.sent = mail_folders
        self.org = user.org or self._company()
        self.cast = _Cast()
        self.ledger: dict[tuple[str, str], Decimal] = {}  # (vendor, YYYY-MM) -> the month's amount
        self.vendors = self._vendors()
        self.events: list[dict[str, Any]] = []  # every event added (with its calendar), for the mail and files
        self.purchases: list[dict[str, Any]] = []  # orders and receipts the mail announced, for the files
        self._busy: dict[date, list[tuple[datetime, datetime]]] = {}  # the user's time taken, by day
        self._subjects: set[str] = set()
        self._ids: set[str] = set()

    @classmethod
    def of(cls, ctx: Any, draft: TaskDraft, user: Person, now: datetime, **options: Any) -> Life:
        """The life of `user` in a family's build: its random stream, people and locale (`ctx`, a
        `family.Context`)."""
        return cls(draft, ctx.rng, ctx.people, user, now, ctx.locale, **options)

    # -- people -----------------------------------------------------------------------------

    def _company(self) -> Org:
        for _ in range(50):
            org = self.people.company(self.region)
            if self._org_ok(org.name):
                return org
        raise ValueError("no company name free of the story's words")

    def _org_ok(self, name: str) -> bool:
        own = {self.user.given.casefold(), self.user.family.casefold(), self.user.first.casefold()}
        return self.avoid.text(name) and not any(part.casefold() in own for part in re.split(r"[\s&,]+", name))

    def person(self, **kwargs: Any) -> Person:
        """Someone new in the user's region whom the story does not name."""
        for _ in range(60):
            found = self.people.person(self.region, **kwargs)
            if self.avoid.person(found) and found.family != self.user.family:
                return found
        raise ValueError("could not make a person the story does not name; Avoid.people may hold too many")

    def _titles(self) -> tuple[str, ...]:
        return JOB_TITLES_ZH if self.zh else JOB_TITLES

    def ensure_cast(self, colleagues: int = 12, clients: int = 6, friends: int = 10, family: int = 4) -> _Cast:
        """The people the rest is about: made once, on first use."""
        c = self.cast
        if c.colleagues:
            return c
        rng = self.rng
        c.colleagues = [self.person(org=self.org, title=rng.choice(self._titles())) for _ in range(colleagues)]
        partners = [self._company() for _ in range(max(1, clients // 2))]
        c.clients = [self.person(org=rng.choice(partners), title=rng.choice(self._titles())) for _ in range(clients)]
        c.friends = [self.person() for _ in range(friends)]
        c.family = [self.person() for _ in range(family)]
        for person in [*c.friends, *c.family]:
            c.birthdays[person.email] = date(rng.randint(1950 if person in c.family else 1975, 2000), 1, 1) + timedelta(
                days=rng.randint(0, 364)
            )
        return c

    # -- time ----------------------------------------------------------------------------------

    def _at(self, on: date, hour: int, minute: int = 0) -> datetime:
        return datetime.combine(on, time(hour, minute), self.tz)

    def is_workday(self, on: date) -> bool:
        if on.year in holidays.YEARS:
            return self.business.is_business_day(on)
        return on.weekday() < 5

    def _day_between(self, first: date, last: date, weekdays: str, work: bool) -> date | None:
        for _ in range(60):
            on = first + timedelta(days=self.rng.randint(0, max(0, (last - first).days)))
            if str(on.weekday()) not in weekdays or not self.avoid.day(on):
                continue
            if work and not self.is_workday(on):
                continue
            return on
        return None

    def _free(self, start: datetime, end: datetime) -> bool:
        taken = self._busy.get(start.date(), [])
        return self.avoid.slot(start, end) and not any(start < b and a < end for a, b in taken)

    def take(self, start: datetime, end: datetime) -> None:
        """Mark the user's time as taken, so no later background event double-books it."""
        self._busy.setdefault(start.date(), []).append((start, end))

    def _working_time(self, moment: datetime) -> datetime:
        """The first moment at or after `moment` in working hours (09:00-18:00 on a business day)."""
        moment = moment.astimezone(self.tz)
        for _ in range(30):
            if self.is_workday(moment.date()) and 9 <= moment.hour < 18:
                return moment
            if self.is_workday(moment.date()) and moment.hour < 9:
                return self._at(moment.date(), 9, self.rng.randint(0, 50))
            moment = self._at(moment.date() + timedelta(days=1), 9, self.rng.randint(0, 50))
        return moment

    def _evening(self, moment: datetime) -> datetime:
        """The first moment at or after `moment` when people write to friends: evenings, weekends."""
        moment = moment.astimezone(self.tz)
        weekend = moment.weekday() >= 5
        if (weekend and 9 <= moment.hour < 22) or (not weekend and 18 <= moment.hour < 23):
            return moment
        if moment.hour < (9 if weekend else 18):
            return self._at(moment.date(), 9 if weekend else 18, self.rng.randint(0, 59))
        nxt = moment.date() + timedelta(days=1)
        return self._at(nxt, 9 if nxt.weekday() >= 5 else 18, self.rng.randint(0, 59))

    def clock(self, moment: datetime) -> str:
        """A time of day as people there write it: 15:30, or 3:30pm in the US."""
        return clock(moment, self.locale, twelve=self.region.month_first)

    def _day_text(self, on: date) -> str:
        return day(on, self.locale, self.region)

    def _month(self, on: date) -> str:
        return f"{on.year}年{on.month}月" if self.zh else f"{MONTHS[on.month - 1]} {on.year}"

    def _money(self, value: Decimal) -> str:
        return money.format_amount(value, self.region, self.locale)

    def _amount(self, kind: str, rounded: bool = False) -> Decimal:
        low, high = self.t.PRICES[kind]
        for _ in range(20):
            value = money.amount(self.rng, low, high, self.region.currency, rounded=rounded)
            if self.avoid.amount(value):
                return value
        raise ValueError("every amount drawn is one the story avoids")

    # -- vendors -------------------------------------------------------------------------------

    def _vendors(self) -> list[tuple[str, str, str]]:
        """(name, from address, kind) of the shops and services that mail the user."""
        out = []
        for name, local, kind in self.t.VENDORS:
            if not self._org_ok(name):
                continue
            domain = slug(name).replace("-and-", "-").replace("-", "") or f"v{len(out)}"
            tld = "cn" if self.zh else self.region.tld
            address = f"{local}@{domain}.{tld}"
            if not self.avoid.address(address):
                continue
            out.append((name, address, kind))
        return out

    def _of_kind(self, kind: str) -> list[tuple[str, str, str]]:
        return [v for v in self.vendors if v[2] == kind]

    def book(self, vendor: str, period: date, kind: str) -> Decimal:
        """The one amount of `vendor` for the month of `period`: every mail and file showing it agrees."""
        key = (vendor, f"{period:%Y-%m}")
        if key not in self.ledger:
            self.ledger[key] = self._amount(kind)
        return self.ledger[key]

    # -- adding ----------------------------------------------------------------------------------

    def _message(self, folder: str, message: dict[str, Any]) -> str:
        while message["message_id"] in self._ids:
            message["message_id"] = message["message_id"].replace("@", f".{self.rng.randint(10, 99)}@", 1)
        self._ids.add(message["message_id"])
        self.draft.add_message(folder, message)
        return f"mail/folders/{folder}/{message['message_id']}"

    def _folder_for(self, when: datetime, flags: list[str]) -> str:
        old = (self.now - when).days > 45
        return self.archive if old and "\\Flagged" not in flags and self.rng.random() < 0.6 else self.inbox

    def _flags(self, when: datetime) -> list[str]:
        age = (self.now - when).total_seconds() / 86400
        flags = ["\\Seen"] if age > 3 or self.rng.random() < 0.5 else []
        if self.rng.random() < 0.04:
            flags.append("\\Flagged")
        return flags

    def _unique_subject(self, subject: str) -> bool:
        key = subject.casefold()
        if key in self._subjects or not self.avoid.text(subject):
            return False
        self._subjects.add(key)
        return True

    # -- everything ------------------------------------------------------------------------------

    def fill(self, scale: Scale | None = None) -> list[str]:
        """Every app at `scale` (a busy account by default); the diff paths of everything added."""
        scale = scale or Scale.busy()
        from stageclaw.author.content import volume_calendar, volume_files, volume_mail

        self.ensure_cast()
        paths = volume_calendar.calendar(self, series=scale.series, events=scale.events)
        paths += volume_mail.mailbox(self, scale.messages)
        paths += self.contacts(scale.contacts)
        paths += volume_files.files(self, scale.files)
        if scale.notes:
            paths += volume_files.notes(self, scale.notes)
        if scale.reminders:
            paths += volume_files.reminders(self, scale.reminders)
        return paths

    def contacts(self, n: int) -> list[str]:
        """At least `n` address-book entries: everyone in the user's life, then acquaintances."""
        cast = self.ensure_cast()
        people = cast.everyone()[:n]
        while len(people) < n:
            person = self.person()
            cast.acquaintances.append(person)
            people.append(person)
        out = []
        for person in people:
            contact: dict[str, Any] = {
                "uid": self.draft.uid("c", f"{person.given} {person.family}"),
                "name": person.name,
            }
            contact["emails"] = [person.email]
            if self.rng.random() < 0.75:
                contact["phones"] = [person.phone]
            if person.org is not None:
                contact["organization"] = person.org.name
                if person.title:
                    contact["title"] = person.title
            if person.email in cast.birthdays and self.rng.random() < 0.8:
                contact["birthday"] = cast.birthdays[person.email].isoformat()
            if self.rng.random() < 0.08:
                contact["notes"] = self.rng.choice(self.t.CONTACT_NOTES)
            self.draft.add_contact(contact)
            out.append(f"contacts/{contact['uid']}")
        return out

    def letter(self, sender: Person, to: Person, text: str, register: str, quote: Any = None) -> str:
        return mails.letter(self.rng, sender, to, [text], register=register, locale=self.locale, quote=quote)


def arrival_order(draft: TaskDraft) -> None:
    """Every mail folder of `draft` in the order its messages arrived, so that the mail server numbers them
    as a real mailbox would (a story planted before `Life.fill` would otherwise hold the lowest numbers)."""
    for messages in draft.mail.values():
        messages.sort(key=lambda m: datetime.fromisoformat(m["date"]))
