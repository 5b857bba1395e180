"""The world.yaml contract (E0) as pydantic models, and its loader.

Seed objects carry the State JSON fields; unknown keys and bad values are errors that name
the file and the field.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from icalendar.prop import vRecur
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from stageclaw.errors import WorldError
from stageclaw.world import recurrence

_BAD_WHEN = "bad date or time {value!r}: use ISO 8601, e.g. 2026-03-10 or 2026-03-10T09:00:00+08:00"
# Years the stores and clients handle: year 1 or 9999 with an offset overflows Python's datetime on conversion.
YEARS = (1900, 2199)
NAME_MAX = 100  # characters of a mail folder, calendar, list or notes folder name (they become file names)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _parse_when(value: Any) -> Any:
    """`YYYY-MM-DD` is a date (all-day); anything longer is a datetime."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError as exc:
            raise ValueError(_BAD_WHEN.format(value=value)) from exc
    if not isinstance(value, date):
        raise ValueError(_BAD_WHEN.format(value=value))
    if not YEARS[0] <= value.year <= YEARS[1]:
        raise ValueError(f"{value.isoformat()} is outside the years {YEARS[0]}-{YEARS[1]} that the stores handle")
    return value


def _one_line(value: str, what: str) -> str:
    """Text that becomes a mail header line: a CR or LF in it would start another header."""
    if _CONTROL.search(value):
        raise ValueError(f"{what} {value!r} holds a line break or another control character; write it on one line")
    return value


When = Annotated[date | datetime, BeforeValidator(_parse_when)]
Instant = Annotated[datetime, BeforeValidator(_parse_when)]
Day = Annotated[date, BeforeValidator(_parse_when)]

_FLAG = re.compile(r"^(\\(Seen|Answered|Flagged|Deleted|Draft)|[A-Za-z$][A-Za-z0-9$_.-]*)$")
_UID = re.compile(r"^[^\s/\\]{1,200}$")


class _Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


def _check_uid(value: str) -> str:
    if not _UID.match(value):
        raise ValueError(f"uid {value!r} must be 1-200 characters without spaces or slashes")
    return value


def _address(value: str) -> str:
    if "@" not in value or " " in value.strip():
        raise ValueError(f"{value!r} is not an email address")
    return _one_line(value.strip().lower(), "address")


def _message_id(value: str) -> str:
    if not re.match(r"^<[^<>\s]+@[^<>\s]+>$", value):
        raise ValueError(f"{value!r} is not a Message-ID like <id@host>")
    return value


class User(_Seed):
    name: str
    email: str

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _one_line(value, "name")

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        return _address(value)


class AttachmentSeed(_Seed):
    """An attachment from `assets/` (`path`) or given inline (`text`)."""

    filename: str
    path: str | None = None
    text: str | None = None

    @field_validator("filename")
    @classmethod
    def _filename(cls, value: str) -> str:
        if not value.strip() or "/" in value or len(value.encode()) > 255:
            raise ValueError(f"filename {value!r}: give a file name of 1-255 bytes without '/'")
        return _one_line(value, "filename")

    @model_validator(mode="after")
    def _one_source(self) -> AttachmentSeed:
        if (self.path is None) == (self.text is None):
            raise ValueError("give exactly one of 'path' (a file under assets/) or 'text'")
        return self


class MessageSeed(_Seed):
    message_id: str
    from_: str = Field(alias="from")
    to: list[str] = []
    cc: list[str] = []
    subject: str = ""
    date: Instant
    flags: list[str] = []
    body: str = ""
    in_reply_to: str | None = None
    attachments: list[AttachmentSeed] = []

    @field_validator("message_id", "in_reply_to")
    @classmethod
    def _angle(cls, value: str | None) -> str | None:
        return None if value is None else _message_id(value)

    @field_validator("from_", "subject")
    @classmethod
    def _header(cls, value: str, info: ValidationInfo) -> str:
        return _one_line(value, "from" if info.field_name == "from_" else str(info.field_name))

    @field_validator("to", "cc")
    @classmethod
    def _addresses(cls, value: list[str], info: ValidationInfo) -> list[str]:
        for address in value:
            _one_line(address, f"{info.field_name} address")
        return value

    @field_validator("flags")
    @classmethod
    def _flags(cls, value: list[str]) -> list[str]:
        for flag in value:
            if not _FLAG.match(flag):
                raise ValueError(
                    f"{flag!r} is not an IMAP flag (\\Seen, \\Answered, \\Flagged, \\Deleted, \\Draft or a keyword)"
                )
        return value


