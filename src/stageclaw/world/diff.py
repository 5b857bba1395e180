"""The diff of two State JSONs, with paths `APP/CONTAINER/ID[#FIELD]` (contract).

Items are keyed by `uid`, `message_id`, file path or, in a web app's table (`web/APP/TABLE`),
`id`. A container (mail folder, calendar, list, web app table) that appears or disappears is a
change of its own, besides the items in it.
"""

from __future__ import annotations

from typing import Any

Change = dict[str, Any]
FIXED_CONTAINERS = ("mail/outbox", "contacts", "files")


def _keyed(items: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        base = str(item.get(key))
        name, n = base, 2
        while name in out:  # the same id twice (a copied message): keep both, distinguishable
            name, n = f"{base}~{n}", n + 1
        out[name] = item
    return out


def containers(state: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """Every container of a state by its path, each a dict of its items by id."""
    mail = state.get("mail", {})
    out = {f"mail/folders/{name}": _keyed(msgs, "message_id") for name, msgs in mail.get("folders", {}).items()}
    out["mail/outbox"] = _keyed(mail.get("outbox", []), "message_id")
    for app in ("calendar", "reminders", "notes"):
        out.update({f"{app}/{name}": _keyed(items, "uid") for name, items in state.get(app, {}).items()})
    out["contacts"] = _keyed(state.get("contacts", []), "uid")
    out["files"] = dict(state.get("files", {}))
    for app, tables in state.get("web", {}).items():
        out.update({f"web/{app}/{table}": _keyed(items, "id") for table, items in tables.items()})
    return out


def diff(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """What changed from `before` to `after`, in path order."""
    old, new = containers(before), containers(after)
    changes: list[Change] = []
    for cpath in sorted(old.keys() | new.keys()):
        a, b = old.get(cpath), new.get(cpath)
        if a is None:
            changes.append({"op": "added", "path": cpath})
        elif b is None:
            changes.append({"op": "removed", "path": cpath})
        a, b = a or {}, b or {}
        for key in sorted(a.keys() | b.keys()):
            path = f"{cpath}/{key}"
            if key not in a:
                changes.append({"op": "added", "path": path, "after": b[key]})
            elif key not in b:
                changes.append({"op": "removed", "path": path, "before": a[key]})
            elif a[key] != b[key]:
                for field in sorted(a[key].keys() | b[key].keys()):
                    if a[key].get(field) != b[key].get(field):
                        changes.append(
                            {
                                "op": "modified",
                                "path": f"{path}#{field}",
                                "before": a[key].get(field),
                                "after": b[key].get(field),
                            }
                        )
    return changes
