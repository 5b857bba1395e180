"""Alternative solution 'keep_the_copy' for invoice-filing-2: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re


FACTS = {'rules_title': 'Filing rules',
 'pattern_words': '<invoice date> <vendor> <invoice no>',
 'folder': 'Finance/Invoices'}


def _target(number, vendor, when):
    return f"{FACTS['folder']}/{when[:4]}/{when} {vendor} {number}.pdf"


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


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


def solve_keep_the_copy(tools):
    """Goes through Downloads in reverse order, so that of an invoice downloaded twice it files the " (1)" copy
    and deletes the other; the index is written before the last move."""
    f = FACTS
    invoices = _invoices(tools, newest_first=True)
    filed, rows = {}, []
    for path, number, vendor, when, amount in invoices:
        if number not in filed:
            filed[number] = path
            rows.append([when, vendor, number, amount])
    rows.sort()
    year = rows[0][0][:4]
    tools.files_write(
        path=f"{f['folder']}/{year}/index.csv", content=csv_text(["date", "vendor", "invoice", "amount"], rows)
    )
    for path, number, vendor, when, _ in invoices:
        if filed[number] == path:
            tools.files_move(src=path, dst=_target(number, vendor, when))
        else:
            tools.files_delete(path=path)


solve = solve_keep_the_copy
