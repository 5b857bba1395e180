"""Near-miss end states, made from a solved end state sH and the initial state s0.

Each mutant is sH with one plausible mistake, the kind an agent makes, for every item the
solution changed (`KINDS` says what each kind of mutant is). Every number, date, time, address,
code and phone number of a field the solution wrote is made wrong twice: one unit or one digit
off, and replaced by the value the initial world states in the most similar context; in an
edited text, those on the lines the solution wrote.

On top come the rubric-guided nudges (`textual`): a digit of a number the rubric states, where
the changed text states it.

A verifier should reject every one of them. `coverage` says which changed fields the mutants
touched (changed their value, or for a whole item added or removed, the item): stage 2 requires
every one, so a cap on the number of mutants never leaves a value the solution wrote untested.
The maker is a function of (s0, sH, task): an alternative solution's end state gets its mutants
the same way as the reference solution's.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import zip_longest
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from stageclaw.grade.collateral import allowed
from stageclaw.validate import nudges, paths, values
from stageclaw.validate.changes import Unit, units
from stageclaw.validate.similar import label, similarity
from stageclaw.world.canonical import bare_address, when
from stageclaw.world.diff import diff
from stageclaw.world.web import data as web_data
from stageclaw.world.workspace import file_state

if TYPE_CHECKING:
    from stageclaw.task.loader import Task

REVERT, DROP, DUPLICATE, VALUE, NUDGE, DISTRACTOR, CONTAINER, EXTRA = (
    "revert",
    "drop",
    "duplicate",
    "value",
    "nudge",
    "distractor",
    "container",
    "extra",
)
TIME_FIELDS = ("start", "end", "due", "birthday")
ADDRESS_LISTS = ("to", "cc", "attendees", "emails")
TEXT_FIELDS = ("summary", "title", "subject", "body", "notes", "description", "location", "name", "organization")
# What the tools, not the agent, write into an item it creates: ids, timestamps, the sender, the
# threading header, a file's hash (its text is what was written), the shape of an event; a web
# app's own columns are in its table's `derived`.
STAMPS = {
    "mail": {"message_id", "date", "from", "flags", "in_reply_to"},
    "calendar": {"uid", "organizer", "all_day"},
    "reminders": {"uid", "completed_at"},
    "notes": {"uid"},
    "contacts": {"uid"},
    "files": {"sha256", "size"},
    "web": {"id"},
}
# What a created event, to-do or contact is found by (left empty: a mistake). A subject line and a
# note's title are free wording.
NAME_FIELDS = ("summary", "title", "name")
MAX_PER_FIELD = 24  # values of one field made wrong, first ones first: a cap on a very long text
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?)?")


KINDS = {
    REVERT: "the change is missing: the item not created or not removed, a field (or all) left as it was",
    DROP: "the item the solution updated was deleted instead",
    DUPLICATE: "the item created twice, or copied with the changes instead of being updated",
    VALUE: "a value the solution wrote (number, date, time, address, code, phone) one unit or one digit off, "
    "or replaced by another value the initial world states",
    NUDGE: "a classic slip: off by the time-zone offset, an hour too long, another recipient copied in, a wrong "
    "file attached, a to-do ticked off",
    DISTRACTOR: "the change went to the look-alike item instead of the target",
    CONTAINER: "the item ended up in another calendar, list or folder",
    EXTRA: "one more change the task did not call for (an unrelated item deleted)",
}


@dataclass
class Mutant:
    id: str
    operator: str
    target: str
    description: str
    state: dict[str, Any] = field(repr=False)
    touches: list[str] = field(default_factory=list)  # the changed fields this mutant makes wrong


@dataclass
class Coverage:
    """Which changed fields (`path#field`, or `path` for a whole item) at least one mutant touched."""

    fields: list[str]
    touched: list[str]

    @property
    def missed(self) -> list[str]:
        return [f for f in self.fields if f not in set(self.touched)]

    @property
    def rate(self) -> float | None:
        return round(len(self.touched) / len(self.fields), 4) if self.fields else None

    def to_json(self) -> dict[str, Any]:
        return {"rate": self.rate, "fields": len(self.fields), "touched": len(self.touched), "missed": self.missed}


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


def _stamped(unit: Unit, name: str) -> bool:
    if unit.app == "web":
        _, app, table = unit.container.split("/", 2)
        return name in STAMPS["web"] or name in web_data.derived(app, table)
    return name in STAMPS.get(unit.app, set())


def _iso(value: Any) -> bool:
    """A date or a time as the State JSON writes them."""
    return isinstance(value, str) and bool(_ISO.fullmatch(value))


def _empty(value: Any) -> bool:
    return value in (None, "", [], {}, False)


def _interleave(groups: list[list[Draft]]) -> list[Draft]:
    return [d for row in zip_longest(*groups) for d in row if d is not None]


def _written_lines(before: Any, after: str) -> str:
    """The lines of `after` the solution wrote: all of a new text, the new lines of an edited one.
    Lines kept from the old text are blanked (same length), so positions stay those of `after`."""
    if not isinstance(before, str):
        return after
    old = set(before.splitlines())
    return "".join(line if line.rstrip("\r\n") not in old else _blank(line) for line in after.splitlines(keepends=True))


def _blank(line: str) -> str:
    """Spaces in place of a line's text, its line break kept: a value cannot run into the next line."""
    text = line.rstrip("\r\n")
    return " " * len(text) + line[len(text) :]


