"""Turn a world.yaml into the files each store keeps: Maildir messages, Radicale collections, web app databases."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from stageclaw.world import davstore, ical, maildir, mime, vcard
from stageclaw.world.model import World
from stageclaw.world.web import data as web_data

CONTACTS_COLLECTION = "contacts"


def mail_folders(world: World, base: Path) -> dict[str, list[maildir.SeedMessage]]:
    tz = world.tz
    return {
        folder: [
            maildir.SeedMessage(
                data=mime.seed_message_bytes(msg, tz, base),
                flags=tuple(msg.flags),
                received=(msg.date if msg.date.tzinfo else msg.date.replace(tzinfo=tz)).timestamp(),
            )
            for msg in messages
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
                    items={davstore.item_filename(item.uid, ".ics"): ical.to_ical(item, tz) for item in items},
                )
            )
    out.append(
        davstore.Collection(
            dirname=CONTACTS_COLLECTION,
            tag=davstore.CARDDAV_TAG,
            displayname="Contacts",
            items={davstore.item_filename(c.uid, ".vcf"): vcard.to_vcard(c) for c in world.contacts},
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
    result = Rendered(mail=mail_folders(world, base), dav=dav_collections(world), web=web_data.render(world))
    with _lock:
        _rendered[key] = (world, result)
        while len(_rendered) > CACHE_SIZE:
            _rendered.popitem(last=False)
    return result
