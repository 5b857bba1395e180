"""External agent harnesses: `cmd:COMMAND` runs any program as the agent of an episode.

The program starts in the episode workspace with the prompt, who the user is and the clock (as
environment variables and files in a scratch folder outside the workspace) and an MCP endpoint
(streamable HTTP on loopback) serving this episode's tools. Every tool call goes through the
episode's registry, so the audit log records what the program did. stageclaw enforces the time
budget (the whole process group is stopped) and the step budget (calls past it are refused).

The program sees the host as it is (its own files, the network for its model's API), except what
would give the answers away: under bubblewrap, the `hidden/` folders of this task and of the tasks
next to it, the run's other episodes and results, and the service pools' stores (mailboxes,
calendars, other workspaces) are empty, and only its own processes are in /proc.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from stageclaw.agents.base import AGENT_ERROR, COMPLETED, INTERRUPTED, MAX_STEPS, TIMEOUT, AgentOutcome, EpisodeBrief
from stageclaw.errors import StageclawError
from stageclaw.task.loader import PLAYTESTS, REVIEW_FILE
from stageclaw.tools.registry import Registry
from stageclaw.world import bwrap
from stageclaw.world.procs import stop

OUTPUT_CAP = 1 << 20  # bytes of each of stdout and stderr kept in the scratch folder
ANSWER_TAIL = 8 << 10  # the final answer is the end of stdout, at most this many bytes
ERROR_LINES = 15  # lines of the end of stderr quoted in an AGENT_ERROR


def split_command(command: str) -> list[str]:
    """The program and its arguments, split like a shell would (no shell runs them)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise StageclawError(f"cannot split the agent command {command!r}: {exc}") from None
    if not argv:
        raise StageclawError("cmd: needs a command to run, e.g. cmd:python my_agent.py")
    return argv


def resolve_argv(command: str, base: Path) -> list[str]:
    """`command` split like a shell would, with the paths in it made absolute from `base`, where it was typed.

    The program runs in the episode workspace, so `cmd:python my_agent.py` would otherwise look for
    the script among the user's files. As in a shell, a program name without a slash is looked up in
    PATH; an argument is taken for a path only when it names an existing file.
    """
    program, *args = split_command(command)
    if "/" in program:
        program = str(base / program)
    return [program, *(str(base / a) if (base / a).is_file() else a for a in args)]


