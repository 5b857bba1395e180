"""The episode workspace: the user's files, seeded from world.yaml and read as State JSON.

The reading is the agent's adversary too: it walks the folder with descriptors (`os.fwalk`,
files opened with O_NOFOLLOW), so no link or swapped folder takes it outside, and it reads at most
`READ_CAP` bytes of a file, hashing as it reads, so a huge (or sparse) file costs neither memory
nor minutes. A file past the cap is hashed over its first `READ_CAP` bytes and marked `truncated`.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path
from typing import Any

from stageclaw.world.clock import EpisodeClock
from stageclaw.world.model import FileSeed, asset_path

TEXT_LIMIT = 64 * 1024
READ_CAP = 64 << 20
_CHUNK = 1 << 20


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


def redate(root: Path, clock: EpisodeClock, done: dict[str, int]) -> None:
    """Date what the episode wrote by the episode's clock, as it dates what was seeded.

    The kernel stamps a written file with the real time, months away from the world's; `ls -l` would show a
    date the world has not reached. Entries stamped since the episode began move by the clock's offset.
    `done` remembers what was moved (relative path: the new stamp), so a world dated near today never
    moves twice. Walked by descriptors, like `read`, so no link takes the walk outside `root`.
    """
    now = time.time()
    top = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for folder, dirs, names, dir_fd in os.fwalk(".", dir_fd=top):
            here = ["."] if folder == "." else []  # the workspace folder itself, once
            for name in [*here, *dirs, *names]:
                rel = os.path.normpath(os.path.join(folder, name))
                try:
                    info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
                except OSError:
                    continue
                if done.get(rel) == info.st_mtime_ns or not clock.wall_start - 1 <= info.st_mtime <= now + 1:
                    continue
                moved = clock.world_time(info.st_mtime)
                try:
                    os.utime(name, (moved, moved), dir_fd=dir_fd, follow_symlinks=False)
                except OSError:
                    continue  # gone, or a link the system cannot re-date: nothing the agent needs
                done[rel] = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mtime_ns
    finally:
        os.close(top)


def read(root: Path) -> dict[str, dict[str, Any]]:
    """Every regular file under `root` by its relative POSIX path; links are not followed."""
    out: dict[str, dict[str, Any]] = {}
    top = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        for folder, _, filenames, dir_fd in os.fwalk(".", dir_fd=top):
            for name in filenames:
                state = _read_file(name, dir_fd)
                if state is not None:
                    out[os.path.normpath(os.path.join(folder, name)).replace(os.sep, "/")] = state
    finally:
        os.close(top)
    return dict(sorted(out.items()))


def _read_file(name: str, dir_fd: int) -> dict[str, Any] | None:
    """The state of regular file `name` in the folder `dir_fd`, or None for anything else (a link, a pipe)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:  # a link (O_NOFOLLOW), or gone since the folder was listed
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        digest, head, read = hashlib.sha256(), b"", 0
        while read < READ_CAP and (chunk := os.read(fd, min(_CHUNK, READ_CAP - read))):
            digest.update(chunk)
            if read <= TEXT_LIMIT:
                head += chunk[: TEXT_LIMIT + 1 - read]
            read += len(chunk)
    finally:
        os.close(fd)
    truncated = read >= READ_CAP and st.st_size > read
    state: dict[str, Any] = {"sha256": digest.hexdigest(), "size": st.st_size if truncated else read}
    if read <= TEXT_LIMIT:
        try:
            state["text"] = head.decode("utf-8")
        except UnicodeDecodeError:
            pass
    if truncated:
        state["truncated"] = True
    return state
