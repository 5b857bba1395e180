"""The State JSON (contract): from a world.yaml (`normalize`) and from the live stores (`read`).

Both paths produce items through the same per-app functions, so
`read(build(world)) == normalize(world)` is a real round trip through the servers' storage.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.world import canonical, davstore, ical, maildir, mime, vcard, workspace
from stageclaw.world.model import World
from stageclaw.world.web import data as web_data

State = dict[str, Any]
APPS = ("mail", "calendar", "reminders", "notes", "contacts", "files", "web")


def _by(key: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda item: item[key])


def normalize(world: World, base: Path) -> State:
    """The State JSON that building `world` must produce."""
    tz = world.tz
    folders = {
        name: world.mail.folders.get(name, [])
        for name in dict.fromkeys([*maildir.DEFAULT_FOLDERS, *world.mail.folders])
    }
    return {
        "mail": {
            "folders": {
                name: _by("message_id", [mime.message_state_from_seed(m, tz, base) for m in msgs])
                for name, msgs in sorted(folders.items())
            },
            "outbox": [],
        },
        "calendar": {
            name: _by("uid", [ical.event_state(e, tz) for e in items]) for name, items in sorted(world.calendar.items())
        },
        "reminders": {
            name: _by("uid", [ical.todo_state(t, tz) for t in items]) for name, items in sorted(world.reminders.items())
        },
        "notes": {
            name: _by("uid", [ical.note_state(n, tz) for n in items]) for name, items in sorted(world.notes.items())
        },
        "contacts": _by("uid", [vcard.contact_state(c) for c in world.contacts]),
        "files": {
            path: workspace.file_state(workspace.seed_bytes(spec, base)) for path, spec in sorted(world.files.items())
        },
        "web": web_data.normalize(world),
    }


# Snapshots parse every stored item, yet between two snapshots almost none change. Parsed items
# are cached by their exact bytes (as JSON text, so no caller can alter a cached value).
@functools.lru_cache(maxsize=32768)
def _message_json(data: bytes, tz: ZoneInfo) -> str:
    return json.dumps(mime.message_state(data, [], tz))


@functools.lru_cache(maxsize=32768)
def _calendar_json(data: bytes, tz: ZoneInfo) -> str:
    return json.dumps([(name, ical.component_state(name, comp, tz)) for name, comp in ical.components(data)])


@functools.lru_cache(maxsize=32768)
def _cards_json(data: bytes) -> str:
    return json.dumps(vcard.cards_state(data))


def message(data: bytes, flags: list[str], tz: ZoneInfo) -> dict[str, Any]:
    return {**json.loads(_message_json(data, tz)), "flags": canonical.flags(flags)}


def read_mail(home: Path, outbox: Path, tz: ZoneInfo) -> dict[str, Any]:
    folders = {
        name: _by("message_id", [message(data, flags, tz) for data, flags in maildir.read_folder(home, name)])
        for name in maildir.folder_names(home)
    }
    sent = []
    if outbox.is_dir():
        for name in sorted(n for n in os.listdir(outbox) if n.endswith(".eml")):
            sent.append(message((outbox / name).read_bytes(), [], tz))
    return {"folders": folders, "outbox": sent}


def read_dav(storage: Path, user: str, tz: ZoneInfo) -> dict[str, Any]:
    """calendar, reminders, notes and contacts of one Radicale user."""
    out: dict[str, Any] = {"calendar": {}, "reminders": {}, "notes": {}, "contacts": []}
    for coll in davstore.read_user(storage, user):
        if coll.props.get("tag") == davstore.CARDDAV_TAG:
            for _, data in coll.items:
                out["contacts"].extend(json.loads(_cards_json(data)))
            continue
        if coll.props.get("tag") != davstore.CALDAV_TAG:
            continue
        declared = [c for c in coll.components if c in ical.KIND_OF_COMPONENT]
        for comp_name in declared[:1] or ["VEVENT"]:
            out[ical.KIND_OF_COMPONENT[comp_name]].setdefault(coll.name, [])
        for _, data in coll.items:
            for comp_name, item in json.loads(_calendar_json(data, tz)):
                out[ical.KIND_OF_COMPONENT[comp_name]].setdefault(coll.name, []).append(item)
    for kind in ("calendar", "reminders", "notes"):
        out[kind] = {name: _by("uid", items) for name, items in sorted(out[kind].items())}
    out["contacts"] = _by("uid", out["contacts"])
    return out


def dumps(state: State) -> str:
    """The canonical serialization: two equal states give byte-identical text."""
    return json.dumps(state, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
