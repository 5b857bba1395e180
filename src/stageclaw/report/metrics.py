"""Metrics over episodes: scores, reliability estimators with bootstrap CIs, cost, tool calls, breakdowns.

- Mean score and success rate are over the scored episodes (infra errors are never scored).
- pass@k and pass^k use the unbiased estimators over a task's n scored trials with c successes
  (Chen et al. 2021): pass@k = 1 - C(n-c, k) / C(n, k) (at least one of k trials succeeds) and
  pass^k = C(c, k) / C(n, k) (all k succeed), averaged over tasks. They are defined for k <= n, so
  the value at k averages the tasks with at least k scored trials (a task that lost trials to
  infra errors drops out of the larger k; `tasks` says how many each value covers); k runs from 1
  to the most trials of a task.
- 95% CIs are percentile bootstraps that resample tasks with replacement (`resamples` times,
  seeded, so the same run directory gives the same numbers); trials stay with their task.
- Tokens, cost, wall time and tool calls count every recorded episode, infra errors included:
  they were spent.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from functools import cache
from math import comb
from typing import Any

from stageclaw.agents.base import INFRA_ERROR

NONE = "(none)"


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k trials drawn from n (c of them successes) succeeds."""
    if not 1 <= k <= n or not 0 <= c <= n:
        raise ValueError(f"pass@k needs 1 <= k <= n and 0 <= c <= n (n={n}, c={c}, k={k})")
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all k trials drawn from n (c of them successes) succeed."""
    if not 1 <= k <= n or not 0 <= c <= n:
        raise ValueError(f"pass^k needs 1 <= k <= n and 0 <= c <= n (n={n}, c={c}, k={k})")
    return comb(c, k) / comb(n, k)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of sorted values, interpolating linearly between ranks."""
    pos = q * (len(values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


@cache
def resample_indices(n: int, resamples: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """The bootstrap samples of n tasks: the same for every agent with n tasks (a paired bootstrap)."""
    rng = random.Random(seed)
    population = range(n)
    return tuple(tuple(rng.choices(population, k=n)) for _ in range(resamples))


def bootstrap_ci(
    statistic: Callable[[tuple[int, ...]], float], n: int, resamples: int, seed: int, level: float = 0.95
) -> tuple[float, float]:
    """CI of `statistic` (a function of task indices) over bootstrap resamples of n tasks."""
    values = sorted(statistic(idx) for idx in resample_indices(n, resamples, seed))
    tail = (1 - level) / 2
    return percentile(values, tail), percentile(values, 1 - tail)


def _per_task(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    tasks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if r["score"] is not None:
            tasks[r["task_id"]].append(r)
    return dict(sorted(tasks.items()))


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _ci(bounds: tuple[float, float], digits: int) -> list[float]:
    return [round(bounds[0], digits), round(bounds[1], digits)]


def score_metrics(records: list[dict[str, Any]], resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Mean score, success rate, pass@k and pass^k with bootstrap CIs."""
    tasks = _per_task(records)
    if not tasks:
        return {
            "tasks": 0,
            "scored": 0,
            "successes": 0,
            "mean_score": None,
            "mean_score_ci": None,
            "success_rate": None,
            "success_rate_ci": None,
            "k": 0,
            "pass_at_k": {},
            "pass_hat_k": {},
        }
    sums = [sum(r["score"] for r in rs) for rs in tasks.values()]
    ns = [len(rs) for rs in tasks.values()]
    cs = [sum(1 for r in rs if r["success"]) for rs in tasks.values()]
    t = len(ns)

    def ratio(num: list[float] | list[int], den: list[int]) -> Callable[[Iterable[int]], float]:
        return lambda idx: sum(map(num.__getitem__, idx)) / sum(map(den.__getitem__, idx))

    mean_score, success_rate = ratio(sums, ns), ratio(cs, ns)
    everything = range(t)
    out: dict[str, Any] = {
        "tasks": t,
        "scored": sum(ns),
        "successes": sum(cs),
        "mean_score": round(mean_score(everything), 2),
        "mean_score_ci": _ci(bootstrap_ci(mean_score, t, resamples, seed), 2),
        "success_rate": round(success_rate(everything), 4),
        "success_rate_ci": _ci(bootstrap_ci(success_rate, t, resamples, seed), 4),
        "k": max(ns),
        "pass_at_k": {},
        "pass_hat_k": {},
    }
    for k in range(1, max(ns) + 1):
        eligible = [(n, c) for n, c in zip(ns, cs, strict=True) if n >= k]
        for name, estimator in (("pass_at_k", pass_at_k), ("pass_hat_k", pass_hat_k)):
            per_task = [estimator(n, c, k) for n, c in eligible]
            mean = ratio(per_task, [1] * len(per_task))
            out[name][str(k)] = {
                "value": round(mean(range(len(per_task))), 4),
                "ci": _ci(bootstrap_ci(mean, len(per_task), resamples, seed), 4),
                "tasks": len(per_task),
            }
    return out


def common_k(agents: list[dict[str, Any]]) -> int:
    """The largest k every agent has pass@k for: the smallest of the agents' most trials of a task."""
    return min((a["k"] for a in agents if a["k"]), default=0)


def cost_metrics(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Tokens, cost, wall time and tool calls, totals and per episode."""
    n = len(records)
    with_usage = [r for r in records if r["input_tokens"] is not None]
    priced = [r["cost_usd"] for r in records if r["cost_usd"] is not None]
    calls = sum(r["calls"] for r in records)
    errors = sum(r["errors"] for r in records)
    tokens = sum(r["input_tokens"] + r["output_tokens"] for r in with_usage)
    return {
        "episodes": n,
        "infra_errors": sum(1 for r in records if r["status"] == INFRA_ERROR),
        "input_tokens": sum(r["input_tokens"] for r in with_usage) if with_usage else None,
        "output_tokens": sum(r["output_tokens"] for r in with_usage) if with_usage else None,
        "tokens_per_episode": _round(tokens / len(with_usage), 1) if with_usage else None,
        "cost_usd": round(sum(priced), 6) if priced else None,
        "cost_per_episode": round(sum(priced) / len(priced), 6) if priced else None,
        "unpriced_episodes": n - len(priced),
        "wall_s": round(sum(r["wall_s"] for r in records), 3),
        "wall_s_per_episode": _round(sum(r["wall_s"] for r in records) / n, 3) if n else None,
        "tool_calls": calls,
        "tool_calls_per_episode": _round(calls / n, 2) if n else None,
        "tool_errors": errors,
        "tool_error_rate": _round(errors / calls, 4) if calls else None,
        "recovered_errors": sum(r["recovered"] for r in records),
        "unrecovered_errors": sum(r["unrecovered"] for r in records),
        "misuse_errors": sum(r["misuse"] for r in records),
    }


def quality_metrics(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The judge's figure, kept apart from the score: its mean over the episodes a judge graded."""
    judged = [r["quality"] for r in records if r.get("quality") is not None]
    return {"mean_quality": round(sum(judged) / len(judged), 2) if judged else None, "judged": len(judged)}


def agent_metrics(records: list[dict[str, Any]], resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Every metric of one agent's episodes, plus its failure modes, the stages its failed items sit in, and
    calls and errors by tool."""
    modes = Counter(r["mode"] for r in records if r["mode"])
    stages = Counter(s for r in records for s in r["failed_stages"])
    tools: dict[str, list[int]] = {}
    for r in records:
        for tool, (calls, errors) in r["by_tool"].items():
            counts = tools.setdefault(tool, [0, 0])
            counts[0] += calls
            counts[1] += errors
    return {
        **score_metrics(records, resamples, seed),
        **cost_metrics(records),
        **quality_metrics(records),
        "failure_modes": dict(modes.most_common()),
        "failed_stages": dict(stages.most_common()),
        "tools": {t: {"calls": c, "errors": e} for t, (c, e) in sorted(tools.items(), key=lambda kv: -kv[1][0])},
    }


def _keys(record: dict[str, Any], by: str) -> list[str]:
    value = record.get(by)
    if isinstance(value, list):
        return [str(v) for v in value] or [NONE]
    return [str(value) if value else NONE]


def breakdown(records: list[dict[str, Any]], by: str) -> dict[str, dict[str, dict[str, Any]]]:
    """{key: {agent: summary}} for `by` in group, operators, apps; a list-valued field counts in each key.

    Tool calls are all the calls of those episodes, except by app: there, the calls of that app's tools.
    """
    cells: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        for key in _keys(r, by):
            cells[key][r["agent"]].append(r)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for key in sorted(cells, key=lambda k: (k == NONE, k)):
        out[key] = {}
        for agent, rs in cells[key].items():
            scored = [r for r in rs if r["score"] is not None]
            if by == "apps":
                calls, errors = (sum(r["app_calls"].get(key, [0, 0])[j] for r in rs) for j in (0, 1))
            else:
                calls, errors = sum(r["calls"] for r in rs), sum(r["errors"] for r in rs)
            out[key][agent] = {
                "episodes": len(rs),
                "tasks": len({r["task_id"] for r in rs}),
                "mean_score": round(sum(r["score"] for r in scored) / len(scored), 2) if scored else None,
                "success_rate": round(sum(1 for r in scored if r["success"]) / len(scored), 4) if scored else None,
                "tool_calls": calls,
                "tool_error_rate": round(errors / calls, 4) if calls else None,
            }
    return out
