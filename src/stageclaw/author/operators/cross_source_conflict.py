"""cross_source_conflict: two sources disagree, and the task says or implies which one wins.

A later message withdraws an earlier proposal, a corrected document replaces a void one, a
second notice changes an amount. The evidence names both sources, the winner and the rule; the
checks expect the winner's facts, so an agent that trusts the wrong source fails.
"""

from __future__ import annotations

from stageclaw.author.draft import TaskDraft

NAME = "cross_source_conflict"

WITHDRAW = (
    "Sorry for the back and forth: please ignore my earlier suggestion.",
    "Scratch what I wrote before, that slot doesn't work after all.",
    "Apologies for the confusion, my earlier proposal no longer works.",
)


def supersede(draft: TaskDraft, *, loser: str, winner: str, rule: str, stated: bool) -> None:
    """Record that `winner` overrides `loser` (diff paths), because of `rule`; `stated` when a source says so."""
    draft.record(
        NAME,
        {"sources": [loser, winner], "winner": winner, "rule": rule, "precedence": "stated" if stated else "implied"},
    )
