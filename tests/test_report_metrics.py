"""Metrics: the pass@k / pass^k estimators against hand-computed values, bootstrap CIs, cost, breakdowns."""

from __future__ import annotations

from typing import Any

import pytest

from stageclaw.report.metrics import (
    agent_metrics,
    bootstrap_ci,
    breakdown,
    common_k,
    cost_metrics,
    pass_at_k,
    pass_hat_k,
    percentile,
    score_metrics,
)


def record(task: str, score: float | None, success: bool | None, **extra: Any) -> dict[str, Any]:
    base = {
        "agent": "a",
        "task_id": task,
        "trial": 1,
        "status": "completed" if score is not None else "infra_error",
        "score": score,
        "success": success,
        "group": "scheduling",
        "operators": [],
        "apps": [],
        "input_tokens": None,
        "output_tokens": None,
        "cost_usd": 0.0,
        "wall_s": 1.0,
        "calls": 0,
        "errors": 0,
        "recovered": 0,
        "unrecovered": 0,
        "misuse": 0,
        "app_calls": {},
        "by_tool": {},
        "mode": None if success else "incomplete",
        "failed_stages": [],
    }
    return {**base, **extra}


@pytest.mark.parametrize(
    ("n", "c", "k", "at", "hat"),
    [
        (5, 2, 2, 1 - 3 / 10, 1 / 10),  # C(3,2)=3, C(5,2)=10, C(2,2)=1
        (3, 1, 1, 1 / 3, 1 / 3),  # k = 1: both are c/n
        (3, 2, 2, 1.0, 1 / 3),  # any 2 of 3 include a success; C(2,2)/C(3,2)
        (4, 1, 3, 1 - 1 / 4, 0.0),  # C(3,3)/C(4,3) = 1/4 draws miss the success
        (10, 4, 3, 1 - 20 / 120, 4 / 120),  # C(6,3)=20, C(10,3)=120, C(4,3)=4
        (3, 3, 3, 1.0, 1.0),
        (3, 0, 2, 0.0, 0.0),
    ],
)
def test_estimators_match_hand_computed_values(n, c, k, at, hat):
    assert pass_at_k(n, c, k) == pytest.approx(at)
    assert pass_hat_k(n, c, k) == pytest.approx(hat)


def test_estimators_refuse_k_above_n():
    for estimator in (pass_at_k, pass_hat_k):
        with pytest.raises(ValueError):
            estimator(2, 1, 3)
        with pytest.raises(ValueError):
            estimator(2, 3, 1)


def test_percentile_interpolates_between_ranks():
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.0) == 1.0 and percentile([1.0, 2.0, 3.0, 4.0], 1.0) == 4.0
    assert percentile([0.0, 10.0], 0.975) == pytest.approx(9.75)


# Task A: 2 of 3 trials succeed (100, 50, 100); task B: none of 3 (0, 20, 40); one infra error on B.
RECORDS = [
    record("A", 100, True),
    record("A", 50, False),
    record("A", 100, True),
    record("B", 0, False),
    record("B", 20, False),
    record("B", 40, False),
    record("B", None, None),
]


def test_score_metrics_by_hand():
    m = score_metrics(RECORDS)
    assert (m["tasks"], m["scored"], m["successes"], m["k"]) == (2, 6, 2, 3)
    assert m["mean_score"] == round(310 / 6, 2) and m["success_rate"] == round(2 / 6, 4)
    at = {k: v["value"] for k, v in m["pass_at_k"].items()}
    hat = {k: v["value"] for k, v in m["pass_hat_k"].items()}
    # pass@k averages task A (n=3, c=2) and task B (n=3, c=0)
    assert at == {"1": round((2 / 3 + 0) / 2, 4), "2": 0.5, "3": 0.5}
    assert hat == {"1": round((2 / 3) / 2, 4), "2": round((1 / 3) / 2, 4), "3": 0.0}


def test_pass_at_k_averages_the_tasks_with_at_least_k_trials():
    # task C lost two of its three trials to infra errors: it counts for k = 1 only
    records = [*RECORDS, record("C", 100, True), record("C", None, None), record("C", None, None)]
    m = score_metrics(records)
    assert m["k"] == 3 and m["tasks"] == 3
    assert m["pass_at_k"]["1"] == {"value": round((2 / 3 + 0 + 1) / 3, 4), "ci": m["pass_at_k"]["1"]["ci"], "tasks": 3}
    assert (m["pass_at_k"]["2"]["value"], m["pass_at_k"]["2"]["tasks"]) == (0.5, 2)
    assert (m["pass_hat_k"]["3"]["value"], m["pass_hat_k"]["3"]["tasks"]) == (0.0, 2)


def test_bootstrap_cis_resample_tasks_and_are_deterministic():
    m = score_metrics(RECORDS, resamples=1000, seed=0)
    # Two tasks resampled with replacement: AA (success 2/3), AB or BA (1/3), BB (0), so the 95% CI spans 0 .. 2/3.
    assert m["success_rate_ci"] == [0.0, round(2 / 3, 4)]
    assert m["mean_score_ci"] == [20.0, round(250 / 3, 2)]  # BB: mean of 0, 20, 40; AA: 250 / 3
    assert m["pass_at_k"]["3"]["ci"] == [0.0, 1.0]
    assert score_metrics(RECORDS, resamples=1000, seed=0) == m
    other = score_metrics([record(t, float(i), i % 2 == 0) for i, t in enumerate("ABCDEFGHIJ" * 2)], seed=1)
    again = score_metrics([record(t, float(i), i % 2 == 0) for i, t in enumerate("ABCDEFGHIJ" * 2)], seed=1)
    assert other == again
    lo, hi = other["mean_score_ci"]
    assert lo <= other["mean_score"] <= hi and lo < hi


