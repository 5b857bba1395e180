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

import bisect
import math
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
HORIZON = 2 * 366 * 86400  # how far past a query a series' occurrences are listed, in seconds


class _Spans:
    """The (start, end) POSIX times of an item's occurrences, up to a horizon that grows as queries
    reach further, listed by Radicale's own `visit_time_ranges` (EXDATEs and overrides included)."""

    def __init__(self) -> None:
        self.horizon = 0
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.longest = 0

    def meets(self, item: radicale_item.Item, tag: str, start: int, end: int) -> bool:
        """Whether an occurrence overlaps [start, end), as Radicale's time-range test decides it."""
        if end > self.horizon:
            self._list(item, tag, end + HORIZON)
        i = bisect.bisect_left(self.starts, end)
        while i > 0 and self.starts[i - 1] > start - self.longest - 1:
            i -= 1
            if self.ends[i] > start:
                return True
        return False

    def _list(self, item: radicale_item.Item, tag: str, horizon: int) -> None:
        found: list[tuple[int, int]] = []

        def each(begin: Any, finish: Any, is_recurrence: bool) -> bool:
            found.append((math.floor(begin.timestamp()), math.ceil(finish.timestamp())))
            return not is_recurrence and begin.timestamp() > horizon

        radicale_filter.visit_time_ranges(item.vobject_item, tag, each, lambda _start: False)
        found.sort()
        self.starts, self.ends = [a for a, _ in found], [b for _, b in found]
        self.longest = max((b - a for a, b in found), default=0)
        self.horizon = horizon


_memo: OrderedDict[str, dict[str, tuple[Stamp, radicale_item.Item, _Spans]]] = OrderedDict()
_lock = threading.Lock()


def _items_of(path: str) -> dict[str, tuple[Stamp, radicale_item.Item, _Spans]]:
    with _lock:
        found = _memo.get(path)
        if found is None:
            found = _memo[path] = {}
            while len(_memo) > MAX_COLLECTIONS:
                _memo.popitem(last=False)
        else:
            _memo.move_to_end(path)
        return found


def forget(*paths: str, href: str | None = None) -> None:
    """Drop what is remembered of the collections at these filesystem paths (and below them), or only
    of their item `href`."""
    with _lock:
        for path in paths:
            for known in [p for p in _memo if p == path or p.startswith(path.rstrip(os.sep) + os.sep)]:
                if href is None:
                    del _memo[known]
                else:
                    _memo[known].pop(href, None)


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
                    hit = known[name] = (stamp, item, _Spans())
                present.add(name)
                yield hit[1]
        for gone in set(known) - present:
            known.pop(gone, None)

    def get_filtered(self, filters: Iterable[Any]) -> Iterator[tuple[radicale_item.Item, bool]]:
        """Items whose kept time range meets the query's; True where that alone decides the match.

        What Radicale's own version does, without formatting a trace message for every item, and
        with one more shortcut: when the query is only a time range and a series spans it (so its
        enclosing range decides nothing), the series' occurrences decide, found by Radicale's own
        walk through them once (`_Spans`) rather than on every query.
        """
        if not self.tag:
            return
        tag, start, end, simple = radicale_filter.simplify_prefilters(filters, self.tag)
        known = _items_of(self._filesystem_path)
        for item in self.get_all():
            if tag is not None and tag != item.component_name:
                continue
            item_start, item_end = item.time_range
            if item_start >= end or item_end <= start:
                continue
            decided = simple and (start <= item_start or item_end <= end)
            if simple and not decided and tag is not None and item.href in known:
                spans = known[item.href][2]
                if spans.meets(item, tag, start, end):
                    yield item, True
                continue
            yield item, decided

    # A write forgets the item it writes (a whole collection, when it deletes one); the stat of every
    # other file still shows whether it changed.
    def upload(self, href: str, item: radicale_item.Item) -> Any:
        forget(self._filesystem_path, href=href)
        try:
            return super().upload(href, item)
        finally:
            forget(self._filesystem_path, href=href)

    def delete(self, href: str | None = None) -> None:
        forget(self._filesystem_path, href=href)
        try:
            super().delete(href)
        finally:
            forget(self._filesystem_path, href=href)


class Storage(multifilesystem.Storage):
    _collection_class = Collection

    def move(self, item: radicale_item.Item, to_collection: Any, to_href: str) -> None:
        source = item.collection._filesystem_path  # type: ignore[union-attr]
        try:
            super().move(item, to_collection, to_href)
        finally:
            forget(source, href=item.href)
            forget(to_collection._filesystem_path, href=to_href)

    def create_collection(self, href: str, items: Any = None, props: Any = None) -> Any:
        created = super().create_collection(href, items, props)
        forget(created[0]._filesystem_path)
        return created
