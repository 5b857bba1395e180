"""Expensely: the company expense portal. File a report per expense; edit, submit or withdraw it."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from stageclaw.world import canonical
from stageclaw.world.model import EXPENSE_CATEGORIES
from stageclaw.world.web.common import (
    Site,
    form_of,
    not_found,
    page,
    parse_amount,
    parse_day,
    redirect,
    sequence_id,
    site_of,
)

APP = "expenses"
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "CNY", "JPY", "SGD", "HKD")
EDITABLE = ("draft", "submitted")
FIELDS = ("date", "merchant", "category", "amount", "currency", "description", "receipt")


def _report(conn: sqlite3.Connection, report_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM reports WHERE id = ?", (report_id,)).fetchone()


async def reports(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        rows = conn.execute("SELECT * FROM reports ORDER BY date DESC, id DESC").fetchall()
    deleted = request.query_params.get("deleted", "")
    notice = f"Draft {deleted} was deleted." if deleted else ""
    return page(site, APP, "expenses/list.html", reports=rows, notice=notice)


async def policy(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = conn.execute("SELECT value FROM settings WHERE key = 'policy'").fetchone()
    return page(site, APP, "expenses/policy.html", policy=row[0] if row else "")


def _form_page(
    site: Site, form: dict[str, str], report: sqlite3.Row | None, status: int = 200, errors: list[str] | None = None
) -> Response:
    return page(
        site,
        APP,
        "expenses/form.html",
        status,
        form=form,
        report=report,
        categories=EXPENSE_CATEGORIES,
        currencies=CURRENCIES,
        errors=errors or [],
    )


async def new(request: Request) -> Response:
    site = site_of(request, APP)
    form = dict.fromkeys(FIELDS, "") | {"currency": CURRENCIES[0]}
    return _form_page(site, form, None)


def _check(site: Site, form: dict[str, str], submitting: bool) -> tuple[dict[str, object], list[str]]:
    """The report's columns from a form, and what is wrong with it."""
    errors = []
    day = parse_day(form.get("date", ""))
    if day is None:
        errors.append("Enter the date of the expense (YYYY-MM-DD).")
    elif day > site.today():
        errors.append(f"The date {day.isoformat()} is in the future; enter the day you paid.")
    if not form.get("merchant"):
        errors.append("Enter the merchant (who you paid).")
    if form.get("category") not in EXPENSE_CATEGORIES:
        errors.append(f"Choose a category: {', '.join(EXPENSE_CATEGORIES)}.")
    cents = parse_amount(form.get("amount", ""))
    if cents is None:
        errors.append(f"Amount '{form.get('amount', '')}' is not valid: enter a positive number like 84.50.")
    if form.get("currency") not in CURRENCIES:
        errors.append(f"Choose a currency: {', '.join(CURRENCIES)}.")
    if submitting and not form.get("receipt"):
        errors.append("A receipt reference is required to submit (a receipt number or file name); or save a draft.")
    values = {
        "date": day.isoformat() if day else None,
        "merchant": form.get("merchant", ""),
        "category": form.get("category", ""),
        "amount": cents,
        "currency": form.get("currency", ""),
        "description": form.get("description", ""),
        "receipt": form.get("receipt", ""),
    }
    return values, errors


async def create(request: Request) -> Response:
    site = site_of(request, APP)
    form = await form_of(request)
    submitting = form.get("action") != "draft"
    values, errors = _check(site, form, submitting)
    if errors:
        return _form_page(site, form, None, 422, errors)
    with site.db(APP) as conn:
        report_id = sequence_id(conn, "reports", "EXP")
        row = {
            "id": report_id,
            **values,
            "status": "submitted" if submitting else "draft",
            "submitted_at": canonical.when(site.now(), site.tz) if submitting else None,
            "review_note": "",
        }
        conn.execute(
            f"INSERT INTO reports ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})", tuple(row.values())
        )
    return redirect(site, f"/expenses/{report_id}?saved={'submitted' if submitting else 'draft'}")


NOTICES = {
    "submitted": "Expense report {id} was submitted for approval.",
    "draft": "Draft {id} was saved. Submit it when it is complete.",
    "updated": "Expense report {id} was updated.",
    "withdrawn": "Expense report {id} was withdrawn.",
}


