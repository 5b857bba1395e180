"""Turn a world.yaml into the files each store keeps: Maildir messages, Radicale collections (with
Radicale's item cache), web app databases. Each item's State JSON, computed from its seed, primes the
snapshot's parse caches: a world's first snapshot parses only what changed since it was built."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar
from zoneinfo import ZoneInfo

from stageclaw.errors import WorldError
from stageclaw.world import davstore, ical, maildir, mime, radicale_cache, state, vcard
from stageclaw.world.model import EventSeed, NoteSeed, TodoSeed, World
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
    """Every folder's messages as Maildir files; each message's State JSON primes the snapshot's cache."""
    tz = world.tz
    out = {}
    for folder, messages in world.mail.folders.items():
        out[folder] = []
        for i, msg in enumerate(messages):
            data = _rendering(f"mail.folders.{folder}[{i}]", lambda msg=msg: mime.seed_message_bytes(msg, tz, base))
            state.MESSAGES.prime({**mime.message_state_from_seed(msg, tz, base), "flags": []}, data, tz)
            received = (msg.date if msg.date.tzinfo else msg.date.replace(tzinfo=tz)).timestamp()
            out[folder].append(maildir.SeedMessage(data=data, flags=tuple(msg.flags), received=received))
    return out


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


def _calendar_items(
    kind: str, where: str, items: list[EventSeed] | list[TodoSeed] | list[NoteSeed], tz: ZoneInfo, stamp: datetime
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The `.ics` files of a collection and Radicale's cache entries for them."""
    component = ical.COMPONENT_OF_KIND[kind]
    state_of = {"calendar": ical.event_state, "reminders": ical.todo_state, "notes": ical.note_state}[kind]
    files, seeds = {}, []
    for i, item in enumerate(items):
        data = _rendering(f"{kind}.{where}[{i}]", lambda item=item: ical.to_ical(item, tz, stamp))
        state.CALENDAR_OBJECTS.prime([(component, state_of(item, tz))], data, tz)  # type: ignore[arg-type]
        name = davstore.item_filename(item.uid, ".ics")
        files[name] = data
        seeds.append((name, item, data))
    return files, radicale_cache.entries(seeds, tz)


def dav_collections(world: World) -> list[davstore.Collection]:
    tz = world.tz
    taken = {CONTACTS_COLLECTION}
    out = []
    for kind, groups in (("calendar", world.calendar), ("reminders", world.reminders), ("notes", world.notes)):
        for name, items in groups.items():
            files, cache = _calendar_items(kind, name, items, tz, world.now)
            out.append(
                davstore.Collection(
                    dirname=collection_dirname(kind, name, taken),
                    tag=davstore.CALDAV_TAG,
                    displayname=name,
                    components=(ical.COMPONENT_OF_KIND[kind],),
                    items=files,
                    cache=cache,
                )
            )
    cards, seeds = {}, []
    for i, contact in enumerate(world.contacts):
        data = _rendering(f"contacts[{i}]", lambda contact=contact: vcard.to_vcard(contact))
        state.CARDS.prime([vcard.contact_state(contact)], data)
        name = davstore.item_filename(contact.uid, ".vcf")
        cards[name] = data
        seeds.append((name, contact, data))
    out.append(
        davstore.Collection(
            dirname=CONTACTS_COLLECTION,
            tag=davstore.CARDDAV_TAG,
            displayname="Contacts",
            items=cards,
            cache=radicale_cache.entries(seeds, tz),
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
