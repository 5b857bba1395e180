"""Difficulty: the declared operators are present, shown by evidence computed from the world and
the reference solution's episode; the solution takes several steps and uses at least two apps.

Each operator has its own detector over the same evidence (s0, what the solution changed and
wrote, what it read), so a hand-written or LLM-written task gets the same credit as a generated one
when the evidence is in its world:
- cross_source_conflict: two sources about an item the solution changed give different values of
  the same kind in the same context (the withdrawn figure and the corrected one), or two files
  with near-identical names differ;
- noisy_data: look-alikes of the items the solution changed or singled out;
- hidden_dependency: a value the solution wrote sits, in s0, only in another app than the item it
  wrote it to (and not in the prompt), or the solution read an app it did not change;
- entity_alignment: a person the solution wrote to (or whose contact it changed) appears in s0
  under another name or another address;
- tool_state_update: the solution made persistent changes;
- cross_tool_consistency: the changes span at least two apps;
- injected_instruction: a mail, file, note or web page of the world tells the assistant to act;
- temporal_reasoning: what the solution touched is a series with exceptions, or its times lie on
  both sides of a clock change.

Generated tasks also record, in task.toml `[provenance.evidence]`, what each operator put into the
world; an operator check shows that record next to what it detected, so an auditor can compare.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import parseaddr
from typing import Any

from stageclaw.task.loader import Task
from stageclaw.tools.registry import catalogue
from stageclaw.validate import paths, values
from stageclaw.validate.changes import Unit, units
from stageclaw.validate.oracle import OracleRun
from stageclaw.validate.report import FAIL, PASS, WARNING, Check, Dimension, blocked
from stageclaw.validate.similar import NEAR_DUPLICATE, alike, label, person_entries, ratio, similarity, words

NAME = "difficulty"
MIN_STEPS, MIN_TOOLS, MIN_APPS = 4, 3, 2
SHOWN = 5
_BROWSING = re.compile(r"_(list|search)\b|_list_")  # listing a whole app does not single out an item
_IDS = ("uid", "message_id", "id", "sha256", "date", "flags", "size")
_WRITTEN = ("summary", "title", "subject", "body", "notes", "description", "location", "text", "name")


@dataclass
class Evidence:
    s0: dict[str, Any]
    units: list[Unit]
    apps_used: set[str]
    targets: list[tuple[str, str, dict[str, Any]]]
    user: str
    prompt: str = ""
    _items: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    _sources: dict[str, str] = field(default_factory=dict)
    _rival_pairs: dict[frozenset[str], bool] = field(default_factory=dict)  # pairs already judged (symmetric)

    def items(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every item of s0 as (key, item), by path."""
        if not self._items:
            self._items = {f"{c}/{k}": (k, item) for c, k, item in paths.items(self.s0)}
        return self._items

    def sources(self) -> dict[str, str]:
        """Every item of s0 as the text it states (quoted lines left out), by path."""
        if not self._sources:
            self._sources = {path: _text(item) for path, (_, item) in self.items().items()}
        return self._sources


def _text(item: dict[str, Any]) -> str:
    parts = []
    for name, value in item.items():
        if name in _IDS:
            continue
        if isinstance(value, str):
            parts.append("\n".join(line for line in value.splitlines() if not line.lstrip().startswith(">")))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            parts.append(f"{name} {value}")
        elif isinstance(value, list):
            parts += [str(v) for v in value if isinstance(v, str)]
    return "\n".join(parts)


def _written(unit: Unit) -> str:
    """What the solution wrote into an item: a new item's text, the new lines of a changed one."""
    after, before = unit.after or {}, unit.before or {}
    out = []
    for name, value in after.items():
        if name in _IDS or value == before.get(name):
            continue
        if isinstance(value, str):
            old = set(str(before.get(name) or "").splitlines())
            out += [line for line in value.splitlines() if line not in old and not line.lstrip().startswith(">")]
        elif isinstance(value, list):
            out += [str(v) for v in value if isinstance(v, str) and v not in (before.get(name) or [])]
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out.append(f"{name} {value}")
    return "\n".join(out)


