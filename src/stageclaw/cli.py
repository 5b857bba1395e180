"""`stageclaw ...`: the command line."""

from __future__ import annotations

import os
import shlex
import signal
import statistics
import sys
import threading
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from stageclaw import __version__
from stageclaw.errors import StageclawError, one_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from stageclaw.author.llm import Attempt, Authoring, LLMAuthor
    from stageclaw.author.suite import Suite
    from stageclaw.grade.grader import Judge
    from stageclaw.run.runner import RunConfig
    from stageclaw.task.loader import Task
    from stageclaw.world.pool import ServicePool

app = typer.Typer(no_args_is_help=True, add_completion=False, help="State-based benchmarks of personal AI agents.")
world_app = typer.Typer(no_args_is_help=True, help="Build a task's world on real servers and read its state.")
app.add_typer(world_app, name="world")
err = Console(stderr=True)


def _console() -> Console:
    """Standard output; when it is not a terminal (a log, a pipe), wide enough that tables keep their task ids."""
    if sys.stdout.isatty() or "COLUMNS" in os.environ:
        return Console()
    return Console(width=200)


class Terminated(SystemExit):
    """SIGTERM: unwinds like Ctrl-C, so `with ServicePool()` stops every server, and exits with 143."""


INTERRUPTED = (KeyboardInterrupt, Terminated)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated(128 + signum)


def _sigterm_as_exit() -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)


def _resume_command(out: Path) -> str:
    """This command line, with --out and --resume added if missing: what finishes an interrupted run."""
    argv = sys.argv[1:]
    if not any(a == "--out" or a.startswith("--out=") for a in argv):
        argv += ["--out", str(out)]
    if "--resume" not in argv:
        argv.append("--resume")
    return "stageclaw " + shlex.join(argv)


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
Backend = Annotated[
    str,
    typer.Option(
        help="Where the work runs: local (threads of this process over one service pool) or ray "
        "(Ray actors, a worker process with its own pool each; pip install 'stageclaw[ray]')."
    ),
]
RayAddress = Annotated[
    str | None,
    typer.Option(
        envvar="RAY_ADDRESS",
        help="With --backend ray: the Ray cluster to join (default: a local one started for this command).",
    ),
]


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
        if e.web_url:
            typer.echo(f"  web      {e.web_url}/  (the world's web apps)")
        typer.echo(f"  login    {e.login}")
        typer.echo(f"  password {e.password}")
        typer.echo(f"  files    {episode.workspace}")
        try:  # the prompt inside: a Ctrl-C right after it is still a clean stop
            typer.echo("Press Ctrl-C to stop.")
            threading.Event().wait()
        except KeyboardInterrupt:
            typer.echo("stopping")


