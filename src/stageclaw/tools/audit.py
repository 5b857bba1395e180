"""The audit log of one episode: every tool call, as one JSON line, written as it happens."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any


class AuditLog:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.entries: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)

    def write(self, entry: dict[str, Any]) -> None:
        with self._lock:
            entry = {"seq": len(self.entries) + 1, **entry}
            self.entries.append(entry)
            if self.path is not None:
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")


def read(path: Path) -> list[dict[str, Any]]:
    """The entries of an audit log; a torn last line (a killed process) is skipped, a missing log (no call) is empty."""
    if not Path(path).is_file():
        return []
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out
