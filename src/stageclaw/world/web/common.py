"""What the web apps share: the site of a request, page rendering, money and dates, form parsing, new ids."""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

import jinja2
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse

from stageclaw.world.web.data import Site

APP_NAMES = {"travel": "Skyway Travel", "expenses": "Expensely", "intranet": "Northwind Intranet"}
APP_BLURBS = {
    "travel": "Search and book flights and hotels; see and cancel your trips.",
    "expenses": "File expense reports for work costs; edit, submit or withdraw them.",
    "intranet": "Company news, the staff directory and meeting-room reservations.",
}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CNY": "¥", "JPY": "¥"}


def site_of(request: Request, app: str | None = None) -> Site:
    """The site the URL's token names; 404 for an unknown token or an app this world does not have."""
    site: Site | None = request.app.state.sites.get(request.path_params.get("token", ""))
    if site is None or (app is not None and app not in site.apps):
        raise HTTPException(404)
    return site


def money(value: int | None, currency: str | None) -> str:
    if value is None:
        return ""
    symbol = SYMBOLS.get(currency or "", f"{currency} ")
    return f"{symbol}{value / 100:,.2f}"


def day_text(value: str | date | None) -> str:
    if not value:
        return ""
    parsed = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    return parsed.strftime("%a %-d %b %Y")


def clock_text(value: str | None) -> str:
    return datetime.fromisoformat(value).strftime("%H:%M") if value else ""


def when_text(value: str | None) -> str:
    return f"{day_text(value)}, {clock_text(value)}" if value else ""


ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("stageclaw.world.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENV.filters.update(money=money, day=day_text, clock=clock_text, when=when_text)


def page(site: Site, app: str | None, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = ENV.get_template(template).render(
        site=site,
        base=site.base,
        app=app,
        app_name=APP_NAMES.get(app or "", "Start page"),
        app_names=APP_NAMES,
        errors=context.pop("errors", []),
        notice=context.pop("notice", ""),
        **context,
    )
    return HTMLResponse(html, status)


def redirect(site: Site, path: str) -> RedirectResponse:
    """After a successful form post: See Other, so reloading the page never posts twice."""
    return RedirectResponse(site.base + path, status_code=303)


def not_found(site: Site, app: str, what: str) -> HTMLResponse:
    return page(site, app, "not_found.html", 404, what=what)


async def form_of(request: Request) -> dict[str, str]:
    form = await request.form()
    return {key: str(value).strip() for key, value in form.items() if isinstance(value, str)}


def parse_day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def parse_clock(text: str) -> time | None:
    try:
        return time.fromisoformat(text.strip())
    except ValueError:
        return None


def parse_amount(text: str) -> int | None:
    """`84.50`, `84,50` or `1,290.00` in cents; None for anything else."""
    text = text.strip().replace(" ", "")
    if text.count(",") == 1 and "." not in text and len(text.split(",")[1]) in (1, 2):
        text = text.replace(",", ".")
    text = text.replace(",", "")
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.01")):
        return None
    return int(value * 100)


def sequence_id(conn: sqlite3.Connection, table: str, prefix: str) -> str:
    """The next free `PREFIX-1001`-style id of a table, the same in every episode of a world."""
    n = 1001 + conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    while conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (f"{prefix}-{n}",)).fetchone():
        n += 1
    return f"{prefix}-{n}"


_REF_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def booking_reference(conn: sqlite3.Connection, table: str) -> str:
    """A six-character reference like `K7QX2P`, derived from the table size so trials agree."""
    n = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    while True:
        digest = hashlib.sha256(f"{table}-{n}".encode()).digest()
        ref = "".join(_REF_ALPHABET[b % len(_REF_ALPHABET)] for b in digest[:6])
        if not conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", (ref,)).fetchone():
            return ref
        n += 1