@app.command("run")
def run_cmd(
    agent: Annotated[str, typer.Option(help="oracle, noop, openai:MODEL, anthropic:MODEL or cmd:COMMAND")],
    tasks: Annotated[Path, typer.Option(help="A task folder or a folder of tasks.")],
    trials: Annotated[int, typer.Option(min=1, help="Episodes per task.")] = 1,
    workers: Annotated[int, typer.Option(min=1, help="Episodes run at once.")] = 1,
    out: Annotated[Path | None, typer.Option(help="Run directory (default runs/<time>-<agent>).")] = None,
    resume: Annotated[bool, typer.Option(help="Continue the run in --out, skipping finished episodes.")] = False,
    judge: Annotated[
        str | None,
        typer.Option(envvar="STAGECLAW_JUDGE", help="LLM judge for judge items, openai:MODEL (else unscored)."),
    ] = None,
    judge_base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL for the judge.")] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            help="Provider base URL for openai:/anthropic: agents (else OPENAI_BASE_URL / ANTHROPIC_BASE_URL)."
        ),
    ] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature for LLM agents.")] = None,
    max_tokens: Annotated[int, typer.Option(help="Output tokens per model turn.")] = 4096,
    max_steps: Annotated[
        int | None, typer.Option(help="Model turns per episode (default: the task's max_steps).")
    ] = None,
    time_budget: Annotated[
        float | None, typer.Option(help="Seconds per episode (default: the task's time_budget_s).")
    ] = None,
    token_budget: Annotated[int | None, typer.Option(help="Tokens per episode, input and output together.")] = None,
    cost_budget: Annotated[float | None, typer.Option(help="USD per episode.")] = None,
    prices: Annotated[Path | None, typer.Option(help="A price table (TOML) that updates the built-in one.")] = None,
    faults: Annotated[
        Path | None, typer.Option(help="A fault plan (TOML) injected into every episode's tool calls.")
    ] = None,
    agent_bind: Annotated[
        list[str] | None,
        typer.Option(
            help="cmd: agents: a file or folder the agent's jail also gets, PATH[:ro|rw] (a copy per episode); repeat."
        ),
    ] = None,
    backend: Backend = "local",
    address: RayAddress = None,
) -> None:
    """Run an agent on tasks: fresh world per episode, grade the final state, write the run directory."""
    from datetime import datetime

    from stageclaw.agents.factory import check_spec
    from stageclaw.report.table import results_table
    from stageclaw.run.backend import Portable
    from stageclaw.run.runner import RunConfig
    from stageclaw.run.store import read_results
    from stageclaw.task.loader import load_tasks

    if agent.startswith("play:"):
        raise StageclawError(f"a play: agent plays one task at a time: stageclaw play TASK --player {agent[5:]}")
    options: dict = {}
    if agent.partition(":")[0] in ("openai", "anthropic"):
        from stageclaw.agents.prices import PriceTable

        options = {
            "base_url": base_url,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "max_steps": max_steps,
            "time_budget_s": time_budget,
            "token_budget": token_budget,
            "cost_budget_usd": cost_budget,
            "prices": PriceTable.load(prices),
        }
    if agent.startswith("cmd:"):
        options = {"binds": agent_bind or [], "time_budget_s": time_budget}
    elif agent_bind:
        raise StageclawError("--agent-bind is for cmd: agents, which run in a jail")
    check_spec(agent, options)
    the_judge = None
    if judge:
        from stageclaw.grade.judge import LLMJudge

        the_judge = Portable(partial(LLMJudge, judge, base_url=judge_base_url))
    from stageclaw.tools.faults import FaultPlan

    plan = FaultPlan.load(faults) if faults else None
    try:
        loaded, errors = load_tasks(tasks)
    except INTERRUPTED:
        err.print("interrupted while loading the tasks; nothing was run", highlight=False)
        raise
    for path, message in errors.items():
        err.print(f"[red]skipping broken task[/red] {path}: {message}", highlight=False, soft_wrap=True)
    if not loaded:
        raise StageclawError(f"no loadable task under {tasks}")
    if out is None:
        out = Path("runs") / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-{agent.replace(':', '_').replace('/', '_')}"

    config = RunConfig(
        agent=agent,
        out=out,
        trials=trials,
        workers=workers,
        resume=resume,
        agent_options=options,
        faults=plan,
        backend=backend,
        address=address,
    )
    console = _console()
    total = len(loaded) * trials
    try:
        summary = _run_with_progress(console, loaded, config, {str(k): v for k, v in errors.items()}, the_judge)
    except INTERRUPTED:
        kept = len(read_results(out / "results.jsonl")) if (out / "results.jsonl").is_file() else 0
        err.print(
            f"interrupted: {kept} of {total} episodes are kept in {out}; to finish the run: {_resume_command(out)}",
            highlight=False,
            soft_wrap=True,
        )
        raise
    results = read_results(out / "results.jsonl")
    console.print(results_table(results, summary))
    console.print(f"run directory: {out}", highlight=False)
    if summary["unscored"]:
        console.print(_unscored_note(summary, out), highlight=False, soft_wrap=True)
    if errors or summary["defective_tasks"] or summary["unscored"]:
        raise typer.Exit(1)


def _unscored_note(summary: dict, out: Path) -> str:
    parts = []
    if summary["infra_errors"]:
        parts.append(f"{summary['infra_errors']} ended in infrastructure errors (retry them: {_resume_command(out)})")
    if summary["task_errors"]:
        parts.append(f"{summary['task_errors']} failed on a defect of their task (see the notes above)")
    return f"[yellow]{summary['unscored']} of {summary['episodes']} episodes are not scored[/yellow]: " + "; ".join(
        parts
    )


