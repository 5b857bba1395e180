"""Opening a path beneath a folder without races: the folder's own files, never anything outside.

A path is resolved by the kernel, relative to an open descriptor of the folder, in one step:
`openat2` with RESOLVE_BENEATH (no `..`, absolute path or link may lead above the folder) and
RESOLVE_NO_MAGICLINKS (no /proc/self/fd tricks). There is no gap between a check and the open, so
a process that swaps folders and links while we work (a background job of the agent) can make a
call fail, never make it touch a file outside. Links inside the folder are followed, as a shell
would; links out (or absolute ones) are refused.

Where openat2 is missing (Linux before 5.6, or a seccomp filter that forbids it), the same walk is
done one component at a time: each step opens the next folder with O_NOFOLLOW relative to the
descriptor of the last, links are read and followed by hand, and `..` goes back up our own stack of
descriptors, so it can never climb above the folder.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager

_SYS_OPENAT2 = 437  # the same number on every architecture
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_BENEATH = 0x08
_MAX_LINKS = 40  # as the kernel's own limit (ELOOP)
_RETRIES = 8  # openat2 answers EAGAIN when a rename raced with it: try again


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
use_openat2 = True  # cleared when the kernel lacks it; tests clear it to exercise the walk


def split(path: str) -> list[str]:
    """The components of a relative path (`a//b/./c` gives a, b, c); `..` stays, for the walk to refuse."""
    return [part for part in path.split("/") if part not in ("", ".")]


def open_beneath(root: int, parts: list[str], flags: int, mode: int = 0o644) -> int:
    """A descriptor of `parts` (relative to the folder open as `root`), following links that stay beneath it.

    Raises OSError: EXDEV when the path leads outside, ELOOP for too many links, and what open(2) says.
    """
    global use_openat2
    if use_openat2:
        resolve = _RESOLVE_BENEATH | _RESOLVE_NO_MAGICLINKS
        how = _OpenHow(flags | os.O_CLOEXEC, mode if flags & os.O_CREAT else 0, resolve)
        path = ("/".join(parts) or ".").encode()
        for _ in range(_RETRIES):
            fd = _libc.syscall(_SYS_OPENAT2, root, path, ctypes.byref(how), ctypes.sizeof(how))
            if fd >= 0:
                return int(fd)
            err = ctypes.get_errno()
            if err in (errno.ENOSYS, errno.EPERM) and _openat2_missing():
                use_openat2 = False
                break
            if err != errno.EAGAIN:
                raise OSError(err, os.strerror(err), "/".join(parts))
        else:
            raise OSError(errno.EAGAIN, "the folder kept changing while the path was opened", "/".join(parts))
    return _walk(root, parts, flags, mode)


def _openat2_missing() -> bool:
    """Whether openat2 itself is unavailable (rather than refusing this one path)."""
    how = _OpenHow(os.O_PATH | os.O_CLOEXEC, 0, 0)
    fd = _libc.syscall(_SYS_OPENAT2, -100, b"/", ctypes.byref(how), ctypes.sizeof(how))
    if fd >= 0:
        os.close(fd)
        return False
    return True


def _walk(root: int, parts: list[str], flags: int, mode: int) -> int:
    """`open_beneath` without openat2: one O_NOFOLLOW step at a time, links resolved here."""
    stack = [os.dup(root)]  # the folders from the root down to where we are
    todo = list(parts)
    links = 0
    try:
        while todo:
            name = todo.pop(0)
            if name in ("", "."):
                continue
            if name == "..":
                if len(stack) == 1:
                    raise OSError(errno.EXDEV, "the path leads outside the folder", "/".join(parts))
                os.close(stack.pop())
                continue
            try:
                st = os.stat(name, dir_fd=stack[-1], follow_symlinks=False)
            except FileNotFoundError:
                if todo or not flags & os.O_CREAT:
                    raise
                st = None
            if st is not None and stat.S_ISLNK(st.st_mode):
                links += 1
                target = os.readlink(name, dir_fd=stack[-1])
                if links > _MAX_LINKS or target.startswith("/"):
                    why = (errno.ELOOP, "too many links") if links > _MAX_LINKS else (errno.EXDEV, "an absolute link")
                    raise OSError(*why, "/".join(parts))
                todo = target.split("/") + todo
                continue
            if not todo:
                # O_NOFOLLOW: if a link was swapped in since we looked, the open fails instead of following it.
                return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=stack[-1])
            stack.append(os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=stack[-1]))
        return os.open(".", flags | os.O_CLOEXEC, mode, dir_fd=stack[-1])
    finally:
        for fd in stack:
            os.close(fd)


@contextmanager
def opened(root: int, parts: list[str], flags: int, mode: int = 0o644) -> Iterator[int]:
    fd = open_beneath(root, parts, flags, mode)
    try:
        yield fd
    finally:
        os.close(fd)


def read_capped(fd: int, cap: int) -> bytes:
    """Up to `cap` bytes from the start of an open file."""
    chunks, size = [], 0
    while size < cap:
        chunk = os.read(fd, min(1 << 20, cap - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
