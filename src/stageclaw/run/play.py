"""`stageclaw play`: one episode for a player that is not a built-in agent, and the shell client for it.

`play` runs the episode as an ordinary run of the agent `play:NAME` (one task, one trial, no retry of
an infrastructure failure: the player would lose their work), so its folder is a run directory that
`stageclaw report` reads. The shell client (`tools`, `call`, `finish`) reads `play.json` in that
folder and talks to the running play: tool calls go through its MCP endpoint, so they are budgeted
and audited like any agent's.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stageclaw.agents.play import PLAY_JSON
from stageclaw.errors import StageclawError
from stageclaw.run.store import RESULTS, read_results

if TYPE_CHECKING:  # the shell client's calls are short processes: they import only what they use
    from stageclaw.task.loader import Task

GRADE_WAIT_S = 300.0  # how long `finish` waits for the grade after the player finished
WIDTH = 100  # a JSON value shorter than this is printed on one line
# The SDK's link to pydantic's documentation, under each error in the arguments it validated.
_SDK_NOISE = re.compile(r"\n *For further information visit \S+")
EXAMPLE = '{"folder": "INBOX", "limit": 20}'  # arguments, as a player writes them


def play(
    task: Task,
    out: Path,
    player: str,
    on_ready: Callable[[dict[str, Any]], None],
    time_budget_s: float | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one episode of `task` in the run directory `out`; returns its results line and the run's summary.

    `on_ready` gets play.json's content once the world is up and the endpoints answer. `time_budget_s`
    replaces the task's time budget (the step budget stays the task's). Raises KeyboardInterrupt when
    the run was interrupted (the episode is then not recorded).
    """
    from stageclaw.run.runner import RunConfig, run

    options = {"time_budget_s": time_budget_s} if time_budget_s is not None else {}
    config = RunConfig(agent=f"play:{player}", out=out, infra_retries=0, agent_options=options)
    path = Path(out) / PLAY_JSON
    before = _stamp(path)  # a play.json left by an earlier, interrupted play is not this one's
    done = threading.Event()

    def announce() -> None:
        while not done.wait(0.05):
            stamp = _stamp(path)
            if stamp is not None and stamp != before:
                on_ready(read_play(out))
                return

    watcher = threading.Thread(target=announce, name="play-announce", daemon=True)
    watcher.start()
    try:
        summary = run([task], config)
    finally:
        done.set()
        watcher.join()
    results = read_results(Path(out) / RESULTS)
    if not results:  # the runner returns without a line only when it was stopped
        raise KeyboardInterrupt
    return results[-1], summary


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns


def read_play(folder: Path) -> dict[str, Any]:
    path = Path(folder) / PLAY_JSON
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StageclawError(
            f"{folder}: no {PLAY_JSON}; start a play with: stageclaw play TASK --out {folder}"
        ) from None
    except ValueError as exc:
        raise StageclawError(f"{path}: not valid JSON ({exc})") from None


def _ended(folder: Path, *, grade: bool = False) -> StageclawError:
    """The error for a play that does not answer: ended or stopped. Only `--finish` tells the grade: a player
    who calls a tool of a play already over (a blind playtester going on to the next task) does not learn it."""
    results = read_results(Path(folder) / RESULTS)
    if results and grade:
        return StageclawError(f"the play in {folder} has ended: {outcome_line(results[-1])}")
    if results:
        return StageclawError(f"the play in {folder} has ended; `stageclaw play --finish {folder}` tells its grade")
    return StageclawError(f"the play in {folder} is not running (stageclaw play ended or was stopped)")


# -- the shell client ----------------------------------------------------------------------------


