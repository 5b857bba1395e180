"""What a reference solution changed, as one unit per item: the raw material of mutants.

Some changes are by-products of the tools rather than what the task asks for: reading a
message marks it `\\Seen`, replying marks it `\\Answered`, sending files a copy in `Sent`,
saving an event with guests makes the user its organizer and mails them the calendar's invitation
(a message whose `invitation` is set: its content follows the event, which is judged itself), and
opening a mail's attachment saves it to the files first (a new file byte for byte an attachment of
the inbox, where the task allows new files anywhere with `+files/**` and nothing narrower). A
near-miss built by reverting such a change is an equally correct end state, so these are set aside
(`tolerated`) unless the task's `allow` names the item itself (the organizer and the invitations
always: the agent does not choose them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from stageclaw.grade.collateral import allowed
from stageclaw.validate import paths
from stageclaw.world.diff import Change, containers, diff

# Fields that change together: reverting or nudging one of them alone gives an impossible item
# (an end before its start, a completion time on an open to-do, a size that is not the file's).
COUPLED = ({"start", "end"}, {"completed", "completed_at"}, {"sha256", "size", "text"})
_GLOB = re.compile(r"[*?\[]")
# What orders the items a solution created: their keys are minted by the tools on each run (a
# Message-ID, an event's uid), so ordering by key would give a different mutant set every time.
_CONTENT = ("subject", "summary", "title", "name", "to", "cc", "attendees", "start", "due", "body", "description")


@dataclass
class Unit:
    op: str  # added | removed | modified
    container: str
    key: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    fields: list[str] = field(default_factory=list)  # modified fields
    copies: list[str] = field(default_factory=list)  # containers holding a copy that changes alongside

    @property
    def path(self) -> str:
        return f"{self.container}/{self.key}"

    @property
    def app(self) -> str:
        return paths.app_of(self.container)

    def groups(self) -> list[list[str]]:
        """The modified fields, coupled fields together, in field order."""
        out: list[list[str]] = []
        for name in self.fields:
            if any(name in g for g in out):
                continue
            group = next((g for g in COUPLED if name in g), {name})
            out.append([f for f in self.fields if f in group])
        return out


def names_item(pattern: str, change: Change) -> bool:
    """The pattern allows `change` and spells out the item (no glob before any `#field`)."""
    body = pattern[1:] if pattern[:1] in "+-~" else pattern
    return allowed(change, [pattern]) and not _GLOB.search(body.split("#", 1)[0])


def _incidental(change: Change, allow: list[str]) -> bool:
    if change["path"].startswith("calendar/") and change["path"].endswith("#organizer"):
        return True  # filled in by the calendar when the user invites guests to an event without one
    if not change["path"].startswith("mail/folders/") or not change["path"].endswith("#flags"):
        return False
    return not any(names_item(p, change) for p in allow)


@dataclass
class Units:
    units: list[Unit]
    tolerated: list[Change]


def _attachments(s0: dict[str, Any]) -> set[str]:
    """The sha256 of every attachment of a message in `s0`."""
    folders = (s0.get("mail") or {}).get("folders") or {}
    return {a.get("sha256") for box in folders.values() for m in box for a in m.get("attachments") or []} - {None}


def _saved_attachment(unit: Unit, saved: set[str], allow: list[str]) -> bool:
    """A file the agent saved from a mail to read it, where the task lets new files be anywhere."""
    if unit.op != "added" or unit.app != "files" or (unit.after or {}).get("sha256") not in saved:
        return False
    change = {"op": "added", "path": unit.path}
    return "+files/**" in allow and not any(allowed(change, [p]) for p in allow if p != "+files/**")


def units(s0: dict[str, Any], sH: dict[str, Any], allow: list[str], replies: frozenset[str] = frozenset()) -> Units:
    """The changes from s0 to sH grouped by item; tool by-products and the world's automatic `replies` (their
    message ids: what the world answered, not what the agent wrote) set aside."""
    known = set(containers(s0)) | set(containers(sH))
    by_item: dict[str, Unit] = {}
    tolerated: list[Change] = []
    for change in diff(s0, sH):
        item_path = change["path"].split("#", 1)[0]
        where = paths.split(known, item_path)
        if where is None:  # a whole folder or calendar: its items are units of their own
            continue
        if _incidental(change, allow):
            tolerated.append(change)
            continue
        container, key = where
        unit = by_item.get(item_path)
        if unit is None:
            unit = Unit(change["op"], container, key, paths.get(s0, container, key), paths.get(sH, container, key))
            by_item[item_path] = unit
        if change["op"] == "modified":
            unit.fields.append(change["path"].split("#", 1)[1])
    # An item stored twice under one id (a copied message) cannot be addressed on its own: skip it.
    out = [
        u
        for u in by_item.values()
        if (u.before is not None or u.op == "added") and (u.after is not None or u.op == "removed")
    ]
    sent = {u.key: u for u in out if u.op == "added" and u.container == "mail/outbox"}
    saved = _attachments(s0)
    kept = []
    for unit in out:
        if _saved_attachment(unit, saved, allow):
            tolerated.append({"op": unit.op, "path": unit.path})
            continue
        invitation = unit.app == "mail" and (unit.after or unit.before or {}).get("invitation")
        if invitation and not any(names_item(p, {"op": unit.op, "path": unit.path}) for p in allow):
            tolerated.append({"op": unit.op, "path": unit.path})
            continue
        if unit.app == "mail" and unit.op == "added" and unit.key in replies:
            tolerated.append({"op": unit.op, "path": unit.path})
            continue
        original = sent.get(unit.key)
        if original is not None and unit is not original and unit.op == "added" and unit.app == "mail":
            original.copies.append(unit.container)  # the Sent copy of a sent message
            tolerated.append({"op": "added", "path": unit.path})
            continue
        kept.append(unit)
    invited = {id(u) for u in kept if u.container == "mail/outbox" and (u.after or {}).get("invitation")}
    tolerated += [{"op": u.op, "path": u.path} for u in kept if id(u) in invited]
    kept = sorted((u for u in kept if id(u) not in invited), key=_order)
    return Units(kept, tolerated)


def _order(unit: Unit) -> tuple[str, str, str]:
    """Items of the world by container and key; created items after them, by what they say."""
    if unit.op != "added":
        return unit.container, "", unit.key
    item = unit.after or {}
    return unit.container, json.dumps([item.get(k) for k in _CONTENT], default=str), unit.key
