"""Task code as an agent: a solve file (`hidden/solution.py`, an alternative) runs in its own process, jailed.

The jail (`world.bwrap`) holds the Python installation (the standard library is all a solution
may import), the runner and the solution, and nothing else: no host file, no network, a uid of
its own. Its tools are reached over a pipe: each call the solution makes is a line the runner
(`solution_runner.py`) writes, run here through the episode's registry (so it is audited, may meet
a fault and counts against budgets), its result a line written back.

The solution is the task author's code, so it may be wrong or hostile: an exception, `sys.exit`,
a crash, a loop past the task's time budget, a flood of output are all that task's defect, reported
as the episode's error; none of them ends or slows the harness. Ctrl-C and SIGTERM (the run's stop
event) stop it within a tenth of a second.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Protocol

from stageclaw.agents.base import AGENT_ERROR, COMPLETED, INTERRUPTED, TIMEOUT, AgentOutcome
from stageclaw.world import bwrap
from stageclaw.world.bwrap import Identity, Jail, Limits
from stageclaw.world.procs import stop

RUNNER = Path(__file__).with_name("solution_runner.py")
BOX = "/solution"
LIMITS = Limits(processes=16, memory=2 << 30, file_size=16 << 20)
MESSAGE_CAP = 32 << 20  # bytes of one line from the solution (a call with its arguments)
LOG_CAP = 16 << 10  # bytes of the end of what the solution printed, quoted when it fails
POLL_S = 0.1  # how often the stop event is looked at


class ToolCaller(Protocol):
    """What a solution's calls go through: a Registry, or a remote world's MCP tools."""

    @property
    def stopped(self) -> bool: ...

    def invoke(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]: ...


def run_solution(solve_py: Path, tools: ToolCaller, time_budget_s: float) -> AgentOutcome:
    """Run `solve(tools)` of `solve_py` in a jail until it returns, fails, or its time is up."""
    exe, mounts = bwrap.python()
    files = {f"{BOX}/runner.py": RUNNER.read_bytes(), f"{BOX}/solution.py": solve_py.read_bytes()}
    jail = Jail(mounts, Identity.fresh(), LIMITS, files=files, cwd=BOX)
    try:
        proc = jail.popen(
            [exe, "-I", "-S", "-B", f"{BOX}/runner.py", f"{BOX}/solution.py"],
            env={"LANG": "C.UTF-8"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        return AgentOutcome(AGENT_ERROR, error=f"the reference solution could not start: {exc}")
    try:
        return _Session(proc, tools, time.monotonic() + time_budget_s, time_budget_s).serve()
    finally:
        stop(proc, grace=0)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


class _Session:
    """The conversation with one solution process: its calls in, the tools' answers out."""

    def __init__(self, proc: subprocess.Popen[bytes], tools: ToolCaller, deadline: float, budget_s: float) -> None:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.proc, self.tools, self.deadline, self.budget_s = proc, tools, deadline, budget_s
        self.stdin, self.stdout, self.stderr = proc.stdin, proc.stdout, proc.stderr
        self.line = bytearray()
        self.log = b""
        self.answer = b""  # replies not yet written (written as the solution reads them)
        os.set_blocking(self.stdin.fileno(), False)

    def serve(self) -> AgentOutcome:
        with selectors.DefaultSelector() as sel:
            sel.register(self.stdout, selectors.EVENT_READ)
            sel.register(self.stderr, selectors.EVENT_READ)
            while True:
                if self.tools.stopped:
                    return AgentOutcome(INTERRUPTED, error="the run was interrupted")
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    return self._failed(
                        TIMEOUT,
                        f"the reference solution ran past its time budget of {self.budget_s:g} s and was stopped",
                    )
                for key, _ in sel.select(min(remaining, POLL_S)):
                    if key.fileobj is self.stdin:
                        self._write(sel)
                        continue
                    chunk = os.read(key.fd, 1 << 16)
                    if key.fileobj is self.stderr:
                        self.log = (self.log + chunk)[-LOG_CAP:]
                        if not chunk:
                            sel.unregister(self.stderr)
                        continue
                    if not chunk:
                        return self._ended()
                    outcome = self._read(chunk, sel)
                    if outcome is not None:
                        return outcome

    def _read(self, chunk: bytes, sel: selectors.BaseSelector) -> AgentOutcome | None:
        self.line += chunk
        while b"\n" in self.line:
            raw, _, rest = bytes(self.line).partition(b"\n")
            self.line = bytearray(rest)
            outcome = self._message(raw, sel)
            if outcome is not None:
                return outcome
        if len(self.line) > MESSAGE_CAP:
            return self._failed(AGENT_ERROR, f"the reference solution sent a message over {MESSAGE_CAP >> 20} MiB")
        return None

    def _message(self, raw: bytes, sel: selectors.BaseSelector) -> AgentOutcome | None:
        try:
            message = json.loads(raw)
        except json.JSONDecodeError:
            message = None
        if isinstance(message, dict) and isinstance(message.get("call"), str) and isinstance(message.get("args"), dict):
            reply = self.tools.invoke(message["call"], message["args"])
            self.answer += json.dumps(reply).encode() + b"\n"
            if self.stdin not in sel.get_map():
                sel.register(self.stdin, selectors.EVENT_WRITE)
            return None
        if isinstance(message, dict) and isinstance(message.get("done"), str):
            return AgentOutcome(COMPLETED, final_answer=message["done"])
        if isinstance(message, dict) and isinstance(message.get("tool_error"), str):
            return AgentOutcome(
                AGENT_ERROR, error=f"the reference solution's tool call failed: {message['tool_error']}"
            )
        if isinstance(message, dict) and isinstance(message.get("failed"), str):
            return self._failed(AGENT_ERROR, f"the reference solution failed: {message['failed']}")
        return self._failed(AGENT_ERROR, f"the reference solution's process sent a malformed message: {raw[:120]!r}")

    def _write(self, sel: selectors.BaseSelector) -> None:
        try:
            self.answer = self.answer[os.write(self.stdin.fileno(), self.answer[: 1 << 16]) :]
        except BrokenPipeError:  # it stopped reading; its end is reported when its output ends
            self.answer = b""
        if not self.answer:
            sel.unregister(self.stdin)

    def _ended(self) -> AgentOutcome:
        try:
            code = self.proc.wait(1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "closed its output"
        elif code > 128:  # what the jail reports for a program killed by a signal
            how = f"was killed by signal {code - 128} ({signal.strsignal(code - 128)})"
        else:
            how = f"ended with exit code {code}"
        return self._failed(AGENT_ERROR, f"the reference solution's process {how} before solve() returned")

    def _failed(self, status: str, error: str) -> AgentOutcome:
        said = self.log.decode("utf-8", errors="replace").strip().splitlines()[-5:]
        if said:
            error += "; the end of its output:\n" + "\n".join(line[:300] for line in said)
        return AgentOutcome(status, error=error)
