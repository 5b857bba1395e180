"""Documents read back as text by files_read (and by the sandbox's converters), on a real episode workspace."""

from __future__ import annotations

import io
import zipfile

import docx
import openpyxl
from odf.opendocument import OpenDocumentText
from odf.text import H, P

from stageclaw.author.content.files import pdf_pages
from stageclaw.tools import documents
from stageclaw.tools.files import READ_CAP
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode
from tests.conftest import fails

INVOICE = [
    ("Invoice", ["Invoice no. INV-0042", "Müller & Söhne GmbH", "Total due: EUR 1,234.50"]),
    ("Terms", ["Net 30"]),
]


def _docx() -> bytes:
    document = docx.Document()
    document.add_heading("Lease agreement", level=1)
    document.add_paragraph("The rent is EUR 950 per month.")
    table = document.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Deposit", (0, 1): "EUR 2,850", (1, 0): "Start", (1, 1): "1 April"}.items():
        table.cell(r, c).text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Q1"
    sheet.append(["date", "amount"])
    sheet.append(["2026-01-02", 12.5])
    sheet.append(["total", "=SUM(B2:B2)"])
    book.create_sheet("Notes")["A1"] = "figures, unaudited"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _odt() -> bytes:
    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=2, text="Minutes"))
    document.text.addElement(P(text="Action: Tom books the room."))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_compressed_pdf_docx_xlsx_and_odt_read_back_as_text(reg: Registry, episode: Episode) -> None:
    data = pdf_pages(INVOICE)
    assert b"INV-0042" not in data and b"/FlateDecode" in data  # the text is only in compressed streams
    for name, blob in {"inv.pdf": data, "lease.docx": _docx(), "q1.xlsx": _xlsx(), "minutes.odt": _odt()}.items():
        (episode.workspace / name).write_bytes(blob)
    s0 = episode.snapshot()

    out = reg.call("files_read", {"path": "inv.pdf"})
    assert (out["extracted"], out["format"], out["pages"]) == (True, "pdf", 2)
    assert out["content"].startswith("[page 1 of 2]\nInvoice\nInvoice no. INV-0042\nMüller & Söhne GmbH\n")
    assert "\n\n[page 2 of 2]\nTerms\nNet 30\n" in out["content"]

    lease = reg.call("files_read", {"path": "lease.docx"})
    assert (lease["extracted"], lease["format"]) == (True, "docx") and "pages" not in lease
    assert lease["content"] == (
        "# Lease agreement\nThe rent is EUR 950 per month.\n| Deposit | EUR 2,850 |\n| Start | 1 April |\n"
    )

    sheets = reg.call("files_read", {"path": "q1.xlsx"})
    assert (sheets["format"], sheets["sheets"]) == ("xlsx", 2)
    assert sheets["content"] == (
        '[sheet 1 of 2: "Q1", 3 rows x 2 columns]\ndate,amount\n2026-01-02,12.5\ntotal,=SUM(B2:B2)\n\n'
        '[sheet 2 of 2: "Notes", 1 rows x 1 columns]\n"figures, unaudited"\n'
    )
    assert reg.call("files_read", {"path": "minutes.odt"})["content"] == "## Minutes\nAction: Tom books the room.\n"
    # Reading changes nothing, and the state keeps a document's hash, not its extracted text.
    assert episode.snapshot() == s0
    assert set(s0["files"]["inv.pdf"]) == {"sha256", "size"} and "text" not in s0["files"]["q1.xlsx"]


