"""The user's files: the episode workspace, every path opened beneath it race-free by `paths.Workspace`."""

from __future__ import annotations

import codecs
import os
import shlex
import stat
from typing import Annotated, Any

from pydantic import Field

from stageclaw.tools import paths
from stageclaw.tools.base import ToolContext, ToolError, tool

READ_CAP = 128 * 1024
LIST_CAP = 1000
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


@tool("files")
def files_list(
    ctx: ToolContext,
    path: Annotated[
        str, Field(description="The folder to list, relative to the home folder, e.g. 'docs'; '' lists everything.")
    ] = "",
) -> dict[str, Any]:
    """List the user's files and folders under `path`, recursively, sorted by path.

    Each entry is {path, type, size}: `path` is relative to the home folder (ready to pass to
    files_read), `type` is "file", "dir" or "link" (a symbolic link, not followed), and `size` is in
    bytes for files and null otherwise. Listing a single file gives just that file. Very large
    listings are cut at 1000 entries, with a `note`.
    """
    rel = paths.clean(path)
    entries: list[dict[str, Any]] = []
    with _workspace(ctx) as ws, ws.open(rel, os.O_PATH, path) as found:
        if not stat.S_ISDIR(os.fstat(found).st_mode):
            return {"entries": [_describe(rel, os.fstat(found))]}
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
    entries.sort(key=lambda e: e["path"].split("/"))  # tree order: "docs/x" before "docs-old"
    out: dict[str, Any] = {"entries": entries[:LIST_CAP]}
    if len(entries) > LIST_CAP:
        out["note"] = (
            f"showing the first {LIST_CAP} of {len(entries)} entries; list a subfolder, or use terminal_run with"
            " `find` to search"
        )
    return out


def _text(data: bytes, *, final: bool) -> str | None:
    """`data` as UTF-8 text, or None for a binary file; `final=False` allows a cut multi-byte character at the end."""
    if b"\x00" in data[:BINARY_PROBE]:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError:
        return None


@tool("files")
def files_read(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Read a UTF-8 text file and return {path, content}.

    Files over 128 KiB are cut: the result then has `truncated: true` and a `note` on how to read
    the rest. A binary file (PDF, image, spreadsheet, archive...) cannot be read here: inspect it with
    terminal_run instead, e.g. `file report.pdf`, `xxd report.pdf | head`, `unzip -l data.xlsx`.
    """
    rel = paths.clean(path)
    with _workspace(ctx) as ws:
        data, size = ws.read(rel, READ_CAP, path)
    truncated = size > len(data)
    content = _text(data, final=not truncated)
    # The shell may have changed folder: point it at the file from the home folder.
    in_shell = "~/" + shlex.quote(rel)
    if content is None:
        raise ToolError(
            f"{path!r} is not a UTF-8 text file ({size} bytes; binary, e.g. a PDF, image or spreadsheet). Inspect it"
            f" with terminal_run instead, e.g. `file {in_shell}`, `xxd {in_shell} | head -n 20` or `strings {in_shell}`"
        )
    out: dict[str, Any] = {"path": rel, "content": content}
    if truncated:
        shown = len(content.encode("utf-8"))
        out["truncated"] = True
        out["note"] = (
            f"the file has {size} bytes; this is the first {shown}. Read the rest with terminal_run, e.g."
            f" `tail -c +{shown + 1} {in_shell} | head -c {READ_CAP}`, or search it with grep"
        )
    return out


@tool("files")
def files_write(
    ctx: ToolContext,
    path: PathArg,
    content: Annotated[str, Field(description="The whole new text of the file, written as UTF-8 exactly as given.")],
) -> dict[str, Any]:
    """Create a text file, or replace the whole content of an existing one; returns {path, size, created}.

    Missing parent folders are created. To change part of a file, read it with files_read and write
    back the full edited text.
    """
    rel = paths.clean(path)
    if not rel:
        raise ToolError(f"{path!r} is a folder; give a file path such as 'notes/todo.txt'", "invalid_arguments")
    data = content.encode("utf-8", errors="replace")
    with _workspace(ctx) as ws:
        created = ws.write(rel, data, path)
    return {"path": rel, "size": len(data), "created": created}


@tool("files")
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


@tool("files")
def files_delete(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Delete a file, a link, or an empty folder; returns {deleted}.

    A folder must be empty: delete what is inside it first (files_list shows it). Deleting cannot be
    undone.
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
