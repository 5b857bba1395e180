"""`stageclaw export harbor`: the Harbor layout, nothing hidden where the agent looks, and the exported
world, reference solution and grading run as they would in the container (with the bundled stageclaw)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from stageclaw.export import harbor
from stageclaw.export.harbor_world import world_pid, world_running
from stageclaw.task.loader import load_task
from stageclaw.world.procs import free_port

from .conftest import EXAMPLE, EXAMPLES, ROOT


def hidden_texts(task_dir: Path) -> list[str]:
    """Passages only the task's hidden files (and its task.toml) hold: rubric descriptions and judge criteria,
    goal.md's lines, the verifier's and solution's longer lines (not their imports, which any module may
    share), the hint."""
    hidden = task_dir / "hidden"
    rubric = tomllib.loads((hidden / "rubric.toml").read_text())
    texts = [i["description"] for i in rubric["item"]] + [i["judge"] for i in rubric["item"] if "judge" in i]
    texts.append(tomllib.loads((task_dir / "task.toml").read_text())["hint"])
    for name in ("goal.md", "verify.py", "solution.py"):
        lines = [line.strip() for line in (hidden / name).read_text().splitlines()]
        texts += [line for line in lines if len(line) > 40 and not line.startswith(("from ", "import "))]
    return texts


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbor")
    # A bundled benchmark by name, from the repository, whose examples/ folder holds agent programs, not tasks.
    argv = [sys.executable, "-m", "stageclaw", "export", "harbor", "examples", "--out", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
    return out


def test_layout_instruction_and_config(exported):
    task = exported / EXAMPLE.name
    files = {p.relative_to(task).as_posix() for p in task.rglob("*") if p.is_file() and "stageclaw" not in p.parts}
    assert files == {
        "instruction.md",
        "task.toml",
        "environment/Dockerfile",
        "environment/world/world.yaml",
        "environment/world/assets/agenda.pdf",
        "environment/world/episode.json",
        "tests/test.sh",
        "solution/solve.sh",
        "solution/solution.py",
    } | {
        f"tests/quarterly-sync/{p.relative_to(EXAMPLE).as_posix()}"
        for p in EXAMPLE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert (task / "instruction.md").read_bytes() == (EXAMPLE / "prompt.md").read_bytes()

    config = tomllib.loads((task / "task.toml").read_text())
    assert config["task"]["name"] == "stageclaw/quarterly-sync"
    assert config["agent"]["timeout_sec"] == 600.0  # the task's time_budget_s
    assert config["environment"]["mcp_servers"] == [
        {"name": "stageclaw", "transport": "streamable-http", "url": "http://127.0.0.1:8765/mcp"}
    ]
    assert config["environment"]["healthcheck"]["command"] == "python -m stageclaw.export.harbor_world up"

    dockerfile = (task / "environment" / "Dockerfile").read_text()
    assert "dovecot-imapd" in dockerfile and "chromium" not in dockerfile  # no web apps in this world
    assert "chromium" in (exported / "summit-trip-booking" / "environment" / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["sh", "-c", "python -m stageclaw.export.harbor_world up && exec' in dockerfile
    assert "COPY stageclaw/ /opt/stageclaw/lib/stageclaw/" in dockerfile  # this stageclaw, bundled
    released = harbor.dockerfile(load_task(EXAMPLE), "stageclaw==0.1.0")
    assert "RUN pip install --no-cache-dir 'stageclaw==0.1.0'" in released and "COPY stageclaw/" not in released

    episode = json.loads((task / "environment" / "world" / "episode.json").read_text())
    assert episode["tools"] == ["*"]
    assert episode["brief"]["max_steps"] == 40 and episode["brief"]["user_email"] == "lin.chen@example.com"


def test_nothing_hidden_in_instruction_or_environment(exported):
    task = exported / EXAMPLE.name
    env = task / "environment"
    bundled = env / "stageclaw"
    assert (bundled / "tools" / "registry.py").is_file()
    # No hidden folder, no stageclaw task.toml (its hint), no task generator that could rebuild hidden files.
    assert not [p for p in env.rglob("*") if p.name in ("hidden", "task.toml", "author", "_tasks")]
    texts = hidden_texts(EXAMPLE)
    for path in [task / "instruction.md", *(p for p in env.rglob("*") if p.is_file())]:
        content = path.read_bytes().decode("utf-8", errors="replace")
        leaked = [t for t in texts if t in content]
        assert not leaked, path


def test_tests_and_solution_carry_what_grading_and_the_oracle_need(exported):
    task = exported / EXAMPLE.name
    graded = load_task(task / "tests" / "quarterly-sync")  # the complete task: rubric, verifier, world
    assert graded.digest == load_task(EXAMPLE).digest
    assert (task / "solution" / "solution.py").read_bytes() == (EXAMPLE / "hidden" / "solution.py").read_bytes()
    for script, command in [
        ("tests/test.sh", "python -m stageclaw.export.harbor_world grade /tests/quarterly-sync"),
        ("solution/solve.sh", "python -m stageclaw.export.harbor_world solve /solution/solution.py"),
    ]:
        path = task / script
        assert os.access(path, os.X_OK), script
        assert path.read_text().startswith("#!/bin/bash\n") and path.read_text().rstrip().endswith(command)


@pytest.fixture
def world(exported: Path, tmp_path: Path) -> Iterator[dict]:
    """How the container runs the exported world, with the environment's own copy of stageclaw."""
    task = exported / EXAMPLE.name
    state = tmp_path / "state"
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(task / "environment")}
    common = ["--world", str(task / "environment" / "world"), "--state", str(state), "--port", str(port)]

    def run(command: str, *args: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "stageclaw.export.harbor_world", command, *args, *common]
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=180)

    yield {"task": task, "state": state, "run": run, "link": tmp_path / "workspace"}
    pid = world_pid(state)
    if pid is not None and world_running(pid):  # a failed test left the world running: stop it (it cleans up)
        os.kill(pid, signal.SIGTERM)


