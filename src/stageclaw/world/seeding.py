"""Turn a world.yaml into the files each store keeps: Maildir messages, Radicale collections, web app databases."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from stageclaw.errors import WorldError
from stageclaw.world import davstore, ical, maildir, mime, vcard
from stageclaw.world.model import World
from stageclaw.world.web import data as web_data

CONTACTS_COLLECTION = "contacts"
T = TypeVar("T")


def _rendering(where: str, make: Callable[[], T]) -> T:
    """`make()`, with any failure turned into an error naming the seed it came from.

    world.yaml is validated when it loads; this is the net under that validation, so an input it
    let through fails one task with a message, never the run.
    """
    try:
        return make()
    except Exception as exc:
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise WorldError(f"{where}: cannot be written to its store ({reason})") from exc


def mail_folders(world: World, base: Path) -> dict[str, list[maildir.SeedMessage]]:
    tz = world.tz
    return {
        folder: [
            _rendering(
                f"mail.folders.{folder}[{i}]",
                lambda msg=msg: maildir.SeedMessage(
                    data=mime.seed_message_bytes(msg, tz, base),
                    flags=tuple(msg.flags),
                    received=(msg.date if msg.date.tzinfo else msg.date.replace(tzinfo=tz)).timestamp(),
                ),
            )
            for i, msg in enumerate(messages)
        ]
        for folder, messages in world.mail.folders.items()
    }


def collection_dirname(kind: str, name: str, taken: set[str]) -> str:
    """A readable, unique directory name such as `calendar-work`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    candidate = f"{kind}-{slug}" if slug else kind
    n = 2
    unique = candidate
    while unique in taken:
        unique = f"{candidate}-{n}"
        n += 1
    taken.add(unique)
    return unique


def dav_collections(world: World) -> list[davstore.Collection]:
    tz = world.tz
    taken = {CONTACTS_COLLECTION}
    out = []
    for kind, groups in (("calendar", world.calendar), ("reminders", world.reminders), ("notes", world.notes)):
        component = ical.COMPONENT_OF_KIND[kind]
        for name, items in groups.items():
            out.append(
                davstore.Collection(
                    dirname=collection_dirname(kind, name, taken),
                    tag=davstore.CALDAV_TAG,
                    displayname=name,
                    components=(component,),
                    items={
                        davstore.item_filename(item.uid, ".ics"): _rendering(
                            f"{kind}.{name}[{i}]", lambda item=item: ical.to_ical(item, tz)
                        )
                        for i, item in enumerate(items)
                    },
                )
            )
    out.append(
        davstore.Collection(
            dirname=CONTACTS_COLLECTION,
            tag=davstore.CARDDAV_TAG,
            displayname="Contacts",
            items={
                davstore.item_filename(c.uid, ".vcf"): _rendering(f"contacts[{i}]", lambda c=c: vcard.to_vcard(c))
                for i, c in enumerate(world.contacts)
            },
        )
    )
    return out


@dataclass(frozen=True)
class Rendered:
    mail: dict[str, list[maildir.SeedMessage]]
    dav: list[davstore.Collection]
    web: dict[str, bytes]  # each web app's SQLite file


_rendered: OrderedDict[tuple[int, str], tuple[World, Rendered]] = OrderedDict()
_lock = threading.Lock()
CACHE_SIZE = 64


def render(world: World, base: Path) -> Rendered:
    """The store files of a world, rendered once per world object and reused by every episode of it.

    Trials and resets build the same world again and again; rendering (MIME, iCalendar, vCard) is
    most of the cost of a build, and its output depends only on the world and its assets.
    """
    key = (id(world), str(base))
    with _lock:
        hit = _rendered.get(key)
        if hit is not None and hit[0] is world:
            _rendered.move_to_end(key)
            return hit[1]
    web = _rendering("web", lambda: web_data.render(world))
    result = Rendered(mail=mail_folders(world, base), dav=dav_collections(world), web=web)
    with _lock:
        _rendered[key] = (world, result)
        while len(_rendered) > CACHE_SIZE:
            _rendered.popitem(last=False)
    return result
