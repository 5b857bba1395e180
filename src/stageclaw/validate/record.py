"""The stage-2 record a suite keeps beside its tasks: each task's verdict, pinned to the task's digest.

Stage 2 on a whole suite takes a quarter of an hour on 2 cores; a suite's tests check the record instead,
and a task whose files changed since its verdict no longer matches it. `stageclaw validate SUITE --record
SUITE/validated.json` writes it (merging: validating some tasks updates theirs), and the full stage-2
tests compare what they find with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stageclaw.run.store import write_json
from stageclaw.validate.report import Report


def entry(report: Report) -> dict[str, Any]:
    """What the record keeps of a report: enough to tell a current acceptance from a stale or partial one."""
    mutation = report.mutation or {}
    alternatives = report.alternatives or {}
    return {
        "task_hash": report.task_hash,
        "score": report.score,
        "accepted": report.accepted,
        "mutants": mutation.get("total", 0),
        "kill_rate": report.kill_rate,
        "coverage": (mutation.get("coverage") or {}).get("rate"),
        "alternatives": alternatives.get("total", 0),
        "sensitivity": report.sensitivity,
        "stageclaw_version": report.stageclaw_version,
    }


def read(path: Path) -> dict[str, dict[str, Any]]:
    """The record's verdicts by task id; none when there is no record yet."""
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["tasks"]


def update(path: Path, reports: list[Report]) -> None:
    """Put these reports' verdicts into the record at `path`, keeping the other tasks' verdicts."""
    tasks = read(path) | {r.task_id: entry(r) for r in reports}
    write_json(path, {"tasks": dict(sorted(tasks.items()))})


def problems(path: Path, digests: dict[str, str]) -> list[str]:
    """Why the record does not vouch for these tasks (id: digest): missing, stale or not a full acceptance."""
    recorded = read(path)
    out = [f"{task_id}: not in the record" for task_id in sorted(set(digests) - set(recorded))]
    out += [f"{task_id}: in the record but not in the suite" for task_id in sorted(set(recorded) - set(digests))]
    for task_id in sorted(set(digests) & set(recorded)):
        got = recorded[task_id]
        if got["task_hash"] != digests[task_id]:
            out.append(f"{task_id}: its files changed since it was validated")
        elif not (got["accepted"] and got["score"] == 100 and got["kill_rate"] == 1.0 and got["coverage"] == 1.0):
            out.append(f"{task_id}: recorded as {got['score']:g}, mutants killed {got['kill_rate']}")
        elif got["sensitivity"] != 1.0:
            out.append(f"{task_id}: not every alternative solution was accepted ({got['sensitivity']})")
    return out
