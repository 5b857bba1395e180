"""External agent harnesses: `cmd:COMMAND` runs any program as the agent of an episode.

The program starts in the episode workspace with the prompt, who the user is and the clock (as
environment variables and files in a scratch folder outside the workspace) and an MCP endpoint
(streamable HTTP on loopback) serving this episode's tools. Every tool call goes through the
episode's registry, so the audit log records what the program did. stageclaw enforces the time
budget (every program in its jail is stopped) and the step budget (calls past it are refused).

The program runs in a jail (`world.bwrap`), built by allowlist: as a uid of its own (when stageclaw
runs as root) with no capabilities, it sees read-only `/usr`, a few `/etc` files, the Python
installation, its own folder (the program's, and those of files named in the command) and copies of
the folders given with `--agent-bind`; it may write only the workspace, its agent folder and a fresh
home folder (at the path of $HOME). Nothing else of the host exists for it: no checkout or task
folder, no run folder, no service pool, no other process. It has the network (for its model's API and
its MCP endpoint); the servers' ports answer it, but no credential of theirs is anywhere it can look.
"""

from __future__ import annotations

import json
import os
import pwd
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from stageclaw.agents.base import AGENT_ERROR, COMPLETED, INTERRUPTED, MAX_STEPS, TIMEOUT, AgentOutcome, EpisodeBrief
from stageclaw.errors import StageclawError
from stageclaw.tools.registry import Registry
from stageclaw.world import bwrap
from stageclaw.world.bwrap import Jail, Limits, Mount

OUTPUT_CAP = 1 << 20  # bytes of each of stdout and stderr kept in the scratch folder
ANSWER_TAIL = 8 << 10  # the final answer is the end of stdout, at most this many bytes
ERROR_LINES = 15  # lines of the end of stderr quoted in an AGENT_ERROR
LIMITS = Limits(processes=512, memory=8 << 30, file_size=1 << 30, open_files=4096, tmp_size=1 << 30)


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


def parse_bind(spec: str) -> tuple[Path, bool]:
    """`PATH[:ro|rw]` (an `--agent-bind`) as (absolute path, writable); the path must exist."""
    path, mode = spec, "ro"
    if spec.endswith((":ro", ":rw")):
        path, mode = spec[:-3], spec[-2:]
    folder = Path(path).expanduser().absolute()
    if not path or not os.path.lexists(folder):
        raise StageclawError(f"--agent-bind {spec!r}: {folder} does not exist; give an existing file or folder")
    return folder, mode == "rw"


