"""Process diagnostics: for each failed rubric item, where in the workflow it went wrong.

Heuristics, stated so a reader can judge them:

- **Entities an item checks**: the items of the world (those of s0, and those the agent added or
  renamed) whose id (uid, message-id, file path) or name (summary, title, name, subject, file
  name; 4+ characters, whole words) appears in the item's reason, else in its description. An
  item that names none (`no new note was written`) checks the entities the agent changed in the
  apps its words point to (`note` -> notes), if any.
- **First step**: the earliest trajectory step whose arguments or result mention one of those
  entity ids (`via` "args" or "result"); the first action is the earliest whose arguments do.
  With no entity found anywhere, the first call of a tool of the item's apps (`via` "app").
- **Verdict** of a failed item: `wrong_value` when the agent changed an entity the item checks;
  `wrong_entity` when it changed others in the same app instead; `incomplete` when it changed
  nothing there. An item that names no entity, in an app the agent did change, is `wrong_entity`
  when its `stage` is about choosing (choose, pick, match, select, identify, find, which,
  recipient, filter, resolve, align), else `wrong_value`.

Changes that only add `\\Seen` to a message are reading, not acting, and are ignored here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from stageclaw.report.calls import tool_app
from stageclaw.world.diff import FIXED_CONTAINERS, containers

NAME_FIELDS = ("summary", "title", "name", "subject")
MIN_NAME = 4
COLLATERAL_ITEM = "no_collateral_damage"
APP_WORDS = {
    "mail": r"e-?mails?|mail|messages?|sent|send|repl(?:y|ies|ied)|inbox|recipients?|attach\w*",
    "calendar": r"events?|calendars?|meetings?|starts?|invit\w*|attendees?|rescheduled?",
    "reminders": r"reminders?|to-?dos?|due|ticked",
    "notes": r"notes?",
    "contacts": r"contacts?|phones?|address book",
    "files": r"files?|documents?|workspace|spreadsheets?|csv",
}
APP_RE = {app: re.compile(rf"\b(?:{words})\b") for app, words in APP_WORDS.items()}
CHOOSING = re.compile(r"choos|pick|match|select|identif|find|which|recipient|filter|resolv|align")


def split_path(path: str, op: str) -> tuple[str, str | None]:
    """(container, item key) of a diff path; the key is None for a container that came or went."""
    if op == "modified":
        path = path.rpartition("#")[0]
    for fixed in FIXED_CONTAINERS:
        if path == fixed or path.startswith(f"{fixed}/"):
            return fixed, path[len(fixed) + 1 :] or None
    depth = 3 if path.startswith(("mail/folders/", "web/")) else 2  # mail/folders/NAME, web/APP/TABLE
    parts = path.split("/", depth)
    return "/".join(parts[:depth]), parts[depth] if len(parts) > depth else None


def change_entities(changes: list[dict[str, Any]]) -> set[str]:
    """Entity keys (`CONTAINER/KEY`, or the container itself) that changes touch."""
    out = set()
    for c in changes:
        container, key = split_path(c["path"], c["op"])
        out.add(entity_key(container, key) if key is not None else container)
    return out


def is_reading(change: dict[str, Any]) -> bool:
    """A flag change that only marks a message read: a side effect of looking at it."""
    if change.get("op") != "modified" or not change.get("path", "").endswith("#flags"):
        return False
    before, after = set(change.get("before") or []), set(change.get("after") or [])
    return before <= after and after - before <= {"\\Seen"}


def effective(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in changes if not is_reading(c)]


def entity_key(container: str, key: str) -> str:
    return f"{container}/{key}"


def app_of(key: str) -> str:
    return key.split("/", 1)[0]


class EntityIndex:
    """The items of a world, findable by their ids and names in free text.

    Built from the initial state, then `with_changes` of an episode: an added item comes whole in
    its change and a renamed one with its new name, so the final state need not be read.
    """

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self.names: dict[str, set[str]] = {}  # lower-case name -> entity keys
        self.ids: dict[str, str] = {}  # entity key -> the id a tool call would carry
        for cpath, items in containers(state or {}).items():
            for key, item in items.items():
                self._add(cpath, key, item)

    def _add(self, cpath: str, key: str, item: Any) -> None:
        ekey = entity_key(cpath, key)
        self.ids[ekey] = key
        names = {key}
        if cpath == "files":
            names.add(key.rsplit("/", 1)[-1])
        if isinstance(item, dict):
            names.update(v for f in NAME_FIELDS if isinstance(v := item.get(f), str))
        for name in names:
            if len(name.strip()) >= MIN_NAME:
                self.names.setdefault(name.strip().lower(), set()).add(ekey)

    def with_changes(self, changes: list[dict[str, Any]]) -> EntityIndex:
        """A copy that also knows the items `changes` added and the new names of renamed ones."""
        out = EntityIndex()
        out.names = {name: set(keys) for name, keys in self.names.items()}
        out.ids = dict(self.ids)
        for c in changes:
            cpath, key = split_path(c["path"], c["op"])
            if key is None:
                continue
            if c["op"] == "added":
                out._add(cpath, key, c.get("after"))
            elif c["op"] == "modified" and c["path"].rpartition("#")[2] in NAME_FIELDS:
                out._add(cpath, key, {"name": c.get("after")})
        return out

    def mentioned(self, text: str) -> set[str]:
        low = text.lower()
        found: set[str] = set()
        for name, keys in self.names.items():
            # Substring first (cheap); then whole words, so "Lunch" does not match "Lunchbox".
            if name in low and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", low):
                found |= keys
        return found


@dataclass
class StepRef:
    index: int  # 1-based position in the trajectory's steps
    tool: str
    via: str  # "args", "result" or "app"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "tool": self.tool, "via": self.via}


@dataclass
class ItemDiagnosis:
    id: str
    stage: str
    verdict: str  # wrong_entity | wrong_value | incomplete | collateral_damage
    critical: bool
    entities: list[str] = field(default_factory=list)
    apps: list[str] = field(default_factory=list)
    first_step: StepRef | None = None
    first_action: StepRef | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "stage": self.stage,
            "verdict": self.verdict,
            "critical": self.critical,
            "entities": self.entities,
            "apps": self.apps,
            "first_step": self.first_step.to_json() if self.first_step else None,
            "first_action": self.first_action.to_json() if self.first_action else None,
        }


def item_apps(item: dict[str, Any]) -> set[str]:
    text = " ".join(str(item.get(k) or "") for k in ("description", "reason", "stage")).lower()
    return {app for app, rx in APP_RE.items() if rx.search(text)}


def _mentions(text: str, ids: set[str]) -> bool:
    # Ids are JSON string values in arguments and results; long ones (paths, message-ids) also inside commands.
    return any(f'"{x}"' in text or (len(x) >= 8 and x in text) for x in ids)


def step_texts(steps: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Each step's arguments and its result (or error) as compact JSON text."""
    return [
        (
            json.dumps(s.get("args"), ensure_ascii=False, default=str),
            json.dumps(s.get("result") if s.get("ok") else s.get("error"), ensure_ascii=False, default=str),
        )
        for s in steps
    ]


