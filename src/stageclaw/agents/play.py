"""`play:NAME`: an episode played by someone who is not a built-in agent, a person or any program.

The player gets what a `cmd:` program gets: the prompt, the system facts and the task's tools over MCP
(streamable HTTP on loopback, behind a random token), with the same step and time budgets, every call
through the episode's registry (audit, faults). Beside the MCP endpoint, under the same token, a page
for a person shows the prompt and the facts, a form per tool made from its JSON Schema, the log of
every call (from the page, over MCP or from the shell client alike) and a Finish box. `play.json` in
the run directory says where both are and what the player needs; it is written once the world is up.

The episode ends when the player finishes (the page, or a POST to `api/finish`, which `stageclaw play
--finish` sends), when the time budget runs out, or when the run is stopped. The page and the endpoint
serve only the brief, the tools and the audit log: nothing of the task folder.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stageclaw.errors import StageclawError

# The rest is imported when a play runs: the shell client (`stageclaw play --call`) reads PLAY_JSON from
# here, and each of its calls is a new process that should start fast.
if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    from stageclaw.agents.base import AgentOutcome, EpisodeBrief
    from stageclaw.tools.mcp_server import StepBudget
    from stageclaw.tools.registry import Registry

PLAY_JSON = "play.json"
PLAYER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# What the page shows of an audit entry: not `fault` or `error_kind`, which would tell an injected
# fault from a real failure, as no other agent can.
LOG_FIELDS = ("seq", "t", "tool", "args", "ok", "result", "error", "latency_ms")


def check_player(name: str) -> str:
    if not PLAYER.match(name):
        raise StageclawError(f"player name {name!r}: use up to 64 letters, digits, '-', '_' and '.', e.g. play:alice")
    return name


class _Table:
    """What the page, the MCP handlers and the waiting agent share for one episode."""

    def __init__(self, brief: EpisodeBrief, registry: Registry, budget: StepBudget) -> None:
        self.brief, self.registry, self.budget = brief, registry, budget
        self.deadline = time.monotonic() + brief.time_budget_s
        self.finished = threading.Event()
        self.answer = ""
        self._lock = threading.Lock()

    def routes(self) -> list[Route]:
        from starlette.routing import Route

        return [
            Route("/", self.page),
            Route("/api/brief", self.brief_json),
            Route("/api/log", self.log),
            Route("/api/call", self.call, methods=["POST"]),
            Route("/api/finish", self.finish, methods=["POST"]),
        ]

    async def page(self, request: Request) -> HTMLResponse:
        from starlette.responses import HTMLResponse

        html = resources.files("stageclaw.agents").joinpath("play.html").read_text(encoding="utf-8")
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def brief_json(self, request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        from stageclaw.agents.external import system_text

        b = self.brief
        return JSONResponse(
            {
                "prompt": b.prompt,
                "system": system_text(b),
                "user": {"name": b.user_name, "email": b.user_email},
                "now": b.now,
                "timezone": b.timezone,
                "max_steps": b.max_steps,
                "time_budget_s": b.time_budget_s,
                "tools": self.registry.specs(),
            }
        )

    async def log(self, request: Request) -> JSONResponse:
        """The calls after `since` (a sequence number) and the budgets left."""
        from starlette.responses import JSONResponse

        try:
            since = int(request.query_params.get("since", "0"))
        except ValueError:
            since = 0
        entries = [{k: e[k] for k in LOG_FIELDS if k in e} for e in self.registry.audit.entries[since:]]
        return JSONResponse(
            {
                "entries": entries,
                "steps_used": self.budget.used,
                "max_steps": self.budget.limit,
                "seconds_left": max(0.0, round(self.deadline - time.monotonic(), 1)),
                "finished": self.finished.is_set(),
            }
        )

    async def call(self, request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        from stageclaw.tools.base import ToolError
        from stageclaw.tools.mcp_server import call_budgeted

        body = await _body(request)
        if body is None or not isinstance(body.get("tool"), str) or not isinstance(body.get("args", {}), dict):
            return JSONResponse({"ok": False, "error": 'send {"tool": NAME, "args": {...}}'}, status_code=400)
        if self.finished.is_set():
            return JSONResponse({"ok": False, "error": "the play has ended"}, status_code=409)
        try:
            result = await call_budgeted(self.registry, body["tool"], body.get("args") or {}, self.budget)
        except ToolError as exc:
            return JSONResponse({"ok": False, "error": exc.message})
        return JSONResponse({"ok": True, "result": result})

    async def finish(self, request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        body = await _body(request)
        answer = body.get("answer", "") if body is not None else None
        if not isinstance(answer, str):
            return JSONResponse({"finished": False, "error": 'send {"answer": TEXT}'}, status_code=400)
        with self._lock:
            if self.finished.is_set():
                return JSONResponse({"finished": True, "error": "the play had already ended"}, status_code=409)
            self.answer = answer
            self.finished.set()
        return JSONResponse({"finished": True})


async def _body(request: Request) -> dict[str, Any] | None:
    try:
        data = await request.json()
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


class PlayAgent:
    """Serves the episode to a player and waits for them; `run_dir` gets `play.json`."""

    def __init__(self, player: str, run_dir: Path, time_budget_s: float | None = None) -> None:
        self.name = f"play:{check_player(player)}"
        self.player = player
        self.config: dict[str, Any] = {"player": player}
        if time_budget_s is not None:  # people and shell-driven programs are slower than a built-in agent
            self.config["time_budget_s"] = time_budget_s
        self.time_budget_s = time_budget_s
        self.run_dir = run_dir.absolute()

    def info(self, brief: EpisodeBrief, mcp_url: str) -> dict[str, Any]:
        """play.json: where the player plays and what they are told."""
        from stageclaw.agents.external import system_text

        started = datetime.now(UTC).replace(microsecond=0)
        here = str(self.run_dir)
        return {
            "player": self.player,
            "mcp_url": mcp_url,
            "page_url": mcp_url.removesuffix("mcp"),
            "prompt": brief.prompt,
            "system": system_text(brief),
            "user": {"name": brief.user_name, "email": brief.user_email},
            "now": brief.now,
            "timezone": brief.timezone,
            "max_steps": brief.max_steps,
            "time_budget_s": brief.time_budget_s,
            "started_at": started.isoformat(),
            "ends_at": (started + timedelta(seconds=brief.time_budget_s)).isoformat(),
            "mcp_config": {"mcpServers": {"stageclaw": {"type": "http", "url": mcp_url}}},
            "shell": {
                "tools": f"stageclaw play --tools {here}",
                "call": f"stageclaw play --call {here} TOOL '{{...arguments as JSON...}}'",
                "finish": f"stageclaw play --finish {here} --answer 'your final answer for the user'",
            },
        }

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        from stageclaw.agents.base import COMPLETED, INTERRUPTED, MAX_STEPS, TIMEOUT, AgentOutcome
        from stageclaw.tools.mcp_server import StepBudget, serve_http

        if self.time_budget_s is not None:
            brief = replace(brief, time_budget_s=self.time_budget_s)
        budget = StepBudget(brief.max_steps)
        table = _Table(brief, registry, budget)
        with serve_http(registry, budget=budget, routes=table.routes()) as url:
            _publish(self.run_dir / PLAY_JSON, self.info(brief, url))
            while not table.finished.wait(0.1):
                if registry.stopped or time.monotonic() >= table.deadline:
                    break
        if table.finished.is_set():
            if budget.refused:
                error = f"the player made their {budget.limit} tool calls and {budget.refused} more, which were refused"
                return AgentOutcome(MAX_STEPS, table.answer, error)
            return AgentOutcome(COMPLETED, table.answer)
        if registry.stopped:
            return AgentOutcome(INTERRUPTED, error="the run was interrupted")
        return AgentOutcome(
            TIMEOUT, error=f"the player did not finish within the time budget of {brief.time_budget_s:g} s"
        )


def _publish(path: Path, data: dict[str, Any]) -> None:
    """Write `data` as JSON whole (a temporary file renamed), so a client never reads half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
