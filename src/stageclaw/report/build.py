"""From run directories to a report: one record per episode, its viewer page, the metrics.

A record is what the leaderboard and the breakdowns need of an episode (small); its viewer page
(`viewer`) is built at the same time, while the episode's files are in memory, and kept
gzip-compressed until the HTML embeds it.

The apps of an episode are the apps it touched: those of the tools it called (`mail_*` -> mail,
`terminal_run` -> terminal, ...) and those of the state it changed (reading mail aside). An
episode that touched nothing is counted under "(none)".
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw import __version__
from stageclaw.report.diagnostics import EntityIndex, app_of, change_entities, effective, step_texts
from stageclaw.report.failures import LABELS, MODES, classify
from stageclaw.report.metrics import agent_metrics, breakdown
from stageclaw.report.rundir import Run, load_runs, read_json
from stageclaw.report.viewer import pack, viewer_page
from stageclaw.run.store import episode_dir
from stageclaw.world.diff import diff

BREAKDOWNS = ("group", "operators", "apps")
PARALLEL_FROM = 200  # episodes; below this, starting worker processes costs more than it saves
MAX_WORKERS = 8
INITIAL_CACHE = 64  # initial states kept parsed and indexed, per process
_INITIAL: dict[bytes, tuple[dict[str, Any] | None, EntityIndex]] = {}


def initial_state(path: Path) -> tuple[dict[str, Any] | None, EntityIndex]:
    """s0 of an episode and its entity index, shared by the episodes that start from the same world.

    Every trial of a task, for every agent, starts from the same s0: parsing and indexing it once per
    process saves most of the time spent on failed episodes.
    """
    try:
        raw = path.read_bytes()
    except OSError:
        return None, EntityIndex()
    key = hashlib.sha1(raw).digest()
    if key not in _INITIAL:
        try:
            state = json.loads(raw)
        except ValueError:
            state = None
        if len(_INITIAL) >= INITIAL_CACHE:
            _INITIAL.pop(next(iter(_INITIAL)))
        _INITIAL[key] = (state, EntityIndex(state))
    return _INITIAL[key]


def analyze_episode(label: str, run_path: Path, result: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(record, viewer page) of one results.jsonl line of the run at `run_path` and its episode folder."""
    ep = episode_dir(run_path, result["task_id"], result["trial"])
    trajectory = read_json(ep / "trajectory.json") or {}
    grade = read_json(ep / "grade.json")
    index = EntityIndex()
    if grade is not None:  # a graded episode keeps its diff in grade.json
        changes = list(grade.get("changes") or [])
        if not result.get("success"):  # the world's items are only needed to explain a failure
            index = initial_state(ep / "s0.json")[1].with_changes(changes)
    else:  # an infra error: no grade, but the agent may have changed the world before it
        s0, sH = initial_state(ep / "s0.json")[0], read_json(ep / "sH.json")
        changes = diff(s0, sH) if s0 is not None and sH is not None else []
    texts = step_texts(trajectory.get("steps") or [])
    cls = classify(result, trajectory, grade, changes, index, texts)
    tokens = result.get("tokens") or {}
    usage = "input_tokens" in tokens
    record = {
        "agent": label,
        "task_id": result["task_id"],
        "trial": result["trial"],
        "status": result["status"],
        "score": result.get("score"),
        "success": result.get("success"),
        "quality": result.get("quality"),
        "group": result.get("group"),
        "operators": list(result.get("operators") or []),
        "apps": sorted(cls.calls.apps | {app_of(k) for k in change_entities(effective(changes))}),
        "input_tokens": int(tokens.get("input_tokens") or 0) if usage else None,
        "output_tokens": int(tokens.get("output_tokens") or 0) if usage else None,
        "cost_usd": result.get("cost_usd"),
        "wall_s": float(result.get("wall_s") or 0),
        "calls": cls.calls.calls,
        "errors": cls.calls.errors,
        "recovered": cls.calls.recovered,
        "unrecovered": cls.calls.unrecovered,
        "misuse": cls.calls.misuse,
        "app_calls": cls.calls.by_app(),
        "by_tool": cls.calls.by_tool,
        "mode": cls.mode,
        "modes": cls.modes,
        "failure_mode": result.get("failure_mode"),
        "failed_items": [d.id for d in cls.diagnoses],
        "failed_stages": [d.stage or "(no stage)" for d in cls.diagnoses],
    }
    return record, viewer_page(result, trajectory, grade, changes, cls, texts)


