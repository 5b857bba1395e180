"""The files, notes and reminders of a `volume.Life`.

Files sit in the folders people keep: invoices by year, bank statements, contracts, spreadsheets,
project folders, meeting notes, recipes. A month's invoice or statement shows the same amount and
dates as the mail that announced it (one ledger entry), and meeting notes exist only for meetings
that took place.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author.content.files import csv_text, pdf, png
from stageclaw.author.content.people import slug
from stageclaw.author.content.volume import Life, payments


class Shelf(list[str]):
    """The paths of the files added, up to `limit` of them."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit


def _put(life: Life, path: str, content: str | bytes, out: list[str]) -> None:
    if isinstance(out, Shelf) and len(out) >= out.limit:
        return
    if not life.avoid.path(path) or path in life.draft.files or not life.avoid.text(path):
        return
    if isinstance(content, str) and not life.avoid.text(content):
        return
    if isinstance(content, bytes):
        life.draft.add_file(path, content)
    else:
        life.draft.files[path] = {"text": content}
    out.append(f"files/{path}")


def _months(life: Life) -> list[date]:
    return sorted({date.fromisoformat(f"{period}-01") for _, period in life.ledger})


def _document(
    life: Life, path: str, title: str, fields: tuple[tuple[str, str], ...], values: dict[str, Any], out: list[str]
) -> None:
    rows = [(label, value.format(**values)) for label, value in fields]
    if life.t.DOCUMENT == "pdf":
        _put(life, f"{path}.pdf", pdf(title, [f"{label}: {value}" for label, value in rows]), out)
    else:
        _put(life, f"{path}.csv", csv_text(("项目", "内容"), rows), out)


def _ledger_documents(life: Life, out: list[str]) -> None:
    t, user = life.t, life.user
    for (vendor, period), value in sorted(life.ledger.items()):
        month = date.fromisoformat(f"{period}-01")
        after = (month + timedelta(days=32)).replace(day=1)
        kind = next((v[2] for v in life.vendors if v[0] == vendor), "")
        values = {"customer": user.name, "period": life._month(month), "amount": life._money(value)}
        if kind == "utility":
            values |= {
                "number": f"{slug(vendor)[:3].upper() or 'INV'}-{month:%Y%m}-{int(value * 100) % 9000 + 1000}",
                "day": life._day_text(after + timedelta(days=8)),
                "due": life._day_text(after + timedelta(days=24)),
            }
            path = f"{t.FOLDERS['invoices'].format(year=month.year)}/{vendor}-{month:%Y-%m}"
            _document(life, path, f"{vendor}: {t.INVOICE}", t.INVOICE_FIELDS, values, out)
        elif kind == "bank":
            values["count"] = payments(value)
            path = f"{t.FOLDERS['statements']}/{vendor} {month:%Y-%m}"
            _document(life, path, f"{vendor}: {values['period']}", t.STATEMENT_FIELDS, values, out)


def _budget(life: Life, out: list[str]) -> None:
    rows: list[list[Any]] = []
    for (vendor, period), value in sorted(life.ledger.items()):
        if any(v[0] == vendor and v[2] == "utility" for v in life.vendors):
            rows.append([period, vendor, f"{value:.{len(str(value).partition('.')[2])}f}", life.region.currency])
    if rows:
        year = rows[-1][0][:4]
        _put(
            life,
            f"{life.t.FOLDERS['spreadsheets']}/{life.t.BUDGET.format(year=year)}",
            csv_text(life.t.BUDGET_HEADER, rows),
            out,
        )


def _meetings(life: Life) -> list[tuple[datetime, dict[str, Any]]]:
    """(start, event) of the work meetings that took place, most recent first."""
    from stageclaw.world import recurrence

    found = []
    for event in life.events:
        if event["template"] not in life.t.MINUTED:
            continue
        start = datetime.fromisoformat(event["start"])
        if "rrule" not in event:
            if start < life.now:
                found.append((start, event))
            continue
        skipped = set(event.get("exdates", [])) | {
            o["recurrence_id"] for o in event.get("overrides", []) if o.get("status") == "CANCELLED"
        }
        for when in recurrence.starts(event["rrule"], start, life.tz, until=life.now):
            if isinstance(when, datetime) and when.isoformat() not in skipped and when >= life.start:
                found.append((when, event))
    return sorted(found, key=lambda f: f[0], reverse=True)


def _meeting_note(life: Life, when: datetime, event: dict[str, Any]) -> tuple[str, str]:
    rng, t = life.rng, life.t
    cast = life.ensure_cast()
    people = [life.user, *rng.sample(cast.colleagues, min(3, len(cast.colleagues)))]
    points = rng.sample(t.MEETING_POINTS, 2)
    text = t.MEETING_NOTE.format(
        title=event["summary"],
        date=life._day_text(when.date()),
        people=", ".join(p.display for p in people),
        point=points[0],
        point2=points[1],
        action=rng.choice(t.MEETING_ACTIONS).format(who=rng.choice(people[1:]).first),
    )
    return f"{when:%Y-%m-%d} {event['summary']}", text


