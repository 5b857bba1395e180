"""Checks for invoice-filing-2: 3 invoices to Finance/Invoices/2026/."""

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
        path='Finance/Invoices/2026/2026-07-17 Larkspur Health INV-2026-6947.pdf',
        sha256='5687c7dc8dfea6e6ec84999e50178394a04a816008086db13f20332e289cfe97',
        label='invoice INV-2026-6947',
    )


def check_invoice_2(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-07-07 Tessera Robotics INV-2026-2737.pdf',
        sha256='7e996b4ae4c3f165bd2161ad52cf67140d9cf16d077e8eeb7e5aabeadfdf6a7a',
        label='invoice INV-2026-2737',
    )


def check_invoice_3(initial, final, trace):
    return file_at(
        final,
        path='Finance/Invoices/2026/2026-07-04 Mosaic Robotics INV-2026-7167.pdf',
        sha256='8bd994effb8915a586bd401bd103c9433978368c31705ab0d0b91f773d0d0017',
        label='invoice INV-2026-7167',
    )


def check_only_invoices(initial, final, trace):
    return files_in(
        final,
        folder='Finance/Invoices/2026',
        expected={'Finance/Invoices/2026/2026-07-17 Larkspur Health INV-2026-6947.pdf': '5687c7dc8dfea6e6ec84999e50178394a04a816008086db13f20332e289cfe97',
 'Finance/Invoices/2026/2026-07-07 Tessera Robotics INV-2026-2737.pdf': '7e996b4ae4c3f165bd2161ad52cf67140d9cf16d077e8eeb7e5aabeadfdf6a7a',
 'Finance/Invoices/2026/2026-07-04 Mosaic Robotics INV-2026-7167.pdf': '8bd994effb8915a586bd401bd103c9433978368c31705ab0d0b91f773d0d0017'},
        extra=['Finance/Invoices/2026/index.csv'],
    )


def check_downloads_cleared(initial, final, trace):
    return files_gone(
        final,
        paths=['Downloads/larkspur-health-6947.pdf',
 'Downloads/invoice-2737.pdf',
 'Downloads/Invoice-7167.pdf',
 'Downloads/larkspur-health-6947 (1).pdf'],
    )


def check_index(initial, final, trace):
    return csv_rows(
        final,
        path='Finance/Invoices/2026/index.csv',
        date_column='date',
        amount_column='amount',
        ref_column='invoice',
        rows=[['2026-07-17', 3859.17, 'INV-2026-6947'],
 ['2026-07-07', 1258.5, 'INV-2026-2737'],
 ['2026-07-04', 921.41, 'INV-2026-7167']],
        total=6039.08,
    )
