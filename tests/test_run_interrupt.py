"""Ctrl-C in the middle of a run: it stops promptly, records no half episode, leaves no process."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stageclaw.errors import StageclawError
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from tests.conftest import EXAMPLE, EXAMPLES, ROOT, SESSION_TMP
from tests.test_world_processes import descendants, still_alive

HEALTHY = ROOT / "tests" / "corpus" / "healthy"


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
    said = proc.stderr.read()
    assert f"interrupted: 0 of 2 episodes are kept in {out}; to finish the run: stageclaw run " in said
    assert said.rstrip().endswith(f"--out {out} --resume") and "Traceback" not in said

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


@pytest.mark.parametrize(("delay", "sig"), [(0.0, signal.SIGINT), (1.0, signal.SIGTERM), (2.5, signal.SIGINT),
                                            (4.0, signal.SIGTERM), (6.0, signal.SIGINT)])  # fmt: skip
def test_a_signal_in_any_phase_stops_the_run_promptly_and_cleanly(tmp_path, delay, sig):
    """Loading, starting the pool, running agents, grading: wherever the signal lands once stageclaw runs.

    `delay` counts from when the command imports pydantic, its first own work: a signal before that
    lands in Python's own start, which Python handles (a Ctrl-C in `site` is its fatal error).
    """
    scratch, env = _scratch(f"s{int(delay * 10)}")
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "cmd:sleep 1", "--tasks", str(HEALTHY)]
    argv += ["--trials", "4", "--out", str(tmp_path / "run")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while b"pydantic_core" not in _maps(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    running = descendants(proc.pid)
    started = time.monotonic()
    proc.send_signal(sig)
    _, said = proc.communicate(timeout=60)
    # Killed by SIGTERM itself (-15) only before stageclaw has started anything.
    assert time.monotonic() - started < 15 and proc.returncode in (128 + sig, -sig, 0), said
    assert still_alive(running) == {} and list(scratch.iterdir()) == []  # no server, pool or temp folder left
    assert "Traceback" not in said
    if proc.returncode and (tmp_path / "run" / "run.json").is_file():  # the run had started: it says what it kept
        assert f"to finish the run: stageclaw run --agent 'cmd:sleep 1' --tasks {HEALTHY}" in said


def test_ctrl_c_in_the_browser_prints_the_summary_not_playwrights_noise(tmp_path):
    scratch, env = _scratch("b")
    out, task = tmp_path / "run", EXAMPLES / "summit-trip-booking"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "oracle", "--tasks", str(task)]
    # Its own process group, as a terminal's job is: Ctrl-C reaches Playwright's driver as well.
    proc = subprocess.Popen(
        [*argv, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not any("chrom" in c for c in descendants(proc.pid).values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1)
    browsers = [pid for pid, cmd in _by_marker(str(scratch)).items() if "chrom" in cmd]
    assert browsers
    os.killpg(proc.pid, signal.SIGINT)
    _, said = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert said.strip() == f"interrupted: 0 of 1 episodes are kept in {out}; to finish the run: " + (
        f"stageclaw run --agent oracle --tasks {task} --out {out} --resume"
    )
    assert still_alive({pid: cmd for pid, cmd in _by_marker(str(scratch)).items()}) == {}
    assert list(scratch.iterdir()) == []  # Chromium's profile and temporary folders too


def _by_marker(marker: str) -> dict[int, str]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in cmd:
                found[int(entry)] = cmd
    return found


def _scratch(name: str) -> tuple[Path, dict[str, str]]:
    """A folder of this session for one command's pools and temporary files, and the environment naming it.

    Its name is short: Dovecot's and Chromium's socket paths below it are at most 107 bytes.
    """
    scratch = SESSION_TMP / name
    scratch.mkdir()
    scratch.chmod(0o755)
    return scratch, {**os.environ, "STAGECLAW_TMP": str(scratch), "TMPDIR": str(scratch)}


def _maps(pid: int) -> bytes:
    """The files mapped into a process: its loaded extension modules among them."""
    try:
        return Path(f"/proc/{pid}/maps").read_bytes()
    except OSError:
        return b""
