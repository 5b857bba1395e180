"""External agents (`cmd:COMMAND`): real programs driving the real servers over MCP (streamable HTTP)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import anyio
import pytest
from mcp import Client

from stageclaw.agents.base import AGENT_ERROR, COMPLETED, MAX_STEPS, TIMEOUT, EpisodeBrief
from stageclaw.agents.external import CommandAgent
from stageclaw.agents.factory import check_spec, make_agent
from stageclaw.errors import StageclawError
from stageclaw.run.episode import brief_for
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from stageclaw.task.review import sign
from stageclaw.tools.audit import read
from stageclaw.tools.mcp_server import serve_http
from stageclaw.tools.registry import Registry
from stageclaw.world import diff
from tests.conftest import EXAMPLE, ROOT

TASK = load_task(EXAMPLE)
PYTHON = shlex.quote(sys.executable)


def _brief(**changes: object) -> EpisodeBrief:
    return replace(brief_for(TASK), **changes)


def _script(tmp_path: Path, code: str) -> str:
    """A `cmd:` command running `code` as a Python script, kept in a folder of its own that any user may read
    (the agent's jail shows it the script's folder, and runs it as a user of its own)."""
    folder = tmp_path / "agent-program"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)
    path = folder / f"agent_{abs(hash(code))}.py"
    path.write_text(textwrap.dedent(code))
    return f"{PYTHON} {shlex.quote(str(path))}"


def _running(marker: str) -> list[int]:
    """The live processes whose command line names `marker` (the agent sandbox hides their real pids from them)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, NotADirectoryError):
            continue
        if str(marker) in cmdline and state != "Z":  # a zombie has ended; only its exit status is left
            found.append(int(proc.name))
    return found