def _run_with_progress(
    console: Console, tasks: list[Task], config: RunConfig, load_errors: dict[str, str], judge: Judge | None
) -> dict:
    """`run` with a progress bar that disappears when it ends (or is interrupted)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from stageclaw.run.runner import run

    seen: list[dict] = []
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[stats]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        bar = progress.add_task(config.agent, total=len(tasks) * config.trials, stats="")

        def on_result(result: dict) -> None:
            seen.append(result)
            ok = sum(1 for r in seen if r["success"])
            scores = [r["score"] for r in seen if r["score"] is not None]
            mean = f"{sum(scores) / len(scores):.1f}" if scores else "-"
            cost = sum(r.get("cost_usd") or 0 for r in seen)
            tool_errors = sum(r["tool_errors"] for r in seen)
            infra = sum(1 for r in seen if r["status"] == "infra_error")
            stats = f"success {ok}/{len(seen)} · score {mean} · ${cost:.4f} · tool errors {tool_errors} · infra {infra}"
            progress.update(bar, advance=1, stats=stats)

        return run(tasks, config, load_errors=load_errors, judge=judge, on_result=on_result)


@app.command("mcp")
def mcp(
    task: TaskPath,
    http: Annotated[int | None, typer.Option("--http", help="Serve streamable HTTP on this loopback port.")] = None,
    tools: Annotated[str | None, typer.Option(help="Only these tools: names or globs, e.g. 'mail_*,now'.")] = None,
    audit: Annotated[Path | None, typer.Option(help="Append every tool call to this audit.jsonl.")] = None,
    faults: Annotated[Path | None, typer.Option(help="A fault plan (TOML) to inject into tool calls.")] = None,
) -> None:
    """Build an episode of TASK and serve its tools over MCP (stdio by default) until the client leaves."""
    from stageclaw.task.loader import check_tools
    from stageclaw.tools.audit import AuditLog
    from stageclaw.tools.faults import FaultPlan
    from stageclaw.tools.mcp_server import build_server
    from stageclaw.tools.registry import Registry
    from stageclaw.world import ServicePool, load_world

    world, base = load_world(task)
    plan = FaultPlan.load(faults) if faults else None
    allow = [p.strip() for p in tools.split(",") if p.strip()] if tools else None
    if allow is not None:
        check_tools(allow, "--tools")
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


@app.command("play", no_args_is_help=True)
def play_cmd(
    args: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="TASK | TOOL [JSON]",
            help="The task folder to play; with --call, the tool and its arguments as a JSON object; with "
            "--tools, tool names to show (default all).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="The run directory (default runs/<time>-play_NAME).")] = None,
    player: Annotated[str, typer.Option(help="Who plays: the run's agent is play:NAME.")] = "player",
    time_budget: Annotated[
        float | None,
        typer.Option(help="Seconds the player has (default: the task's time_budget_s); the step budget is the task's."),
    ] = None,
    finish: Annotated[
        Path | None, typer.Option("--finish", metavar="DIR", help="End the play running in DIR and print its grade.")
    ] = None,
    answer: Annotated[str, typer.Option(help="With --finish: the final answer for the user.")] = "",
    tools: Annotated[
        Path | None, typer.Option("--tools", metavar="DIR", help="Print the tools of the play running in DIR.")
    ] = None,
    call: Annotated[
        Path | None,
        typer.Option("--call", metavar="DIR", help="Call TOOL of the play running in DIR and print its result."),
    ] = None,
) -> None:
    """Play a task yourself (or with any program): a page and an MCP endpoint on loopback, budgets, a grade."""
    from stageclaw.run import play

    rest = list(args or [])
    if sum(x is not None for x in (finish, tools, call)) > 1:
        raise StageclawError("give one of --finish, --tools and --call")
    if finish is not None:
        if rest:
            raise StageclawError(f"--finish takes no other arguments (got {' '.join(rest)})")
        typer.echo(f"finished: {play.outcome_line(play.finish(finish, answer))}; stageclaw report {finish}")
        return
    if tools is not None:
        listed = play.list_tools(tools)
        unknown = sorted(set(rest) - {t["name"] for t in listed})
        if unknown:
            raise StageclawError(f"no tool {', '.join(unknown)}; the tools are: {', '.join(t['name'] for t in listed)}")
        typer.echo("\n\n".join(play.usage(t) for t in listed if not rest or t["name"] in rest))
        return
    if call is not None:
        if not 1 <= len(rest) <= 2:
            raise StageclawError("--call DIR TOOL ['JSON']: give the tool's name and its arguments as a JSON object")
        ok, result = play.call_tool(call, rest[0], play.parse_args(rest[1] if len(rest) == 2 else "{}"))
        if not ok:
            err.print(f"tool error: {escape(result)}", highlight=False, soft_wrap=True)
            raise typer.Exit(1)
        typer.echo(result if isinstance(result, str) else play.compact_json(result))
        return
    _play(rest, out, player, time_budget)


def _play(rest: list[str], out: Path | None, player: str, time_budget: float | None) -> None:
    from datetime import datetime

    from stageclaw.agents.play import check_player
    from stageclaw.report.table import results_table
    from stageclaw.run import play
    from stageclaw.run.store import RESULTS, read_results
    from stageclaw.task.loader import load_task

    if len(rest) != 1:
        raise StageclawError("stageclaw play TASK: give one task folder (or --finish, --tools or --call DIR)")
    task = load_task(Path(rest[0]))
    check_player(player)
    if out is None:
        out = Path("runs") / f"{datetime.now().strftime('%Y%m%d-%H%M%S')}-play_{player}"

    def ready(info: dict) -> None:
        here = out.absolute()
        typer.echo(
            f"{task.id} is ready for {player}: at most {info['max_steps']} tool calls, "
            f"{info['time_budget_s']:g} s (until {info['ends_at']})\n"
            f"  page   {info['page_url']}\n"
            f"  MCP    {info['mcp_url']}\n"
            f"  brief  {here / 'play.json'}\n"
            f"  shell  stageclaw play --tools {here}\n"
            f"         stageclaw play --call {here} TOOL '{{...}}'\n"
            f"         stageclaw play --finish {here} --answer TEXT\n"
            "Waiting for the player to finish (Ctrl-C stops the play without a grade)."
        )

    result, summary = play.play(task, out, player, ready, time_budget)
    _console().print(results_table(read_results(out / RESULTS), summary))
    typer.echo(f"{play.outcome_line(result)}; run directory: {out} (stageclaw report {out})")


export_app = typer.Typer(no_args_is_help=True, help="Write tasks in other harnesses' formats.")
app.add_typer(export_app, name="export")


@export_app.command("harbor")
def export_harbor_cmd(
    path: Annotated[
        str, typer.Argument(help="A task folder, a folder of tasks, or a bundled benchmark: stage40, examples.")
    ],
    out: Annotated[Path, typer.Option(help="Harbor tasks are written to <out>/<task-id>/.")],
    install: Annotated[
        str | None,
        typer.Option(help="pip requirement for stageclaw in the image (default: copy this stageclaw into it)."),
    ] = None,
) -> None:
    """Export tasks as Harbor tasks: instruction, environment (the world, its MCP tools), tests, solution."""
    from stageclaw.export.harbor import export_harbor
    from stageclaw.task.bundled import BENCHMARKS, benchmark_dir
    from stageclaw.task.loader import find_task_dirs

    source = Path(path)
    # A folder of tasks by that name wins; the repository's examples/ (agent programs) holds none.
    if path in BENCHMARKS and not (source.is_dir() and find_task_dirs(source)):
        source = benchmark_dir(path)
    written, errors = export_harbor(source, out, install=install)
    for folder, message in errors.items():
        err.print(f"[red]not exported[/red] {folder}: {message}", highlight=False, soft_wrap=True)
    if not written and not errors:
        raise StageclawError(f"no task folder under {source}")
    for folder in written:
        typer.echo(folder)
    if errors:
        raise typer.Exit(1)


@app.command("fake-llm")
def fake_llm(
    script: Annotated[Path, typer.Option(help="YAML script of assistant turns (see stageclaw.agents.fake_llm).")],
    port: Annotated[int, typer.Option(help="Loopback port (0: a free one).")] = 0,
) -> None:
    """Serve scripted chat completions on an OpenAI-compatible endpoint, until Ctrl-C."""
    from stageclaw.agents.fake_llm import FakeLLM, Script

    with FakeLLM(Script.load(script), port) as server:
        try:
            typer.echo(f"fake LLM at {server.url} (OPENAI_BASE_URL); Ctrl-C to stop", err=True)
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


@app.command("validate")
def validate_cmd(
    path: Annotated[Path, typer.Argument(help="A task folder or a folder of tasks.")],
    out: Annotated[Path, typer.Option(help="Report folder: <out>/<task-id>/validation.json, summary.md.")] = Path(
        "validation"
    ),
    threshold: Annotated[float, typer.Option(min=0, max=100, help="Score a task needs to be accepted.")] = 80.0,
    max_mutants: Annotated[
        int | None, typer.Option(min=1, help="Near-miss mutants graded per task (default: the checker's cap).")
    ] = None,
    llm: Annotated[
        str | None,
        typer.Option(envvar="STAGECLAW_CHECKER", help="LLM reviewer for clarity and realism, openai:MODEL."),
    ] = None,
    llm_base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL for the reviewer.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Tasks checked at once.")] = 1,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Also put each task's verdict, pinned to its files' digest, into this record "
            "(a suite's validated.json, which its tests check)."
        ),
    ] = None,
    backend: Backend = "local",
    address: RayAddress = None,
) -> None:
    """Check tasks: structure, reproducibility, verifiability (mutation test), difficulty; exit 1 if any is rejected."""
    from stageclaw.run.backend import Portable
    from stageclaw.validate.checker import validate_path
    from stageclaw.validate.llm_check import LLMReviewer
    from stageclaw.validate.repair import repair_request
    from stageclaw.validate.report import Report
    from stageclaw.validate.table import validation_table

    reviewer = Portable(partial(LLMReviewer, llm, base_url=llm_base_url)) if llm else None
    console = _console()
    started = time.perf_counter()
    checked: list[str] = []
    try:
        with console.status("validating") as status:

            def on_report(report: Report) -> None:
                checked.append(report.task_id)
                status.update(f"validated {report.task_id}: {report.score:g}")

            reports = validate_path(
                path,
                out=out,
                threshold=threshold,
                reviewer=reviewer,
                **({"max_mutants": max_mutants} if max_mutants is not None else {}),
                on_report=on_report,
                backend=backend,
                workers=workers,
                address=address,
            )
    except INTERRUPTED:
        err.print(
            f"interrupted: {len(checked)} tasks were checked, their reports are in {out}/<task-id>/; "
            "validate again to check the others",
            highlight=False,
            soft_wrap=True,
        )
        raise
    if not reports:
        raise StageclawError(f"no task folder under {path}")
    console.print(validation_table(reports, time.perf_counter() - started))
    if record is not None:
        from stageclaw.validate import record as records

        records.update(record, reports)
        console.print(f"recorded {len(reports)} verdicts in {record}", highlight=False)
    for r in reports:
        if not r.accepted:
            console.print(f"[red]rejected[/red] {r.task_id} ({r.score:g}):", highlight=False)
            for d in repair_request(r)["diagnostics"][:8]:
                console.print(f"  {d['dimension']}/{d['check']}: {d['problem'][:300]}", highlight=False, soft_wrap=True)
    console.print(f"reports: {out}", highlight=False)
    if any(not r.accepted for r in reports):
        raise typer.Exit(1)


@app.command("review")
def review_cmd(
    path: Annotated[Path | None, typer.Argument(help="A task folder or a suite (a folder of tasks).")] = None,
    out: Annotated[
        Path, typer.Option(help="Stage-2 report folder: reports are made there when missing or out of date.")
    ] = Path("validation"),
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Loopback port for the review pages (0: a free one).")
    ] = 0,
    sign_task: Annotated[
        Path | None, typer.Option("--sign", help="Record a verdict on this task folder instead of serving pages.")
    ] = None,
    reviewer: Annotated[str, typer.Option(help="With --sign: who reviewed it.")] = "",
    verdict: Annotated[str, typer.Option(help="With --sign: accept, needs_work or reject.")] = "",
    notes: Annotated[str, typer.Option(help="With --sign: what the reviewer found.")] = "",
) -> None:
    """The human audit: a local review page per task (loopback), and the reviewer's sign-off in review.toml."""
    from stageclaw.task.review import review_status, sign

    if sign_task is not None:
        signed = sign(sign_task, reviewer, verdict.replace("-", "_").replace(" ", "_"), notes)
        typer.echo(
            f"{sign_task}: {review_status(sign_task).status} ({signed.verdict} by {signed.reviewer}, {signed.date})"
        )
        return
    if path is None:
        raise StageclawError("give a task folder or a suite to review, or --sign TASK --reviewer NAME --verdict V")
    from stageclaw.review import ReviewServer
    from stageclaw.world.pool import ServicePool

    with ServicePool() as pool:
        server = ReviewServer(path, out, pool, port)
        try:
            typer.echo(f"review pages at {server.url} ({len(server.dirs)} tasks); Ctrl-C to stop", err=True)
            server.httpd.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()


