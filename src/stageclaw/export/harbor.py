"""`stageclaw export harbor`: stageclaw tasks as Harbor task directories (harborframework.com).

One Harbor task per stageclaw task, `<out>/<task-id>/`:

    instruction.md   the task's prompt.md, byte for byte
    task.toml        Harbor's settings: the agent's timeout is the task's time budget; the world's tools
                     are the MCP server `stageclaw` (streamable HTTP, http://127.0.0.1:8765/mcp); a
                     healthcheck makes sure the world is up before the agent starts
    environment/     the agent's image: Dockerfile, stageclaw (the package without its task generators,
                     unless --install names a release) and world/ (world.yaml, the assets it names and
                     episode.json: the brief an agent gets and the task's tool patterns)
    tests/           test.sh and <task-id>/, the whole stageclaw task with hidden/: test.sh stops the world,
                     grades its final state and writes /logs/verifier/reward.txt (score / 100)
    solution/        solve.sh and solution.py: the reference solution, through the same MCP tools

Nothing of hidden/, nor task.toml (whose hint and provenance describe the solution), goes into the
instruction or the environment. The world runs in the agent's container (`harbor_world`), so an agent
with a shell there could also reach its stores behind the tools; whatever it changes is graded.
"""

from __future__ import annotations

import json
import re
import shutil
import stat
from dataclasses import asdict
from importlib.metadata import requires, version
from pathlib import Path

import stageclaw
from stageclaw import __version__
from stageclaw.errors import StageclawError
from stageclaw.export.harbor_world import MODULE, PORT, WORLD_DIR, mcp_url
from stageclaw.run.episode import brief_for
from stageclaw.task.loader import Task, load_tasks
from stageclaw.world.model import asset_refs

BASE_IMAGE = "python:3.11-slim-bookworm"
DEBIAN = ["dovecot-imapd", "dovecot-core", "bubblewrap", "libfaketime"]  # the servers and the terminal's sandbox
WEB_DEBIAN = ["chromium"]  # for worlds with web apps: the browser tools drive it
# Parts of the package an agent must not find in its image: the generators rebuild any generated task,
# hidden files included, from its family and seed; a wheel's bundled benchmarks carry every hidden folder.
NOT_BUNDLED = ("author", "_tasks", "__pycache__", "*.pyc")
VERIFIER_TIMEOUT_S = 300.0
BUILD_TIMEOUT_S = 1800.0


def export_harbor(path: Path, out: Path, *, install: str | None = None) -> tuple[list[Path], dict[Path, str]]:
    """Write a Harbor task for every task folder under `path`; returns them and the folders that did not load.

    `install` is a pip requirement for stageclaw in the image (a release, a git URL); by default the
    image gets this very stageclaw, copied into the environment.
    """
    tasks, errors = load_tasks(path)
    return [export_task(task, out, install=install) for task in tasks], errors


def export_task(task: Task, out: Path, *, install: str | None = None) -> Path:
    """Write the Harbor task of `task` to `<out>/<task-id>/`, replacing an earlier export of it."""
    folder = Path(out) / task.id
    if folder.exists():
        if not (folder / "environment" / "world" / "episode.json").is_file():
            raise StageclawError(f"{folder} exists and is not a Harbor task exported by stageclaw: not replacing it")
        shutil.rmtree(folder)
    env, tests, solution = folder / "environment", folder / "tests", folder / "solution"
    for d in (env / "world", tests, solution):
        d.mkdir(parents=True)
    shutil.copyfile(task.dir / "prompt.md", folder / "instruction.md")
    (folder / "task.toml").write_text(harbor_toml(task), encoding="utf-8")

    _world(task, env / "world")
    if install is None:
        shutil.copytree(Path(stageclaw.__file__).parent, env / "stageclaw", ignore=shutil.ignore_patterns(*NOT_BUNDLED))
    (env / "Dockerfile").write_text(dockerfile(task, install), encoding="utf-8")

    shutil.copytree(task.dir, tests / task.id, ignore=shutil.ignore_patterns("__pycache__"))
    _script(
        tests / "test.sh",
        "Stop the world, grade its final state with the task's rubric and verifier;\n"
        "# Harbor reads /logs/verifier/reward.txt (score / 100; 1 exactly when every scored item passed).",
        f"python -m {MODULE} grade /tests/{task.id}",
    )
    shutil.copyfile(task.solution_py, solution / "solution.py")
    _script(
        solution / "solve.sh",
        "The task's reference solution, acting on the world through the agent's MCP tools.",
        f"python -m {MODULE} solve /solution/solution.py",
    )
    return folder


