"""Resources and hygiene: what terminal_run and a `cmd:` agent may spend, what a setuid bit they set is
worth on the host, who else on the host may read the pools' secrets, and what a huge file costs a snapshot.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import subprocess
import sys
import time
from pathlib import Path

from stageclaw.agents.base import TIMEOUT
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode
from tests.security.conftest import Layout


def _run(reg: Registry, command: str, timeout_s: int = 30) -> dict:
    return reg.call("terminal_run", {"command": command, "timeout_s": timeout_s})


def test_terminal_processes_are_limited(reg: Registry) -> None:
    spawn = (
        "python3 -c 'import subprocess\nn = 0\ntry:\n    while n < 2000:\n"
        '        subprocess.Popen(["sleep", "20"]); n += 1\nexcept OSError:\n    pass\nprint(n)\''
    )
    out = _run(reg, spawn, timeout_s=20)
    assert out["exit_code"] == 0, out
    assert int(out["stdout"]) < 300  # the limit is 256 processes of the episode's uid
    _run(reg, "pkill sleep; true")


def test_terminal_memory_is_limited(reg: Registry) -> None:
    out = _run(reg, "python3 -c 'b = bytearray(3 << 30); print(len(b))'")
    assert out["exit_code"] != 0 and "MemoryError" in out["stderr"], out


def test_terminal_cannot_make_a_file_over_the_size_limit(reg: Registry, episode: Episode) -> None:
    out = _run(reg, "truncate -s 3G big")
    assert "File size limit exceeded" in out["stderr"], out  # (SIGXFSZ killed truncate)
    assert (episode.workspace / "big").stat().st_size <= 1 << 30


def test_a_setuid_file_made_in_the_terminal_grants_nothing_on_the_host(reg: Registry, episode: Episode) -> None:
    out = _run(reg, "cp /usr/bin/id suid && chmod 4755 suid && ls -ln suid")
    assert out["exit_code"] == 0, out
    made = (episode.workspace / "suid").stat()
    assert made.st_mode & stat.S_ISUID  # the bit is there...
    assert made.st_uid not in (0, os.getuid())  # ...and grants the episode's uid, which owns nothing


def test_no_other_user_of_the_host_reads_the_pools_secrets_or_workspaces(episode: Episode) -> None:
    pool = episode.pool
    passwords = [pool.radicale.users_file, *pool.dovecot.passwd.iterdir()]
    assert passwords and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in passwords)
    assert stat.S_IMODE(pool.root.stat().st_mode) & 0o006 == 0  # others may not list or change the pool
    assert stat.S_IMODE((pool.root / "episodes").stat().st_mode) == 0o700
    # An attacker with an account of its own on the host tries them all.
    stranger = 0x7D000000 + secrets.randbelow(1 << 20)  # no account has it
    targets = [*passwords, episode.workspace / "docs" / "plan.md", pool.root / "episodes"]
    for target in targets:
        look = ["ls", "-la"] if target.is_dir() else ["cat"]
        drop = ["setpriv", f"--reuid={stranger}", f"--regid={stranger}", "--clear-groups"]
        tried = subprocess.run([*drop, *look, str(target)], capture_output=True, text=True)
        assert tried.returncode != 0 and "Permission denied" in tried.stderr, (target, tried.stdout)


SPARSE = r"""
import json, os, re, sys
from stageclaw.world import workspace
files = workspace.read(sys.argv[1])
# VmHWM is this program's peak; ru_maxrss would also carry the parent's from before exec.
peak = int(re.search(r"VmHWM:\s+(\d+) kB", open("/proc/self/status").read()).group(1)) << 10
print(json.dumps({"rss": peak, "files": files}))
"""


def test_a_huge_sparse_file_costs_a_snapshot_little(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    with open(folder / "huge.bin", "wb") as fh:
        fh.truncate(3 << 30)  # 3 GiB, no block of which is on disk
    (folder / "small.txt").write_text("hello")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-c", SPARSE, str(folder)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    measured = json.loads(out.stdout)
    assert measured["rss"] < 300 << 20, measured["rss"]
    huge = measured["files"]["huge.bin"]
    assert huge["size"] == 3 << 30 and huge["truncated"] is True and "text" not in huge
    assert measured["files"]["small.txt"] == {
        "sha256": measured["files"]["small.txt"]["sha256"],
        "size": 5,
        "text": "hello",
    }
    assert time.monotonic() - started < 60  # (it read 64 MiB of it, not 3 GiB; no finer timing claim)


# Spends what it can: memory, then time (sleeping past any budget).
SPENDER = """
import json, os, time
limits = open("/proc/self/limits").read()
try:
    bytearray(9 << 30)
    memory = "got 9 GiB"
except MemoryError:
    memory = "MemoryError"
scratch = os.path.dirname(os.environ["STAGECLAW_PROMPT_FILE"])
json.dump({"limits": limits, "memory": memory}, open(os.path.join(scratch, "spent.json"), "w"))
print("spent", flush=True)
time.sleep(60)
"""


def test_a_command_agent_is_held_to_limits_and_to_the_time_budget_given(layout: Layout, tmp_path: Path) -> None:
    task = load_task(layout.task)
    run_dir = tmp_path / "run"
    started = time.monotonic()
    config = RunConfig(agent=f"cmd:{layout.script(SPENDER)}", out=run_dir, agent_options={"time_budget_s": 3})
    run([task], config)
    took = time.monotonic() - started
    [result] = read_results(run_dir / "results.jsonl")
    assert result["status"] == TIMEOUT and "time budget of 3 s" in result["error"], result["error"]
    assert took < 40  # far below the task's own 600 s budget (no finer timing claim)
    spent = json.loads((run_dir / "episodes" / f"{task.id}__t1" / "agent" / "spent.json").read_text())
    assert spent["memory"] == "MemoryError"
    limits = {line[:26].strip(): line[26:].split()[0] for line in spent["limits"].splitlines()[1:]}
    assert limits["Max processes"] == "512" and limits["Max file size"] == str(1 << 30)
    assert limits["Max core file size"] == "0"