@app.command("report")
def report_cmd(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories, or folders holding run directories.")],
    out: Annotated[
        Path | None,
        typer.Option(
            help="A folder (the report is written as report.html in it, report.json beside it) or a file name "
            "ending in .html (default: RUN_DIR/report.html for one run, ./report.html for several)."
        ),
    ] = None,
    resamples: Annotated[int, typer.Option(min=100, help="Bootstrap resamples for the 95% CIs.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap: the same seed gives the same CIs.")] = 0,
) -> None:
    """Leaderboard, reliability, cost and failure modes of runs; writes report.html and report.json."""
    from stageclaw.report.build import build
    from stageclaw.report.failures import LABELS
    from stageclaw.report.html import report_path, write
    from stageclaw.report.metrics import common_k
    from stageclaw.report.table import cost_table, failure_modes_table, leaderboard_table

    if out is not None:
        report_path(out)  # a name the report cannot take is refused before the runs are read
    report = build(run_dirs, resamples=resamples, seed=seed)
    if out is None:
        out = report.runs[0].path if len(report.runs) == 1 else Path(".")
    html_path, json_path = write(report, out)
    console = _console()
    console.print(leaderboard_table(report.agents, common_k(report.agents)))
    for a in report.agents:
        if a["twins"]:
            on = ", ".join(f"{name} ({n} episodes)" for name, n in a["twins"].items())
            console.print(f"{a['agent']} ran on the private {on}", highlight=False)
    console.print(cost_table(report.agents))
    if any(a["failure_modes"] for a in report.agents):
        console.print(failure_modes_table(report.agents, LABELS))
    console.print(f"wrote {html_path} (the report: open it in a browser) and {json_path} (its data)", highlight=False)


