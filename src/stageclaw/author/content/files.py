"""Real-looking file contents: CSV exports, Markdown notes, iCalendar invitations and PDFs.

Everything here is deterministic in its input: no timestamps, no random ids of its own.
"""

from __future__ import annotations

import csv
import io
import struct
import zlib
from collections.abc import Sequence
from typing import Any

from stageclaw.author.content.people import ascii_fold


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def ics(events: Sequence[dict[str, Any]], prodid: str, method: str = "PUBLISH") -> str:
    """A VCALENDAR with one VEVENT per event: uid, summary, start, end (aware), location, description."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{prodid}", f"METHOD:{method}"]
    for e in events:
        start, end = e["start"], e["end"]
        lines += [
            "BEGIN:VEVENT",
            f"UID:{e['uid']}",
            f"DTSTAMP:{e['stamp']:%Y%m%dT%H%M%SZ}",
            f"DTSTART;TZID={e['tz']}:{start:%Y%m%dT%H%M%S}",
            f"DTEND;TZID={e['tz']}:{end:%Y%m%dT%H%M%S}",
            f"SUMMARY:{_ics_escape(e['summary'])}",
        ]
        if e.get("location"):
            lines.append(f"LOCATION:{_ics_escape(e['location'])}")
        if e.get("description"):
            lines.append(f"DESCRIPTION:{_ics_escape(e['description'])}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def _ics_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _pdf_string(text: str) -> str:
    """A PDF literal string in WinAnsi, written in ASCII (octal escapes for the rest)."""
    out = []
    for char in text:
        if char in "()\\":
            out.append("\\" + char)
        elif 32 <= ord(char) < 127:
            out.append(char)
        else:
            try:
                out.append("".join(f"\\{b:03o}" for b in char.encode("cp1252")))
            except UnicodeEncodeError:
                folded = ascii_fold(char)
                out.append(folded if folded.isascii() and folded else "?")
    return "(" + "".join(out) + ")"


def pdf(title: str, lines: Sequence[str]) -> bytes:
    """A one-page A4 PDF with a bold title and lines of text (uncompressed: its text is in its bytes)."""
    return pdf_pages([(title, lines)], compressed=False)


def pdf_pages(pages: Sequence[tuple[str, Sequence[str]]], *, compressed: bool = True) -> bytes:
    """An A4 PDF of one page per (title, lines); compressed (Flate) by default, as real PDFs are, so that
    only a PDF reader gets its text out."""
    # Objects: 1 catalog, 2 page tree, 3 the first page, 4 and 5 its fonts, 6 its content; every
    # further page and its content follow in pairs. (A one-page PDF keeps the layout it always had.)
    numbers = [(3, 6)] + [(7 + 2 * i, 8 + 2 * i) for i in range(len(pages) - 1)]
    kids = " ".join(f"{page} 0 R" for page, _ in numbers)
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode("ascii"),
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        5: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    }
    for (page, content), (title, lines) in zip(numbers, pages, strict=True):
        objects[page] = (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            f"/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents {content} 0 R >>"
        ).encode("ascii")
        body = [f"BT /F2 14 Tf 56 780 Td {_pdf_string(title)} Tj ET", "BT /F1 10 Tf 56 750 Td 14 TL"]
        body += [f"{_pdf_string(line)} Tj T*" for line in lines]
        body.append("ET")
        stream = "\n".join(body).encode("ascii")
        flate = ""
        if compressed:
            stream, flate = zlib.compress(stream, 9), " /Filter /FlateDecode"
        objects[content] = f"<< /Length {len(stream)}{flate} >>\nstream\n".encode("ascii") + stream + b"\nendstream"
    out = b"%PDF-1.4\n"
    offsets = []
    for number in sorted(objects):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode("ascii")
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode("ascii")
    return out


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    """A plain image of one colour (a stand-in for a screenshot): small, valid, and its bytes differ by colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(colour) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height, 9))
        + chunk(b"IEND", b"")
    )
