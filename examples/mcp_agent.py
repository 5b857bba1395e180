"""A minimal external agent: `stageclaw run --agent 'cmd:python examples/mcp_agent.py' --tasks tasks/examples`.

It solves nothing: it reads the request, asks the clock, looks at the user's files, leaves a note
and prints its final answer, to show the wiring (and, graded, that a stray note is collateral damage).
"""

import asyncio
import os

from mcp import Client


async def main() -> None:
    async with Client(os.environ["STAGECLAW_MCP_URL"]) as tools:
        now = (await tools.call_tool("now", {})).structured_content
        listing = (await tools.call_tool("files_list", {})).structured_content
        files = [e["path"] for e in listing["entries"] if e["type"] == "file"]
        note = f"Asked at {now['now']} ({now['timezone']}):\n\n{os.environ['STAGECLAW_PROMPT']}\n"
        written = await tools.call_tool("files_write", {"path": "agent-notes.md", "content": note})
        if written.is_error:  # a refused call is a result with a message for the agent, not an exception
            raise SystemExit(f"files_write failed: {written.content[0].text}")
    print(f"I read the request, saw {len(files)} files and wrote agent-notes.md.")


asyncio.run(main())
