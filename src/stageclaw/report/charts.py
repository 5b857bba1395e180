"""Inline SVG charts for the HTML report: no library, no network, readable without JavaScript."""

from __future__ import annotations

import math
from html import escape
from typing import Any

from stageclaw.report.failures import LABELS, MODES

AGENT_COLORS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#1f77b4",
    "#8c564b",
)
MODE_COLORS = {
    "success": "#59a14f",
    "infrastructure": "#bab0ac",
    "task_defect": "#9c755f",
    "budget_exhausted": "#edc948",
    "agent_error": "#b07aa1",
    "claimed_unchanged": "#ff9da7",
    "tool_misuse": "#f28e2b",
    "unrecovered_tool_error": "#e15759",
    "wrong_entity": "#4e79a7",
    "wrong_value": "#76b7b2",
    "incomplete": "#d4d4d4",
    "collateral_damage": "#8b0000",
}


def agent_color(i: int) -> str:
    return AGENT_COLORS[i % len(AGENT_COLORS)]


def nice_ticks(hi: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least `hi`."""
    if hi <= 0:
        return [0.0, 1.0]
    raw = hi / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return [round(i * step, 10) for i in range(math.ceil(hi / step - 1e-9) + 1)]


def _money(x: float) -> str:
    return f"${x:.4g}" if x else "$0"


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
        f'role="img" aria-label="{escape(label)}" class="chart">' + "".join(body) + "</svg>"
    )


def cost_vs_score(agents: list[dict[str, Any]]) -> str:
    """Mean cost per episode against mean score with its 95% CI, one point per priced agent."""
    width, height, left, right, top, bottom = 640, 360, 56, 150, 16, 44
    points = [(i, a) for i, a in enumerate(agents) if a["cost_per_episode"] is not None and a["mean_score"] is not None]
    xticks = nice_ticks(max((a["cost_per_episode"] for _, a in points), default=0))
    xmax = xticks[-1]
    pw, ph = width - left - right, height - top - bottom

    def x(v: float) -> float:
        return left + pw * v / xmax

    def y(v: float) -> float:
        return top + ph * (1 - v / 100)

    body = [f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" class="plot"/>']
    for t in range(0, 101, 20):
        body.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        body.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>')
    for t in xticks:
        body.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{top}" y2="{top + ph}" class="grid"/>')
        body.append(f'<text x="{x(t):.1f}" y="{top + ph + 16}" text-anchor="middle">{_money(t)}</text>')
    body.append(
        f'<text x="{left + pw / 2}" y="{height - 6}" text-anchor="middle" class="axis">cost per episode (USD)</text>'
    )
    body.append(
        f'<text transform="translate(14 {top + ph / 2}) rotate(-90)" text-anchor="middle" class="axis">'
        "mean score (95% CI)</text>"
    )
    for i, a in points:
        cx, cy = x(a["cost_per_episode"]), y(a["mean_score"])
        lo, hi = a["mean_score_ci"]
        tip = (
            f"{a['agent']}: score {a['mean_score']:.1f} [{lo:.1f}, {hi:.1f}], "
            f"{_money(a['cost_per_episode'])} per episode"
        )
        body.append(
            f'<g class="pt"><title>{escape(tip)}</title>'
            f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="{agent_color(i)}"/>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{agent_color(i)}"/>'
            f'<text x="{cx + 8:.1f}" y="{cy + 4:.1f}">{escape(a["agent"])}</text></g>'
        )
    return _svg(width, height, body, "cost versus score")


def reliability(agents: list[dict[str, Any]]) -> str:
    """pass^k by k: how the chance that all k trials succeed falls with k."""
    kmax = max((a["k"] for a in agents), default=0)
    width, height, left, right, top, bottom = 640, 300, 56, 150, 16, 44
    pw, ph = width - left - right, height - top - bottom

    def x(k: int) -> float:
        return left + (pw * (k - 1) / (kmax - 1) if kmax > 1 else pw / 2)

    def y(v: float) -> float:
        return top + ph * (1 - v)

    body = [f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" class="plot"/>']
    for t in (0, 0.25, 0.5, 0.75, 1):
        body.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(t):.1f}" y2="{y(t):.1f}" class="grid"/>')
        body.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t:.0%}</text>')
    for k in range(1, kmax + 1):
        body.append(f'<text x="{x(k):.1f}" y="{top + ph + 16}" text-anchor="middle">{k}</text>')
    body.append(f'<text x="{left + pw / 2}" y="{height - 6}" text-anchor="middle" class="axis">k (trials)</text>')
    body.append(
        f'<text transform="translate(14 {top + ph / 2}) rotate(-90)" text-anchor="middle" class="axis">pass^k</text>'
    )
    for i, a in enumerate(agents):
        values = [(int(k), v["value"]) for k, v in a["pass_hat_k"].items()]
        if len(values) < 2:  # a single trial per task has no curve
            continue
        path = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in values)
        tip = f"{a['agent']}: " + ", ".join(f"pass^{k} {v:.0%}" for k, v in values)
        last_k, last_v = values[-1]
        body.append(
            f'<g class="pt"><title>{escape(tip)}</title>'
            f'<polyline points="{path}" fill="none" stroke="{agent_color(i)}" stroke-width="2"/>'
            + "".join(f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="3" fill="{agent_color(i)}"/>' for k, v in values)
            + f'<text x="{x(last_k) + 8:.1f}" y="{y(last_v) + 4:.1f}">{escape(a["agent"])}</text></g>'
        )
    return _svg(width, height, body, "pass^k by k")


def failure_modes(agents: list[dict[str, Any]]) -> str:
    """One bar per agent: its episodes split into successes and primary failure modes."""
    row, left, width, top = 24, 170, 820, 8
    present = [m for m in MODES if any(a["failure_modes"].get(m) for a in agents)]
    legend_rows = math.ceil((len(present) + 1) / 3)
    height = top + row * len(agents) + 12 + 20 * legend_rows
    pw = width - left - 60
    body = []
    for r, a in enumerate(agents):
        ytop = top + r * row
        body.append(f'<text x="{left - 8}" y="{ytop + 15}" text-anchor="end">{escape(a["agent"])}</text>')
        total = a["episodes"] or 1
        successes = a["successes"]
        x = float(left)
        for mode, count in [("success", successes), *((m, a["failure_modes"].get(m, 0)) for m in present)]:
            if not count:
                continue
            w = pw * count / total
            label = "success" if mode == "success" else LABELS[mode]
            body.append(
                f'<rect x="{x:.1f}" y="{ytop + 3}" width="{w:.1f}" height="{row - 6}" fill="{MODE_COLORS[mode]}">'
                f"<title>{escape(a['agent'])}: {escape(label)} {count} of {a['episodes']}</title></rect>"
            )
            x += w
        body.append(f'<text x="{left + pw + 6}" y="{ytop + 15}">{a["episodes"]}</text>')
    ly = top + row * len(agents) + 12
    for j, mode in enumerate(["success", *present]):
        lx, lyy = left + (j % 3) * 210, ly + (j // 3) * 20
        label = "success" if mode == "success" else LABELS[mode]
        body.append(
            f'<rect x="{lx}" y="{lyy}" width="12" height="12" fill="{MODE_COLORS[mode]}"/>'
            f'<text x="{lx + 16}" y="{lyy + 10}">{escape(label)}</text>'
        )
    return _svg(width, height, body, "failure modes by agent")