class AutoReplySeed(_Seed):
    """What a correspondent's mail server answers, once, the first time the user writes to `address`: an
    out-of-office notice, say. It lands in the user's INBOX as an answer to that message."""

    address: str
    from_: str = Field(alias="from")
    subject: str = "Automatic reply: {subject}"
    body: str
    message_id: str

    @field_validator("address")
    @classmethod
    def _address(cls, value: str) -> str:
        return _address(value)

    @field_validator("from_", "subject")
    @classmethod
    def _header(cls, value: str, info: ValidationInfo) -> str:
        return _one_line(value, "from" if info.field_name == "from_" else str(info.field_name))

    @field_validator("message_id")
    @classmethod
    def _angle(cls, value: str) -> str:
        return _message_id(value)


class MailSeed(_Seed):
    folders: dict[str, list[MessageSeed]] = {}
    autoreplies: list[AutoReplySeed] = []

    @model_validator(mode="after")
    def _one_each(self) -> MailSeed:
        addresses = [r.address for r in self.autoreplies]
        twice = sorted({a for a in addresses if addresses.count(a) > 1})
        if twice:
            raise ValueError(f"autoreplies: {twice[0]} has two; give each address one")
        seeded = {m.message_id for messages in self.folders.values() for m in messages}
        clash = next((r.message_id for r in self.autoreplies if r.message_id in seeded), None)
        if clash:
            raise ValueError(f"autoreplies: message_id {clash} is a seeded message's too")
        return self

    @field_validator("folders")
    @classmethod
    def _folders(cls, value: dict[str, list[MessageSeed]]) -> dict[str, list[MessageSeed]]:
        for name, messages in value.items():
            _check_folder(name)
            seen: set[str] = set()
            for msg in messages:
                if msg.message_id in seen:
                    raise ValueError(f"folder {name!r} has message_id {msg.message_id} twice")
                seen.add(msg.message_id)
        return value


def _check_name(name: str) -> None:
    """A container name the tools can address and the stores can keep as a file name."""
    if not name.strip() or name != name.strip():
        raise ValueError(f"name {name!r} must be non-empty, without spaces at its start or end")
    if len(name) > NAME_MAX or len(name.encode()) > 2 * NAME_MAX:
        raise ValueError(f"name {name[:20]!r}... is {len(name)} characters long: use at most {NAME_MAX}")
    _one_line(name, "name")


def _check_folder(name: str) -> None:
    """A mail folder the IMAP tools can reach: Dovecot refuses some names and folds `inbox` into INBOX."""
    bad = f"folder name {name!r}: use names like 'Archive' or 'Projects/Alpha'"
    if not name or "." in name or name.startswith("/") or name.endswith("/") or "//" in name:
        raise ValueError(f"{bad} (no dots)")
    _check_name(name)
    parts = name.split("/")
    if parts[0].upper() == "INBOX" and parts[0] != "INBOX":
        raise ValueError(f"{bad}: IMAP folds any spelling of INBOX into INBOX, so write it 'INBOX'")
    for part in parts:
        if part != part.strip() or part.startswith("~"):
            raise ValueError(f"{bad}: no part may start with '~' or a space, or end with a space")


def default_end(start: date | datetime) -> date | datetime:
    """An event without an end lasts one day (all-day) or one hour."""
    if isinstance(start, datetime):
        return start + timedelta(hours=1)
    return start + timedelta(days=1)