@app.command("generate")
def generate_cmd(
    family: Annotated[str | None, typer.Option(help="The scenario family (see --list).")] = None,
    seed: Annotated[int, typer.Option(help="The seed: same family, seed and operators, same task.")] = 1,
    operators: Annotated[
        str | None, typer.Option(help="Operators to apply, e.g. 'noisy_data,entity_alignment' (default: all).")
    ] = None,
    locale: Annotated[str, typer.Option(help="The language of the task: en, or zh where the family writes it.")] = "en",
    out: Annotated[Path, typer.Option(help="Folder the task is written into, as <out>/<task-id>/.")] = Path(
        "tasks/generated"
    ),
    list_families: Annotated[
        bool, typer.Option("--list", help="List the families, their apps and operators, and exit.")
    ] = False,
    suite: Annotated[
        Path | None,
        typer.Option(help="Build a whole suite from its manifest, e.g. tasks/stage40/suite.toml (see its README)."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="With --suite: write nothing, report files that differ from a fresh build.")
    ] = False,
    reseed: Annotated[
        int | None,
        typer.Option(
            help="With --suite and --out: write a private twin of the suite, its seeds drawn from this number "
            "(keep it private), each task validated as it is drawn."
        ),
    ] = None,
) -> None:
    """Generate a task directory from a procedural scenario family, or a whole suite (stage 1)."""
    from stageclaw.author.family import all_families, generate

    if reseed is not None:
        if suite is None or out == Path("tasks/generated") or check:
            raise StageclawError("--reseed N needs --suite MANIFEST and --out DIR (and no --check)")
        _generate_twin(suite, reseed, out)
        return
    if suite is not None:
        _generate_suite(suite, out if out != Path("tasks/generated") else None, check)
        return
    known = all_families()
    if list_families:
        for name, fam in known.items():
            ops = ", ".join(f"{o} (always)" if o in fam.core else o for o in sorted(fam.operators))
            typer.echo(f"{name}  [{fam.group}; {', '.join(fam.locales)}]  {fam.summary}")
            typer.echo(f"    apps: {', '.join(fam.apps)}\n    operators: {ops}")
        return
    if family is None:
        raise StageclawError("give --family NAME (see stageclaw generate --list)")
    chosen = [o.strip() for o in operators.split(",") if o.strip()] if operators else None
    started = time.perf_counter()
    draft = generate(family, seed, chosen, locale)
    folder = draft.write(out)
    typer.echo(
        f"{folder} ({draft.group}; operators {', '.join(sorted(draft.operators))}; "
        f"{time.perf_counter() - started:.2f} s)"
    )


