"""Alternative solution 'terminal' for invoice-filing-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
import shlex


FACTS = {'rules_title': 'Filing rules',
 'pattern_words': '<invoice date> <vendor> <invoice no>',
 'folder': 'Finance/Invoices'}


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _target(number, vendor, when):
    return f"{FACTS['folder']}/{when[:4]}/{when} {vendor} {number}.pdf"


def _invoices(tools, newest_first=False):
    """Every PDF in Downloads read: (path, invoice number, vendor, date, amount) for the invoices, in name
    order (or the reverse); a quote or anything else is left out."""
    f = FACTS
    rules = tools.notes_search(query=f["rules_title"])["notes"][0]["body"]
    assert f["pattern_words"] in rules, "the filing rules are not the expected ones"
    downloads = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if e["path"].endswith(".pdf")]
    out = []
    for path in sorted(downloads, reverse=newest_first):
        content = tools.files_read(path=path)["content"]
        number = re.search(r"Invoice no\. ([A-Z0-9-]+)", content)
        if number is None:  # a quote or something else: it stays where it is
            continue
        vendor = re.search(r"^From: (.+)$", content, re.MULTILINE).group(1)
        when = re.search(r"Invoice date: (\d{4}-\d{2}-\d{2})", content).group(1)
        amount = re.search(r"Total due: [A-Z]{3} ([\d,]+(?:\.\d{2})?)", content).group(1).replace(",", "")
        out.append((path, number.group(1), vendor, when, amount))
    return out


def solve_terminal(tools):
    """Moves and removes the files with the shell, and writes the index with the amounts first, biggest first,
    and a total row."""
    f = FACTS
    seen, rows, commands = set(), [], []
    for path, number, vendor, when, amount in _invoices(tools):
        if number in seen:
            commands.append(f"rm {shlex.quote(path)}")
            continue
        seen.add(number)
        target = _target(number, vendor, when)
        commands.append(
            f"mkdir -p {shlex.quote(target.rsplit('/', 1)[0])} && mv {shlex.quote(path)} {shlex.quote(target)}"
        )
        rows.append([amount, when, vendor, number])
    result = tools.terminal_run(command=" && ".join(commands))
    assert result["exit_code"] == 0, result["stderr"]
    rows.sort(key=lambda r: -float(r[0]))
    total = f"{sum(float(r[0]) for r in rows):.2f}"
    year = rows[0][1][:4]
    table = csv_text(["amount", "date", "vendor", "invoice"], [*rows, [total, "", "Total", ""]])
    tools.files_write(path=f"{f['folder']}/{year}/index.csv", content=table)


solve = solve_terminal
