"""Word documents and spreadsheets as people receive them, written with python-docx and openpyxl.

A DOCX or XLSX is a ZIP whose members carry the time they were written, and whose core properties
say who wrote it and when. Both are set here from the document's own date, so the same arguments
always give the same bytes and a contract dated 2024 does not claim to have been written today.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import docx
import openpyxl

_CORE = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
    "<dc:title>{title}</dc:title><dc:creator>{author}</dc:creator><cp:lastModifiedBy>{author}</cp:lastModifiedBy>"
    '<dcterms:created xsi:type="dcterms:W3CDTF">{when}</dcterms:created>'
    '<dcterms:modified xsi:type="dcterms:W3CDTF">{when}</dcterms:modified>'
    "</cp:coreProperties>"
)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fixed(data: bytes, title: str, author: str, written: datetime) -> bytes:
    """The package `data` with its core properties and every member's time set to `written`."""
    stamp = written.replace(tzinfo=None).timetuple()[:6]
    core = _CORE.format(title=_escape(title), author=_escape(author), when=f"{written:%Y-%m-%dT%H:%M:%SZ}")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = core.encode() if info.filename == "docProps/core.xml" else source.read(info.filename)
            member = zipfile.ZipInfo(info.filename, date_time=stamp)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            target.writestr(member, body)
    return out.getvalue()


def docx_file(
    title: str,
    blocks: Sequence[str | tuple[str, str] | list[list[str]]],
    *,
    author: str,
    written: datetime,
) -> bytes:
    """A Word document: a title, then blocks in order: a paragraph (str), a heading (("h", text)) or
    a table (a list of rows, the first its header)."""
    document = docx.Document()
    document.add_heading(title, level=1)
    for block in blocks:
        if isinstance(block, str):
            document.add_paragraph(block)
        elif isinstance(block, tuple):
            document.add_heading(block[1], level=2)
        else:
            table = document.add_table(rows=0, cols=len(block[0]))
            table.style = "Table Grid"
            for row in block:
                cells = table.add_row().cells
                for cell, value in zip(cells, row, strict=True):
                    cell.text = value
    raw = io.BytesIO()
    document.save(raw)
    return _fixed(raw.getvalue(), title, author, written)


def xlsx_file(
    sheets: Sequence[tuple[str, Sequence[Sequence[Any]]]], *, title: str, author: str, written: datetime
) -> bytes:
    """A workbook with one sheet per (name, rows); numbers stay numbers, the first row is the header."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets:
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    raw = io.BytesIO()
    book.save(raw)
    return _fixed(raw.getvalue(), title, author, written)
