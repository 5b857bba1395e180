"""The terminal: one persistent bash per episode, in a bubblewrap sandbox over the workspace."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from stageclaw.tools.base import ToolContext, ToolError, tool
from stageclaw.tools.sandbox import SandboxError, Shell

DEFAULT_TIMEOUT_S = 30
MAX_TIMEOUT_S = 300
MAX_COMMAND_CHARS = 100_000


def _shell(ctx: ToolContext) -> Shell:
    episode = ctx.episode
    return ctx.client(
        "terminal",
        lambda: Shell(episode.workspace, episode.world.timezone, lambda: episode.clock, episode.identity),
        Shell.close,
    )


@tool("terminal", returns="{exit_code, stdout, stderr, note?}")
def terminal_run(
    ctx: ToolContext,
    command: Annotated[
        str,
        Field(description="A bash command line, e.g. `ls -la`, `grep -rn invoice docs/`, `python3 script.py`."),
    ],
    timeout_s: Annotated[
        int,
        Field(
            ge=1,
            le=MAX_TIMEOUT_S,
            description=f"Seconds the command may run before it is killed (default {DEFAULT_TIMEOUT_S}).",
        ),
    ] = DEFAULT_TIMEOUT_S,
) -> dict[str, Any]:
    """Run a bash command in the user's terminal and return its exit_code, stdout and stderr.

    The terminal is one persistent bash session: the current folder (`cd`) and variables carry over
    to the next call. It starts in the user's home folder /home/user, which holds the same files as
    the files_* tools (`docs/plan.md` there is /home/user/docs/plan.md here). Common tools are
    installed (coreutils, grep, sed, awk, find, python3 and more), but there is no network and no
    sudo. `date` shows the user's current time in their timezone (if it ever disagrees with the `now`
    tool, `now` is right). Commands get no input: interactive programs see end of input at once, so
    pass everything as arguments, files or heredocs. /tmp is private and is
    wiped when the shell restarts; keep what matters under /home/user. Each output stream is cut at
    64 KiB; redirect long output to a file and read parts of it. A command still running after
    `timeout_s` is killed together with the shell (exit_code 124); the next call then starts a fresh
    shell in /home/user. The result has a `note` only when something like that happened. To read
    documents, pdftotext, pdfinfo, docx2txt, odt2txt and xlsx2csv are installed. Side effects:
    whatever the command does to the files under /home/user.
    """
    if not command.strip():
        raise ToolError("terminal_run: `command` is empty; give a bash command such as `ls -la`", "invalid_arguments")
    if "\x00" in command:
        raise ToolError("terminal_run: `command` contains a NUL character, which bash cannot run", "invalid_arguments")
    if len(command) > MAX_COMMAND_CHARS:
        raise ToolError(
            f"terminal_run: the command is {len(command)} characters long (at most {MAX_COMMAND_CHARS}); write long"
            " content into a file with files_write first and run that file",
            "invalid_arguments",
        )
    shell = _shell(ctx)
    try:
        result = shell.run(command, timeout_s)
    except SandboxError as exc:
        raise ToolError(f"the terminal is not available: {exc}", "internal") from None
    out: dict[str, Any] = {"exit_code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}
    if result.note:
        out["note"] = result.note
    return out
