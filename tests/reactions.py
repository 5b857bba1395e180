"""What the families' automatic replies ask of a grade, checked on a solved task's end state: the mail counts
once it reaches the address the reply names (a forward of the user's own mail says what it forwards), and
never while it reached only the address that answered."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from stageclaw.author.draft import TaskDraft

Failed = Callable[[dict[str, Any]], set[str]]


def _to(state: dict[str, Any], address: str) -> dict[str, Any]:
    return next(m for m in state["mail"]["outbox"] if any(address in a for a in m["to"]))


def redirect_is_graded(
    draft: TaskDraft, end: dict[str, Any], failed: Failed, says: bool = True, item_id: str | None = None
) -> None:
    """`says`: the check reads what the message says (not only what it carries). `item_id`: which of several
    checks with `tried` to look at."""
    [reply] = draft.autoreplies
    [item] = [c for c in draft.checks if c.args.get("tried") and item_id in (None, c.id)]
    to = item.args["to"]
    # a check of several recipients (sent_once): the one the reply names
    instead = to if isinstance(to, str) else next(a for a in to if a in reply["body"])
    tried = item.args["tried"]
    # a mapping (sent_each): the address that answered -> the one its reply names
    answered = next(a for a, named in tried.items() if named == instead) if isinstance(tried, dict) else tried[0]
    assert reply["address"] == answered != instead and instead in reply["body"]
    assert reply["message_id"] in {m["message_id"] for m in end["mail"]["folders"]["INBOX"]}
    assert not failed(end)
    # A forward of the first mail, whose own note says nothing: what it forwards of the user's mail says it.
    quiet = copy.deepcopy(end)
    first, forward = _to(quiet, answered), _to(quiet, instead)
    quoted = [f"From: {first['from']}", "Date: Mon, 1 Jun 2026 09:00:00 +0000", f"Subject: {first['subject']}"]
    quoted += [f"To: {answered}", "", *first["body"].splitlines()]
    forward["subject"] = "Fwd: as you asked"
    forward["body"] = "See below.\n\n---------- Forwarded message ----------\n" + "\n".join(f"> {x}" for x in quoted)
    assert item.id not in failed(quiet)
    # Someone else's mail, forwarded, says nothing for the user.
    theirs = copy.deepcopy(quiet)
    forward = _to(theirs, instead)
    forward["body"] = re.sub(r"> From: .*", "> From: Someone Else <someone@example.org>", forward["body"])
    assert (item.id in failed(theirs)) is says
    # Only the first mail, to the address that answered: it never reached anyone who deals with it.
    first_only = copy.deepcopy(end)
    first_only["mail"]["outbox"] = [m for m in first_only["mail"]["outbox"] if instead not in str(m["to"])]
    assert item.id in failed(first_only)
    # Straight to the named address, with the one that answered in copy, is as good.
    both = copy.deepcopy(first_only)
    first = _to(both, answered)
    first["to"], first["cc"] = [instead], [answered]
    assert item.id not in failed(both)