def _analyze_packed(job: tuple[str, Path, dict[str, Any]]) -> tuple[dict[str, Any], str]:
    record, page = analyze_episode(*job)
    return record, pack(page)


def analyze_all(jobs: list[tuple[str, Path, dict[str, Any]]]) -> list[tuple[dict[str, Any], str]]:
    """(record, packed page) per job, in order; big reports on all cores.

    Worker processes are spawned, not forked: the caller may have threads (a test's servers)
    whose locks a forked child would inherit held.
    """
    workers = min(os.cpu_count() or 1, MAX_WORKERS)
    if len(jobs) < PARALLEL_FROM or workers < 2:
        return [_analyze_packed(job) for job in jobs]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(_analyze_packed, jobs, chunksize=16))


@dataclass
class Report:
    runs: list[Run]
    records: list[dict[str, Any]]
    pages: list[str]  # packed viewer pages, in record order
    agents: list[dict[str, Any]]  # metrics per agent, best first
    breakdowns: dict[str, Any] = field(default_factory=dict)
    tasks: dict[str, dict[str, Any]] = field(default_factory=dict)  # task -> agent -> {n, successes, mean_score}
    resamples: int = 1000
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "stageclaw_version": __version__,
            "bootstrap": {"resamples": self.resamples, "seed": self.seed, "level": 0.95},
            "modes": {m: LABELS[m] for m in MODES},
            "agents": self.agents,
            "breakdowns": self.breakdowns,
            "tasks": self.tasks,
            "episodes": self.records,
        }


def _rank(agent: dict[str, Any]) -> tuple[float, float, str]:
    score = agent["mean_score"] if agent["mean_score"] is not None else -1.0
    rate = agent["success_rate"] if agent["success_rate"] is not None else -1.0
    return (-score, -rate, agent["agent"])


def task_matrix(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for r in records:
        if r["score"] is None:
            continue
        cell = out.setdefault(r["task_id"], {}).setdefault(r["agent"], {"n": 0, "successes": 0, "score_sum": 0.0})
        cell["n"] += 1
        cell["successes"] += 1 if r["success"] else 0
        cell["score_sum"] += r["score"]
    for cells in out.values():
        for cell in cells.values():
            cell["mean_score"] = round(cell.pop("score_sum") / cell["n"], 2)
    return dict(sorted(out.items()))


def twins(run: Run) -> dict[str, int]:
    """The private twins of suites the run's episodes were on (`stage40 twin 7`), with their episode counts."""
    found = [r["twin"] for r in run.results if r.get("twin")]
    return dict(sorted(Counter(f"{t['suite']} twin {t['reseed']}" for t in found).items()))


def build(paths: list[Path], *, resamples: int = 1000, seed: int = 0) -> Report:
    runs = load_runs(paths)
    jobs = [
        (run.label, run.path, result)
        for run in runs
        for result in sorted(run.results, key=lambda r: (r["task_id"], r["trial"]))
    ]
    done = analyze_all(jobs)
    records = [record for record, _ in done]
    pages = [page for _, page in done]
    agents = []
    for run in runs:
        metrics = agent_metrics([r for r in records if r["agent"] == run.label], resamples, seed)
        entry = {"agent": run.label, "spec": run.agent, "run_dir": str(run.path), "twins": twins(run), **metrics}
        agents.append(entry)
    agents.sort(key=_rank)
    return Report(
        runs=runs,
        records=records,
        pages=pages,
        agents=agents,
        breakdowns={by: breakdown(records, by) for by in BREAKDOWNS},
        tasks=task_matrix(records),
        resamples=resamples,
        seed=seed,
    )
