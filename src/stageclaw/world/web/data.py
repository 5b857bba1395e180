"""The web apps' state: one SQLite file per app and episode, seeded from world.yaml's `web:`.

Tables the user can change through the apps (bookings, expense reports, room reservations) are
the State JSON `web/APP/TABLE`, items keyed by `id` and sorted; the catalogue tables (flights,
hotels, rooms, the staff directory, announcements, the expense policy) are seed-only. Seeding,
`normalize(world)` and the snapshot all pass rows through `_row_state`, so a fresh build reads
back exactly as world.yaml normalizes. `Site` is one episode's apps as the server sees them.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.world import canonical
from stageclaw.world.model import (
    ExpensesSeed,
    IntranetSeed,
    TravelSeed,
    World,
)

Row = dict[str, Any]


def quote(column: str) -> str:
    """A column name as an SQL identifier (`end` is an SQL keyword)."""
    return f'"{column}"'


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    money: tuple[str, ...] = ()  # integer cents in SQLite, numbers in the State JSON
    state: bool = False  # user-changeable: part of the State JSON
    derived: tuple[str, ...] = ()  # written by the app, not typed or picked by the user (a price, a stamp)

    def ddl(self) -> str:
        cols = ", ".join(
            f"{quote(c)} {'INTEGER' if c in self.money or c in _INTEGERS else 'TEXT'}" for c in self.columns
        )
        return f"CREATE TABLE {self.name} ({cols}, PRIMARY KEY ({quote(self.columns[0])}))"

    @property
    def select(self) -> str:
        return f"SELECT {', '.join(quote(c) for c in self.columns)} FROM {self.name}"


_INTEGERS = {"stars", "capacity"}

TABLES: dict[str, tuple[Table, ...]] = {
    "travel": (
        Table(
            "flights",
            ("id", "airline", "number", "origin", "destination", "depart", "arrive", "price", "business_price",
             "currency"),
            money=("price", "business_price"),
        ),
        Table(
            "hotels",
            ("id", "name", "city", "area", "address", "stars", "price", "currency", "description"),
            money=("price",),
        ),
        Table(
            "bookings",
            ("id", "kind", "item", "traveller", "cabin", "check_in", "check_out", "total", "currency", "notes",
             "status", "booked_at"),
            money=("total",),
            state=True,
            derived=("total", "currency", "booked_at"),
        ),
    ),
    "expenses": (
        Table(
            "reports",
            ("id", "date", "merchant", "category", "amount", "currency", "description", "receipt", "status",
             "submitted_at", "review_note"),
            money=("amount",),
            state=True,
            derived=("submitted_at", "review_note"),
        ),
        Table("settings", ("key", "value")),
    ),
    "intranet": (
        Table("rooms", ("id", "name", "floor", "capacity", "equipment")),
        Table("people", ("id", "name", "title", "department", "email", "phone", "office")),
        Table("announcements", ("id", "title", "date", "body")),
        Table(
            "reservations",
            ("id", "room", "title", "start", "end", "organizer", "status"),
            state=True,
            derived=("organizer",),
        ),
    ),
}  # fmt: skip


def derived(app: str, table: str) -> set[str]:
    """The columns of a user-changeable table that the app fills in itself."""
    return {c for t in TABLES.get(app, ()) if t.name == table for c in t.derived}


def cents(amount: Decimal | None) -> int | None:
    return None if amount is None else int(amount * 100)


def amount(value: int | None) -> float | None:
    """Cents as the State JSON writes money: a number with at most two decimals."""
    return None if value is None else round(value / 100, 2)


def _travel_rows(seed: TravelSeed, tz: ZoneInfo) -> dict[str, list[Row]]:
    flights = {f.id: f for f in seed.flights}
    hotels = {h.id: h for h in seed.hotels}
    bookings = []
    for b in seed.bookings:
        if b.kind == "flight":
            flight = flights[b.item]
            cabin = b.cabin or "economy"
            price = flight.business_price if cabin == "business" else flight.price
            total, currency = b.total if b.total is not None else price, b.currency or flight.currency
        else:
            hotel = hotels[b.item]
            nights = (b.check_out - b.check_in).days  # type: ignore[operator]
            cabin, currency = None, b.currency or hotel.currency
            total = b.total if b.total is not None else hotel.price * nights
        bookings.append(
            {
                "id": b.id,
                "kind": b.kind,
                "item": b.item,
                "traveller": b.traveller,
                "cabin": cabin,
                "check_in": canonical.when(b.check_in, tz),
                "check_out": canonical.when(b.check_out, tz),
                "total": cents(total),
                "currency": currency,
                "notes": b.notes,
                "status": b.status,
                "booked_at": canonical.when(b.booked_at, tz),
            }
        )
    return {
        "flights": [
            {
                "id": f.id,
                "airline": f.airline,
                "number": f.number,
                "origin": f.origin,
                "destination": f.destination,
                "depart": canonical.when(f.depart, tz),
                "arrive": canonical.when(f.arrive, tz),
                "price": cents(f.price),
                "business_price": cents(f.business_price),
                "currency": f.currency,
            }
            for f in seed.flights
        ],
        "hotels": [{**h.model_dump(exclude={"price"}), "price": cents(h.price)} for h in seed.hotels],
        "bookings": bookings,
    }


def _expenses_rows(seed: ExpensesSeed, tz: ZoneInfo) -> dict[str, list[Row]]:
    return {
        "reports": [
            {
                **r.model_dump(exclude={"amount", "date", "submitted_at"}),
                "date": r.date.isoformat(),
                "amount": cents(r.amount),
                "submitted_at": canonical.when(r.submitted_at, tz),
            }
            for r in seed.reports
        ],
        "settings": [{"key": "policy", "value": seed.policy}],
    }


def _intranet_rows(seed: IntranetSeed, tz: ZoneInfo, user: str) -> dict[str, list[Row]]:
    return {
        "rooms": [{**r.model_dump(exclude={"equipment"}), "equipment": ", ".join(r.equipment)} for r in seed.rooms],
        "people": [p.model_dump() for p in seed.people],
        "announcements": [{**a.model_dump(exclude={"date"}), "date": a.date.isoformat()} for a in seed.announcements],
        "reservations": [
            {
                "id": r.id,
                "room": r.room,
                "title": r.title,
                "start": canonical.when(r.start, tz),
                "end": canonical.when(r.end, tz),
                "organizer": canonical.bare_address(r.organizer) if r.organizer else user,
                "status": r.status,
            }
            for r in seed.reservations
        ],
    }


def rows(world: World) -> dict[str, dict[str, list[Row]]]:
    """Every table's rows of every web app the world has, by app and table."""
    tz, web = world.tz, world.web
    out: dict[str, dict[str, list[Row]]] = {}
    if web.travel is not None:
        out["travel"] = _travel_rows(web.travel, tz)
    if web.expenses is not None:
        out["expenses"] = _expenses_rows(web.expenses, tz)
    if web.intranet is not None:
        out["intranet"] = _intranet_rows(web.intranet, tz, world.user.email)
    return out


