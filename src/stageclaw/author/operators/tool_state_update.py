"""tool_state_update: the goal needs persistent writes.

The family says which changes the task calls for; they become the rubric's `[changes] allow`
(everything else is collateral damage) and the evidence lists them.
"""

from __future__ import annotations

from stageclaw.author.draft import TaskDraft

NAME = "tool_state_update"


def require(draft: TaskDraft, writes: list[str], *allow: str) -> None:
    """`writes` in words ("move the event"), `allow` as change patterns."""
    draft.permit(*allow)
    draft.record(NAME, {"writes": writes, "allow": list(allow)})