def _own_words(text: str) -> str:
    """The text without the lines it quotes (`> ...`): those are not the sender's values."""
    return "".join(_blank(line) if line.lstrip().startswith(">") else line for line in text.splitlines(keepends=True))


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
        replies: frozenset[str] = frozenset(),
        answering: frozenset[str] = frozenset(),
    ) -> None:
        self.s0, self.sH, self.allow, self.tz, self.now, self.user = s0, sH, allow, tz, now, user
        # The addresses that answer automatically: the user wrote there first, so a copy to one is no near miss.
        self.answering = answering
        found = units(s0, sH, allow, replies)
        self.units, self.tolerated = found.units, found.tolerated
        self.book = nudges.address_book(s0, user)
        self.files = nudges.files_pool(s0)
        self.world = values.world_values(self._world_texts())
        self._base = json.dumps(sH)
        self._seen = {_fingerprint(sH)}
        self._count = 0
        self.fields = [f for u in self.units for f in self._targets(u)]

    @classmethod
    def for_task(cls, task: Task, s0: dict[str, Any], sH: dict[str, Any]) -> MutantMaker:
        """The maker for an end state `sH` of `task` reached from `s0` (the reference solution's or
        an alternative's)."""
        world = task.world
        replies = frozenset(r.message_id for r in world.mail.autoreplies)
        answering = frozenset(r.address for r in world.mail.autoreplies)
        now = when(world.now, world.tz) or ""
        return cls(s0, sH, task.rubric.changes.allow, world.tz, now, world.user.email, replies, answering)

    def _world_texts(self) -> Iterator[tuple[str, str]]:
        """Every value of s0 as text, with the item it is in: what a wrong value may be taken from."""
        for container, key, item in paths.items(self.s0):
            for name, value in item.items():
                if isinstance(value, str) and name not in ("message_id", "uid", "id", "sha256"):
                    yield f"{container}/{key}", _own_words(value)
                elif isinstance(value, int | float) and not isinstance(value, bool):
                    yield f"{container}/{key}", f"{name} {value}"

    def _copy(self) -> dict[str, Any]:
        return json.loads(self._base)

    def _with(self, unit: Unit, values_: dict[str, Any]) -> dict[str, Any]:
        """sH with fields of the unit's item (and of its copies) set to `values_`."""
        state = self._copy()
        for container in [unit.container, *unit.copies]:
            item = paths.get(state, container, unit.key)
            if item is not None:
                item.update(values_)
        return state

    # -- coverage ------------------------------------------------------------------------------

    def _targets(self, unit: Unit) -> list[str]:
        """The changed fields of a unit that mutants must touch."""
        if unit.op == "removed" or not _authored(unit):
            return [unit.path]
        if unit.op == "modified":
            return [f"{unit.path}#{name}" for name in unit.fields]
        names = [n for n in self._content(unit) if self._mutable(unit, n)]
        return [f"{unit.path}#{name}" for name in names] or [unit.path]

    def _content(self, unit: Unit) -> list[str]:
        """The fields of a created item the agent wrote."""
        item = unit.after or {}
        key = paths.key_field(unit.container)
        return [n for n, v in item.items() if n != key and not _stamped(unit, n) and not _empty(v)]

    def _mutable(self, unit: Unit, name: str) -> bool:
        """A created item's field holds something a mutant can get wrong: a value (time, number,
        address, file), a name that says what the item is, or a choice among the world's options.
        Free wording without values (a friendly subject line) is left to the rubric's checks, and so are the
        lines a text quotes (a forward's original): no mutant changes those."""
        value = (unit.after or {}).get(name)
        if self._named_by(unit, name) or _iso(value) or name in ("phones", "attachments", *ADDRESS_LISTS):
            return True
        if isinstance(value, str):
            return bool(values.tokens(_own_words(value))) or bool(self._choices(unit, name, value))
        return isinstance(value, int | float) and not isinstance(value, bool)

    def _named_by(self, unit: Unit, name: str) -> bool:
        return name in NAME_FIELDS and unit.app not in ("notes", "mail", "web")

    def touched(self, state: dict[str, Any]) -> list[str]:
        """The changed fields a state makes wrong: fields whose value differs from sH on an item that
        is still there; a whole item added or removed."""
        wanted = set(self.fields)
        return [c["path"] for c in diff(self.sH, state) if c["path"] in wanted]

    def coverage(self, mutants: list[Mutant]) -> Coverage:
        touched = {f for m in mutants for f in m.touches}
        return Coverage(self.fields, [f for f in self.fields if f in touched])

    def _finish(self, drafts: list[Draft], limit: int, covered: set[str] | None = None) -> list[Mutant]:
        """Distinct mutants, at most `limit`: first, for each changed field no mutant touches yet, the
        first draft that touches it; then the rest in order."""
        unique = []
        for draft in drafts:
            mark = _fingerprint(draft[3])
            if mark not in self._seen:
                self._seen.add(mark)
                unique.append((draft, self.touched(draft[3])))
        covered = set(covered or ())
        first = []
        for n, (_, touches) in enumerate(unique):
            if set(touches) - covered:
                first.append(n)
                covered |= set(touches)
        rest = [n for n in range(len(unique)) if n not in set(first)]
        chosen = sorted(first[:limit] + rest[: max(0, limit - len(first))])
        out = []
        for n in chosen:
            (operator, target, description, state), touches = unique[n]
            self._count += 1
            out.append(Mutant(f"m{self._count:02d}", operator, target, description, state, touches))
        return out

    # -- phase 1 -------------------------------------------------------------------------------

    def structural(self, limit: int) -> list[Mutant]:
        reverts = [d for u in self.units for d in self._reverts(u)]
        confusions = _interleave(
            [[*self._drops(u), *self._distractors(u), *self._duplicates(u), *self._containers(u)] for u in self.units]
        )
        wrong_values = _interleave([list(self._values(u)) for u in self.units])
        nudged = _interleave([list(self._nudges(u)) for u in self.units])
        return self._finish([*reverts, *confusions, *self._extra(), *wrong_values, *nudged], limit)

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
                old = {f: (unit.before or {}).get(f) for f in group}
                yield REVERT, unit.path, f"{unit.path}#{','.join(group)} left as it was", self._with(unit, old)
            old = {f: (unit.before or {}).get(f) for f in unit.fields}
            yield REVERT, unit.path, f"{_named(unit)} left as it was", self._with(unit, old)

    def _drops(self, unit: Unit) -> Iterator[Draft]:
        if unit.op != "modified" or not _authored(unit):
            return
        state = self._copy()
        for container in [unit.container, *unit.copies]:
            paths.remove(state, container, unit.key)
        yield DROP, unit.path, f"{_named(unit)} was deleted instead of updated", state

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

    # -- wrong values --------------------------------------------------------------------------

    def _fields(self, unit: Unit) -> list[str]:
        """The fields whose values the solution wrote: the modified ones, or a new item's content."""
        if unit.op == "modified":
            return [f for f in unit.fields if not _stamped(unit, f)]
        return self._content(unit)

    def _values(self, unit: Unit) -> Iterator[Draft]:
        """Each value the solution wrote, one unit off and replaced by the world's likeliest wrong one."""
        if unit.op == "removed" or unit.after is None or not _authored(unit):
            return
        item, before = unit.after, unit.before or {}
        groups = []
        for name in self._fields(unit):
            value = item.get(name)
            if _iso(value):
                groups.append(list(self._time_values(unit, name, value)))
            elif name == "phones" and isinstance(value, list):
                groups.append(list(self._phone_values(unit, value, before.get("phones") or [])))
            elif isinstance(value, str) and name not in ADDRESS_LISTS:
                groups.append(list(self._text_values(unit, name, value, before.get(name))))
            elif isinstance(value, int | float) and not isinstance(value, bool):
                groups.append(list(self._number_values(unit, name, value)))
        yield from _interleave(groups)

    def _say(self, unit: Unit, name: str, wrong: Any, right: Any, how: str, values_: dict[str, Any]) -> Draft:
        return VALUE, unit.path, f"{unit.path}#{name}: {wrong} instead of {right} ({how})", self._with(unit, values_)

    def _time_values(self, unit: Unit, name: str, value: str) -> Iterator[Draft]:
        """A time or date field off by one unit (events move start and end together) and set to a
        time or date the world states."""
        item = unit.after or {}
        pair = name in ("start", "end") and isinstance(item.get("start"), str) and isinstance(item.get("end"), str)
        if pair and name == "end":
            return  # moved with the start
        candidates = []
        step = timedelta(days=1) if len(value) == 10 else timedelta(hours=1)
        candidates.append(("one unit off", nudges.shifted(value, step, self.tz)))
        other = self._world_time(unit, name, value)
        if other is not None:
            candidates.append(("a time the world states", other))
        for how, new in candidates:
            if not new or new == value:
                continue
            if pair:
                delta = _delta(value, new)
                end = nudges.shifted(item["end"], delta, self.tz) if delta is not None else None
                if end is None:
                    continue
                yield self._say(unit, "start", new, value, how, {"start": new, "end": end})
            else:
                yield self._say(unit, name, new, value, how, {name: new})

    def _world_time(self, unit: Unit, name: str, value: str) -> str | None:
        """The written day at another time of day the world states, or (for a date) another date."""
        context = values.context_words(label(unit.key, unit.after or {}), 0, 0, width=8)
        before = (unit.before or {}).get(name)
        if len(value) == 10:
            token = values.Token(values.DATE, 0, 10, value, (int(value[5:7]), int(value[8:10])), context)
            avoid = [(int(before[5:7]), int(before[8:10]))] if isinstance(before, str) and len(before) >= 10 else []
            other = values.from_world(token, self.world, avoid=avoid)
            if other is None:
                return None
            month, day = other.value
            try:
                return datetime(int(value[:4]), month, day).date().isoformat()
            except ValueError:
                return None
        try:
            at = datetime.fromisoformat(value).astimezone(self.tz)
        except ValueError:
            return None
        minutes = at.hour * 60 + at.minute
        token = values.Token(values.TIME, 0, 0, at.strftime("%H:%M"), minutes, context)
        avoid = []
        if isinstance(before, str) and len(before) > 10:
            old = datetime.fromisoformat(before).astimezone(self.tz)
            avoid.append(old.hour * 60 + old.minute)
        other = values.from_world(token, self.world, avoid=avoid)
        if other is None:
            return None
        hour, minute = divmod(other.value, 60)
        return at.replace(hour=hour, minute=minute).isoformat()

    def _phone_values(self, unit: Unit, phones: list[Any], old: list[Any]) -> Iterator[Draft]:
        for phone in [p for p in phones if p not in old][:MAX_PER_FIELD]:
            [token] = values.tokens(str(phone))[:1] or [None]
            wrong = [("one digit off", values.bump_last_digit(str(phone)))]
            if token is not None:
                other = values.from_world(token, self.world)
                wrong.append(("a number the world states", other.text if other else None))
            for how, new in wrong:
                if new and new != phone:
                    replaced = [new if p == phone else p for p in phones]
                    yield self._say(unit, "phones", new, phone, how, {"phones": replaced})

    def _text_values(self, unit: Unit, name: str, text: str, before: Any) -> Iterator[Draft]:
        """Each value in the lines of a text the solution wrote, one off and from the world; a created
        item's name left empty; a choice (a category, a status) swapped for another the world offers."""
        written = _own_words(_written_lines(before, text))
        found = [t for t in values.tokens(written) if t.text == text[t.start : t.end]]
        kept = [t.value for t in values.tokens(before)] if isinstance(before, str) else []  # reverts test those
        for token in found[:MAX_PER_FIELD]:
            other = values.from_world(token, self.world, avoid=kept)
            wrong = [("one off", values.one_off(token)), ("the world's", other and values.render(token, other))]
            for how, new in wrong:
                if not new or new == token.text:
                    continue
                changed = text[: token.start] + new + text[token.end :]
                patch = {**file_state(changed.encode()), "text": changed} if name == "text" else {name: changed}
                around = " ".join(text[max(0, token.start - 30) : token.end + 30].split())
                what = f"{unit.path}#{name}: {token.text} changed to {new} ({how} {token.kind}) in '…{around}…'"
                yield VALUE, unit.path, what, self._with(unit, patch)
        if found or unit.op == "modified":
            return
        if self._named_by(unit, name):
            yield VALUE, unit.path, f"{_named(unit)} created without its {name}", self._with(unit, {name: ""})
        for choice in self._choices(unit, name, text)[:1]:
            yield self._say(unit, name, repr(choice), repr(text), "another option the world has", {name: choice})

    def _choices(self, unit: Unit, name: str, value: str) -> list[str]:
        """Other values the same field takes on the items of the same table (web apps' categories,
        statuses, classes): the options an agent picks from."""
        if unit.app != "web" or name in TEXT_FIELDS or len(value) > 40:
            return []
        seen: dict[str, None] = {}
        for state in (self.s0, self.sH):
            for container, _, item in paths.items(state):
                other = item.get(name)
                if container == unit.container and isinstance(other, str) and other and other != value:
                    seen.setdefault(other, None)
        return sorted(seen)

    def _number_values(self, unit: Unit, name: str, value: float) -> Iterator[Draft]:
        """A number field (an amount in a web app) a cent or a unit off, and set to the amount the
        world states in the most similar context (the receipt's subtotal next to its total)."""
        whole = not isinstance(value, float) or value == round(value)
        near = value + 1 if whole else round(value + 0.01, 2)
        yield self._say(unit, name, near, value, "one unit off", {name: near})
        words = " ".join(str(v) for v in (unit.after or {}).values() if isinstance(v, str))
        context = values.context_words(words, 0, 0, width=12)
        for kind in (values.AMOUNT, values.NUMBER):
            other = values.from_world(values.Token(kind, 0, 0, str(value), float(value), context), self.world)
            if other is not None:
                new = int(other.value) if isinstance(value, int) else round(other.value, 2)
                yield self._say(unit, name, new, value, f"an {kind} the world states", {name: new})
                return

    def _nudges(self, unit: Unit) -> Iterator[Draft]:
        if unit.op == "removed" or unit.after is None or not _authored(unit):
            return
        fields = self._fields(unit)
        yield from self._time_nudges(unit, fields)
        yield from self._address_nudges(unit, fields)
        yield from self._item_nudges(unit, fields)

    def _time_nudges(self, unit: Unit, fields: list[str]) -> Iterator[Draft]:
        item = unit.after or {}
        times = [f for f in TIME_FIELDS if f in fields and isinstance(item.get(f), str)]
        if unit.app == "calendar" and {"start", "end"} <= set(times):
            times = [f for f in times if f not in ("start", "end")]
            for how, delta in nudges.time_shifts(item["start"], self.tz):
                start, end = (nudges.shifted(item[f], delta, self.tz) for f in ("start", "end"))
                if start and end:
                    values_ = {"start": start, "end": end}
                    yield NUDGE, unit.path, f"{unit.path} moved {how} (starts {start})", self._with(unit, values_)
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
            for entry in [e for e in entries if bare_address(e) not in old][:MAX_PER_FIELD]:
                wrong = [*nudges.alternatives(entry, self.book), nudges.typo(entry)]
                for alt in [w for w in wrong if w]:
                    values_ = {name: [nudges.with_address(e, alt) if e == entry else e for e in entries]}
                    shown = bare_address(alt)
                    yield (
                        NUDGE,
                        unit.path,
                        f"{unit.path}#{name}: {shown} instead of {bare_address(entry)}",
                        self._with(unit, values_),
                    )
            if name == "emails" and before.get(name) and entries and bare_address(entries[0]) not in old:
                primary = before[name][0]
                values_ = {name: [primary, *[e for e in entries if bare_address(e) != bare_address(primary)]]}
                yield (
                    NUDGE,
                    unit.path,
                    f"{unit.path}#emails: the old {primary} kept as the primary address",
                    self._with(unit, values_),
                )
        to = item.get("to")
        if unit.app == "mail" and "to" in fields and to:
            for alt in nudges.alternatives(to[0], self.book, limit=1):
                if bare_address(alt) in self.answering:
                    continue
                values_ = {"cc": [*(item.get("cc") or []), alt]}
                yield NUDGE, unit.path, f"{unit.path}: {bare_address(alt)} copied in as well", self._with(unit, values_)

    def _sent_on(self, unit: Unit, attachment: dict[str, Any]) -> bool:
        """The mail went to an address that answers automatically, and another mail carries the same file on:
        without it in this first mail, the file went only where the reply said, which is no near miss."""
        item = unit.after or {}
        to = [*(item.get("to") or []), *(item.get("cc") or []), *(item.get("bcc") or [])]
        if unit.app != "mail" or not {bare_address(a) for a in to} & self.answering:
            return False
        others = [m for m in (self.sH.get("mail") or {}).get("outbox") or [] if m.get("message_id") != unit.key]
        return any(a.get("sha256") == attachment.get("sha256") for m in others for a in m.get("attachments") or [])

    def _item_nudges(self, unit: Unit, fields: list[str]) -> Iterator[Draft]:
        item = unit.after or {}
        attachments = item.get("attachments") or []
        if "attachments" in fields and attachments:
            for n, att in enumerate(attachments[:2]):
                for other in nudges.other_files(att, self.files):
                    values_ = {"attachments": [other if i == n else a for i, a in enumerate(attachments)]}
                    what = f"{other['filename']} ({str(other['sha256'])[:8]}) attached instead of {att['filename']}"
                    yield NUDGE, unit.path, f"{unit.path}: {what}", self._with(unit, values_)
            if not self._sent_on(unit, attachments[0]):
                values_ = {"attachments": attachments[1:]}
                what = f"{attachments[0]['filename']} not attached"
                yield NUDGE, unit.path, f"{unit.path}: {what}", self._with(unit, values_)
            for other in nudges.other_files(attachments[0], self.files, limit=1):
                values_ = {"attachments": [*attachments, other]}
                what = f"{other['filename']} ({str(other['sha256'])[:8]}) attached as well"
                yield NUDGE, unit.path, f"{unit.path}: {what}", self._with(unit, values_)
        if unit.app == "reminders" and isinstance(item.get("completed"), bool):
            flipped = not item["completed"]
            if "completed" not in unit.fields:  # flipping a completion the solution made is a revert
                values_ = {"completed": flipped, "completed_at": self.now if flipped else None}
                how = "ticked off" if flipped else "left open"
                yield NUDGE, unit.path, f"{_named(unit)} {how}", self._with(unit, values_)

    # -- phase 2 -------------------------------------------------------------------------------

    def textual(self, stated_by: dict[str, list[str]], limit: int) -> list[Mutant]:
        """Values of text one off, where they are values the rubric items depending on each change state."""
        drafts: list[list[Draft]] = []
        for unit in self.units:
            descriptions = stated_by.get(unit.path)
            if not descriptions or unit.after is None:
                continue
            stated = nudges.stated_values(descriptions)
            mine: list[Draft] = []
            for name in [f for f in self._fields(unit) if f in (*TEXT_FIELDS, "text")]:
                text = unit.after.get(name)
                if not isinstance(text, str):
                    continue
                for token in nudges.values_to_nudge(text, stated)[:MAX_PER_FIELD]:
                    wrong = values.one_off(token)
                    if not wrong:
                        continue
                    new = text[: token.start] + wrong + text[token.end :]
                    patch = {**file_state(new.encode()), "text": new} if name == "text" else {name: new}
                    around = " ".join(text[max(0, token.start - 30) : token.end + 30].split())
                    what = f"{unit.path}#{name}: {token.text} changed to {wrong} in '…{around}…'"
                    mine.append((NUDGE, unit.path, what, self._with(unit, patch)))
            drafts.append(mine)
        return self._finish(_interleave(drafts), limit)


def _delta(old: str, new: str) -> timedelta | None:
    try:
        return datetime.fromisoformat(new) - datetime.fromisoformat(old)
    except ValueError:
        return None
