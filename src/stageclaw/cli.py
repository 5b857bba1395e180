"""`stageclaw ...`: the command line."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from stageclaw import __version__
from stageclaw.errors import StageclawError

app = typer.Typer(no_args_is_help=True, add_completion=False, help="State-based benchmarks of personal AI agents.")
world_app = typer.Typer(no_args_is_help=True, help="Build a task's world on real servers and read its state.")
app.add_typer(world_app, name="world")
err = Console(stderr=True)


def _sigterm_as_exit() -> None:
    # SIGTERM unwinds like Ctrl-C, so `with ServicePool()` stops every server.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))


@app.callback(invoke_without_command=True)
def _main(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit()
    _sigterm_as_exit()


TaskPath = Annotated[Path, typer.Argument(help="A task folder or a world.yaml file.")]


@world_app.command("snapshot")
def world_snapshot(path: TaskPath) -> None:
    """Build the world on fresh servers, print its State JSON, tear everything down."""
    from stageclaw.world import ServicePool, dumps, load_world

    world, base = load_world(path)
    with ServicePool() as pool, pool.episode(world, base) as episode:
        sys.stdout.write(dumps(episode.snapshot()))


@world_app.command("build")
def world_build(path: TaskPath) -> None:
    """Build the world and keep serving it, printing endpoints and credentials, until Ctrl-C."""
    from stageclaw.world import ServicePool, load_world

    world, base = load_world(path)
    with ServicePool() as pool, pool.episode(world, base) as episode:
        e = episode.endpoints
        typer.echo(
            f"world of {path} is up (user {world.user.name} <{e.address}>, now {episode.clock.now().isoformat()})"
        )
        typer.echo(f"  IMAP     {e.host}:{e.imap_port}  (plain login, no TLS)")
        typer.echo(f"  SMTP     {e.host}:{e.smtp_port}  (AUTH PLAIN/LOGIN, no TLS; send as {e.address})")
        typer.echo(f"  CalDAV   {e.caldav_url}")
        typer.echo(f"  CardDAV  {e.caldav_url}contacts/")
        typer.echo(f"  login    {e.login}")
        typer.echo(f"  password {e.password}")
        typer.echo(f"  files    {episode.workspace}")
        typer.echo("Press Ctrl-C to stop.")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            typer.echo("stopping")


@app.command("mcp")
def mcp(
    task: TaskPath,
    http: Annotated[int | None, typer.Option("--http", help="Serve streamable HTTP on this loopback port.")] = None,
    tools: Annotated[str | None, typer.Option(help="Only these tools: names or globs, e.g. 'mail_*,now'.")] = None,
    audit: Annotated[Path | None, typer.Option(help="Append every tool call to this audit.jsonl.")] = None,
    faults: Annotated[Path | None, typer.Option(help="A fault plan (TOML) to inject into tool calls.")] = None,
) -> None:
    """Build an episode of TASK and serve its tools over MCP (stdio by default) until the client leaves."""
    from stageclaw.tools.audit import AuditLog
    from stageclaw.tools.faults import FaultPlan
    from stageclaw.tools.mcp_server import build_server
    from stageclaw.tools.registry import Registry
    from stageclaw.world import ServicePool, load_world

    world, base = load_world(task)
    plan = FaultPlan.load(faults) if faults else None
    allow = [p.strip() for p in tools.split(",") if p.strip()] if tools else None
    with (
        ServicePool() as pool,
        pool.episode(world, base) as episode,
        Registry(episode, allow=allow, audit=AuditLog(audit), faults=plan) as registry,
    ):
        server = build_server(registry, name=f"stageclaw {task.name}")
        if http is None:
            server.run("stdio")
        else:
            err.print(f"MCP (streamable HTTP) on http://127.0.0.1:{http}/mcp — Ctrl-C to stop", highlight=False)
            server.run("streamable-http", host="127.0.0.1", port=http)


def main() -> None:
    try:
        app()
    except StageclawError as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