def _wait_for(path: Path, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().endswith("\n"):
            return path.read_text()
        time.sleep(0.02)
    raise AssertionError(f"{path} did not appear")


# Starts a child (both with the script's path in their command lines), says so in the scratch folder,
# then outlives any budget; both ignore SIGTERM.
STUBBORN = """
    import os, pathlib, signal, subprocess, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # inherited by the child
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", __file__])
    scratch = pathlib.Path(os.environ["STAGECLAW_PROMPT_FILE"]).parent
    (scratch / "pids").write_text(f"{os.getpid()} {child.pid}\\n")
    print("working on it", flush=True)
    time.sleep(300)
"""


def test_serve_http_answers_and_leaves_no_thread_or_port(episode):
    threads = set(threading.enumerate())
    with Registry(episode) as registry, serve_http(registry) as url:

        async def calls() -> None:
            async with Client(url) as client:
                for _ in range(5):
                    assert not (await client.call_tool("now", {})).is_error

        anyio.run(calls)  # its speed on a kept-alive connection is measured by benchmarks/tools.py
    port = int(url.split(":")[2].split("/")[0])
    assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
    # AnyIO's worker threads are told to stop when their event loop ends and leave a moment later.
    deadline = time.monotonic() + 10
    while set(threading.enumerate()) != threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(threading.enumerate()) == threads
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_command_agent_changes_the_world_through_the_runner(tmp_path, monkeypatch):
    task_dir = tmp_path / "tasks" / TASK.id
    shutil.copytree(EXAMPLE, task_dir)
    toml = task_dir / "task.toml"
    toml.write_text(re.sub(r"max_steps = \d+", "max_steps = 3", toml.read_text()))  # exactly what the agent uses
    (task_dir / "hidden" / "rubric.toml").write_text(
        textwrap.dedent("""
            [[item]]
            id = "note"
            description = "agent-notes.md holds the request and the time it was asked"
            weight = 1
            critical = true
            check = "check_note"

            [[item]]
            id = "calls"
            description = "The agent asked the clock, listed the files, wrote the note and said so"
            weight = 1
            check = "check_calls"

            [changes]
            allow = ["+files/agent-notes.md"]
        """)
    )
    (task_dir / "hidden" / "verify.py").write_text(
        textwrap.dedent("""
            def check_note(initial, final, trace):
                note = final["files"].get("agent-notes.md", {}).get("text", "")
                return "Priya emailed" in note and "(Asia/Shanghai)" in note

            def check_calls(initial, final, trace):
                tools = [s["tool"] for s in trace["steps"] if s["ok"]]
                return tools == ["now", "files_list", "files_write"] and "wrote agent-notes.md" in trace["final_answer"]
        """)
    )
    # Typed from the repository root, as the README does: the script path is relative to it, not to the workspace.
    monkeypatch.chdir(ROOT)
    summary = run([load_task(task_dir)], RunConfig(agent=f"cmd:{PYTHON} examples/mcp_agent.py", out=tmp_path / "run"))
    [result] = read_results(tmp_path / "run" / "results.jsonl")
    assert result["status"] == COMPLETED, result["error"]
    assert result["success"] is True and result["score"] == 100, (result["items"], result["collateral"])
    assert summary["tool_calls"] == 3

    ep = tmp_path / "run" / "episodes" / f"{TASK.id}__t1"
    sH = json.loads((ep / "sH.json").read_text())
    s0 = json.loads((ep / "s0.json").read_text())
    assert [(c["op"], c["path"]) for c in diff(s0, sH)] == [("added", "files/agent-notes.md")]
    assert TASK.prompt.strip() in sH["files"]["agent-notes.md"]["text"]
    audit = read(ep / "audit.jsonl")
    assert [(e["tool"], e["ok"]) for e in audit] == [("now", True), ("files_list", True), ("files_write", True)]
    assert audit[2]["args"]["path"] == "agent-notes.md"
    trajectory = json.loads((ep / "trajectory.json").read_text())
    assert trajectory["final_answer"] == "I read the request, saw 2 files and wrote agent-notes.md."
    scratch = ep / "agent"
    assert {p.name for p in scratch.iterdir()} == {"prompt.md", "system.md", "mcp.json", "stdout.txt", "stderr.txt"}
    assert (scratch / "prompt.md").read_text() == TASK.prompt
    server = json.loads((scratch / "mcp.json").read_text())["mcpServers"]["stageclaw"]
    assert server["type"] == "http" and server["url"].startswith("http://127.0.0.1:")
    assert not set(sH["files"]) & {"prompt.md", "system.md", "mcp.json", "stdout.txt", "stderr.txt", "agent"}


def test_the_agent_gets_its_inputs_outside_the_workspace_and_nothing_hidden(episode, tmp_path):
    spy = """
        import json, os, pathlib
        scratch = pathlib.Path(os.environ["STAGECLAW_PROMPT_FILE"]).parent
        given = {p.name: p.read_text() for p in scratch.iterdir() if p.suffix in (".md", ".json")}
        workspace = {str(p): p.read_bytes().decode(errors="replace") for p in pathlib.Path(".").rglob("*") if p.is_file()}
        seen = {"env": dict(os.environ), "cwd": os.getcwd(), "given": given, "workspace": workspace}
        (scratch / "seen.json").write_text(json.dumps(seen))
        print("done")
    """
    scratch = tmp_path / "scratch"
    s0 = episode.snapshot()
    with Registry(episode) as registry:
        outcome = CommandAgent(_script(tmp_path, spy), scratch).run(_brief(), registry)
    assert outcome.status == COMPLETED and outcome.final_answer == "done", outcome.error
    assert diff(s0, episode.snapshot()) == []
    seen = json.loads((scratch / "seen.json").read_text())
    env = seen["env"]
    assert Path(seen["cwd"]) == episode.workspace
    assert not scratch.resolve().is_relative_to(episode.workspace.resolve())
    assert env["STAGECLAW_PROMPT"] == TASK.prompt == seen["given"]["prompt.md"]
    assert Path(env["STAGECLAW_PROMPT_FILE"]) == scratch / "prompt.md"
    assert Path(env["STAGECLAW_SYSTEM_FILE"]) == scratch / "system.md"
    assert Path(env["STAGECLAW_MCP_CONFIG"]) == scratch / "mcp.json"
    config = json.loads(seen["given"]["mcp.json"])
    assert config == {"mcpServers": {"stageclaw": {"type": "http", "url": env["STAGECLAW_MCP_URL"]}}}
    assert (env["STAGECLAW_NOW"], env["STAGECLAW_TIMEZONE"]) == ("2026-03-10T09:00:00+08:00", "Asia/Shanghai")
    assert (env["STAGECLAW_USER_NAME"], env["STAGECLAW_USER_EMAIL"]) == ("Lin Chen", "lin.chen@example.com")
    assert (env["STAGECLAW_MAX_STEPS"], env["STAGECLAW_TIME_BUDGET_S"]) == ("40", "600")
    system = seen["given"]["system.md"]
    assert all(
        fact in system for fact in ("Lin Chen", "lin.chen@example.com", "2026-03-10T09:00:00+08:00", "Asia/Shanghai")
    )
    assert os.environ.get("PATH") == env["PATH"]  # the harness's environment is inherited

    hidden = TASK.hidden
    secrets = {str(hidden)} | {i.description for i in TASK.rubric.items}
    for path in hidden.rglob("*.*"):  # the alternative solutions too
        secrets |= {line.strip() for line in path.read_text().splitlines() if len(line.strip()) > 30}
    secrets -= {line.strip() for line in (TASK.prompt + (EXAMPLE / "world.yaml").read_text()).splitlines()}
    assert len(secrets) > 10
    everything = json.dumps(seen, ensure_ascii=False)
    assert [s for s in secrets if s in everything] == []


def test_the_step_budget_is_enforced(episode, tmp_path):
    agent = """
        import anyio, os
        from mcp import Client

        async def main():
            async with Client(os.environ["STAGECLAW_MCP_URL"]) as tools:
                for _ in range(5):
                    result = await tools.call_tool("now", {})
                    print(result.is_error, result.content[0].text.replace("\\n", " "))

        anyio.run(main)
    """
    with Registry(episode) as registry:
        outcome = CommandAgent(_script(tmp_path, agent), tmp_path / "scratch").run(_brief(max_steps=3), registry)
        audit = registry.audit.entries
    assert outcome.status == MAX_STEPS
    assert outcome.error == "the agent made its 3 tool calls and 2 more, which were refused"
    assert [e["tool"] for e in audit] == ["now"] * 3  # refused calls never reach the world
    lines = outcome.final_answer.splitlines()
    assert [line.split()[0] for line in lines] == ["False"] * 3 + ["True"] * 2
    assert "step budget spent: this task allows 3 tool calls" in lines[-1]


def test_an_agent_past_its_time_budget_is_stopped_with_everything_it_started(episode, tmp_path):
    scratch = tmp_path / "scratch"
    command = _script(tmp_path, STUBBORN)
    agent = CommandAgent(command, scratch)
    agent.grace_s = 0.3
    started = time.perf_counter()
    with Registry(episode) as registry:
        outcome = agent.run(_brief(time_budget_s=1.0), registry)
    took = time.perf_counter() - started
    assert (scratch / "pids").is_file()  # the child was started
    assert outcome.status == TIMEOUT and "time budget of 1 s" in outcome.error
    assert outcome.final_answer == "working on it"
    assert took < 60  # stopped at its budget, not left to sleep its 300 s
    assert _running(shlex.split(command)[-1]) == []


def test_a_failing_command_is_an_agent_error_with_the_end_of_its_stderr(episode, tmp_path):
    failing = """
        import sys
        print("x" * (3 << 20))
        print("half an answer")
        for i in range(40):
            print(f"log line {i}", file=sys.stderr)
        print("RuntimeError: the model refused", file=sys.stderr)
        sys.exit(3)
    """
    scratch = tmp_path / "scratch"
    with Registry(episode) as registry:
        outcome = CommandAgent(_script(tmp_path, failing), scratch).run(_brief(), registry)
    assert outcome.status == AGENT_ERROR
    assert outcome.error.startswith("the agent command exited with code 3; the end of its stderr:\n")
    assert outcome.error.endswith("log line 39\nRuntimeError: the model refused")
    assert "log line 24\n" not in outcome.error
    assert (scratch / "stderr.txt").read_text().startswith("log line 0\n")  # all of it, under the cap
    assert outcome.final_answer.endswith("x\nhalf an answer") and len(outcome.final_answer) <= 8 << 10
    stdout = (scratch / "stdout.txt").read_bytes()
    assert stdout[: 1 << 20] == b"x" * (1 << 20)
    assert stdout[1 << 20 :] == f"\n[stageclaw: {(3 << 20) + 1 + 15 - (1 << 20)} more bytes not kept]\n".encode()


@pytest.mark.parametrize("command", ["no-such-agent-7f3e --fast", "/nonexistent/bin/agent"])
def test_a_command_that_cannot_start_is_a_clear_agent_error(episode, tmp_path, command):
    with Registry(episode) as registry:
        outcome = make_agent(f"cmd:{command}", TASK, tmp_path / "scratch").run(_brief(), registry)
    program = command.split()[0]
    assert outcome.status == AGENT_ERROR
    assert outcome.error == f"cannot start the agent command {program!r}: No such file or directory"


def test_agent_specs():
    check_spec("cmd:python my_agent.py --model 'a b'")
    check_spec("oracle")
    for spec, message in [
        ("cmd:", "cmd: needs a command to run"),
        ("cmd:   ", "cmd: needs a command to run"),
        ("cmd:python 'agent.py", "cannot split the agent command"),
        ("gpt", "agents are: oracle, noop, oracle:ALTERNATIVE, openai:MODEL, anthropic:MODEL, cmd:COMMAND"),
    ]:
        with pytest.raises(StageclawError, match=message):
            check_spec(spec)
    agent = make_agent(f"cmd:{PYTHON} examples/mcp_agent.py -v", TASK, Path("scratch"))
    assert isinstance(agent, CommandAgent) and agent.name == f"cmd:{PYTHON} examples/mcp_agent.py -v"
    assert agent.scratch == Path.cwd() / "scratch"  # the program runs in the workspace: its paths are absolute


# A harness running one episode of the example task with a `cmd:` agent, in its main thread.
HARNESS = """
import sys
from pathlib import Path
from stageclaw.agents.external import CommandAgent
from stageclaw.run.episode import brief_for
from stageclaw.task.loader import load_task
from stageclaw.task.review import sign
from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool

task = load_task(Path(sys.argv[1]))
agent = CommandAgent(sys.argv[2], Path(sys.argv[3]))
agent.grace_s = 0.3
with ServicePool() as pool, pool.episode(task.world, task.dir) as episode, Registry(episode) as registry:
    agent.run(brief_for(task), registry)
"""


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "killed"])
def test_no_process_of_the_agent_outlives_its_harness(tmp_path, how):
    scratch = tmp_path / "scratch"
    command = _script(tmp_path, STUBBORN)
    script = shlex.split(command)[-1]
    harness = subprocess.Popen(
        [sys.executable, "-c", HARNESS, str(EXAMPLE), command, str(scratch)], stderr=subprocess.PIPE
    )
    try:
        _wait_for(scratch / "pids")
        # The harness, the sandbox, the agent and the child it started.
        assert len([pid for pid in _running(script) if pid != harness.pid]) >= 3
        harness.send_signal(how)
        _, err = harness.communicate(timeout=10)
    finally:
        harness.kill()
    deadline = time.monotonic() + 5
    while _running(script) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _running(script) == []
    if how == signal.SIGINT:
        assert b"KeyboardInterrupt" in err


