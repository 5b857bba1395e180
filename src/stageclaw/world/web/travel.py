"""Skyway Travel: search flights and hotels, book them, see and cancel your trips."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from stageclaw.world import canonical
from stageclaw.world.web.common import (
    Site,
    booking_reference,
    form_of,
    not_found,
    page,
    parse_day,
    redirect,
    site_of,
)

APP = "travel"
CABINS = {"economy": "Economy", "business": "Business"}


def _choices(conn: sqlite3.Connection) -> dict[str, list[str]]:
    return {
        "cities": [r[0] for r in conn.execute("SELECT DISTINCT city FROM hotels ORDER BY city")],
        "origins": [r[0] for r in conn.execute("SELECT DISTINCT origin FROM flights ORDER BY origin")],
        "destinations": [r[0] for r in conn.execute("SELECT DISTINCT destination FROM flights ORDER BY destination")],
    }


async def home(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        return page(site, APP, "travel/home.html", **_choices(conn), query={})


def _matches(value: str, wanted: str) -> bool:
    return wanted.casefold() in value.casefold()


async def flights(request: Request) -> Response:
    site = site_of(request, APP)
    query = {k: request.query_params.get(k, "").strip() for k in ("origin", "destination", "date")}
    errors = []
    day = parse_day(query["date"]) if query["date"] else None
    if query["date"] and day is None:
        errors.append(f"Departure date '{query['date']}' is not a date: use YYYY-MM-DD.")
    with site.db(APP) as conn:
        found = []
        if not errors:
            for row in conn.execute("SELECT * FROM flights ORDER BY depart, id"):
                wanted = _matches(row["origin"], query["origin"]) and _matches(row["destination"], query["destination"])
                on_day = day is None or row["depart"][:10] == day.isoformat()
                if wanted and on_day and datetime.fromisoformat(row["depart"]) > site.now():
                    found.append(row)
        return page(
            site,
            APP,
            "travel/flights.html",
            422 if errors else 200,
            flights=found,
            query=query,
            errors=errors,
            **_choices(conn),
        )


def _flight(conn: sqlite3.Connection, flight_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM flights WHERE id = ?", (flight_id,)).fetchone()


async def flight(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _flight(conn, request.path_params["flight"])
        if row is None:
            return not_found(site, APP, "flight")
        form = {"traveller": site.user_name, "cabin": "economy", "notes": ""}
        return page(site, APP, "travel/flight.html", flight=row, form=form, cabins=CABINS)


def _insert(conn: sqlite3.Connection, site: Site, booking: dict[str, Any]) -> str:
    ref = booking_reference(conn, "bookings")
    row = {"id": ref, **booking, "status": "confirmed", "booked_at": canonical.when(site.now(), site.tz)}
    conn.execute(f"INSERT INTO bookings ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})", tuple(row.values()))
    return ref


async def book_flight(request: Request) -> Response:
    site = site_of(request, APP)
    form = await form_of(request)
    with site.db(APP) as conn:
        row = _flight(conn, request.path_params["flight"])
        if row is None:
            return not_found(site, APP, "flight")
        errors = []
        if not form.get("traveller"):
            errors.append("Enter the traveller's full name as on their passport.")
        cabin = form.get("cabin", "economy")
        if cabin not in CABINS or (cabin == "business" and row["business_price"] is None):
            errors.append("Choose a cabin this flight offers.")
        if datetime.fromisoformat(row["depart"]) <= site.now():
            errors.append("This flight has already left and can no longer be booked.")
        if errors:
            return page(site, APP, "travel/flight.html", 422, flight=row, form=form, cabins=CABINS, errors=errors)
        price = row["business_price"] if cabin == "business" else row["price"]
        ref = _insert(
            conn,
            site,
            {
                "kind": "flight",
                "item": row["id"],
                "traveller": form["traveller"],
                "cabin": cabin,
                "check_in": None,
                "check_out": None,
                "total": price,
                "currency": row["currency"],
                "notes": form.get("notes", ""),
            },
        )
    return redirect(site, f"/travel/bookings/{ref}?booked=1")


def _stay(query: dict[str, str], today: date) -> tuple[date | None, date | None, list[str]]:
    """Check-in and check-out from a form or query, with what is wrong with them."""
    check_in, check_out = parse_day(query.get("check_in", "")), parse_day(query.get("check_out", ""))
    errors = []
    if check_in is None:
        errors.append("Enter a check-in date (YYYY-MM-DD).")
    if check_out is None:
        errors.append("Enter a check-out date (YYYY-MM-DD).")
    if check_in and check_out and check_out <= check_in:
        errors.append("The check-out date must be after the check-in date.")
    if check_in and check_in < today:
        errors.append(f"The check-in date {check_in.isoformat()} is in the past.")
    return check_in, check_out, errors


async def hotels(request: Request) -> Response:
    site = site_of(request, APP)
    query = {k: request.query_params.get(k, "").strip() for k in ("city", "check_in", "check_out")}
    check_in, check_out, errors = _stay(query, site.today())
    nights = (check_out - check_in).days if check_in and check_out and not errors else 0
    with site.db(APP) as conn:
        found = []
        if not errors:
            found = [
                row
                for row in conn.execute("SELECT * FROM hotels ORDER BY price, name")
                if _matches(row["city"], query["city"])
            ]
        return page(
            site,
            APP,
            "travel/hotels.html",
            422 if errors else 200,
            hotels=found,
            query=query,
            nights=nights,
            errors=errors,
            **_choices(conn),
        )


def _hotel(conn: sqlite3.Connection, hotel_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM hotels WHERE id = ?", (hotel_id,)).fetchone()


async def hotel(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _hotel(conn, request.path_params["hotel"])
        if row is None:
            return not_found(site, APP, "hotel")
        form = {
            "check_in": request.query_params.get("check_in", ""),
            "check_out": request.query_params.get("check_out", ""),
            "guest": site.user_name,
            "notes": "",
        }
        return page(site, APP, "travel/hotel.html", hotel=row, form=form)


async def book_hotel(request: Request) -> Response:
    site = site_of(request, APP)
    form = await form_of(request)
    with site.db(APP) as conn:
        row = _hotel(conn, request.path_params["hotel"])
        if row is None:
            return not_found(site, APP, "hotel")
        check_in, check_out, errors = _stay(form, site.today())
        if not form.get("guest"):
            errors.append("Enter the guest's full name.")
        if errors or check_in is None or check_out is None:
            return page(site, APP, "travel/hotel.html", 422, hotel=row, form=form, errors=errors)
        ref = _insert(
            conn,
            site,
            {
                "kind": "hotel",
                "item": row["id"],
                "traveller": form["guest"],
                "cabin": None,
                "check_in": check_in.isoformat(),
                "check_out": check_out.isoformat(),
                "total": row["price"] * (check_out - check_in).days,
                "currency": row["currency"],
                "notes": form.get("notes", ""),
            },
        )
    return redirect(site, f"/travel/bookings/{ref}?booked=1")


def _describe(conn: sqlite3.Connection, booking: sqlite3.Row) -> dict[str, Any]:
    """A booking with what it is for: the flight or the hotel."""
    item = (_flight if booking["kind"] == "flight" else _hotel)(conn, booking["item"])
    start = booking["check_in"] or (item["depart"][:10] if item is not None else "")
    return {"booking": booking, "item": item, "start": start}


async def bookings(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        trips = [_describe(conn, b) for b in conn.execute("SELECT * FROM bookings ORDER BY rowid DESC")]
        return page(site, APP, "travel/bookings.html", trips=trips)


def _cancellable(site: Site, trip: dict[str, Any]) -> bool:
    return trip["booking"]["status"] == "confirmed" and bool(trip["start"]) and trip["start"] > site.today().isoformat()


async def booking(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT * FROM bookings WHERE id = ?", (request.path_params["ref"],)).fetchone()
        if row is None:
            return not_found(site, APP, "booking")
        trip = _describe(conn, row)
        notice = ""
        if request.query_params.get("booked"):
            notice = f"Booking confirmed. Your booking reference is {row['id']}."
        elif request.query_params.get("cancelled"):
            notice = f"Booking {row['id']} has been cancelled."
        return page(site, APP, "travel/booking.html", notice=notice, cancellable=_cancellable(site, trip), **trip)


async def cancel(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT * FROM bookings WHERE id = ?", (request.path_params["ref"],)).fetchone()
        if row is None:
            return not_found(site, APP, "booking")
        trip = _describe(conn, row)
        if not _cancellable(site, trip):
            why = "It is already cancelled." if row["status"] == "cancelled" else "The trip has already started."
            errors = [f"Booking {row['id']} cannot be cancelled. {why}"]
            return page(site, APP, "travel/booking.html", 422, errors=errors, cancellable=False, **trip)
        conn.execute("UPDATE bookings SET status = 'cancelled' WHERE id = ?", (row["id"],))
    return redirect(site, f"/travel/bookings/{row['id']}?cancelled=1")


routes = [
    Route("/", home),
    Route("/flights", flights),
    Route("/flights/{flight}", flight),
    Route("/flights/{flight}/book", book_flight, methods=["POST"]),
    Route("/hotels", hotels),
    Route("/hotels/{hotel}", hotel),
    Route("/hotels/{hotel}/book", book_hotel, methods=["POST"]),
    Route("/bookings", bookings),
    Route("/bookings/{ref}", booking),
    Route("/bookings/{ref}/cancel", cancel, methods=["POST"]),
]
