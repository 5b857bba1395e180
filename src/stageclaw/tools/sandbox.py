"""A persistent bash in a jail (`world.bwrap`) that sees only the episode workspace.

The jail holds read-only `/usr` (and the few `/etc` files programs need), a private `/proc`,
`/dev` and `/tmp`, and the workspace read-write at `/home/user`; nothing else of the host exists
inside: no task folder, no `hidden/`, no other episode, no mail or Radicale storage, and no
network, loopback services included. It runs as the episode's own uid (the owner of the
workspace), with the process, memory and file-size limits of `LIMITS`.

Protocol: the shell reads one line per command from its stdin. The line evaluates the command
(quoted, so a syntax error stays inside `eval`) with stdin from /dev/null, so the command
cannot swallow the next line, and with the status pipe closed, so it cannot write to it.
The shell then writes `<token> <exit status>` to the status pipe; the token is fresh random
per command and travels outside stdout and stderr, so no output of the command can end it
early. stdout and stderr are separate pipes, read concurrently and capped.
"""

from __future__ import annotations

import glob
import os
import secrets
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from stageclaw.world import bwrap as bwrap_base
from stageclaw.world.bwrap import Identity, Jail, Limits, Mount
from stageclaw.world.clock import EpisodeClock
from stageclaw.world.workspace import redate

HOME = "/home/user"
OUTPUT_CAP = 64 * 1024
START_TIMEOUT_S = 10.0
# After the status arrives, what the command wrote is already in the pipes; a background job
# that keeps writing must not hold the answer back, hence a short bound on the final drain.
DRAIN_S = 0.05
# Debian's libfaketime lives under /usr/lib, which the sandbox already mounts read-only.
FAKETIME_GLOBS = ("/usr/lib/*/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1")
LIMITS = Limits(processes=256, memory=2 << 30, file_size=1 << 30)
Ended = Literal["timeout", "exited"]


class SandboxError(Exception):
    """The sandbox could not be started: an infrastructure problem, not the agent's."""


@dataclass
class RunResult:
    exit_code: int
    stdout: str
    stderr: str
    note: str | None = None


def faketime_library() -> str | None:
    for pattern in FAKETIME_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


