"""Reproducibility: E0 built twice from clean state gives byte-identical snapshots.

Each build loads world.yaml and its assets from disk again and seeds a fresh episode (new
accounts, new workspace, nothing cached from the other build), so anything that can differ
between two builds (an asset that changes, a generated file, a store that is not canonical)
shows as a difference. The snapshot is also compared with world.yaml as written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stageclaw.errors import StageclawError
from stageclaw.validate import paths
from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, Check, Dimension
from stageclaw.world import ServicePool, diff, dumps, load_world, normalize

NAME = "reproducibility"
SHOWN = 20


def _build(task_dir: Path, pool: ServicePool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A fresh build's snapshot, and the state its world.yaml declares."""
    world, base = load_world(task_dir)
    with pool.episode(world, base) as episode:
        return episode.snapshot(), normalize(world, base)


def _paths(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [f"{c['op']} {c['path']}" for c in diff(a, b)][:SHOWN]


def check_reproducibility(task_dir: Path, pool: ServicePool) -> Dimension:
    try:
        first, declared = _build(task_dir, pool)
        second, _ = _build(task_dir, pool)
    except StageclawError as exc:
        return Dimension(NAME, [Check("build_twice", BLOCKED, f"the world does not build: {exc}")])
    checks = []
    if dumps(first) != dumps(second):
        changed = _paths(first, second) or ["the serialized snapshots differ although no item does"]
        checks.append(
            Check(
                "build_twice",
                FAIL,
                f"two builds of E0 differ at {len(changed)} places: " + "; ".join(changed),
                changed,
                "make the world static: no generated, linked or time-dependent assets",
            )
        )
    else:
        size = sum(1 for _ in paths.items(first))
        checks.append(Check("build_twice", PASS, f"two clean builds gave identical snapshots ({size} items)"))
    if dumps(first) != dumps(declared):
        changed = _paths(declared, first)
        checks.append(
            Check(
                "matches_world_yaml",
                WARNING,
                "the built world is not what world.yaml says: " + "; ".join(changed),
                changed,
                "use values the stores keep as written (see the State JSON rules in the README)",
            )
        )
    else:
        checks.append(Check("matches_world_yaml", PASS, "the snapshot equals world.yaml normalized"))
    return Dimension(NAME, checks)
