"""The user's files: the episode workspace, every path opened beneath it race-free by `paths.Workspace`."""

from __future__ import annotations

import codecs
import os
import shlex
import stat
from pathlib import PurePosixPath
from typing import Annotated, Any

from pydantic import Field

from stageclaw.tools import documents, paging, paths
from stageclaw.tools.base import ToolContext, ToolError, tool

READ_CAP = 128 * 1024
# Documents are read whole (a ZIP's directory is at its end); bigger ones are treated as plain bytes.
DOCUMENT_CAP = 64 * 1024 * 1024
BINARY_PROBE = 8192

PathArg = Annotated[str, Field(description="A path relative to the user's home folder, e.g. 'docs/plan.md'.")]


def _workspace(ctx: ToolContext) -> paths.Workspace:
    return paths.Workspace(ctx.episode.workspace)


def _join(*parts: str) -> str:
    return "/".join(p for part in parts for p in part.split("/") if p not in ("", "."))


def _describe(rel: str, st: os.stat_result) -> dict[str, Any]:
    if stat.S_ISLNK(st.st_mode):
        return {"path": rel, "type": "link", "size": None}
    if stat.S_ISDIR(st.st_mode):
        return {"path": rel, "type": "dir", "size": None}
    return {"path": rel, "type": "file", "size": st.st_size}


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
    rel = paths.clean(path)
    pager: paging.Pager[dict[str, Any]] = paging.Pager(
        "files_list", {"path": rel}, limit, cursor, default=200, noun="entries"
    )
    entries: list[dict[str, Any]] = []
    with _workspace(ctx) as ws, ws.open(rel, os.O_PATH, path) as found:
        if not stat.S_ISDIR(os.fstat(found).st_mode):
            entries.append(_describe(rel, os.fstat(found)))
        else:
            # fwalk never follows a link out, and notices a folder swapped for a link while it walks.
            top = os.open(".", os.O_RDONLY | os.O_DIRECTORY, dir_fd=found)
            try:
                for folder, dirnames, filenames, fd in os.fwalk(".", dir_fd=top):
                    for name in dirnames + filenames:
                        try:
                            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                        except FileNotFoundError:  # gone since the folder was read
                            continue
                        entries.append(_describe(_join(rel, folder, name), st))
            finally:
                os.close(top)
    # Tree order: "docs/x" before "docs-old".
    chosen, fields = pager.finish(pager.window(entries, lambda e: (e["path"].split("/"),)))
    return {"entries": chosen, **fields}


def _text(data: bytes, *, final: bool) -> str | None:
    """`data` as UTF-8 text, or None for a binary file; `final=False` allows a cut multi-byte character at the end."""
    if b"\x00" in data[:BINARY_PROBE]:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError:
        return None


def _document(rel: str, doc: documents.Document) -> dict[str, Any]:
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
    out: dict[str, Any] = {"path": rel, "content": content, "extracted": True, "format": doc.format}
    if doc.unit is not None:
        out[f"{doc.unit}s"] = doc.count
    notes = list(doc.notes)
    if len(shown) < doc.count:
        out["truncated"] = True
        notes.append(_rest_of(rel, doc, len(shown)))
    if notes:
        out["note"] = "; ".join(notes)
    return out


def _rest_of(rel: str, doc: documents.Document, done: int) -> str:
    """How to read what did not fit, with the terminal's converters."""
    in_shell = "~/" + shlex.quote(rel)
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
    rel = paths.clean(path)
    with _workspace(ctx) as ws:
        data, size = ws.read(rel, DOCUMENT_CAP, path)
    # The shell may have changed folder: point it at the file from the home folder.
    in_shell = "~/" + shlex.quote(rel)
    if len(data) == size:
        try:
            doc = documents.extract(PurePosixPath(rel).name, data, budget=READ_CAP)
        except documents.DocumentError as exc:
            raise ToolError(f"{path!r}: {exc}; try terminal_run, e.g. `file {in_shell}`") from None
        if doc is not None:
            return _document(rel, doc)
    data = data[:READ_CAP]
    truncated = size > len(data)
    content = _text(data, final=not truncated)
    if content is None:
        raise ToolError(
            f"{path!r} is not a text file or a document files_read can extract ({size} bytes; binary, e.g. an"
            f" image or archive). Inspect it with terminal_run instead, e.g. `file {in_shell}`,"
            f" `xxd {in_shell} | head -n 20` or `strings {in_shell}`"
        )
    out: dict[str, Any] = {"path": rel, "content": content, "extracted": False}
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
    rel = paths.clean(path)
    if not rel:
        raise ToolError(f"{path!r} is a folder; give a file path such as 'notes/todo.txt'", "invalid_arguments")
    data = content.encode("utf-8", errors="replace")
    with _workspace(ctx) as ws:
        created = ws.write(rel, data, path)
    return {"path": rel, "size": len(data), "created": created}


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
    src_rel, dst_rel = paths.clean(src), paths.clean(dst)
    with _workspace(ctx) as ws, ws.folder(src_rel, given=src) as (src_dir, name):
        try:
            source = os.stat(name, dir_fd=src_dir, follow_symlinks=False)
        except FileNotFoundError:
            raise ToolError(f"no such file or folder: {src!r}; use files_list to see what exists") from None
        existing = ws.lstat(dst_rel)
        into = dst.strip().endswith("/") or not dst_rel or (existing is not None and stat.S_ISDIR(existing.st_mode))
        final = _join(dst_rel, name) if into else dst_rel
        if stat.S_ISDIR(source.st_mode) and (final + "/").startswith(src_rel + "/"):
            raise ToolError(f"cannot move the folder {src!r} into itself")
        with ws.folder(final, create=True, given=dst) as (dst_dir, dst_name):
            try:
                os.stat(dst_name, dir_fd=dst_dir, follow_symlinks=False)
                taken = True
            except FileNotFoundError:
                taken = False
            if taken:
                raise ToolError(
                    f"{final!r} already exists and is not overwritten; delete it first with files_delete or"
                    " choose another name"
                )
            try:
                os.rename(name, dst_name, src_dir_fd=src_dir, dst_dir_fd=dst_dir)
            except OSError as exc:
                raise ToolError(f"cannot move {src!r} to {dst!r}: {exc.strerror}") from None
    return {"src": src_rel, "dst": final}


@tool("files", returns="{deleted}")
def files_delete(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Delete a file, a link, or an empty folder; returns {deleted}.

    A folder must be empty: delete what is inside it first (files_list shows it). Side effects: the
    deletion, which cannot be undone.
    """
    rel = paths.clean(path)
    with _workspace(ctx) as ws, ws.folder(rel, given=path) as (folder, name):
        try:
            st = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            raise ToolError(f"no such file or folder: {path!r}; use files_list to see what exists") from None
        if not stat.S_ISDIR(st.st_mode):
            os.unlink(name, dir_fd=folder)
            return {"deleted": rel}
        inside = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=folder)
        try:
            names = os.listdir(inside)
        finally:
            os.close(inside)
        if names:
            raise ToolError(
                f"the folder {path!r} is not empty (it holds {len(names)} entries, e.g. {sorted(names)[0]!r});"
                " delete what is inside first, or keep the folder"
            )
        try:
            os.rmdir(name, dir_fd=folder)
        except OSError as exc:
            raise ToolError(f"cannot delete the folder {path!r}: {exc.strerror}") from None
    return {"deleted": rel}
