"""Radicale's file storage with each collection's items remembered between requests.

This module runs inside the Radicale process, which loads it as its storage backend
(`[storage] type = stageclaw.radicale_storage`, Radicale's documented plugin interface); it lives
outside `stageclaw.world` so that loading it does not import the rest of stageclaw there.

Radicale answers every calendar query, listing or sync by reading all items of the collection:
for each item file a stat, an open, a hash of its bytes and an unpickled cache entry, about 0.1 ms.
For a calendar of 2,000 events that is 200 ms per request, whatever the request asks. Here an item
is read that way once; afterwards one stat per file (inode, size, modification and change times,
the test Radicale's own `use_mtime_and_size_for_item_cache` makes with less) shows it unchanged,
and every write through Radicale forgets the collection's items outright. Items whose recurrences
a filter had to expand keep their parsed form, so the next query does not parse them again.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from radicale import item as radicale_item
from radicale import pathutils
from radicale.item import filter as radicale_filter
from radicale.storage import multifilesystem

MAX_COLLECTIONS = 64  # remembered at once; the least recently read are forgotten first

Stamp = tuple[int, int, int, int]
_memo: OrderedDict[str, dict[str, tuple[Stamp, radicale_item.Item]]] = OrderedDict()
_lock = threading.Lock()


def _items_of(path: str) -> dict[str, tuple[Stamp, radicale_item.Item]]:
    with _lock:
        found = _memo.get(path)
        if found is None:
            found = _memo[path] = {}
            while len(_memo) > MAX_COLLECTIONS:
                _memo.popitem(last=False)
        else:
            _memo.move_to_end(path)
        return found


def forget(*paths: str) -> None:
    """Drop what is remembered of the collections at these filesystem paths (and below them)."""
    with _lock:
        for path in paths:
            for known in [p for p in _memo if p == path or p.startswith(path.rstrip(os.sep) + os.sep)]:
                del _memo[known]


class Collection(multifilesystem.Collection):
    def get_all(self) -> Iterator[radicale_item.Item]:
        known = _items_of(self._filesystem_path)
        present = set()
        with os.scandir(self._filesystem_path) as entries:
            for entry in entries:
                name = entry.name
                if name.startswith(".Radicale") or not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
                stamp = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
                hit = known.get(name)
                if hit is None or hit[0] != stamp:
                    if not pathutils.is_safe_filesystem_path_component(name):
                        continue
                    if not pathutils.file_check_size(entry.path, self._storage._max_resource_size):
                        continue
                    item = self._get(name, verify_href=False)
                    if item is None:
                        continue
                    hit = known[name] = (stamp, item)
                present.add(name)
                yield hit[1]
        for gone in set(known) - present:
            known.pop(gone, None)

    def get_filtered(self, filters: Iterable[Any]) -> Iterator[tuple[radicale_item.Item, bool]]:
        """Items whose kept time range meets the query's; True where that alone decides the match.

        What Radicale's own version does, without formatting a trace message for every item.
        """
        if not self.tag:
            return
        tag, start, end, simple = radicale_filter.simplify_prefilters(filters, self.tag)
        for item in self.get_all():
            if tag is not None and tag != item.component_name:
                continue
            item_start, item_end = item.time_range
            if item_start >= end or item_end <= start:
                continue
            yield item, simple and (start <= item_start or item_end <= end)

    def upload(self, href: str, item: radicale_item.Item) -> Any:
        forget(self._filesystem_path)
        try:
            return super().upload(href, item)
        finally:
            forget(self._filesystem_path)

    def delete(self, href: str | None = None) -> None:
        forget(self._filesystem_path)
        try:
            super().delete(href)
        finally:
            forget(self._filesystem_path)


class Storage(multifilesystem.Storage):
    _collection_class = Collection

    def move(self, item: radicale_item.Item, to_collection: Any, to_href: str) -> None:
        paths = [item.collection._filesystem_path, to_collection._filesystem_path]  # type: ignore[union-attr]
        forget(*paths)
        try:
            super().move(item, to_collection, to_href)
        finally:
            forget(*paths)

    def create_collection(self, href: str, items: Any = None, props: Any = None) -> Any:
        created = super().create_collection(href, items, props)
        forget(created[0]._filesystem_path)
        return created
