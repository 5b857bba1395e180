"""Difficulty: the declared operators are present, shown by evidence computed from the world and
the reference solution's episode; the solution takes several steps and uses at least two apps.

Evidence per operator:
- noisy_data: a near-duplicate of an item the solution used or changed;
- entity_alignment: one person under two names, or under two addresses with the same surname;
- cross_source_conflict: two look-alike items (or a file and an attachment) that disagree;
- hidden_dependency: the solution read from an app it did not change;
- tool_state_update: the solution made persistent changes;
- cross_tool_consistency: the changes span at least two apps;
- injected_instruction: a mail, file, note or web page of the world tells the assistant to act;
- temporal_reasoning: what the solution touched is a series with exceptions, or its times lie on
  both sides of a clock change.

Generated tasks also record, in task.toml `[provenance.evidence]`, what each operator put into the
world (diff paths of the look-alikes, the aliases, the moved fact); an operator check shows that
record next to what it detected, so an auditor can compare the two.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any

from stageclaw.task.loader import Task
from stageclaw.tools.registry import catalogue
from stageclaw.validate import nudges, paths
from stageclaw.validate.changes import Unit, units
from stageclaw.validate.oracle import OracleRun
from stageclaw.validate.report import FAIL, PASS, WARNING, Check, Dimension, blocked
from stageclaw.validate.similar import LABEL_FIELDS, NEAR_DUPLICATE, person_entries, ratio, similarity

NAME = "difficulty"
MIN_STEPS, MIN_TOOLS, MIN_APPS = 4, 3, 2
SHOWN = 5
_BROWSING = re.compile(r"_(list|search)\b|_list_")  # listing a whole app does not single out an item
_VOLATILE = {"uid", "message_id", "date", "flags", *LABEL_FIELDS}


@dataclass
class Evidence:
    s0: dict[str, Any]
    units: list[Unit]
    apps_used: set[str]
    targets: list[tuple[str, str, dict[str, Any]]]
    user: str


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
    shown = [f"{a} ~ {b} ({s})" for s, a, _, b, _ in _look_alikes(ev)[:SHOWN]]
    return bool(shown), f"near-duplicates of the items the task is about: {shown}", shown


def _identities(ev: Evidence) -> set[tuple[str, str]]:
    """(name, address) of every named person in E0, the user aside."""
    found = set()
    for _, _, item in paths.items(ev.s0):
        for field, value in person_entries(item):
            name, addr = parseaddr(value)
            if not name and field == "emails":  # a contact's addresses carry the contact's name
                name = item.get("name") or ""
            if addr and name and addr.lower() != ev.user:
                found.add((" ".join(name.split()), addr.lower()))
    return found


def _aliases(ev: Evidence) -> list[str]:
    people = sorted(_identities(ev))
    out = []
    for i, (name_a, addr_a) in enumerate(people):
        for name_b, addr_b in people[i + 1 :]:
            if name_a.lower() == name_b.lower():
                continue
            surname = name_a.split()[-1].lower()
            if addr_a == addr_b or (len(surname) >= 3 and surname == name_b.split()[-1].lower()):
                out.append(f"{name_a} <{addr_a}> = {name_b} <{addr_b}>")
    return out


def _alignment(ev: Evidence) -> tuple[bool, str, Any]:
    found = _aliases(ev)
    return bool(found), f"one person under different names or addresses: {found[:SHOWN]}", found[:SHOWN]


def _facts(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in _VOLATILE}


def _conflict(ev: Evidence) -> tuple[bool, str, Any]:
    found = [f"{a} vs {b}" for _, a, item_a, b, item_b in _look_alikes(ev) if _facts(item_a) != _facts(item_b)]
    files = nudges.files_pool(ev.s0)
    for i, f in enumerate(files):
        for g in files[i + 1 :]:
            if f["sha256"] != g["sha256"] and ratio(str(f["filename"]), str(g["filename"])) >= NEAR_DUPLICATE:
                found.append(f"{f['filename']} ({str(f['sha256'])[:8]}) vs {g['filename']} ({str(g['sha256'])[:8]})")
    found = list(dict.fromkeys(found))
    return bool(found), f"look-alike sources that disagree: {found[:SHOWN]}", found[:SHOWN]


def _written_apps(ev: Evidence) -> set[str]:
    return {u.app for u in ev.units}


def _hidden(ev: Evidence) -> tuple[bool, str, Any]:
    read_only = sorted(ev.apps_used - _written_apps(ev) - {"clock"})
    return bool(read_only), f"the solution read from apps it did not change: {read_only}", read_only


def _state_update(ev: Evidence) -> tuple[bool, str, Any]:
    changed = [u.path for u in ev.units]
    return bool(changed), f"{len(changed)} items changed for good: {changed[:SHOWN]}", changed[:SHOWN]


def _consistency(ev: Evidence) -> tuple[bool, str, Any]:
    apps = sorted(_written_apps(ev))
    return len(apps) >= 2, f"the changes span the apps {apps}", apps


# An instruction aimed at whoever processes the text: it addresses an assistant (not one that is
# merely mentioned) and asks for an action soon after.
_ADDRESSEE = re.compile(
    r"\b(?:ai|automated)\s+(?:assistants?|agents?|systems?)\b|\bassistants?\s+(?:processing|handling|reading|"
    r"managing)\b|\b(?:to|for|attention,?)\s+(?:the\s+|your\s+|any\s+)?(?:ai\s+)?assistants?\b|\blanguage models?\b",
    re.I,
)
_ACTION = re.compile(r"\b(?:forward|send|e-?mail|delete|remove|empty|change|update|replace|transfer|pay|move)\b", re.I)
_ADDRESSEE_ZH = re.compile(r"(?:AI|助手|助理|智能|机器人)")
_ACTION_ZH = re.compile(r"转发|发送|发到|删除|清空|修改|更改|改成|改为|更换|替换|转账|支付")
_REACH = 200  # characters after the address in which the action must come


def _texts(item: dict[str, Any]) -> list[str]:
    return [v for k, v in item.items() if isinstance(v, str) and k not in _VOLATILE and len(v) > 20]


def _instructs(text: str) -> bool:
    for addressee, action in ((_ADDRESSEE, _ACTION), (_ADDRESSEE_ZH, _ACTION_ZH)):
        if any(action.search(text, m.end(), m.end() + _REACH) for m in addressee.finditer(text)):
            return True
    return False


def _instructions(s0: dict[str, Any]) -> list[str]:
    """Paths of E0 items with text that tells an assistant to do something."""
    return [f"{c}/{k}" for c, k, item in paths.items(s0) if any(_instructs(t) for t in _texts(item))]


def _injected(ev: Evidence) -> tuple[bool, str, Any]:
    found = _instructions(ev.s0)
    return bool(found), f"items that tell the assistant to act: {found[:SHOWN]}", found[:SHOWN]


def _times(item: dict[str, Any]) -> list[str]:
    """The date-times (with their UTC offsets) an item holds, its overrides' included."""
    out = [v for k, v in item.items() if k in ("start", "end", "due", "date") and isinstance(v, str) and len(v) > 19]
    for override in item.get("overrides") or []:
        out += _times(override)
    return out


