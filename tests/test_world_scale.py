"""Worlds at scale: a ~500-object world from the volume generator round-trips through the servers,
and the shortcuts that keep large worlds fast (Radicale's item cache written at seeding, the storage
backend that remembers items, the primed parse caches) change no answer."""

from __future__ import annotations

import pickle
import random
import shutil
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import vobject
from radicale import item as radicale_item
from radicale import storage as radicale_storage

from stageclaw.author.content.people import People
from stageclaw.author.content.timeline import at
from stageclaw.author.content.volume import Life, Scale
from stageclaw.author.draft import TaskDraft
from stageclaw.tools.registry import Registry
from stageclaw.world import davstore, dumps, normalize, radicale_cache, state
from stageclaw.world.model import World, parse_world


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[World, Path]:
    """About 500 objects of one user's life, its assets under a folder of their own."""
    rng = random.Random("scale-test")
    people = People(rng)
    me = people.person("de", org=people.company("de"), title="Product Manager")
    now = at(date(2026, 3, 24), 9, 0, me.tz)  # the clock changes five days later
    user = {"name": me.name, "email": me.email}
    draft = TaskDraft(id="big", title="big", group="planning", now=now.isoformat(), timezone=me.tz, user=user)
    Life(draft, rng, people, me, now, months=6).fill(replace(Scale.of(480), notes=10, reminders=10))
    base = tmp_path_factory.mktemp("big")
    for rel, data in draft.assets.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_bytes(data)
    return parse_world(draft.world()), base


def _size(world: World) -> int:
    return (
        sum(map(len, world.mail.folders.values()))
        + sum(map(len, world.calendar.values()))
        + sum(map(len, world.reminders.values()))
        + sum(map(len, world.notes.values()))
        + len(world.contacts)
        + len(world.files)
    )


def test_a_large_world_round_trips_through_the_servers(pool, big):
    world, base = big
    assert _size(world) >= 480
    assert any(e.exdates for events in world.calendar.values() for e in events)
    with pool.episode(world, base) as episode:
        state.clear_caches()  # every stored item is parsed, not taken from what seeding primed
        assert dumps(episode.snapshot()) == dumps(normalize(world, base))


def _their_entry(data: bytes) -> tuple[Any, ...]:
    """What Radicale itself keeps for an item file: uid, object name, component, time range."""
    vobject_item = vobject.readOne(data.decode())
    tag = radicale_item.find_tag(vobject_item)
    uid = radicale_item.get_uid_from_object(vobject_item)
    return (uid, vobject_item.name, tag, *radicale_item.find_time_range(vobject_item, tag))


def test_the_seeded_radicale_cache_is_what_radicale_computes(pool, big):
    world, base = big
    with pool.episode(world, base) as episode:
        checked = 0
        for coll in davstore.read_user(pool.radicale.storage, episode.login):
            folder = davstore.user_root(pool.radicale.storage, episode.login) / coll.dirname
            for name, data in coll.items:
                key, uid, _etag, text, obj, tag, start, end = pickle.loads(
                    folder.joinpath(*radicale_cache.FOLDER, name).read_bytes()
                )
                assert (uid, obj, tag, start, end) == _their_entry(data), name
                assert text.encode() == data  # the item is served as it was written
                import hashlib

                assert key == hashlib.sha256(radicale_storage.CACHE_VERSION + data).hexdigest()
                checked += 1
        assert checked >= _size(world) - sum(map(len, world.mail.folders.values())) - len(world.files)


def _answers(registry: Registry) -> dict[str, Any]:
    year = registry.episode.world.now.year
    out = {
        "march": registry.call("calendar_list_events", {"start": f"{year}-03-01", "end": f"{year}-04-30"}),
        "year": registry.call("calendar_list_events", {"start": f"{year}-01-01", "end": f"{year}-12-31"}),
        "reminders": registry.call("reminders_list", {"include_completed": True}),
        "notes": registry.call("notes_list", {}),
        "contacts": registry.call("contacts_search", {"query": ""}),
    }
    return out