def test_exported_world_is_solved_by_the_oracle_and_graded(world):
    run, state, link = world["run"], world["state"], world["link"]
    link.mkdir()
    up = run("up", "--link", str(link))
    assert up.returncode == 0, up.stderr + (state / "world.log").read_text()
    assert run("up", "--link", str(link)).returncode == 0  # the healthcheck asks again: the same world
    assert (link / "docs").is_dir()  # the user's files, where the agent's shell starts

    solved = run("solve", str(world["task"] / "solution" / "solution.py"))
    assert solved.returncode == 0, solved.stdout + solved.stderr
    graded = run("grade", str(world["task"] / "tests" / "quarterly-sync"), "--logs", str(state / "verifier"))
    assert graded.returncode == 0, graded.stderr
    assert (state / "verifier" / "reward.txt").read_text() == "1\n"
    report = json.loads((state / "verifier" / "grade.json").read_text())
    assert report["success"] and report["score"] == 100
    # Every call came through the MCP endpoint into the world's audit log.
    calls = [json.loads(line)["tool"] for line in (state / "audit.jsonl").read_text().splitlines()]
    assert calls[:2] == ["mail_search", "mail_read"] and "calendar_update_event" in calls
    assert not world_running(world_pid(state))


def test_exported_world_untouched_fails(world):
    run, state = world["run"], world["state"]
    assert run("up", "--link", "").returncode == 0
    graded = run("grade", str(world["task"] / "tests" / "quarterly-sync"), "--logs", str(state / "verifier"))
    assert graded.returncode == 0, graded.stderr
    assert float((state / "verifier" / "reward.txt").read_text()) < 1
    assert "FAIL     moved:" in graded.stdout
    again = run("up", "--link", "")
    assert again.returncode == 1 and "start a new container" in again.stderr
