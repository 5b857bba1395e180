"""The jail: every program stageclaw does not trust (agent programs, the terminal, task code) runs in one.

A jail is built by allowlist. Its root is an empty tmpfs; what exists inside is exactly: read-only
`/usr`, the few `/etc` files programs need (never `shadow`, `ssl/private` or the host's `passwd`:
a one-line `passwd` is made for the jail), private `/proc` (its own processes only), `/dev` (null,
zero, random, tty), `/tmp` and `/dev/shm`, and the mounts its caller names, at the path it names.
Every mount is nosuid and nodev. There is no network unless asked for (the agent programs get the
host's, for their model's API), and then only the network: no file, socket or process of the host.

Who runs inside: when stageclaw runs as root, a uid of the jail's own (`Identity.fresh`), one no
account of the host has and no file of the host belongs to, inside an unprivileged user namespace
(seen there as uid 1000) with every capability dropped, no-new-privileges set and user namespaces
disabled. Two bubblewrap processes make that: the outer one, as root, mounts what the jail may see
(root may read every folder on the way to a mount's source, which the jail's uid may not), then
drops to the jail's uid (`setpriv`) and runs the inner one, unprivileged, which makes the user
namespace. As an ordinary user, one unprivileged bubblewrap does both, and the program runs as that
user (the only uid there is to run as).

Limits (`Limits`, set with prlimit before the jail starts and inherited by everything in it): the
number of processes of the jail's uid (when it has one of its own), memory and file size per
process, open files; no core dumps.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw.errors import ServiceError

INSTALL_HINT = "run scripts/install or `apt-get install bubblewrap util-linux`"
INSIDE_UID = 1000  # what the program sees as its uid, whatever the host uid is
# Files of /etc a program needs (the dynamic linker, certificates), nothing that holds secrets; not the host's
# time zone either (a jail's program learns the task's from TZ).
ETC_FILES = (
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/ssl/certs",
    "/etc/ssl/openssl.cnf",
    "/etc/ca-certificates",
    "/etc/mime.types",
)
# What name resolution and TLS need, for a jail with the network.
ETC_NETWORK = ("/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf")
ETC_NETWORK += ("/etc/services", "/etc/protocols")
# Host uids of jails: far above what distributions give accounts (< 60000), subordinate id ranges
# (100000 and up) and container ranges (up to 0x6FFFFFFF); below the sign bit.
UID_BASE = 0x7E000000
UID_SPAN = 1 << 24


def find() -> str | None:
    return shutil.which("bwrap")


def binary() -> str:
    found = find()
    if found is None:
        raise ServiceError(f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}")
    return found


def _tool(name: str) -> str:
    found = shutil.which(name) or next((p for p in (f"/usr/bin/{name}",) if os.path.exists(p)), None)
    if found is None:
        raise ServiceError(f"{name} (util-linux) is not installed: {INSTALL_HINT}")
    return found


@dataclass(frozen=True)
class Identity:
    """The host uid and gid a jail runs as."""

    uid: int
    gid: int

    @classmethod
    def fresh(cls) -> Identity:
        """As root, a uid of its own that no account has (so it owns nothing); else the current user."""
        if os.geteuid() != 0:
            return cls(os.getuid(), os.getgid())
        while True:
            uid = UID_BASE + secrets.randbelow(UID_SPAN)
            try:
                pwd.getpwuid(uid)
            except KeyError:
                return cls(uid, uid)

    @property
    def own(self) -> bool:
        """Whether the jail has a uid of its own, not the one stageclaw runs as."""
        return self.uid != os.getuid()

    def give(self, path: Path, *, recursive: bool = True) -> None:
        """Make `path` (and everything under it) the jail's, so its program may change them (links not followed)."""
        if self.own and recursive:
            _chown_tree(path, self.uid, self.gid)
        elif self.own:
            os.chown(path, self.uid, self.gid, follow_symlinks=False)

    def take_back(self, path: Path) -> None:
        """Hand `path` back to stageclaw's user once the jail is gone (what it leaves in a run folder)."""
        if self.own and os.path.lexists(path):
            _chown_tree(path, os.getuid(), os.getgid())


def _chown_tree(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid, follow_symlinks=False)
    for folder, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(folder, name), uid, gid, follow_symlinks=False)


