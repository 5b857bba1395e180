"""The files a world.yaml refers to (`path:` of workspace files and attachments)."""

from __future__ import annotations

from pathlib import Path

from stageclaw.world.model import World, asset_refs

TEXT_LIMIT = 1 << 20


def outside(task_dir: Path, world: World) -> list[str]:
    """Assets that are not regular files inside the task folder (links out, devices, /proc files)."""
    root = task_dir.resolve()
    out = []
    for _, rel in asset_refs(world):
        target = (task_dir / rel).resolve()
        if not target.is_relative_to(root) or not target.is_file():
            out.append(f"{rel} -> {target}")
    return out


def texts(task_dir: Path, world: World) -> list[str]:
    """The assets that are UTF-8 text, read only when they are ordinary files of the task."""
    bad = {line.split(" -> ", 1)[0] for line in outside(task_dir, world)}
    out = []
    for rel in dict.fromkeys(rel for _, rel in asset_refs(world)):
        path = task_dir / rel
        if rel in bad or path.stat().st_size > TEXT_LIMIT:
            continue
        try:
            out.append(path.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return out