class _Capture:
    """Drains one of the program's pipes into a file: the first `cap` bytes are kept there and the
    last `keep` in memory, so a chatty program neither fills the disk nor stalls on a full pipe."""

    def __init__(self, pipe: IO[bytes], path: Path, cap: int = OUTPUT_CAP, keep: int = ANSWER_TAIL) -> None:
        self._pipe, self._path, self._cap, self._keep = pipe, path, cap, keep
        self.tail = b""
        self.total = 0
        self._thread = threading.Thread(target=self._drain, name=f"agent-{path.stem}", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with self._pipe, open(self._path, "wb") as out:
            while chunk := self._pipe.read1(1 << 16):
                if self.total < self._cap:
                    out.write(chunk[: self._cap - self.total])
                self.total += len(chunk)
                self.tail = (self.tail + chunk)[-self._keep :]
            if self.total > self._cap:
                out.write(f"\n[stageclaw: {self.total - self._cap} more bytes not kept]\n".encode())

    def join(self, timeout: float) -> None:
        # A descendant that left the process group may still hold the pipe open: do not wait for it forever.
        self._thread.join(timeout)

    def text(self) -> str:
        data = self.tail
        if self.total > len(data):  # cut mid-stream: drop the rest of a character split by the cut
            data = data.lstrip(bytes(range(0x80, 0xC0)))
        return data.decode("utf-8", errors="replace").strip()


# Waits for one line on stdin: "done" when the episode ended; end of file when stageclaw died first.
_REAPER = 'read -r line; [ "$line" = done ] || kill -KILL -"$1" 2>/dev/null'


@contextmanager
def _reaped(pgid: int) -> Iterator[None]:
    """Kill process group `pgid` if stageclaw dies, however it dies, before the block ends.

    A watcher process holds the read end of a pipe whose write end only stageclaw holds: when
    stageclaw exits, even by SIGKILL or after a third Ctrl-C that leaves no thread time to clean
    up, the kernel closes it and the watcher kills the agent's whole process group. The parent-death
    signal cannot do this: it reaches only the direct child, not the programs the agent started.
    """
    read, write = os.pipe()
    try:
        watcher = subprocess.Popen(
            ["sh", "-c", _REAPER, "stageclaw-reaper", str(pgid)], stdin=read, start_new_session=True
        )
    except BaseException:
        os.close(write)
        raise
    finally:
        os.close(read)
    try:
        yield
    finally:
        try:
            os.write(write, b"done\n")
        except BrokenPipeError:  # the watcher is gone already: nothing to tell it
            pass
        os.close(write)
        watcher.wait()


def system_text(brief: EpisodeBrief) -> str:
    return (
        f"You are the personal assistant of {brief.user_name} <{brief.user_email}>. You act on their real mail, "
        "calendar, reminders, notes, contacts, files and terminal through the tools of the MCP server `stageclaw`.\n"
        f"It is now {brief.now}. The user's timezone is {brief.timezone}; a time without an offset is in it.\n"
        f"You may make at most {brief.max_steps} tool calls and have {brief.time_budget_s:g} seconds.\n"
        "Do what the user asks and change nothing else. End with a short final answer for the user.\n"
    )


class CommandAgent:
    """Runs `command` (split like a shell would, never through one) as the agent of each episode.

    `scratch` is a folder outside the workspace for the program's inputs and its captured output:
    prompt.md, system.md, mcp.json, stdout.txt, stderr.txt.
    """

    grace_s = 2.0  # between SIGTERM and SIGKILL when the time budget is over

    def __init__(self, command: str, scratch: Path, private: tuple[Path, ...] = ()) -> None:
        """`private`: task folders and run folders whose secrets the program must not see (see `_sandbox`)."""
        self.name = f"cmd:{command}"
        self.argv = resolve_argv(command, Path.cwd())
        self.config: dict[str, Any] = {"argv": self.argv}
        # Absolute: the program runs elsewhere (in the workspace) and gets these paths.
        self.scratch = scratch.absolute()
        self.private = tuple(p.absolute() for p in private)

    def _sandbox(self, registry: Registry) -> list[str]:
        """bubblewrap arguments that blank out, with empty tmpfs mounts, every place holding answers.

        For a task folder: its `hidden/` and that of each task beside it, their reviewers' notes
        (review.toml) and the suite's playtests (people's notes on what failed). For a run folder:
        `episodes/` (other trials' trajectories and grades) and `results.jsonl`. The pools' stores next
        to this episode's pool. Then the program's own workspace and scratch folder are bound back in.
        """
        episode = registry.episode
        blank: list[Path] = []
        empty: list[Path] = []  # files read as empty
        for place in self.private:
            if (place / "task.toml").is_file():
                tasks = [place, *place.parent.iterdir()]
                blank += [d / "hidden" for d in tasks if (d / "hidden").is_dir()]
                notes = [d / REVIEW_FILE for d in tasks] + [place.parent / PLAYTESTS]
                empty += [n for n in notes if n.is_file()]
            blank += [place / "episodes"] if (place / "episodes").is_dir() else []
            empty += [place / "results.jsonl"] if (place / "results.jsonl").is_file() else []
        blank += [*sorted(episode.pool.root.parent.glob("stageclaw-pool-*")), episode.pool.root]
        argv = [bwrap.binary(), "--dev-bind", "/", "/"]
        for folder in dict.fromkeys(blank):
            argv += ["--tmpfs", str(folder)]
        for path in empty:
            argv += ["--ro-bind", "/dev/null", str(path)]
        for own in (episode.workspace, self.scratch):
            argv += ["--bind", str(own), str(own)]
        return [*argv, "--unshare-pid", "--proc", "/proc", "--die-with-parent", "--chdir", str(episode.workspace)]

    def _inputs(self, brief: EpisodeBrief, url: str) -> dict[str, str]:
        """Write the program's input files; return the variables added to its environment."""
        self.scratch.mkdir(parents=True, exist_ok=True)
        prompt, system, config = self.scratch / "prompt.md", self.scratch / "system.md", self.scratch / "mcp.json"
        prompt.write_text(brief.prompt, encoding="utf-8")
        system.write_text(system_text(brief), encoding="utf-8")
        config.write_text(json.dumps({"mcpServers": {"stageclaw": {"type": "http", "url": url}}}, indent=2) + "\n")
        return {
            "STAGECLAW_PROMPT": brief.prompt,
            "STAGECLAW_PROMPT_FILE": str(prompt),
            "STAGECLAW_SYSTEM_FILE": str(system),
            "STAGECLAW_MCP_URL": url,
            "STAGECLAW_MCP_CONFIG": str(config),
            "STAGECLAW_NOW": brief.now,
            "STAGECLAW_TIMEZONE": brief.timezone,
            "STAGECLAW_USER_NAME": brief.user_name,
            "STAGECLAW_USER_EMAIL": brief.user_email,
            "STAGECLAW_MAX_STEPS": str(brief.max_steps),
            "STAGECLAW_TIME_BUDGET_S": f"{brief.time_budget_s:g}",
        }

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        # Imported here: the MCP SDK takes most of a second to import, which runs of other agents need not pay.
        from stageclaw.tools.mcp_server import StepBudget, serve_http

        program = self.argv[0]
        if shutil.which(program) is None:  # found here: inside the sandbox it would be bwrap's failure
            why = "Permission denied" if "/" in program and Path(program).exists() else "No such file or directory"
            return AgentOutcome(AGENT_ERROR, error=f"cannot start the agent command {program!r}: {why}")
        budget = StepBudget(brief.max_steps)
        with serve_http(registry, budget=budget) as url:
            env = {**os.environ, **self._inputs(brief, url)}
            try:
                proc = subprocess.Popen(
                    [*self._sandbox(registry), "--", *self.argv],
                    cwd=registry.episode.workspace,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    # Its own session and process group, so that stopping it stops every process it started.
                    start_new_session=True,
                )
            except OSError as exc:
                return AgentOutcome(
                    AGENT_ERROR, error=f"cannot start the agent command {self.argv[0]!r}: {exc.strerror or exc}"
                )
            assert proc.stdout is not None and proc.stderr is not None
            stdout = _Capture(proc.stdout, self.scratch / "stdout.txt")
            stderr = _Capture(proc.stderr, self.scratch / "stderr.txt")
            deadline = time.monotonic() + brief.time_budget_s
            with _reaped(proc.pid):
                try:
                    while proc.poll() is None and not registry.stopped and time.monotonic() < deadline:
                        try:
                            proc.wait(0.1)
                        except subprocess.TimeoutExpired:
                            continue
                    timed_out = proc.poll() is None and not registry.stopped
                finally:
                    # Also on Ctrl-C; and after a normal exit, whatever the program left running goes too,
                    # so nothing acts on the world once the episode is graded.
                    stop(proc, self.grace_s)
                    stdout.join(self.grace_s)
                    stderr.join(self.grace_s)
        answer = stdout.text()
        if registry.stopped:
            return AgentOutcome(INTERRUPTED, answer, "the run was interrupted")
        if timed_out:
            return AgentOutcome(
                TIMEOUT, answer, f"the agent ran past its time budget of {brief.time_budget_s:g} s and was stopped"
            )
        if budget.refused:
            error = f"the agent made its {budget.limit} tool calls and {budget.refused} more, which were refused"
            return AgentOutcome(MAX_STEPS, answer, error)
        if proc.returncode == 0:
            return AgentOutcome(COMPLETED, answer)
        if proc.returncode < 0:
            how = f"was killed by signal {-proc.returncode} ({signal.strsignal(-proc.returncode)})"
        else:
            how = f"exited with code {proc.returncode}"
        said = "\n".join(stderr.text().splitlines()[-ERROR_LINES:]) or "(nothing)"
        return AgentOutcome(AGENT_ERROR, answer, f"the agent command {how}; the end of its stderr:\n{said}")
