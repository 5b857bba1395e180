"""Alternative solution 'read_all' for data-report-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re


FACTS = {'partner': 'Wendt',
 'subject': 'September numbers?',
 'export': 'Shop/exports/tillbox-orders-2026-09-01_2026-09-30.csv',
 'folder': 'Shop/exports',
 'columns': {'ref': 'order', 'party': 'customer', 'item': 'product', 'line': 'product_line'},
 'note': 'Product lines',
 'leave_out': "Gift cards aren't sales until someone redeems them, so leave them out of the monthly numbers.",
 'regular': 'Lindqvist',
 'alias_subject': 'Order from my other address',
 'report': 'Reports/2026-09 sales summary.md',
 'title': 'Nimbus Pottery: September 2026 sales',
 'headers': ['Product line', 'Sales', 'Top customers'],
 'symbol': '€',
 'top': 3,
 'reply': 'Hi Maximilian,\n'
          '\n'
          'here are the September figures:\n'
          '\n'
          '{figures}\n'
          '\n'
          'The full summary is in {report}.\n'
          '\n'
          'Best,\n'
          'Katharina',
 'currency': 'EUR',
 'me': 'Katharina'}


def _shown(cents: int) -> str:
    return f"{FACTS['symbol']}{cents / 100:,.2f}"


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _cents(amount: str) -> int:
    return round(float(amount) * 100)


def _rows(tools, path: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(tools.files_read(path=path)["content"])))


def _figures(tools, read_all=False):
    """The request, the per-line totals (largest first), the top payers with their names, and the total.

    With `read_all`, every file of the export's folder is read first instead of only those it needs."""
    f = FACTS
    col = f["columns"]
    found = tools.mail_search(folder="INBOX", sender=f["partner"], subject=f["subject"])["messages"]
    request = tools.mail_read(id=found[0]["id"])
    if read_all:
        for entry in tools.files_list(path=f["folder"])["entries"]:
            if entry["type"] == "file" and entry["path"].endswith(".csv"):
                tools.files_read(path=entry["path"])

    rows = {}
    for row in _rows(tools, f["export"]):
        rows.setdefault(row[col["ref"]], row)  # the export repeats some rows: one reference is one payment
    amounts = {ref: _cents(row["amount"]) for ref, row in rows.items()}
    # A corrections file next to the export replaces the amounts of the references it lists.
    stem = f["export"].removesuffix(".csv")
    for entry in tools.files_list(path=f["folder"])["entries"]:
        if entry["path"].startswith(stem) and "correction" in entry["path"]:
            for fix in _rows(tools, entry["path"]):
                amounts[fix[col["ref"]]] = _cents(fix["corrected_amount"])

    if f["note"]:  # the export names only the items: the lines, and what is no income, are in a note
        note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
        assert f["leave_out"] in one_line(note["body"]), "the note does not say what to leave out"
        mapping = {
            item.strip(): line
            for line, items in re.findall(r"^- (.+?): (.+)$", note["body"], re.MULTILINE)
            for item in items.split(",")
        }
        line_of = {ref: mapping.get(row[col["item"]]) for ref, row in rows.items()}
    else:
        line_of = {ref: row[col["line"]] for ref, row in rows.items()}

    usual = {}
    if f["regular"]:  # a regular paid from a personal address; the address book knows their usual one
        hit = tools.mail_search(folder="INBOX", sender=f["regular"], subject=f["alias_subject"])["messages"][0]
        personal = address(tools.mail_read(id=hit["id"])["from"])
        contact = next(c for c in tools.contacts_search(query=f["regular"])["contacts"] if f["regular"] in c["name"])
        usual[personal] = address(contact["emails"][0])

    per_line, per_person, names = {}, {}, {}
    for ref, row in rows.items():
        line = line_of[ref]
        if line is None:
            continue
        email = row["email"].lower()
        who = usual.get(email, email)
        per_line[line] = per_line.get(line, 0) + amounts[ref]
        per_person[who] = per_person.get(who, 0) + amounts[ref]
        if who == email:
            names[who] = row[col["party"]]
    total = sum(per_line.values())
    lines = sorted(per_line.items(), key=lambda kv: -kv[1])
    top = [(names[who], c) for who, c in sorted(per_person.items(), key=lambda kv: -kv[1])[: f["top"]]]
    return request, lines, top, total


def solve_read_all(tools):
    """Reads every CSV in the export's folder first; a table with the amounts in their own column, and a
    reply that lists the figures as a small table."""
    f = FACTS
    request, lines, top, total = _figures(tools, read_all=True)
    rows = "".join(f"| {line} | {_shown(c)} |\n" for line, c in lines)
    ranking = "".join(f"| {n} | {name} | {_shown(c)} |\n" for n, (name, c) in enumerate(top, 1))
    text = (
        f"# {f['title']}\n\n| {f['headers'][0]} | {f['headers'][1]} |\n|---|---:|\n{rows}"
        f"| Total | {_shown(total)} |\n\n## {f['headers'][2]}\n\n| # | name | {f['headers'][1]} |\n|---|---|---:|\n"
        f"{ranking}"
    )
    tools.files_write(path=f["report"], content=text)
    tools.mail_reply(
        id=request["id"],
        body="Figures for the month:\n\n" + rows + f"| Total | {_shown(total)} |\n\nBest,\n{f['me']}",
    )


solve = solve_read_all
