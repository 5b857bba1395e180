"""Ctrl-C in the middle of a run: it stops promptly, records no half episode, leaves no process."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time

import pytest

from stageclaw.errors import StageclawError
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from tests.conftest import EXAMPLE
from tests.test_world_processes import descendants, still_alive


def test_ctrl_c_stops_running_agents_and_resume_completes_the_run(tmp_path):
    task = tmp_path / "tasks" / EXAMPLE.name
    shutil.copytree(EXAMPLE, task)
    # The agent's jail sees the folder of a file its command names (read-only, as it changes): `slow` is there.
    signals = tmp_path / "signals"
    signals.mkdir(mode=0o755)
    slow = signals / "slow"
    slow.touch()
    agent = f"cmd:sh -c 'if [ -e {slow} ]; then sleep 60; fi; echo done' agent {slow}"
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", agent, "--tasks", str(task.parent), "--trials", "2"]
    argv += ["--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    sleeping = 0
    while sleeping < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
        running = descendants(proc.pid)
        sleeping = sum(cmd.startswith("sleep 60") for cmd in running.values())
    assert sleeping == 2
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(30) == 130
    assert time.monotonic() - started < 10
    assert still_alive(running) == {}
    assert read_results(out / "results.jsonl") == []

    slow.unlink()
    res = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    results = read_results(out / "results.jsonl")
    assert sorted(r["trial"] for r in results) == [1, 2] and all(r["status"] == "completed" for r in results)


def test_resume_refuses_another_agent(tmp_path):
    task = load_task(EXAMPLE)
    run([task], RunConfig(agent="noop", out=tmp_path))
    with pytest.raises(StageclawError, match="same agent"):
        run([task], RunConfig(agent="oracle", out=tmp_path, resume=True))
