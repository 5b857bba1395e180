"""Episodes per minute for the oracle over the example tasks, by number of workers.

    python benchmarks/runner.py [--trials N] [--workers 1,2,4,8]

Each setting is a fresh run (new run directory, new service pool); the time includes
building every world, the oracle's tool calls, both snapshots, grading in the verifier
sandbox and writing the run directory.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from stageclaw.run.runner import RunConfig, run
from stageclaw.task.loader import load_tasks

EXAMPLES = Path(__file__).resolve().parent.parent / "tasks" / "examples"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--workers", default="1,2,4,8")
    args = parser.parse_args()
    tasks, errors = load_tasks(EXAMPLES)
    assert not errors, errors
    print(f"{len(tasks)} tasks x {args.trials} trials = {len(tasks) * args.trials} episodes per setting")
    print(f"{'workers':>7} {'wall s':>8} {'episodes/min':>13} {'success':>8}")
    for workers in (int(w) for w in args.workers.split(",")):
        out = Path(tempfile.mkdtemp(prefix="stageclaw-bench-"))
        started = time.perf_counter()
        summary = run(tasks, RunConfig(agent="oracle", out=out, trials=args.trials, workers=workers))
        wall = time.perf_counter() - started
        print(f"{workers:>7} {wall:8.1f} {summary['episodes'] / wall * 60:13.1f} {summary['success_rate']:8.0%}")


if __name__ == "__main__":
    main()
