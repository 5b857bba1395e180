"""What the defences cost: starting a jail, a `cmd:` agent's episode start, a jailed reference solution and
verifier, and the race-free files tools per call.

    PYTHONPATH=src python benchmarks/security.py [--repeat N] [--calls N]

Prints medians in milliseconds (and microseconds per tool call). Run it against another checkout's
`src` (e.g. one made with `git archive`) for the numbers before the jail: the script uses only what
both versions have, and says which parts a version lacks.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from stageclaw.agents.external import CommandAgent
from stageclaw.run.episode import brief_for, run_episode
from stageclaw.task.loader import load_task
from stageclaw.task.verifier import run_checks
from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool

TASK = Path(__file__).resolve().parent.parent / "tasks/examples/quarterly-sync"


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def jail_start(repeat: int) -> dict[str, float]:
    """`true` in the terminal's jail, in the bare sandbox of bubblewrap alone, and without any."""
    from stageclaw.world import bwrap

    out = {"bare process": median_ms(lambda: subprocess.run(["true"], check=True), repeat)}
    bare = [bwrap.binary(), "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib"]
    bare += ["--symlink", "usr/lib64", "/lib64", "--unshare-all", "--die-with-parent", "--", "true"]
    out["one bubblewrap"] = median_ms(lambda: subprocess.run(bare, check=True), repeat)
    if hasattr(bwrap, "Jail"):
        from stageclaw.tools.sandbox import LIMITS

        jail = bwrap.Jail([], bwrap.Identity.fresh(), LIMITS)
        out["the jail"] = median_ms(lambda: jail.popen(["true"], env={}).wait(), repeat)
    return out


def agent_start(pool: ServicePool, folder: Path, repeat: int) -> float:
    """A `cmd:` agent that exits at once: the episode's MCP server, the jail, the program, the clean-up."""
    task = load_task(TASK)
    brief = replace(brief_for(task), time_budget_s=60)
    command = f"{shlex.quote(sys.executable)} -c pass"
    times = []
    for n in range(repeat):
        with pool.episode(task.world, task.dir) as episode, Registry(episode) as registry:
            agent = CommandAgent(command, folder / f"scratch{n}")
            started = time.perf_counter()
            outcome = agent.run(brief, registry)
            times.append(time.perf_counter() - started)
            assert outcome.status == "completed", outcome.error
    return statistics.median(times) * 1000


def oracle_episode(pool: ServicePool, folder: Path, repeat: int) -> float:
    """An oracle episode of the example task: its world, the solution's 5 calls, grading."""
    task = load_task(TASK)
    times = []
    for n in range(repeat):
        started = time.perf_counter()
        result = run_episode(pool, task, "oracle", 1, folder / f"oracle{n}")
        times.append(time.perf_counter() - started)
        assert result["success"], result
    return statistics.median(times) * 1000


def verifier(repeat: int) -> float:
    task = load_task(TASK)
    return median_ms(lambda: run_checks(task.verify_py, task.rubric.checks, {}, {}, {}), repeat)


def tool_calls(pool: ServicePool, calls: int) -> dict[str, float]:
    """Microseconds per call of the files tools, on a path two folders deep."""
    task = load_task(TASK)
    out = {}
    with pool.episode(task.world, task.dir) as episode, Registry(episode) as registry:
        registry.call("files_write", {"path": "a/b/c.txt", "content": "x" * 1000})
        for name, args in [
            ("files_read", {"path": "a/b/c.txt"}),
            ("files_write", {"path": "a/b/c.txt", "content": "y" * 1000}),
            ("files_list", {"path": "a"}),
        ]:
            started = time.perf_counter()
            for _ in range(calls):
                registry.call(name, args)
            out[name] = (time.perf_counter() - started) / calls * 1e6
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    for name, ms in jail_start(args.repeat * 2).items():
        print(f"start {name:<28} {ms:8.1f} ms")
    print(f"verifier run (5 checks)            {verifier(args.repeat):8.1f} ms")
    with ServicePool() as pool, tempfile.TemporaryDirectory() as tmp:
        print(f"cmd: agent start to end (exits)    {agent_start(pool, Path(tmp), args.repeat):8.1f} ms")
        print(f"oracle episode (build, solve, grade) {oracle_episode(pool, Path(tmp), args.repeat):6.1f} ms")
        for name, us in tool_calls(pool, args.calls).items():
            print(f"{name:<34} {us:8.1f} us/call")
        try:
            from stageclaw.world import beneath
        except ImportError:
            return
        beneath.use_openat2 = False
        for name, us in tool_calls(pool, args.calls).items():
            print(f"{name + ' (walk, no openat2)':<34} {us:8.1f} us/call")


if __name__ == "__main__":
    main()
