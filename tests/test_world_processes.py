"""No server outlives stageclaw: clean stop, SIGKILL of stageclaw, Ctrl-C and SIGTERM of the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from stageclaw.world import ServicePool

EXAMPLE = Path(__file__).resolve().parent.parent / "tasks" / "examples" / "quarterly-sync"


def descendants(pid: int) -> dict[int, str]:
    """Every live process below `pid`, with its command line."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = {}, [pid]
    while frontier:
        current = frontier.pop()
        for child, parent in parents.items():
            if parent == current and child not in found:
                found[child] = _cmdline(child)
                frontier.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def still_alive(procs: dict[int, str], within: float = 5.0) -> dict[int, str]:
    deadline = time.monotonic() + within
    while True:
        alive = {pid: cmd for pid, cmd in procs.items() if _cmdline(pid) == cmd and _state(pid) not in ("Z", "")}
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def test_pool_stop_leaves_no_process():
    before = descendants(os.getpid())
    pool = ServicePool().start()
    procs = {pid: cmd for pid, cmd in descendants(os.getpid()).items() if pid not in before}
    assert any("radicale" in c for c in procs.values()) and any("dovecot" in c for c in procs.values())
    pool.stop()
    assert still_alive(procs) == {}
    assert not pool.root.exists()


def test_pool_stops_on_an_exception():
    before = descendants(os.getpid())
    try:
        with ServicePool():
            procs = {pid: cmd for pid, cmd in descendants(os.getpid()).items() if pid not in before}
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert still_alive(procs) == {}


SCRIPT = """
import json, os, sys, time
sys.path.insert(0, {tests!r})
from test_world_processes import descendants
from stageclaw.world import ServicePool
pool = ServicePool().start()
print(json.dumps(descendants(os.getpid())), flush=True)
time.sleep(60)
"""


def test_servers_die_when_stageclaw_is_killed():
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(tests=str(Path(__file__).parent))], stdout=subprocess.PIPE, text=True
    )
    procs = {int(k): v for k, v in json.loads(proc.stdout.readline()).items()}
    assert len(procs) >= 3
    proc.kill()
    proc.wait()
    assert still_alive(procs) == {}


def _start_build() -> tuple[subprocess.Popen[str], dict[int, str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "stageclaw", "world", "build", str(EXAMPLE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if "Press Ctrl-C" in line:
            break
    text = "".join(lines)
    assert "IMAP" in text and "CalDAV" in text and "password" in text, text + proc.stderr.read()
    return proc, descendants(proc.pid)


def test_world_build_stops_cleanly_on_ctrl_c():
    proc, procs = _start_build()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(10) == 0
    assert still_alive(procs) == {}


def test_world_build_stops_cleanly_on_sigterm():
    proc, procs = _start_build()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 128 + signal.SIGTERM
    assert still_alive(procs) == {}
