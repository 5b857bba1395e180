"""Tool-call overhead: the registry over calling the same tool function directly, the tool over
the bare client call it wraps, and an MCP call over stdio and over streamable HTTP (kept-alive: a
delayed-ACK stall would add ~40 ms to every call); then the cost of reading documents
(a 20-page compressed PDF through files_read, the extractor alone, and pdftotext in the sandbox)
and of paging (500 messages and 2,000 files, a page at a time).

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

from stageclaw.author.content.files import pdf_pages
from stageclaw.tools import documents
from stageclaw.tools.files import READ_CAP
from stageclaw.tools.mcp_server import serve_http
from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool, load_world
from stageclaw.world.model import parse_world

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


def http_call_ms(registry: Registry, repeat: int) -> float:
    """The median `now` call over streamable HTTP on one kept-alive connection."""

    async def calls(url: str) -> float:
        async with Client(url) as client:
            await client.call_tool("now", {})
            samples = []
            for _ in range(repeat):
                t = time.perf_counter()
                await client.call_tool("now", {})
                samples.append(time.perf_counter() - t)
        return statistics.median(samples) * 1000

    with serve_http(registry) as url:
        return asyncio.run(calls(url))


def documents_ms(registry: Registry, workspace: Path, repeat: int) -> list[tuple[str, float]]:
    """Reading a 20-page compressed PDF (about 45 lines a page), three ways."""
    pages = [
        (f"Annual report, page {n}", [f"{n}.{j} Revenue grew in region {j} by {j * 1.7:.1f}%" for j in range(45)])
        for n in range(1, 21)
    ]
    data = pdf_pages(pages)
    (workspace / "report.pdf").write_bytes(data)
    return [
        (
            f"documents.extract ({len(data) // 1024} KiB PDF)",
            median_ms(lambda: documents.extract("r.pdf", data, budget=READ_CAP), repeat),
        ),
        ("files_read report.pdf", median_ms(lambda: registry.call("files_read", {"path": "report.pdf"}), repeat)),
        (
            "terminal_run pdftotext",
            median_ms(lambda: registry.call("terminal_run", {"command": "pdftotext report.pdf - | wc -l"}), repeat),
        ),
    ]


def all_pages_ms(registry: Registry, name: str, args: dict[str, Any]) -> tuple[float, int, int]:
    """Time to walk every page of a listing; (ms, pages, items)."""
    t = time.perf_counter()
    cursor, pages, items = None, 0, 0
    while True:
        page = registry.call(name, {**args, **({"cursor": cursor} if cursor else {})})
        pages += 1
        items += len(next(v for v in page.values() if isinstance(v, list)))
        cursor = page["next_cursor"]
        if cursor is None:
            return (time.perf_counter() - t) * 1000, pages, items


def paging_rows(pool: ServicePool, repeat: int) -> list[tuple[str, str]]:
    """500 messages in two folders and 2,000 files: one page, and every page."""
    world, _ = load_world(EXAMPLE)
    messages = [
        {
            "message_id": f"<m{i}@bulk.example>",
            "from": "Shop <news@bulk.example>",
            "to": [world.user.email],
            "subject": f"Offer {i}",
            "date": f"2026-02-{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00",
            "body": "x " * 200,
        }
        for i in range(500)
    ]
    bulk = {
        "now": "2026-03-10T09:00:00+08:00",
        "timezone": "Asia/Shanghai",
        "user": {"name": world.user.name, "email": world.user.email},
        "mail": {"folders": {"INBOX": messages[:250], "Archive": messages[250:]}},
    }
    rows = []
    with pool.episode(parse_world(bulk), EXAMPLE) as episode, Registry(episode) as registry:
        for i in range(2000):
            folder = episode.workspace / f"archive/{i // 100:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"note-{i:04d}.txt").write_text("x")
        first = median_ms(lambda: registry.call("mail_search", {}), repeat)
        rows.append(("mail_search, first page (20 of 500)", f"{first:8.2f} ms"))
        for limit in (50, 200):
            ms, pages, items = all_pages_ms(registry, "mail_search", {"limit": limit})
            rows.append((f"mail_search, all 500, limit {limit}", f"{ms:8.2f} ms in {pages} pages ({items} messages)"))
        first = median_ms(lambda: registry.call("files_list", {}), repeat)
        rows.append(("files_list, first page (200 of 2,020)", f"{first:8.2f} ms"))
        ms, pages, items = all_pages_ms(registry, "files_list", {"limit": 1000})
        rows.append(("files_list, all, limit 1000", f"{ms:8.2f} ms in {pages} pages ({items} entries)"))
    return rows


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
        reading = documents_ms(registry, episode.workspace, max(5, args.repeat // 5))
        paged = paging_rows(pool, max(5, args.repeat // 5))
        over_http = http_call_ms(registry, args.repeat)
    started, over_mcp = asyncio.run(mcp_call_ms(args.repeat))

    print(f"{'tool':22} {'registry':>10} {'tool fn':>10} {'overhead':>10} {'bare client':>12}")
    for name, reg, direct, client in rows:
        bare_text = f"{client:10.2f} ms" if client is not None else f"{'-':>12}"
        print(f"{name:22} {reg:7.2f} ms {direct:7.2f} ms {reg - direct:7.3f} ms {bare_text}")
    print(f"\nMCP over stdio: spawn + initialize {started:.2f} s")
    reg_by_name = {name: reg for name, reg, _, _ in rows}
    for name, ms in over_mcp.items():
        print(f"  {name:20} {ms:7.2f} ms per call ({ms - reg_by_name[name]:+.2f} ms over the in-process registry)")
    print(f"MCP over streamable HTTP (kept-alive): now {over_http:7.2f} ms per call")
    print("\nReading a 20-page compressed PDF (median):")
    for name, ms in reading:
        print(f"  {name:34} {ms:8.2f} ms")
    print("\nPaging:")
    for name, text in paged:
        print(f"  {name:40} {text}")


if __name__ == "__main__":
    main()
