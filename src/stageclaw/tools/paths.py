"""Paths an agent gives, confined to the episode workspace without races: the safe-open layer of the tools.

Every tool that touches the user's files goes through `Workspace` (never through a host path it
built): a path is checked for form here (relative, no `..`), then opened by the kernel beneath an
open descriptor of the workspace (`world.beneath`), so a link or folder swapped in by a background
job between two steps can make a call fail, never reach a file outside. Files and folders the
tools create belong to the workspace's owner (the episode's uid), as if the user had made them.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from stageclaw.tools.base import ToolError
from stageclaw.world import beneath

OUTSIDE = "leads outside your files (through a link); it cannot be used"


def clean(path: str) -> str:
    """`path` as a normal relative path ('' for the home folder itself); refuses `..`, absolute paths and NUL."""
    text = str(path).strip()
    pure = PurePosixPath(text)
    if pure.is_absolute() or ".." in pure.parts or "\x00" in text:
        raise ToolError(
            f"path {path!r} is outside your files: give a path relative to your home folder, like 'docs/plan.md'"
        )
    return "/".join(pure.parts)


class Workspace:
    """An open workspace folder; every path given to its methods is relative to it (see `clean`)."""

    def __init__(self, root: Path) -> None:
        self.fd = os.open(root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        st = os.fstat(self.fd)
        self.owner = (st.st_uid, st.st_gid)

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self, path: str, flags: int, given: str, mode: int = 0o644) -> int:
        try:
            return beneath.open_beneath(self.fd, beneath.split(path), flags, mode)
        except OSError as exc:
            raise _error(exc, given) from None

    @contextmanager
    def open(self, path: str, flags: int, given: str | None = None) -> Iterator[int]:
        """A descriptor of `path` (links inside the workspace followed); `given` is the agent's spelling, for errors."""
        fd = self._open(path, flags, given or path)
        try:
            yield fd
        finally:
            os.close(fd)

    def lstat(self, path: str) -> os.stat_result | None:
        """What is at `path` itself (a link is not followed), or None; its folder is resolved beneath."""
        parts = beneath.split(path)
        if not parts:
            return os.fstat(self.fd)
        try:
            folder = beneath.open_beneath(self.fd, parts[:-1], os.O_PATH | os.O_DIRECTORY)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise _error(exc, path) from None
        try:
            return os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            return None
        finally:
            os.close(folder)

    @contextmanager
    def folder(self, path: str, *, create: bool = False, given: str | None = None) -> Iterator[tuple[int, str]]:
        """(descriptor of the folder holding `path`, the last name of `path`), the name itself not resolved.

        With `create`, missing folders on the way are made (belonging to the workspace's owner).
        """
        parts = beneath.split(path)
        if not parts:
            raise ToolError("give a file or folder inside your home folder, not the folder itself", "invalid_arguments")
        fd = self.makedirs("/".join(parts[:-1]), given or path) if create else None
        if fd is None:
            fd = self._open("/".join(parts[:-1]), os.O_PATH | os.O_DIRECTORY, given or path)
        try:
            yield fd, parts[-1]
        finally:
            os.close(fd)

    def makedirs(self, path: str, given: str) -> int:
        """A descriptor of folder `path`, made with its missing parents."""
        parts = beneath.split(path)
        fd = os.dup(self.fd)
        for n, name in enumerate(parts):
            try:
                try:
                    os.mkdir(name, 0o755, dir_fd=fd)
                    if self._chown:
                        # By name, links not followed: whatever was swapped in meanwhile gains nothing.
                        os.chown(name, *self.owner, dir_fd=fd, follow_symlinks=False)
                except FileExistsError:
                    pass
            finally:
                os.close(fd)
            # Resolved from the workspace again: a link to a folder elsewhere in it works, one out does not.
            fd = self._open("/".join(parts[: n + 1]), os.O_PATH | os.O_DIRECTORY, given)
        return fd

    @property
    def _chown(self) -> bool:
        """Whether what the tools make must be given to the workspace's owner (we are root, it is not)."""
        return os.geteuid() == 0 and self.owner != (0, 0)

    def read(self, path: str, cap: int, given: str | None = None) -> tuple[bytes, int]:
        """(the first `cap` bytes, the size) of the regular file `path`."""
        with self.open(path, os.O_RDONLY | os.O_NONBLOCK, given) as fd:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise ToolError(f"{given or path!r} is a folder, not a file; use files_list to see what is in it")
            if not stat.S_ISREG(st.st_mode):
                raise ToolError(f"{given or path!r} is not a regular file (a pipe or device); it cannot be read")
            return beneath.read_capped(fd, cap), st.st_size

    def write(self, path: str, data: bytes, given: str | None = None) -> bool:
        """Replace the whole content of file `path` (made, with its folders, if missing); True if it was made."""
        flags = os.O_WRONLY | os.O_NONBLOCK
        with self.folder(path, create=True, given=given) as (folder, name):
            try:
                fd = os.open(name, flags | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=folder)
                created = True
            except FileExistsError:  # an existing file, or a link (to be followed within the workspace)
                fd, created = self._open(path, flags, given or path), False
            except OSError as exc:
                raise _error(exc, given or path) from None
        if created and self._chown:
            os.fchown(fd, *self.owner)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ToolError(f"{given or path!r} is not a regular file; it cannot be written")
            os.ftruncate(fd, 0)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        return created


def _error(exc: OSError, path: str) -> ToolError:
    """A failed open, as the agent should hear it."""
    if exc.errno == errno.EXDEV:
        return ToolError(f"path {path!r} {OUTSIDE}")
    if exc.errno == errno.ENOENT:
        return ToolError(f"no such file or folder: {path!r}; use files_list to see what exists")
    if exc.errno == errno.ELOOP:
        return ToolError(f"path {path!r} goes through too many links, or a link that was just swapped in")
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return ToolError(f"cannot use {path!r}: part of its folder path is an existing file")
    if exc.errno == errno.EISDIR:
        return ToolError(f"{path!r} is a folder; give a file path such as 'notes/todo.txt'", "invalid_arguments")
    return ToolError(f"cannot open {path!r}: {exc.strerror}")