class _Capture:
    """Drains one of the program's pipes into a file: the first `cap` bytes are kept there and the
    last `keep` in memory, so a chatty program neither fills the disk nor stalls on a full pipe."""

    def __init__(self, pipe: IO[bytes], out: IO[bytes], cap: int = OUTPUT_CAP, keep: int = ANSWER_TAIL) -> None:
        """`out` is opened before the program starts: the program may replace the file's name, never our file."""
        self._pipe, self._out, self._cap, self._keep = pipe, out, cap, keep
        self.tail = b""
        self.total = 0
        self._thread = threading.Thread(target=self._drain, name="agent-output", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        with self._pipe, self._out as out:
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
    """Runs `command` (split like a shell would, never through one) as the agent of each episode, jailed.

    `scratch` is a folder outside the workspace for the program's inputs and its captured output:
    prompt.md, system.md, mcp.json, stdout.txt, stderr.txt.
    """

    grace_s = 2.0  # between SIGTERM and SIGKILL when the time budget is over

    def __init__(
        self,
        command: str,
        scratch: Path,
        private: tuple[Path, ...] = (),
        *,
        binds: Sequence[str] = (),
        time_budget_s: float | None = None,
    ) -> None:
        """`private`: task folders and run folders the program must not see, nor anything beside or in them.

        `binds` are `--agent-bind PATH[:ro|rw]` specs; `time_budget_s` overrides the task's time budget.
        """
        self.name = f"cmd:{command}"
        self.argv = resolve_argv(command, Path.cwd())
        self.binds = [parse_bind(spec) for spec in binds]
        self.time_budget_s = time_budget_s
        self.config: dict[str, Any] = {"argv": self.argv}
        if binds:
            self.config["binds"] = list(binds)
        # Absolute: the program runs elsewhere (in the workspace) and gets these paths.
        self.scratch = scratch.absolute()
        self.private = tuple(p.absolute() for p in private)

    def _off_limits(self, registry: Registry) -> list[Path]:
        """Where no folder of the jail may lie or reach: each task's folder and its neighbours', the run
        folder, the checkouts' git history, the service pools, stageclaw itself."""
        places = [registry.episode.pool.root.parent, Path(bwrap.__file__).resolve().parent.parent]
        for place in self.private:
            if (place / "task.toml").is_file():
                places.append(place.parent)
                places += [p / ".git" for p in place.parents if (p / ".git").exists()][:1]
            else:
                places.append(place)
        return places

    def _program_folders(self) -> list[Path]:
        """The folders of the program and of the files its command names (a virtual environment whole)."""
        found = shutil.which(self.argv[0])
        folders = []
        if found is not None:
            folders += [Path(found).absolute().parent, Path(os.path.realpath(found)).parent]
            if (folders[0].parent / "pyvenv.cfg").is_file():
                folders.append(folders[0].parent)
        folders += [Path(os.path.realpath(a)).parent for a in self.argv[1:] if os.path.isabs(a) and os.path.isfile(a)]
        return [f for f in dict.fromkeys(folders) if not str(f).startswith("/usr/") and str(f) != "/usr"]

    def _jail(self, registry: Registry) -> Jail | str:
        """The program's jail, or why it cannot have one."""
        episode = registry.episode
        identity = episode.identity
        off_limits = self._off_limits(registry)
        folders = self._program_folders()
        for folder in [*folders, *(path for path, _ in self.binds)]:
            place = bwrap.off_limits_overlap(folder, off_limits)
            if place is not None:
                return (
                    f"the agent would see {folder}, which holds or lies in {place} (task folders, runs, service pools"
                    " and the checkout's history stay out of its reach): put the agent, or what it binds, in a folder"
                    " of its own"
                )
        if identity.own:
            for folder in folders:
                if os.stat(folder).st_mode & 0o005 != 0o005:
                    return (
                        f"the agent runs as a user of its own, which cannot read {folder}: make that folder"
                        f" readable by other users (chmod o+rx {shlex.quote(str(folder))}) or move the agent"
                    )
        _, python = bwrap.python()
        home = Path(os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir)
        fresh_home = episode.dir / "home"
        fresh_home.mkdir(exist_ok=True)
        identity.give(fresh_home)
        mounts = [Mount(fresh_home, str(home), writable=True)] if str(home) != "/" else []
        mounts += [*python, *(Mount(f) for f in folders)]
        for n, (path, writable) in enumerate(self.binds):
            # A copy for this episode, the jail's own: readable whatever the original's mode, and whatever the
            # program writes stays out of the original (and out of the next episode's sight).
            copy = episode.dir / "binds" / str(n)
            copy.parent.mkdir(exist_ok=True)
            if path.is_dir():
                shutil.copytree(path, copy, symlinks=True)
            else:
                shutil.copy2(path, copy, follow_symlinks=False)
            identity.give(copy)
            mounts.append(Mount(copy, str(path), writable=writable))
        mounts += [Mount(episode.workspace, writable=True), Mount(self.scratch, writable=True)]
        return Jail(mounts, identity, LIMITS, network=True, cwd=str(episode.workspace), home=str(home))

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

        if self.time_budget_s is not None:
            brief = replace(brief, time_budget_s=self.time_budget_s)
        program = self.argv[0]
        if shutil.which(program) is None:  # found here: inside the jail it would be bwrap's failure
            why = "Permission denied" if "/" in program and Path(program).exists() else "No such file or directory"
            return AgentOutcome(AGENT_ERROR, error=f"cannot start the agent command {program!r}: {why}")
        jail = self._jail(registry)
        if isinstance(jail, str):
            return AgentOutcome(AGENT_ERROR, error=f"cannot start the agent command {program!r}: {jail}")
        budget = StepBudget(brief.max_steps)
        identity = registry.episode.identity
        with serve_http(registry, budget=budget) as url:
            env = {**os.environ, **self._inputs(brief, url)}
            outputs = [open(self.scratch / name, "wb") for name in ("stdout.txt", "stderr.txt")]  # noqa: SIM115
            # The program may add files (ours stay ours); no other user of the host may read its endpoint's token.
            self.scratch.chmod(0o700)
            identity.give(self.scratch, recursive=False)
            try:
                proc = jail.popen(
                    self.argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
                )
            except OSError as exc:
                for out in outputs:
                    out.close()
                return AgentOutcome(
                    AGENT_ERROR, error=f"cannot start the agent command {self.argv[0]!r}: {exc.strerror or exc}"
                )
            assert proc.stdout is not None and proc.stderr is not None
            stdout = _Capture(proc.stdout, outputs[0])
            stderr = _Capture(proc.stderr, outputs[1])
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
                    bwrap.terminate(proc, self.grace_s)
                    stdout.join(self.grace_s)
                    stderr.join(self.grace_s)
                    identity.take_back(self.scratch)
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