def test_long_documents_are_cut_at_a_page_boundary(reg: Registry, episode: Episode) -> None:
    lines = [f"line {j}: " + "x" * 90 for j in range(50)]
    (episode.workspace / "report.pdf").write_bytes(pdf_pages([(f"Page {i}", lines) for i in range(1, 41)]))
    out = reg.call("files_read", {"path": "report.pdf"})
    shown = out["content"].count("[page ")
    assert out["truncated"] is True and out["pages"] == 40 and 1 < shown < 40
    assert len(out["content"].encode()) <= READ_CAP and out["content"].rstrip().endswith("line 49: " + "x" * 90)
    assert f"pages 1-{shown} of 40" in out["note"] and f"pdftotext -layout -f {shown + 1}" in out["note"]
    # The terminal's pdftotext reads the rest, as the note says.
    rest = reg.call("terminal_run", {"command": f"pdftotext -f {shown + 1} -l {shown + 1} report.pdf - | head -n 3"})
    assert rest["exit_code"] == 0 and f"Page {shown + 1}" in rest["stdout"]


def test_a_zip_bomb_is_refused_before_it_is_parsed(reg: Registry, episode: Episode, monkeypatch) -> None:
    # A small file whose XML would expand far beyond what is read: refused from the ZIP's directory alone.
    monkeypatch.setattr(documents, "MAX_EXPANDED", 4 * 1024 * 1024)
    blob = io.BytesIO()
    with zipfile.ZipFile(blob, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"<w:document>" + b" " * (5 * 1024 * 1024) + b"</w:document>")
    assert len(blob.getvalue()) < 64 * 1024
    (episode.workspace / "bomb.docx").write_bytes(blob.getvalue())
    assert "expands to 5 MiB, more than the 4 MiB" in fails(reg, "files_read", path="bomb.docx").message


def test_only_the_pages_that_fit_are_extracted() -> None:
    data = pdf_pages([(f"Page {i}", ["word " * 20] * 40) for i in range(1, 301)])
    doc = documents.extract("big.pdf", data, budget=READ_CAP)
    assert doc.count == 300 and 20 < len(doc.parts) < 50
    assert doc.parts[-1].heading == f"[page {len(doc.parts)} of 300]"


def test_the_sandbox_converts_documents(reg: Registry, episode: Episode) -> None:
    (episode.workspace / "lease.docx").write_bytes(_docx())
    (episode.workspace / "q1.xlsx").write_bytes(_xlsx())
    (episode.workspace / "minutes.odt").write_bytes(_odt())
    (episode.workspace / "inv.pdf").write_bytes(pdf_pages(INVOICE))
    for command, expected in {
        "pdfinfo inv.pdf | grep Pages": "2",
        "pdftotext inv.pdf - | head -n 2": "INV-0042",
        "docx2txt lease.docx -": "EUR 950",
        "odt2txt minutes.odt": "Tom books the room",
        "xlsx2csv -s 1 q1.xlsx": "2026-01-02,12.5",
    }.items():
        out = reg.call("terminal_run", {"command": command})
        assert out["exit_code"] == 0 and expected in out["stdout"], (command, out)


def test_damaged_and_legacy_files(reg: Registry, episode: Episode) -> None:
    broken = pdf_pages(INVOICE)[:200]
    (episode.workspace / "broken.pdf").write_bytes(broken)
    assert "could not be read" in fails(reg, "files_read", path="broken.pdf").message
    (episode.workspace / "fake.docx").write_bytes(b"PK\x03\x04\xff\xfe not really a zip")
    assert "not a text file or a document" in fails(reg, "files_read", path="fake.docx").message
    # Excel's CSV export in the Windows code page is read, and says how.
    (episode.workspace / "export.csv").write_bytes("name;city\nJürgen;Köln\n".encode("cp1252"))
    out = reg.call("files_read", {"path": "export.csv"})
    assert out["content"] == "name;city\nJürgen;Köln\n" and out["extracted"] is True and "cp1252" in out["note"]
    assert reg.call("files_read", {"path": "docs/plan.md"})["extracted"] is False
    # A scan: a page that shows no text.
    (episode.workspace / "scan.pdf").write_bytes(pdf_pages([("", [])]))
    assert "no text layer" in reg.call("files_read", {"path": "scan.pdf"})["note"]
