"""The optional LLM review of a task: is the prompt clear, is there one right end state, is it
realistic. Configured like the judge (`openai:MODEL`, any OpenAI-compatible endpoint); without a
model it reports `blocked`. It is advice for the author: it carries no weight in the score.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from stageclaw.grade.judge import LLMJudge
from stageclaw.task.loader import Task
from stageclaw.validate import paths
from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, Check
from stageclaw.validate.similar import label
from stageclaw.world.state import normalize

NAME = "llm_review"
ASPECTS = ("clarity", "unambiguous", "realism")
SYSTEM = (
    "You review tasks of a benchmark for personal AI assistants before they are used. A task is a request a user "
    "makes, the user's data (mail, calendar, reminders, notes, contacts, files), the intended end state and the "
    "rubric that grades it. Rate from 1 (bad) to 5 (good): clarity (a capable assistant can tell what the user "
    "wants), unambiguous (exactly one end state is right, up to harmless variations, and the rubric grades exactly "
    "that), realism (a real person would ask this, with data like this). Answer with one JSON object: "
    '{"clarity": n, "unambiguous": n, "realism": n, "problems": ["one sentence each"]}.'
)
MAX_ITEMS = 120


def review_prompt(task: Task) -> str:
    state = normalize(task.world, task.dir)
    world = [f"{c}/{k}: {label(k, item)}" for c, k, item in paths.items(state)][:MAX_ITEMS]
    return json.dumps(
        {
            "user_request": task.prompt,
            "user": {"name": task.world.user.name, "email": task.world.user.email},
            "now": task.world.now.isoformat(),
            "timezone": task.world.timezone,
            "user_data_items": world,
            "intended_end_state": task.goal,
            "rubric": [i.description for i in task.rubric.items],
            "allowed_changes": task.rubric.changes.allow,
        },
        ensure_ascii=False,
        indent=1,
    )


def parse_review(text: str) -> dict[str, Any]:
    match = re.search(r"\{.*\}", text or "", re.S)
    if not match:
        raise ValueError(f"no JSON object in the answer: {text[:200]!r}")
    data = json.loads(match.group(0))
    for aspect in ASPECTS:
        if not isinstance(data.get(aspect), int | float) or not 1 <= data[aspect] <= 5:
            raise ValueError(f"{aspect} is not a rating from 1 to 5: {data.get(aspect)!r}")
    problems = data.get("problems") or []
    return {**{a: data[a] for a in ASPECTS}, "problems": [str(p) for p in problems]}


class LLMReviewer:
    def __init__(self, spec: str, base_url: str | None = None, retries: int = 3, backoff_s: float = 0.5) -> None:
        # The judge's client: same model spec, endpoint and key settings.
        self.llm = LLMJudge(spec, base_url=base_url, retries=retries, backoff_s=backoff_s)

    def __call__(self, task: Task) -> Check:
        prompt = review_prompt(task)
        last = ""
        for attempt in range(self.llm.retries):
            try:
                reply = self.llm.client.chat.completions.create(
                    model=self.llm.model,
                    messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
                    temperature=0,
                )
                return _verdict(parse_review(reply.choices[0].message.content or ""))
            except Exception as exc:  # provider errors and unparseable answers are retried alike
                last = f"{type(exc).__name__}: {exc}"
                time.sleep(min(self.llm.backoff_s * 2**attempt, 8))
        return Check(NAME, BLOCKED, f"the reviewer failed after {self.llm.retries} attempts ({last[:300]})")


def _verdict(review: dict[str, Any]) -> Check:
    low = min(review[a] for a in ASPECTS)
    status = PASS if low >= 4 else WARNING if low >= 3 else FAIL
    ratings = ", ".join(f"{a} {review[a]}" for a in ASPECTS)
    problems = "; ".join(review["problems"])
    return Check(NAME, status, f"{ratings}" + (f"; problems: {problems}" if problems else ""), review)


def not_configured() -> Check:
    return Check(NAME, BLOCKED, "no reviewer model configured (--llm openai:MODEL or STAGECLAW_CHECKER)")
