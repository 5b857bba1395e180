"""Checks for invoice-filing-1: 3 invoices to Finance/Invoices/2026/."""

from __future__ import annotations

import csv
import io
import re


def file_at(final: dict[str, Any], *, path: str, sha256: str, label: str) -> Verdict:
    """`path` exists and holds exactly the document `label` (by its SHA-256)."""
    stored = (final.get("files") or {}).get(path)
    if stored is None:
        return False, f"there is no file {path} (for {label})"
    if stored.get("sha256") != sha256:
        return False, f"{path} is not {label} (its content differs)"
    return True, f"{label} is filed as {path}"


def files_in(final: dict[str, Any], *, folder: str, expected: dict[str, str], extra: list[str]) -> Verdict:
    """`folder` holds exactly the `expected` files (path -> sha256), plus any of the `extra` paths."""
    files = final.get("files") or {}
    for path, sha in expected.items():
        stored = files.get(path)
        if stored is None:
            return False, f"there is no file {path}"
        if stored.get("sha256") != sha:
            return False, f"{path} is not the right document (its content differs)"
    others = sorted(p for p in files if p.startswith(folder + "/") and p not in expected and p not in extra)
    if others:
        return False, f"{folder} also holds {others}"
    return True, f"{folder} holds the {len(expected)} expected files"


def files_gone(final: dict[str, Any], *, paths: list[str]) -> Verdict:
    """None of `paths` is left (moved away or deleted)."""
    left = sorted(p for p in paths if p in (final.get("files") or {}))
    if left:
        return False, f"still there: {left}"
    return True, f"all {len(paths)} are gone from where they were"


def _amount(text: Any) -> float | None:
    """A money amount written as 1234.5, 1,234.50, 1.234,50 or 1 234,50 (any currency sign around it)."""
    cleaned = re.sub(r"[^\d.,-]", "", str(text or ""))
    if not re.search(r"\d", cleaned):
        return None
    last = max(cleaned.rfind("."), cleaned.rfind(","))
    if last != -1 and len(cleaned) - last - 1 in (1, 2):
        whole, cents = re.sub(r"\D", "", cleaned[:last]) or "0", cleaned[last + 1 :]
        value = float(f"{whole}.{cents}")
    else:
        value = float(re.sub(r"\D", "", cleaned))
    return -value if cleaned.startswith("-") else value


def csv_rows(
    final: dict[str, Any],
    *,
    path: str,
    date_column: str,
    amount_column: str,
    rows: list[list[Any]],
    total: float,
    ref_column: str | None = None,
) -> Verdict:
    """`path` is a CSV whose rows are exactly `rows` ([date, amount], or [date, amount, reference] with
    `ref_column`) plus an optional total row. A row's date may be a list of the days that are all right
    for it (a hotel stay: check-in or check-out)."""
    stored = (final.get("files") or {}).get(path)
    if not stored or stored.get("text") is None:
        return False, f"there is no text file {path}"
    try:
        table = list(csv.DictReader(io.StringIO(stored["text"])))
    except csv.Error as exc:
        return False, f"{path} is not a CSV file: {exc}"
    needed = [c for c in (date_column, amount_column, ref_column) if c]
    if not table or any(c not in table[0] for c in needed):
        return False, f"{path} needs the columns {needed}"
    found, totals = [], []
    for row in table:
        day, amount = (row.get(date_column) or "").strip(), _amount(row.get(amount_column))
        if amount is None:
            continue
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            found.append([day, round(amount, 2), *([(row.get(ref_column) or "").strip()] if ref_column else [])])
        elif not day or re.search(r"total|sum|gesamt|合计|总计", " ".join(map(str, row.values())), re.IGNORECASE):
            totals.append(round(amount, 2))
        else:
            return False, f"{path}: the date {day!r} is not written as YYYY-MM-DD"
    lacking = [[[d] if isinstance(d, str) else list(d), round(float(a), 2), *rest] for d, a, *rest in rows]
    extra = []
    for day, amount, *rest in sorted(found):
        match = next((e for e in lacking if e[1:] == [amount, *rest] and day in e[0]), None)
        if match is None:
            extra.append([day, amount, *rest])
        else:
            lacking.remove(match)
    if extra or lacking:
        shown = [[d[0] if len(d) == 1 else d, *rest] for d, *rest in lacking]
        return False, f"{path} rows differ: not expected {extra}, missing {shown}"
    if any(t != round(total, 2) for t in totals):
        return False, f"{path} gives the total {totals}; expected {total:.2f}"
    return True, f"{path} lists the {len(rows)} expected rows"


def check_invoice_1(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-03-20 Halcyon Media INV-2026-4559.pdf',
        sha256='6fa1688e9a5e841b3798532c0edadfebcf8702dd133204d161a4044d6f12c77b',
        label='invoice INV-2026-4559',
    )


def check_invoice_2(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-04-08 Mosaic Systems INV-2026-9796.pdf',
        sha256='bd696d3c0a7862ee2faa0d59318a805499e03bab063fe2c45c9ccae591c08d9a',
        label='invoice INV-2026-9796',
    )


def check_invoice_3(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-03-20 Cobalt Media INV-2026-3678.pdf',
        sha256='5e1978b3aee064d53a6bb34e29b7d4ceda018b4319f75ae7901be374b83ea197',
        label='invoice INV-2026-3678',
    )


def check_only_invoices(initial, final, trace):
    return files_in(
        final,
        folder='Finance/Invoices/2026',
        expected={'Finance/Invoices/2026/2026-03-20 Halcyon Media INV-2026-4559.pdf': '6fa1688e9a5e841b3798532c0edadfebcf8702dd133204d161a4044d6f12c77b',
 'Finance/Invoices/2026/2026-04-08 Mosaic Systems INV-2026-9796.pdf': 'bd696d3c0a7862ee2faa0d59318a805499e03bab063fe2c45c9ccae591c08d9a',
 'Finance/Invoices/2026/2026-03-20 Cobalt Media INV-2026-3678.pdf': '5e1978b3aee064d53a6bb34e29b7d4ceda018b4319f75ae7901be374b83ea197'},
        extra=['Finance/Invoices/2026/index.csv'],
    )


def check_downloads_cleared(initial, final, trace):
    return files_gone(
        final,
        paths=['Downloads/halcyon-media-4559.pdf',
 'Downloads/invoice-9796.pdf',
 'Downloads/Invoice-3678.pdf',
 'Downloads/halcyon-media-4559 (1).pdf'],
    )


def check_index(initial, final, trace):
    return csv_rows(
        final,
        path='Finance/Invoices/2026/index.csv',
        date_column='date',
        amount_column='amount',
        ref_column='invoice',
        rows=[['2026-03-20', 382.49, 'INV-2026-4559'],
 ['2026-04-08', 131.85, 'INV-2026-9796'],
 ['2026-03-20', 1254.84, 'INV-2026-3678']],
        total=1769.18,
    )
