"""The benchmarks that ship with stageclaw, by name: `stage40` (the benchmark) and `examples`.

They live in the repository's `tasks/<name>/`. Where to look, in order:

1. `$STAGECLAW_BENCHMARKS/<name>`: a folder holding the benchmarks, for any installation;
2. `stageclaw/_tasks/<name>` inside the installed package, where a wheel would carry them (a build
   step that copies `tasks/` there and a `package-data` glob for `_tasks/**/*` make that work);
3. `tasks/<name>` of the source checkout the package is installed from (an editable install).
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
    return [*([Path(env)] if env else []), _PACKAGE / "_tasks", _PACKAGE.parent.parent / "tasks"]


def benchmark_dir(name: str) -> Path:
    """The folder of the bundled benchmark `name`."""
    if name not in BENCHMARKS:
        raise StageclawError(f"unknown benchmark {name!r}; the bundled ones are: {', '.join(BENCHMARKS)}")
    for root in roots():
        if (root / name).is_dir():
            return root / name
    searched = ", ".join(str(r) for r in roots())
    raise StageclawError(f"benchmark {name!r} not found in {searched}: set STAGECLAW_BENCHMARKS to its parent folder")
