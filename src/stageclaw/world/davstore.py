"""Radicale's filesystem storage, written and read directly under Radicale's own lock.

A user's collections live in `collection-root/<user>/<collection>/`, each with a
`.Radicale.props` JSON file and one `.ics`/`.vcf` file per item. Writing these files while
holding `.Radicale.lock` exclusively is what Radicale itself does, so the running server sees
a seeded world at once, without a restart and without hundreds of PUT round trips.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from stageclaw.world import radicale_cache

CARDDAV_TAG = "VADDRESSBOOK"
CALDAV_TAG = "VCALENDAR"
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,120}$")


@dataclass
class Collection:
    dirname: str
    tag: str
    displayname: str
    components: tuple[str, ...] = ()
    items: dict[str, bytes] = field(default_factory=dict)
    cache: dict[str, bytes] = field(default_factory=dict)  # Radicale's item cache entries (`radicale_cache`)

    def props(self) -> dict[str, str]:
        props = {"tag": self.tag, "D:displayname": self.displayname}
        if self.components:
            props["C:supported-calendar-component-set"] = ",".join(self.components)
        return props


@contextlib.contextmanager
def storage_lock(storage: Path, exclusive: bool) -> Iterator[None]:
    storage.mkdir(parents=True, exist_ok=True)
    with open(storage / ".Radicale.lock", "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def user_root(storage: Path, user: str) -> Path:
    return storage / "collection-root" / user


def item_filename(uid: str, suffix: str) -> str:
    """The resource name for an item: its uid when that is a safe file name."""
    return f"{uid}{suffix}" if _SAFE_NAME.match(uid) else f"{hashlib.sha256(uid.encode()).hexdigest()[:32]}{suffix}"


def write_user(storage: Path, user: str, collections: list[Collection]) -> None:
    """Replace everything `user` has with `collections`."""
    root = user_root(storage, user)
    with storage_lock(storage, exclusive=True):
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        for coll in collections:
            path = root / coll.dirname
            path.mkdir()
            (path / ".Radicale.props").write_text(json.dumps(coll.props(), sort_keys=True), encoding="utf-8")
            _write_all(str(path), coll.items)
            if coll.cache:
                cache = path.joinpath(*radicale_cache.FOLDER)
                cache.mkdir(parents=True)
                _write_all(str(cache), coll.cache)


def _write_all(folder: str, files: dict[str, bytes]) -> None:
    # Thousands of files per world: plain paths, not pathlib objects (a third of the time otherwise).
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as fh:
            fh.write(data)


def remove_user(storage: Path, user: str) -> None:
    with storage_lock(storage, exclusive=True):
        shutil.rmtree(user_root(storage, user), ignore_errors=True)


@dataclass
class StoredCollection:
    dirname: str
    props: dict[str, str]
    items: list[tuple[str, bytes]]

    @property
    def components(self) -> list[str]:
        raw = self.props.get("C:supported-calendar-component-set", "")
        return [c for c in raw.split(",") if c]

    @property
    def name(self) -> str:
        return self.props.get("D:displayname") or self.dirname


def read_user(storage: Path, user: str) -> list[StoredCollection]:
    """Every collection of `user` with its raw items, read under a shared lock."""
    root = user_root(storage, user)
    out = []
    with storage_lock(storage, exclusive=False):
        if not root.is_dir():
            return []
        for entry in sorted(os.scandir(root), key=lambda e: e.name):
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            try:
                props = json.loads(Path(entry.path, ".Radicale.props").read_text(encoding="utf-8"))
            except FileNotFoundError:
                props = {}
            items = []
            for item in sorted(os.scandir(entry.path), key=lambda e: e.name):
                if item.name.startswith(".") or not item.is_file():
                    continue
                with open(item.path, "rb") as fh:
                    items.append((item.name, fh.read()))
            out.append(StoredCollection(entry.name, props, items))
    return out
