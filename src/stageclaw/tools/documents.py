"""Text out of office documents (PDF, DOCX, XLSX, ODT, CSV in a legacy encoding), from their bytes.

`files_read` shows a document the way a desktop assistant would: its text, with the structure a
reader needs to cite it (`[page 2 of 5]`, `[sheet "Q1"]`, `# Heading`). The parsing is the job of
the standard extractors of each format (pypdf, python-docx, openpyxl, odfpy); this module only
lays out what they give. It takes bytes, not paths, so whoever opens the file decides how it is
opened safely. Nothing extracted here enters the State JSON: a document is its sha256 there.
"""

from __future__ import annotations

import codecs
import csv
import io
import logging
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

SPREADSHEET_TEXT = (".csv", ".tsv")
# A DOCX, XLSX or ODT is a ZIP: what its members expand to is bounded before any is parsed, so a
# small file cannot balloon into gigabytes of XML (a "zip bomb") inside the harness.
MAX_EXPANDED = 256 * 1024 * 1024
_OOXML_WORD = "word/document.xml"
_OOXML_SHEET = "xl/workbook.xml"
_ODF_TEXT = b"application/vnd.oasis.opendocument.text"


class DocumentError(Exception):
    """The file is a document of a known kind that cannot be read (damaged, encrypted); the message says which."""


@dataclass
class Part:
    """One page of a PDF, one sheet of a workbook, or the whole of a text document."""

    heading: str | None  # the marker line shown before the part's text, e.g. '[page 2 of 5]'
    text: str


@dataclass
class Document:
    format: str  # pdf, docx, xlsx, odt, csv
    parts: list[Part]  # the parts extracted: all, or the first ones up to the budget
    unit: str | None = None  # what a part is: "page", "sheet", or None for one flowing text
    notes: list[str] = field(default_factory=list)  # what the reader should know (no text layer, encoding)
    count: int = 0  # how many parts the document has, extracted or not

    def __post_init__(self) -> None:
        self.count = max(self.count, len(self.parts))

    def text(self, parts: Iterable[Part] | None = None) -> str:
        chunks = []
        for part in self.parts if parts is None else parts:
            chunks.append(f"{part.heading}\n{part.text}" if part.heading else part.text)
        return "\n\n".join(c.rstrip("\n") for c in chunks) + "\n"


def kind(name: str, data: bytes) -> str | None:
    """The document format of a file, by its content first (a renamed file is still what it is)."""
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
                if _OOXML_WORD in names:
                    return "docx"
                if _OOXML_SHEET in names:
                    return "xlsx"
                if "mimetype" in names and archive.read("mimetype").strip() == _ODF_TEXT:
                    return "odt"
        except (zipfile.BadZipFile, KeyError, OSError):
            return None
        return None
    if name.lower().endswith(SPREADSHEET_TEXT) and not _utf8(data):
        return "csv"
    return None


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data


