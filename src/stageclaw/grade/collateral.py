"""Default-deny: every change between s0 and sH must be allowed by a `[changes] allow` pattern.

A pattern is a glob over diff paths where `*` matches within one path segment and `**` across
segments; a leading `+`, `-` or `~` restricts it to added, removed or modified changes. A
pattern naming an item (no `#field`) also covers changes of that item's fields.
"""

from __future__ import annotations

import re
from functools import lru_cache

from stageclaw.world.diff import Change

OPS = {"+": "added", "-": "removed", "~": "modified"}


@lru_cache(maxsize=4096)
def _compile(pattern: str) -> tuple[str | None, re.Pattern[str]]:
    op = OPS.get(pattern[:1])
    body = pattern[1:] if op else pattern
    out = []
    i = 0
    while i < len(body):
        if body.startswith("**", i):
            out.append(".*")
            i += 2
        elif body[i] == "*":
            out.append("[^/]*")
            i += 1
        elif body[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(body[i]))
            i += 1
    return op, re.compile("".join(out) + r"(#[^#/]*)?")


def allowed(change: Change, patterns: list[str]) -> bool:
    for pattern in patterns:
        op, rx = _compile(pattern)
        if (op is None or op == change["op"]) and rx.fullmatch(change["path"]):
            return True
    return False


def collateral(changes: list[Change], patterns: list[str]) -> list[Change]:
    """The changes no pattern allows."""
    return [c for c in changes if not allowed(c, patterns)]
