"""Child server processes that cannot outlive stageclaw."""

from __future__ import annotations

import ctypes
import os
import selectors
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from stageclaw.errors import ServiceError

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    # The kernel sends SIGKILL to the child when its parent dies, even by SIGKILL, so no
    # server is left behind. It is tied to the thread that spawned it: a pool spawns its servers
    # from a thread of its own that lives as long as the pool (ServicePool's keeper).
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn(cmd: Sequence[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start a server in its own session (a terminal's Ctrl-C reaches stageclaw, which stops it)."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            list(cmd),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
            env=env,
        )


def wait_for_port(port: int, proc: subprocess.Popen[bytes], name: str, log: Path, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServiceError(f"{name} exited with code {proc.returncode} while starting; its log says:\n{tail(log)}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.01)
    raise ServiceError(f"{name} did not answer on 127.0.0.1:{port} within {timeout:.0f} s; its log says:\n{tail(log)}")


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def stop(proc: subprocess.Popen[bytes] | None, grace: float = 3.0) -> None:
    """SIGTERM the server's process group; after `grace` seconds SIGKILL whatever is left of it."""
    if proc is None:
        return
    if proc.poll() is None:
        _signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(proc, signal.SIGKILL)
    proc.wait()


def tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


def communicate(
    proc: subprocess.Popen[bytes], data: bytes, timeout: float, out_cap: int, err_cap: int
) -> tuple[bytes, bytes, bool]:
    """Like `Popen.communicate`, for a program that may be hostile: (stdout, stderr, timed out).

    Keeps the first `out_cap` bytes of stdout and the last `err_cap` of stderr, reading and dropping
    the rest, so neither a flood of output fills memory nor a full pipe stalls the program. At
    `timeout` seconds its process group is killed.
    """
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    pending = memoryview(data)
    deadline = time.monotonic() + timeout
    timed_out = False
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        sel.register(proc.stderr, selectors.EVENT_READ)
        if pending:
            os.set_blocking(proc.stdin.fileno(), False)
            sel.register(proc.stdin, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        while sel.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            for key, _ in sel.select(remaining):
                if key.fileobj is proc.stdin:
                    try:
                        pending = pending[os.write(proc.stdin.fileno(), pending[: 1 << 16]) :]
                    except BrokenPipeError:  # it stopped reading: what it did not read does not matter
                        pending = pending[:0]
                    if not pending:
                        sel.unregister(proc.stdin)
                        proc.stdin.close()
                    continue
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    sel.unregister(key.fileobj)
                elif key.fileobj is proc.stdout:
                    out += chunk[: max(0, out_cap - len(out))]
                else:
                    err = (err + chunk)[-err_cap:]
    if timed_out:
        _signal_group(proc, signal.SIGKILL)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        pipe.close()
    proc.wait()
    return bytes(out), bytes(err), timed_out
