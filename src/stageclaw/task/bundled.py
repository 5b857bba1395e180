"""The benchmarks that ship with stageclaw, by name: `stage40` (the benchmark) and `examples`.

They live in the repository's `tasks/<name>/`; `stageclaw/_tasks` is a link to that folder, so an
editable install finds them through it and a wheel carries them (pyproject's package-data takes
`_tasks/**/*`). `$STAGECLAW_BENCHMARKS/<name>`, when set, comes first.
"""

from __future__ import annotations

import os
from pathlib import Path

from stageclaw.errors import StageclawError

BENCHMARKS = ("stage40", "examples")

_PACKAGE = Path(__file__).resolve().parent.parent


def roots() -> list[Path]:
    """The folders searched for benchmarks, first match wins."""
    env = os.environ.get("STAGECLAW_BENCHMARKS")
    return [*([Path(env)] if env else []), _PACKAGE / "_tasks"]


def benchmark_dir(name: str) -> Path:
    """The folder of the bundled benchmark `name`."""
    if name not in BENCHMARKS:
        raise StageclawError(f"unknown benchmark {name!r}; the bundled ones are: {', '.join(BENCHMARKS)}")
    for root in roots():
        if (root / name).is_dir():
            return root / name
    searched = ", ".join(str(r) for r in roots())
    raise StageclawError(f"benchmark {name!r} not found in {searched}: set STAGECLAW_BENCHMARKS to its parent folder")
