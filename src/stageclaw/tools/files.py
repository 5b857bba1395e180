"""The user's files: the episode workspace, every path confined to it by `paths.resolve`."""

from __future__ import annotations

import codecs
import os
import shlex
import shutil
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from pydantic import Field

from stageclaw.tools import documents, paging, paths
from stageclaw.tools.base import ToolContext, ToolError, tool

READ_CAP = 128 * 1024
# Documents are read whole (a ZIP's directory is at its end); bigger ones are treated as plain bytes.
DOCUMENT_CAP = 64 * 1024 * 1024
BINARY_PROBE = 8192

PathArg = Annotated[str, Field(description="A path relative to the user's home folder, e.g. 'docs/plan.md'.")]


def _target(ctx: ToolContext, path: str, *, must_exist: bool = False) -> Path:
    return paths.resolve(ctx.episode.workspace, path, must_exist=must_exist)


def _entry(ctx: ToolContext, path: str) -> Path:
    """The file, folder or link named by `path` itself, not what a link at that name points to.

    Moving or deleting a link acts on the link, as `mv` and `rm` do, so only its folder is resolved
    (and confined); that also lets the agent remove a link that points outside its files.
    """
    pure = PurePosixPath(str(path).strip())
    if not pure.parts or pure.name == "..":
        paths.resolve(ctx.episode.workspace, str(path))  # refuses what lies outside the workspace
        raise ToolError("give a file or folder inside your home folder, not the folder itself", "invalid_arguments")
    return _target(ctx, str(pure.parent)) / pure.name


def _rel(ctx: ToolContext, target: Path) -> str:
    return paths.relative(ctx.episode.workspace, target)


def _describe(ctx: ToolContext, target: Path) -> dict[str, Any]:
    if target.is_symlink():
        return {"path": _rel(ctx, target), "type": "link", "size": None}
    if target.is_dir():
        return {"path": _rel(ctx, target), "type": "dir", "size": None}
    return {"path": _rel(ctx, target), "type": "file", "size": target.stat().st_size}


