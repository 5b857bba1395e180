"""Text from the code (docstrings, help, descriptions) made safe for Markdown pages."""

from __future__ import annotations

import re

_CODE = re.compile(r"(`[^`]*`)")


def text(value: str) -> str:
    """Prose as written, with `<` and `>` outside code spans escaped: `Name <address>` would
    otherwise be read as an HTML tag and vanish from the page."""
    parts = _CODE.split(value)
    return "".join(p if p.startswith("`") else p.replace("<", "&lt;").replace(">", "&gt;") for p in parts)


def cell(value: str) -> str:
    """One table cell: lines joined, pipes escaped, and as `text`."""
    return text(" ".join(value.split())).replace("|", "\\|")