def _generate_suite(manifest_path: Path, out: Path | None, check: bool) -> None:
    from stageclaw.author import suite as suites

    started = time.perf_counter()
    built = suites.build(suites.load_manifest(manifest_path))
    folder = out or manifest_path.parent
    n = len(built.drafts)
    for failure in built.failures:
        err.print(f"[red]not generated[/red] {escape(failure)}", highlight=False, soft_wrap=True)
    if built.failures and check:
        raise typer.Exit(1)
    if check:
        problems = suites.differences(built, folder)
        if problems:
            typer.echo("\n".join(problems))
            typer.echo(f"{folder}: {len(problems)} files differ from a fresh build of {manifest_path}", err=True)
            raise typer.Exit(1)
        typer.echo(f"{folder}: all {n} tasks, hints.txt and README.md are what {manifest_path} generates")
        _check_oracle_rule(built, folder)
        return
    suites.write(built, folder)
    if built.failures:
        failed = len(built.failures)
        typer.echo(f"{folder}: {n} tasks written; {failed} failed, so hints.txt and README.md are unchanged")
        raise typer.Exit(1)
    typer.echo(f"{folder}: {n} tasks, hints.txt, README.md ({time.perf_counter() - started:.1f} s)")
    _check_oracle_rule(built, folder)


