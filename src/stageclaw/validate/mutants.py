"""Near-miss end states, derived from the reference solution's final state sH.

Each mutant is sH with one plausible mistake, the kind an agent makes:

- `revert`: one change the task calls for is missing (an item not created, not deleted, a
  field left as it was);
- `nudge`: a changed value is slightly wrong (a time off by an hour, a day or the time-zone
  offset; another recipient from the same world or a typo; another file with a similar name;
  a reminder ticked off; a digit of a number the rubric states changed);
- `distractor`: the change went to the look-alike item instead of the target;
- `duplicate`: a copy was created instead of updating, or the item was created twice;
- `container`: the item ended up in another calendar, list or folder;
- `extra`: one more change the task did not call for (an unrelated item deleted).

A verifier should reject every one of them. Text is only nudged on numbers that a rubric item
depending on that change states (found by which items fail when the change is reverted), so a
reworded but correct message is never taken for a mistake.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import zip_longest
from pathlib import PurePosixPath
from typing import Any
from zoneinfo import ZoneInfo

from stageclaw.grade.collateral import allowed
from stageclaw.validate import nudges, paths
from stageclaw.validate.changes import Unit, units
from stageclaw.validate.similar import label, similarity
from stageclaw.world.canonical import bare_address
from stageclaw.world.workspace import file_state

REVERT, NUDGE, DISTRACTOR, DUPLICATE, CONTAINER, EXTRA = (
    "revert",
    "nudge",
    "distractor",
    "duplicate",
    "container",
    "extra",
)
TIME_FIELDS = ("start", "end", "due", "birthday")
ADDRESS_LISTS = ("to", "cc", "attendees", "emails")
TEXT_FIELDS = ("summary", "title", "subject", "body", "notes", "description", "location", "name", "organization")
MAX_PER_FIELD = 6


@dataclass
class Mutant:
    id: str
    operator: str
    target: str
    description: str
    state: dict[str, Any] = field(repr=False)


Draft = tuple[str, str, str, dict[str, Any]]  # operator, target path, description, state


def _fingerprint(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


def _named(unit: Unit) -> str:
    shown = label(unit.key, unit.after or unit.before or {})
    return unit.path if shown == unit.key else f"{unit.path} ({shown[:60]!r})"


def _fresh_key(container: str, key: str) -> str:
    if paths.key_field(container) == "message_id":
        local, _, host = key.strip("<>").partition("@")
        return f"<{local}.dup@{host or 'dup'}>"
    if container == "files":
        p = PurePosixPath(key)
        return str(p.with_name(f"{p.stem} (2){p.suffix}"))
    return f"{key}-dup"


def _authored(unit: Unit) -> bool:
    """Whether an agent writes this item's content: not a message in a folder (moved or delivered
    as it is; only the outbox holds what the agent wrote)."""
    return unit.app != "mail" or unit.container == "mail/outbox"


def _interleave(groups: list[list[Draft]]) -> list[Draft]:
    return [d for row in zip_longest(*groups) for d in row if d is not None]


class MutantMaker:
    """Mutants of one solved task: `structural()` first, then `textual()` once the reverts are graded."""

    def __init__(
        self,
        s0: dict[str, Any],
        sH: dict[str, Any],
        allow: list[str],
        tz: ZoneInfo,
        now: str,
        user: str,
    ) -> None:
        self.s0, self.sH, self.allow, self.tz, self.now = s0, sH, allow, tz, now
        found = units(s0, sH, allow)
        self.units, self.tolerated = found.units, found.tolerated
        self.book = nudges.address_book(s0, user)
        self.files = nudges.files_pool(s0)
        self._base = json.dumps(sH)
        self._seen = {_fingerprint(sH)}
        self._count = 0

    def _copy(self) -> dict[str, Any]:
        return json.loads(self._base)

    def _with(self, unit: Unit, values: dict[str, Any]) -> dict[str, Any]:
        """sH with fields of the unit's item (and of its copies) set to `values`."""
        state = self._copy()
        for container in [unit.container, *unit.copies]:
            item = paths.get(state, container, unit.key)
            if item is not None:
                item.update(values)
        return state

    def _finish(self, drafts: list[Draft], limit: int) -> list[Mutant]:
        out = []
        for operator, target, description, state in drafts:
            if len(out) >= limit:
                break
            mark = _fingerprint(state)
            if mark in self._seen:
                continue
            self._seen.add(mark)
            self._count += 1
            out.append(Mutant(f"m{self._count:02d}", operator, target, description, state))
        return out

    # -- phase 1 ---------------------------------------------------------------------------

    def structural(self, limit: int) -> list[Mutant]:
        reverts = [d for u in self.units for d in self._reverts(u)]
        confusions = _interleave(
            [[*self._distractors(u), *self._duplicates(u), *self._containers(u)] for u in self.units]
        )
        nudged = _interleave([list(self._nudges(u)) for u in self.units])
        return self._finish([*reverts, *confusions, *self._extra(), *nudged], limit)

    def _reverts(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "added":
            state = self._copy()
            for container in [unit.container, *unit.copies]:
                paths.remove(state, container, unit.key)
            yield REVERT, unit.path, f"{_named(unit)} was not created", state
        elif unit.op == "removed":
            state = self._copy()
            paths.put(state, unit.container, unit.key, copy.deepcopy(unit.before))
            yield REVERT, unit.path, f"{_named(unit)} was not removed", state
        else:
            groups = unit.groups()
            for group in groups if len(groups) > 1 else []:
                values = {f: (unit.before or {}).get(f) for f in group}
                yield REVERT, unit.path, f"{unit.path}#{','.join(group)} left as it was", self._with(unit, values)
            values = {f: (unit.before or {}).get(f) for f in unit.fields}
            yield REVERT, unit.path, f"{_named(unit)} left as it was", self._with(unit, values)

    def _look_alike(self, unit: Unit, fits: Callable[[dict[str, Any]], bool]) -> tuple[str, str, dict[str, Any]] | None:
        """The untouched item of the same app most like the target, among those `fits` accepts."""
        touched = {u.path for u in self.units}
        target = unit.before or unit.after or {}
        best = None
        for container, key, item in paths.items(self.sH):
            if paths.app_of(container) != unit.app or f"{container}/{key}" in touched or not fits(item):
                continue
            if target.get("all_day") is not None and item.get("all_day") != target.get("all_day"):
                continue
            score = similarity(unit.key, target, key, item)
            if best is None or score > best[0]:
                best = (score, container, key, item)
        return None if best is None else best[1:]

    def _distractors(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "modified":
            new = {f: (unit.after or {}).get(f) for f in unit.fields}
            leading = [group[0] for group in unit.groups()]  # a to-do already done cannot be ticked off by mistake
            other = self._look_alike(unit, lambda item: all(item.get(f) != new[f] for f in leading))
            if other is None:
                return
            container, key, _ = other
            state = self._with(unit, {f: (unit.before or {}).get(f) for f in unit.fields})
            paths.get(state, container, key).update(new)  # type: ignore[union-attr]
            yield DISTRACTOR, unit.path, f"the change meant for {_named(unit)} made to {container}/{key} instead", state
        elif unit.op == "removed":
            other = self._look_alike(unit, lambda item: True)
            if other is None:
                return
            container, key, item = other
            state = self._copy()
            paths.put(state, unit.container, unit.key, copy.deepcopy(unit.before))
            paths.remove(state, container, key)
            shown = label(key, item)
            yield DISTRACTOR, unit.path, f"{container}/{key} ({shown[:60]!r}) removed instead of {_named(unit)}", state

    def _duplicates(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "removed" or unit.after is None or not _authored(unit):
            return
        fresh = _fresh_key(unit.container, unit.key)
        if unit.op == "added":
            state, where = self._copy(), [unit.container, *unit.copies]
        else:
            state, where = self._with(unit, {f: (unit.before or {}).get(f) for f in unit.fields}), [unit.container]
        for container in where:
            item = copy.deepcopy(paths.get(self.sH, container, unit.key))
            if item is None:
                continue
            name = paths.key_field(container)
            if name is not None:
                item[name] = fresh
            paths.put(state, container, fresh, item)
        what = "created twice" if unit.op == "added" else "copied with the changes instead of being updated"
        yield DUPLICATE, unit.path, f"{_named(unit)} {what}", state

    def _containers(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "removed" or unit.app not in paths.LIST_APPS:
            return
        others = [c for c in paths.container_names(self.sH, unit.app) if c != unit.container]
        if not others:
            return
        state = self._copy()
        paths.remove(state, unit.container, unit.key)
        paths.put(state, others[0], unit.key, copy.deepcopy(unit.after))  # type: ignore[arg-type]
        yield CONTAINER, unit.path, f"{_named(unit)} ended up in {others[0]} instead of {unit.container}", state

    def _extra(self) -> Iterator[Draft]:
        if not self.units:
            return
        touched = {u.path for u in self.units} | {c["path"].split("#", 1)[0] for c in self.tolerated}
        best = None
        for container, key, item in paths.items(self.sH):
            path = f"{container}/{key}"
            if path in touched or paths.get(self.s0, container, key) != item:
                continue
            if allowed({"op": "removed", "path": path}, self.allow):
                continue
            score = max(similarity(u.key, u.after or u.before or {}, key, item) for u in self.units)
            if best is None or score > best[0]:
                best = (score, container, key, item)
        if best is not None:
            _, container, key, item = best
            state = self._copy()
            paths.remove(state, container, key)
            shown = label(key, item)
            yield EXTRA, f"{container}/{key}", f"also removed {container}/{key} ({shown[:60]!r}), not called for", state

    def _fields(self, unit: Unit) -> list[str]:
        item = unit.after or {}
        if unit.op == "modified":
            return unit.fields
        return [f for f, v in item.items() if v not in (None, "", [])]

    def _nudges(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "removed" or unit.after is None or not _authored(unit):
            return
        fields = self._fields(unit)
        yield from self._time_nudges(unit, fields)
        yield from self._address_nudges(unit, fields)
        yield from self._value_nudges(unit, fields)

    def _time_nudges(self, unit: Unit, fields: list[str]) -> Iterator[Draft]:
        item = unit.after or {}
        times = [f for f in TIME_FIELDS if f in fields and isinstance(item.get(f), str)]
        if unit.app == "calendar" and {"start", "end"} <= set(times):
            times = [f for f in times if f not in ("start", "end")]
            for how, delta in nudges.time_shifts(item["start"], self.tz):
                start, end = (nudges.shifted(item[f], delta, self.tz) for f in ("start", "end"))
                if start and end:
                    values = {"start": start, "end": end}
                    yield NUDGE, unit.path, f"{unit.path} moved {how} (starts {start})", self._with(unit, values)
            step, unit_name = (
                (timedelta(days=1), "a day") if len(item["end"]) == 10 else (timedelta(hours=1), "an hour")
            )
            for how, delta in (("longer", step), ("shorter", -step)):
                end = nudges.shifted(item["end"], delta, self.tz)
                if end and end > item["start"]:
                    what = f"{unit.path} lasts {unit_name} {how} (ends {end})"
                    yield NUDGE, unit.path, what, self._with(unit, {"end": end})
        for name in times:
            for how, delta in nudges.time_shifts(item[name], self.tz):
                value = nudges.shifted(item[name], delta, self.tz)
                if value:
                    yield NUDGE, unit.path, f"{unit.path}#{name} {how} ({value})", self._with(unit, {name: value})

    def _address_nudges(self, unit: Unit, fields: list[str]) -> Iterator[Draft]:
        item, before = unit.after or {}, unit.before or {}
        for name in ADDRESS_LISTS:
            entries = item.get(name)
            if name not in fields or not isinstance(entries, list):
                continue
            old = {bare_address(e) for e in before.get(name) or []}
            for entry in [e for e in entries if bare_address(e) not in old][:2]:
                wrong = [*nudges.alternatives(entry, self.book), nudges.typo(entry)]
                for alt in [w for w in wrong if w]:
                    values = {name: [nudges.with_address(e, alt) if e == entry else e for e in entries]}
                    shown = bare_address(alt)
                    yield (
                        NUDGE,
                        unit.path,
                        f"{unit.path}#{name}: {shown} instead of {bare_address(entry)}",
                        self._with(unit, values),
                    )
            if name == "emails" and before.get(name) and entries and bare_address(entries[0]) not in old:
                primary = before[name][0]
                values = {name: [primary, *[e for e in entries if bare_address(e) != bare_address(primary)]]}
                yield (
                    NUDGE,
                    unit.path,
                    f"{unit.path}#emails: the old {primary} kept as the primary address",
                    self._with(unit, values),
                )
        to = item.get("to")
        if unit.app == "mail" and "to" in fields and to:
            for alt in nudges.alternatives(to[0], self.book, limit=1):
                values = {"cc": [*(item.get("cc") or []), alt]}
                yield NUDGE, unit.path, f"{unit.path}: {bare_address(alt)} copied in as well", self._with(unit, values)

    def _value_nudges(self, unit: Unit, fields: list[str]) -> Iterator[Draft]:
        item, before = unit.after or {}, unit.before or {}
        if "phones" in fields:
            phones = item.get("phones") or []
            for phone in [p for p in phones if p not in (before.get("phones") or [])][:2]:
                wrong = nudges.bump_last_digit(phone)
                values = {"phones": [wrong if p == phone else p for p in phones]}
                yield NUDGE, unit.path, f"{unit.path}#phones: {wrong} instead of {phone}", self._with(unit, values)
        attachments = item.get("attachments") or []
        if "attachments" in fields and attachments:
            for n, att in enumerate(attachments[:2]):
                for other in nudges.other_files(att, self.files):
                    values = {"attachments": [other if i == n else a for i, a in enumerate(attachments)]}
                    what = f"{other['filename']} ({str(other['sha256'])[:8]}) attached instead of {att['filename']}"
                    yield NUDGE, unit.path, f"{unit.path}: {what}", self._with(unit, values)
            values = {"attachments": attachments[1:]}
            yield NUDGE, unit.path, f"{unit.path}: {attachments[0]['filename']} not attached", self._with(unit, values)
            for other in nudges.other_files(attachments[0], self.files, limit=1):
                values = {"attachments": [*attachments, other]}
                what = f"{other['filename']} ({str(other['sha256'])[:8]}) attached as well"
                yield NUDGE, unit.path, f"{unit.path}: {what}", self._with(unit, values)
        if unit.app == "reminders" and isinstance(item.get("completed"), bool):
            flipped = not item["completed"]
            if "completed" not in unit.fields:  # flipping a completion the solution made is a revert
                values = {"completed": flipped, "completed_at": self.now if flipped else None}
                how = "ticked off" if flipped else "left open"
                yield NUDGE, unit.path, f"{_named(unit)} {how}", self._with(unit, values)

    # -- phase 2 ---------------------------------------------------------------------------

    def textual(self, stated_by: dict[str, list[str]], limit: int) -> list[Mutant]:
        """Digit nudges of text, on the numbers the rubric items depending on each change state."""
        drafts: list[list[Draft]] = []
        for unit in self.units:
            descriptions = stated_by.get(unit.path)
            if not descriptions or unit.after is None:
                continue
            stated = nudges.stated_numbers(descriptions)
            mine: list[Draft] = []
            for name in [f for f in self._fields(unit) if f in (*TEXT_FIELDS, "text")]:
                text = unit.after.get(name)
                if not isinstance(text, str):
                    continue
                for start, end, token in nudges.numbers_to_nudge(text, stated)[:MAX_PER_FIELD]:
                    wrong = nudges.bump_last_digit(token) or token
                    new = text[:start] + wrong + text[end:]
                    values = {**file_state(new.encode()), "text": new} if name == "text" else {name: new}
                    around = " ".join(text[max(0, start - 30) : end + 30].split())
                    what = f"{unit.path}#{name}: {token} changed to {wrong} in '…{around}…'"
                    mine.append((NUDGE, unit.path, what, self._with(unit, values)))
            drafts.append(mine)
        return self._finish(_interleave(drafts), limit)
