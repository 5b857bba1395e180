"""hidden_dependency: a fact the task needs lives in another app than the one the task is about.

The family decides which fact moves (a time zone, a deadline rule, a price cap) and where to;
this module records it. The solution reads that app and changes nothing there, which is how
stage 2 detects the operator.
"""

from __future__ import annotations

from stageclaw.author.draft import TaskDraft

NAME = "hidden_dependency"


def move_fact(draft: TaskDraft, *, fact: str, item: str, instead_of: str) -> None:
    """`fact` is only in `item` (a diff path), not in `instead_of`, where one would first look."""
    draft.record(NAME, {"facts": [{"fact": fact, "item": item, "not_in": instead_of}], "apps": [item.split("/")[0]]})
