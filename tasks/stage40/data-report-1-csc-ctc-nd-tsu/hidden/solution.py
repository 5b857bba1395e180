"""Reference solution for data-report-1-csc-ctc-nd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re


FACTS = {'partner': 'Lefèvre',
 'subject': 'December income for the committee',
 'export': 'Club/ClubPay/clubpay-payments-2025-12-01_2025-12-31.csv',
 'folder': 'Club/ClubPay',
 'columns': {'ref': 'ref', 'party': 'member', 'item': 'item', 'line': 'budget_line'},
 'note': None,
 'leave_out': None,
 'regular': None,
 'alias_subject': 'Paid from my personal account',
 'report': 'Reports/2025-12 income summary.md',
 'title': 'Granite Park Tennis Club: December 2025 income',
 'headers': ['Budget line', 'Income', 'Top members'],
 'symbol': '€',
 'top': 3,
 'reply': 'Hi Catherine,\n'
          '\n'
          'here are the December figures:\n'
          '\n'
          '{figures}\n'
          '\n'
          'The full summary is in {report}.\n'
          '\n'
          'Best,\n'
          'Stéphanie',
 'currency': 'EUR',
 'me': 'Stéphanie'}


def _shown(cents: int) -> str:
    return f"{FACTS['symbol']}{cents / 100:,.2f}"


def report_text(
    title: str, headers: list[str], lines: list[tuple[str, str]], total: str, ranking: list[tuple[str, str]]
) -> str:
    """The user's monthly summary: a table of the lines with the total, then the top of the ranking."""
    table = "".join(f"| {name} | {amount} |\n" for name, amount in lines)
    top = "".join(f"{n}. {name}: {amount}\n" for n, (name, amount) in enumerate(ranking, 1))
    return (
        f"# {title}\n\n| {headers[0]} | {headers[1]} |\n|---|---:|\n{table}| **Total** | **{total}** |\n\n"
        f"## {headers[2]}\n\n{top}"
    )


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


def solve(tools):
    f = FACTS
    request, lines, top, total = _figures(tools)
    text = report_text(
        f["title"],
        f["headers"],
        [(line, _shown(c)) for line, c in lines],
        _shown(total),
        [(name, _shown(c)) for name, c in top],
    )
    tools.files_write(path=f["report"], content=text)
    figures = "\n".join([*(f"- {line}: {_shown(c)}" for line, c in lines), f"- Total: {_shown(total)}"])
    tools.mail_reply(id=request["id"], body=f["reply"].format(figures=figures, report=f["report"]))
