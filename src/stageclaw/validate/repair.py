"""The repair interface: what stage 1 gets back for a rejected task.

`repair_request` is the machine-readable form (also in validation.json as `diagnostics`);
`repair_prompt` renders it as instructions for an LLM author revising the task folder.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from stageclaw.validate.report import FAIL, Report

ORDER = {"structure": 0, "verifiability": 1, "reproducibility": 2, "difficulty": 3, "llm_review": 4}


def repair_request(report: Report) -> dict[str, Any]:
    """The problems to fix, the blocking ones (fail) first, each with its evidence and a suggestion."""
    problems = sorted(report.diagnostics(), key=lambda d: (d.status != FAIL, ORDER.get(d.dimension, 9)))
    return {
        "task_id": report.task_id,
        "score": report.score,
        "threshold": report.threshold,
        "accepted": report.accepted,
        "diagnostics": [asdict(d) for d in problems],
        "survivors": (report.mutation or {}).get("survivors", []),
    }


def repair_prompt(report: Report) -> str:
    request = repair_request(report)
    lines = [
        f"The task {report.task_id!r} scored {report.score:g} in validation (it needs {report.threshold:g}).",
        "Revise the task folder (task.toml, prompt.md, world.yaml, hidden/*) to fix these problems, most "
        "important first. Keep what passed; do not weaken checks to make problems disappear.",
        "",
    ]
    for n, d in enumerate(request["diagnostics"], 1):
        lines.append(f"{n}. [{d['dimension']}/{d['check']}, {d['status']}] {d['problem']}")
        if d["suggestion"]:
            lines.append(f"   What to do: {d['suggestion']}")
    if request["survivors"]:
        lines += ["", "Wrong end states the verifier accepted (each must fail at least one rubric item):"]
        for s in request["survivors"]:
            changes = json.dumps(s.get("changes", []), ensure_ascii=False)[:800]
            lines.append(f"- {s['description']}: {changes}")
    return "\n".join(lines) + "\n"