@tool("files", returns="{entries: [{path, type, size}]}")
def files_list(
    ctx: ToolContext,
    path: Annotated[
        str, Field(description="The folder to list, relative to the home folder, e.g. 'docs'; '' lists everything.")
    ] = "",
    limit: paging.limit(200, 1000) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """List the user's files and folders under `path`, recursively, in tree order. Changes nothing.

    Returns {entries: [{path, type, size}], total, next_cursor}: `path` is relative to the home
    folder (ready to pass to files_read), `type` is "file", "dir" or "link" (a symbolic link, not
    followed), and `size` is in bytes for files and null otherwise. Listing a single file gives
    just that file. To search by name or content, terminal_run with `find` or `grep` may be quicker.
    """
    root = _target(ctx, path, must_exist=True)
    pager: paging.Pager[str] = paging.Pager(
        "files_list", {"path": _rel(ctx, root)}, limit, cursor, default=200, noun="entries"
    )
    found = [str(root)] if not root.is_dir() else []
    for dirpath, dirnames, filenames in os.walk(root) if root.is_dir() else ():
        found.extend(os.path.join(dirpath, name) for name in dirnames + filenames)
    # Tree order: "docs/x" before "docs-old". The walk's paths lie under the real workspace path.
    skip = len(os.path.realpath(ctx.episode.workspace)) + 1
    chosen = pager.window(found, lambda p: (p[skip:].split(os.sep),))
    entries, fields = pager.finish([_describe(ctx, Path(p)) for p in chosen])
    return {"entries": entries, **fields}


def _text(data: bytes, *, final: bool) -> str | None:
    """`data` as UTF-8 text, or None for a binary file; `final=False` allows a cut multi-byte character at the end."""
    if b"\x00" in data[:BINARY_PROBE]:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError:
        return None


def _document(ctx: ToolContext, target: Path, doc: documents.Document) -> dict[str, Any]:
    """A document's extracted text, cut at a page or sheet boundary when it is long, with its structure."""
    shown: list[documents.Part] = []
    for part in doc.parts:
        if len(doc.text([*shown, part]).encode("utf-8")) > READ_CAP:
            break
        shown.append(part)
    if shown:
        content = doc.text(shown)
    else:  # the first part alone is too long: show as much of it as fits
        content = doc.text(doc.parts[:1]).encode("utf-8")[:READ_CAP].decode("utf-8", errors="ignore")
    out: dict[str, Any] = {"path": _rel(ctx, target), "content": content, "extracted": True, "format": doc.format}
    if doc.unit is not None:
        out[f"{doc.unit}s"] = doc.count
    notes = list(doc.notes)
    if len(shown) < doc.count:
        out["truncated"] = True
        notes.append(_rest_of(ctx, target, doc, len(shown)))
    if notes:
        out["note"] = "; ".join(notes)
    return out


def _rest_of(ctx: ToolContext, target: Path, doc: documents.Document, done: int) -> str:
    """How to read what did not fit, with the terminal's converters."""
    in_shell = "~/" + shlex.quote(_rel(ctx, target))
    if doc.unit == "page":
        return (
            f"only pages 1-{done} of {doc.count} fit here" if done else "the first page alone is too long"
        ) + f"; read on with terminal_run, e.g. `pdftotext -layout -f {done + 1} -l {done + 5} {in_shell} -`"
    if doc.unit == "sheet":
        return (
            f"only sheets 1-{done} of {doc.count} fit here" if done else "the first sheet alone is too long"
        ) + f"; read a sheet with terminal_run, e.g. `xlsx2csv -s {done + 1} {in_shell} | head -n 200`"
    tool = {"docx": "docx2txt", "odt": "odt2txt"}.get(doc.format, "cat")
    return f"the text is cut at {READ_CAP} bytes; read it whole with terminal_run, e.g. `{tool} {in_shell} | less`"


@tool("files", returns="{path, content, extracted, format?, pages?, sheets?, truncated?, note?}")
def files_read(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Read a file: a UTF-8 text file as it is, or the text of a document (PDF, DOCX, XLSX, ODT, CSV).

    Returns {path, content, extracted}. For a document, `extracted` is true and `content` is text
    taken out of it, not the file's bytes: a PDF's pages are marked `[page 2 of 5]`, a
    workbook's sheets `[sheet 1 of 2: "Q1", ...]` with their rows as CSV, a DOCX or ODT's headings
    with `#` and its tables as `| a | b |` rows; `format` names the kind and `pages` or `sheets`
    counts them. Layout, images and fonts are lost, and a scanned PDF has no text to extract. Text
    over 128 KiB is cut (at a page or sheet boundary for documents): the result then has
    `truncated: true` and a `note` on how to read the rest with terminal_run (which has pdftotext,
    pdfinfo, docx2txt, odt2txt and xlsx2csv). Other binary files (images, archives) are refused:
    inspect them with terminal_run. Changes nothing.
    """
    target = _target(ctx, path, must_exist=True)
    if target.is_dir():
        raise ToolError(f"{path!r} is a folder, not a file; use files_list to see what is in it")
    if not target.is_file():
        raise ToolError(f"{path!r} is not a regular file (a pipe or device); it cannot be read")
    size = target.stat().st_size
    with open(target, "rb") as fh:
        data = fh.read(DOCUMENT_CAP if size <= DOCUMENT_CAP else READ_CAP)
    # The shell may have changed folder: point it at the file from the home folder.
    in_shell = "~/" + shlex.quote(_rel(ctx, target))
    if len(data) == size:
        try:
            doc = documents.extract(target.name, data, budget=READ_CAP)
        except documents.DocumentError as exc:
            raise ToolError(f"{path!r}: {exc}; try terminal_run, e.g. `file {in_shell}`") from None
        if doc is not None:
            return _document(ctx, target, doc)
    data = data[:READ_CAP]
    truncated = size > len(data)
    content = _text(data, final=not truncated)
    if content is None:
        raise ToolError(
            f"{path!r} is not a text file or a document files_read can extract ({size} bytes; binary, e.g. an"
            f" image or archive). Inspect it with terminal_run instead, e.g. `file {in_shell}`,"
            f" `xxd {in_shell} | head -n 20` or `strings {in_shell}`"
        )
    out: dict[str, Any] = {"path": _rel(ctx, target), "content": content, "extracted": False}
    if truncated:
        shown = len(content.encode("utf-8"))
        out["truncated"] = True
        out["note"] = (
            f"the file has {size} bytes; this is the first {shown}. Read the rest with terminal_run, e.g."
            f" `tail -c +{shown + 1} {in_shell} | head -c {READ_CAP}`, or search it with grep"
        )
    return out


@tool("files", returns="{path, size, created}")
def files_write(
    ctx: ToolContext,
    path: PathArg,
    content: Annotated[str, Field(description="The whole new text of the file, written as UTF-8 exactly as given.")],
) -> dict[str, Any]:
    """Create a text file, or replace the whole content of an existing one; returns {path, size, created}.

    To change part of a file, read it with files_read and write back the full edited text.
    Side effects: the file is written (an existing one replaced); missing parent folders are created.
    """
    target = _target(ctx, path)
    if target == Path(os.path.realpath(ctx.episode.workspace)) or target.is_dir():
        raise ToolError(f"{path!r} is a folder; give a file path such as 'notes/todo.txt'", "invalid_arguments")
    created = not target.exists()
    data = content.encode("utf-8", errors="replace")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    except (FileExistsError, NotADirectoryError):
        raise ToolError(f"cannot write {path!r}: part of its folder path is an existing file") from None
    return {"path": _rel(ctx, target), "size": len(data), "created": created}


@tool("files", returns="{src, dst}")
def files_move(
    ctx: ToolContext,
    src: Annotated[str, Field(description="The file or folder to move or rename, e.g. 'drafts/report.md'.")],
    dst: Annotated[
        str,
        Field(
            description="Where it goes: a new path such as 'archive/2026/report.md', or an existing folder to move"
            " it into, such as 'archive'."
        ),
    ],
) -> dict[str, Any]:
    """Move or rename a file or folder; returns {src, dst} with the final path.

    If `dst` is an existing folder (or ends with '/'), `src` moves into it under its own name;
    otherwise `dst` is the new path, and missing parent folders are created. Nothing is ever
    overwritten: if the destination exists, delete it first with files_delete or pick another name.
    Side effects: the move, and any parent folders it needs.
    """
    source = _entry(ctx, src)
    if not os.path.lexists(source):
        raise ToolError(f"no such file or folder: {src!r}; use files_list to see what exists")
    into = dst.strip().endswith("/") or (not PurePosixPath(dst.strip()).parts)
    target = _target(ctx, dst) if into else _entry(ctx, dst)
    if into or (target.is_dir() and not target.is_symlink()):
        target = target / source.name
    if os.path.lexists(target):
        raise ToolError(
            f"{_rel(ctx, target)!r} already exists and is not overwritten; delete it first with files_delete or"
            " choose another name"
        )
    if source.is_dir() and not source.is_symlink() and target.is_relative_to(source):
        raise ToolError(f"cannot move the folder {src!r} into itself")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ToolError(f"cannot move to {dst!r}: part of its folder path is an existing file") from None
    shutil.move(source, target)
    return {"src": _rel(ctx, source), "dst": _rel(ctx, target)}


@tool("files", returns="{deleted}")
def files_delete(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Delete a file, a link, or an empty folder; returns {deleted}.

    A folder must be empty: delete what is inside it first (files_list shows it). Side effects: the
    deletion, which cannot be undone.
    """
    target = _entry(ctx, path)
    if not os.path.lexists(target):
        raise ToolError(f"no such file or folder: {path!r}; use files_list to see what exists")
    if target.is_dir() and not target.is_symlink():
        inside = os.listdir(target)
        if inside:
            raise ToolError(
                f"the folder {path!r} is not empty (it holds {len(inside)} entries, e.g. {sorted(inside)[0]!r});"
                " delete what is inside first, or keep the folder"
            )
        target.rmdir()
    else:
        target.unlink()
    return {"deleted": _rel(ctx, target)}
