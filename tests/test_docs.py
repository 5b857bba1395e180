"""The docs: the README's first screen, the generated references, the MkDocs site, and every example.

Every fenced example of README.md and docs/ is checked: `stageclaw` command lines are parsed by the
real CLI (a renamed or removed option fails), other commands must name files that exist, TOML, YAML
and JSON must parse, world.yaml examples must validate, Python must compile. Blocks marked
`<!-- test: run -->` are run as they are written, in a scratch folder that sees the checkout's
`tasks/` and `examples/`; they are kept to the example tasks, so this costs seconds.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main
import yaml

from stageclaw.author.suite import Rules
from stageclaw.cli import app
from stageclaw.docs import stale, write
from stageclaw.tools.faults import FaultPlan
from stageclaw.world.model import World
from tests.conftest import ROOT

DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted([README, *(p for p in DOCS.rglob("*.md") if "reference" not in p.parts)])
RUN_MARK = "<!-- test: run -->"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SNIPPET = re.compile(r'^--8<-- "([^":]+)(?::(\d+):(\d+))?"$', re.MULTILINE)


def _include(m: re.Match[str]) -> str:
    """A pymdownx.snippets line, as the site shows it: the file (lines a to b) from the checkout."""
    lines = (ROOT / m.group(1)).read_text(encoding="utf-8").splitlines()
    if m.group(2):
        lines = lines[int(m.group(2)) - 1 : int(m.group(3))]
    return "\n".join(lines)


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    text: str
    run: bool

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(lang: str | None = None) -> list[Block]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            before = text[: m.start()].rstrip().rsplit("\n", 1)[-1]
            body = SNIPPET.sub(_include, m.group(2))
            block = Block(page, text.count("\n", 0, m.start()) + 1, m.group(1), body, before == RUN_MARK)
            if lang is None or block.lang == lang:
                found.append(block)
    return found


def commands(block: Block) -> list[list[str]]:
    """The command lines of a shell block, continuation lines joined, comments dropped."""
    out = []
    for line in block.text.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words:
            out.append(words)
    return out


def test_readme_is_short_and_its_first_screen_shows_the_two_quick_start_commands():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move detail into docs/"
    first_screen = "\n".join(lines[:30])
    assert "./scripts/quickstart" in first_screen and "./scripts/test" in first_screen
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text(), (
        ".ci/run should run the test command the README shows"
    )


def test_the_generated_reference_pages_are_what_the_code_gives_now():
    assert stale(DOCS) == [], "a generated page is out of date: run  python -m stageclaw.docs"


def test_the_docs_command_names_a_stale_page_and_rewrites_it(tmp_path):
    shutil.copytree(DOCS / "reference", tmp_path / "reference")
    page = tmp_path / "reference" / "cli.md"
    page.write_text(page.read_text().replace("--resume", "--resumed"))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    check = [sys.executable, "-m", "stageclaw.docs", "--check", str(tmp_path)]
    done = subprocess.run(check, capture_output=True, text=True, env=env)
    assert done.returncode == 1 and done.stdout == f"out of date: {page} (run: python -m stageclaw.docs)\n"
    assert write(tmp_path) == ["reference/cli.md"] and stale(tmp_path) == []  # only the stale page is rewritten


def test_the_site_builds_strictly_with_no_broken_link(tmp_path):
    pytest.importorskip(
        "material", reason="the docs tools are not installed: pip install -e '.[docs]' (scripts/install --test does)"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "reference" / "tools" / "index.html").is_file()


def _parse_cli(words: list[str]) -> None:
    """Parse a command line with the real CLI, running nothing: unknown options and bad values raise."""
    cmd = typer.main.get_command(app)
    ctx = cmd.make_context("stageclaw", words)
    while hasattr(cmd, "resolve_command") and (rest := [*_protected(ctx), *ctx.args]):
        name, cmd, rest = cmd.resolve_command(ctx, rest)
        ctx = cmd.make_context(name, rest, parent=ctx)


def _protected(ctx: object) -> list[str]:
    """The subcommand and its arguments a group left unparsed (`protected_args`, private in newer clicks)."""
    return list(getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", None) or [])


@pytest.mark.parametrize("block", blocks("bash"), ids=str)
def test_every_shell_example_names_real_commands_options_and_files(block: Block):
    for words in commands(block):
        if words[0] == "export" or "=" in words[0]:
            continue
        if words[0] == "stageclaw" or words[:3] == ["python", "-m", "stageclaw"]:
            args = words[1:] if words[0] == "stageclaw" else words[3:]
            try:
                _parse_cli(args)
            except Exception as exc:  # click's usage errors
                pytest.fail(f"{block}: {shlex.join(words)}: {type(exc).__name__}: {exc}")
        elif words[0] in ("python", "python3") and not words[1].startswith("-"):
            assert (ROOT / words[1]).is_file(), f"{block}: {words[1]} does not exist"
        elif words[:3] == ["python", "-m", "pytest"]:
            assert all((ROOT / w).exists() for w in words[3:] if w.startswith("tests/")), f"{block}: no such test file"
        elif words[0].startswith(("./", "scripts/")):
            assert os.access(ROOT / words[0], os.X_OK), f"{block}: {words[0]} is not an executable script"


@pytest.mark.parametrize("block", blocks("toml") + blocks("yaml") + blocks("json"), ids=str)
def test_every_config_example_parses(block: Block):
    text = block.text
    if block.lang == "toml":
        data = tomllib.loads(text)
        if "rule" in data:
            FaultPlan.model_validate(data)  # a fault plan: `--faults` accepts it
        if "rules" in data:
            Rules.model_validate(data["rules"])  # a suite's rules
    elif block.lang == "json":
        json.loads(re.sub(r"\b[A-Z]{4,}\b", "null", text))  # MESSAGE, EVENT: placeholders for objects
    else:
        data = yaml.safe_load(text)
        if isinstance(data, dict) and {"now", "timezone", "user"} <= set(data):
            World.model_validate(data)  # a whole world.yaml: the loader's model accepts it


@pytest.mark.parametrize("block", blocks("python"), ids=str)
def test_every_python_example_compiles(block: Block):
    compile(block.text, str(block), "exec")


def _runnable() -> list[Block]:
    return [b for b in blocks() if b.run]


def test_some_examples_are_marked_to_run():
    langs = {b.lang for b in _runnable()}
    assert {"bash", "python"} <= langs, "the README's tour and the docs' Python examples should run in the tests"


@pytest.mark.parametrize("block", _runnable(), ids=str)
def test_marked_examples_run_as_written(block: Block, tmp_path):
    for name in ("tasks", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "200"}
    if block.lang == "python":
        done = subprocess.run([sys.executable, "-c", block.text], cwd=tmp_path, capture_output=True, text=True, env=env)
        assert done.returncode == 0, f"{block}:\n{done.stdout}\n{done.stderr}"
        return
    assert block.lang == "bash", f"{block}: only bash and python blocks can run"
    for words in commands(block):
        if words[0] == "stageclaw":
            words = [sys.executable, "-m", "stageclaw", *words[1:]]
        done = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, f"{block}: {shlex.join(words)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