async def report(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
    if row is None:
        return not_found(site, APP, "expense report")
    notice = NOTICES.get(request.query_params.get("saved", ""), "").format(id=row["id"])
    return page(site, APP, "expenses/report.html", report=row, notice=notice, editable=row["status"] in EDITABLE)


async def edit(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
    if row is None:
        return not_found(site, APP, "expense report")
    if row["status"] not in EDITABLE:
        return _refused(site, row, [f"Report {row['id']} is {row['status']} and can no longer be changed."])
    form = {f: str(row[f] or "") for f in FIELDS} | {"amount": f"{row['amount'] / 100:.2f}"}
    return _form_page(site, form, row)


async def update(request: Request) -> Response:
    site = site_of(request, APP)
    form = await form_of(request)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
        if row is None:
            return not_found(site, APP, "expense report")
        if row["status"] not in EDITABLE:
            return _refused(site, row, [f"Report {row['id']} is {row['status']} and can no longer be changed."])
        submitting = row["status"] == "submitted" or form.get("action") == "submit"
        values, errors = _check(site, form, submitting)
        if errors:
            return _form_page(site, form, row, 422, errors)
        if submitting and row["status"] == "draft":
            values |= {"status": "submitted", "submitted_at": canonical.when(site.now(), site.tz)}
        sets = ", ".join(f"{column} = ?" for column in values)
        conn.execute(f"UPDATE reports SET {sets} WHERE id = ?", (*values.values(), row["id"]))
    saved = "submitted" if submitting and row["status"] == "draft" else "updated"
    return redirect(site, f"/expenses/{row['id']}?saved={saved}")


async def submit(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
        if row is None:
            return not_found(site, APP, "expense report")
        errors = []
        if row["status"] != "draft":
            errors.append(f"Only a draft can be submitted; {row['id']} is {row['status']}.")
        elif not row["receipt"]:
            errors.append("A receipt reference is required to submit: edit the draft and add it first.")
        if errors:
            return _refused(site, row, errors)
        stamp = canonical.when(site.now(), site.tz)
        conn.execute("UPDATE reports SET status = 'submitted', submitted_at = ? WHERE id = ?", (stamp, row["id"]))
    return redirect(site, f"/expenses/{row['id']}?saved=submitted")


def _refused(site: Site, row: sqlite3.Row, errors: list[str]) -> Response:
    """The report page again, with what was wrong (HTTP 422, nothing changed)."""
    return page(site, APP, "expenses/report.html", 422, report=row, editable=row["status"] in EDITABLE, errors=errors)


async def withdraw(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
        if row is None:
            return not_found(site, APP, "expense report")
        if row["status"] != "submitted":
            errors = [f"Only a submitted report can be withdrawn; {row['id']} is {row['status']}."]
            return _refused(site, row, errors)
        conn.execute("UPDATE reports SET status = 'withdrawn' WHERE id = ?", (row["id"],))
    return redirect(site, f"/expenses/{row['id']}?saved=withdrawn")


async def delete(request: Request) -> Response:
    site = site_of(request, APP)
    with site.db(APP) as conn:
        row = _report(conn, request.path_params["report"])
        if row is None:
            return not_found(site, APP, "expense report")
        if row["status"] != "draft":
            errors = [f"Only drafts can be deleted; {row['id']} is {row['status']} (withdraw it instead)."]
            return _refused(site, row, errors)
        conn.execute("DELETE FROM reports WHERE id = ?", (row["id"],))
    return redirect(site, f"/expenses/?deleted={row['id']}")


routes = [
    Route("/", reports),
    Route("/policy", policy),
    Route("/new", new),
    Route("/new", create, methods=["POST"]),
    Route("/{report}", report),
    Route("/{report}/edit", edit),
    Route("/{report}/edit", update, methods=["POST"]),
    Route("/{report}/submit", submit, methods=["POST"]),
    Route("/{report}/withdraw", withdraw, methods=["POST"]),
    Route("/{report}/delete", delete, methods=["POST"]),
]
