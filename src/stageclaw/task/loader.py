"""Load task directories. Every defect is an error naming the file and the field; a folder
with one broken task still loads the others and reports the broken one."""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from stageclaw.errors import StageclawError, WorldError
from stageclaw.task.model import Rubric, TaskConfig
from stageclaw.tools.registry import catalogue
from stageclaw.world import seeding
from stageclaw.world.model import World, load_world, validation_message

REQUIRED = ("task.toml", "prompt.md", "world.yaml", "hidden/rubric.toml", "hidden/verify.py", "hidden/solution.py")


class TaskError(StageclawError):
    """A task directory is malformed."""


@dataclass
class Task:
    dir: Path
    config: TaskConfig
    prompt: str
    world: World
    rubric: Rubric
    goal: str = ""
    digest: str = field(default="")

    @property
    def id(self) -> str:
        return self.config.id

    @property
    def hidden(self) -> Path:
        return self.dir / "hidden"

    @property
    def verify_py(self) -> Path:
        return self.hidden / "verify.py"

    @property
    def solution_py(self) -> Path:
        return self.hidden / "solution.py"

    @property
    def alternatives(self) -> dict[str, Path]:
        """Other reference solutions (`hidden/alternatives/NAME.py`), each reaching the goal another
        reasonable way; a fair verifier accepts every one of them."""
        folder = self.hidden / "alternatives"
        return {p.stem: p for p in sorted(folder.glob("*.py"))} if folder.is_dir() else {}


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except OSError as exc:
        raise TaskError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(f"{path}: not valid TOML: {exc}") from None


def check_tools(patterns: list[str], where: str) -> None:
    """Every `tools` pattern names at least one tool: a typo would silently leave the agent without it."""
    names = sorted(catalogue())
    if not patterns:
        raise TaskError(f"{where}: the list is empty, so the agent would get no tool; omit it for all tools")
    for pattern in patterns:
        if not fnmatch.filter(names, pattern):
            close = difflib.get_close_matches(pattern, names, 3) or [n for n in names if n.startswith(pattern)][:3]
            hint = f" (did you mean {', '.join(close)}, or {pattern}_*?)" if close else ""
            raise TaskError(f"{where}: {pattern!r} matches no tool{hint}; tools are named like mail_search")


def _model(cls: type[BaseModel], data: dict[str, Any], path: Path) -> Any:
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise TaskError(validation_message(str(path), exc)) from None


REVIEW_FILE = "review.toml"  # the human audit's verdict on the task: about the task, not part of it
PLAYTESTS = "playtests.jsonl"  # in a suite's folder: people's plays of its tasks, for the review pages
PLAYTESTS_REPORT = "PLAYTESTS.md"  # beside it: the playtests written up (what was played, the categories)
STAGE2_RECORD = "validated.json"  # beside it: each task's stage-2 verdict and digest (validate.record)


def task_digest(task_dir: Path) -> str:
    """sha256 over every file of the task (names and contents), to pin results to a task version.

    The review's own file is left out: signing a task does not change it, and a sign-off records this
    digest to go stale when anything else does."""
    h = hashlib.sha256()
    files = (p for p in task_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in sorted(p for p in files if p != task_dir / REVIEW_FILE):
        h.update(path.relative_to(task_dir).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def load_task(task_dir: Path) -> Task:
    task_dir = Path(task_dir)
    if not task_dir.is_dir():
        raise TaskError(f"{task_dir}: not a task folder")
    missing = [name for name in REQUIRED if not (task_dir / name).is_file()]
    if missing:
        raise TaskError(f"{task_dir}: missing {', '.join(missing)}")
    config = _model(TaskConfig, _toml(task_dir / "task.toml"), task_dir / "task.toml")
    if config.id != task_dir.name:
        raise TaskError(f"{task_dir / 'task.toml'}: id: {config.id!r} differs from the folder name {task_dir.name!r}")
    check_tools(config.tools, f"{task_dir / 'task.toml'}: tools")
    rubric = _model(Rubric, _toml(task_dir / "hidden" / "rubric.toml"), task_dir / "hidden" / "rubric.toml")
    prompt = _text(task_dir / "prompt.md").strip()
    if not prompt:
        raise TaskError(f"{task_dir / 'prompt.md'}: empty prompt")
    for code in ("verify.py", "solution.py"):
        _text(task_dir / "hidden" / code)
    try:
        world, _ = load_world(task_dir)
        # Rendering the stores' files now finds what validation let through; episodes reuse the result.
        seeding.render(world, task_dir)
    except WorldError as exc:
        message = str(exc)  # load_world names the file; the net in rendering only names the field
        raise TaskError(
            message if message.startswith(str(task_dir)) else f"{task_dir / 'world.yaml'}: {message}"
        ) from None
    goal_file = task_dir / "hidden" / "goal.md"
    goal = _text(goal_file).strip() if goal_file.is_file() else ""
    return Task(task_dir, config, prompt, world, rubric, goal, task_digest(task_dir))


def find_task_dirs(path: Path) -> list[Path]:
    """`path` itself when it is a task folder, else every task folder below it (sorted)."""
    path = Path(path)
    if (path / "task.toml").is_file():
        return [path]
    if not path.is_dir():
        raise TaskError(f"{path}: no such folder")
    return sorted(p.parent for p in path.rglob("task.toml") if "hidden" not in p.parts)


def load_tasks(path: Path) -> tuple[list[Task], dict[Path, str]]:
    """The tasks under `path`, and an error message for each folder that failed to load."""
    tasks, errors = [], {}
    for task_dir in find_task_dirs(path):
        try:
            tasks.append(load_task(task_dir))
        except TaskError as exc:
            errors[task_dir] = str(exc)
        except Exception as exc:  # a gap in the checks above: still this task's error, not the run's
            errors[task_dir] = f"{task_dir}: cannot be loaded: " + " ".join(f"{type(exc).__name__}: {exc}".split())
    return tasks, errors