def _check_oracle_rule(built: Suite, folder: Path) -> None:
    """When the suite sets `min_median_oracle_calls`, run every reference solution (on embedded servers) and
    hold the suite to it."""
    import tempfile

    from stageclaw.author import suite as suites
    from stageclaw.run.runner import RunConfig, run
    from stageclaw.run.store import RESULTS, read_results
    from stageclaw.task.loader import load_task

    wanted = built.manifest.rules.min_median_oracle_calls
    if not wanted:
        return
    with (
        _console().status("running the reference solutions for the rule on their tool calls"),
        tempfile.TemporaryDirectory(prefix="stageclaw-suite-oracle-") as scratch,
    ):
        tasks = [load_task(folder / d.id) for d in built.drafts]
        run(tasks, RunConfig(agent="oracle", out=Path(scratch) / "run", workers=2))
        lines = read_results(Path(scratch) / "run" / RESULTS)
    unsolved = sorted(r["task_id"] for r in lines if not r.get("success"))
    calls = {r["task_id"]: r["steps"] for r in lines}
    problems = [f"{t}: the reference solution does not succeed" for t in unsolved]
    problems += suites.oracle_rule_violations(built, calls)
    if problems:
        raise StageclawError(f"suite {built.manifest.name} breaks its rules:\n  " + "\n  ".join(problems))
    got = statistics.median(calls.values())
    typer.echo(f"{folder}: the reference solutions succeed; median tool calls {got:g} (the suite wants {wanted})")


def _generate_twin(manifest_path: Path, reseed: int, out: Path) -> None:
    import shutil
    import tempfile

    from stageclaw.author import suite as suites
    from stageclaw.author.draft import TaskDraft
    from stageclaw.author.twin import build_twin
    from stageclaw.validate.checker import validate_task
    from stageclaw.world.pool import ServicePool

    manifest = suites.load_manifest(manifest_path)
    if out.resolve() == manifest_path.parent.resolve():
        raise StageclawError(f"--out {out} is the public suite's own folder; a twin goes elsewhere")
    started = time.perf_counter()
    console = _console()

    def accept(draft: TaskDraft, pool: ServicePool, scratch: Path) -> tuple[bool, str]:
        """Stage 2 on the task as it would be written: accepted, every mutant killed."""
        folder = draft.write(scratch)
        try:
            report = validate_task(folder, pool)
        finally:
            shutil.rmtree(folder)
        m = report.mutation or {"killed": 0, "total": 0}
        note = f"{report.score:g} · {m['killed']}/{m['total']} mutants killed"
        return report.accepted and m["killed"] == m["total"] > 0, note

    with (
        ServicePool() as pool,
        tempfile.TemporaryDirectory(prefix="stageclaw-twin-") as scratch,
        console.status(f"drawing the twin {reseed} of {manifest.name}") as status,
    ):
        twin = build_twin(
            manifest,
            reseed,
            partial(accept, pool=pool, scratch=Path(scratch)),
            on_task=lambda n, d: status.update(f"task {n}/{len(manifest.task)}: {d.public} -> seed {d.seed}"),
        )
    suites.write(twin, out)
    (out / "suite.toml").write_text(suites.manifest_toml(twin.manifest), encoding="utf-8")
    tried = sum(d.tried for d in twin.manifest.twin.draw)  # type: ignore[union-attr]
    console.print(
        f"{out}: the twin {reseed} of {manifest.name}, {len(twin.drafts)} tasks, each accepted by stage 2 "
        f"({tried} seeds tried; {time.perf_counter() - started:.0f} s)",
        highlight=False,
    )


