"""A server that dies mid-run is restarted, the episode it spoiled runs again, and nothing after it
fails; `--resume` retries what stayed unscored. A pool folder whose owner was killed is reaped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from stageclaw.agents.base import INFRA_ERROR
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from stageclaw.tools.faults import FaultPlan, FaultRule
from stageclaw.world import ServicePool
from stageclaw.world.pool import OWNER, PREFIX
from tests.conftest import ROOT, SESSION_TMP
from tests.test_world_processes import descendants

HEALTHY = ROOT / "tests" / "corpus" / "healthy"
# Each episode's first mail_read takes a second: time to kill a server while the episode runs.
SLOW_READ = FaultPlan(rule=[FaultRule(tools="mail_read", kind="slow", nth=1, delay_s=1.0)])


def _kill(pool: ServicePool, server: str) -> None:
    if server == "SMTP":  # in-process: its event loop ends, as if the listener crashed
        controller = pool.smtp._controller
        assert controller is not None
        controller.loop.call_soon_threadsafe(controller.loop.stop)
        return
    marker = f"-c {pool.dovecot.config}" if server == "Dovecot" else f"--config {pool.radicale.root / 'radicale.conf'}"
    [pid] = [pid for pid, cmd in descendants(os.getpid()).items() if marker in cmd]
    os.kill(pid, signal.SIGKILL)


def _kill_mid_episode(pool: ServicePool, server: str) -> threading.Thread:
    def killer() -> None:
        deadline = time.monotonic() + 60
        while not pool.episodes and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)  # inside the slow mail_read
        _kill(pool, server)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("server", ["Dovecot", "Radicale", "SMTP"])
def test_a_server_killed_mid_run_is_restarted_and_resume_scores_every_episode(server, tmp_path):
    task = load_task(HEALTHY)
    out = tmp_path / "run"
    config = RunConfig(agent="oracle", out=out, trials=3, infra_retries=0, faults=SLOW_READ)
    with ServicePool() as pool:
        killer = _kill_mid_episode(pool, server)
        summary = run([task], config, pool=pool)
        killer.join()
        assert pool.generation == 1  # restarted once, before the next episode
        first = {r["trial"]: r for r in read_results(out / "results.jsonl")}
        # The episode under way when the server died is void; none after it failed.
        assert [r["status"] for r in first.values()].count(INFRA_ERROR) == 1
        assert sum(1 for r in first.values() if r["success"]) == 2
        assert summary["unscored"] == 1 and summary["infra_errors"] == 1
        resumed = run([task], RunConfig(**{**config.__dict__, "resume": True}), pool=pool)
    results = read_results(out / "results.jsonl")
    assert sorted(r["trial"] for r in results) == [1, 2, 3]
    assert all(r["success"] and r["score"] == 100 for r in results)
    assert sorted(r["attempts"] for r in results) == [1, 1, 2]
    assert resumed["unscored"] == 0 and resumed["episodes"] == 3


def test_resume_gives_up_on_an_episode_after_its_attempts(tmp_path):
    out = tmp_path / "run"
    task = load_task(HEALTHY)
    run([task], RunConfig(agent="noop", out=out, trials=2))
    lines = read_results(out / "results.jsonl")
    lines[0].update(status=INFRA_ERROR, score=None, success=None, attempts=9)  # had all its attempts
    lines[1].update(status=INFRA_ERROR, score=None, success=None, attempts=2)
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    summary = run([task], RunConfig(agent="noop", out=out, trials=2, resume=True))
    after = {r["trial"]: r for r in read_results(out / "results.jsonl")}
    assert after[lines[0]["trial"]]["status"] == INFRA_ERROR and after[lines[1]["trial"]]["attempts"] == 3
    assert summary["unscored"] == 1


def test_cli_run_survives_a_killed_dovecot(tmp_path):
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "cmd:sh -c 'sleep 1.5'", "--tasks", str(HEALTHY)]
    proc = subprocess.Popen(
        [*argv, "--trials", "3", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        running = descendants(proc.pid)
        if any(cmd.startswith("sleep 1.5") for cmd in running.values()):
            break
        time.sleep(0.05)
    [dovecot] = [pid for pid, cmd in running.items() if " -F -c " in cmd and "dovecot" in cmd]
    os.kill(dovecot, signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stdout + stderr
    results = read_results(out / "results.jsonl")
    assert sorted(r["trial"] for r in results) == [1, 2, 3]
    assert all(r["status"] == "completed" and r["score"] is not None for r in results)
    assert max(r["attempts"] for r in results) == 2
    summary = json.loads((out / "summary.json").read_text())
    assert summary["unscored"] == 0 and summary["infra_errors"] == 0


def _owned(parent: Path, name: str, owner: dict | None) -> Path:
    folder = parent / f"{PREFIX}{name}"
    folder.mkdir()
    (folder / "marker").write_text("x")
    if owner is not None:
        (folder / OWNER).write_text(json.dumps(owner))
    return folder


def test_a_new_pool_reaps_only_the_folders_of_dead_owners(tmp_path, monkeypatch):
    scratch = SESSION_TMP / "reap"  # short: Dovecot's socket paths are at most 107 bytes
    scratch.mkdir()
    scratch.chmod(0o755)
    monkeypatch.setenv("STAGECLAW_TMP", str(scratch))
    gone = subprocess.Popen(["true"])
    gone.wait()
    me = Path(f"/proc/{os.getpid()}/stat").read_text().rpartition(")")[2].split()[19]
    dead = _owned(scratch, "dead", {"pid": gone.pid, "start": "1"})
    reused = _owned(scratch, "reused", {"pid": os.getpid(), "start": str(int(me) + 1)})  # same pid, later process
    live = _owned(scratch, "live", {"pid": os.getpid(), "start": me})
    unknown = _owned(scratch, "unknown", None)  # an older stageclaw, or a pool still starting
    with ServicePool() as pool:
        assert pool.root.parent == scratch and (pool.root / OWNER).is_file()
        assert not dead.exists() and not reused.exists()
        assert live.exists() and unknown.exists()


def test_the_pool_folder_of_a_killed_run_is_reaped_by_the_next_one(tmp_path, monkeypatch):
    scratch = SESSION_TMP / "killed"
    scratch.mkdir()
    scratch.chmod(0o755)
    env = {**os.environ, "STAGECLAW_TMP": str(scratch)}
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "cmd:sleep 30", "--tasks", str(HEALTHY)]
    proc = subprocess.Popen([*argv, "--out", str(tmp_path / "run")], env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not any(c.startswith("sleep 30") for c in descendants(proc.pid).values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    [left] = list(scratch.glob(f"{PREFIX}*"))  # a kill leaves the folder; its servers died with the run
    monkeypatch.setenv("STAGECLAW_TMP", str(scratch))
    with ServicePool() as pool:
        assert not left.exists() and [p.name for p in scratch.iterdir()] == [pool.root.name]
