"""The LLM judge for `judge` rubric items: a plain chat call that must answer with JSON.

Configured as `openai:MODEL` (any OpenAI-compatible endpoint: `--judge-base-url` or
OPENAI_BASE_URL, key from OPENAI_API_KEY). A judge that cannot answer after its retries leaves
the item unscored, never failed.
"""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

from stageclaw.errors import StageclawError
from stageclaw.task.loader import Task
from stageclaw.world.diff import diff

SYSTEM = (
    "You grade whether an AI assistant did what a user asked, from the changes it made to the user's "
    "applications and its final message. Judge only the criterion given. Answer with one JSON object: "
    '{"passed": true or false, "reason": "one sentence"}.'
)
MAX_VALUE_CHARS = 1500


def _clip(value: Any) -> Any:
    text = json.dumps(value, ensure_ascii=False)
    return value if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + "...(cut)"


def judge_prompt(task: Task, criterion: str, s0: dict[str, Any], sH: dict[str, Any], trace: dict[str, Any]) -> str:
    changes = [{k: _clip(v) for k, v in c.items()} for c in diff(s0, sH)]
    return json.dumps(
        {
            "user_request": task.prompt,
            "criterion": criterion,
            "assistant_final_message": trace.get("final_answer", ""),
            "changes_to_the_user_data": changes[:60],
        },
        ensure_ascii=False,
        indent=1,
    )


def parse_verdict(text: str) -> tuple[bool, str]:
    match = re.search(r"\{.*\}", text or "", re.S)
    if not match:
        raise ValueError(f"no JSON object in the judge's answer: {text[:200]!r}")
    data = json.loads(match.group(0))
    if not isinstance(data.get("passed"), bool):
        raise ValueError(f"the judge's JSON has no boolean 'passed': {data!r:.200}")
    return data["passed"], str(data.get("reason", ""))


class LLMJudge:
    def __init__(
        self,
        spec: str,
        base_url: str | None = None,
        api_key: str | None = None,
        retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        provider, _, model = spec.partition(":")
        if provider != "openai" or not model:
            raise StageclawError(f"judge {spec!r}: use openai:MODEL (any OpenAI-compatible endpoint)")
        from openai import OpenAI

        self.model = model
        self.retries = retries
        self.backoff_s = backoff_s
        self.client = OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none",
            max_retries=0,
            timeout=120,
        )

    def __call__(
        self, task: Task, criterion: str, s0: dict[str, Any], sH: dict[str, Any], trace: dict[str, Any]
    ) -> tuple[bool | None, str]:
        prompt = judge_prompt(task, criterion, s0, sH, trace)
        last = ""
        for attempt in range(self.retries):
            try:
                reply = self.client.chat.completions.create(
                    model=self.model,
                    messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
                    temperature=0,
                )
                return parse_verdict(reply.choices[0].message.content or "")
            except Exception as exc:  # provider errors and unparseable answers are retried alike
                last = f"{type(exc).__name__}: {exc}"
                time.sleep(min(self.backoff_s * 2**attempt, 8))
        return None, f"judge failed after {self.retries} attempts ({last[:300]}): unscored"
