"""The State JSON (contract): from a world.yaml (`normalize`) and from the live stores (`read`).

Both paths produce items through the same per-app functions, so
`read(build(world)) == normalize(world)` is a real round trip through the servers' storage.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
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


class ParseCache:
    """Parsed items by their exact stored bytes, as JSON text (so no caller can alter a cached value).

    Snapshots parse every stored item, yet between two snapshots almost none change. Seeding
    primes the cache with each item's state as `normalize` computes it from the seed, so even the
    first snapshot of a world parses nothing it wrote itself; that both agree is the round trip
    `read(build(world)) == normalize(world)`, which the tests check with the caches cleared.
    """

    def __init__(self, parse: Callable[..., Any], size: int = 65536, lines: bool = False) -> None:
        self._parse = parse
        self._size = size
        self._lines = lines
        self._items: dict[Any, str] = {}
        self._lock = threading.Lock()

    def _key(self, data: bytes, *rest: Any) -> tuple[Any, ...]:
        # iCalendar and vCard read the same with LF or CRLF line ends, and a client receives the
        # stored text with LFs (XML parsers normalize line ends): one key for both.
        return (data.replace(b"\r\n", b"\n") if self._lines else data, *rest)

    def get(self, data: bytes, *rest: Any) -> Any:
        key = self._key(data, *rest)
        text = self._items.get(key)
        if text is None:
            text = json.dumps(self._parse(*key))
            self._put(key, text)
        return json.loads(text)

    def prime(self, value: Any, data: bytes, *rest: Any) -> None:
        self._put(self._key(data, *rest), json.dumps(value))

    def _put(self, key: tuple[Any, ...], text: str) -> None:
        with self._lock:
            self._items[key] = text
            while len(self._items) > self._size:
                del self._items[next(iter(self._items))]  # the oldest

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


MESSAGES = ParseCache(lambda data, tz: mime.message_state(data, [], tz))
CALENDAR_OBJECTS = ParseCache(ical.items, lines=True)
CARDS = ParseCache(vcard.cards_state, lines=True)


def calendar_object(data: bytes, tz: ZoneInfo) -> list[tuple[str, dict[str, Any]]]:
    """(component name, State JSON item) of each master component of one `.ics` resource."""
    return [(name, item) for name, item in CALENDAR_OBJECTS.get(data, tz)]


def cards(data: bytes) -> list[dict[str, Any]]:
    """The State JSON contacts of one `.vcf` resource."""
    return list(CARDS.get(data))


def clear_caches() -> None:
    """Forget every parsed item (a cold start, for benchmarks and round-trip tests)."""
    for cache in (MESSAGES, CALENDAR_OBJECTS, CARDS):
        cache.clear()
    canonical.clear_caches()


def message(data: bytes, flags: list[str], tz: ZoneInfo) -> dict[str, Any]:
    return {**MESSAGES.get(data, tz), "flags": canonical.flags(flags)}


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
                out["contacts"].extend(cards(data))
            continue
        if coll.props.get("tag") != davstore.CALDAV_TAG:
            continue
        declared = [c for c in coll.components if c in ical.KIND_OF_COMPONENT]
        for comp_name in declared[:1] or ["VEVENT"]:
            out[ical.KIND_OF_COMPONENT[comp_name]].setdefault(coll.name, [])
        for _, data in coll.items:
            for comp_name, item in calendar_object(data, tz):
                out[ical.KIND_OF_COMPONENT[comp_name]].setdefault(coll.name, []).append(item)
    for kind in ("calendar", "reminders", "notes"):
        out[kind] = {name: _by("uid", items) for name, items in sorted(out[kind].items())}
    out["contacts"] = _by("uid", out["contacts"])
    return out


def dumps(state: State) -> str:
    """The canonical serialization: two equal states give byte-identical text."""
    return json.dumps(state, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