def extract(name: str, data: bytes, budget: int) -> Document | None:
    """The text of the document `data` (named `name`), or None when it is not a document this module reads.

    Pages and sheets are extracted in order until their text passes `budget` characters; the rest
    are only counted (`Document.count`), so a thousand-page PDF costs what its first pages cost.
    Raises DocumentError for a document that cannot be read, with a reason fit for the agent.
    """
    fmt = kind(name, data)
    if fmt is None:
        return None
    if fmt in ("docx", "xlsx", "odt"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            expanded = sum(info.file_size for info in archive.infolist())
        if expanded > MAX_EXPANDED:
            raise DocumentError(
                f"it expands to {expanded // 2**20} MiB, more than the {MAX_EXPANDED // 2**20} MiB read here"
            )
    try:
        return _EXTRACTORS[fmt](data, budget)
    except DocumentError:
        raise
    except Exception as exc:  # each library has its own zoo of errors for a damaged file
        reason = type(exc).__name__
        raise DocumentError(f"it looks like a {fmt.upper()} file but could not be read ({reason})") from None


def _pdf(data: bytes, budget: int) -> Document:
    import pypdf

    # pypdf warns on stderr about every small defect of real-world PDFs; the reader needs none of it.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = pypdf.PdfReader(io.BytesIO(data))
    if reader.is_encrypted and not reader.decrypt(""):
        raise DocumentError("the PDF is protected by a password, so its text cannot be read")
    total = len(reader.pages)
    parts, used = [], 0
    for n, page in enumerate(reader.pages, 1):
        if used > budget:
            break
        parts.append(Part(f"[page {n} of {total}]", page.extract_text() or ""))
        used += len(parts[-1].text)
    doc = Document("pdf", parts, unit="page", count=total)
    if len(parts) == total and parts and not any(p.text.strip() for p in parts):
        doc.notes.append("the PDF has no text layer (it is probably a scan): there is no text to show")
    return doc


def _docx(data: bytes, budget: int) -> Document:
    """One flowing text, read whole (its size is bounded by MAX_EXPANDED); the caller cuts it."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    document = docx.Document(io.BytesIO(data))
    lines: list[str] = []
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            lines.append(_heading(block.style.name if block.style is not None else "", block.text))
        elif isinstance(block, Table):
            lines.extend(_table_lines([[cell.text for cell in row.cells] for row in block.rows]))
            lines.append("")
    return Document("docx", [Part(None, "\n".join(lines).strip("\n"))])


def _heading(style: str, text: str) -> str:
    """A paragraph, with Markdown's `#` marks when its style is a heading ('Heading 2', 'Title')."""
    level = 1 if style == "Title" else None
    if style.startswith("Heading ") and style[8:].isdigit():
        level = int(style[8:])
    return f"{'#' * level} {text}" if level and text.strip() else text


def _table_lines(rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(" ".join(cell.split()) for cell in row) + " |" for row in rows]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat(sep=" ")
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _csv_lines(rows: Iterable[list[str]]) -> tuple[str, int, int]:
    """Rows as CSV text without trailing empty cells and rows; and the row and column counts."""
    kept = []
    for row in rows:
        while row and row[-1] == "":
            row.pop()
        kept.append(row)
    while kept and not kept[-1]:
        kept.pop()
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(kept)
    return out.getvalue(), len(kept), max((len(r) for r in kept), default=0)


def _xlsx(data: bytes, budget: int) -> Document:
    import openpyxl

    # The values a spreadsheet program last computed; a formula never computed (a file written by a
    # script) shows as the formula itself rather than as an empty cell.
    values = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    formulas = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        total = len(values.worksheets)
        parts, used = [], 0
        for n, (shown, written) in enumerate(zip(values.worksheets, formulas.worksheets, strict=True), 1):
            if used > budget:
                break
            rows = (
                [_cell(v if v is not None else f) for v, f in zip(vrow, frow, strict=False)]
                for vrow, frow in zip(
                    shown.iter_rows(values_only=True), written.iter_rows(values_only=True), strict=False
                )
            )
            text, height, width = _csv_lines(rows)
            parts.append(Part(f'[sheet {n} of {total}: "{shown.title}", {height} rows x {width} columns]', text))
            used += len(text)
    finally:
        values.close()
        formulas.close()
    return Document("xlsx", parts, unit="sheet", count=total)


def _odt(data: bytes, budget: int) -> Document:
    """One flowing text, read whole like a DOCX."""
    from odf import opendocument, teletype
    from odf.namespaces import TABLENS, TEXTNS
    from odf.table import TableCell, TableRow

    document = opendocument.load(io.BytesIO(data))
    lines: list[str] = []

    def walk(node: Any) -> None:
        for child in node.childNodes:
            qname = getattr(child, "qname", None)
            if qname == (TEXTNS, "h"):
                level = int(child.getAttrNS(TEXTNS, "outline-level") or 1)
                lines.append(f"{'#' * level} {teletype.extractText(child)}")
            elif qname == (TEXTNS, "p"):
                lines.append(teletype.extractText(child))
            elif qname == (TABLENS, "table"):
                rows = [
                    [teletype.extractText(cell) for cell in row.getElementsByType(TableCell)]
                    for row in child.getElementsByType(TableRow)
                ]
                lines.extend(_table_lines(rows))
                lines.append("")
            elif qname is not None:
                walk(child)  # lists, sections, frames: their paragraphs count

    walk(document.text)
    return Document("odt", [Part(None, "\n".join(lines).strip("\n"))])


def _csv(data: bytes, budget: int) -> Document:
    """A CSV file that is not UTF-8: Excel writes UTF-16 ('Unicode text') or the Windows code page."""
    encoding = "utf-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "cp1252"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        encoding, text = "latin-1", data.decode("latin-1")
    doc = Document("csv", [Part(None, text.replace("\r\n", "\n"))])
    doc.notes.append(f"the file is not UTF-8; it was read as {encoding}")
    return doc


_EXTRACTORS: dict[str, Callable[[bytes, int], Document]] = {
    "pdf": _pdf,
    "docx": _docx,
    "xlsx": _xlsx,
    "odt": _odt,
    "csv": _csv,
}