@dataclass(frozen=True)
class Limits:
    """Resource limits of everything in a jail (see `man prlimit`)."""

    processes: int  # processes of the jail's uid at once; applied only when the jail has a uid of its own
    memory: int  # bytes of data (heap and private writable mappings) per process: RLIMIT_DATA
    file_size: int  # bytes a process may write into one file (sparse files included): RLIMIT_FSIZE
    open_files: int = 1024
    tmp_size: int = 256 << 20  # bytes of /tmp and of /dev/shm (each a tmpfs, held in memory)


@dataclass(frozen=True)
class Mount:
    """A host file or folder seen inside a jail, at `dest` (default: the same path)."""

    source: Path
    dest: str | None = None
    writable: bool = False

    @property
    def target(self) -> str:
        return self.dest or str(self.source)


def python() -> tuple[str, list[Mount]]:
    """The interpreter stageclaw runs on, and the mounts that let a jail run it (its installation)."""
    base = os.path.realpath(sys.base_prefix)
    exe = os.path.join(base, "bin", f"python{sys.version_info.major}.{sys.version_info.minor}")
    if not os.path.exists(exe):
        exe = os.path.realpath(sys.executable)
    prefixes = dict.fromkeys(os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, os.path.dirname(exe)))
    mounts = [Mount(Path(p)) for p in prefixes if not _under(p, "/usr")]
    return exe, _outermost(mounts)


def _under(path: str | Path, folder: str | Path) -> bool:
    return Path(path) == Path(folder) or Path(folder) in Path(path).parents


def _outermost(mounts: list[Mount]) -> list[Mount]:
    """Drop mounts that another one of the list already holds."""
    return [m for m in mounts if not any(o is not m and _under(m.source, o.source) for o in mounts)]


def _stageclaw_package() -> Path:
    return Path(__file__).resolve().parent.parent


