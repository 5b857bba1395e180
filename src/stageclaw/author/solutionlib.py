"""Small helpers reference solutions share; bundled into each solution.py that uses them."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def fill_form(tools: Any, page: dict[str, Any], values: dict[str, str]) -> None:
    """Type or choose each value into the page's form field of that name (`{n: input name=amount ...}`)."""
    for name, value in values.items():
        found = re.search(rf"\{{(\d+): (\w+)(?: type=\w+)? name={re.escape(name)} ", page["text"])
        assert found, f"the page {page['url']} has no field {name}"
        if found.group(2) == "select":
            tools.browser_select(ref=int(found.group(1)), option=value)
        else:
            tools.browser_fill(ref=int(found.group(1)), value=value)


def pages(call: Any, **query: Any) -> list[dict[str, Any]]:
    """Every result of a listing tool, page by page: `call` returns {KEY: [...], "next_cursor": ...}."""
    return every(call, None, **query)


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def busy_times(events: list[dict[str, Any]]) -> list[tuple[datetime, datetime]]:
    """The (start, end) of each timed occurrence in a `calendar_list_events` result: a series counts at each
    of its `occurrences` in the range, not at its first start; cancelled and all-day events take no time."""
    out = []
    for event in events:
        if event["all_day"] or event["status"] == "CANCELLED":
            continue
        start, end = datetime.fromisoformat(event["start"]), datetime.fromisoformat(event["end"])
        for at in event.get("occurrences") or [event["start"]]:
            begins = datetime.fromisoformat(at)
            out.append((begins, begins + (end - start)))
    return out


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead
