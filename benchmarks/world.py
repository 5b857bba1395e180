"""World performance: pool start, episode build and snapshot of a ~200-object world, 8 concurrent builds.

    python benchmarks/world.py [--repeat N]

Prints medians in milliseconds. Goals (issue [W]): build <= 50 ms, snapshot <= 100 ms, pool start <= 1.5 s.
"cold" is a world object built for the first time with nothing parsed yet; "warm" is another
episode of the same world (trials, resets), which reuses the rendered store files and parsed items.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

from stageclaw.task.loader import load_task
from stageclaw.world import ServicePool, state
from stageclaw.world.model import World, parse_world
from stageclaw.world.web import data as web_data

WEB_TASK = Path(__file__).resolve().parent.parent / "tasks/examples/summit-trip-booking"

PEOPLE = [
    "Priya Raman",
    "Lin Chen",
    "Mateo García",
    "Amara Okafor",
    "Sven Lindqvist",
    "陈伟",
    "Yuki Tanaka",
    "Fatima Zahra",
]


def big_world(objects: int = 200) -> World:
    """About `objects` seed objects spread over every app, like a busy person's account."""
    start = datetime(2026, 3, 2, 9, 0)
    share = {"mail": 0.4, "events": 0.25, "todos": 0.15, "notes": 0.1, "contacts": 0.075}
    n = {k: int(objects * v) for k, v in share.items()}
    n["files"] = objects - sum(n.values())

    def person(i: int) -> str:
        name = PEOPLE[i % len(PEOPLE)]
        return f"{name} <p{i % len(PEOPLE)}@example.org>"

    messages = [
        {
            "message_id": f"<m{i}@example.org>",
            "from": person(i),
            "to": ["Lin Chen <lin@example.com>"],
            "subject": f"Re: project update {i}",
            "date": (start - timedelta(hours=i)).isoformat() + "+08:00",
            "flags": ["\\Seen"] if i % 3 else [],
            "body": f"Hi Lin,\n\nHere is update {i}.\n\n> earlier text\n\nBest,\n{PEOPLE[i % len(PEOPLE)]}\n",
            **({"attachments": [{"filename": f"report-{i}.csv", "text": "a,b\n1,2\n"}]} if i % 10 == 0 else {}),
        }
        for i in range(n["mail"])
    ]
    events = [
        {
            "uid": f"evt-{i}",
            "summary": f"Meeting {i}",
            "start": (start + timedelta(hours=3 * i)).isoformat(),
            "end": (start + timedelta(hours=3 * i + 1)).isoformat(),
            "attendees": [f"p{i % 8}@example.org"],
            "location": "Room 2",
            **({"rrule": "FREQ=WEEKLY;BYDAY=MO"} if i % 10 == 0 else {}),
        }
        for i in range(n["events"])
    ]
    return parse_world(
        {
            "now": "2026-03-10T09:00:00+08:00",
            "timezone": "Asia/Shanghai",
            "user": {"name": "Lin Chen", "email": "lin@example.com"},
            "mail": {"folders": {"INBOX": messages[: len(messages) // 2], "Archive": messages[len(messages) // 2 :]}},
            "calendar": {"Work": events[: len(events) // 2], "Personal": events[len(events) // 2 :]},
            "reminders": {
                "Inbox": [
                    {"uid": f"r-{i}", "title": f"Task {i}", "due": f"2026-03-{10 + i % 18}", "completed": i % 4 == 0}
                    for i in range(n["todos"])
                ]
            },
            "notes": {
                "Notes": [
                    {"uid": f"n-{i}", "title": f"Note {i}", "body": "text " * 40, "tags": ["work"]}
                    for i in range(n["notes"])
                ]
            },
            "contacts": [
                {"uid": f"c-{i}", "name": PEOPLE[i % 8] + f" {i}", "emails": [f"p{i}@example.org"]}
                for i in range(n["contacts"])
            ],
            "files": {f"docs/file-{i}.md": {"text": f"# File {i}\n\n" + "line\n" * 50} for i in range(n["files"])},
        }
    )


def count(world: World) -> int:
    return (
        sum(len(v) for v in world.mail.folders.values())
        + sum(len(v) for v in world.calendar.values())
        + sum(len(v) for v in world.reminders.values())
        + sum(len(v) for v in world.notes.values())
        + len(world.contacts)
        + len(world.files)
    )


def ms(samples: list[float]) -> str:
    med, lo, hi = (1000 * f(samples) for f in (statistics.median, min, max))
    return f"{med:8.1f} ms  (min {lo:.1f}, max {hi:.1f}, n={len(samples)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    world = big_world()
    base = Path(tempfile.mkdtemp())

    starts = []
    for _ in range(3):
        t = time.perf_counter()
        pool = ServicePool().start()
        starts.append(time.perf_counter() - t)
        pool.stop()

    cold_builds, cold_snaps, builds, snaps, concurrent = [], [], [], [], []
    with ServicePool() as pool:
        for _ in range(args.repeat):
            # cold: a world object never built before, and nothing parsed yet
            fresh = big_world()
            state.clear_caches()
            t = time.perf_counter()
            ep = pool.episode(fresh, base)
            cold_builds.append(time.perf_counter() - t)
            t = time.perf_counter()
            ep.snapshot()
            cold_snaps.append(time.perf_counter() - t)
            ep.close()
        for _ in range(args.repeat):
            # warm: another trial of the same world, as in a benchmark run
            t = time.perf_counter()
            ep = pool.episode(world, base)
            builds.append(time.perf_counter() - t)
            t = time.perf_counter()
            ep.snapshot()
            snaps.append(time.perf_counter() - t)
            ep.close()
        with ThreadPoolExecutor(8) as ex:
            for _ in range(max(3, args.repeat // 4)):
                t = time.perf_counter()
                eps = list(ex.map(lambda _: pool.episode(world, base), range(8)))
                concurrent.append(time.perf_counter() - t)
                for ep in eps:
                    ep.close()
        web_world = load_task(WEB_TASK).world
        ep = pool.episode(web_world, base)
        web_reads = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            web_data.read(ep.web_dir, ep.world.web.apps)
            web_reads.append(time.perf_counter() - t)
        ep.close()

    print(f"world of {count(world)} objects")
    print(f"pool start              {ms(starts)}")
    print(f"episode build, cold     {ms(cold_builds)}")
    print(f"episode build, warm     {ms(builds)}")
    print(f"snapshot, cold          {ms(cold_snaps)}")
    print(f"snapshot, warm          {ms(snaps)}")
    print(f"8 builds concurrently   {ms(concurrent)}  (warm, wall time for all 8)")
    print(f"web state read          {ms(web_reads)}  ({len(web_world.web.apps)} apps of {WEB_TASK.name})")


if __name__ == "__main__":
    main()