def _first_steps(
    steps: list[dict[str, Any]], dumps: list[tuple[str, str]], ids: set[str], apps: set[str]
) -> tuple[StepRef | None, StepRef | None]:
    first = action = None
    for i, (args_text, result_text) in enumerate(dumps):
        tool = str(steps[i].get("tool"))
        in_args = _mentions(args_text, ids)
        if in_args and action is None:
            action = StepRef(i + 1, tool, "args")
        if first is None and (in_args or _mentions(result_text, ids)):
            first = StepRef(i + 1, tool, "args" if in_args else "result")
        if first is not None and action is not None:
            break
    if first is None and apps:
        tools = [str(s.get("tool")) for s in steps]
        first = next((StepRef(i + 1, t, "app") for i, t in enumerate(tools) if tool_app(t) in apps), None)
    return first, action


def diagnose(
    items: list[dict[str, Any]],
    changes: list[dict[str, Any]],
    collateral: list[dict[str, Any]],
    steps: list[dict[str, Any]],
    index: EntityIndex,
    texts: list[tuple[str, str]] | None = None,
) -> list[ItemDiagnosis]:
    """One diagnosis per failed item (passed is False), in rubric order; `texts` are the steps' `step_texts`."""
    failed = [i for i in items if i.get("passed") is False]
    if not failed:
        return []
    changed = change_entities(effective(changes))
    changed_apps = {app_of(k) for k in changed}
    dumps = step_texts(steps) if texts is None else texts
    out = []
    for item in failed:
        stage = str(item.get("stage") or "")
        if item.get("id") == COLLATERAL_ITEM:
            entities = change_entities(collateral)
            apps, verdict = {app_of(k) for k in entities}, "collateral_damage"
        else:
            entities = index.mentioned(str(item.get("reason") or "")) or index.mentioned(
                str(item.get("description") or "")
            )
            apps = {app_of(k) for k in entities} or item_apps(item)
            if entities & changed:
                verdict = "wrong_value"
            elif entities:
                verdict = "wrong_entity" if apps & changed_apps else "incomplete"
            elif apps & changed_apps:
                entities = {k for k in changed if app_of(k) in apps}
                verdict = "wrong_entity" if CHOOSING.search(stage.lower()) else "wrong_value"
            else:
                verdict = "incomplete"
        ids = {index.ids.get(k, k.rsplit("/", 1)[-1]) for k in entities}
        first, action = _first_steps(steps, dumps, ids, apps)
        out.append(
            ItemDiagnosis(
                id=str(item.get("id")),
                stage=stage,
                verdict=verdict,
                critical=bool(item.get("critical")),
                entities=sorted(entities),
                apps=sorted(apps),
                first_step=first,
                first_action=action,
            )
        )
    return out
