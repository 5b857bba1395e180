"""A task under construction, and how it is written out as a task directory.

Families and operators add to a `TaskDraft`: world objects, rubric items with the check that
decides each, allowed changes, evidence per operator. `write` renders the directory; the same
draft always gives the same bytes (no clock, no unordered iteration, fixed formatting).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw import __version__
from stageclaw.author import verifylib
from stageclaw.author.content.people import slug
from stageclaw.author.emit import Bundle, literal, toml_array, toml_table, toml_value, yaml_text
from stageclaw.task.loader import REVIEW_FILE

APP_ORDER = ("mail", "calendar", "reminders", "notes", "contacts", "files")


@dataclass
class Check:
    """A rubric item decided by a verifylib helper called with literal arguments."""

    id: str
    description: str
    helper: Callable[..., Any]
    args: dict[str, Any]
    weight: float = 1
    critical: bool = True
    stage: str = ""

    @property
    def function(self) -> str:
        return f"check_{self.id}"

    @property
    def uses(self) -> list[str]:
        """What the check reads besides the states: the final answer, when the safe action it accepts is
        to ask the user there (`ask`)."""
        return ["answer"] if self.args.get("ask") is not None else []

    def source(self, shared: dict[str, str] | None = None) -> str:
        """The check function; an argument whose literal is in `shared` is passed by that constant's name.
        The trace goes only to a check that declares it reads it (`uses`)."""
        params = inspect_params(self.helper)
        positional = params[: self.helper.__code__.co_argcount]
        wanted = [p for p in ("initial", "final", "trace") if p in params and (p != "trace" or self.uses)]
        passed = [p if p in positional else f"{p}={p}" for p in wanted]
        named = [f"{k}={(shared or {}).get(literal(v), literal(v))}" for k, v in self.args.items()]
        call = f"return {self.helper.__name__}({', '.join([*passed, *named])})"
        if len(call) > 100:
            body = "\n".join(f"        {line}," for line in [*passed, *named])
            call = f"return {self.helper.__name__}(\n{body}\n    )"
        return f"def {self.function}(initial, final, trace):\n    {call}\n"


def shared_literals(checks: list[Check], min_length: int = 80) -> dict[str, str]:
    """Long argument literals that several checks pass, each with the name of a module constant for it.

    Several rubric items often check one list in different ways; verify.py then states it once.
    """
    uses: dict[str, list[str]] = {}
    for check in checks:
        for key, value in check.args.items():
            text = literal(value)
            if len(text) >= min_length:
                uses.setdefault(text, []).append(key)
    out: dict[str, str] = {}
    taken = set(vars(verifylib))
    for text, keys in uses.items():
        if len(keys) < 2:
            continue
        name, n = keys[0].upper(), 2
        while name in taken:
            name, n = f"{keys[0].upper()}_{n}", n + 1
        taken.add(name)
        out[text] = name
    return out


def inspect_params(func: Callable[..., Any]) -> list[str]:
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])


@dataclass
class Judge:
    id: str
    description: str
    criterion: str
    weight: float = 1
    stage: str = ""


@dataclass
class TaskDraft:
    id: str
    title: str
    group: str
    now: str
    timezone: str
    user: dict[str, str]
    hint: str = ""
    prompt: str = ""
    goal: str = ""
    operators: list[str] = field(default_factory=list)
    time_budget_s: int = 600
    max_steps: int = 40
    summary: str = ""  # one line for the verify.py docstring
    mail: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    autoreplies: list[dict[str, Any]] = field(default_factory=list)  # world.yaml mail.autoreplies
    calendar: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reminders: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    notes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    contacts: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    web: dict[str, Any] = field(default_factory=dict)  # world.yaml `web:` (the local web apps)
    assets: dict[str, bytes] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    judges: list[Judge] = field(default_factory=list)
    allow: list[str] = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    solution: Callable[..., Any] | None = None
    # Other reasonable ways to the goal (name -> solve function), written to hidden/alternatives/NAME.py.
    alternatives: dict[str, Callable[..., Any]] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    # The people and organisations the generator drew (see People.cast); not written out.
    cast: set[str] = field(default_factory=set)
    _reserved: set[str] = field(default_factory=set, repr=False)

    # -- building ---------------------------------------------------------------------------

    def uid(self, prefix: str, label: str) -> str:
        """A readable uid not used yet in the world: `evt-quarterly-sync`, `evt-quarterly-sync-2`."""
        taken = (
            {
                item["uid"]
                for groups in (self.calendar, self.reminders, self.notes)
                for items in groups.values()
                for item in items
            }
            | {c["uid"] for c in self.contacts}
            | self._reserved
        )
        base = f"{prefix}-{slug(label)[:28].strip('-') or 'item'}"
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}-{n}", n + 1
        self._reserved.add(candidate)
        return candidate

    def add_message(self, folder: str, message: dict[str, Any]) -> dict[str, Any]:
        self.mail.setdefault(folder, []).append(message)
        return message

    def add_event(self, calendar: str, event: dict[str, Any]) -> dict[str, Any]:
        self.calendar.setdefault(calendar, []).append(event)
        return event

    def add_reminder(self, lst: str, todo: dict[str, Any]) -> dict[str, Any]:
        self.reminders.setdefault(lst, []).append(todo)
        return todo

    def add_note(self, folder: str, note: dict[str, Any]) -> dict[str, Any]:
        self.notes.setdefault(folder, []).append(note)
        return note

    def add_contact(self, contact: dict[str, Any]) -> dict[str, Any]:
        self.contacts.append(contact)
        return contact

    def add_file(self, path: str, content: bytes | str) -> str:
        """A workspace file, stored as an asset; returns its asset path."""
        asset = self.add_asset(path.rsplit("/", 1)[-1], content)
        self.files[path] = {"path": asset}
        return asset

    def add_asset(self, name: str, content: bytes | str) -> str:
        data = content.encode() if isinstance(content, str) else content
        for existing, stored in self.assets.items():
            if stored == data:
                return existing  # the same bytes downloaded twice are one asset
        stem, dot, ext = name.rpartition(".")
        base = stem if dot else name
        candidate, n = f"assets/{name}", 2
        while candidate in self.assets:
            candidate, n = f"assets/{base}-{n}{dot}{ext}", n + 1
        self.assets[candidate] = data
        return candidate

    def check(self, check: Check) -> Check:
        if any(c.id == check.id for c in self.checks):
            raise ValueError(f"rubric item {check.id!r} added twice")
        self.checks.append(check)
        return check

    def note_levers(self, levers: dict[str, str]) -> None:
        """Record in the provenance what planted difficulty each rubric item grades (item id -> what), one line
        each, for whoever classifies a failed play; items this task's rubric lacks (an operator off) are left out."""
        graded = {c.id for c in self.checks}
        self.provenance["levers"] = [f"{item}: {why}" for item, why in levers.items() if item in graded]

    def permit(self, *patterns: str) -> None:
        self.allow += [p for p in patterns if p not in self.allow]

    def record(self, operator: str, evidence: dict[str, Any]) -> None:
        """Evidence that `operator` is in the task, for stage 2; several calls accumulate."""
        if operator not in self.operators:
            self.operators.append(operator)
        entry = self.evidence.setdefault(operator, {})
        for key, value in evidence.items():
            if isinstance(value, list) and isinstance(entry.get(key), list):
                entry[key] = [*entry[key], *[v for v in value if v not in entry[key]]]
            else:
                entry[key] = value

    # -- rendering ---------------------------------------------------------------------------

    def world(self) -> dict[str, Any]:
        out: dict[str, Any] = {"now": self.now, "timezone": self.timezone, "user": dict(self.user)}
        apps = {
            "mail": {"folders": self.mail} | ({"autoreplies": self.autoreplies} if self.autoreplies else {})
            if self.mail or self.autoreplies
            else None,
            "calendar": self.calendar or None,
            "reminders": self.reminders or None,
            "notes": self.notes or None,
            "contacts": self.contacts or None,
            "files": dict(sorted(self.files.items())) or None,
        }
        out.update({app: apps[app] for app in APP_ORDER if apps[app] is not None})
        if self.web:
            out["web"] = self.web
        return out

    def task_toml(self) -> str:
        config: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "group": self.group,
            "operators": sorted(self.operators),
            "tools": ["*"],
            "time_budget_s": self.time_budget_s,
            "max_steps": self.max_steps,
            "hint": self.hint,
            "provenance": {
                **self.provenance,
                "operators": sorted(self.operators),
                "generator_version": __version__,
                "evidence": {op: self.evidence[op] for op in sorted(self.evidence)},
            },
        }
        return toml_table(config)

    def rubric_toml(self) -> str:
        rows: list[dict[str, Any]] = []
        for c in self.checks:
            rows.append(
                {
                    "id": c.id,
                    "description": c.description,
                    "weight": c.weight,
                    "critical": c.critical,
                    "check": c.function,
                    "stage": c.stage,
                    **({"uses": c.uses} if c.uses else {}),
                }
            )
        for j in self.judges:
            rows.append({"id": j.id, "description": j.description, "weight": j.weight, "judge": j.criterion})
            if j.stage:
                rows[-1]["stage"] = j.stage
        allow = "".join(f"  {toml_value(p)},\n" for p in self.allow)
        return toml_array("item", rows) + f"\n[changes]\nallow = [\n{allow}]\n"

    def verify_py(self) -> str:
        bundle = Bundle()
        for c in self.checks:
            if c.helper.__module__ != verifylib.__name__:
                raise ValueError(f"check {c.id}: helpers come from stageclaw.author.verifylib")
            bundle.add(c.helper)
        shared = shared_literals(self.checks)
        constants = "\n\n".join(f"{name} = {text}" for text, name in shared.items())
        tail = "\n\n\n".join([*([constants] if constants else []), "\n\n".join(c.source(shared) for c in self.checks)])
        return bundle.render(f"Checks for {self.id}: {self.summary or self.title}.", tail=tail)

    def solution_py(self) -> str:
        if self.solution is None:
            raise ValueError(f"{self.id}: the draft has no reference solution")
        return self._solve_module(
            self.solution, f"Reference solution for {self.id}, using the same tools as any agent."
        )

    def alternative_py(self, name: str) -> str:
        doc = f"Alternative solution {name!r} for {self.id}: another reasonable way to the goal."
        return self._solve_module(self.alternatives[name], doc)

    def _solve_module(self, func: Callable[..., Any], doc: str) -> str:
        """A self-contained module whose `solve(tools)` is `func`, with the task's FACTS."""
        bundle = Bundle()
        bundle.add(func)
        tail = "" if func.__name__ == "solve" else f"solve = {func.__name__}\n"
        return bundle.render(doc, facts=self.facts, tail=tail)

    def files_out(self) -> dict[str, bytes]:
        """Every file of the task directory, by relative path."""
        out = {
            "task.toml": self.task_toml(),
            "prompt.md": self.prompt.strip() + "\n",
            "world.yaml": yaml_text(self.world()),
            "hidden/rubric.toml": self.rubric_toml(),
            "hidden/verify.py": self.verify_py(),
            "hidden/solution.py": self.solution_py(),
            "hidden/goal.md": self.goal.strip() + "\n",
            **{f"hidden/alternatives/{name}.py": self.alternative_py(name) for name in sorted(self.alternatives)},
        }
        data = {k: v.encode() for k, v in out.items()}
        data.update(self.assets)
        return dict(sorted(data.items()))

    def write(self, parent: Path) -> Path:
        """Write the task to `parent/<id>/` (replacing an older version there); returns the folder.

        A reviewer's sign-off (review.toml) is kept: it goes stale by itself when the task changes."""
        target = Path(parent) / self.id
        review = target / REVIEW_FILE
        kept = review.read_bytes() if review.is_file() else None
        if target.exists():
            shutil.rmtree(target)
        for rel, data in self.files_out().items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if kept is not None:
            review.write_bytes(kept)
        return target
