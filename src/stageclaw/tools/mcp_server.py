"""The registry's tools over MCP, with the official SDK's `MCPServer` (stdio or streamable HTTP).

Each tool keeps the name, description and JSON Schema it has in the registry; a call goes
through `Registry.call`, so it is validated, may meet a fault, and lands in the audit log (a call
of an unknown tool or with invalid arguments too).
A failed call is an MCP error result (`is_error`) carrying the message meant for the agent.
"""

from __future__ import annotations

import inspect
import secrets
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, Literal

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as MCPToolError
from pydantic import Field
from starlette.routing import BaseRoute, Mount

from stageclaw.errors import ServiceError
from stageclaw.tools.base import Tool, ToolError
from stageclaw.tools.registry import Registry

START_TIMEOUT_S = 10.0  # for the HTTP server to listen; it takes a few milliseconds

INSTRUCTIONS = (
    "These tools act on the user's real mail, calendar, reminders, notes, contacts, files and terminal. "
    "Times are ISO 8601; a time without an offset is in the user's timezone (see the `now` tool)."
)


def _signature(tool: Tool) -> inspect.Signature:
    """The tool's arguments as a Python signature, which is what MCPServer derives its schema from."""
    params = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if field.is_required() else field.default,
            annotation=Annotated[(field.annotation, Field(description=field.description), *field.metadata)],
        )
        for name, field in tool.args.model_fields.items()
    ]
    return inspect.Signature(params, return_annotation=dict[str, Any])


class StepBudget:
    """At most `limit` tool calls for one agent; a call past it is refused before it reaches the registry,
    so it neither acts on the world nor appears in the audit log."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.refused = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Count one call; False when the budget is already spent."""
        with self._lock:
            if self.used >= self.limit:
                self.refused += 1
                return False
            self.used += 1
            return True

    @property
    def message(self) -> str:
        return (
            f"step budget spent: this task allows {self.limit} tool calls and you have made them all; "
            "no further tool call will run, so finish with a final answer"
        )


async def call_budgeted(
    registry: Registry, name: str, args: dict[str, Any], budget: StepBudget | None
) -> dict[str, Any]:
    """One call of an outside agent: counted against `budget` (refused past it, with a ToolError), then run
    through the registry. Tools block on network and disk, so they run off the event loop, one at a time."""
    if budget is not None and not budget.take():
        raise ToolError(budget.message)
    return await anyio.to_thread.run_sync(registry.call, name, args)


def _handler(registry: Registry, tool: Tool, budget: StepBudget | None) -> Any:
    async def handler(**kwargs: Any) -> dict[str, Any]:
        try:
            return await call_budgeted(registry, tool.name, kwargs, budget)
        except ToolError as exc:
            raise MCPToolError(exc.message) from None

    handler.__name__ = tool.name
    handler.__doc__ = tool.description
    handler.__signature__ = _signature(tool)  # type: ignore[attr-defined]
    return handler


class _AuditedServer(MCPServer):
    """An MCPServer whose refusals are the registry's too: a call of an unknown tool, or with arguments
    that fail the tool's schema, is refused by the registry (so it is audited and counted, and takes
    a step of the budget), where the SDK would refuse it unseen."""

    def __init__(self, registry: Registry, budget: StepBudget | None, name: str, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self._registry = registry
        self._budget = budget

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._registry.tools.get(name)
        try:
            if tool is not None:
                tool.parse(arguments)
        except ToolError:
            tool = None
        if tool is not None:
            return await super().call_tool(name, arguments, context)
        if self._budget is not None and not self._budget.take():
            raise MCPToolError(self._budget.message)
        refused = await anyio.to_thread.run_sync(self._registry.invoke, name, arguments)
        raise MCPToolError(refused.get("error") or f"{name}: refused")


def build_server(
    registry: Registry,
    name: str = "stageclaw",
    *,
    budget: StepBudget | None = None,
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO",
    instructions: str = INSTRUCTIONS,
) -> MCPServer:
    server = _AuditedServer(registry, budget, name, instructions=instructions, log_level=log_level)
    for tool in registry.tools.values():
        server.add_tool(_handler(registry, tool, budget), name=tool.name, description=tool.description)
    return server


@contextmanager
def serve_http(
    registry: Registry, *, budget: StepBudget | None = None, routes: Sequence[BaseRoute] = ()
) -> Iterator[str]:
    """Serve the registry's tools over streamable HTTP on a free loopback port, from a background thread.

    Yields the endpoint URL, `http://127.0.0.1:PORT/TOKEN/mcp`. `routes` (a page for a person, say) are
    served beside it, under `/TOKEN/`. On exit the server stops, waits for calls in flight (so nothing
    touches the world after its caller moves on) and closes its port; the thread is joined.
    """
    # A random path keeps one episode's agent off another episode's tools when episodes run side by side.
    token = secrets.token_urlsafe(12)
    path = f"/{token}/mcp"
    # Inside the harness, the SDK's INFO lines (one per failed call) would only clutter the run's output.
    server = build_server(registry, budget=budget, log_level="WARNING")
    app = server.streamable_http_app(streamable_http_path=path)
    if routes:
        app.router.routes.append(Mount(f"/{token}", routes=list(routes)))
    # IPPROTO_TCP, not the default 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every call on a kept-alive connection waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # log_config=None: the harness's logging setup is not uvicorn's to change. The graceful timeout bounds
    # the wait for connections a killed agent left open; calls in flight still finish (they run in threads).
    config = uvicorn.Config(
        app, log_config=None, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2
    )
    http = uvicorn.Server(config)
    thread = threading.Thread(target=http.run, kwargs={"sockets": [sock]}, name=f"mcp-http-{port}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not http.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise ServiceError(f"the MCP HTTP server on 127.0.0.1:{port} did not start")
            time.sleep(0.002)
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        http.should_exit = True
        thread.join()
        sock.close()
