"""The tools reference: every tool of the catalogue, by app, with its description, arguments,
JSON Schema (what an agent is given) and result shape (what a solution gets back)."""

from __future__ import annotations

import json
from typing import Any

from stageclaw.docs.markdown import cell, text
from stageclaw.tools.base import Tool
from stageclaw.tools.registry import catalogue

# The order a reader meets the apps in; an app missing here is listed after them.
APPS = ("clock", "mail", "calendar", "reminders", "notes", "contacts", "files", "terminal", "web")


def render() -> str:
    tools = catalogue()
    apps = sorted({t.app for t in tools.values()}, key=lambda a: (APPS.index(a) if a in APPS else len(APPS), a))
    lines = [
        "# Tools reference",
        "",
        "The agent acts only through these tools. Each is a client of its episode's real server; its arguments are "
        "validated against the JSON Schema below (unknown arguments are refused) and every call, refused ones too, "
        "is written to the episode's `audit.jsonl`. A task's `tools` in task.toml selects among them by name or glob. "
        "**Returns** gives the result's shape in the words of the [State JSON](../contract.md#state-json) "
        "(`EVENT`, `MESSAGE`, ...): what a reference solution gets back from `tools.NAME(...)`. "
        "How they behave in general (paging, invitations, documents, faults) is in [Tools](../tools.md).",
        "",
        "| app | tools |",
        "|---|---|",
    ]
    for app in apps:
        names = sorted(n for n, t in tools.items() if t.app == app)
        lines.append(f"| {app} | {', '.join(f'[`{n}`](#{n})' for n in names)} |")
    lines.append("")
    for app in apps:
        lines += [f"## {app}", ""]
        for name in sorted(n for n, t in tools.items() if t.app == app):
            lines += _tool(tools[name])
    return "\n".join(lines).rstrip() + "\n"


def _tool(tool: Tool) -> list[str]:
    schema = tool.input_schema()
    lines = [f"### `{tool.name}`", "", text(tool.description), ""]
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    if props:
        lines += ["| argument | type | default | meaning |", "|---|---|---|---|"]
        for arg, prop in props.items():
            default = "required" if arg in required else f"`{json.dumps(prop.get('default'), ensure_ascii=False)}`"
            lines.append(f"| `{arg}` | {_type(prop)} | {default} | {cell(prop.get('description', ''))} |")
    else:
        lines.append("No arguments.")
    lines += ["", f"**Returns** `{tool.returns or '{}'}`", ""]
    lines += ['??? note "JSON Schema"', "    ```json"]
    lines += [f"    {line}" for line in json.dumps(schema, indent=2, ensure_ascii=False).splitlines()]
    lines += ["    ```", ""]
    return lines


def _type(prop: dict[str, Any]) -> str:
    variants = [v for v in prop.get("anyOf", [prop]) if v.get("type") != "null"]
    names = []
    for v in variants:
        kind = v.get("type", "any")
        if kind == "array":
            kind = f"array of {_type(v.get('items', {}))}"
        if "enum" in v:
            kind = " \\| ".join(f"`{json.dumps(e)}`" for e in v["enum"])
        bounds = [f"{k} {v[k]}" for k in ("minimum", "maximum", "maxLength") if k in v]
        names.append(kind + (f" ({', '.join(bounds)})" if bounds else ""))
    return " or ".join(names) or "any"