class _Capped:
    """One output stream: keeps the first `cap` bytes and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0

    def feed(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - room)

    def text(self) -> str:
        out = self.data.decode("utf-8", errors="replace")
        if self.dropped:
            total = len(self.data) + self.dropped
            out += (
                f"\n[truncated: showed the first {len(self.data)} of {total} bytes; redirect the output to a file"
                " and look at parts of it with head, tail or grep]"
            )
        return out


class Shell:
    """One episode's persistent shell; it (re)starts on demand and restarts after a timeout or an exit."""

    def __init__(self, workspace: Path, timezone: str, clock: Callable[[], EpisodeClock], identity: Identity) -> None:
        """`clock` gives the episode's clock (a reset replaces it); where libfaketime is present the shell runs
        at its time, and what a command writes is dated by it.

        `identity` is whom the shell runs as: the episode's, which owns the workspace.
        """
        self.workspace = Path(os.path.realpath(workspace))
        self.identity = identity
        self.timezone = timezone
        self.clock = clock
        self._redated: dict[str, int] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._workspace_id: tuple[int, int] | None = None
        self._status_fd = -1
        self._status_no = -1
        self._status_buf = b""

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _env(self) -> dict[str, str]:
        return {
            "HOME": HOME,
            "USER": "user",
            "LOGNAME": "user",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            # The jail has no /etc/localtime: the task's zone is the only one the shell knows.
            "TZ": self.timezone,
        }

    def _command(self) -> list[str]:
        """bash, at the episode's clock where libfaketime is present.

        The clock is set by `env` for bash alone: the programs that build the jail must keep the real time.
        """
        library = faketime_library()
        if library is None:
            return ["bash", "--noprofile", "--norc"]
        # A relative offset, not an absolute "@start": "@" restarts the clock in every new process.
        # The episode clock drops its fraction of a second; adding half a second centres the error.
        offset = (self.clock().now() - datetime.now(UTC)).total_seconds() + 0.5
        # Shifting CLOCK_MONOTONIC by months would make it negative and break sleep and timeouts.
        # Files carry the world's dates already (seeded so, and `redate`): a faked stat() would shift them again.
        clock = [f"LD_PRELOAD={library}", f"FAKETIME={offset:+.3f}", "FAKETIME_DONT_FAKE_MONOTONIC=1", "NO_FAKE_STAT=1"]
        return ["/usr/bin/env", *clock, "bash", "--noprofile", "--norc"]

    def jail(self) -> Jail:
        return Jail([Mount(self.workspace, HOME, writable=True)], self.identity, LIMITS, cwd=HOME, home=HOME)

    def start(self) -> None:
        if bwrap_base.find() is None:
            raise SandboxError(
                f"the terminal sandbox needs bubblewrap (bwrap), which is not installed: {bwrap_base.INSTALL_HINT}"
            )
        self._workspace_id = _identity(self.workspace)
        if self._workspace_id is None:
            raise SandboxError(f"the episode workspace {self.workspace} does not exist")
        status_r, status_w = os.pipe()
        try:
            self._proc = self.jail().popen(
                self._command(),
                env=self._env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(status_w,),
            )
        except BaseException:
            os.close(status_r)
            raise
        finally:
            os.close(status_w)
        self._status_fd, self._status_no, self._status_buf = status_r, status_w, b""
        token = self._token()
        self._send(f"__stageclaw_status() {{ return \"$1\"; }}; builtin printf '{token} %d\\n' 0 >&{status_w}\n")
        stdout, stderr = _Capped(OUTPUT_CAP), _Capped(OUTPUT_CAP)
        if self._collect(token, time.monotonic() + START_TIMEOUT_S, stdout, stderr) != 0:
            self.kill()
            detail = stderr.text().strip() or "no message"
            raise SandboxError(
                f"the terminal sandbox did not start ({detail}); check that {bwrap_base.INSTALL_HINT} works here"
            )

    @staticmethod
    def _token() -> str:
        return "__stageclaw_" + secrets.token_hex(16)

    def _send(self, line: str) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(line.encode("utf-8", errors="replace"))
            self._proc.stdin.flush()
        except BrokenPipeError:
            pass  # the shell is gone; reading its status pipe tells how it ended

    def run(self, command: str, timeout_s: float) -> RunResult:
        """Run `command` in the shell; past `timeout_s` the shell and all its children are killed."""
        if not self.running or self._workspace_id != _identity(self.workspace):
            # A reset replaces the workspace folder; a shell still bound to the old one would see stale files.
            self.kill()
            self._redated = {}
            self.start()
        # Files the other tools wrote since the last command, then what this one writes, get the world's date.
        redate(self.workspace, self.clock(), self._redated)
        try:
            return self._run(command, timeout_s)
        finally:
            redate(self.workspace, self.clock(), self._redated)

    def _run(self, command: str, timeout_s: float) -> RunResult:
        token = self._token()
        no = self._status_no
        line = (
            f'__stageclaw_status "${{__stageclaw_rc:-0}}" 2>/dev/null; builtin eval -- {shlex.quote(command)}'
            f" </dev/null {no}>&-; __stageclaw_rc=$?; builtin printf '{token} %d\\n' \"$__stageclaw_rc\" >&{no}\n"
        )
        stdout, stderr = _Capped(OUTPUT_CAP), _Capped(OUTPUT_CAP)
        self._send(line)
        status = self._collect(token, time.monotonic() + timeout_s, stdout, stderr)
        if isinstance(status, int):
            return RunResult(status, stdout.text(), stderr.text())
        if status == "timeout":
            self.kill()
            note = (
                f"timed out after {timeout_s:g} s: the command was killed together with the shell; the next command"
                f" starts a fresh shell in {HOME} (the current folder, variables and /tmp are reset)"
            )
            return RunResult(124, stdout.text(), stderr.text(), note)
        code = self.kill(grace_s=1.0)
        note = f"the shell exited with code {code}; the next command starts a fresh shell in {HOME}"
        return RunResult(code, stdout.text(), stderr.text(), note)

    def _collect(self, token: str, deadline: float, stdout: _Capped, stderr: _Capped) -> int | Ended:
        """Read both streams until the status line with `token`: its exit status, or how the wait ended."""
        assert self._proc is not None and self._proc.stdout is not None and self._proc.stderr is not None
        streams = {self._proc.stdout.fileno(): stdout, self._proc.stderr.fileno(): stderr}
        with selectors.DefaultSelector() as sel:
            for fd in (*streams, self._status_fd):
                sel.register(fd, selectors.EVENT_READ)
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                for key, _ in sel.select(remaining):
                    fd = int(key.fd)
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        sel.unregister(fd)
                        if fd == self._status_fd:
                            self._drain(sel, streams)
                            return "exited"
                    elif fd in streams:
                        streams[fd].feed(chunk)
                    else:
                        status = self._status(chunk, token)
                        if status is not None:
                            self._drain(sel, streams)
                            return status

    def _status(self, chunk: bytes, token: str) -> int | None:
        self._status_buf += chunk
        *lines, self._status_buf = self._status_buf.split(b"\n")
        for line in lines:
            got, _, code = line.decode(errors="replace").partition(" ")
            if got == token and code.isdigit():
                return int(code)
        return None

    @staticmethod
    def _drain(sel: selectors.BaseSelector, streams: dict[int, _Capped]) -> None:
        until = time.monotonic() + DRAIN_S
        while time.monotonic() < until:
            ready = [key for key, _ in sel.select(0) if key.fd in streams]
            if not ready:
                return
            for key in ready:
                chunk = os.read(int(key.fd), 65536)
                if chunk:
                    streams[int(key.fd)].feed(chunk)
                else:
                    sel.unregister(key.fd)

    def kill(self, grace_s: float = 0.0) -> int:
        """Kill the sandbox and everything in it; returns the shell's exit code (-9 if it was killed).

        `grace_s` gives a shell that is already exiting the time to finish, so its own code is reported.
        """
        proc, self._proc = self._proc, None
        if self._status_fd >= 0:
            os.close(self._status_fd)
            self._status_fd = -1
        if proc is None:
            return 0
        try:
            proc.wait(grace_s)
        except subprocess.TimeoutExpired:
            # bwrap leads its own process group; the processes inside the sandbox die with it
            # (--die-with-parent, and the end of the sandbox's pid namespace).
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        code = proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                try:
                    pipe.close()
                except BrokenPipeError:
                    pass
        return code

    def close(self) -> None:
        self.kill()
