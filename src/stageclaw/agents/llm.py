"""The built-in tool-calling agent, for OpenAI-compatible chat completions and the Anthropic
Messages API, through the official SDKs.

One step is one model turn. The loop ends when the model answers without tool calls
(completed), or on a budget: steps, wall time, tokens or cost. Tool calls of a turn run in
order; an unknown tool or malformed arguments go back to the model as tool errors. Provider
rate limits, 5xx answers and connection failures are retried with exponential backoff; when the
retries are spent the episode is an infrastructure error (retried by the runner, never scored).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from stageclaw.agents.base import (
    AGENT_ERROR,
    BUDGET_EXHAUSTED,
    COMPLETED,
    INFRA_ERROR,
    INTERRUPTED,
    MAX_STEPS,
    TIMEOUT,
    AgentOutcome,
    EpisodeBrief,
)
from stageclaw.agents.prices import PriceTable
from stageclaw.errors import StageclawError
from stageclaw.tools.registry import Registry

PROVIDERS = ("openai", "anthropic")
RETRYABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 529}


def system_prompt(brief: EpisodeBrief) -> str:
    return (
        f"You are the personal assistant of {brief.user_name} <{brief.user_email}>. You act on their real "
        "mail, calendar, reminders, notes, contacts and files through the tools you have; what you change "
        "stays changed.\n"
        f"It is now {brief.now} in their timezone, {brief.timezone}. Times without an offset are in that "
        "timezone.\n"
        "Do what they ask, completely and carefully, and change nothing they did not ask you to change. "
        "When you are done, reply with a short summary of what you did."
    )


@dataclass
class Call:
    id: str
    name: str
    raw_args: str | dict[str, Any]


@dataclass
class Turn:
    text: str
    calls: list[Call]
    input_tokens: int
    output_tokens: int
    message: dict[str, Any]


@dataclass
class LLMSettings:
    provider: str
    model: str
    base_url: str | None = None
    api_key: str | None = None
    temperature: float | None = None
    max_tokens: int = 4096
    token_budget: int | None = None
    cost_budget_usd: float | None = None
    max_steps: int | None = None
    time_budget_s: float | None = None
    retries: int = 4
    backoff_s: float = 1.0
    request_timeout_s: float = 300
    prices: PriceTable = field(default_factory=PriceTable.load)

    @classmethod
    def from_spec(cls, spec: str, **kwargs: Any) -> LLMSettings:
        provider, _, model = spec.partition(":")
        if provider not in PROVIDERS or not model:
            raise StageclawError(f"agent {spec!r}: use openai:MODEL or anthropic:MODEL")
        return cls(provider=provider, model=model, **kwargs)

    def public(self) -> dict[str, Any]:
        """What a result line records of the configuration (no key)."""
        return {
            "provider": self.provider,
            "model": self.model,
            "base_url": self.base_url or os.environ.get(f"{self.provider.upper()}_BASE_URL"),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "token_budget": self.token_budget,
            "cost_budget_usd": self.cost_budget_usd,
        }


T = TypeVar("T")


class ProviderError(Exception):
    def __init__(self, message: str, retryable: bool) -> None:
        super().__init__(message)
        self.retryable = retryable


def with_retries(
    call: Callable[[], T], errors: Any, retries: int, backoff_s: float, stop: threading.Event | None = None
) -> T:
    """`call()`, tried again after a transient provider failure (5xx, 408, 429, no connection) up to
    `retries` times with exponential backoff; an answer that cannot succeed (any other 4xx: a bad key,
    an unknown model, a request too large) is not tried again. Raises ProviderError. `errors` is the
    SDK module (openai or anthropic), whose exception classes have the same names. A set `stop` ends the
    backoff (up to a minute) at once: a stopped run does not wait it out."""
    for attempt in range(retries + 1):
        try:
            return call()
        except errors.APIStatusError as exc:
            retryable = exc.status_code in RETRYABLE_STATUS
            failure = ProviderError(f"the provider answered {exc.status_code}: {str(exc)[:300]}", retryable)
        except (errors.APIConnectionError, errors.APITimeoutError) as exc:
            failure = ProviderError(f"could not reach the provider: {exc}", True)
        if (
            not failure.retryable
            or attempt == retries
            or (stop or threading.Event()).wait(min(backoff_s * 2**attempt, 60))
        ):
            raise failure
    raise AssertionError("unreachable")


class _OpenAI:
    def __init__(self, s: LLMSettings) -> None:
        import openai

        self.errors = openai
        self.s = s
        self.client = openai.OpenAI(
            base_url=s.base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=s.api_key or os.environ.get("OPENAI_API_KEY") or "none",
            max_retries=0,
            timeout=s.request_timeout_s,
        )

    def tools(self, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                "type": "function",
                "function": {"name": t["name"], "description": t["description"], "parameters": t["input_schema"]},
            }
            for t in specs
        ]

    def complete(self, system: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Turn:
        params: dict[str, Any] = {"max_tokens": self.s.max_tokens}
        if self.s.temperature is not None:
            params["temperature"] = self.s.temperature
        reply = self.client.chat.completions.create(
            model=self.s.model, messages=[{"role": "system", "content": system}, *messages], tools=tools, **params
        )
        msg = reply.choices[0].message
        calls = [Call(c.id, c.function.name, c.function.arguments) for c in (msg.tool_calls or [])]
        message: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
        if calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.raw_args}} for c in calls
            ]
        usage = reply.usage
        return Turn(
            msg.content or "",
            calls,
            usage.prompt_tokens if usage else 0,
            usage.completion_tokens if usage else 0,
            message,
        )

    def results(self, outputs: list[tuple[Call, str, bool]]) -> list[dict[str, Any]]:
        return [{"role": "tool", "tool_call_id": call.id, "content": content} for call, content, _ in outputs]


class _Anthropic:
    def __init__(self, s: LLMSettings) -> None:
        import anthropic

        self.errors = anthropic
        self.s = s
        self.client = anthropic.Anthropic(
            base_url=s.base_url or os.environ.get("ANTHROPIC_BASE_URL"),
            api_key=s.api_key or os.environ.get("ANTHROPIC_API_KEY") or "none",
            max_retries=0,
            timeout=s.request_timeout_s,
        )

    def tools(self, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"name": t["name"], "description": t["description"], "input_schema": t["input_schema"]} for t in specs]

    def complete(self, system: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Turn:
        params: dict[str, Any] = {"max_tokens": self.s.max_tokens}
        if self.s.temperature is not None:
            params["temperature"] = self.s.temperature
        reply = self.client.messages.create(model=self.s.model, system=system, messages=messages, tools=tools, **params)
        blocks = [b.model_dump(exclude_none=True) for b in reply.content]
        text = "\n".join(b["text"] for b in blocks if b.get("type") == "text")
        calls = [Call(b["id"], b["name"], b.get("input", {})) for b in blocks if b.get("type") == "tool_use"]
        return Turn(
            text,
            calls,
            reply.usage.input_tokens,
            reply.usage.output_tokens,
            {"role": "assistant", "content": blocks},
        )

    def results(self, outputs: list[tuple[Call, str, bool]]) -> list[dict[str, Any]]:
        return [
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": call.id, "content": content, "is_error": is_error}
                    for call, content, is_error in outputs
                ],
            }
        ]


class LLMAgent:
    def __init__(self, spec: str, settings: LLMSettings) -> None:
        self.name = spec
        self.s = settings
        self.config = settings.public()
        self.api = _OpenAI(settings) if settings.provider == "openai" else _Anthropic(settings)

    def _complete(
        self, system: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], stop: threading.Event
    ) -> Turn:
        return with_retries(
            lambda: self.api.complete(system, messages, tools), self.api.errors, self.s.retries, self.s.backoff_s, stop
        )

    def _execute(self, registry: Registry, call: Call) -> tuple[Call, str, bool]:
        args = call.raw_args
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError as exc:
                return call, json.dumps({"error": f"the arguments of {call.name} are not valid JSON ({exc})"}), True
        outcome = registry.invoke(call.name, args)
        if outcome["ok"]:
            return call, json.dumps(outcome["result"], ensure_ascii=False), False
        return call, json.dumps({"error": outcome["error"]}, ensure_ascii=False), True

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        max_steps = self.s.max_steps or brief.max_steps
        budget_s = self.s.time_budget_s or brief.time_budget_s
        system = system_prompt(brief)
        tools = self.api.tools(registry.specs())
        messages: list[dict[str, Any]] = [{"role": "user", "content": brief.prompt}]
        usage = {"input_tokens": 0, "output_tokens": 0, "turns": 0}
        started = time.monotonic()

        def outcome(status: str, answer: str = "", error: str | None = None) -> AgentOutcome:
            cost = self.s.prices.cost(self.s.model, usage["input_tokens"], usage["output_tokens"])
            transcript = [{"role": "system", "content": system}, *messages]
            return AgentOutcome(status, answer, error, transcript, dict(usage), cost)

        for _ in range(max_steps):
            if registry.stopped:
                return outcome(INTERRUPTED, error="the run was interrupted")
            if time.monotonic() - started > budget_s:
                return outcome(TIMEOUT, error=f"the time budget of {budget_s:g} s is spent")
            try:
                turn = self._complete(system, messages, tools, registry.stop)
            except ProviderError as exc:
                return outcome(INFRA_ERROR if exc.retryable else AGENT_ERROR, error=str(exc))
            usage["input_tokens"] += turn.input_tokens
            usage["output_tokens"] += turn.output_tokens
            usage["turns"] += 1
            messages.append(turn.message)
            if not turn.calls:
                return outcome(COMPLETED, turn.text)
            messages.extend(self.api.results([self._execute(registry, call) for call in turn.calls]))
            spent = self._over_budget(usage)
            if spent:
                return outcome(BUDGET_EXHAUSTED, error=spent)
        return outcome(MAX_STEPS, error=f"the step budget of {max_steps} model turns is spent")

    def _over_budget(self, usage: dict[str, int]) -> str | None:
        tokens = usage["input_tokens"] + usage["output_tokens"]
        if self.s.token_budget is not None and tokens > self.s.token_budget:
            return f"the token budget of {self.s.token_budget} is spent ({tokens} tokens)"
        cost = self.s.prices.cost(self.s.model, usage["input_tokens"], usage["output_tokens"])
        if self.s.cost_budget_usd is not None and cost is not None and cost > self.s.cost_budget_usd:
            return f"the cost budget of ${self.s.cost_budget_usd:g} is spent (${cost:.4f})"
        return None
