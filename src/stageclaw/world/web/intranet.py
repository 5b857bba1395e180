"""Northwind Intranet: company news, the staff directory and meeting-room reservations."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from stageclaw.world import canonical
from stageclaw.world.web.common import (
    Site,
    form_of,
    not_found,
    page,
    parse_clock,
    parse_day,
    redirect,
    sequence_id,
    site_of,
)

APP = "intranet"
OPENS, CLOSES = time(7, 0), time(21, 0)


async def home(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        news = conn.execute("SELECT * FROM announcements ORDER BY date DESC, id").fetchall()
    return page(site, APP, "intranet/home.html", news=news)


async def directory(request: Request) -> Response:
    site = site_of(request, APP)
    query = request.query_params.get("q", "").strip()
    with site.db(APP) as conn:
        people = conn.execute("SELECT * FROM people ORDER BY name, id").fetchall()
    if query:
        wanted = query.casefold()
        fields = ("name", "title", "department", "email", "office")
        people = [p for p in people if any(wanted in (p[f] or "").casefold() for f in fields)]
    return page(site, APP, "intranet/directory.html", people=people, query=query)


async def person(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT * FROM people WHERE id = ?", (request.path_params["person"],)).fetchone()
    if row is None:
        return not_found(site, APP, "person")
    return page(site, APP, "intranet/person.html", person=row)


async def rooms(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        rows = conn.execute("SELECT * FROM rooms ORDER BY name, id").fetchall()
    return page(site, APP, "intranet/rooms.html", rooms=rows)


def _room(conn: sqlite3.Connection, room_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM rooms WHERE id = ?", (room_id,)).fetchone()


def _day_of(value: str, site: Site) -> date:
    return datetime.fromisoformat(value).astimezone(site.tz).date()


def _schedule(conn: sqlite3.Connection, site: Site, room_id: str, day: date) -> list[sqlite3.Row]:
    rows = conn.execute(
        "SELECT * FROM reservations WHERE room = ? AND status = 'confirmed' ORDER BY start, id", (room_id,)
    )
    return [r for r in rows if _day_of(r["start"], site) == day]


def _room_page(
    conn: sqlite3.Connection,
    site: Site,
    room: sqlite3.Row,
    form: dict[str, str],
    status: int = 200,
    errors: list[str] | None = None,
) -> Response:
    day = parse_day(form.get("date", "")) or site.today()
    return page(
        site,
        APP,
        "intranet/room.html",
        status,
        room=room,
        day=day.isoformat(),
        schedule=_schedule(conn, site, room["id"], day),
        form=form,
        errors=errors or [],
    )


async def room(request: Request) -> Response:
    site = site_of(request, APP)
    day = parse_day(request.query_params.get("date", "")) or site.today()
    with site.db(APP) as conn:
        row = _room(conn, request.path_params["room"])
        if row is None:
            return not_found(site, APP, "room")
        form = {"date": day.isoformat(), "start": "", "end": "", "title": ""}
        return _room_page(conn, site, row, form)


def _check(
    conn: sqlite3.Connection, site: Site, room: sqlite3.Row, form: dict[str, str]
) -> tuple[tuple[datetime, datetime] | None, list[str]]:
    """The reservation's start and end from the form, and what is wrong with it."""
    day, start, end = (
        parse_day(form.get("date", "")),
        parse_clock(form.get("start", "")),
        parse_clock(form.get("end", "")),
    )
    errors = []
    if day is None:
        errors.append("Enter the date (YYYY-MM-DD).")
    if start is None or end is None:
        errors.append("Enter a start and an end time (HH:MM, 24-hour clock).")
    if not form.get("title"):
        errors.append("Enter a title for the meeting.")
    if day is None or start is None or end is None:
        return None, errors
    begins, ends = datetime.combine(day, start, site.tz), datetime.combine(day, end, site.tz)
    if ends <= begins:
        errors.append("The end time must be after the start time.")
    if start < OPENS or end > CLOSES:
        errors.append(f"Rooms can be reserved between {OPENS:%H:%M} and {CLOSES:%H:%M}.")
    if begins < site.now():
        errors.append("That time has already passed.")
    for other in _schedule(conn, site, room["id"], day):
        if datetime.fromisoformat(other["start"]) < ends and datetime.fromisoformat(other["end"]) > begins:
            taken = f"{datetime.fromisoformat(other['start']):%H:%M}-{datetime.fromisoformat(other['end']):%H:%M}"
            errors.append(
                f"{room['name']} is already reserved {taken} ({other['title']}). Choose another time or room."
            )
    return (begins, ends), errors