def _row_state(table: Table, row: Row) -> Row:
    return {c: amount(row[c]) if c in table.money else row[c] for c in table.columns}


def _app_state(app: str, tables: dict[str, list[Row]]) -> dict[str, list[Row]]:
    return {
        t.name: sorted((_row_state(t, r) for r in tables.get(t.name, [])), key=lambda item: item["id"])
        for t in TABLES[app]
        if t.state
    }


def normalize(world: World) -> dict[str, Any]:
    """The `web` part of the State JSON that building `world` must produce."""
    return {app: _app_state(app, tables) for app, tables in sorted(rows(world).items())}


def render(world: World) -> dict[str, bytes]:
    """Each app's seeded SQLite database, as the bytes of its file."""
    out = {}
    for app, tables in rows(world).items():
        conn = sqlite3.connect(":memory:")
        try:
            for table in TABLES[app]:
                conn.execute(table.ddl())
                marks = ", ".join("?" for _ in table.columns)
                conn.executemany(
                    f"INSERT INTO {table.name} VALUES ({marks})",
                    [tuple(row[c] for c in table.columns) for row in tables.get(table.name, [])],
                )
            conn.commit()
            out[app] = conn.serialize()
        finally:
            conn.close()
    return out


def db_path(root: Path, app: str) -> Path:
    return root / f"{app}.sqlite"


def seed(root: Path, databases: dict[str, bytes]) -> None:
    """Write each app's database; a rename, so a request in flight never sees half a file."""
    root.mkdir(parents=True, exist_ok=True)
    for app, data in databases.items():
        target = db_path(root, app)
        tmp = target.with_suffix(".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)


def read(root: Path, apps: tuple[str, ...]) -> dict[str, Any]:
    """The `web` part of the State JSON, read from the apps' databases (read-only)."""
    out = {}
    for app in sorted(apps):
        conn = sqlite3.connect(f"file:{db_path(root, app)}?mode=ro", uri=True)
        try:
            tables = {}
            for table in TABLES[app]:
                if table.state:
                    cursor = conn.execute(table.select)
                    tables[table.name] = [dict(zip(table.columns, values, strict=True)) for values in cursor]
        finally:
            conn.close()
        out[app] = _app_state(app, tables)
    return out


@dataclass
class Site:
    """One episode's web apps: its databases, its user and its clock, under `/e/<token>/`."""

    token: str
    root: Path
    apps: tuple[str, ...]
    user_name: str
    user_email: str
    tz: ZoneInfo
    now: Callable[[], datetime]

    @property
    def base(self) -> str:
        return f"/e/{self.token}"

    def today(self) -> date:
        return self.now().date()

    @contextmanager
    def db(self, app: str) -> Iterator[sqlite3.Connection]:
        """A connection for one request: committed when the handler returns, rolled back if it raises."""
        conn = sqlite3.connect(db_path(self.root, app), timeout=10)
        conn.row_factory = sqlite3.Row
        try:
            with conn:
                yield conn
        finally:
            conn.close()