@dataclass
class Jail:
    """What a jailed program sees and may do; `popen` starts one.

    `mounts` are the host paths it sees (read-only unless `writable`); `files` are read-only files
    made for it (path inside -> content); `network` shares the host's network (never its files).
    """

    mounts: list[Mount]
    identity: Identity
    limits: Limits
    network: bool = False
    files: Mapping[str, bytes] = field(default_factory=dict)
    cwd: str = "/"
    hostname: str = "sandbox"
    home: str = "/home/user"

    def _layout(self, data: dict[str, int]) -> list[str]:
        """bubblewrap options for the file system (run by the outer process): the allowlist."""
        size = str(self.limits.tmp_size)
        argv = ["--proc", "/proc", "--dev", "/dev"]
        argv += ["--perms", "1777", "--size", size, "--tmpfs", "/tmp", "--perms", "1777", "--size", size]
        argv += ["--tmpfs", "/dev/shm", "--ro-bind", "/usr", "/usr"]
        for name in ("bin", "lib", "lib64", "sbin"):
            argv += ["--symlink", f"usr/{name}", f"/{name}"]
        made = {"/", "/usr", "/tmp", "/dev", "/dev/shm", "/proc"}

        def at(path: str) -> list[str]:
            # bubblewrap would make missing folders readable by root alone: make them open to the jail's user.
            missing = [str(p) for p in reversed(Path(path).parents) if str(p) not in made]
            made.update([*missing, path])
            return [arg for folder in missing for arg in ("--perms", "0755", "--dir", folder)]

        for path in ETC_FILES + (ETC_NETWORK if self.network else ()):
            if os.path.exists(path) and path not in data:
                argv += [*at(path), "--ro-bind", path, path]
        bwrap = os.path.realpath(binary())
        extra = [] if _under(bwrap, "/usr") or not self.identity.own else [Mount(Path(bwrap))]
        package = _stageclaw_package()
        for mount in [*self.mounts, *extra]:
            argv += [*at(mount.target), "--bind" if mount.writable else "--ro-bind", str(mount.source), mount.target]
            if mount.source != package and _under(package, mount.source):
                # A Python installation holding stageclaw itself (a wheel): its code and bundled tasks stay out.
                argv += ["--tmpfs", str(Path(mount.target) / package.relative_to(mount.source))]
        for dest, fd in data.items():
            argv += [*at(dest), "--perms", "0644", "--ro-bind-data", str(fd), dest]
        return [*argv, "--die-with-parent"]

    def _namespaces(self) -> list[str]:
        """bubblewrap options for who runs inside (run by the unprivileged process)."""
        argv = ["--unshare-user", "--disable-userns", "--uid", str(INSIDE_UID), "--gid", str(INSIDE_UID)]
        argv += ["--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--hostname", self.hostname]
        if not self.network:
            argv += ["--unshare-net"]
        # No --new-session: `popen` starts the jail in a session of its own, without a terminal to inject into,
        # and in the jail's process group, so that `terminate` reaches every program in it.
        return [*argv, "--die-with-parent", "--chdir", self.cwd]

    def _limits(self) -> list[str]:
        lim = self.limits
        argv = [_tool("prlimit"), f"--data={lim.memory}", f"--fsize={lim.file_size}", f"--nofile={lim.open_files}"]
        if self.identity.own:
            argv += [f"--nproc={lim.processes}"]
        return [*argv, "--core=0", "--"]

    def argv(self, command: Sequence[str], data: dict[str, int]) -> list[str]:
        """The whole command line; `data` maps the paths of `files` to readable descriptors of their content."""
        bwrap = binary()
        if not self.identity.own:
            inside = ["--unshare-pid", *self._layout(data), *self._namespaces()]
            return [*self._limits(), bwrap, *inside, "--", *command]
        drop = [_tool("setpriv"), f"--reuid={self.identity.uid}", f"--regid={self.identity.gid}", "--clear-groups"]
        drop += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        inner = [bwrap, "--dev-bind", "/", "/", *self._namespaces(), "--", *command]
        # The limits start with the jail's uid: the outer bubblewrap, stageclaw's own setup, is not held to them.
        return [bwrap, "--unshare-pid", *self._layout(data), "--", *drop, *self._limits(), *inner]

    def passwd(self) -> dict[str, bytes]:
        """`/etc/passwd` and `/etc/group` naming the one user inside."""
        return {
            "/etc/passwd": f"user:x:{INSIDE_UID}:{INSIDE_UID}:user:{self.home}:/bin/bash\n".encode(),
            "/etc/group": f"user:x:{INSIDE_UID}:\n".encode(),
        }

    def popen(self, command: Sequence[str], *, env: Mapping[str, str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """Start `command` in the jail, in a session of its own, with exactly the environment `env`.

        The environment travels through the processes that build the jail, never on a command line
        (which other users of the host could read in /proc).
        """
        data = {dest: _memfd(dest, content) for dest, content in {**self.passwd(), **self.files}.items()}
        try:
            return subprocess.Popen(
                self.argv(command, data),
                env=dict(env),
                pass_fds=(*data.values(), *kwargs.pop("pass_fds", ())),
                start_new_session=True,
                **kwargs,
            )
        finally:
            for fd in data.values():
                os.close(fd)


def terminate(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    """Stop a jail: SIGTERM to the programs in it, then, after `grace_s` seconds, SIGKILL to all of it.

    The programs are signalled one by one (whatever session they made for themselves), never the
    bubblewrap processes that hold the jail: their death would kill the programs before their grace.
    """
    if proc.poll() is None:
        for pid in _descendants(proc.pid):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the jail's pid 1 dies with it, and with it everything inside
    except ProcessLookupError:
        pass
    proc.wait()


def _descendants(pid: int) -> list[int]:
    """The processes below `pid`, except bubblewrap's own."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                head, _, tail = fh.read().rpartition(b")")
        except OSError:
            continue
        children.setdefault(int(tail.split()[1]), []).append(int(entry))
        names[int(entry)] = head.partition(b"(")[2].decode(errors="replace")
    found, todo = [], list(children.get(pid, []))
    while todo:
        child = todo.pop()
        todo += children.get(child, [])
        if names.get(child) != "bwrap":
            found.append(child)
    return found


def _memfd(name: str, content: bytes) -> int:
    """A descriptor of `content` that exists nowhere on disk (bwrap copies it into the jail)."""
    fd = os.memfd_create(f"stageclaw{name.replace('/', '-')}")
    os.write(fd, content)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def off_limits_overlap(source: Path, places: Sequence[Path]) -> Path | None:
    """The first of `places` that `source` lies in or holds: a folder a jail must not see through it."""
    real = Path(os.path.realpath(source))
    for place in places:
        place = Path(os.path.realpath(place))
        if _under(real, place) or _under(place, real):
            return place
    return None
