"""Alternative solution 'keep_the_copy' for invoice-filing-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re


FACTS = {'rules_title': 'Filing rules (business)',
 'pattern_words': '<invoice date> <vendor> <invoice no>',
 'folder': 'Finance/Invoices',
 'bills': 'Bills',
 'cancel_words': ['disregard', 'cancelled', 'ignore the earlier']}
NUMBER = r"INV-\d{4}-\d{4}"


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _indexes(tools, state, new, header=("date", "vendor", "invoice", "amount"), total=False):
    """Each year's index with its earlier rows and the new invoices of that year."""
    f = FACTS
    by_year: dict[str, list[list[str]]] = {}
    for year, rows in state["indexes"].items():
        by_year[year] = [[r["date"], r["vendor"], r["invoice"], r["amount"]] for r in rows]
    for _, number, vendor, when, _, amount in new:
        by_year.setdefault(when[:4], []).append([when, vendor, number, amount])
    for year, rows in sorted(by_year.items()):
        rows.sort()
        order = [("date", "vendor", "invoice", "amount").index(h) for h in header]
        table = [[r[i] for i in order] for r in rows]
        if total:
            amount_at = header.index("amount")
            row = [""] * len(header)
            row[amount_at] = f"{sum(float(r[3]) for r in rows):.2f}"
            row[header.index("vendor")] = "Total"
            table.append(row)
        tools.files_write(path=f"{f['folder']}/{year}/index.csv", content=csv_text(list(header), table))


def _target(number, vendor, when):
    return f"{FACTS['folder']}/{when[:4]}/{when} {vendor} {number}.pdf"


def _reminders(tools, state, new, replace=False):
    """One open "Pay" reminder per new invoice: the open one of a cancelled invoice of the same vendor, or one the
    user wrote in another list naming the vendor's first word, is changed and moved to Bills (or, with `replace`,
    deleted and made anew)."""
    f = FACTS
    for _, number, vendor, _, due, _ in new:
        title = f"Pay {vendor} {number}"
        stale = [
            r
            for r in state["reminders"]
            if not r["completed"] and vendor in r["title"] and any(n in r["title"] for n in state["cancelled"])
        ]
        first = re.compile(rf"\b{re.escape(vendor.split()[0])}\b")
        stale += [r for r in state["elsewhere"] if first.search(r["title"])]
        if any(number in r["title"] for r in state["reminders"]):
            continue
        if stale and not replace:
            tools.reminders_update(uid=stale[0]["uid"], title=title, due=due, list=f["bills"])
            continue
        if stale:
            tools.reminders_delete(uid=stale[0]["uid"])
        tools.reminders_create(title=title, list=f["bills"], due=due)


def _plan(state, fetched):
    """The invoices to file (one per number) and the downloads to delete."""
    new, delete, seen = [], [], set()
    for item in [*state["downloads"], *fetched]:
        path, number = item[0], item[1]
        if number in state["filed"] or number in state["cancelled"] or number in seen:
            delete.append(path)
            continue
        seen.add(number)
        new.append(item)
    return new, delete


def _read_invoice(tools, path):
    """(number, vendor, date, due, amount) of the invoice at `path`, or None for a quote or anything else."""
    content = tools.files_read(path=path)["content"]
    number = re.search(r"Invoice no\. ([A-Z0-9-]+)", content)
    if number is None:
        return None
    vendor = re.search(r"^From: (.+)$", content, re.MULTILINE).group(1).strip()
    when = re.search(r"Invoice date: (\d{4}-\d{2}-\d{2})", content).group(1)
    due = re.search(r"Due date: (\d{4}-\d{2}-\d{2})", content).group(1)
    amount = re.search(r"Total due: [A-Z]{3} ([\d,]+(?:\.\d+)?)", content).group(1).replace(",", "")
    return number.group(1), vendor, when, due, amount


def _fetch(tools, state, staging):
    """Each emailed invoice not filed yet, saved under `staging` and read: the same tuples as the downloads."""
    out = []
    for message_id, filename, number in state["mails"]:
        if number in state["filed"] or number in state["cancelled"]:
            continue
        saved = tools.mail_save_attachment(id=message_id, path=f"{staging}/{filename}", filename=filename)["path"]
        out.append((saved, *_read_invoice(tools, saved)))
    return out


def _survey(tools, newest_first=False):
    """What there is: the rules, the indexes (year -> rows), the downloads read, the invoice mails, the cancelled
    numbers and the Bills reminders."""
    f = FACTS
    rules = tools.notes_search(query=f["rules_title"])["notes"][0]["body"]
    assert f["pattern_words"] in rules, "the filing rules are not the expected ones"
    listed = [e["path"] for e in tools.files_list(path=f["folder"])["entries"]]
    indexes = {}
    for path in listed:
        if path.endswith("/index.csv"):
            text = tools.files_read(path=path)["content"]
            indexes[path.split("/")[-2]] = list(csv.DictReader(io.StringIO(text)))
    filed = {row["invoice"] for rows in indexes.values() for row in rows}
    downloads = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if e["path"].endswith(".pdf")]
    read = []
    for path in sorted(downloads, reverse=newest_first):
        invoice = _read_invoice(tools, path)
        if invoice is not None:
            read.append((path, *invoice))
    mails, cancelled = [], set()
    for found in tools.mail_search(text="invoice", limit=50)["messages"]:
        message = tools.mail_read(id=found["id"])
        pdfs = [a["filename"] for a in message["attachments"] if a["filename"].lower().endswith(".pdf")]
        if not pdfs:
            continue
        attached = re.search(NUMBER, pdfs[0]).group(0)
        body = " ".join(line for line in message["body"].splitlines() if not line.startswith(">"))
        if any(w in body for w in f["cancel_words"]):
            cancelled |= {n for n in re.findall(NUMBER, body) if n != attached}
        mails.append((message["id"], pdfs[0], attached))
    reminders = tools.reminders_list(list=f["bills"], include_completed=True, limit=200)["reminders"]
    elsewhere = [r for r in tools.reminders_list(limit=500)["reminders"] if r["list"] != f["bills"]]
    return {
        "elsewhere": elsewhere,
        "indexes": indexes,
        "filed": filed,
        "downloads": read,
        "mails": mails,
        "cancelled": cancelled,
        "reminders": reminders,
    }


def solve_keep_the_copy(tools):
    """Goes through Downloads in reverse order (so of an invoice downloaded twice it files the " (1)" copy), saves
    the emailed invoices into the invoices folder before naming them, makes the reminders before filing, and
    writes the indexes last."""
    f = FACTS
    state = _survey(tools, newest_first=True)
    fetched = _fetch(tools, state, f"{f['folder']}/incoming")
    new, delete = _plan(state, fetched)
    _reminders(tools, state, new)
    for path in delete:
        tools.files_delete(path=path)
    for path, number, vendor, when, _, _ in new:
        tools.files_move(src=path, dst=_target(number, vendor, when))
    _indexes(tools, state, new)


solve = solve_keep_the_copy