def _targets(s0: dict[str, Any], changed: list[Unit], steps: list[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    """Items of E0 the solution changed or singled out (read, updated, passed to a command)."""
    text = json.dumps([s for s in steps if not _BROWSING.search(s["tool"])], ensure_ascii=False)
    wanted = {u.path for u in changed}
    out = []
    for container, key, item in paths.items(s0):
        mentioned = f'"{key}"' in text or (len(key) >= 8 and key in text)
        if mentioned or f"{container}/{key}" in wanted:
            out.append((container, key, item))
    return out


Found = tuple[float, str, dict[str, Any], str, dict[str, Any]]


def _look_alikes(ev: Evidence) -> list[Found]:
    """(score, path, item, path, item) of near-duplicate pairs with at least one target, best first."""
    pairs: dict[tuple[str, str], Found] = {}
    for container, key, item in ev.targets:
        for other_c, other_k, other in paths.items(ev.s0):
            if other_k == key or paths.app_of(other_c) != paths.app_of(container):
                continue  # the same message filed in two folders is one message, not a look-alike
            score = round(similarity(key, item, other_k, other), 2)
            a, b = sorted([(f"{container}/{key}", item), (f"{other_c}/{other_k}", other)], key=lambda x: x[0])
            if score >= NEAR_DUPLICATE and score > pairs.get((a[0], b[0]), (0.0,))[0]:
                pairs[(a[0], b[0])] = (score, a[0], a[1], b[0], b[1])
    return sorted(pairs.values(), key=lambda f: (-f[0], f[1], f[3]))


def _noisy(ev: Evidence) -> tuple[bool, str, Any]:
    """An item looks like one the solution changed or read: a similar title, the same people."""
    shown = [f"{a} ~ {b} ({s})" for s, a, _, b, _ in _look_alikes(ev)[:SHOWN]]
    return bool(shown), f"look-alikes of the items the task is about: {shown}", shown


# -- cross_source_conflict ---------------------------------------------------------------------


def _about(ev: Evidence, unit: Unit) -> list[str]:
    """The sources in s0 about a changed item: they share two words with its name and what the
    solution wrote, or state a value it wrote, or answer such a source (one thread)."""
    item = unit.after or unit.before or {}
    topic = words(f"{label(unit.key, item)}\n{_written(unit)}") - values.STOPWORDS
    wrote = {(t.kind, t.value) for t in values.tokens(_written(unit))}
    own = {f"{c}/{unit.key}" for c in [unit.container, *unit.copies]}
    found = []
    for path, text in ev.sources().items():
        if path in own:
            continue
        shared = len(topic & (words(text) - values.STOPWORDS))
        if shared >= 2 or wrote & {(t.kind, t.value) for t in values.tokens(text)}:
            found.append(path)
    replies = {
        f"{c}/{k}"
        for c, k, i in paths.items(ev.s0)
        if c.startswith("mail/") and any(i.get("in_reply_to") == p.rsplit("/", 1)[1] for p in found)
    }
    return sorted(set(found) | replies)


def _subject(item: dict[str, Any]) -> str:
    return re.sub(r"^(?:\s*(?:re|fwd?|aw|wg)\s*:\s*)+", "", str(item.get("subject") or ""), flags=re.I).lower()


def _rivals(ev: Evidence, a: str, b: str) -> bool:
    """Two sources that speak about the same thing: one thread (one answers the other, or the same
    subject), look-alikes, or files with near-identical names."""
    pair = frozenset((a, b))
    if pair not in ev._rival_pairs:
        ev._rival_pairs[pair] = _judge_rivals(ev, a, b)
    return ev._rival_pairs[pair]


def _judge_rivals(ev: Evidence, a: str, b: str) -> bool:
    items = ev.items()
    (ka, ia), (kb, ib) = items[a], items[b]
    if ia.get("in_reply_to") in (ka, kb) or ib.get("in_reply_to") in (ka, kb):
        return True
    if _subject(ia) and _subject(ia) == _subject(ib):
        return True
    if a.startswith("files/") and b.startswith("files/"):
        return ratio(ka.rsplit("/", 1)[-1], kb.rsplit("/", 1)[-1]) >= NEAR_DUPLICATE
    return paths.app_of(a) == paths.app_of(b) and alike(ka, ia, kb, ib)


def _disagreements(ev: Evidence, unit: Unit) -> Iterator[str]:
    """Rival sources about the item that give different values of one kind in one context; first
    the pairs where one side gives a value the solution wrote (it followed that source)."""
    wrote = {(t.kind, t.value) for t in values.tokens(_written(unit))}
    texts = ev.sources()
    about = _about(ev, unit)
    stated = {p: [t for t in values.tokens(texts[p]) if t.kind != values.ADDRESS] for p in about}
    found: list[tuple[tuple[bool, int, str], frozenset[str]]] = []
    for a in about:
        for b in about:
            if a == b or not _rivals(ev, a, b):
                continue
            # b gives a value a does not (a correction may repeat the value it replaces), in a shared context
            said = {(t.kind, t.value) for t in stated[a]}
            clashes = [
                (
                    (x.kind, x.value) in wrote or (y.kind, y.value) in wrote,
                    len(x.context & y.context),
                    f"{a} gives {x.text}, {b} gives {y.text} ({unit.path})",
                )
                for x in stated[a]
                for y in stated[b]
                if x.kind == y.kind and x.value != y.value and (y.kind, y.value) not in said and x.context & y.context
            ]
            if clashes:
                found.append((max(clashes), frozenset((a, b))))
    best: dict[frozenset[str], tuple[bool, int, str]] = {}
    for clash, pair in found:
        best[pair] = max(best.get(pair, clash), clash)
    for *_, shown in sorted(best.values(), reverse=True):
        yield shown


def _conflict(ev: Evidence) -> tuple[bool, str, Any]:
    """Two sources about an item the solution changed (one thread, look-alikes, or near-namesake files)
    give different values of one kind (an amount, a date, a time, a phone number) in a shared context;
    or two files with near-identical names differ."""
    found = [d for unit in ev.units for d in _disagreements(ev, unit)]
    read = {f"{c}/{k}" for c, k, _ in ev.targets}
    files = _files_pool(ev.s0)
    for i, (pa, fa) in enumerate(files):
        for pb, fb in files[i + 1 :]:
            named = ratio(str(fa["filename"]), str(fb["filename"])) >= NEAR_DUPLICATE
            if named and fa["sha256"] != fb["sha256"] and (pa in read or pb in read):
                shown = [f"{f['filename']} ({str(f['sha256'])[:8]})" for f in (fa, fb)]
                found.append(" vs ".join(shown))
    found = list(dict.fromkeys(found))
    return bool(found), f"sources that disagree about what the solution changed: {found[:SHOWN]}", found[:SHOWN]


def _files_pool(s0: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(item path, file) of every workspace file and attachment."""
    out = []
    for container, key, item in paths.items(s0):
        if container == "files":
            out.append((f"files/{key}", {"filename": key.rsplit("/", 1)[-1], "sha256": item.get("sha256")}))
        elif container.startswith("mail/"):
            out += [(f"{container}/{key}", a) for a in item.get("attachments") or []]
    return out


# -- entity_alignment --------------------------------------------------------------------------


def _identities(ev: Evidence) -> set[tuple[str, str]]:
    """(name, address) of every named person in E0, the user aside."""
    found = set()
    for _, _, item in paths.items(ev.s0):
        for name_field, value in person_entries(item):
            name, addr = parseaddr(value)
            if not name and name_field == "emails":  # a contact's addresses carry the contact's name
                name = item.get("name") or ""
            if addr and name and addr.lower() != ev.user:
                found.add((" ".join(name.split()), addr.lower()))
    return found


def _same_person(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """One person under two names or two addresses: the same address under another name, the same
    name at another address, or the same surname with another first name (Krish and Krishnan,
    Paco and Francisco Navarro)."""
    (name_a, addr_a), (name_b, addr_b) = a, b
    if name_a.lower() == name_b.lower():
        return addr_a != addr_b
    if addr_a == addr_b:
        return True
    parts_a, parts_b = name_a.lower().split(), name_b.lower().split()
    return len(parts_a) >= 2 and len(parts_b) >= 2 and parts_a[-1] == parts_b[-1] and len(parts_a[-1]) >= 3


def _written_to(ev: Evidence) -> set[str]:
    """Addresses the solution wrote into its changes: recipients, attendees, a contact's emails."""
    out = set()
    for unit in ev.units:
        after, before = unit.after or {}, unit.before or {}
        for name in ("to", "cc", "attendees", "emails"):
            for entry in after.get(name) or []:
                if unit.op == "added" or entry not in (before.get(name) or []) or unit.app == "contacts":
                    out.add(parseaddr(entry)[1].lower())
    return out - {ev.user, ""}


def _involved(ev: Evidence) -> Callable[[tuple[str, str]], bool]:
    """Whether the solution dealt with a person: wrote to them, wrote their name, or singled out an
    item naming them."""
    wrote = _written_to(ev)
    text = "\n".join(_written(u) for u in ev.units).lower()
    seen = {a.lower() for _, _, item in ev.targets for _, v in person_entries(item) for a in [parseaddr(v)[1]]}
    return lambda who: who[1] in wrote or who[1] in seen or (" " in who[0] and who[0].lower() in text)


def _alignment(ev: Evidence) -> tuple[bool, str, Any]:
    """A person the solution wrote to, wrote about or read about appears under another name or address:
    the same address, the same name, or the same surname with another first name."""
    people = sorted(_identities(ev))
    involved = _involved(ev)
    found = [
        f"{a[0]} <{a[1]}> = {b[0]} <{b[1]}>"
        for i, a in enumerate(people)
        for b in people[i + 1 :]
        if (involved(a) or involved(b)) and _same_person(a, b)
    ]
    detail = f"people the solution dealt with, under other names or addresses: {found[:SHOWN]}"
    return bool(found), detail, found[:SHOWN]


# -- hidden_dependency -------------------------------------------------------------------------


def _elsewhere(ev: Evidence) -> list[str]:
    """Values the solution wrote that s0 states only in another app than where it wrote them."""
    prompt = {(t.kind, t.value) for t in values.tokens(ev.prompt)}
    by_value: dict[tuple[str, Any], set[str]] = {}
    for path, text in ev.sources().items():
        for token in values.tokens(text):
            by_value.setdefault((token.kind, token.value), set()).add(path)
    found = []
    for unit in ev.units:
        for token in values.tokens(_written(unit)):
            where = by_value.get((token.kind, token.value), set())
            apps = {p.split("/", 1)[0] for p in where}
            if where and unit.app not in apps and (token.kind, token.value) not in prompt:
                found.append(f"{token.text} (written to {unit.path}) from {sorted(where)[0]}")
    return list(dict.fromkeys(found))


def _hidden(ev: Evidence) -> tuple[bool, str, Any]:
    """A value the solution wrote sits, in the initial world, only in another app than where it wrote it
    (and not in the prompt); or the solution read an app it did not change."""
    moved = _elsewhere(ev)
    read_only = sorted(ev.apps_used - {u.app for u in ev.units} - {"clock"})
    evidence = moved[:SHOWN] + [f"read {app}, changed nothing there" for app in read_only]
    detail = f"facts found in another app than where the solution used them: {evidence}"
    return bool(evidence), detail, evidence


# -- the rest ----------------------------------------------------------------------------------


def _state_update(ev: Evidence) -> tuple[bool, str, Any]:
    """The solution changed items for good."""
    changed = [u.path for u in ev.units]
    return bool(changed), f"{len(changed)} items changed for good: {changed[:SHOWN]}", changed[:SHOWN]


def _consistency(ev: Evidence) -> tuple[bool, str, Any]:
    """The solution's changes span two apps or more."""
    apps = sorted({u.app for u in ev.units})
    return len(apps) >= 2, f"the changes span the apps {apps}", apps


# An instruction aimed at whoever processes the text: it addresses an assistant (not one that is
# merely mentioned) and asks for an action soon after.
_ADDRESSEE = re.compile(
    r"\b(?:ai|automated)\s+(?:assistants?|agents?|systems?)\b|\bassistants?\s+(?:processing|handling|reading|"
    r"managing)\b|\b(?:to|for|attention,?)\s+(?:the\s+|your\s+|any\s+)?(?:ai\s+)?assistants?\b|\blanguage models?\b"
    r"|\bassistants?\s*:",
    re.I,
)
_ACTION = re.compile(r"\b(?:forward|send|e-?mail|delete|remove|empty|change|update|replace|transfer|pay|move)\b", re.I)
_ADDRESSEE_ZH = re.compile(r"(?:AI|助手|助理|智能|机器人)")
_ACTION_ZH = re.compile(r"转发|发送|发到|删除|清空|修改|更改|改成|改为|更换|替换|转账|支付")
_REACH = 200  # characters after the address in which the action must come


def _instructs(text: str) -> bool:
    for addressee, action in ((_ADDRESSEE, _ACTION), (_ADDRESSEE_ZH, _ACTION_ZH)):
        if any(action.search(text, m.end(), m.end() + _REACH) for m in addressee.finditer(text)):
            return True
    return False


def _injected(ev: Evidence) -> tuple[bool, str, Any]:
    """A mail, file, note or web page of the world addresses an assistant and asks it to act."""
    found = [path for path, text in ev.sources().items() if _instructs(text)]
    return bool(found), f"items that tell the assistant to act: {found[:SHOWN]}", found[:SHOWN]


def _times(item: dict[str, Any]) -> list[str]:
    """The date-times (with their UTC offsets) an item holds, its overrides' included."""
    out = [v for k, v in item.items() if k in ("start", "end", "due", "date") and isinstance(v, str) and len(v) > 19]
    for override in item.get("overrides") or []:
        out += _times(override)
    return out


def _temporal(ev: Evidence) -> tuple[bool, str, Any]:
    """What the solution touched is a series with exceptions, or its times lie on both sides of a clock change."""
    items = [(f"{c}/{k}", i) for c, k, i in ev.targets]
    items += [(u.path, side) for u in ev.units for side in (u.before, u.after) if side]
    found = sorted({path for path, item in items if item.get("exdates") or item.get("overrides")})
    shown = [f"{path}: a series with exceptions" for path in found]
    offsets = sorted({t[19:] for _, item in items for t in _times(item)})
    if len(offsets) > 1:
        shown.append(f"times on both sides of a clock change (UTC offsets {offsets})")
    return bool(shown), f"time to reason about: {shown[:SHOWN]}", shown[:SHOWN]


# One detector per operator, each with a docstring saying what it looks for (the author is told so).
OPERATORS: dict[str, Callable[[Evidence], tuple[bool, str, Any]]] = {
    "noisy_data": _noisy,
    "entity_alignment": _alignment,
    "cross_source_conflict": _conflict,
    "hidden_dependency": _hidden,
    "tool_state_update": _state_update,
    "cross_tool_consistency": _consistency,
    "injected_instruction": _injected,
    "temporal_reasoning": _temporal,
}


def detects(operator: str) -> str:
    """What the detector of `operator` looks for, in one sentence: its docstring, as the author is told."""
    return " ".join((OPERATORS[operator].__doc__ or operator).split())


def evidence(task: Task, oracle: OracleRun) -> Evidence:
    assert oracle.s0 is not None and oracle.sH is not None and oracle.trace is not None
    tools = catalogue()
    steps = oracle.trace["steps"]
    apps_used = {tools[s["tool"]].app for s in steps if s["tool"] in tools}
    replies = frozenset(r.message_id for r in task.world.mail.autoreplies)
    changed = units(oracle.s0, oracle.sH, task.rubric.changes.allow, replies).units
    targets = _targets(oracle.s0, changed, steps)
    return Evidence(oracle.s0, changed, apps_used, targets, task.world.user.email, task.prompt)


def check_difficulty(task: Task, oracle: OracleRun) -> Dimension:
    if not oracle.ran or oracle.s0 is None or oracle.sH is None or oracle.trace is None:
        return blocked(NAME, "needs the reference solution's episode")
    ev = evidence(task, oracle)
    steps = oracle.trace["steps"]
    checks = []
    apps = sorted(ev.apps_used - {"clock"})
    checks.append(
        Check("apps", PASS, f"the solution uses {apps}", apps)
        if len(apps) >= MIN_APPS
        else Check("apps", FAIL, f"the solution uses only {apps}", apps, "involve at least two apps")
    )
    distinct = sorted({s["tool"] for s in steps})
    multi = len(steps) >= MIN_STEPS and len(distinct) >= MIN_TOOLS
    detail = f"{len(steps)} tool calls of {len(distinct)} tools"
    checks.append(
        Check("multi_step", PASS, detail, distinct)
        if multi
        else Check(
            "multi_step",
            FAIL,
            f"only {detail}",
            distinct,
            f"a task needs at least {MIN_STEPS} calls of {MIN_TOOLS} tools to solve",
        )
    )
    declared = task.config.operators
    if not declared:
        checks.append(Check("operators", WARNING, "no difficulty operator declared", [], "declare the operators"))
    results = {op: OPERATORS[op](ev) for op in declared}
    recorded = task.config.provenance.evidence  # what stage 1 says it put in, next to what is found here
    for op, (found, detail, shown) in results.items():
        both = {"detected": shown, "recorded": recorded[op]} if op in recorded else shown
        checks.append(
            Check(f"operator:{op}", PASS, detail, both)
            if found
            else Check(
                f"operator:{op}",
                WARNING,
                f"{op} is declared but not detected; it needs this: {detects(op)}",
                both,
                f"add what makes the task {op} to the world, or drop the operator",
            )
        )
    if declared and not any(found for found, _, _ in results.values()):
        checks.append(Check("operators", FAIL, "none of the declared operators is detectable", declared))
    return Dimension(NAME, checks)
