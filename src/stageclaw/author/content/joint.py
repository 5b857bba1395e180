"""Joint decisions: every way to give each item one option, and the walk a hurried assistant takes.

One predicate serves both: `fits(picks)` says whether the picks made so far (one option for each of the
first items, in order) keep every rule among themselves. A family proves with `choices` that exactly one
complete choice fits, and with `greedy` that taking each item's first fitting option gets stuck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations, product
from typing import TypeVar

T = TypeVar("T")


def choices(
    options: Sequence[Sequence[T]], fits: Callable[[tuple[T, ...]], bool], *, distinct: bool = False
) -> list[tuple[T, ...]]:
    """Every complete choice that fits, in the order `itertools.product` gives them; with `distinct`, no option
    twice (one shared pool, in the order `itertools.permutations` gives them)."""
    every = permutations(options[0], len(options)) if distinct else product(*options)
    return [picks for picks in every if fits(picks)]


def greedy(options: Sequence[Sequence[T]], fits: Callable[[tuple[T, ...]], bool]) -> tuple[list[T], int | None]:
    """The items in order, each taking its first option that fits beside the picks so far: the picks, and the
    index of the item left with none (None when the walk goes through)."""
    picks: list[T] = []
    for n, offered in enumerate(options):
        pick = next((o for o in offered if fits((*picks, o))), None)
        if pick is None:
            return picks, n
        picks.append(pick)
    return picks, None
