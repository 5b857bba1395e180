"""The agent's clock."""

from __future__ import annotations

from typing import Any

from stageclaw.tools.base import ToolContext, tool


@tool("clock", returns="{now, timezone}")
def now(ctx: ToolContext) -> dict[str, Any]:
    """The current date and time for the user, with their timezone. Changes nothing."""
    return {"now": ctx.now().isoformat(), "timezone": ctx.episode.world.timezone}
