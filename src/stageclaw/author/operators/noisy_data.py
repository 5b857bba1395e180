"""noisy_data: near-duplicates and irrelevant items around the target.

A twin is added next to an item the solution uses or changes: the same meeting with another
client, last year's statement, a reminder for the other half of a job. Stage 2 detects the
operator by label likeness (`validate.similar`), so a twin that would not be seen as a
look-alike is a family bug and raises here, at generation time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from stageclaw.author.draft import TaskDraft
from stageclaw.validate.similar import NEAR_DUPLICATE, similarity

NAME = "noisy_data"


def _key(path: str) -> str:
    """The item key of a diff path: what stage 2 compares when an item has no label."""
    if path.startswith("files/"):
        return path[len("files/") :]
    return path.rsplit("/", 1)[-1]


def looks_alike(target_path: str, target: dict[str, Any], twin_path: str, item: dict[str, Any]) -> bool:
    """Whether stage 2 will see the two items as near-duplicates."""
    return similarity(_key(target_path), target, _key(twin_path), item) >= NEAR_DUPLICATE


def twin(draft: TaskDraft, target_path: str, target: dict[str, Any], twin_path: str, item: dict[str, Any]) -> None:
    """Record `item` (already in the world) as a look-alike of the target."""
    if not looks_alike(target_path, target, twin_path, item):
        score = similarity(_key(target_path), target, _key(twin_path), item)
        raise ValueError(f"{twin_path} is not a look-alike of {target_path} (similarity {score:.2f})")
    draft.record(NAME, {"look_alikes": [f"{twin_path} ~ {target_path}"]})


def irrelevant(draft: TaskDraft, paths: list[str]) -> None:
    """Record items that have nothing to do with the task but sit where the agent looks."""
    draft.record(NAME, {"irrelevant": paths})


def event_twin(
    draft: TaskDraft,
    calendar: str,
    target_path: str,
    target: dict[str, Any],
    *,
    uid: str,
    summary: str,
    shift: timedelta,
    **fields: Any,
) -> dict[str, Any]:
    """The same kind of event at another time (and, through `fields`, with other people)."""
    start, end = (datetime.fromisoformat(target[k]) + shift for k in ("start", "end"))
    event = {"uid": uid, "summary": summary, "start": start.isoformat(), "end": end.isoformat(), **fields}
    draft.add_event(calendar, event)
    twin(draft, target_path, target, f"calendar/{calendar}/{uid}", event)
    return event
