"""Tool-call overhead: the registry over calling the same tool function directly, the tool over
the bare client call it wraps, and an MCP call over stdio.

    python benchmarks/tools.py [--repeat N]

Goal (issue [T]): registry overhead <= 5 ms in-process.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import caldav
import httpx
from mcp import Client, StdioServerParameters

from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool, load_world

EXAMPLE = Path(__file__).resolve().parent.parent / "tasks" / "examples" / "quarterly-sync"
CALLS: dict[str, dict[str, Any]] = {
    "now": {},
    "calendar_get_event": {"uid": "evt-1"},
    "contacts_get": {"uid": "c-1"},
    "files_read": {"path": "docs/plan.md"},
    "mail_list_folders": {},
    "terminal_run": {"command": "true"},
}


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm up: connections, caches
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1000


def bare_clients(episode: Any) -> dict[str, Callable[[], Any]]:
    """The plain client call each tool wraps, with no stageclaw code in between."""
    e = episode.endpoints
    dav = caldav.DAVClient(url=e.caldav_url, username=e.login, password=e.password, auth_type="basic")
    work = next(c for c in dav.principal().calendars() if c.get_display_name() == "Work")
    http = httpx.Client(auth=(e.login, e.password))
    return {
        "calendar_get_event": lambda: work.event_by_uid("evt-1").icalendar_component,
        "contacts_get": lambda: http.get(f"{e.caldav_url}contacts/c-1.vcf").text,
        "files_read": lambda: (episode.workspace / "docs" / "plan.md").read_text(),
    }


async def mcp_call_ms(repeat: int) -> tuple[float, dict[str, float]]:
    argv = ["-m", "stageclaw", "mcp", str(EXAMPLE), "--tools", "now,calendar_*"]
    params = StdioServerParameters(command=sys.executable, args=argv)
    t = time.perf_counter()
    async with Client(params) as client:
        started = time.perf_counter() - t
        results = {}
        for name in ("now", "calendar_get_event"):
            await client.call_tool(name, CALLS[name])
            samples = []
            for _ in range(repeat):
                t = time.perf_counter()
                await client.call_tool(name, CALLS[name])
                samples.append(time.perf_counter() - t)
            results[name] = statistics.median(samples) * 1000
    return started, results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    world, base = load_world(EXAMPLE)
    rows = []
    with ServicePool() as pool, pool.episode(world, base) as episode, Registry(episode) as registry:
        bare = bare_clients(episode)
        for name, call_args in CALLS.items():
            tool = registry.tools[name]
            via_registry = median_ms(lambda n=name, a=call_args: registry.call(n, a), args.repeat)
            direct = median_ms(lambda t=tool, a=call_args: t.func(registry.ctx, **t.parse(a)), args.repeat)
            client = median_ms(bare[name], args.repeat) if name in bare else None
            rows.append((name, via_registry, direct, client))
    started, over_mcp = asyncio.run(mcp_call_ms(args.repeat))

    print(f"{'tool':22} {'registry':>10} {'tool fn':>10} {'overhead':>10} {'bare client':>12}")
    for name, reg, direct, client in rows:
        bare_text = f"{client:10.2f} ms" if client is not None else f"{'-':>12}"
        print(f"{name:22} {reg:7.2f} ms {direct:7.2f} ms {reg - direct:7.3f} ms {bare_text}")
    print(f"\nMCP over stdio: spawn + initialize {started:.2f} s")
    reg_by_name = {name: reg for name, reg, _, _ in rows}
    for name, ms in over_mcp.items():
        print(f"  {name:20} {ms:7.2f} ms per call ({ms - reg_by_name[name]:+.2f} ms over the in-process registry)")


if __name__ == "__main__":
    main()