@app.command("author")
def author_cmd(
    model: Annotated[str, typer.Option(help="An OpenAI-compatible model: MODEL or openai:MODEL.")],
    out: Annotated[Path, typer.Option(help="Accepted tasks go to <out>/<task-id>/; every attempt to attempts.json.")],
    hint: Annotated[str | None, typer.Option(help="What the task should be about.")] = None,
    hints: Annotated[Path | None, typer.Option(help="A file with one hint per line: one authoring each.")] = None,
    max_repairs: Annotated[int, typer.Option(min=0, help="Repair rounds after a rejected first draft.")] = 3,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL (else OPENAI_BASE_URL).")] = None,
    threshold: Annotated[float, typer.Option(min=0, max=100, help="Score stage 2 must give to accept.")] = 80.0,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    prices: Annotated[Path | None, typer.Option(help="A price table (TOML) that updates the built-in one.")] = None,
) -> None:
    """Write tasks from hints with an LLM, validate them (stage 2) and repair them from the diagnostics.

    attempts.json is rewritten after every attempt. A provider failure ends that hint (status
    provider_error) and the next one runs; the exit code is 1 unless every hint was accepted."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from stageclaw.agents.prices import PriceTable
    from stageclaw.author.llm import LLMAuthor, write_attempts
    from stageclaw.world.pool import ServicePool

    if (hint is None) == (hints is None):
        raise StageclawError("give exactly one of --hint TEXT or --hints FILE")
    if hints is not None and not hints.is_file():
        raise StageclawError(f"{hints}: no such file")
    try:
        lines = [hint] if hint is not None else hints.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise StageclawError(f"{hints}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    todo = [h.strip() for h in lines]
    todo = [h for h in todo if h and not h.startswith("#")]
    author = LLMAuthor(
        model,
        base_url=base_url,
        temperature=temperature,
        max_repairs=max_repairs,
        threshold=threshold,
        prices=PriceTable.load(prices),
    )
    runs: list[Authoring] = []
    console = _console()
    try:
        with (
            ServicePool() as pool,
            Progress(
                TextColumn("[bold]authoring"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[now]}"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            ) as progress,
        ):
            bar = progress.add_task("hints", total=len(todo), now="")
            for n, text in enumerate(todo, 1):
                progress.update(bar, now=f"hint {n}: {text[:50]}")

                def saved(record: Authoring, n: int = n) -> None:
                    write_attempts(out, [*runs, record])
                    scores = " -> ".join(_attempt_score(a) for a in record.attempts)
                    progress.update(bar, now=f"hint {n}: attempt {len(record.attempts)} ({scores})")

                runs.append(_author_one(author, text, out, pool, saved))
                write_attempts(out, runs)
                progress.advance(bar)
    except INTERRUPTED:
        err.print(
            f"interrupted: {len(runs)} of {len(todo)} hints are done and recorded in {out / 'attempts.json'}",
            highlight=False,
        )
        raise
    console.print(_authoring_table(runs))
    console.print(f"attempts: {out / 'attempts.json'}", highlight=False)
    if not all(r.accepted for r in runs):
        raise typer.Exit(1)


def _attempt_score(attempt: Attempt) -> str:
    return "invalid" if attempt.score is None else f"{attempt.score:g}"


def _authoring_table(runs: list[Authoring]) -> Table:
    """One row per hint: its outcome, the score of each attempt, the task, tokens and cost."""

    table = Table(title="authoring", title_justify="left")
    for column in ("#", "hint", "status", "attempts", "task", "tokens", "cost"):
        table.add_column(column, justify="right" if column in ("#", "tokens", "cost") else "left")
    colour = {"accepted": "green", "rejected": "red", "provider_error": "yellow"}
    for n, run in enumerate(runs, 1):
        cost = "n/a" if run.cost_usd is None else f"${run.cost_usd:.4f}"
        status = f"[{colour.get(run.status, 'white')}]{run.status}[/]"
        table.add_row(
            str(n),
            escape(run.hint[:48]),
            status,
            f"{len(run.attempts)} ({' -> '.join(_attempt_score(a) for a in run.attempts) or '-'})",
            escape(run.task_id or "-"),
            f"{run.input_tokens}+{run.output_tokens}",
            cost,
        )
    accepted = sum(1 for r in runs if r.accepted)
    table.caption = f"{accepted} of {len(runs)} hints accepted"
    return table


def _author_one(
    author: LLMAuthor, hint: str, out: Path, pool: ServicePool, saved: Callable[[Authoring], None]
) -> Authoring:
    """One hint's authoring; whatever breaks it is recorded as its error, and the next hint goes on."""
    from stageclaw.author.llm import Authoring

    try:
        return author.write(hint, out, pool, on_attempt=saved)
    except Exception as exc:
        return Authoring(hint, author.model, error=str(exc) if isinstance(exc, StageclawError) else one_line(exc))


def _leave(code: int) -> None:
    """After an interrupt has been handled: exit now, even if a thread is stuck in an agent or a provider call
    (the interpreter would otherwise wait for it at exit)."""
    deadline = time.monotonic() + 2
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    try:
        app()
    except StageclawError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        _leave(130)
        sys.exit(130)
    except SystemExit as exc:
        if exc.code in (130, 143):  # Ctrl-C (typer's exit code for it) or SIGTERM, handled by the command
            _leave(exc.code)
        raise


if __name__ == "__main__":
    main()
