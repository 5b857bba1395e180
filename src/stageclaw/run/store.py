"""The run directory (contract): results.jsonl, summary.json and one folder per episode.

Result lines are appended atomically (one write of a whole line, then fsync), so a run killed
at any moment keeps every finished episode and at most loses the one in flight; a torn last
line is ignored on resume. Files are written whole by rename. One run at a time writes a run
directory: it holds a lock on `.lock` while it runs.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from pathlib import Path
from typing import Any

from stageclaw.agents.base import INFRA_ERROR
from stageclaw.errors import StageclawError

RESULTS = "results.jsonl"
SUMMARY = "summary.json"
RUN = "run.json"
LOCK = ".lock"


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
    """The result lines of a results.jsonl; a last line without its newline (torn by a kill) is ignored.

    Raises StageclawError naming the line of any other line that is not a result.
    """
    if not path.is_file():
        return []
    out = []
    lines = path.read_bytes().split(b"\n")
    for number, line in enumerate(lines[:-1], 1):  # the part after the last newline is a torn write
        if not line.strip():
            continue
        try:
            result = json.loads(line)
            if not isinstance(result, dict) or not isinstance(result.get("task_id"), str):
                raise ValueError("not a result object")
            int(result["trial"]), str(result["status"])
        except (ValueError, KeyError, TypeError) as exc:
            raise StageclawError(
                f"{path}:{number}: not a result line ({' '.join(str(exc).split())[:100]}); "
                "remove that line (its episode runs again with --resume) or choose another --out"
            ) from None
        out.append(result)
    return out


class ResultStore:
    def __init__(self, out: Path, resume: bool, identity: dict[str, Any], max_attempts: int = 9) -> None:
        """`identity` is what makes results comparable (the agent and its settings): a resumed run must match it.

        On resume, an episode recorded as infra_error after fewer than `max_attempts` attempts (in all
        the runs so far) loses its line, to be run again; `attempts` says how many it had.
        """
        self.out = Path(out)
        self.path = self.out / RESULTS
        self.out.mkdir(parents=True, exist_ok=True)
        self._lock_file = _lock(self.out)
        try:
            self._open(resume, identity, max_attempts)
        except BaseException:
            self.close()
            raise

    def _open(self, resume: bool, identity: dict[str, Any], max_attempts: int) -> None:
        self._repair_tail()
        results = read_results(self.path)
        if results and not resume:
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
        write_json(run_file, identity)
        self._lock = threading.Lock()
        self.attempts: dict[tuple[str, int], int] = {}
        retry = [r for r in results if r["status"] == INFRA_ERROR and _attempts(r) < max_attempts]
        if retry:
            self.attempts = {(r["task_id"], r["trial"]): _attempts(r) for r in retry}
            kept = [r for r in results if (r["task_id"], r["trial"]) not in self.attempts]
            _rewrite(self.path, kept)

    def close(self) -> None:
        """Release the run directory for another run."""
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

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
        """task x trial pairs that have their line (an infra_error left on resume has had all its attempts)."""
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


def _attempts(result: dict[str, Any]) -> int:
    # Lines written before attempts were counted had the three of one run.
    return int(result.get("attempts") or 3)


def _rewrite(path: Path, results: list[dict[str, Any]]) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        for result in results:
            fh.write((json.dumps(result, ensure_ascii=False, sort_keys=True, default=str) + "\n").encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _lock(out: Path) -> Any:
    """An exclusive lock on the run directory, released when the run ends (or its process dies)."""
    handle = open(out / LOCK, "a+")  # noqa: SIM115 - held open for the length of the run: that is the lock
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise StageclawError(
            f"{out} is in use by another stageclaw run ({holder}); wait for it to end, or choose another --out"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}\n")
    handle.flush()
    return handle
