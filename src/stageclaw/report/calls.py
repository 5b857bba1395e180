"""What the tool calls of one trajectory say: how many, which failed, which failures the agent recovered from.

A failed call is **recovered** when a later call succeeds that is of the same tool or addresses one
of the same entities (the same `uid`, `id`, `message_id` or path in its arguments): the agent
retried or found another way to the same thing. Otherwise it is **unrecovered**.

**Misuse** is a call the agent should not have made that way: an unknown tool or arguments that
fail the tool's schema (audit `error_kind` `invalid_arguments`), or arguments that are not JSON at
all. The built-in LLM agent answers the latter itself, so they never reach `audit.jsonl`; they are
found in the OpenAI-style transcript and counted as calls and errors here (not in results.jsonl).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

ENTITY_ARGS = ("uid", "id", "message_id", "path", "src", "dst", "in_reply_to")
# Tool name prefix -> app; `now` and unknown prefixes belong to no app.
TOOL_APPS = {
    "mail": "mail",
    "calendar": "calendar",
    "reminders": "reminders",
    "notes": "notes",
    "contacts": "contacts",
    "files": "files",
    "terminal": "terminal",
    "browser": "web",
}
MISUSE_KINDS = ("invalid_arguments", "malformed")


def tool_app(tool: str) -> str | None:
    prefix, sep, _ = tool.partition("_")
    return TOOL_APPS.get(prefix) if sep else None


def arg_entities(args: Any) -> set[str]:
    if not isinstance(args, dict):
        return set()
    return {v for k in ENTITY_ARGS if isinstance(v := args.get(k), str) and v}


@dataclass
class FailedCall:
    seq: int | None  # the step's 1-based position in trajectory steps; None for a call that never reached the tools
    tool: str
    kind: str
    message: str
    recovered: bool

    @property
    def misuse(self) -> bool:
        return self.kind in MISUSE_KINDS


@dataclass
class CallStats:
    calls: int = 0
    failed: list[FailedCall] = field(default_factory=list)
    apps: set[str] = field(default_factory=set)
    by_tool: dict[str, list[int]] = field(default_factory=dict)  # tool -> [calls, errors]

    @property
    def errors(self) -> int:
        return len(self.failed)

    @property
    def recovered(self) -> int:
        return sum(1 for f in self.failed if f.recovered)

    @property
    def unrecovered(self) -> int:
        return self.errors - self.recovered

    @property
    def misuse(self) -> int:
        return sum(1 for f in self.failed if f.misuse)

    def by_app(self) -> dict[str, list[int]]:
        """app -> [calls, errors] of its tools."""
        out: dict[str, list[int]] = {}
        for tool, (calls, errors) in self.by_tool.items():
            if (app := tool_app(tool)) is not None:
                counts = out.setdefault(app, [0, 0])
                counts[0] += calls
                counts[1] += errors
        return out


def reaches_tools(raw: Any) -> bool:
    """Whether a call's arguments get past the agent loop: an object, nothing, or JSON text."""
    if not isinstance(raw, str) or not raw.strip():
        return True
    try:
        json.loads(raw)
    except json.JSONDecodeError:
        return False
    return True


def _malformed(messages: list[dict[str, Any]]) -> list[FailedCall]:
    results = {m.get("tool_call_id"): str(m.get("content") or "") for m in messages if m.get("role") == "tool"}
    calls = [
        (c.get("function", {}).get("name", "?"), c.get("function", {}).get("arguments"), results.get(c.get("id"), ""))
        for m in messages
        if m.get("role") == "assistant"
        for c in m.get("tool_calls") or []
    ]
    out = []
    for i, (name, raw, _) in enumerate(calls):
        if not reaches_tools(raw):
            recovered = any(
                n == name and reaches_tools(r) and not res.startswith('{"error"') for n, r, res in calls[i + 1 :]
            )
            out.append(FailedCall(None, name, "malformed", f"arguments are not JSON: {raw[:120]}", recovered))
    return out


def analyze(steps: list[dict[str, Any]], messages: list[dict[str, Any]] | None = None) -> CallStats:
    stats = CallStats(calls=len(steps))
    entities = [arg_entities(s.get("args")) for s in steps]
    for i, step in enumerate(steps):
        tool = str(step.get("tool"))
        counts = stats.by_tool.setdefault(tool, [0, 0])
        counts[0] += 1
        if (app := tool_app(tool)) is not None:
            stats.apps.add(app)
        if step.get("ok"):
            continue
        counts[1] += 1
        recovered = any(
            later.get("ok") and (later.get("tool") == tool or entities[i] & entities[j])
            for j, later in enumerate(steps[i + 1 :], start=i + 1)
        )
        kind = str(step.get("error_kind") or "tool")
        stats.failed.append(FailedCall(i + 1, tool, kind, str(step.get("error") or ""), recovered))
    for bad in _malformed(messages or []):
        stats.calls += 1
        stats.failed.append(bad)
        counts = stats.by_tool.setdefault(bad.tool, [0, 0])
        counts[0] += 1
        counts[1] += 1
    return stats
