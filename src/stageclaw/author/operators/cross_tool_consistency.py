"""cross_tool_consistency: the states of several apps must agree.

The family names the apps and the rule (the reminder an hour before the moved meeting; the
attachment is the report just written); the rubric items named in `items` check it.
"""

from __future__ import annotations

from stageclaw.author.draft import TaskDraft

NAME = "cross_tool_consistency"


def agree(draft: TaskDraft, *, apps: list[str], rule: str, items: list[str]) -> None:
    missing = [i for i in items if i not in {c.id for c in draft.checks}]
    if missing:
        raise ValueError(f"rubric items {missing} do not exist yet")
    draft.record(NAME, {"apps": sorted(set(apps)), "rules": [rule], "items": items})
