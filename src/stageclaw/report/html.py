"""report.html: one self-contained file (inline CSS, JavaScript and SVG; nothing fetched, not even locally).

The overview (leaderboard, charts, breakdowns, failure modes, the task matrix) is plain HTML
rendered here. Episodes are a list drawn by the script from a small index, 200 rows at a time,
and a viewer (`#ep/N`) that shows one episode at a time: each episode's page (prompt, trajectory,
diff, rubric with diagnostics) is embedded gzip-compressed as base64 in its own inert
`<script type="application/x-stageclaw-episode">` element, and only decoded when opened, so a
report of thousands of episodes opens as fast as one of ten.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

from stageclaw import __version__
from stageclaw.errors import StageclawError
from stageclaw.report import charts
from stageclaw.report.assets import CSS, JS
from stageclaw.report.build import Report
from stageclaw.report.failures import DESCRIPTIONS, LABELS, MODES
from stageclaw.report.metrics import common_k

TOP_STAGES = 25


def _num(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _td(text: str, sort: float | None = None, cls: str = "n", title: str | None = None) -> str:
    attrs = f' class="{cls}"' if cls else ""
    if sort is not None or cls == "n":
        attrs += f' data-v="{"" if sort is None else sort}"'
    if title:
        attrs += f' title="{escape(title)}"'
    return f"<td{attrs}>{text}</td>"


def _ci(ci: list[float] | None, pct: bool = False, note: str = "") -> str:
    if not ci:
        return ""
    lo, hi = (f"{100 * v:.0f}" for v in ci) if pct else (f"{v:.1f}" for v in ci)
    return f'<span class="ci">[{lo}, {hi}]{escape(note)}</span>'


def _passk(agent: dict[str, Any], name: str, k: int) -> tuple[str, float | None]:
    entry = agent[name].get(str(k))
    if entry is None:
        return "–", None
    fewer = f" {entry['tasks']} of {agent['tasks']} tasks" if entry["tasks"] < agent["tasks"] else ""
    return f"{100 * entry['value']:.0f}%{_ci(entry['ci'], pct=True, note=fewer)}", entry["value"]


def _twins(agent: dict[str, Any]) -> str:
    """Which private twin of a suite the agent's run was on, under its name."""
    on = ", ".join(f"{name} ({n} episodes)" for name, n in agent.get("twins", {}).items())
    return f'<br><span class="muted small">on {escape(on)}</span>' if on else ""