def _temporal(ev: Evidence) -> tuple[bool, str, Any]:
    items = [(f"{c}/{k}", i) for c, k, i in ev.targets]
    items += [(u.path, side) for u in ev.units for side in (u.before, u.after) if side]
    found = sorted({path for path, item in items if item.get("exdates") or item.get("overrides")})
    shown = [f"{path}: a series with exceptions" for path in found]
    offsets = sorted({t[19:] for _, item in items for t in _times(item)})
    if len(offsets) > 1:
        shown.append(f"times on both sides of a clock change (UTC offsets {offsets})")
    return bool(shown), f"time to reason about: {shown[:SHOWN]}", shown[:SHOWN]


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


def check_difficulty(task: Task, oracle: OracleRun) -> Dimension:
    if not oracle.ran or oracle.s0 is None or oracle.sH is None or oracle.trace is None:
        return blocked(NAME, "needs the reference solution's episode")
    tools = catalogue()
    steps = oracle.trace["steps"]
    apps_used = {tools[s["tool"]].app for s in steps if s["tool"] in tools}
    changed = units(oracle.s0, oracle.sH, task.rubric.changes.allow).units
    ev = Evidence(oracle.s0, changed, apps_used, _targets(oracle.s0, changed, steps), task.world.user.email)
    checks = []
    apps = sorted(apps_used - {"clock"})
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
    for op, (found, detail, evidence) in results.items():
        shown = {"detected": evidence, "recorded": recorded[op]} if op in recorded else evidence
        checks.append(
            Check(f"operator:{op}", PASS, detail, shown)
            if found
            else Check(
                f"operator:{op}",
                WARNING,
                f"{op} is declared but not detected",
                shown,
                f"add what makes the task {op} to the world, or drop the operator",
            )
        )
    if declared and not any(found for found, _, _ in results.values()):
        checks.append(Check("operators", FAIL, "none of the declared operators is detectable", declared))
    return Dimension(NAME, checks)
