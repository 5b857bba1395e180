"""The checker's report (DESIGN "Stage 2", contract): dimensions, checks, score, diagnostics.

A dimension is made of checks; its status is its worst check's. `pass` earns the dimension's
weight, `warning` half of it, `fail` and `blocked` nothing.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from stageclaw.run.store import write_json

PASS, WARNING, FAIL, BLOCKED = "pass", "warning", "fail", "blocked"
WEIGHTS = {"structure": 20, "reproducibility": 25, "verifiability": 35, "difficulty": 20}
DEFAULT_THRESHOLD = 80.0
_SEVERITY = {PASS: 0, WARNING: 1, BLOCKED: 2, FAIL: 3}


@dataclass
class Check:
    name: str
    status: str
    detail: str
    evidence: Any = None
    suggestion: str = ""


@dataclass
class Dimension:
    name: str
    checks: list[Check]
    status: str = ""

    def __post_init__(self) -> None:
        if not self.status:
            self.status = worst(c.status for c in self.checks) if self.checks else BLOCKED

    @property
    def weight(self) -> float:
        return WEIGHTS[self.name]

    @property
    def points(self) -> float:
        return {PASS: self.weight, WARNING: self.weight / 2}.get(self.status, 0.0)

    def check(self, name: str) -> Check | None:
        return next((c for c in self.checks if c.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "weight": self.weight,
            "points": self.points,
            "checks": [asdict(c) for c in self.checks],
        }


def worst(statuses: Any) -> str:
    return max(statuses, key=_SEVERITY.__getitem__, default=PASS)


def blocked(name: str, why: str) -> Dimension:
    """A dimension that could not be executed (its prerequisites failed elsewhere)."""
    return Dimension(name, [Check("prerequisites", BLOCKED, why)])


@dataclass
class Diagnostic:
    """One problem, machine-readable, for stage 1 to repair the task."""

    dimension: str
    check: str
    status: str
    problem: str
    evidence: Any
    suggestion: str


@dataclass
class Report:
    task_id: str
    task_dir: str
    dimensions: dict[str, Dimension]
    threshold: float = DEFAULT_THRESHOLD
    mutation: dict[str, Any] | None = None
    alternatives: dict[str, Any] | None = None  # sensitivity: the alternative solutions and their grades
    human_review: dict[str, Any] | None = None  # the reviewer's sign-off (task.review): status, reviewer, ...
    review_required: bool = False  # the suite wants a fresh "accept" from a reviewer as well
    llm_review: Check | None = None
    task_hash: str = ""
    stageclaw_version: str = ""
    wall_s: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    loaded: bool = True  # False: the task does not load; its other dimensions ran on what was valid

    @property
    def score(self) -> float:
        return round(sum(d.points for d in self.dimensions.values()), 2)

    @property
    def accepted(self) -> bool:
        reviewed = not self.review_required or (self.human_review or {}).get("status") == "accepted"
        return self.loaded and self.score >= self.threshold and reviewed

    @property
    def kill_rate(self) -> float | None:
        return None if not self.mutation else self.mutation.get("kill_rate")

    @property
    def sensitivity(self) -> float | None:
        """Alternatives accepted of those present; None when the task has none (or they did not run)."""
        return None if not self.alternatives else self.alternatives.get("sensitivity")

    def diagnostics(self) -> list[Diagnostic]:
        """Every check that did not pass, with what to do about it; the LLM review's problems too."""
        out = []
        for dim in self.dimensions.values():
            for c in dim.checks:
                if c.status != PASS:
                    out.append(Diagnostic(dim.name, c.name, c.status, c.detail, c.evidence, c.suggestion))
        if self.review_required and (self.human_review or {}).get("status") != "accepted":
            status = (self.human_review or {}).get("status", "unreviewed")
            out.append(
                Diagnostic(
                    "human_review",
                    "review_required",
                    FAIL,
                    f"the suite requires a reviewer's accept; the task's review is {status}",
                    self.human_review,
                    "review it with stageclaw review, then sign it (stageclaw review --sign TASK --reviewer NAME "
                    "--verdict accept)",
                )
            )
        review = self.llm_review
        if review is not None and review.status in (WARNING, FAIL):
            out.append(Diagnostic("llm_review", review.name, review.status, review.detail, review.evidence, ""))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "task_dir": self.task_dir,
            "task_hash": self.task_hash,
            "stageclaw_version": self.stageclaw_version,
            "score": self.score,
            "threshold": self.threshold,
            "accepted": self.accepted,
            "loaded": self.loaded,
            "dimensions": {name: d.to_json() for name, d in self.dimensions.items()},
            "mutation": self.mutation,
            "alternatives": self.alternatives,
            "human_review": self.human_review,
            "review_required": self.review_required,
            "llm_review": asdict(self.llm_review) if self.llm_review else None,
            "diagnostics": [asdict(d) for d in self.diagnostics()],
            "wall_s": self.wall_s,
            "timings": self.timings,
        }


def _cell(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit] + "…"


def summary_markdown(report: Report) -> str:
    """The readable twin of validation.json."""
    verdict = "accepted" if report.accepted else "REJECTED"
    audit = (report.human_review or {}).get("status", "unreviewed")
    lines = [
        f"# {report.task_id}: {verdict} ({report.score:g} / 100, threshold {report.threshold:g})",
        "",
        f"Human review: {audit}" + (" (required by the suite)" if report.review_required else ""),
        "",
        "| dimension | status | points | weight |",
        "|---|---|---|---|",
    ]
    lines += [f"| {d.name} | {d.status} | {d.points:g} | {d.weight:g} |" for d in report.dimensions.values()]
    for dim in report.dimensions.values():
        lines += ["", f"## {dim.name}: {dim.status}", ""]
        lines += [f"- **{c.name}**: {c.status} — {_cell(c.detail, 600)}" for c in dim.checks]
    if report.mutation:
        m = report.mutation
        lines += ["", "## Mutation test", "", f"{m['killed']} of {m['total']} near-miss mutants rejected."]
        for s in m["survivors"]:
            lines.append(f"- survivor `{s['id']}` ({s['operator']}): {_cell(s['description'])}")
            for c in s["changes"]:
                value = c["after"] if "after" in c else c.get("before", "")
                lines.append(f"  - `{c['op']} {c['path']}`: {_cell(value, 200)}")
    if report.alternatives and report.alternatives["total"]:
        a = report.alternatives
        lines += ["", "## Alternative solutions", "", f"{a['accepted']} of {a['total']} accepted."]
        for r in a["results"]:
            verdict = "accepted" if r["accepted"] else f"REJECTED (score {r['score']})"
            lines.append(f"- `{r['name']}`: {verdict}")
            lines += [f"  - `{i['item']}`: {_cell(i['reason'], 300)}" for i in r["rejected_by"]]
    if report.llm_review is not None:
        lines += ["", f"## LLM review: {report.llm_review.status}", "", _cell(report.llm_review.detail, 2000)]
    problems = report.diagnostics()
    if problems:
        lines += ["", "## Diagnostics", ""]
        for d in problems:
            fix = f" Suggestion: {d.suggestion}" if d.suggestion else ""
            lines.append(f"- [{d.dimension}/{d.check}] {d.status}: {_cell(d.problem, 600)}{fix}")
    return "\n".join(lines) + "\n"


def write_report(report: Report, folder: Path) -> None:
    """`validation.json` and `summary.md` in `folder`."""
    write_json(folder / "validation.json", report.to_json())
    (folder / "summary.md").write_text(summary_markdown(report), encoding="utf-8")
