"""Items of a State JSON addressed like the diff addresses them: a container path and a key.

Containers are `mail/folders/NAME`, `mail/outbox`, `calendar/NAME`, `reminders/NAME`,
`notes/NAME`, `contacts`, `files` and `web/APP/TABLE`; keys are `message_id`, `uid`, the file
path or (web) `id`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from stageclaw.world.diff import containers

Item = dict[str, Any]
LIST_APPS = ("calendar", "reminders", "notes")


def key_field(container: str) -> str | None:
    """The field that keys the items of a container (None: files are keyed by path)."""
    if container.startswith("mail/"):
        return "message_id"
    if container.startswith("web/"):
        return "id"
    return None if container == "files" else "uid"


def app_of(container: str) -> str:
    return container.split("/", 1)[0]


def split(state_paths: set[str], path: str) -> tuple[str, str] | None:
    """`calendar/Work/evt-1` -> (`calendar/Work`, `evt-1`), by the longest container that prefixes it."""
    best = max((c for c in state_paths if path.startswith(c + "/")), key=len, default=None)
    return None if best is None else (best, path[len(best) + 1 :])


def items(state: dict[str, Any]) -> Iterator[tuple[str, str, Item]]:
    """Every item of a state as (container, key, item)."""
    for container, keyed in containers(state).items():
        for key, item in keyed.items():
            yield container, key, item


def container_names(state: dict[str, Any], app: str) -> list[str]:
    """The containers of one app, as paths."""
    return sorted(c for c in containers(state) if app_of(c) == app and c not in ("mail/outbox",))


def _slot(state: dict[str, Any], container: str, create: bool = False) -> Any:
    """The list (or, for files, the dict) that holds a container's items."""
    parts = container.split("/")
    if container in ("contacts", "files"):
        return state.setdefault(container, [] if container == "contacts" else {})
    if container == "mail/outbox":
        return state.setdefault("mail", {}).setdefault("outbox", [])
    if parts[0] == "mail":
        folders = state.setdefault("mail", {}).setdefault("folders", {})
        name = "/".join(parts[2:])
        return folders.setdefault(name, []) if create else folders.get(name)
    if parts[0] == "web":
        if create:
            return state.setdefault("web", {}).setdefault(parts[1], {}).setdefault(parts[2], [])
        return state.get("web", {}).get(parts[1], {}).get(parts[2])
    groups = state.setdefault(parts[0], {})
    name = "/".join(parts[1:])
    return groups.setdefault(name, []) if create else groups.get(name)


def get(state: dict[str, Any], container: str, key: str) -> Item | None:
    slot = _slot(state, container)
    if slot is None:
        return None
    if isinstance(slot, dict):
        return slot.get(key)
    field = key_field(container)
    return next((i for i in slot if str(i.get(field)) == key), None)


def remove(state: dict[str, Any], container: str, key: str) -> None:
    slot = _slot(state, container)
    if isinstance(slot, dict):
        slot.pop(key, None)
    elif slot is not None:
        field = key_field(container)
        slot[:] = [i for i in slot if str(i.get(field)) != key]


def put(state: dict[str, Any], container: str, key: str, item: Item) -> None:
    """Add or replace an item, keeping the container in State JSON order."""
    slot = _slot(state, container, create=True)
    if isinstance(slot, dict):
        slot[key] = item
        state["files"] = dict(sorted(slot.items()))
        return
    field = key_field(container)
    for n, existing in enumerate(slot):
        if str(existing.get(field)) == key:
            slot[n] = item
            return
    slot.append(item)
    if container != "mail/outbox":  # the outbox is in sending order
        slot.sort(key=lambda i: str(i.get(field)))