EventStatus = Literal["CONFIRMED", "TENTATIVE", "CANCELLED"]


class OccurrenceSeed(_Seed):
    """One occurrence of a recurring event changed on its own (a RECURRENCE-ID override): moved,
    renamed or cancelled. `recurrence_id` is the occurrence's original start; a field left out
    keeps the series' value."""

    recurrence_id: When
    summary: str | None = None
    start: When | None = None
    end: When | None = None
    location: str | None = None
    description: str | None = None
    attendees: list[str] | None = None
    status: EventStatus | None = None


class EventSeed(_Seed):
    uid: str
    summary: str
    start: When
    end: When | None = None
    all_day: bool | None = None
    location: str = ""
    description: str = ""
    attendees: list[str] = []
    organizer: str | None = None
    status: EventStatus | None = None
    rrule: str | None = None
    exdates: list[When] = []  # occurrences of the series that were deleted (EXDATE)
    overrides: list[OccurrenceSeed] = []

    _uid = field_validator("uid")(_check_uid)

    @field_validator("rrule")
    @classmethod
    def _rrule(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            rule = vRecur.from_ical(value)
        except ValueError as exc:
            raise ValueError(f"bad rrule {value!r}: {exc}") from exc
        # At most one occurrence a day, so listing any range expands to at most one item per day of it.
        if rule.get("FREQ") not in (["DAILY"], ["WEEKLY"], ["MONTHLY"], ["YEARLY"]):
            raise ValueError(f"rrule {value!r}: FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY")
        finer = [part for part in ("BYHOUR", "BYMINUTE", "BYSECOND") if part in rule]
        if finer:
            raise ValueError(f"rrule {value!r}: {', '.join(finer)} not allowed; the time of day comes from start")
        return value

    @model_validator(mode="after")
    def _times(self) -> EventSeed:
        timed = isinstance(self.start, datetime)
        if self.end is not None and isinstance(self.end, datetime) != timed:
            raise ValueError("start and end must both be dates (all-day) or both be times")
        if self.all_day is not None and self.all_day == timed:
            raise ValueError("all_day disagrees with start: an all-day event has a date start (YYYY-MM-DD)")
        if self.end is not None and _comparable(self.end) < _comparable(self.start):
            raise ValueError("end is before start")
        if not timed and self.end is not None and self.end <= self.start:
            raise ValueError("an all-day event ends the day after its last day (end is exclusive): end must be later")
        if (self.exdates or self.overrides) and not self.rrule:
            raise ValueError("exdates and overrides belong to a recurring event: give an rrule")
        for when in [*self.exdates, *(o.recurrence_id for o in self.overrides)]:
            if isinstance(when, datetime) != timed:
                raise ValueError(f"{when} and start must both be dates (all-day) or both be times")
        for o in self.overrides:
            if any(v is not None and isinstance(v, datetime) != timed for v in (o.start, o.end)):
                raise ValueError(f"override {o.recurrence_id}: start and end must be of the same kind as the series")
        rids = [_comparable(o.recurrence_id) for o in self.overrides]
        if len(set(rids)) != len(rids):
            raise ValueError("two overrides change the same occurrence")
        return self

    @property
    def effective_end(self) -> date | datetime:
        return self.end if self.end is not None else default_end(self.start)

    def occurrence(self, override: OccurrenceSeed) -> tuple[date | datetime, date | datetime]:
        """An override's start and end: as given, else the original start and the series' length."""
        start = override.start if override.start is not None else override.recurrence_id
        if override.end is not None:
            return start, override.end
        return start, start + (_comparable(self.effective_end) - _comparable(self.start))


def _comparable(value: date | datetime) -> Any:
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.replace(tzinfo=None) - (value.utcoffset() or timedelta())
    return value


class TodoSeed(_Seed):
    uid: str
    title: str
    notes: str = ""
    due: When | None = None
    priority: int | None = Field(default=None, ge=0, le=9)
    completed: bool = False
    completed_at: Instant | None = None

    _uid = field_validator("uid")(_check_uid)

    @model_validator(mode="after")
    def _done(self) -> TodoSeed:
        if self.completed_at is not None and not self.completed:
            raise ValueError("completed_at is set but completed is false")
        return self


class NoteSeed(_Seed):
    uid: str
    title: str
    body: str = ""
    tags: list[str] = []

    _uid = field_validator("uid")(_check_uid)


class ContactSeed(_Seed):
    uid: str
    name: str
    emails: list[str] = []
    phones: list[str] = []
    organization: str = ""
    title: str = ""
    notes: str = ""
    birthday: Day | None = None

    _uid = field_validator("uid")(_check_uid)


class FileSeed(_Seed):
    """A workspace file, inline (`text`) or copied from `assets/` (`path`)."""

    text: str | None = None
    path: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FileSeed:
        if (self.path is None) == (self.text is None):
            raise ValueError("give exactly one of 'text' or 'path' (a file under assets/)")
        return self


_CURRENCY = re.compile(r"^[A-Z]{3}$")
EXPENSE_CATEGORIES = ("Travel", "Lodging", "Meals", "Transport", "Office", "Software", "Training", "Other")


def _parse_money(value: Any) -> Decimal:
    """An amount with at most two decimals: `142`, `84.5`, `"1290.00"`."""
    bad = ValueError(f"bad amount {value!r}: give a non-negative number with at most two decimals, e.g. 84.50")
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise bad
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise bad from None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise bad
    return amount


def _check_currency(value: str) -> str:
    if not _CURRENCY.match(value):
        raise ValueError(f"currency {value!r} must be an ISO 4217 code like EUR or CNY")
    return value


Money = Annotated[Decimal, BeforeValidator(_parse_money)]
Currency = Annotated[str, BeforeValidator(_check_currency)]


def _unique_ids(table: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for value in ids:
        if value in seen:
            raise ValueError(f"{table}: id {value!r} is used twice")
        seen.add(value)


class FlightSeed(_Seed):
    """A flight the travel site sells (catalogue: not part of the State JSON)."""

    id: str
    airline: str
    number: str
    origin: str
    destination: str
    depart: Instant
    arrive: Instant
    price: Money
    business_price: Money | None = None
    currency: Currency

    _id = field_validator("id")(_check_uid)


class HotelSeed(_Seed):
    """A hotel the travel site sells, `price` per night (catalogue)."""

    id: str
    name: str
    city: str
    area: str = ""
    address: str = ""
    stars: int | None = Field(default=None, ge=1, le=5)
    price: Money
    currency: Currency
    description: str = ""

    _id = field_validator("id")(_check_uid)


class BookingSeed(_Seed):
    """A trip the user booked: a flight (`cabin`) or a hotel stay (`check_in`, `check_out`).

    `total` and `currency` default to the catalogue price (a hotel's price times its nights).
    """

    id: str
    kind: Literal["flight", "hotel"]
    item: str
    traveller: str
    cabin: Literal["economy", "business"] | None = None
    check_in: Day | None = None
    check_out: Day | None = None
    total: Money | None = None
    currency: Currency | None = None
    notes: str = ""
    status: Literal["confirmed", "cancelled"] = "confirmed"
    booked_at: Instant | None = None

    _id = field_validator("id")(_check_uid)

    @model_validator(mode="after")
    def _shape(self) -> BookingSeed:
        if self.kind == "hotel":
            if self.check_in is None or self.check_out is None or self.cabin is not None:
                raise ValueError("a hotel booking has check_in and check_out (dates) and no cabin")
            if self.check_out <= self.check_in:
                raise ValueError("check_out must be after check_in")
        elif self.check_in is not None or self.check_out is not None:
            raise ValueError("a flight booking has no check_in or check_out (the flight has the dates)")
        return self


class TravelSeed(_Seed):
    flights: list[FlightSeed] = []
    hotels: list[HotelSeed] = []
    bookings: list[BookingSeed] = []

    @model_validator(mode="after")
    def _refs(self) -> TravelSeed:
        _unique_ids("flights", [f.id for f in self.flights])
        _unique_ids("hotels", [h.id for h in self.hotels])
        _unique_ids("bookings", [b.id for b in self.bookings])
        flights = {f.id: f for f in self.flights}
        hotels = {h.id for h in self.hotels}
        for booking in self.bookings:
            if booking.kind == "hotel" and booking.item not in hotels:
                raise ValueError(f"booking {booking.id}: no hotel with id {booking.item!r}")
            if booking.kind == "flight":
                flight = flights.get(booking.item)
                if flight is None:
                    raise ValueError(f"booking {booking.id}: no flight with id {booking.item!r}")
                if booking.cabin == "business" and flight.business_price is None:
                    raise ValueError(f"booking {booking.id}: flight {flight.id} has no business cabin")
        return self


class ExpenseSeed(_Seed):
    """An expense report filed on the expense portal."""

    id: str
    date: Day
    merchant: str
    category: str
    amount: Money
    currency: Currency
    description: str = ""
    receipt: str = ""
    status: Literal["draft", "submitted", "approved", "rejected", "withdrawn"] = "submitted"
    submitted_at: Instant | None = None
    review_note: str = ""

    _id = field_validator("id")(_check_uid)

    @field_validator("category")
    @classmethod
    def _category(cls, value: str) -> str:
        if value not in EXPENSE_CATEGORIES:
            raise ValueError(f"category {value!r} is not one of {', '.join(EXPENSE_CATEGORIES)}")
        return value


class ExpensesSeed(_Seed):
    reports: list[ExpenseSeed] = []
    policy: str = ""  # the expense policy page (catalogue)

    @model_validator(mode="after")
    def _ids(self) -> ExpensesSeed:
        _unique_ids("reports", [r.id for r in self.reports])
        return self


class RoomSeed(_Seed):
    id: str
    name: str
    floor: str = ""
    capacity: int = Field(ge=1)
    equipment: list[str] = []

    _id = field_validator("id")(_check_uid)


class PersonSeed(_Seed):
    """A colleague in the intranet's staff directory (catalogue)."""

    id: str
    name: str
    title: str = ""
    department: str = ""
    email: str = ""
    phone: str = ""
    office: str = ""

    _id = field_validator("id")(_check_uid)


class AnnouncementSeed(_Seed):
    id: str
    title: str
    date: Day
    body: str = ""

    _id = field_validator("id")(_check_uid)


class ReservationSeed(_Seed):
    """A meeting-room reservation; `organizer` defaults to the user."""

    id: str
    room: str
    title: str
    start: Instant
    end: Instant
    organizer: str | None = None
    status: Literal["confirmed", "cancelled"] = "confirmed"

    _id = field_validator("id")(_check_uid)

    @model_validator(mode="after")
    def _times(self) -> ReservationSeed:
        if _comparable(self.end) <= _comparable(self.start):
            raise ValueError("end must be after start")
        return self


class IntranetSeed(_Seed):
    rooms: list[RoomSeed] = []
    people: list[PersonSeed] = []
    announcements: list[AnnouncementSeed] = []
    reservations: list[ReservationSeed] = []

    @model_validator(mode="after")
    def _refs(self) -> IntranetSeed:
        for table, ids in (
            ("rooms", [r.id for r in self.rooms]),
            ("people", [p.id for p in self.people]),
            ("announcements", [a.id for a in self.announcements]),
            ("reservations", [r.id for r in self.reservations]),
        ):
            _unique_ids(table, ids)
        rooms = {r.id for r in self.rooms}
        for res in self.reservations:
            if res.room not in rooms:
                raise ValueError(f"reservation {res.id}: no room with id {res.room!r}")
        return self


class WebSeed(_Seed):
    """The local web apps of the world; an app exists in an episode when it is named here."""

    travel: TravelSeed | None = None
    expenses: ExpensesSeed | None = None
    intranet: IntranetSeed | None = None

    @property
    def apps(self) -> tuple[str, ...]:
        return tuple(name for name in type(self).model_fields if getattr(self, name) is not None)


def _check_relative(path: str) -> str:
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or ".." in pure.parts or "\\" in path or str(pure) != path:
        raise ValueError(f"{path!r} must be a plain relative path like 'docs/plan.md'")
    if _CONTROL.search(path) or any(len(part.encode()) > 255 for part in pure.parts) or len(path.encode()) > 1024:
        raise ValueError(f"{path[:60]!r}: no control characters, at most 255 bytes a name and 1024 in all")
    return path


def _naive_times(value: Any, where: str) -> Iterator[tuple[str, datetime]]:
    """Every datetime without an offset in a seed, with its field path (`calendar.Home[1].start`)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            yield where, value
    elif isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            yield from _naive_times(getattr(value, name), f"{where}.{info.alias or name}".lstrip("."))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _naive_times(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _naive_times(item, f"{where}[{i}]")


def _skipped(value: datetime, tz: ZoneInfo) -> bool:
    """A wall-clock time the clocks jump over (the spring-forward gap): it names no instant."""
    return value.replace(tzinfo=tz).astimezone(UTC).astimezone(tz).replace(tzinfo=None) != value


class World(_Seed):
    now: Instant
    timezone: str
    user: User
    mail: MailSeed = MailSeed()
    calendar: dict[str, list[EventSeed]] = {}
    reminders: dict[str, list[TodoSeed]] = {}
    notes: dict[str, list[NoteSeed]] = {}
    contacts: list[ContactSeed] = []
    files: dict[str, FileSeed] = {}
    web: WebSeed = WebSeed()

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {value!r}: use an IANA name like Europe/London") from exc
        return value

    @field_validator("now")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("now needs a UTC offset, e.g. 2026-03-10T09:00:00+08:00")
        return value

    @field_validator("files")
    @classmethod
    def _paths(cls, value: dict[str, FileSeed]) -> dict[str, FileSeed]:
        for path in value:
            _check_relative(path)
            parents = PurePosixPath(path).parents
            clash = next((str(p) for p in parents if str(p) in value), None)
            if clash is not None:
                raise ValueError(f"{clash!r} is a file, and also the folder of {path!r}: rename one of them")
        return value

    @field_validator("calendar", "reminders", "notes")
    @classmethod
    def _containers(cls, value: dict[str, list[Any]]) -> dict[str, list[Any]]:
        for name in value:
            if "/" in name:
                raise ValueError(f"name {name!r} must be without '/'")
            _check_name(name)
        return value

    @model_validator(mode="after")
    def _unique_uids(self) -> World:
        for app, groups in (("calendar", self.calendar), ("reminders", self.reminders), ("notes", self.notes)):
            _unique(app, [item.uid for items in groups.values() for item in items])
        _unique("contacts", [c.uid for c in self.contacts])
        return self

    @model_validator(mode="after")
    def _exceptions_are_occurrences(self) -> World:
        """An EXDATE or RECURRENCE-ID that the rule never produces names nothing (clients ignore it)."""
        for name, events in self.calendar.items():
            for event in events:
                for when in [*event.exdates, *(o.recurrence_id for o in event.overrides)]:
                    if event.rrule and not recurrence.is_occurrence(event.rrule, event.start, when, self.tz):
                        raise ValueError(
                            f"calendar {name}, event {event.uid}: {when} is not an occurrence of {event.rrule}"
                        )
        return self

    @model_validator(mode="after")
    def _existing_times(self) -> World:
        # A time without an offset is read in the world's zone; one that the zone skips would silently move.
        tz = self.tz
        for where, value in _naive_times(self, ""):
            if _skipped(value, tz):
                raise ValueError(
                    f"{where}: {value.isoformat()} does not exist in {self.timezone} (the clocks skip it for "
                    "daylight saving time); give another time, or one with a UTC offset"
                )
        return self

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def _unique(app: str, uids: list[str]) -> None:
    seen: set[str] = set()
    for uid in uids:
        if uid in seen:
            raise ValueError(f"{app}: uid {uid!r} is used twice")
        seen.add(uid)


class _StringTimes(yaml.SafeLoader):
    """YAML without implicit timestamps: times stay strings and are parsed in one place."""


_StringTimes.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def field_path(loc: tuple[Any, ...]) -> str:
    """`('calendar', 'Work', 0, 'start')` -> `calendar.Work[0].start`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).startswith("function-"):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


def validation_message(label: str, exc: ValidationError) -> str:
    """One line per problem: `world.yaml: calendar.Work[0].start: bad date ...`."""
    lines = []
    for err in exc.errors():
        where = field_path(err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        lines.append(f"{label}: {where}: {msg}" if where else f"{label}: {msg}")
    return "\n".join(dict.fromkeys(lines))


def world_file(path: Path) -> Path:
    """A task folder or a world.yaml path -> the world.yaml path."""
    path = Path(path)
    candidate = path / "world.yaml" if path.is_dir() else path
    if not candidate.is_file():
        raise WorldError(f"{path}: no world.yaml here; give a task folder or the path of a world.yaml")
    return candidate


def parse_world(data: Any, label: str = "world.yaml") -> World:
    if not isinstance(data, dict):
        raise WorldError(f"{label}: the file must be a YAML mapping with now, timezone, user and the apps")
    try:
        return World.model_validate(data)
    except ValidationError as exc:
        raise WorldError(validation_message(label, exc)) from None


def load_world(path: Path) -> tuple[World, Path]:
    """Load and validate a world.yaml; returns the world and the folder its assets are relative to."""
    file = world_file(path)
    try:
        data = yaml.load(file.read_text(encoding="utf-8"), Loader=_StringTimes)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise WorldError(f"{file}:{where} not valid YAML: {getattr(exc, 'problem', exc)}") from None
    except UnicodeDecodeError:
        raise WorldError(f"{file}: not UTF-8 text") from None
    world = parse_world(data, str(file))
    check_assets(world, file.parent, str(file))
    return world, file.parent


ASSETS = "assets"


def asset_path(base: Path, rel: str) -> Path:
    """The regular file `rel` names inside `base/assets/`.

    Checked again at each read, so nothing put there later (a link into hidden/ or out of the
    task, a device, a FIFO that would block the build) reaches a world.
    """
    parts = PurePosixPath(_check_relative(rel)).parts
    if len(parts) < 2 or parts[0] != ASSETS:
        raise ValueError(f"{rel!r} is not in the task's assets/ folder: put the file there and name it assets/...")
    path = base
    for part in parts:
        path = path / part
        try:
            mode = path.lstat().st_mode
        except OSError:
            raise ValueError(f"no file {rel!r} next to world.yaml") from None
        if stat.S_ISLNK(mode):
            raise ValueError(f"{rel!r} goes through the symbolic link {part!r}: copy the file into assets/ instead")
    if not stat.S_ISREG(mode):
        raise ValueError(f"{rel!r} is not a regular file")
    return path


def asset_refs(world: World) -> list[tuple[str, str]]:
    """(where in world.yaml, relative path) of every asset the world names."""
    refs = [(f"files.{name}.path", seed.path) for name, seed in world.files.items() if seed.path]
    for folder, messages in world.mail.folders.items():
        for i, msg in enumerate(messages):
            refs += [
                (f"mail.folders.{folder}[{i}].attachments[{j}].path", a.path)
                for j, a in enumerate(msg.attachments)
                if a.path
            ]
    return refs


def check_assets(world: World, base: Path, label: str) -> None:
    """Every `path:` in the world names a regular file in the task's assets/ folder."""
    for where, rel in asset_refs(world):
        try:
            asset_path(base, rel)
        except ValueError as exc:
            raise WorldError(f"{label}: {where}: {exc}") from None
