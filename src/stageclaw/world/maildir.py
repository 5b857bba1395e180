"""A Dovecot Maildir++ account on disk: seeding, local delivery and the canonical read.

Disk is authoritative for mail state: Dovecot keeps flags in file names (`:2,FRS`) and
keywords in `dovecot-keywords`, so a snapshot needs no IMAP session. INBOX is the account
root; folder `A/B` is the directory `.A.B` (names stored as UTF-8).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SYSTEM_LETTERS = {"\\Draft": "D", "\\Flagged": "F", "\\Answered": "R", "\\Seen": "S", "\\Deleted": "T"}
LETTER_FLAGS = {v: k for k, v in SYSTEM_LETTERS.items()}
KEYWORDS_FILE = "dovecot-keywords"
UIDVALIDITY = 1767225600  # fixed, so message ids "FOLDER/UID" are the same in every build
DEFAULT_FOLDERS = ("INBOX", "Sent", "Trash")

_deliveries = itertools.count()


@dataclass(frozen=True)
class Owner:
    """The uid/gid Dovecot's mail processes run as; files we write must belong to it."""

    uid: int
    gid: int

    def apply(self, path: Path | str) -> None:
        if os.geteuid() == 0:
            os.chown(path, self.uid, self.gid)


def folder_dir(home: Path, folder: str) -> Path:
    return home if folder == "INBOX" else home / ("." + folder.replace("/", "."))


def _folder_name(dirname: str) -> str:
    return dirname[1:].replace(".", "/")


def create_folder(home: Path, folder: str, owner: Owner) -> Path:
    path = folder_dir(home, folder)
    for sub in ("", "cur", "new", "tmp"):
        (path / sub).mkdir(exist_ok=True)
        owner.apply(path / sub)
    if folder != "INBOX":
        marker = path / "maildirfolder"
        marker.touch()
        owner.apply(marker)
    return path


def _keyword_letters(path: Path, keywords: Iterable[str], owner: Owner) -> dict[str, str]:
    names = sorted(set(keywords))
    if len(names) > 26:
        raise ValueError(f"{path.name or 'INBOX'}: Maildir holds at most 26 keywords, got {len(names)}")
    if names:
        file = path / KEYWORDS_FILE
        file.write_text("".join(f"{i} {name}\n" for i, name in enumerate(names)), encoding="utf-8")
        owner.apply(file)
    return {name: chr(ord("a") + i) for i, name in enumerate(names)}


def _info(flags: Iterable[str], letters: dict[str, str]) -> str:
    chars = {SYSTEM_LETTERS[f] if f in SYSTEM_LETTERS else letters[f] for f in flags}
    return ":2," + "".join(sorted(chars))


@dataclass(frozen=True)
class SeedMessage:
    data: bytes
    flags: tuple[str, ...]
    received: float  # INTERNALDATE as a Unix time


def seed(home: Path, folders: dict[str, list[SeedMessage]], owner: Owner) -> None:
    """Write a fresh account. Dovecot gives UIDs in file-name time order, so seed order is UID order."""
    home.mkdir(parents=True, exist_ok=True)
    owner.apply(home)
    for folder in dict.fromkeys([*DEFAULT_FOLDERS, *folders]):
        path = create_folder(home, folder, owner)
        messages = folders.get(folder, [])
        letters = _keyword_letters(path, (f for m in messages for f in m.flags if not f.startswith("\\")), owner)
        bases = []
        cur = str(path / "cur")
        for i, msg in enumerate(messages):
            base = f"{1_000_000_000 + i}.M{i}P0.stageclaw,S={len(msg.data)}"
            file = os.path.join(cur, base + _info(msg.flags, letters))
            with open(file, "wb") as fh:
                fh.write(msg.data)
            os.utime(file, (msg.received, msg.received))
            owner.apply(file)
            bases.append(base)
        _write_uidlist(path, folder, bases, owner)


def _write_uidlist(path: Path, folder: str, bases: list[str], owner: Owner) -> None:
    """Fix UIDs (seed order) and UIDVALIDITY before Dovecot first looks.

    Without it Dovecot numbers the seeded files only when a folder is first opened, so a
    message saved into a folder nobody opened yet would take UID 1.
    """
    guid = hashlib.md5(folder.encode()).hexdigest()
    lines = [f"3 V{UIDVALIDITY} N{len(bases) + 1} G{guid}"]
    lines += [f"{uid} :{base}" for uid, base in enumerate(bases, start=1)]
    file = path / "dovecot-uidlist"
    file.write_text("\n".join(lines) + "\n")
    owner.apply(file)


def deliver(home: Path, folder: str, data: bytes, owner: Owner) -> None:
    """Drop a new message into `new/`, as a local delivery agent does."""
    path = folder_dir(home, folder)
    unique = f"{time.time_ns() // 1000}.M{next(_deliveries)}P{os.getpid()}.stageclaw,S={len(data)}"
    tmp = path / "tmp" / unique
    tmp.write_bytes(data)
    owner.apply(tmp)
    os.rename(tmp, path / "new" / unique)


def folder_names(home: Path) -> list[str]:
    if not (home / "cur").is_dir():
        return []
    names = ["INBOX"]
    for entry in os.scandir(home):
        if (
            entry.name.startswith(".")
            and entry.name not in {".", ".."}
            and os.path.isdir(os.path.join(entry.path, "cur"))
        ):
            names.append(_folder_name(entry.name))
    return sorted(names)


def _keywords(path: Path) -> dict[str, str]:
    try:
        lines = (path / KEYWORDS_FILE).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    out = {}
    for line in lines:
        index, _, name = line.partition(" ")
        if index.isdigit() and name and int(index) < 26:
            out[chr(ord("a") + int(index))] = name
    return out


def _flags_of(filename: str, keywords: dict[str, str]) -> list[str]:
    _, sep, info = filename.rpartition(":2,")
    if not sep:
        return []
    return [LETTER_FLAGS.get(c) or keywords.get(c, c) for c in info if c in LETTER_FLAGS or c in keywords]


def read_folder(home: Path, folder: str) -> list[tuple[bytes, list[str]]]:
    """The messages of a folder with their flags; retried if Dovecot renames a file mid-read."""
    path = folder_dir(home, folder)
    for _ in range(5):
        try:
            keywords = _keywords(path)
            out = []
            for sub in ("cur", "new"):
                for entry in sorted(os.scandir(path / sub), key=lambda e: e.name):
                    if entry.name.startswith("."):
                        continue
                    with open(entry.path, "rb") as fh:
                        out.append((fh.read(), _flags_of(entry.name, keywords)))
            return out
        except FileNotFoundError:
            continue
    raise RuntimeError(f"mail folder {folder} kept changing while it was read")