def finish(folder: Path, answer: str, wait_s: float = GRADE_WAIT_S) -> dict[str, Any]:
    """End the play in `folder` with `answer`; returns its results line once it is graded."""
    info = read_play(folder)
    request = urllib.request.Request(
        info["page_url"] + "api/finish",
        data=json.dumps({"answer": answer}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        if exc.code != 409:  # 409: it had already finished; wait for its grade all the same
            raise StageclawError(f"the play in {folder} refused to finish: HTTP {exc.code}") from None
    except OSError:
        raise _ended(folder, grade=True) from None
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        results = read_results(Path(folder) / RESULTS)
        if results:
            return results[-1]
        time.sleep(0.2)
    raise StageclawError(f"the play in {folder} finished, but no grade came within {wait_s:g} s")


def outcome_line(result: dict[str, Any]) -> str:
    if result["score"] is None:
        return f"status {result['status']}, not scored ({result.get('error') or 'no grade'})"
    verdict = "success" if result["success"] else "not a success"
    return f"score {result['score']:g}, {verdict} (status {result['status']}, {result['steps']} tool calls)"


def _session(folder: Path, work: Callable[[Any], Any]) -> Any:
    """Run `work(client)` in an MCP session with the play in `folder`."""
    import anyio
    from mcp import Client

    url = read_play(folder)["mcp_url"]

    async def main() -> Any:
        async with Client(url) as client:
            return await work(client)

    if not _answers(url):
        raise _ended(folder)
    try:
        return anyio.run(main)
    except Exception:
        if not _answers(url):  # it ended during the call
            raise _ended(folder) from None
        raise


def _answers(url: str) -> bool:
    """Whether something listens where the play served (the SDK reports a refused connection in layers
    of exception groups)."""
    where = urllib.parse.urlsplit(url)
    try:
        socket.create_connection((where.hostname, where.port), timeout=5).close()
    except OSError:
        return False
    return True


def list_tools(folder: Path) -> list[dict[str, Any]]:
    """The tools the play serves: name, description, input schema."""

    async def work(client: Any) -> list[dict[str, Any]]:
        listed = await client.list_tools()
        return [
            {"name": t.name, "description": t.description or "", "input_schema": t.input_schema} for t in listed.tools
        ]

    return _session(folder, work)


def call_tool(folder: Path, tool: str, args: dict[str, Any]) -> tuple[bool, Any]:
    """(True, result) or (False, the tool's error message) of one call through the play's MCP endpoint."""

    async def work(client: Any) -> tuple[bool, Any]:
        result = await client.call_tool(tool, args)
        text = "\n".join(getattr(c, "text", "") for c in result.content).strip()
        if result.is_error:
            return False, _SDK_NOISE.sub("", text.removeprefix(f"Error executing tool {tool}: ")).strip()
        return True, result.structured_content if result.structured_content is not None else text

    return _session(folder, work)


def parse_args(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise StageclawError(f'the arguments are not JSON ({exc}); write them like \'{{"folder": "INBOX"}}\'') from None
    if not isinstance(value, dict):
        raise StageclawError(f"the arguments must be a JSON object, like '{EXAMPLE}' (or '{{}}')")
    return value


# -- compact output ------------------------------------------------------------------------------


def usage(tool: dict[str, Any]) -> str:
    """A tool as a shell player reads it: its signature, its description, then one line per argument."""
    schema = tool["input_schema"] or {}
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    signature = ", ".join(n if n in required else f"{n}?" for n in props)
    lines = [f"{tool['name']}({signature})"]
    lines += [f"    {line}" if line else "" for line in tool["description"].strip().splitlines()]
    for name, prop in props.items():
        bits = [_type(prop)]
        if prop.get("default") is not None:
            bits.append(f"default {json.dumps(prop['default'])}")
        about = f" - {prop['description']}" if prop.get("description") else ""
        lines.append(f"    · {name}{'' if name in required else '?'}: {', '.join(bits)}{about}")
    return "\n".join(lines)


def _type(prop: dict[str, Any]) -> str:
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    out = []
    for p in options:
        kind = p.get("type", "any")
        if "enum" in p:
            kind = " | ".join(json.dumps(v) for v in p["enum"])
        elif kind == "array":
            kind = f"[{_type(p.get('items', {}))}]"
        if "minimum" in p or "maximum" in p:
            kind += f" {p.get('minimum', '')}..{p.get('maximum', '')}"
        out.append(kind)
    return " | ".join(out) or "any"


def compact_json(value: Any, indent: str = "") -> str:
    """JSON with each object or list on one line when it fits in WIDTH columns, else one item a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {compact_json(v, inner).lstrip()}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    items = [f"{inner}{compact_json(v, inner)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{indent}]"