def test_bootstrap_ci_of_a_constant_is_that_constant():
    assert bootstrap_ci(lambda idx: 7.0, 5, 200, 3) == (7.0, 7.0)


def test_no_scored_episode_gives_empty_score_metrics():
    m = score_metrics([record("A", None, None)])
    assert m["mean_score"] is None and m["k"] == 0 and m["pass_at_k"] == {}


def test_cost_metrics_count_every_episode_and_tell_unpriced_ones():
    records = [
        record(
            "A",
            100,
            True,
            input_tokens=1000,
            output_tokens=200,
            cost_usd=0.01,
            wall_s=2.0,
            calls=10,
            errors=2,
            recovered=1,
            unrecovered=1,
        ),
        record(
            "B",
            0,
            False,
            input_tokens=3000,
            output_tokens=0,
            cost_usd=None,
            wall_s=4.0,
            calls=5,
            errors=1,
            unrecovered=1,
            misuse=1,
        ),
        record("B", None, None, input_tokens=500, output_tokens=100, cost_usd=0.03, wall_s=6.0, calls=1),
    ]
    m = cost_metrics(records)
    assert (m["episodes"], m["infra_errors"], m["input_tokens"], m["output_tokens"]) == (3, 1, 4500, 300)
    assert m["tokens_per_episode"] == 1600.0
    assert m["cost_usd"] == 0.04 and m["cost_per_episode"] == 0.02 and m["unpriced_episodes"] == 1
    assert (m["wall_s"], m["wall_s_per_episode"], m["tool_calls"], m["tool_errors"]) == (12.0, 4.0, 16, 3)
    assert m["tool_error_rate"] == round(3 / 16, 4) and m["tool_calls_per_episode"] == round(16 / 3, 2)
    assert (m["recovered_errors"], m["unrecovered_errors"], m["misuse_errors"]) == (1, 2, 1)
    assert cost_metrics([record("A", 1, False)])["tokens_per_episode"] is None


def test_agent_metrics_count_modes_stages_and_tools():
    records = [
        record("A", 0, False, mode="wrong_value", failed_stages=["timezone conversion"], by_tool={"now": [1, 0]}),
        record("B", 0, False, mode="wrong_value", failed_stages=["timezone conversion", "choosing the recipient"]),
        record("C", 0, False, mode="incomplete", failed_stages=["choosing the recipient"]),
        record("D", 100, True, by_tool={"now": [2, 0], "mail_send": [3, 1]}),
    ]
    m = agent_metrics(records, resamples=100)
    assert m["tools"] == {"mail_send": {"calls": 3, "errors": 1}, "now": {"calls": 3, "errors": 0}}
    assert m["failure_modes"] == {"wrong_value": 2, "incomplete": 1}
    assert m["failed_stages"] == {"timezone conversion": 2, "choosing the recipient": 2}


def test_breakdowns_by_group_operator_and_app():
    records = [
        record(
            "A",
            100,
            True,
            group="scheduling",
            operators=["noisy_data", "hidden_dependency"],
            apps=["calendar"],
            calls=4,
            errors=1,
            app_calls={"calendar": [3, 1]},
        ),
        record(
            "B",
            50,
            False,
            group="planning",
            operators=["noisy_data"],
            apps=["calendar", "mail"],
            calls=6,
            app_calls={"calendar": [2, 0], "mail": [4, 0]},
        ),
        record("C", 0, False, agent="b", group="planning", operators=[], apps=[]),
    ]
    by_group = breakdown(records, "group")
    assert list(by_group) == ["planning", "scheduling"]
    assert by_group["planning"]["a"] == {
        "episodes": 1,
        "tasks": 1,
        "mean_score": 50.0,
        "success_rate": 0.0,
        "tool_calls": 6,
        "tool_error_rate": 0.0,
    }
    assert by_group["planning"]["b"]["mean_score"] == 0.0
    by_op = breakdown(records, "operators")
    assert list(by_op) == ["hidden_dependency", "noisy_data", "(none)"]
    assert by_op["noisy_data"]["a"]["episodes"] == 2 and by_op["noisy_data"]["a"]["mean_score"] == 75.0
    by_app = breakdown(records, "apps")
    assert by_app["calendar"]["a"]["tool_calls"] == 5 and by_app["calendar"]["a"]["tool_error_rate"] == 0.2
    assert by_app["mail"]["a"]["tool_calls"] == 4 and by_app["(none)"]["b"]["episodes"] == 1


def test_the_leaderboard_k_is_the_largest_every_agent_has():
    assert common_k([{"k": 3}, {"k": 5}, {"k": 0}]) == 3  # an agent with nothing scored has no k
    assert common_k([{"k": 0}]) == 0
