"""Reading run directories (DESIGN "CLI": results.jsonl, run.json and episodes/<task>__t<trial>/)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stageclaw.errors import StageclawError
from stageclaw.run.store import RESULTS, RUN, read_results


@dataclass
class Run:
    path: Path
    agent: str
    label: str  # unique among the runs of one report
    results: list[dict[str, Any]]


def find_run_dirs(paths: list[Path]) -> list[Path]:
    """Run directories named, or the run directories right inside a folder (`runs/`), each once."""
    found: list[Path] = []
    for path in paths:
        if (path / RESULTS).is_file():
            candidates = [path]
        elif path.is_dir():
            candidates = sorted(p for p in path.iterdir() if (p / RESULTS).is_file())
        else:
            candidates = []
        if not candidates:
            raise StageclawError(f"{path} is not a run directory (no {RESULTS}) nor a folder of run directories")
        found.extend(c for c in candidates if c.resolve() not in {f.resolve() for f in found})
    return found


def load_runs(paths: list[Path]) -> list[Run]:
    runs = []
    for path in find_run_dirs(paths):
        results = read_results(path / RESULTS)
        identity = read_json(path / RUN) or {}
        agent = str(identity.get("agent") or (results[0]["agent"] if results else path.name))
        runs.append(Run(path, agent, agent, results))
    taken = [r.agent for r in runs]
    for run in runs:
        if taken.count(run.agent) > 1:  # the same agent twice (other settings, another day): tell them apart
            run.label = f"{run.agent} ({run.path.name})"
    return runs


def read_json(path: Path) -> Any:
    """A JSON file's content, or None when it is missing or unreadable (a run killed mid-episode)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
