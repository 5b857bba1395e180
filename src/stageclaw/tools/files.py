"""The user's files: the episode workspace, every path confined to it by `paths.resolve`."""

from __future__ import annotations

import codecs
import os
import shlex
import shutil
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from pydantic import Field

from stageclaw.tools import paths
from stageclaw.tools.base import ToolContext, ToolError, tool

READ_CAP = 128 * 1024
LIST_CAP = 1000
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


@tool("files", returns="{entries: [{path, type, size}], note?}")
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
    root = _target(ctx, path, must_exist=True)
    if not root.is_dir():
        return {"entries": [_describe(ctx, root)]}
    entries: list[dict[str, Any]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            entries.append(_describe(ctx, Path(dirpath, name)))
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


@tool("files", returns="{path, content, truncated?, note?}")
def files_read(ctx: ToolContext, path: PathArg) -> dict[str, Any]:
    """Read a UTF-8 text file and return {path, content}.

    Files over 128 KiB are cut: the result then has `truncated: true` and a `note` on how to read
    the rest. A binary file (PDF, image, spreadsheet, archive...) cannot be read here: inspect it with
    terminal_run instead, e.g. `file report.pdf`, `xxd report.pdf | head`, `unzip -l data.xlsx`.
    """
    target = _target(ctx, path, must_exist=True)
    if target.is_dir():
        raise ToolError(f"{path!r} is a folder, not a file; use files_list to see what is in it")
    if not target.is_file():
        raise ToolError(f"{path!r} is not a regular file (a pipe or device); it cannot be read")
    size = target.stat().st_size
    with open(target, "rb") as fh:
        data = fh.read(READ_CAP)
    truncated = size > len(data)
    content = _text(data, final=not truncated)
    # The shell may have changed folder: point it at the file from the home folder.
    in_shell = "~/" + shlex.quote(_rel(ctx, target))
    if content is None:
        raise ToolError(
            f"{path!r} is not a UTF-8 text file ({size} bytes; binary, e.g. a PDF, image or spreadsheet). Inspect it"
            f" with terminal_run instead, e.g. `file {in_shell}`, `xxd {in_shell} | head -n 20` or `strings {in_shell}`"
        )
    out: dict[str, Any] = {"path": _rel(ctx, target), "content": content}
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

    Missing parent folders are created. To change part of a file, read it with files_read and write
    back the full edited text.
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

    A folder must be empty: delete what is inside it first (files_list shows it). Deleting cannot be
    undone.
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
