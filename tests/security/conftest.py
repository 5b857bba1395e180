"""A machine laid out as the red team found it: a checkout with tasks and their git history, a copy run,
earlier runs, another live episode and another run's MCP endpoint. Every place holds its own secret,
so a test can tell exactly which one leaked.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE, EXAMPLES

PYTHON = shlex.quote(sys.executable)
SECRETS = {
    "hidden": "HIDDENSECRET0a1f",  # the running task's hidden/ (its copy, in the copy run)
    "original": "ORIGINALSECRET2b7c",  # the original of the copied task, in the checkout
    "sibling": "SIBLINGSECRET9e3d",  # another task's hidden/, beside the original
    "history": "HISTORYSECRET4c88",  # only in the checkout's git history
    "provenance": "PROVENANCESECRET61aa",  # task.toml [provenance]
    "earlier": "EARLIERRUNSECRET5d02",  # an earlier run's trajectory and validation report
}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True, capture_output=True
    )


def plant(task: Path, secret: str) -> None:
    """Put `secret` into every file of the task's hidden/ (as a comment: the task still works)."""
    for path in (task / "hidden").rglob("*.py"):
        path.write_text(f"# {secret}\n" + path.read_text())
    rubric = task / "hidden" / "rubric.toml"
    rubric.write_text(f"# {secret}\n" + rubric.read_text())


@dataclass
class Layout:
    checkout: Path  # a git checkout holding the original tasks
    task: Path  # the copy the run uses
    earlier: Path  # an earlier run's folder
    program: Path  # the folder of the attack programs

    def script(self, code: str, name: str = "attack.py") -> str:
        """A `cmd:` command running `code`, a Python script in the attack programs' folder."""
        path = self.program / name
        path.write_text(textwrap.dedent(code))
        return f"{PYTHON} {shlex.quote(str(path))}"


def make_layout(tmp_path: Path) -> Layout:
    checkout = tmp_path / "checkout"
    original = checkout / "tasks" / EXAMPLE.name
    shutil.copytree(EXAMPLE, original)
    shutil.copytree(EXAMPLES / "offsite-action-items", checkout / "tasks" / "offsite-action-items")
    plant(checkout / "tasks" / "offsite-action-items", SECRETS["sibling"])
    (original / "hidden" / "notes.md").write_text(f"the answer was {SECRETS['history']}\n")
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-qm", "tasks")
    (original / "hidden" / "notes.md").unlink()
    plant(original, SECRETS["original"])
    with open(original / "task.toml", "a") as toml:
        toml.write(f'\n[provenance]\nfamily = "{SECRETS["provenance"]}"\n')
    # A copy run: the tasks copied elsewhere, the original still in the checkout.
    task = tmp_path / "copy" / EXAMPLE.name
    shutil.copytree(original, task)
    for path in (task / "hidden").rglob("*"):
        if path.is_file():
            path.write_text(path.read_text().replace(SECRETS["original"], SECRETS["hidden"]))
    earlier = checkout / "runs" / "earlier"
    (earlier / "episodes" / f"{EXAMPLE.name}__t1").mkdir(parents=True)
    (earlier / "episodes" / f"{EXAMPLE.name}__t1" / "trajectory.json").write_text(f'{{"x": "{SECRETS["earlier"]}"}}')
    (checkout / "validation" / EXAMPLE.name).mkdir(parents=True)
    (checkout / "validation" / EXAMPLE.name / "summary.md").write_text(SECRETS["earlier"])
    program = tmp_path / "programs"
    program.mkdir()
    program.chmod(0o755)
    return Layout(checkout, task, earlier, program)


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    return make_layout(tmp_path)
