"""What the mutation test costs, alone: mutants made and graded per task, from stored episodes.

    python benchmarks/mutation.py VALIDATION_DIR [--tasks tasks/stage40]

VALIDATION_DIR is the `--out` of a `stageclaw validate` run: each `<task-id>/oracle/` holds the
reference solution's s0 and sH. The script makes and grades the mutants of every task again, one
task after the other in this process (no servers, no oracle episode), and prints per task the
mutants, how many were rejected, the coverage and the seconds it took to make and to grade them,
then the totals. Run it on a quiet machine: it measures the checker's own work, which validate's wall time hides under
the oracle episodes and the machine's load.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stageclaw.task.loader import load_task
from stageclaw.validate.mutants import MutantMaker
from stageclaw.validate.verifiability import MAX_MUTANTS, NEUTRAL_TRACE, mutation_test

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("validation", type=Path)
    parser.add_argument("--tasks", type=Path, default=ROOT / "tasks" / "stage40")
    args = parser.parse_args()
    made_s = graded_s = 0.0
    mutants = killed = fields = touched = 0
    print(f"{'task':<36} {'mutants':>7} {'killed':>7} {'coverage':>9} {'make s':>7} {'grade s':>8}")
    for episode in sorted(args.validation.glob("*/oracle")):
        task = load_task(args.tasks / episode.parent.name)
        s0 = json.loads((episode / "s0.json").read_text(encoding="utf-8"))
        sH = json.loads((episode / "sH.json").read_text(encoding="utf-8"))
        started = time.perf_counter()
        MutantMaker.for_task(task, s0, sH).structural(MAX_MUTANTS)
        made = time.perf_counter() - started
        started = time.perf_counter()
        result = mutation_test(task, s0, sH, NEUTRAL_TRACE)
        total = time.perf_counter() - started
        coverage = result["coverage"]
        made_s, graded_s = made_s + made, graded_s + max(0.0, total - made)
        mutants, killed = mutants + result["total"], killed + result["killed"]
        fields, touched = fields + coverage["fields"], touched + coverage["touched"]
        print(
            f"{task.id:<36} {result['total']:>7} {result['killed']:>7} {coverage['touched']:>4}/{coverage['fields']:<4}"
            f" {made:>7.2f} {total - made:>8.2f}"
        )
    print(f"{'all':<36} {mutants:>7} {killed:>7} {touched:>4}/{fields:<4} {made_s:>7.1f} {graded_s:>8.1f}")


if __name__ == "__main__":
    main()
