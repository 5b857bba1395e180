"""Fixtures over the real servers: one service pool per test session, fresh episodes per test."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, ServicePool, diff, load_world
from stageclaw.world.model import World, parse_world

ROOT = Path(__file__).resolve().parent.parent
# Every pool of this test session, in-process or in a subprocess, lives under this folder, so
# the check for left-behind servers sees only this session's.
SESSION_TMP = Path(
    tempfile.mkdtemp(prefix="stageclaw-test-", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
)
SESSION_TMP.chmod(0o755)  # Dovecot's own users must reach the mail stores below it
os.environ["STAGECLAW_TMP"] = str(SESSION_TMP)
os.environ["RAY_TMPDIR"] = str(SESSION_TMP)  # and every Ray cluster's files (sockets, logs)
# pytest-xdist's workers ignore SIGINT, and every process a test starts would inherit that: the Ctrl-C
# tests need it delivered as in a terminal. Their tables would also be cut to the 80 columns set for them.
signal.signal(signal.SIGINT, signal.default_int_handler)
os.environ["COLUMNS"] = "200"
EXAMPLES = ROOT / "tasks" / "examples"
EXAMPLE = EXAMPLES / "quarterly-sync"


def pool_processes() -> list[str]:
    """Command lines of live processes of this session's service pools and Ray clusters.

    Ray's processes show the session folder in their command line (their RAY_TMPDIR is in it), except the
    workers, which rename themselves `ray::...`: those are this session's when they inherited its STAGECLAW_TMP.
    """
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            ours = str(SESSION_TMP) in cmd or (cmd.startswith("ray::") and _SESSION_ENV in _environ(pid))
        except OSError:
            continue
        if ours:
            out.append(f"{pid}: {cmd}")
    return out


_SESSION_ENV = f"STAGECLAW_TMP={SESSION_TMP}".encode()


def _environ(pid: str) -> list[bytes]:
    return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")


@pytest.fixture(scope="session")
def pool() -> Iterator[ServicePool]:
    with ServicePool() as p:
        yield p


@pytest.fixture(scope="session")
def example() -> tuple[World, Path]:
    return load_world(EXAMPLE)


@pytest.fixture
def episode(pool: ServicePool, example: tuple[World, Path]) -> Iterator[Episode]:
    with pool.episode(*example) as ep:
        yield ep


@pytest.fixture
def make_episode(pool: ServicePool, tmp_path: Path) -> Iterator[Any]:
    """Build an episode from a world given as a dict (assets relative to tmp_path)."""
    made: list[Episode] = []

    def make(data: dict[str, Any]) -> Episode:
        ep = pool.episode(parse_world(data), tmp_path)
        made.append(ep)
        return ep

    yield make
    for ep in made:
        ep.close()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    left = pool_processes()
    if left:
        print("\nserver processes left behind by the test session:\n" + "\n".join(left))
        session.exitstatus = 1
    shutil.rmtree(SESSION_TMP, ignore_errors=True)


@pytest.fixture
def reg(episode: Episode) -> Iterator[Registry]:
    """Every tool of the example episode."""
    with Registry(episode) as registry:
        yield registry


def fails(reg: Registry, name: str, **args: Any) -> ToolError:
    """The ToolError a call must raise."""
    with pytest.raises(ToolError) as info:
        reg.call(name, args)
    return info.value


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, str]]:
    """(op, path) of every change between two states."""
    return [(c["op"], c["path"]) for c in diff(before, after)]
