"""The files a world.yaml refers to (`path:` of workspace files and attachments)."""

from __future__ import annotations

from pathlib import Path

from stageclaw.world.model import World, asset_path, asset_refs

TEXT_LIMIT = 1 << 20


def outside(task_dir: Path, world: World) -> list[str]:
    """Assets that are not regular files in the task's assets/ folder (links, devices, files elsewhere).

    The loader refuses such a world; this names them again for the report of a task changed since.
    """
    out = []
    for _, rel in asset_refs(world):
        try:
            asset_path(task_dir, rel)
        except ValueError as exc:
            out.append(str(exc))
    return out


def texts(task_dir: Path, world: World) -> list[str]:
    """The assets that are UTF-8 text, read only when they are regular files in assets/."""
    out = []
    for rel in dict.fromkeys(rel for _, rel in asset_refs(world)):
        try:
            path = asset_path(task_dir, rel)
        except ValueError:
            continue
        if path.stat().st_size > TEXT_LIMIT:
            continue
        try:
            out.append(path.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return out
