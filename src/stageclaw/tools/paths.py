"""Paths an agent gives, confined to the episode workspace."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from stageclaw.tools.base import ToolError


def resolve(workspace: Path, path: str, *, must_exist: bool = False) -> Path:
    """The real path of `path` inside `workspace`; refuses `..`, absolute paths and symlinks out."""
    text = str(path).strip()
    pure = PurePosixPath(text)
    if pure.is_absolute() or ".." in pure.parts or "\x00" in text:
        raise ToolError(
            f"path {path!r} is outside your files: give a path relative to your home folder, like 'docs/plan.md'"
        )
    root = os.path.realpath(workspace)
    target = os.path.realpath(os.path.join(root, *pure.parts)) if pure.parts else root
    if target != root and not target.startswith(root + os.sep):
        raise ToolError(f"path {path!r} leads outside your files (through a link); it cannot be used")
    if must_exist and not os.path.lexists(target):
        raise ToolError(f"no such file or folder: {path!r}; use files_list to see what exists")
    return Path(target)


def relative(workspace: Path, target: Path) -> str:
    return os.path.relpath(target, os.path.realpath(workspace)).replace(os.sep, "/")
