"""The one-screen summary of a validation in the terminal."""

from __future__ import annotations

from rich import box
from rich.table import Table

from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, WEIGHTS, Report

_COLOUR = {PASS: "green", WARNING: "yellow", FAIL: "red", BLOCKED: "magenta"}
_HEADER = {"structure": "structure", "reproducibility": "repro", "verifiability": "verify", "difficulty": "difficulty"}


def validation_table(reports: list[Report], wall_s: float) -> Table:
    """The reports, one row each; `wall_s` is how long the whole validation took (workers overlap tasks)."""
    table = Table(title="stageclaw validate", box=box.SIMPLE_HEAD)
    table.add_column("task", overflow="fold", min_width=10)
    for name in WEIGHTS:
        table.add_column(_HEADER[name], justify="center", no_wrap=True)
    for col in ("score", "ok", "killed", "alts", "review"):
        table.add_column(col, justify="right", no_wrap=True)
    for r in reports:
        cells = []
        for name in WEIGHTS:
            d = r.dimensions[name]
            cells.append(f"[{_COLOUR[d.status]}]{d.status}[/{_COLOUR[d.status]}] {d.points:g}")
        rate = "-" if r.kill_rate is None else f"{100 * r.kill_rate:.0f}%"
        alts = r.alternatives or {}
        accepted = f"{alts['accepted']}/{alts['total']}" if alts.get("total") else "-"
        verdict = "[green]yes[/green]" if r.accepted else "[red]no[/red]"
        audit = (r.human_review or {}).get("status", "-")
        if r.review_required:
            audit = f"[green]{audit}[/green]" if audit == "accepted" else f"[red]{audit}[/red]"
        table.add_row(r.task_id, *cells, f"{r.score:g}", verdict, rate, accepted, audit)
    accepted_tasks = sum(1 for r in reports if r.accepted)
    weights = ", ".join(f"{_HEADER[n]} {w}" for n, w in WEIGHTS.items())
    table.caption = (
        f"{accepted_tasks} of {len(reports)} tasks accepted · {wall_s:.1f} s · points of {weights} · "
        "killed: near-miss mutants rejected · alts: alternative solutions accepted · review: the human audit"
    )
    return table
