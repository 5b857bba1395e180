"""The tools over MCP with the official SDK's client: in-process and over stdio."""

from __future__ import annotations

import sys

import anyio
from mcp import Client, StdioServerParameters

from stageclaw.tools.audit import read
from stageclaw.tools.mcp_server import build_server
from stageclaw.tools.registry import Registry
from stageclaw.world import diff
from tests.conftest import EXAMPLE
from tests.test_tools_registry import DESIGN_TOOLS


def _strip_titles(schema: dict) -> dict:
    return {k: {kk: vv for kk, vv in v.items() if kk != "title"} for k, v in schema.get("properties", {}).items()}


def test_mcp_lists_every_tool_with_its_schema_and_changes_the_world(episode):
    async def session(registry: Registry) -> tuple:
        async with Client(build_server(registry)) as client:
            listed = await client.list_tools()
            write = await client.call_tool("files_write", {"path": "notes/from-mcp.md", "content": "hello from MCP\n"})
            bad = await client.call_tool("files_read", {"path": "../../etc/passwd"})
            return listed.tools, write, bad

    s0 = episode.snapshot()
    with Registry(episode) as registry:
        tools, write, bad = anyio.run(session, registry)
        specs = {s["name"]: s for s in registry.specs()}
    assert {t.name for t in tools} == DESIGN_TOOLS
    for tool in tools:
        spec = specs[tool.name]
        assert tool.description == spec["description"]
        assert _strip_titles(tool.input_schema) == _strip_titles(spec["input_schema"]), tool.name
        assert sorted(tool.input_schema.get("required", [])) == sorted(spec["input_schema"].get("required", []))
    assert not write.is_error
    assert bad.is_error and "outside your files" in bad.content[0].text
    assert [(c["op"], c["path"]) for c in diff(s0, episode.snapshot())] == [("added", "files/notes/from-mcp.md")]


def test_stageclaw_mcp_over_stdio(tmp_path):
    audit = tmp_path / "audit.jsonl"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "stageclaw", "mcp", str(EXAMPLE), "--audit", str(audit), "--tools", "now,files_*"],
    )

    async def session() -> tuple:
        async with Client(params) as client:
            listed = await client.list_tools()
            now = await client.call_tool("now", {})
            read_plan = await client.call_tool("files_read", {"path": "docs/plan.md"})
            missing = await client.call_tool("files_read", {"path": "docs/missing.md"})
            return listed.tools, now, read_plan, missing

    tools, now, read_plan, missing = anyio.run(session)
    assert {t.name for t in tools} == {"now", "files_list", "files_read", "files_write", "files_move", "files_delete"}
    assert now.structured_content["timezone"] == "Asia/Shanghai"
    assert "Q1 plan" in read_plan.structured_content["content"]
    assert missing.is_error
    assert [(e["tool"], e["ok"]) for e in read(audit)] == [("now", True), ("files_read", True), ("files_read", False)]
