"""A size cap on every tool result, whatever the tool: an agent's context is finite, and a 2 MB
listing would fill it (and the audit log) with one call.

A result over the cap keeps its shape: the part that makes it large (a long list, or a long text
such as a message body) is cut, and a `truncated` note says what was cut and how to ask for less.
Tools cut their own results tighter where they know better (files_read, terminal_run); this is the
backstop for the rest.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

CAP_BYTES = 256 * 1024  # of the result as JSON text
NOTE_BYTES = 1024  # kept free for the note
PAGING = ("limit", "offset", "cursor", "page", "start_line", "max_results")  # arguments that ask for less

Path = list[str | int]


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _name(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "result"


def _largest(result: dict[str, Any]) -> Path | None:
    """Where to cut: a text, or a list whose size is spread over its items (else the item that dominates it)."""
    value: Any = result
    path: Path = []
    while True:
        if isinstance(value, str):
            return path
        if isinstance(value, dict):
            children: list[tuple[str | int, Any]] = list(value.items())
        elif isinstance(value, list):
            children = list(enumerate(value))
        else:
            return None
        if not children:
            return None
        key, child = max(children, key=lambda kv: _size(kv[1]))
        if isinstance(value, list) and _size(child) * 2 < _size(value):
            return path
        value, path = child, [*path, key]


def _get(value: Any, path: Path) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(result: dict[str, Any], path: Path, new: Any) -> None:
    _get(result, path[:-1])[path[-1]] = new


def _fit(value: str | list[Any], budget: int) -> str | list[Any]:
    """The longest prefix of `value` whose JSON takes at most `budget` bytes."""
    low, high = 0, len(value)
    while low < high:
        mid = (low + high + 1) // 2
        if _size(value[:mid]) <= budget:
            low = mid
        else:
            high = mid - 1
    return value[:low]


def cap(result: dict[str, Any], arguments: Iterable[str] = (), limit: int = CAP_BYTES) -> dict[str, Any]:
    """`result` itself when its JSON fits in `limit` bytes, else a cut copy with a `truncated` note.

    `arguments` are the tool's argument names: those that page or narrow (`limit`, `cursor`, ...) are
    named in the note.
    """
    if _size(result) <= limit:
        return result
    out = copy.deepcopy(result)
    cuts = []
    for _ in range(8):  # each round cuts the largest part left; a few rounds always suffice
        excess = _size(out) + NOTE_BYTES - limit
        path = _largest(out) if excess > 0 else None
        if path is None or not path:
            break
        whole = _get(out, path)
        part = _fit(whole, _size(whole) - excess)
        _set(out, path, part)
        unit = "characters" if isinstance(whole, str) else "items"
        cuts.append(f"{_name(path)} shows the first {len(part)} of {len(whole)} {unit}")
    paging = [a for a in arguments if a in PAGING]
    ask = f"use {' / '.join(paging)} to get the rest" if paging else "narrow the request to get the rest"
    out["truncated"] = f"this result was cut to {limit // 1024} KiB: {'; '.join(cuts)}; {ask}"
    return out