def files(life: Life, n: int) -> list[str]:
    """About `n` files in the user's folders."""
    rng, t, out = life.rng, life.t, Shelf(n)
    _ledger_documents(life, out)
    _budget(life, out)
    for name, title, lines in t.CONTRACTS:
        _put(life, f"{t.FOLDERS['contracts']}/{name}", pdf(title, [*lines, life.user.name]), out)
    for name, title, lines in t.INSURANCE:
        _put(life, f"{t.FOLDERS['insurance']}/{name}", pdf(title, [*lines, life.user.name]), out)
    for table, folder in ((t.RECIPES, "recipes"), (t.TRAVEL_NOTES, "travel"), (t.NOTE_FILES, "notes")):
        for name, text in table:
            _put(life, f"{t.FOLDERS[folder]}/{name}", text, out)
    for project in rng.sample(t.PROJECTS, 3):
        folder = t.FOLDERS["projects"].format(project=project)
        _put(life, f"{folder}/{t.OVERVIEW}", t.SPEC.format(project=project, goal=rng.choice(t.GOALS)), out)
        start = life.start.date() + timedelta(days=rng.randint(0, 60))
        rows = [
            [step, (start + timedelta(weeks=4 * i + rng.randint(0, 2))).isoformat()]
            for i, step in enumerate(t.MILESTONES)
        ]
        _put(life, f"{folder}/{t.TIMELINE}", csv_text(t.TIMELINE_HEADER, rows), out)
    for purchase in life.purchases[::2]:  # the receipts the user kept
        values = {**purchase, "customer": life.user.name}
        path = f"{t.FOLDERS['downloads']}/{t.RECEIPT.format(**values)}"
        _document(life, path, f"{purchase['vendor']}: {t.RECEIPT.format(**values)}", t.RECEIPT_FIELDS, values, out)
    for when, event in _meetings(life):
        if len(out) >= n:
            break
        name, text = _meeting_note(life, when, event)
        _put(life, f"{t.FOLDERS['meetings']}/{name}.md", text, out)
    for _ in range(2 * (n - len(out))):  # screenshots fill the rest, as they do on most computers
        if len(out) >= n:
            break
        moment = life._at(
            life.start.date() + timedelta(days=rng.randint(0, (life.now - life.start).days)),
            rng.randint(8, 22),
            rng.randint(0, 59),
        ).replace(second=rng.randint(0, 59))
        if moment < life.now:
            image = png(
                rng.choice((16, 24, 32)),
                rng.choice((10, 18)),
                (rng.randrange(256), rng.randrange(256), rng.randrange(256)),
            )
            _put(life, f"{t.FOLDERS['screenshots']}/{t.SCREENSHOT.format(moment=moment)}", image, out)
    return list(out)


def notes(life: Life, n: int) -> list[str]:
    """About `n` notes: lists and ideas, then the notes of recent meetings."""
    rng, t, out = life.rng, life.t, []
    cast = life.ensure_cast()
    folder, work = t.NOTE_FOLDERS
    for title, body in t.NOTES[:n]:
        note = {
            "uid": life.draft.uid("n", title if not life.zh else "note"),
            "title": title,
            "body": body.format(who=rng.choice(cast.friends).first),
        }
        if life.avoid.text(title, note["body"]):
            life.draft.add_note(folder, note)
            out.append(f"notes/{folder}/{note['uid']}")
    for when, event in _meetings(life):
        if len(out) >= n:
            break
        title, text = _meeting_note(life, when, event)
        if not life.avoid.text(title):
            continue
        note = {
            "uid": life.draft.uid("n", title if not life.zh else "meeting"),
            "title": title,
            "body": text,
            "tags": [t.MEETING_TAG],
        }
        life.draft.add_note(work, note)
        out.append(f"notes/{work}/{note['uid']}")
    return out


def reminders(life: Life, n: int) -> list[str]:
    """Up to `n` reminders over the user's lists: some done, some overdue, most ahead."""
    rng, t, out = life.rng, life.t, []
    pool = [(lst, title) for lst in t.REMINDER_LISTS for title in t.REMINDERS[lst]]
    rng.shuffle(pool)
    for lst, title in pool[:n]:
        if not life.avoid.text(title):
            continue
        todo: dict[str, Any] = {"uid": life.draft.uid("r", title if not life.zh else "todo"), "title": title}
        roll = rng.random()
        if roll < 0.25:
            done = life._working_time(life.now - timedelta(days=rng.randint(2, 60)))
            todo |= {"completed": True, "completed_at": done.isoformat()}
        if lst != t.REMINDER_LISTS[1] and roll > 0.15:
            due = life.now.date() + timedelta(days=rng.randint(-5, 40))
            due = life.business.on_or_after(due) if due.year in (2025, 2026, 2027) else due
            if life.avoid.day(due):
                todo["due"] = due.isoformat()
        if rng.random() < 0.2:
            todo["priority"] = rng.choice((1, 5, 9))
        life.draft.add_reminder(lst, todo)
        out.append(f"reminders/{lst}/{todo['uid']}")
    return out