# Looks everywhere an answer could be on this machine and writes down what it read.
SNOOP = """
    import json, os, pathlib
    tasks, run_dir = pathlib.Path({tasks!r}), pathlib.Path({run!r})
    places = [tasks, run_dir, pathlib.Path(os.environ["STAGECLAW_TMP"]), pathlib.Path("/proc")]
    loot, seen = {{}}, []
    for place in places:
        for path in place.rglob("*") if place.name != "proc" else place.glob("*/root"):
            seen.append(str(path))
            try:
                if path.is_file() and path.stat().st_size < 1 << 20:
                    loot[str(path)] = path.read_text(errors="replace")
            except OSError:
                pass
    for pid in os.listdir("/proc"):
        for target in (tasks, run_dir) if pid.isdigit() else ():
            probe = pathlib.Path(f"/proc/{{pid}}/root") / str(target).lstrip("/")
            try:
                loot.update({{str(p): p.read_text(errors="replace") for p in probe.rglob("*") if p.is_file()}})
            except OSError:
                pass
    scratch = pathlib.Path(os.environ["STAGECLAW_PROMPT_FILE"]).parent
    (scratch / "loot.json").write_text(json.dumps({{"loot": loot, "seen": seen}}))
    print("looked")
"""


def test_a_command_agent_sees_no_hidden_folder_other_episode_result_or_server_store(tmp_path):
    tasks = tmp_path / "tasks"
    for example in (EXAMPLE, ROOT / "tasks" / "examples" / "offsite-action-items"):
        shutil.copytree(example, tasks / example.name)
    # A reviewer's notes and a playtester's may name the answer too.
    sign(tasks / "offsite-action-items", "Ana", "needs_work", "the reviewer's secret: the headcount is 29 people")
    play = {"task_id": TASK.id, "player": "p", "failures": [{"item": "moved", "note": "the playtester's secret 23:00"}]}
    (tasks / "playtests.jsonl").write_text(json.dumps(play) + "\n")
    run_dir = tmp_path / "run"
    snoop = _script(tmp_path, SNOOP.format(tasks=str(tasks), run=str(run_dir)))
    run([load_task(tasks / TASK.id)], RunConfig(agent=f"cmd:{snoop}", out=run_dir, trials=2))
    secrets = {
        line.strip()
        for task in tasks.iterdir()
        for path in (task / "hidden").rglob("*")
        if path.is_file()
        for line in path.read_text().splitlines()
        if len(line.strip()) > 24
    }
    secrets |= {"the reviewer's secret", "the playtester's secret"}
    assert len(secrets) > 20
    first = (run_dir / "episodes" / f"{TASK.id}__t1" / "grade.json").read_text()
    for trial in (1, 2):
        loot = json.loads((run_dir / "episodes" / f"{TASK.id}__t{trial}" / "agent" / "loot.json").read_text())
        text = "\n".join(loot["loot"].values())
        # It did read what it may, its own inputs; no task folder exists for it, not even the visible files.
        assert TASK.prompt.strip()[:60] in text
        assert not [p for p in loot["seen"] if p.startswith(str(tasks))]
        assert [s for s in secrets if s in text] == []
        assert not [p for p in loot["seen"] if "dovecot" in p or "radicale" in p]
        assert "results.jsonl" not in "".join(p for p in loot["loot"] if loot["loot"][p])
        assert not [p for p in loot["seen"] if "__t1" in p and trial == 2]
    assert '"items"' in first  # trial 1's grade existed while trial 2 ran, and stayed out of its sight


