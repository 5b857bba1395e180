"""World performance at two sizes: a 200-object world and a 5,000-object one (2,000 messages, 2,000
events with recurring series and their exceptions, 500 contacts, 500 files, and a few notes and
reminders), both made by the volume generator (`stageclaw.author.content.volume`).

    python benchmarks/world.py [--sizes 200,5000] [--repeat N] [--calls N]

For each size it prints, in milliseconds: pool start; episode build and snapshot, cold and warm;
8 builds at once (warm); and every tool's latency on that world (median and p95 over `--calls`
calls, after one call that is not counted). Targets (issue #16): for 5,000 objects, build <= 1 s
cold, snapshot <= 1 s, every tool <= 200 ms median.

"cold" is a world object built for the first time in this process, with every parse cache empty;
"warm" is another episode of the same world (trials, resets), which reuses the rendered store
files and parsed items. The machine's load average is printed with the figures: on a shared
machine, wall times grow with it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from stageclaw.author.content.people import People
from stageclaw.author.content.timeline import at
from stageclaw.author.content.volume import Life, Scale
from stageclaw.author.draft import TaskDraft
from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool, state
from stageclaw.world.model import World, parse_world


def life_draft(objects: int) -> TaskDraft:
    """About `objects` objects of an ordinary London user's life, the same every time."""
    rng = random.Random(f"benchmark-world:{objects}")
    people = People(rng)
    me = people.person("uk", org=people.company("uk"), title="Product Manager")
    now = at(date(2026, 3, 10), 9, 0, me.tz)
    draft = TaskDraft(
        id="bench",
        title="bench",
        group="planning",
        now=now.isoformat(),
        timezone=me.tz,
        user={"name": me.name, "email": me.email},
    )
    scale = Scale.of(objects)
    # Some notes and reminders, so their tools have something to list (the reminder tables hold about 20).
    notes, reminders = max(2, objects // 100), min(20, max(2, objects // 100))
    scale = replace(scale, files=scale.files - notes - reminders, notes=notes, reminders=reminders)
    Life(draft, rng, people, me, now, months=12).fill(scale)
    return draft


def life_world(objects: int, base: Path) -> World:
    """The world of `life_draft`, its assets (the PDFs and images) written under `base`."""
    draft = life_draft(objects)
    for rel, data in draft.assets.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_bytes(data)
    return parse_world(draft.world())


def count(world: World) -> int:
    return (
        sum(len(v) for v in world.mail.folders.values())
        + sum(len(v) for v in world.calendar.values())
        + sum(len(v) for v in world.reminders.values())
        + sum(len(v) for v in world.notes.values())
        + len(world.contacts)
        + len(world.files)
    )


def calls(world: World) -> list[tuple[str, dict[str, Any]]]:
    """A call of every tool an agent uses on such a world, with arguments that find something."""
    series = next(e for events in world.calendar.values() for e in events if e.rrule)
    contact = world.contacts[len(world.contacts) // 2]
    some_file = sorted(world.files)[len(world.files) // 2]
    folder = some_file.rsplit("/", 1)[0]
    note = next(n for notes in world.notes.values() for n in notes)
    todo = next(t for todos in world.reminders.values() for t in todos)
    calendar = next(iter(world.calendar))
    week = (world.now.date().isoformat(), date.fromordinal(world.now.date().toordinal() + 6).isoformat())
    word = contact.name.split()[0]
    return [
        ("now", {}),
        ("mail_list_folders", {}),
        ("mail_search", {}),
        ("mail_search", {"text": "invoice"}),
        ("mail_search", {"sender": word, "since": f"{world.now.year}-01-01"}),
        ("mail_read", {"id": "INBOX/1"}),
        ("mail_flag", {"id": "INBOX/2", "flag": "flagged", "on": True}),
        ("calendar_list_calendars", {}),
        ("calendar_list_events", {"start": week[0], "end": week[1]}),
        (
            "calendar_list_events",
            {"start": f"{world.now.year}-01-01", "end": f"{world.now.year}-12-31", "query": "review"},
        ),
        ("calendar_get_event", {"uid": series.uid}),
        ("calendar_create_event", {"calendar": calendar, "summary": "Benchmark", "start": f"{week[1]}T15:00"}),
        ("calendar_update_event", {"uid": series.uid, "location": "Room 7"}),
        ("contacts_search", {"query": word}),
        ("contacts_get", {"uid": contact.uid}),
        ("contacts_update", {"uid": contact.uid, "title": "Engineer"}),
        ("files_list", {"path": folder}),
        ("files_read", {"path": some_file}),
        ("reminders_list", {}),
        ("reminders_update", {"uid": todo.uid, "priority": 5}),
        ("notes_list", {}),
        ("notes_search", {"query": "meeting"}),
        ("notes_read", {"uid": note.uid}),
    ]


def timed(registry: Registry, name: str, args: dict[str, Any], errors: list[str]) -> float:
    """One call's wall time; a failed call (a time-out, say) is counted, with its message."""
    t = time.perf_counter()
    try:
        registry.call(name, args)
    except ToolError as exc:
        errors.append(exc.message)
    return time.perf_counter() - t


def ms(samples: list[float]) -> str:
    return f"{1000 * statistics.median(samples):8.1f}"


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(pool: ServicePool, objects: int, repeat: int, n_calls: int, base: Path) -> None:
    world = life_world(objects, base)
    cold_builds, cold_snaps, builds, snaps, concurrent = [], [], [], [], []

    def build_and_snapshot(of: World, build_times: list[float], snapshot_times: list[float]) -> None:
        t = time.perf_counter()
        ep = pool.episode(of, base)
        build_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        ep.snapshot()
        snapshot_times.append(time.perf_counter() - t)
        ep.close()

    for _ in range(repeat):
        fresh = life_world(objects, base)  # a world object never built before, nothing parsed yet
        state.clear_caches()
        build_and_snapshot(fresh, cold_builds, cold_snaps)
    for _ in range(repeat):
        build_and_snapshot(world, builds, snaps)
    with ThreadPoolExecutor(8) as ex:
        for _ in range(max(2, repeat // 4)):
            t = time.perf_counter()
            eps = list(ex.map(lambda _: pool.episode(world, base), range(8)))
            concurrent.append(time.perf_counter() - t)
            for ep in eps:
                ep.close()
    latencies: dict[str, list[float]] = {}
    firsts: dict[str, float] = {}
    errors: dict[str, list[str]] = {}
    with pool.episode(world, base) as ep, Registry(ep) as registry:
        for name, args in calls(world):
            label = f"{name} {sorted(args)}" if name in {"mail_search", "calendar_list_events"} else name
            firsts[label] = timed(registry, name, args, errors.setdefault(label, []))
            samples = latencies.setdefault(label, [])
            for _ in range(n_calls):
                samples.append(timed(registry, name, args, errors[label]))

    print(f"\n== world of {count(world)} objects (load average {os.getloadavg()[0]:.1f}) ==")
    print(f"{'':28}{'median ms':>10}{'min':>9}{'max':>9}")
    for label, samples in (
        ("episode build, cold", cold_builds),
        ("episode build, warm", builds),
        ("snapshot, cold", cold_snaps),
        ("snapshot, warm", snaps),
        ("8 builds at once (warm)", concurrent),
    ):
        print(f"{label:28}{ms(samples):>10}{1000 * min(samples):9.1f}{1000 * max(samples):9.1f}")
    print(f"\n{'tool':62}{'first ms':>9}{'median ms':>10}{'p95 ms':>8}  failed")
    for label, samples in latencies.items():
        failed = f"  {len(errors[label])}: {errors[label][0][:60]}" if errors[label] else ""
        print(f"{label[:62]:62}{1000 * firsts[label]:9.1f}{ms(samples):>10}{p95(samples):8.1f}{failed}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="200,5000")
    parser.add_argument("--repeat", type=int, default=5, help="builds and snapshots per figure")
    parser.add_argument("--calls", type=int, default=15, help="calls per tool after the first")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp())
    starts = []
    for _ in range(3):
        t = time.perf_counter()
        pool = ServicePool().start()
        starts.append(time.perf_counter() - t)
        pool.stop()
    print(f"pool start {ms(starts)} ms (median of 3), {os.cpu_count()} CPUs, {datetime.now():%Y-%m-%d %H:%M}")
    with ServicePool() as pool:
        for size in (int(s) for s in args.sizes.split(",")):
            measure(pool, size, args.repeat, args.calls, base)


if __name__ == "__main__":
    main()