async def reserve(request: Request) -> Response:
    site = site_of(request, APP)
    form = await form_of(request)
    with site.db(APP) as conn:
        row = _room(conn, request.path_params["room"])
        if row is None:
            return not_found(site, APP, "room")
        times, errors = _check(conn, site, row, form)
        if errors or times is None:
            return _room_page(conn, site, row, form, 422, errors)
        begins, ends = times
        res_id = sequence_id(conn, "reservations", "RES")
        conn.execute(
            'INSERT INTO reservations (id, room, title, start, "end", organizer, status) VALUES (?, ?, ?, ?, ?, ?, ?)',
            (
                res_id,
                row["id"],
                form["title"],
                canonical.when(begins, site.tz),
                canonical.when(ends, site.tz),
                site.user_email,
                "confirmed",
            ),
        )
    return redirect(site, f"/intranet/reservations/{res_id}?reserved=1")


def _with_rooms(conn: sqlite3.Connection, rows: list[sqlite3.Row]) -> list[dict[str, Any]]:
    names = {r["id"]: r["name"] for r in conn.execute("SELECT id, name FROM rooms")}
    return [{"reservation": r, "room_name": names.get(r["room"], r["room"])} for r in rows]


async def reservations(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        rows = conn.execute(
            "SELECT * FROM reservations WHERE organizer = ? ORDER BY start, id", (site.user_email,)
        ).fetchall()
        return page(site, APP, "intranet/reservations.html", items=_with_rooms(conn, rows))


def _cancellable(site: Site, row: sqlite3.Row) -> bool:
    mine = row["organizer"] == site.user_email
    return mine and row["status"] == "confirmed" and datetime.fromisoformat(row["end"]) > site.now()


async def reservation(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT * FROM reservations WHERE id = ?", (request.path_params["res"],)).fetchone()
        if row is None:
            return not_found(site, APP, "reservation")
        [item] = _with_rooms(conn, [row])
    notice = ""
    if request.query_params.get("reserved"):
        notice = f"{item['room_name']} is reserved for you. Reservation {row['id']}."
    elif request.query_params.get("cancelled"):
        notice = f"Reservation {row['id']} was cancelled."
    return page(site, APP, "intranet/reservation.html", notice=notice, cancellable=_cancellable(site, row), **item)


async def cancel(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT * FROM reservations WHERE id = ?", (request.path_params["res"],)).fetchone()
        if row is None:
            return not_found(site, APP, "reservation")
        if not _cancellable(site, row):
            [item] = _with_rooms(conn, [row])
            if row["organizer"] != site.user_email:
                why = f"only its organizer ({row['organizer']}) can cancel it"
            elif row["status"] != "confirmed":
                why = "it is already cancelled"
            else:
                why = "it is over"
            errors = [f"Reservation {row['id']} cannot be cancelled: {why}."]
            return page(site, APP, "intranet/reservation.html", 422, errors=errors, cancellable=False, **item)
        conn.execute("UPDATE reservations SET status = 'cancelled' WHERE id = ?", (row["id"],))
    return redirect(site, f"/intranet/reservations/{row['id']}?cancelled=1")


routes = [
    Route("/", home),
    Route("/directory", directory),
    Route("/people/{person}", person),
    Route("/rooms", rooms),
    Route("/rooms/{room}", room),
    Route("/rooms/{room}/reserve", reserve, methods=["POST"]),
    Route("/reservations", reservations),
    Route("/reservations/{res}", reservation),
    Route("/reservations/{res}/cancel", cancel, methods=["POST"]),
]
