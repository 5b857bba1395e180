"""The run directory (contract): results.jsonl, summary.json and one folder per episode.

Result lines are appended atomically (one write of a whole line, then fsync), so a run killed
at any moment keeps every finished episode and at most loses the one in flight; a torn last
line is ignored on resume. Files are written whole by rename.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from stageclaw.errors import StageclawError

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
RUN = "run.json"


def write_json(path: Path, data: Any) -> None:
    """Write a JSON file atomically (temp file + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def episode_dir(run_dir: Path, task_id: str, trial: int) -> Path:
    """The folder of one episode in a run directory."""
    return Path(run_dir) / "episodes" / f"{task_id}__t{trial}"


def run_dir_of(ep_dir: Path) -> Path:
    """The run directory an `episode_dir` is in."""
    return Path(ep_dir).parent.parent


def read_results(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line torn by a kill mid-write
    return out


class ResultStore:
    def __init__(self, out: Path, resume: bool, identity: dict[str, Any]) -> None:
        """`identity` is what makes results comparable (the agent and its settings): a resumed run must match it."""
        self.out = Path(out)
        self.path = self.out / RESULTS
        if self.path.is_file() and not resume and read_results(self.path):
            raise StageclawError(
                f"{self.out} already holds results; add --resume to continue that run, or choose another --out"
            )
        run_file = self.out / RUN
        if resume and run_file.is_file():
            before = json.loads(run_file.read_text(encoding="utf-8"))
            if before != json.loads(json.dumps(identity, default=str)):
                raise StageclawError(
                    f"{self.out} holds a run of {before.get('agent')!r} with other settings ({before}); "
                    "resume it with the same agent and options, or choose another --out"
                )
        self.out.mkdir(parents=True, exist_ok=True)
        write_json(run_file, identity)
        self._lock = threading.Lock()
        self._repair_tail()

    def _repair_tail(self) -> None:
        # A kill mid-append leaves a line without its newline; cut it so the next append starts clean.
        if not self.path.is_file():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(self.path, "r+b") as fh:
                fh.truncate(data.rfind(b"\n") + 1)

    def results(self) -> list[dict[str, Any]]:
        return read_results(self.path)

    def done(self) -> set[tuple[str, int]]:
        """task x trial pairs that have their line (infra errors were already retried in the run)."""
        return {(r["task_id"], r["trial"]) for r in self.results()}

    def append(self, result: dict[str, Any]) -> None:
        line = (json.dumps(result, ensure_ascii=False, sort_keys=True, default=str) + "\n").encode("utf-8")
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)

    def episode_dir(self, task_id: str, trial: int) -> Path:
        return episode_dir(self.out, task_id, trial)
