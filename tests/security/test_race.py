"""The check-then-open race, with the tools every LLM agent has: a background job started with terminal_run
swaps a workspace folder with a link to a folder outside (RENAME_EXCHANGE, as fast as it can) while the
files tools, mail_send's attachments and the workspace snapshot go through that folder again and again.
The canary outside must never be read, written or attached.

10,000 tool calls race the swapper (which makes many more swaps), with the kernel's openat2 and again with the descriptor walk that
stands in for it on old kernels.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, beneath, workspace

CANARY = "CANARYOUTSIDE3f9b"
CALLS = 10_000
ATTACH_EVERY = 200  # mail_send goes through SMTP and IMAP: a fiftieth of the calls
SNAPSHOT_EVERY = 500

# Puts the link in place of the folder and back, then leaves the folder a moment: a link that appears
# for microseconds, between a check and an open, is the attack.
SWAPPER = r"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
swaps = 0
while not os.path.exists("stop"):
    for _ in range(2):
        swaps += libc.renameat2(AT_FDCWD, b"d", AT_FDCWD, b"x", RENAME_EXCHANGE) == 0
    for _ in range(300):  # (not time.sleep: the terminal's libfaketime refuses sleeps this short)
        pass
open("count.tmp", "w").write(str(swaps // 2))
os.rename("count.tmp", "count")
"""


@pytest.fixture(params=["openat2", "walk"])
def resolution(request: pytest.FixtureRequest) -> Iterator[str]:
    kept = beneath.use_openat2
    beneath.use_openat2 = request.param == "openat2"
    yield request.param
    beneath.use_openat2 = kept


def test_swapping_folders_and_links_never_reaches_a_file_outside(
    resolution: str, episode: Episode, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "f.txt").write_text(CANARY)
    canary.chmod(0o755)
    ws = episode.workspace
    (ws / "d").mkdir()
    (ws / "d" / "f.txt").write_text("inside")
    os.symlink(canary, ws / "x")  # an absolute link to the host folder, as `ln -s /etc x` would be
    (ws / "swap.py").write_text(SWAPPER)
    outcomes = {"done": 0, "refused": 0}
    leaks: list[str] = []
    started = time.perf_counter()
    with Registry(episode) as reg:
        job = reg.call("terminal_run", {"command": "nohup python3 swap.py >/dev/null 2>&1 & sleep 0.2; echo started"})
        assert job["stdout"] == "started\n", job
        for n in range(CALLS):
            try:
                if n % ATTACH_EVERY == 0:
                    args = {"to": ["a@example.com"], "subject": f"r{n}", "body": "-", "attachments": ["d/f.txt"]}
                    reg.call("mail_send", args)
                elif n % 2:
                    got = reg.call("files_read", {"path": "d/f.txt"})["content"]
                    if got != "inside":
                        leaks.append(got)
                else:
                    reg.call("files_write", {"path": "d/w.txt", "content": f"write {n}"})
                outcomes["done"] += 1
            except ToolError:  # the call met the link: refused (how depends on when it met it)
                outcomes["refused"] += 1
            if n % SNAPSHOT_EVERY == 0:
                files = workspace.read(ws)
                leaks += [path for path, state in files.items() if CANARY in json.dumps(state)]
        (ws / "stop").write_text("")
        deadline = time.monotonic() + 10
        while not (ws / "count").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        swaps = int((ws / "count").read_text())
        outbox = episode.snapshot()["mail"]["outbox"]
    took = time.perf_counter() - started
    print(f"\n{resolution}: {CALLS} calls against {swaps} swaps in {took:.1f} s; {outcomes}")
    assert leaks == []
    assert sorted(p.name for p in canary.iterdir()) == ["f.txt"] and (canary / "f.txt").read_text() == CANARY
    assert all(a["size"] == len("inside") for m in outbox for a in m["attachments"])
    # The race was live: the swapper ran all along, and calls met the folder both ways.
    assert swaps > CALLS and outcomes["done"] > 100 and outcomes["refused"] > 100
