"""contract-renewals: read each agreement (and the amendment), count its notice deadline back from the end of
its term or its next renewal, set a reminder on the Friday before (the working day before a holiday Friday),
mail the cancellations to each contract's notices address (but one the provider already confirmed; again where
its automatic reply names another address), fill in
the note's table, and take the cancelled contracts off the household budget with its monthly figure re-added."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author.content.text import MONTHS
from stageclaw.author.solutionlib import redirected

FACTS: dict[str, Any] = {}
WORDS = {"one": 1, "two": 2, "three": 3}


def _when(text: str) -> date:
    """'14 April 2026' or 'April 14 2026' as a date."""
    words = text.replace(",", " ").split()
    month = next(n for n, name in enumerate(MONTHS, 1) if name in words)
    day, year = (int(w) for w in words if w.isdigit())
    return date(year, month, day)


def _months(on: date, months: int) -> date:
    index = on.year * 12 + on.month - 1 + months
    return on.replace(year=index // 12, month=index % 12 + 1)


def _field(content: str, label: str) -> str | None:
    found = re.search(rf"^{label}: (.+)$", content, re.MULTILINE)
    return found.group(1).strip() if found else None


def _agreements(tools: Any) -> tuple[list[dict[str, Any]], dict[str, date]]:
    """The current agreements in the folder (the replaced ones left out), and the new end of each amended one."""
    f = FACTS
    found, amended, replaced = [], {}, set()
    for entry in tools.files_list(path=f["folder"])["entries"]:
        if entry["type"] != "file":
            continue
        content = tools.files_read(path=entry["path"])["content"]
        lines = [line for line in content.splitlines() if line.strip() and not line.startswith(("[page", "# "))]
        title = next(line for line in content.splitlines() if line.strip() and not line.startswith("[page"))
        title = title.lstrip("# ").strip()
        if "Amendment" in title:
            number = re.search(r"amends agreement (\S+) of", content).group(1)
            amended[number] = _when(re.search(r"now ends on (.+?)\.", content).group(1))
            continue
        label = next((label for label, kind in f["labels"].items() if kind in title), None)
        if label is None:
            continue  # a price list or terms of use, not an agreement
        gone = re.search(r"replaces agreement (\S+),", content)
        if gone:
            replaced.add(gone.group(1))
        number_line = next(
            line for line in lines if re.match(r"^(Account|Agreement|Membership|Policy|Licence) number", line)
        )
        found.append(
            {
                "label": label,
                "brand": title.split(":")[0].strip(),
                "number": number_line.split(": ", 1)[1].strip(),
                "content": content,
                "path": entry["path"],
            }
        )
    return [a for a in found if a["number"] not in replaced], amended


def _deadline(agreement: dict[str, Any], amended: dict[str, date], today: date) -> tuple[date, date]:
    """(the last day of the current term, the last day to give notice): notice is counted back from the term's
    end or from the renewal date."""
    content = agreement["content"]
    start = _field(content, "Start date")
    if start is not None:
        months = int(re.search(r"Minimum term: (\d+) months", content).group(1))
        base = amended.get(agreement["number"]) or _months(_when(start), months) - timedelta(days=1)
        last = base
    else:
        renews = re.search(r"renews automatically on (.+?) each year", content).group(1)
        base = _when(f"{renews} {today.year}")
        while base <= today:
            base = base.replace(year=base.year + 1)
        last = base - timedelta(days=1)
    days = re.search(r"at least (\d+) days|up to (\d+) days", content)
    if days:
        return last, base - timedelta(days=int(days.group(1) or days.group(2)))
    months = re.search(r"at least (one|two|three) months?", content).group(1)
    return last, _months(base, -WORDS[months])


def _reminder_day(deadline: date, holidays: set[date]) -> date:
    """The Friday before the deadline; on a holiday, the working day before it."""
    day = deadline - timedelta(days=(deadline.weekday() - 4) % 7 or 7)
    while day in holidays or day.weekday() >= 5:
        day -= timedelta(days=1)
    return day


def _holidays(tools: Any, today: date) -> set[date]:
    events = tools.calendar_list_events(
        start=today.isoformat(), end=(today + timedelta(days=400)).isoformat(), calendar=FACTS["holidays"], limit=200
    )["events"]
    return {date.fromisoformat(e["start"][:10]) for e in events}


def _decisions(tools: Any) -> tuple[dict[str, Any], dict[str, bool]]:
    note = tools.notes_search(query=FACTS["note"])["notes"][0]
    decided = {}
    for label in FACTS["labels"]:
        line = re.search(rf"^- {re.escape(label)}: (cancel|keep)", note["body"], re.MULTILINE)
        decided[label] = line.group(1) == "cancel"
    return note, decided


def _notices(tools: Any, agreement: dict[str, Any]) -> str:
    """The address the agreement names for notices, or the one its welcome mail gives."""
    named = re.search(r"Notices: by email to ([^\s,]+@[^\s,]+),", agreement["content"])
    if named:
        return named.group(1)
    hit = tools.mail_search(subject=f"Welcome to {agreement['brand']}")["messages"][0]
    body = tools.mail_read(id=hit["id"])["body"]
    return re.search(r"email ([^\s:]+@[^\s:]+):", body).group(1)


def _confirmed(tools: Any, agreement: dict[str, Any]) -> bool:
    """Whether the provider already confirmed a notice for this agreement (the user sent it earlier)."""
    hits = tools.mail_search(folder="INBOX", text=agreement["number"])["messages"]
    return any("notice" in (m.get("subject") or "").lower() for m in hits)


def _plan(tools: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    today = datetime.fromisoformat(tools.now()["now"]).date()
    note, decided = _decisions(tools)
    agreements, amended = _agreements(tools)
    holidays = _holidays(tools, today)
    for a in agreements:
        a["ends"], a["deadline"] = _deadline(a, amended, today)
        a["reminder"] = _reminder_day(a["deadline"], holidays)
        a["cancel"] = decided[a["label"]]
        a["done"] = a["cancel"] and _confirmed(tools, a)
    return note, sorted(agreements, key=lambda a: a["deadline"])


def _budget(tools: Any, agreements: list[dict[str, Any]], mark: str | None = None) -> None:
    """Take the cancelled contracts off the budget note (or, with `mark`, strike them through and say so), and
    write the sum of the lines left as its monthly figure."""
    if not FACTS.get("budget"):
        return
    note = next(n for n in tools.notes_search(query=FACTS["budget"])["notes"] if n["title"] == FACTS["budget"])
    gone = [a["brand"] for a in agreements if a["cancel"]]
    lines, left = [], 0
    for line in note["body"].splitlines():
        amount = re.search(r"(\d[\d,]*\.\d{2})", line)
        if line.startswith("- ") and amount:
            if any(brand in line for brand in gone):
                if mark is not None:
                    lines.append(f"- ~~{line[2:]}~~ {mark}")
                continue
            left += round(float(amount.group(1).replace(",", "")) * 100)
        elif line.startswith("Monthly outgoings:") and amount:
            written = f"{left / 100:,.2f}" if mark is not None else f"{left / 100:.2f}"
            line = line.replace(amount.group(1), written)
        lines.append(line)
    tools.notes_update(uid=note["uid"], body="\n".join(lines) + "\n")


def _show(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def _table(tools: Any, note: dict[str, Any], rows: list[str]) -> None:
    body = note["body"].rstrip("\n") + "\n" + "\n".join(rows) + "\n"
    tools.notes_update(uid=note["uid"], body=body)


def solve(tools):
    note, agreements = _plan(tools)
    for a in agreements:
        if a["done"]:
            continue
        tools.reminders_create(
            title=f"{a['brand']}: notice deadline on {a['deadline']:%A}",
            list="Reminders",
            due=f"{a['reminder'].isoformat()}T09:00",
            notes="Cancelled: check the confirmation came." if a["cancel"] else "Keeping it: check the new price.",
        )
    for a in agreements:
        if a["cancel"] and not a["done"]:
            body = (
                f"Hello,\n\nPlease cancel my agreement {a['number']} at the end of its current term and confirm "
                "the cancellation in writing.\n\nThank you"
            )
            sent = tools.mail_send(to=[_notices(tools, a)], subject=f"Cancellation of {a['number']}", body=body)
            for mid, instead in redirected(tools, [sent["message_id"]]).items():  # forwarded where it says
                [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
                tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs your automatic reply asked.")
    rows = [
        f"| {a['label']} | {a['brand']} | {a['number']} | {_show(a['ends'])} | {_show(a['deadline'])} | "
        f"{'cancel (notice sent)' if a['cancel'] else 'keep'} |"
        for a in agreements
    ]
    _table(tools, note, rows)
    _budget(tools, agreements)


def solve_by_contract(tools):
    """One contract at a time (reminder, then cancellation), dates as ISO in the table, the reminder on the
    day without a time, titled by what the contract is; the budget's cancelled lines struck through and marked."""
    note, agreements = _plan(tools)
    rows = []
    for a in agreements:
        decision = "Cancelled" if a["cancel"] else "Keep"
        rows.append(
            f"| {a['label']} | {a['brand']} | {a['number']} | {a['ends'].isoformat()} | {a['deadline'].isoformat()} "
            f"| {decision} |"
        )
        if a["done"]:
            continue
        tools.reminders_create(
            title=f"{a['label']} ({a['brand']}): last chance to give notice on {a['deadline'].isoformat()}",
            list="Reminders",
            due=a["reminder"].isoformat(),
        )
        if a["cancel"]:
            body = (
                f"Dear {a['brand']},\n\nI am writing to give notice that I am terminating my contract "
                f"({a['number']}). Please confirm.\n\nKind regards"
            )
            notices = _notices(tools, a)
            sent = tools.mail_send(to=[notices], subject="Notice of termination", body=body)
            for instead in redirected(tools, [sent["message_id"]]).values():  # written again, the first in copy
                tools.mail_send(to=[instead], cc=[notices], subject="Notice of termination", body=body)
    _table(tools, note, rows)
    _budget(tools, agreements, mark="(cancelled)")


