"""What the stage40 benchmark costs to build, validate and run, and what its tasks ask of an agent.

    python benchmarks/stage40.py [--workers N]

Prints wall times for building the suite from its manifest (stage 1), validating all 40 tasks
(stage 2, with their mutants), and running the oracle and noop agents (stage 3), then the
oracle's tool calls per task (overall and per group) and the noop's mean score. Everything runs
in this process against fresh service pools; the runs go to a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from stageclaw.author import suite as suites
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_tasks
from stageclaw.task.model import GROUPS
from stageclaw.validate import validate_path
from stageclaw.world import ServicePool

STAGE40 = Path(__file__).resolve().parent.parent / "tasks" / "stage40"
T = TypeVar("T")


def timed(label: str, action: Callable[[], T]) -> T:
    started = time.perf_counter()
    result = action()
    print(f"{label:<38} {time.perf_counter() - started:7.1f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="stage40-bench-"))

    def build() -> suites.Suite:
        built = suites.build(suites.load_manifest(STAGE40 / "suite.toml"))
        built.files_out()  # rendering verify.py and solution.py is most of the work
        return built

    built = timed("build the 40 tasks (generate --suite)", build)
    with ServicePool() as pool:
        reports = timed(f"validate all {len(built.drafts)} (1 pool)", lambda: validate_path(STAGE40, pool))
    mutants = sum(r.mutation["total"] for r in reports)
    accepted = sum(1 for r in reports if r.accepted and r.kill_rate == 1.0)
    tasks, _ = load_tasks(STAGE40)
    oracle = timed(
        f"oracle, {args.workers} workers", lambda: run(tasks, RunConfig("oracle", out / "oracle", workers=args.workers))
    )
    noop = timed(
        f"noop, {args.workers} workers", lambda: run(tasks, RunConfig("noop", out / "noop", workers=args.workers))
    )

    print(f"\naccepted with every mutant killed      {accepted} of {len(reports)} ({mutants} mutants)")
    print(f"oracle success                         {oracle['success_rate']:.0%}, {oracle['tool_calls']} tool calls")
    print(f"noop success                           {noop['success_rate']:.0%}, mean score {noop['mean_score']}")
    groups = {t.id: t.config.group for t in tasks}
    calls: dict[str, list[int]] = defaultdict(list)
    for result in read_results(out / "oracle" / "results.jsonl"):
        calls[groups[result["task_id"]]].append(result["steps"])
    every = [n for group in calls.values() for n in group]
    print(f"oracle tool calls per task             median {statistics.median(every):g}, {min(every)}-{max(every)}")
    for group, steps in sorted(calls.items(), key=lambda item: GROUPS.index(item[0])):
        print(f"  {group:<36} median {statistics.median(steps):g}, {min(steps)}-{max(steps)}")


if __name__ == "__main__":
    main()
