"""stageclaw's grader as an Inspect scorer: the rubric's checks and the default-deny collateral check
on the final state the solver kept.

The value is `{"score": 0-100, "success": 0 or 1}`: `score` is stageclaw's score (100 × weight of the
passed check items / weight of the check items), `success` whether every check item passed; both come
from the executable verifier alone. With a judge, the value also holds `quality` (the same figure over
the judge items; NaN, so unscored, when the judge decided none). Their means are the mean score, the
success rate and the mean quality; over epochs each sample's values are reduced first (by default
their mean), so `success` then averages every episode. The explanation lists the items; the metadata
holds them with their reasons, the collateral changes, the verifier's defects and how the agent ended.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

import anyio
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from stageclaw.grade.grader import Grade, Judge, grade
from stageclaw.inspect.dataset import task_of
from stageclaw.inspect.solver import STORE_KEY


def explain(g: Grade) -> str:
    """One line per rubric item: passed, failed or unscored, with its weight and the verifier's reason."""
    marks = {True: "pass", False: "FAIL", None: "unscored"}
    quality = "" if g.quality is None else f", quality {g.quality:g}"
    lines = [f"score {g.score:g}, {'success' if g.success else 'no success'}{quality}"]
    for item in g.items:
        critical = ", critical" if item.critical else ""
        reason = f": {item.reason}" if item.reason else ""
        lines.append(f"- {marks[item.passed]} {item.id} (weight {item.weight:g}{critical}){reason}")
    return "\n".join(lines)


# A metric whose key the first sample's value lacks is dropped: `quality` is there only with a judge.
@scorer(metrics={"score": [mean(), stderr()], "success": [mean()], "quality": [mean()]})
def stageclaw_grade(judge: str | None = None, judge_base_url: str | None = None) -> Scorer:
    """Grade the sample's final world state with its task's rubric, verifier and `[changes] allow`.

    Args:
      judge: An LLM judge for the rubric's judge items, `openai:MODEL` (else they are unscored, never 0).
      judge_base_url: OpenAI-compatible base URL for the judge (else OPENAI_BASE_URL).
    """
    the_judge: Judge | None = None
    if judge:
        from stageclaw.grade.judge import LLMJudge

        the_judge = LLMJudge(judge, base_url=judge_base_url)

    def value(score: float, success: bool, quality: float | None) -> dict[str, Any]:
        out: dict[str, Any] = {"score": score, "success": int(success)}
        if the_judge is not None:
            out["quality"] = math.nan if quality is None else quality
        return out

    async def score(state: TaskState, target: Target) -> Score:
        played = state.store.get(STORE_KEY)
        if played is None:  # the solver was cut off (an Inspect time limit) before the world was read back
            return Score(
                value=value(0, False, None),
                explanation="the episode did not finish: there is no final state to grade",
                metadata={"success": False},
            )
        # The verifier runs in a sandboxed subprocess: wait for it off the event loop.
        s0, sH, trace = played["s0"], played["sH"], played["trace"]
        g = await anyio.to_thread.run_sync(grade, task_of(state), s0, sH, trace, the_judge)
        return Score(
            value=value(g.score, g.success, g.quality),
            answer=trace["final_answer"],
            explanation=explain(g),
            metadata={
                "success": g.success,
                "quality": g.quality,
                "status": trace["status"],
                "error": played["error"],
                "items": [asdict(i) for i in g.items],
                "collateral": g.collateral,
                "defects": g.defects,
            },
        )

    return score
