"""The episode workspace: the user's files, seeded from world.yaml and read as State JSON."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from stageclaw.world.model import FileSeed, asset_path

TEXT_LIMIT = 64 * 1024


def seed_bytes(seed: FileSeed, base: Path) -> bytes:
    if seed.text is not None:
        return seed.text.encode("utf-8")
    return asset_path(base, seed.path or "").read_bytes()


def file_state(data: bytes) -> dict[str, Any]:
    state: dict[str, Any] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    if len(data) <= TEXT_LIMIT:
        try:
            state["text"] = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return state


def seed(root: Path, files: dict[str, FileSeed], base: Path, mtime: float) -> None:
    """Write the files, dated `mtime` (the world's now), so `ls -lt` inside the world makes sense."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, spec in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(seed_bytes(spec, base))
        os.utime(target, (mtime, mtime))
    for folder in [p for p in root.rglob("*") if p.is_dir()] + [root]:
        os.utime(folder, (mtime, mtime))


def read(root: Path) -> dict[str, dict[str, Any]]:
    """Every regular file under `root` by its relative POSIX path; symlinks are not followed."""
    out: dict[str, dict[str, Any]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as fh:
                out[os.path.relpath(path, root).replace(os.sep, "/")] = file_state(fh.read())
    return dict(sorted(out.items()))