def leaderboard(report: Report) -> str:
    k = common_k(report.agents)
    judged = any(a["judged"] for a in report.agents)  # a quality column only when a judge ran
    head = [
        ("#", "n"),
        ("agent", ""),
        ("mean score [95% CI]", "n"),
        ("success [95% CI]", "n"),
        *([("quality (judge)", "n")] if judged else []),
        (f"pass@{k}", "n"),
        (f"pass^{k}", "n"),
        ("tokens / ep", "n"),
        ("$ / ep", "n"),
        ("$ total", "n"),
        ("s / ep", "n"),
        ("calls / ep", "n"),
        ("tool error rate", "n"),
        ("errors recovered / not", "n"),
        ("top failure mode", ""),
        ("episodes", "n"),
    ]
    rows = []
    for rank, a in enumerate(report.agents, 1):
        at_k, at_v = _passk(a, "pass_at_k", k)
        hat_k, hat_v = _passk(a, "pass_hat_k", k)
        top = next(iter(a["failure_modes"]), None)
        partly = a["unpriced_episodes"] and a["cost_usd"] is not None
        cost_note = f" ({a['unpriced_episodes']} unpriced)" if partly else ""
        rows.append(
            "<tr>"
            + _td(str(rank), rank)
            + _td(f"<b>{escape(a['agent'])}</b>{_twins(a)}", cls="agent", title=a["run_dir"])
            + _td(f"{_num(a['mean_score'])}{_ci(a['mean_score_ci'])}", a["mean_score"])
            + _td(f"{_pct(a['success_rate'])}{_ci(a['success_rate_ci'], pct=True)}", a["success_rate"])
            + (_td(_num(a["mean_quality"]), a["mean_quality"]) if judged else "")
            + _td(at_k, at_v)
            + _td(hat_k, hat_v)
            + _td(_num(a["tokens_per_episode"], 0), a["tokens_per_episode"])
            + _td(
                "–" if a["cost_per_episode"] is None else f"${a['cost_per_episode']:.4f}{cost_note}",
                a["cost_per_episode"],
            )
            + _td("–" if a["cost_usd"] is None else f"${a['cost_usd']:.2f}", a["cost_usd"])
            + _td(_num(a["wall_s_per_episode"]), a["wall_s_per_episode"])
            + _td(_num(a["tool_calls_per_episode"]), a["tool_calls_per_episode"])
            + _td(_pct(a["tool_error_rate"]), a["tool_error_rate"])
            + _td(f"{a['recovered_errors']} / {a['unrecovered_errors']}", a["unrecovered_errors"])
            + _td(escape(f"{LABELS[top]} ({a['failure_modes'][top]})") if top else "–", cls="")
            + _td(f"{a['episodes']}" + (f" ({a['infra_errors']} infra)" if a["infra_errors"] else ""), a["episodes"])
            + "</tr>"
        )
    ths = "".join(f'<th class="{c}">{escape(t)}</th>' for t, c in head)
    return (
        f'<div class="scroll"><table class="sortable" id="leaderboard-table"><thead><tr>{ths}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _cell(summary: dict[str, Any] | None, app: bool) -> str:
    if summary is None:
        return '<td class="cell"></td>'
    rate = summary["success_rate"]
    color = "" if rate is None else f' style="background:hsl({120 * rate:.0f},55%,90%)"'
    extra = f" · {_pct(summary['tool_error_rate'])} errors" if app and summary["tool_calls"] else ""
    title = (
        f"{summary['episodes']} episodes over {summary['tasks']} tasks; "
        f"{summary['tool_calls']} tool calls{extra.replace(' · ', ', ')}"
    )
    return (
        f'<td class="cell n" data-v="{"" if summary["mean_score"] is None else summary["mean_score"]}"{color} '
        f'title="{escape(title)}"><b>{_num(summary["mean_score"])}</b><br>'
        f'<span class="small">{_pct(rate)} · n={summary["episodes"]}{extra}</span></td>'
    )


def breakdown_table(name: str, table: dict[str, dict[str, Any]], agents: list[str]) -> str:
    ths = "".join(f'<th class="n">{escape(a)}</th>' for a in agents)
    rows = "".join(
        f"<tr><td>{escape(key)}</td>" + "".join(_cell(cells.get(a), name == "apps") for a in agents) + "</tr>"
        for key, cells in table.items()
    )
    return (
        f'<div class="scroll"><table class="sortable breakdown" id="breakdown-{name}"><thead><tr><th>{name}</th>'
        f"{ths}</tr></thead><tbody>{rows}</tbody></table></div>"
    )


def tool_table(report: Report) -> str:
    totals: Counter[str] = Counter()
    for a in report.agents:
        totals.update({tool: c["calls"] for tool, c in a["tools"].items()})
    if not totals:
        return '<p class="muted">No tool was called.</p>'
    ths = "".join(f'<th class="n">{escape(a["agent"])}</th>' for a in report.agents)
    rows = []
    for tool, _ in totals.most_common():
        cells = []
        for a in report.agents:
            c = a["tools"].get(tool)
            if c is None:
                cells.append('<td class="cell"></td>')
                continue
            rate = c["errors"] / c["calls"]
            color = f' style="background:hsl({120 * (1 - min(1.0, 4 * rate)):.0f},55%,90%)"' if c["errors"] else ""
            cells.append(
                f'<td class="cell n" data-v="{c["calls"]}"{color}><b>{c["calls"]}</b><br>'
                f'<span class="small">{c["errors"]} errors</span></td>'
            )
        rows.append(f"<tr><td><code>{escape(tool)}</code></td>{''.join(cells)}</tr>")
    return (
        '<div class="scroll"><table class="sortable" id="tool-table"><thead><tr><th>tool</th>'
        f"{ths}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def failure_table(report: Report) -> str:
    present = [m for m in MODES if any(a["failure_modes"].get(m) for a in report.agents)]
    ths = "".join(f'<th class="n" title="{escape(DESCRIPTIONS[m])}">{escape(LABELS[m])}</th>' for m in present)
    rows = []
    for a in report.agents:
        failed = sum(a["failure_modes"].values())
        cells = "".join(_td(str(a["failure_modes"].get(m, "")), a["failure_modes"].get(m, 0)) for m in present)
        rows.append(f"<tr><td>{escape(a['agent'])}</td>{_td(str(failed), failed)}{cells}</tr>")
    return (
        '<div class="scroll"><table class="sortable" id="failure-table"><thead><tr><th>agent</th>'
        f'<th class="n">not successful</th>{ths}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
    )


def stage_table(report: Report) -> str:
    total: Counter[str] = Counter()
    for a in report.agents:
        total.update(a["failed_stages"])
    if not total:
        return '<p class="muted">No rubric item failed.</p>'
    ths = "".join(f'<th class="n">{escape(a["agent"])}</th>' for a in report.agents)
    rows = []
    for stage, count in total.most_common(TOP_STAGES):
        counts = [a["failed_stages"].get(stage, 0) for a in report.agents]
        cells = "".join(_td(str(c or ""), c) for c in counts)
        rows.append(f"<tr><td>{escape(stage)}</td>{_td(str(count), count)}{cells}</tr>")
    more = f'<p class="muted small">Showing the {TOP_STAGES} most frequent of {len(total)} stages.</p>'
    return (
        '<div class="scroll"><table class="sortable" id="stage-table"><thead><tr><th>stage</th>'
        f'<th class="n">failed items</th>{ths}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        + (more if len(total) > TOP_STAGES else "")
    )


def task_table(report: Report) -> str:
    agents = [a["agent"] for a in report.agents]
    episodes: dict[tuple[str, str], list[tuple[int, dict[str, Any]]]] = {}
    for i, r in enumerate(report.records):
        episodes.setdefault((r["task_id"], r["agent"]), []).append((i, r))
    tasks = sorted({r["task_id"] for r in report.records})
    rows = []
    for task in tasks:
        cells = []
        for agent in agents:
            eps = episodes.get((task, agent), [])
            stats = report.tasks.get(task, {}).get(agent)
            links = "".join(
                f'<a class="trial {"ok" if r["success"] else "na" if r["success"] is None else "no"}" '
                f'href="#ep/{i}" title="trial {r["trial"]}: {escape(r["status"])}">'
                f"{'✓' if r['success'] else '·' if r['success'] is None else '✗'}</a>"
                for i, r in eps
            )
            head = f"{stats['successes']}/{stats['n']} " if stats else ""
            sort = stats["successes"] / stats["n"] if stats else None
            cells.append(_td(f"{head}{links}", sort))
        rows.append(f"<tr><td>{escape(task)}</td>{''.join(cells)}</tr>")
    ths = "".join(f'<th class="n">{escape(a)}</th>' for a in agents)
    return (
        '<div class="scroll"><table class="sortable" id="task-table"><thead><tr><th>task</th>'
        f"{ths}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def index_json(report: Report) -> str:
    """What the episode list and the viewer's header need, compactly; `</` is escaped for the script element."""
    agents = [a["agent"] for a in report.agents]
    tasks = sorted({r["task_id"] for r in report.records})
    a_ix, t_ix = {a: i for i, a in enumerate(agents)}, {t: i for i, t in enumerate(tasks)}
    episodes = [
        {
            "i": i,
            "a": a_ix[r["agent"]],
            "t": t_ix[r["task_id"]],
            "n": r["trial"],
            "st": r["status"],
            "sc": r["score"],
            "ok": r["success"],
            "m": r["mode"],
            "ms": r["modes"],
            "fm": r["failure_mode"],
            "c": r["calls"],
            "e": r["errors"],
            "rc": r["recovered"],
            "w": r["wall_s"],
            "$": r["cost_usd"],
            "tk": None if r["input_tokens"] is None else r["input_tokens"] + r["output_tokens"],
        }
        for i, r in enumerate(report.records)
    ]
    data = {"agents": agents, "tasks": tasks, "modes": {m: LABELS[m] for m in MODES}, "episodes": episodes}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def _modes_legend() -> str:
    items = "".join(f"<dt>{escape(LABELS[m])}</dt><dd>{escape(DESCRIPTIONS[m])}</dd>" for m in MODES)
    return (
        "<details><summary>How a failed episode gets its mode</summary>"
        "<p>The first mode that applies, in this order; the rubric-based ones (wrong entity, wrong value, "
        "incomplete) come from the failed critical items. Episodes list every mode that applies.</p>"
        f'<dl class="modes">{items}</dl></details>'
    )


def render(report: Report) -> str:
    agents = [a["agent"] for a in report.agents]
    unpriced = [a["agent"] for a in report.agents if a["cost_per_episode"] is None]
    episodes = len(report.records)
    tasks = len({r["task_id"] for r in report.records})
    kmax = max((a["k"] for a in report.agents), default=0)
    bds = "".join(
        f"<h3>By {title}</h3>{breakdown_table(name, report.breakdowns[name], agents)}"
        for name, title in (("group", "group"), ("operators", "operator"), ("apps", "app"))
    )
    pages = "\n".join(
        f'<script type="application/x-stageclaw-episode" id="ep{i}">{page}</script>'
        for i, page in enumerate(report.pages)
    )
    reliability = (
        f"<figure><figcaption>pass^k by k: the chance that k trials all succeed</figcaption>"
        f"{charts.reliability(report.agents)}</figure>"
        if kmax > 1
        else ""
    )
    unpriced_note = (
        f'<p class="muted small">Not plotted (no price for their model): {escape(", ".join(unpriced))}.</p>'
        if unpriced
        else ""
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>stageclaw report: {escape(", ".join(agents))}</title><style>{CSS}</style></head>
<body>
<header><h1>stageclaw report</h1>
<nav><a href="#leaderboard">Leaderboard</a><a href="#failures">Failures</a><a href="#breakdowns">Breakdowns</a>
<a href="#tasks">Tasks</a><a href="#episodes">Episodes</a></nav>
<p class="meta small">{len(agents)} agents · {tasks} tasks · {episodes} episodes · 95% CIs from {report.resamples}
bootstrap resamples of tasks (seed {report.seed}) · stageclaw {escape(__version__)}</p></header>
<main id="overview">
<section id="leaderboard"><h2>Leaderboard</h2>{leaderboard(report)}
<p class="muted small">Mean score and success over scored episodes (infra errors are never scored). pass@k: at least
one of k trials succeeds; pass^k: all k succeed (unbiased estimators, averaged over the tasks with at least k scored
trials; k = the most trials every agent ran). Tokens, cost, time and calls count every episode. Click a column to
sort.</p>
<div class="charts"><figure><figcaption>Cost against score</figcaption>{charts.cost_vs_score(report.agents)}
{unpriced_note}</figure>{reliability}</div></section>
<section id="failures"><h2>Failure modes</h2>
<figure><figcaption>Episodes by outcome: success or the primary failure mode</figcaption>
{charts.failure_modes(report.agents)}</figure>{failure_table(report)}{_modes_legend()}
<h3>Where failed rubric items sit (their stage)</h3>{stage_table(report)}</section>
<section id="breakdowns"><h2>Breakdowns</h2>
<p class="muted small">Mean score, success rate and episodes. An episode counts under each of its operators, and under
each app it touched (called a tool of or changed); by app the error rate is that of the app's tools.</p>{bds}
<h3>By tool</h3><p class="muted small">Calls and failed calls, over all episodes.</p>{tool_table(report)}</section>
<section id="tasks"><h2>Tasks</h2><p class="muted small">Successes / scored trials; each mark opens an episode
(✓ success, ✗ failed, · not scored).</p>{task_table(report)}</section>
<section id="episodes"><h2>Episodes</h2>
<div class="filters"><select id="f-agent"><option value="">all agents</option></select>
<select id="f-task"><option value="">all tasks</option></select>
<select id="f-outcome"><option value="">all outcomes</option><option value="success">success</option>
<option value="failed">failed</option><option value="infra_error">infra error</option></select>
<select id="f-mode"><option value="">all failure modes</option></select>
<input id="f-q" type="search" placeholder="search task or agent"><span id="episode-count" class="muted"></span></div>
<div class="scroll"><table id="episode-table"><thead><tr><th>task</th><th>agent</th><th class="n">trial</th>
<th>status</th><th>success</th><th class="n">score</th><th>failure mode</th><th class="n">calls</th>
<th class="n">errors</th><th class="n">s</th></tr></thead><tbody></tbody></table></div>
<button id="more" hidden>show more</button></section>
</main>
<div id="viewer" hidden></div>
<script type="application/json" id="index">{index_json(report)}</script>
{pages}
<script>{JS}</script>
</body></html>
"""


def report_path(out: Path) -> Path:
    """Where `--out` puts the HTML: OUT/report.html for a folder, OUT itself for a `.html` name.

    Anything else is refused: a report under another name (`--out results`, `--out r.htm`) is
    shown by a browser as its source, so the name must say what the file is.
    """
    if out.is_dir() or not out.suffix:
        return out / "report.html"
    if out.suffix.lower() == ".html":
        return out
    raise StageclawError(
        f"--out {out}: give a folder (the report is written as report.html in it) or a file name ending in .html"
    )


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)  # a reader (a browser, a second report) never sees half a file


def write(report: Report, out: Path) -> tuple[Path, Path]:
    """Write the report at `out` (a `.html` file: see `report_path`) and its data as JSON beside it."""
    html_path = report_path(out)
    html_path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(html_path, render(report))
    data = html_path.with_suffix(".json")
    _write_atomically(data, json.dumps(report.to_json(), ensure_ascii=False, indent=1, default=str) + "\n")
    return html_path, data