def _world(task: Task, folder: Path) -> None:
    """world.yaml, the files it names and episode.json: what the world's process needs, nothing hidden."""
    shutil.copyfile(task.dir / "world.yaml", folder / "world.yaml")
    for _, rel in asset_refs(task.world):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(task.dir / rel, folder / rel)
    episode = {"brief": asdict(brief_for(task)), "tools": task.config.tools}
    (folder / "episode.json").write_text(json.dumps(episode, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _script(path: Path, comment: str, command: str) -> None:
    path.write_text(f"#!/bin/bash\n# {comment}\nset -euo pipefail\n{command}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def pinned_requirements() -> list[str]:
    """stageclaw's dependencies pinned to the versions installed here, so the image runs what was tested."""
    names = [re.match(r"[A-Za-z0-9._-]+", r).group(0) for r in requires("stageclaw") or [] if ";" not in r]
    return [f"{name}=={version(name)}" for name in names]


def dockerfile(task: Task, install: str | None) -> str:
    packages = DEBIAN + (WEB_DEBIAN if task.world.web.apps else [])
    if install is None:
        stageclaw_lines = [
            "RUN pip install --no-cache-dir " + " ".join(f"'{r}'" for r in pinned_requirements()),
            "COPY stageclaw/ /opt/stageclaw/lib/stageclaw/",
            "ENV PYTHONPATH=/opt/stageclaw/lib",
        ]
    else:
        stageclaw_lines = [f"RUN pip install --no-cache-dir '{install}'"]
    return "\n".join(
        [
            f"# stageclaw task {task.id} (stageclaw {__version__}): the agent's machine. The user's world runs on",
            "# real servers in this container, started by the entrypoint (and by Harbor's healthcheck); the agent",
            f"# reaches it through stageclaw's tools over MCP at {mcp_url()} and finds the user's files",
            "# in /workspace. Grading stops the world and reads its final state (tests/test.sh).",
            f"FROM {BASE_IMAGE}",
            "RUN apt-get update \\",
            f" && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends {' '.join(packages)} \\",
            " && rm -rf /var/lib/apt/lists/*",
            *stageclaw_lines,
            f"COPY world/ {WORLD_DIR}/",
            # Not /dev/shm: Docker gives it 64 MiB, and the browser and the pool's stores would share it.
            "RUN mkdir -p -m 755 /var/lib/stageclaw/pool",
            "ENV STAGECLAW_TMP=/var/lib/stageclaw/pool",
            "WORKDIR /workspace",
            # Harbor replaces the command (sleep infinity), not the entrypoint.
            f'ENTRYPOINT ["sh", "-c", "python -m {MODULE} up && exec \\"$@\\"", "stageclaw-world"]',
            'CMD ["sleep", "infinity"]',
            "",
        ]
    )


def _toml(value: str | list[str]) -> str:
    # JSON strings and arrays of strings are valid TOML basic strings and arrays.
    return json.dumps(value, ensure_ascii=False)


def harbor_toml(task: Task) -> str:
    c = task.config
    memory_mb = 4096 if task.world.web.apps else 2048
    return f"""# Harbor task exported from stageclaw task {c.id} (stageclaw {__version__}).
schema_version = "1.1"

[task]
name = {_toml(f"stageclaw/{c.id}")}
description = {_toml(c.title)}
keywords = {_toml(["stageclaw", c.group, *c.operators])}

[metadata]
source = "stageclaw"
category = {_toml(c.group)}
stageclaw_version = {_toml(__version__)}
stageclaw_task_hash = {_toml(task.digest)}
operators = {_toml(c.operators)}
max_steps = {c.max_steps}

[verifier]
timeout_sec = {VERIFIER_TIMEOUT_S}

[agent]
timeout_sec = {float(c.time_budget_s)}

[environment]
build_timeout_sec = {BUILD_TIMEOUT_S}
cpus = 2
memory_mb = {memory_mb}
storage_mb = 10240

[[environment.mcp_servers]]
name = "stageclaw"
transport = "streamable-http"
url = {_toml(mcp_url(PORT))}

[environment.healthcheck]
command = {_toml(f"python -m {MODULE} up")}
interval_sec = 2.0
timeout_sec = 150.0
retries = 3
"""
