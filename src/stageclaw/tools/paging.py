"""Paging for every listing and search tool: `limit` and `cursor` in; `total`, `next_cursor` and a note out.

The order is fixed by each tool's sort key, which is unique to an item (a message's date, folder and
UID; an event's start, title and uid). The cursor is keyset-based: it holds the key of the last item
shown, and the next page starts right after that key. An item added or removed meanwhile before
the cursor therefore shifts nothing: every item that stays is returned exactly once, which an
offset could not promise. The cursor also carries a digest of the tool and its other arguments,
so a cursor passed with different filters is refused instead of silently skipping results.

A page stops at `limit` items and, so that no default call floods an agent's context, before its
items pass `BUDGET` characters of JSON (always at least one item). When more remain, the result
says how to get them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Generic, TypeVar

from pydantic import Field

from stageclaw.tools.base import ToolError

T = TypeVar("T")
Key = tuple[Any, ...]  # JSON values (str, int, float, bool, lists of them), compared in order

BUDGET = 32 * 1024
CURSOR = Annotated[
    str | None,
    Field(description="to get the next page: the next_cursor of the previous call, made with the same other arguments"),
]


def limit(default: int, maximum: int) -> Any:
    """The `limit` argument of a tool whose pages hold `default` items unless asked otherwise."""
    return Annotated[
        int | None,
        Field(ge=1, le=maximum, description=f"at most this many results per page (default {default}, max {maximum})"),
    ]


def _digest(tool: str, query: dict[str, Any]) -> str:
    text = json.dumps([tool, query], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _encode(digest: str, key: Key) -> str:
    raw = json.dumps([digest, list(key)], separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


class Pager(Generic[T]):
    """One call's page: `window` picks the items after the cursor, `finish` cuts them to size and says what is left.

    Args:
        tool: the tool's name (part of the cursor's digest).
        query: the call's other arguments; a cursor only works with the same ones.
        limit: the agent's `limit`, or None for `default`.
        cursor: the agent's `cursor`, or None for the first page.
        default: how many items a page holds when the agent gives no limit.
        noun: what the items are, for the note ("messages", "events").
    """

    def __init__(
        self, tool: str, query: dict[str, Any], limit: int | None, cursor: str | None, *, default: int, noun: str
    ) -> None:
        self.tool, self.noun = tool, noun
        self.limit = limit or default
        self.digest = _digest(tool, query)
        self.after = self._decode(cursor) if cursor else None
        self._keys: list[list[Any]] = []
        self._total = 0
        self._before = 0  # items of the order before this page

    def _decode(self, cursor: str) -> list[Any]:
        try:
            digest, key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        except (ValueError, TypeError, binascii.Error):
            raise ToolError(
                f"{self.tool}: bad cursor {cursor[:40]!r}; pass next_cursor exactly as the previous call returned it",
                "invalid_arguments",
            ) from None
        if digest != self.digest or not isinstance(key, list):
            raise ToolError(
                f"{self.tool}: this cursor belongs to a call with other arguments; repeat the arguments of the call"
                " that returned it (only limit may change), or leave cursor out to start again",
                "invalid_arguments",
            )
        return key

    def window(self, items: Sequence[T], key: Callable[[T], Key], *, descending: bool = False) -> list[T]:
        """`items` in key order (or reversed), the ones after the cursor, at most `limit` of them."""
        # Keys go through JSON as the cursor does, so a key from a cursor compares like a fresh one.
        keyed = sorted(
            ((json.loads(json.dumps(list(key(item)))), item) for item in items),
            key=lambda pair: pair[0],
            reverse=descending,
        )
        self._total = len(keyed)
        if self.after is not None:
            after = self.after
            self._before = sum(1 for k, _ in keyed if (k > after if descending else k < after) or k == after)
            keyed = [(k, item) for k, item in keyed if (k < after if descending else k > after)]
        chosen = keyed[: self.limit]
        self._keys = [k for k, _ in chosen]
        self._more = len(keyed) > len(chosen)
        return [item for _, item in chosen]

    def finish(self, shown: list[Any]) -> tuple[list[Any], dict[str, Any]]:
        """The rendered items of the window cut to the size budget, and the paging fields of the result."""
        kept, used = [], 0
        for item in shown:
            used += len(json.dumps(item, ensure_ascii=False, default=str))
            if kept and used > BUDGET:
                break
            kept.append(item)
        more = self._more or len(kept) < len(shown)
        fields: dict[str, Any] = {"total": self._total, "next_cursor": None}
        if more and kept:
            fields["next_cursor"] = _encode(self.digest, tuple(self._keys[len(kept) - 1]))
            first = self._before + 1
            fields["note"] = (
                f"showing {self.noun} {first}-{first + len(kept) - 1} of {self._total}; for the next ones call"
                f" {self.tool} again with the same arguments and cursor={fields['next_cursor']!r}"
            )
        return kept, fields