def test_the_shortcuts_change_no_answer(pool, big):
    world, base = big
    with pool.episode(world, base) as fast, pool.episode(world, base) as plain:
        # `plain` has no seeded cache entries: Radicale reads and parses every item itself.
        root = davstore.user_root(pool.radicale.storage, plain.login)
        for cache in root.glob("*/.Radicale.cache"):
            shutil.rmtree(cache)
        with Registry(fast) as a, Registry(plain) as b:
            assert _answers(a) == _answers(b)
            # A write through the server is seen at once by the next read (the backend forgets what it knew).
            event = a.call(
                "calendar_list_events", {"start": f"{world.now.year}-03-01", "end": f"{world.now.year}-04-30"}
            )
            uid = event["events"][0]["uid"]
            a.call("calendar_update_event", {"uid": uid, "summary": "Renamed by the test"})
            again = a.call(
                "calendar_list_events", {"start": f"{world.now.year}-03-01", "end": f"{world.now.year}-04-30"}
            )
            assert next(e for e in again["events"] if e["uid"] == uid)["summary"] == "Renamed by the test"
            assert a.call("calendar_get_event", {"uid": uid})["summary"] == "Renamed by the test"


def _radicale(storage: Path, users: Path, backend: str) -> Any:
    """A Radicale application in this process, on `storage`, with the given storage backend."""
    import radicale
    from radicale import config

    cfg = config.load([])
    auth = {"type": "htpasswd", "htpasswd_filename": str(users), "htpasswd_encryption": "plain", "delay": "0"}
    cfg.update(
        {
            "auth": auth,
            "storage": {"type": backend, "filesystem_folder": str(storage)},
            "rights": {"type": "owner_only"},
        },
        "test",
        privileged=True,
    )
    return radicale.Application(cfg)


def _report(app: Any, path: str, component: str, start: datetime, end: datetime) -> list[str]:
    import base64
    import io
    import xml.etree.ElementTree as ET

    body = (
        '<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        '<D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR">'
        f'<C:comp-filter name="{component}"><C:time-range start="{start:%Y%m%dT%H%M%SZ}" end="{end:%Y%m%dT%H%M%SZ}"/>'
        "</C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"
    ).encode()
    environ = {
        "REQUEST_METHOD": "REPORT",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "HTTP_DEPTH": "1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(body),
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/xml",
        "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"u:p").decode(),
        "wsgi.url_scheme": "http",
        "SERVER_NAME": "x",
        "SERVER_PORT": "1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.errors": io.StringIO(),
    }
    answer = b"".join(app(environ, lambda status, headers: None))
    return sorted(e.text or "" for e in ET.fromstring(answer).iter("{DAV:}href"))


def test_the_storage_backend_answers_time_range_queries_as_radicale_does(big, tmp_path):
    from datetime import UTC

    from stageclaw.world import seeding

    world, _ = big
    storage, users = tmp_path / "storage", tmp_path / "users"
    users.write_text("u:p\n")
    davstore.write_user(storage, "u", seeding.dav_collections(world))
    stock = _radicale(storage, users, "multifilesystem")
    ours = _radicale(storage, users, "stageclaw.radicale_storage")
    rng = random.Random(3)
    now = world.now.astimezone(UTC)
    for coll in davstore.read_user(storage, "u"):
        component = coll.components[0] if coll.components else ""
        if coll.props.get("tag") != davstore.CALDAV_TAG:
            continue
        for _ in range(12):
            start = now + timedelta(hours=rng.randint(-24 * 200, 24 * 200))
            end = start + timedelta(hours=rng.choice((1, 8, 24, 24 * 7, 24 * 90)))
            path = f"/u/{coll.dirname}/"
            assert _report(ours, path, component, start, end) == _report(stock, path, component, start, end)
