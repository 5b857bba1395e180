"""The world of an exported Harbor task, inside its container (`stageclaw.export.harbor` writes the task).

    python -m stageclaw.export.harbor_world up                          # start the world once, wait for its tools
    python -m stageclaw.export.harbor_world solve /solution/solution.py # the reference solution, over MCP
    python -m stageclaw.export.harbor_world grade /tests/TASK-ID        # stop the world, grade it, write the reward

`up` starts `serve` in a session of its own: it builds the episode of `/opt/stageclaw/world`
(world.yaml, its assets and episode.json: the brief and the task's tools), writes s0, links
`/workspace` to the user's files and serves the task's tools over streamable HTTP at
http://127.0.0.1:8765/mcp, with the task's step budget and an audit log. On SIGTERM it writes sH and
stops its servers. `grade` sends that SIGTERM, grades sH against s0 with the task folder Harbor
uploaded with the tests (rubric, verifier), and writes /logs/verifier/reward.txt (score / 100) and
grade.json (every item with its reason, the collateral changes).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from anyio.from_thread import BlockingPortal, start_blocking_portal

from stageclaw.agents.base import COMPLETED, AgentOutcome, EpisodeBrief
from stageclaw.errors import StageclawError
from stageclaw.tools.base import ToolError

WORLD_DIR = Path("/opt/stageclaw/world")
STATE_DIR = Path("/var/lib/stageclaw")  # s0.json, sH.json, audit.jsonl, world.pid, world.log
VERIFIER_DIR = Path("/logs/verifier")  # where Harbor reads the reward
WORKSPACE_LINK = Path("/workspace")
PORT = 8765
MCP_PATH = "/mcp"
MODULE = "stageclaw.export.harbor_world"  # `python -m` it; as __main__ its __name__ says nothing
START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0


def mcp_url(port: int = PORT) -> str:
    return f"http://127.0.0.1:{port}{MCP_PATH}"


def read_brief(world_dir: Path) -> tuple[EpisodeBrief, list[str]]:
    """The episode's brief and the task's tool patterns, as the exporter wrote them."""
    spec = json.loads((world_dir / "episode.json").read_text(encoding="utf-8"))
    return EpisodeBrief(**spec["brief"]), spec["tools"]


def world_running(pid: int) -> bool:
    """Whether `pid` is a live world process (its pid file may name a process that reused the number)."""
    # Not os.kill(pid, 0): the world's parent is the container's PID 1 (`sleep`), which never reaps it,
    # so a stopped world lingers as a zombie.
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X") and MODULE.encode() in cmdline


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1.0)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def world_pid(state_dir: Path) -> int | None:
    try:
        return int((state_dir / "world.pid").read_text())
    except (OSError, ValueError):
        return None


def up(world_dir: Path, state_dir: Path, port: int, link: Path | None, timeout_s: float = START_TIMEOUT_S) -> None:
    """Start the world unless it runs already (the entrypoint and Harbor's healthcheck both ask); wait for its tools."""
    state_dir.mkdir(parents=True, exist_ok=True)
    with open(state_dir / "up.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pid = world_pid(state_dir)
        if pid is None or not world_running(pid):
            if (state_dir / "sH.json").exists():
                raise StageclawError("the world has been stopped and graded; start a new container for a new episode")
            argv = [sys.executable, "-m", MODULE, "serve", "--world", str(world_dir), "--state", str(state_dir)]
            argv += ["--port", str(port), "--link", str(link or "")]
            with open(state_dir / "world.log", "ab") as log:
                proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            pid = proc.pid
            (state_dir / "world.pid").write_text(str(pid))
    deadline = time.monotonic() + timeout_s
    while not _listening(port):
        if not world_running(pid):
            raise StageclawError(f"the world stopped while starting; see {state_dir / 'world.log'}")
        if time.monotonic() > deadline:
            raise StageclawError(f"the world's tools did not answer on port {port} within {timeout_s:g} s")
        time.sleep(0.1)


def _link(link: Path, target: Path) -> None:
    """Point `link` (the agent's working folder) at the user's files, so a shell works on them too."""
    if link.is_symlink():
        link.unlink()
    elif link.is_dir() and not any(link.iterdir()):
        link.rmdir()
    elif link.exists():
        print(f"not linking {link} to the user's files: it is not an empty folder", file=sys.stderr)
        return
    link.symlink_to(target, target_is_directory=True)


def serve(world_dir: Path, state_dir: Path, port: int, link: Path | None) -> None:
    """The world: build it, serve its tools until SIGTERM, then write its final state."""
    # Imported here: `up`, `solve` and `grade` do not need the servers.
    from stageclaw.agents.external import system_text
    from stageclaw.run.store import write_json
    from stageclaw.tools.audit import AuditLog
    from stageclaw.tools.mcp_server import INSTRUCTIONS, StepBudget, build_server
    from stageclaw.tools.registry import Registry
    from stageclaw.world import ServicePool, load_world

    brief, tools = read_brief(world_dir)
    world, base = load_world(world_dir)
    # SIGTERM unwinds like an exception, so sH is written and every server stops. While the MCP server
    # runs, uvicorn takes the signal, shuts down gracefully, then raises it again into this handler.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    with ServicePool() as pool, pool.episode(world, base) as episode:
        write_json(state_dir / "s0.json", episode.snapshot())
        if link is not None:
            _link(link, episode.workspace)
        try:
            with Registry(episode, allow=tools, audit=AuditLog(state_dir / "audit.jsonl")) as registry:
                server = build_server(
                    registry,
                    budget=StepBudget(brief.max_steps),
                    log_level="WARNING",
                    instructions=f"{INSTRUCTIONS}\n\n{system_text(brief)}",
                )
                server.run("streamable-http", host="127.0.0.1", port=port, streamable_http_path=MCP_PATH)
        finally:
            write_json(state_dir / "sH.json", episode.snapshot())


class McpTools:
    """`tools.NAME(**args)` over MCP: what a reference solution gets, from outside the world's process.

    A failed call raises ToolError with the server's message, as with the in-process registry.
    """

    def __init__(self, call: Callable[[str, dict[str, Any]], Any]) -> None:
        self._call = call

    def __getattr__(self, name: str) -> Callable[..., dict[str, Any]]:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda **args: self._result(name, args)

    def _result(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        result = self._call(name, args)
        if result.is_error:
            raise ToolError(" ".join(getattr(c, "text", "") for c in result.content) or f"{name} failed")
        return result.structured_content


class _Remote:
    """What OracleAgent needs of a registry: `invoke` and `stopped`."""

    stopped = False

    def __init__(self, proxy: McpTools) -> None:
        self.proxy = proxy

    def invoke(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            return {"ok": True, "result": self.proxy._result(name, args or {})}
        except ToolError as exc:
            return {"ok": False, "error": exc.message, "kind": exc.kind}


@contextmanager
def mcp_tools(url: str) -> Iterator[McpTools]:
    """A synchronous MCP client of the world's tools; the session lives on a loop in a helper thread."""
    from mcp import Client

    portal: BlockingPortal
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(url)) as client:
        yield McpTools(lambda name, args: portal.call(client.call_tool, name, args))


def solve(solution_py: Path, world_dir: Path, port: int) -> AgentOutcome:
    """Run the task's reference solution through the world's MCP tools, like any agent."""
    from stageclaw.agents.reference import OracleAgent

    brief, _ = read_brief(world_dir)
    with mcp_tools(mcp_url(port)) as tools:
        return OracleAgent(solution_py).run(brief, _Remote(tools))


def stop(state_dir: Path, timeout_s: float = STOP_TIMEOUT_S) -> None:
    """Stop the world (it writes sH.json on its way out) and wait for it."""
    pid = world_pid(state_dir)
    if pid is not None and world_running(pid):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while world_running(pid):
            if time.monotonic() > deadline:
                raise StageclawError(f"the world (pid {pid}) did not stop within {timeout_s:g} s")
            time.sleep(0.05)
    if not (state_dir / "sH.json").is_file():
        raise StageclawError(f"the world left no final state in {state_dir}; see {state_dir / 'world.log'}")


def grade_world(task_dir: Path, state_dir: Path, verifier_dir: Path) -> dict[str, Any]:
    """Stop the world and grade its final state; write reward.txt and grade.json for Harbor."""
    from stageclaw.grade.grader import grade
    from stageclaw.run.episode import trace_of
    from stageclaw.run.store import write_json
    from stageclaw.task.loader import load_task
    from stageclaw.tools.audit import AuditLog, read

    stop(state_dir)
    task = load_task(task_dir)
    s0 = json.loads((state_dir / "s0.json").read_text(encoding="utf-8"))
    sH = json.loads((state_dir / "sH.json").read_text(encoding="utf-8"))
    audit = AuditLog()
    if (state_dir / "audit.jsonl").is_file():
        audit.entries = read(state_dir / "audit.jsonl")
    # The agent's last words are its harness's business, not the world's: Harbor keeps them in /logs/agent.
    trace = trace_of(audit, AgentOutcome(COMPLETED))
    judge = None
    if os.environ.get("STAGECLAW_JUDGE"):
        from stageclaw.grade.judge import LLMJudge

        judge = LLMJudge(os.environ["STAGECLAW_JUDGE"])
    g = grade(task, s0, sH, trace, judge)
    verifier_dir.mkdir(parents=True, exist_ok=True)
    (verifier_dir / "reward.txt").write_text(f"{g.score / 100:g}\n")
    report = g.to_json()
    write_json(verifier_dir / "grade.json", report)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stageclaw.export.harbor_world", description=__doc__)
    parser.add_argument("command", choices=["up", "serve", "solve", "grade"])
    parser.add_argument("path", nargs="?", type=Path, help="solve: the solution.py; grade: the task folder")
    parser.add_argument("--world", type=Path, default=WORLD_DIR)
    parser.add_argument("--state", type=Path, default=STATE_DIR)
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--link", default=str(WORKSPACE_LINK), help="link this folder to the user's files ('': no)")
    parser.add_argument("--logs", type=Path, default=VERIFIER_DIR, help="grade: where Harbor reads the reward")
    args = parser.parse_args(argv)
    link = Path(args.link) if args.link else None
    try:
        if args.command == "up":
            up(args.world, args.state, args.port, link)
        elif args.command == "serve":
            serve(args.world, args.state, args.port, link)
        elif args.command == "solve":
            outcome = solve(args.path, args.world, args.port)
            print(outcome.error or f"the reference solution finished. {outcome.final_answer}".strip())
            return 0 if outcome.status == COMPLETED else 1
        else:
            report = grade_world(args.path, args.state, args.logs)
            for item in report["items"]:
                mark = {True: "pass", False: "FAIL", None: "unscored"}[item["passed"]]
                print(f"{mark:8} {item['id']}: {item['reason']}")
            print(f"score {report['score']:g}, success {report['success']}")
    except StageclawError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
