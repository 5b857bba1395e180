"""handover's joint choice of covers, shared by the generator (which proves there is one answer and that the
walk down the sheet misses it) and the reference solution (which finds it from what it read).

A problem is a dict: clients (in the sheet's order), colleagues, knows (client -> names, as listed), days
(client -> the days of the user's meetings with them in the leave), off (name -> days out in the leave),
speaks (name -> languages), needs (client -> language), told (client -> the colleague already named), cap."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any


def cover_fits(problem: dict[str, Any], client: str, person: str) -> bool:
    """The colleague knows the client, is at work on its meeting days, speaks its language and is the one the
    client was told of, if any."""
    need = problem["needs"].get(client)
    return (
        person in problem["knows"][client]
        and not set(problem["days"][client]) & set(problem["off"].get(person, ()))
        and (need is None or need in problem["speaks"].get(person, ()))
        and problem["told"].get(client, person) == person
    )


def cover_assignments(problem: dict[str, Any]) -> tuple[int, list[tuple[str, ...]]]:
    """How many assignments (a colleague per client) there are, and the ones that keep every rule."""
    count, valid = 0, []
    clients = problem["clients"]
    for pick in product(problem["colleagues"], repeat=len(clients)):
        count += 1
        if max(Counter(pick).values()) <= problem["cap"] and all(
            cover_fits(problem, c, p) for c, p in zip(clients, pick, strict=True)
        ):
            valid.append(pick)
    return count, valid


def cover_greedy(problem: dict[str, Any]) -> tuple[list[str], str | None]:
    """Each client in the sheet's order to the first listed colleague who fits and is still free; the client
    then left with no one, if any."""
    used: Counter[str] = Counter()
    walk = []
    for client in problem["clients"]:
        pick = next(
            (p for p in problem["knows"][client] if cover_fits(problem, client, p) and used[p] < problem["cap"]),
            None,
        )
        if pick is None:
            return walk, client
        used[pick] += 1
        walk.append(pick)
    return walk, None
