"""The Ray backend on a local cluster on loopback, one for the module: the same results as the local
backend, no episode lost when a worker is killed, Ctrl-C stops the actors, and the CLI joins a running
cluster by its address."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stageclaw.run.backend import connect_ray
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_tasks
from stageclaw.validate.checker import validate_path
from tests.conftest import EXAMPLES, pool_processes
from tests.test_world_processes import descendants, still_alive

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="needs the ray extra: pip install 'stageclaw[ray]'"
)
TASKS, _ = load_tasks(EXAMPLES)
SAME = ("task_id", "trial", "status", "score", "success", "items", "collateral", "steps", "tool_errors", "task_hash")


def ray_processes() -> list[str]:
    return [p for p in pool_processes() if "ray::" in p or "/ray/" in p]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local cluster started as the ray backend starts one (its files in the session folder); its address."""
    connect_ray()
    import ray

    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        _eventually(lambda: not ray_processes(), within=15)


def _results(out: Path) -> list[dict]:
    """What must not depend on the backend (an item's reason may name a generated id: a booking reference)."""
    lines = [{k: r[k] for k in SAME} for r in read_results(out / "results.jsonl")]
    for line in lines:
        line["items"] = [{k: v for k, v in i.items() if k != "reason"} for i in line["items"]]
    return sorted(lines, key=lambda r: (r["task_id"], r["trial"]))


def _agents(marker: str) -> dict[int, str]:
    """The agent programs of this test (their command line holds `marker`), below this process."""
    return {pid: cmd for pid, cmd in descendants(os.getpid()).items() if cmd.startswith("sh -c") and marker in cmd}


def _eventually(found: Callable[[], bool], within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while not found():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _when(found: Callable[[], bool], then: Callable[[], None], within: float = 60.0) -> threading.Thread:
    """In a thread: once `found()` is true (or after `within` seconds), `then()`."""

    def watch() -> None:
        _eventually(found, within)
        then()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def _worker_of(pid: int) -> int:
    """The Ray worker an agent runs under (through the bubblewrap processes of its sandbox)."""
    while not Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"ray::PoolWorker"):
        pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert pid > 1, "the agent does not run under a Ray worker"
    return pid


def test_the_examples_give_the_same_results_as_with_the_local_backend(cluster, tmp_path):
    seen: list[dict] = []
    local = run(TASKS, RunConfig(agent="oracle", out=tmp_path / "local", workers=2))
    on_ray = run(
        TASKS,
        RunConfig(agent="oracle", out=tmp_path / "ray", workers=2, backend="ray"),
        on_result=seen.append,
    )
    assert _results(tmp_path / "ray") == _results(tmp_path / "local")
    assert len(seen) == len(TASKS) == on_ray["episodes"] and on_ray["success_rate"] == local["success_rate"] == 1.0
    for episode in (tmp_path / "local" / "episodes").iterdir():
        files = {p.name for p in episode.iterdir()}
        assert {p.name for p in (tmp_path / "ray" / "episodes" / episode.name).iterdir()} == files
    before = (tmp_path / "ray" / "results.jsonl").read_text()
    again = run(TASKS, RunConfig(agent="oracle", out=tmp_path / "ray", resume=True, backend="ray"))
    assert (tmp_path / "ray" / "results.jsonl").read_text() == before and again["episodes"] == len(TASKS)


def test_a_killed_worker_loses_no_episode(cluster, tmp_path):
    # Every episode waits for `go`: the worker is killed while two are in flight. The agent's jail sees the
    # folder of a file its command names (read-only, as it changes): `go` appears there.
    signals = tmp_path / "signals"
    signals.mkdir(mode=0o755)
    (signals / "anchor").touch()
    go = signals / "go"
    agent = f"cmd:sh -c 'until [ -e {go} ]; do sleep 0.05; done; echo done' agent {signals / 'anchor'}"
    killed: dict[int, str] = {}  # the worker's processes: its pool's servers, its agent

    def kill_one() -> None:
        waiting = _agents(str(go))
        if len(waiting) == 2:
            worker = _worker_of(next(iter(waiting)))
            killed.update(descendants(worker))
            os.kill(worker, signal.SIGKILL)
        go.touch()

    # As below: on a loaded machine both actors can take more than a minute to start their pools.
    killer = _when(lambda: len(_agents(str(go))) == 2, kill_one, within=300)
    seen: list[dict] = []
    summary = run(TASKS, RunConfig(agent=agent, out=tmp_path / "run", workers=2, backend="ray"), on_result=seen.append)
    killer.join()
    assert killed, "no worker was killed"
    results = read_results(tmp_path / "run" / "results.jsonl")
    assert sorted((r["task_id"], r["trial"]) for r in results) == sorted((t.id, 1) for t in TASKS)
    assert all(r["status"] == "completed" for r in results) and summary["infra_errors"] == 0
    assert len(seen) == len(TASKS)
    # The killed worker's episode (in flight when it died) ran again on the worker that replaced it: every
    # episode completed.
    assert any("dovecot" in cmd for cmd in killed.values()) and still_alive(killed) == {}


def test_ctrl_c_stops_the_agents_on_the_workers_and_records_nothing(cluster, tmp_path):
    marker = str(tmp_path / "asleep")
    agent = f"cmd:sh -c 'sleep 60; echo {marker}'"
    running: dict[int, str] = {}
    signalled: list[float] = []

    def interrupt() -> None:
        running.update(_agents(marker))
        signalled.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    # Both actors start their pool first: on a loaded machine that alone can take a minute.
    _when(lambda: len(_agents(marker)) == 2, interrupt, within=300)
    with pytest.raises(KeyboardInterrupt):
        run(TASKS, RunConfig(agent=agent, out=tmp_path / "run", workers=2, backend="ray"))
    assert len(running) == 2 and time.monotonic() - signalled[0] < 15
    assert read_results(tmp_path / "run" / "results.jsonl") == []
    assert still_alive(running) == {}
    assert _eventually(lambda: not [p for p in ray_processes() if "PoolWorker" in p], within=10)


def test_validate_joins_a_running_cluster_and_judges_like_the_local_backend(cluster, tmp_path, pool):
    tasks = tmp_path / "tasks"
    for name in ("quarterly-sync", "offsite-action-items"):  # two quick ones, checked at once
        shutil.copytree(EXAMPLES / name, tasks / name)
    argv = [sys.executable, "-m", "stageclaw", "validate", str(tasks), "--out", str(tmp_path / "ray")]
    res = subprocess.run(
        [*argv, "--backend", "ray", "--address", cluster, "--workers", "2"], capture_output=True, text=True, timeout=300
    )
    local = validate_path(tasks, pool, out=tmp_path / "local")
    assert res.returncode == (0 if all(r.accepted for r in local) else 1), res.stdout + res.stderr
    on_ray = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert [(r["task_id"], r["score"], r["kill_rate"]) for r in on_ray["results"]] == [
        (r.task_id, r.score, r.kill_rate) for r in local
    ]
