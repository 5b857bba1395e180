"""The one-screen summary of a run in the terminal."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def _mark(result: dict[str, Any]) -> str:
    if result["success"] is None:
        return f"[yellow]{result['status']}[/yellow]"
    return "[green]yes[/green]" if result["success"] else "[red]no[/red]"


def results_table(results: list[dict[str, Any]], summary: dict[str, Any]) -> Table:
    table = Table(title=f"stageclaw run: {summary['agent']}", show_lines=False)
    for col, justify in (("task", "left"), ("trial", "right"), ("success", "center"), ("score", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for col in ("steps", "tool errors", "wall s"):
        table.add_column(col, justify="right")
    table.add_column("failed items / note")
    for r in sorted(results, key=lambda r: (r["task_id"], r["trial"])):
        failed = ", ".join(i["id"] for i in r["items"] if i["passed"] is False)
        note = r.get("error") or failed
        if r.get("defects"):
            note = f"[red]defective verifier[/red] {note}"
        score = "-" if r["score"] is None else f"{r['score']:.0f}"
        table.add_row(
            r["task_id"],
            str(r["trial"]),
            _mark(r),
            score,
            str(r["steps"]),
            str(r["tool_errors"]),
            f"{r['wall_s']:.1f}",
            note,
        )
    mean = "-" if summary["mean_score"] is None else f"{summary['mean_score']:.1f}"
    rate = "-" if summary["success_rate"] is None else f"{100 * summary['success_rate']:.0f}%"
    table.caption = (
        f"{summary['episodes']} episodes · success {rate} · mean score {mean} · "
        f"{summary['tool_calls']} tool calls, {summary['tool_errors']} errors · {summary['infra_errors']} infra errors"
    )
    return table