# Reads what --agent-bind gave it, writes into both binds and its home, and says what it saw.
BINDS = """
    import json, os, pathlib
    cfg, cache = pathlib.Path(os.environ["CFG"]), pathlib.Path(os.environ["CACHE"])
    seen = {"secret": (cfg / "credentials.json").read_text(), "home": os.environ["HOME"]}
    (cache / "new.txt").write_text("from the agent")
    (pathlib.Path.home() / ".agent-state").write_text("state")
    try:
        (cfg / "credentials.json").write_text("changed")
        seen["ro"] = "written"
    except OSError as exc:
        seen["ro"] = exc.strerror
    scratch = pathlib.Path(os.environ["STAGECLAW_PROMPT_FILE"]).parent
    (scratch / "seen.json").write_text(json.dumps(seen))
"""


def test_agent_binds_are_private_copies_and_home_is_writable(episode, tmp_path, monkeypatch):
    cfg, cache = tmp_path / "cfg", tmp_path / "cache"
    cfg.mkdir(mode=0o700)
    (cfg / "credentials.json").write_text("key-123")
    (cfg / "credentials.json").chmod(0o600)  # readable by its owner alone, as credentials are
    cache.mkdir()
    monkeypatch.setenv("CFG", str(cfg))
    monkeypatch.setenv("CACHE", str(cache))
    scratch = tmp_path / "scratch"
    agent = CommandAgent(_script(tmp_path, BINDS), scratch, binds=[str(cfg), f"{cache}:rw"])
    with Registry(episode) as registry:
        outcome = agent.run(_brief(), registry)
    assert outcome.status == COMPLETED, outcome.error
    seen = json.loads((scratch / "seen.json").read_text())
    assert seen["secret"] == "key-123" and seen["ro"] == "Read-only file system"
    assert seen["home"] == os.environ["HOME"] and not (Path.home() / ".agent-state").exists()  # a fresh home
    assert (cfg / "credentials.json").read_text() == "key-123" and list(cache.iterdir()) == []  # originals untouched
    assert agent.config["binds"] == [str(cfg), f"{cache}:rw"]


def test_an_agent_beside_its_task_or_binding_a_bad_path_is_refused(episode, tmp_path):
    program = tmp_path / "agent.py"  # the folder holding it holds the task folder too
    program.write_text("print('hi')")
    task_dir = tmp_path / "tasks" / TASK.id
    shutil.copytree(EXAMPLE, task_dir)
    with Registry(episode) as registry:
        outcome = CommandAgent(f"{PYTHON} {program}", tmp_path / "scratch", (task_dir,)).run(_brief(), registry)
    assert outcome.status == AGENT_ERROR
    assert f"the agent would see {tmp_path}, which holds or lies in {task_dir.parent}" in outcome.error
    with pytest.raises(StageclawError, match="does not exist"):
        check_spec("cmd:true", {"binds": [str(tmp_path / "nope") + ":rw"]})
