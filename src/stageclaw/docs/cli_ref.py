"""The CLI reference: every command of the typer app with its arguments and options, as `--help` gives them."""

from __future__ import annotations

from typing import Any

import typer.main

from stageclaw.cli import app
from stageclaw.docs.markdown import cell


def render() -> str:
    root = typer.main.get_command(app)
    lines = [
        "# CLI reference",
        "",
        "Every command and option of `stageclaw`, as `stageclaw COMMAND --help` prints them. "
        "`python -m stageclaw` is the same program.",
        "",
    ]
    _command(root, "stageclaw", None, lines)
    return "\n".join(lines).rstrip() + "\n"


def _command(cmd: Any, path: str, parent: Any, lines: list[str]) -> None:
    ctx = cmd.context_class(cmd, info_name=path.rsplit(" ", 1)[-1], parent=parent)
    subcommands = getattr(cmd, "commands", {})
    if parent is not None:  # the root's help is the page's introduction
        lines += [f"{'#' * min(path.count(' ') + 1, 4)} `{path}`", ""]
        if cmd.help:
            lines += [cell(cmd.help), ""]
    arguments = [p for p in cmd.params if p.param_type_name == "argument"]
    usage = " ".join([path, "[OPTIONS]", *(["COMMAND ..."] if subcommands else []), *map(_metavar, arguments)])
    lines += ["```", usage, "```", ""]
    rows = [(f"`{_metavar(p)}`", cell(p.help or "") + ("" if p.required else " (optional)")) for p in arguments]
    for p in cmd.params:
        if p.param_type_name == "option" and not p.hidden:
            opts, help_text = p.get_help_record(ctx)
            rows.append((f"`{opts}`", cell(help_text)))
    if rows:
        lines += ["| argument or option | meaning |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows), ""]
    if subcommands:
        lines += ["| command | what it does |", "|---|---|"]
        lines += [f"| `{path} {name}` | {cell(c.help or '').split('. ')[0]} |" for name, c in subcommands.items()]
        lines.append("")
        for name, sub in subcommands.items():
            _command(sub, f"{path} {name}", ctx, lines)


def _metavar(param: Any) -> str:
    name = param.metavar or param.name.upper()
    if param.metavar is None and param.nargs == -1:
        name += "..."
    return name if param.required or param.metavar else f"[{name}]"
