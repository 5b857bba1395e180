"""Scenario families: a family turns `(seed, operators)` into a task directory.

A family is a class with a name, a benchmark group, the apps its tasks use, the difficulty
operators it supports (some of them `core`: the scenario cannot do without them) and the
locales it writes. `build(ctx)` returns a `TaskDraft`. All randomness comes from `ctx.rng`,
seeded by the family, the seed, the operators and the locale, so the same arguments always
give the same task, byte for byte.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

from stageclaw.author.content.people import People
from stageclaw.author.draft import TaskDraft
from stageclaw.errors import StageclawError, one_line
from stageclaw.task.model import GROUPS, OPERATORS

ABBREVIATIONS = {
    "cross_source_conflict": "csc",
    "hidden_dependency": "hd",
    "noisy_data": "nd",
    "entity_alignment": "ea",
    "tool_state_update": "tsu",
    "cross_tool_consistency": "ctc",
    "injected_instruction": "ii",
    "temporal_reasoning": "tr",
}


@dataclass
class Context:
    family: str
    seed: int
    operators: tuple[str, ...]
    locale: str
    rng: random.Random = field(repr=False)
    people: People = field(repr=False)

    def on(self, operator: str) -> bool:
        return operator in self.operators

    @property
    def zh(self) -> bool:
        return self.locale == "zh"


class Family(ABC):
    name: ClassVar[str]
    group: ClassVar[str]
    apps: ClassVar[tuple[str, ...]]
    operators: ClassVar[tuple[str, ...]]  # supported
    core: ClassVar[tuple[str, ...]] = ("tool_state_update",)  # always applied
    locales: ClassVar[tuple[str, ...]] = ("en",)
    summary: ClassVar[str]

    @abstractmethod
    def build(self, ctx: Context) -> TaskDraft: ...


FAMILIES: dict[str, Family] = {}


def register(cls: type[Family]) -> type[Family]:
    if cls.group not in GROUPS:
        raise ValueError(f"{cls.__name__}: unknown group {cls.group}")
    unknown = set(cls.operators) - set(OPERATORS)
    if unknown or not set(cls.core) <= set(cls.operators):
        raise ValueError(f"{cls.__name__}: operators {sorted(unknown)} unknown, or core not among them")
    FAMILIES[cls.name] = cls()
    return cls


def all_families() -> dict[str, Family]:
    importlib.import_module("stageclaw.author.families")  # importing the package registers them
    return dict(sorted(FAMILIES.items()))


def get(name: str) -> Family:
    found = all_families().get(name)
    if found is None:
        raise StageclawError(f"no family {name!r}; the families are {', '.join(all_families())}")
    return found


def resolve(family: Family, operators: list[str] | None) -> tuple[str, ...]:
    """The operators a task gets: the family's core ones plus those asked for (all when none are)."""
    if operators is None:
        return tuple(sorted(family.operators))
    unknown = sorted(set(operators) - set(family.operators))
    if unknown:
        raise StageclawError(
            f"family {family.name} does not support {', '.join(unknown)}; it supports {', '.join(family.operators)}"
        )
    return tuple(sorted(set(family.core) | set(operators)))


def task_id(family: Family, seed: int, operators: tuple[str, ...], locale: str) -> str:
    out = f"{family.name}-{seed}"
    if locale != "en":
        out += f"-{locale}"
    if set(operators) != set(family.operators):
        out += "-" + "-".join(ABBREVIATIONS[o] for o in operators)
    return out


def generate(name: str, seed: int, operators: list[str] | None = None, locale: str = "en") -> TaskDraft:
    """The task of family `name` for `seed`; same arguments, same task."""
    family = get(name)
    if locale not in family.locales:
        raise StageclawError(f"family {name} writes {', '.join(family.locales)}, not {locale!r}")
    chosen = resolve(family, operators)
    key = f"{family.name}:{seed}:{sorted(chosen)}" + (f":{locale}" if locale != "en" else "")
    rng = random.Random(key)
    ctx = Context(family.name, seed, chosen, locale, rng, People(rng, native=locale == "zh"))
    try:
        draft = family.build(ctx)
    except StageclawError:
        raise
    except Exception as exc:  # a generator bug this seed runs into: one line, not a traceback
        raise StageclawError(f"family {name} failed for seed {seed}: {one_line(exc)}; try another seed") from exc
    draft.id = task_id(family, seed, chosen, locale)
    draft.group = family.group
    # What the generator wrote there itself (the levers it planted, say) stays, after who made the task.
    draft.provenance = {"family": family.name, "seed": seed, "locale": locale, **draft.provenance}
    draft.cast = set(ctx.people.cast)
    missing = sorted(set(chosen) - set(draft.operators))
    if missing:
        raise AssertionError(f"{name}: the operators {missing} were asked for but recorded no evidence")
    return draft