def solve_plain_rows(tools):
    """Cancels first, writes the table before the reminders, and writes dates the way the region does on
    paper (14/05/2026, or 05/14/2026 where months come first)."""
    note, agreements = _plan(tools)
    _budget(tools, agreements)
    for a in agreements:
        if a["cancel"] and not a["done"]:
            body = f"Hi,\n\nI'd like to cancel {a['label'].lower()} agreement {a['number']}, please.\n\nThanks"
            sent = tools.mail_send(to=[_notices(tools, a)], subject=f"Cancel {a['number']}", body=body)
            for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to that address
                tools.mail_send(to=[instead], subject=f"Cancel {a['number']}", body=body)

    def paper(day: date) -> str:
        return f"{day:%m/%d/%Y}" if FACTS["month_first"] else f"{day:%d/%m/%Y}"

    rows = [
        f"| {a['label']} | {a['brand']} | {a['number']} | {paper(a['ends'])} | {paper(a['deadline'])} | "
        f"{'Cancelling' if a['cancel'] else 'Keeping it'} |"
        for a in agreements
    ]
    _table(tools, note, rows)
    for a in agreements:
        if a["done"]:
            continue
        tools.reminders_create(
            title=f"Notice for {a['brand']} due {paper(a['deadline'])}", due=a["reminder"].isoformat()
        )
