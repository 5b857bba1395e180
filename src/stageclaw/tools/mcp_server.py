"""The registry's tools over MCP, with the official SDK's `MCPServer` (stdio or streamable HTTP).

Each tool keeps the name, description and JSON Schema it has in the registry; a call goes
through `Registry.call`, so it is validated, may meet a fault, and lands in the audit log.
A failed call is an MCP error result (`is_error`) carrying the message meant for the agent.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as MCPToolError
from pydantic import Field

from stageclaw.tools.base import Tool, ToolError
from stageclaw.tools.registry import Registry

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


def _handler(registry: Registry, tool: Tool) -> Any:
    async def handler(**kwargs: Any) -> dict[str, Any]:
        try:
            # Tools block on network and disk; run them off the event loop, one at a time.
            return await anyio.to_thread.run_sync(registry.call, tool.name, kwargs)
        except ToolError as exc:
            raise MCPToolError(exc.message) from None

    handler.__name__ = tool.name
    handler.__doc__ = tool.description
    handler.__signature__ = _signature(tool)  # type: ignore[attr-defined]
    return handler


def build_server(registry: Registry, name: str = "stageclaw") -> MCPServer:
    server = MCPServer(name, instructions=INSTRUCTIONS)
    for tool in registry.tools.values():
        server.add_tool(_handler(registry, tool), name=tool.name, description=tool.description)
    return server
