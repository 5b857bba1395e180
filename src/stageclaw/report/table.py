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
    quality = "" if summary.get("mean_quality") is None else f" · quality {summary['mean_quality']:.1f} (judge)"
    # Success and score are over the scored episodes: say how many those are when some are not.
    scored = f", {summary['scored']} scored" if summary.get("unscored") else ""
    task_errors = f", {summary['task_errors']} task errors" if summary.get("task_errors") else ""
    table.caption = (
        f"{summary['episodes']} episodes{scored} · success {rate} · mean score {mean}{quality} · "
        f"{summary['tool_calls']} tool calls, {summary['tool_errors']} errors · "
        f"{summary['infra_errors']} infra errors{task_errors}"
    )
    return table


def _ci(ci: list[float] | None, scale: float = 1) -> str:
    return f" [dim][{ci[0] * scale:.0f}, {ci[1] * scale:.0f}][/dim]" if ci else ""


def _num(value: float | None, fmt: str) -> str:
    return "-" if value is None else format(value, fmt)


def leaderboard_table(agents: list[dict[str, Any]], k: int) -> Table:
    """Agents best first: score, success and reliability (pass@k, pass^k at `k`), with 95% CIs."""
    table = Table(title="stageclaw report: leaderboard")
    table.add_column("#", justify="right")
    table.add_column("agent", no_wrap=True)
    judged = any(a.get("judged") for a in agents)  # a quality column only when a judge ran
    for col in ("mean score", "success", *(["quality"] if judged else []), f"pass@{k}", f"pass^{k}", "episodes"):
        table.add_column(col, justify="right")
    for rank, a in enumerate(agents, 1):
        at, hat = a["pass_at_k"].get(str(k)), a["pass_hat_k"].get(str(k))
        table.add_row(
            str(rank),
            a["agent"],
            "-" if a["mean_score"] is None else f"{a['mean_score']:.1f}{_ci(a['mean_score_ci'])}",
            "-" if a["success_rate"] is None else f"{100 * a['success_rate']:.0f}%{_ci(a['success_rate_ci'], 100)}",
            *([_num(a.get("mean_quality"), ".1f")] if judged else []),
            "-" if at is None else f"{100 * at['value']:.0f}%{_ci(at['ci'], 100)}",
            "-" if hat is None else f"{100 * hat['value']:.0f}%{_ci(hat['ci'], 100)}",
            str(a["episodes"]) + (f" ({a['infra_errors']} infra)" if a["infra_errors"] else ""),
        )
    table.caption = f"95% bootstrap CIs over tasks; pass@{k}: one of {k} trials succeeds, pass^{k}: all {k} do"
    return table


def cost_table(agents: list[dict[str, Any]]) -> Table:
    """Per episode: tokens, cost, time, tool calls; tool-call errors and whether the agent recovered."""
    table = Table(title="cost and tool calls (per episode)")
    table.add_column("agent", no_wrap=True)
    for col in ("tokens", "USD", "s", "calls", "error rate", "recovered", "unrecovered", "misuse"):
        table.add_column(col, justify="right")
    for a in agents:
        table.add_row(
            a["agent"],
            _num(a["tokens_per_episode"], ".0f"),
            _num(a["cost_per_episode"], ".4f")
            + (f" ({a['unpriced_episodes']} unpriced)" if a["unpriced_episodes"] and a["cost_usd"] is not None else ""),
            _num(a["wall_s_per_episode"], ".1f"),
            _num(a["tool_calls_per_episode"], ".1f"),
            "-" if a["tool_error_rate"] is None else f"{100 * a['tool_error_rate']:.1f}%",
            str(a["recovered_errors"]),
            str(a["unrecovered_errors"]),
            str(a["misuse_errors"]),
        )
    return table


def failure_modes_table(agents: list[dict[str, Any]], labels: dict[str, str]) -> Table:
    """Failed episodes per primary failure mode, one row per agent, modes in the order of `labels`."""
    table = Table(title="failure modes (the primary mode of each failed episode)")
    table.add_column("agent", no_wrap=True)
    table.add_column("failed", justify="right")
    table.add_column("modes")
    for a in agents:
        counts = a["failure_modes"]
        modes = ", ".join(f"{label} {counts[m]}" for m, label in labels.items() if counts.get(m))
        table.add_row(a["agent"], str(sum(counts.values())), modes)
    return table
