"""Structure: the files are there and valid, the rubric and verify.py agree, the solution defines
`solve` and only calls tools the task gives, `allow` names items that exist, assets belong to the
task, the prompt does not give the answer away, and the world has no tell-tale details (`realism`).

verify.py and solution.py are untrusted: they are read as syntax trees here, never imported.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from stageclaw.errors import WorldError
from stageclaw.grade.grader import COLLATERAL_ITEM
from stageclaw.task.loader import REQUIRED, Task, TaskError, load_task, task_digest
from stageclaw.task.model import GROUPS, OPERATORS, Changes, Rubric, RubricItem, TaskConfig
from stageclaw.tools.registry import catalogue, select
from stageclaw.validate import assets, leaks, paths
from stageclaw.validate.realism import check_realism
from stageclaw.validate.report import BLOCKED, FAIL, PASS, WARNING, Check, Dimension
from stageclaw.world.diff import containers
from stageclaw.world.model import load_world
from stageclaw.world.state import APPS, normalize

NAME = "structure"
_GLOB = re.compile(r"[*?\[]")


def _files(task_dir: Path) -> tuple[Check, bool]:
    missing = [name for name in REQUIRED if not (task_dir / name).is_file()]
    if missing:
        return Check("files", FAIL, f"missing {', '.join(missing)}", missing, "add the missing files"), False
    if not (task_dir / "hidden" / "goal.md").is_file():
        return Check("files", WARNING, "hidden/goal.md is missing", [], "describe the goal state for auditors"), True
    return Check("files", PASS, "every task file is present"), True


def _parse(path: Path) -> ast.Module | str:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), str(path))
    except SyntaxError as exc:
        return f"{path.name} does not parse: line {exc.lineno}: {exc.msg}"
    except UnicodeDecodeError:
        return f"{path.name} is not UTF-8 text"


def _defs(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _accepts(fn: ast.FunctionDef, n: int) -> bool:
    positional = [*fn.args.posonlyargs, *fn.args.args]
    required = len(positional) - len(fn.args.defaults)
    return required <= n and (len(positional) >= n or fn.args.vararg is not None)


def _rubric_matches(task: Task) -> Check:
    tree = _parse(task.verify_py)
    if isinstance(tree, str):
        return Check("rubric_matches_verifier", FAIL, tree, None, "fix the syntax of verify.py")
    defs = _defs(tree)
    missing = [c for c in task.rubric.checks if c not in defs]
    arity = [c for c in task.rubric.checks if c in defs and not _accepts(defs[c], 3)]
    unused = sorted(n for n in defs if n.startswith("check_") and n not in task.rubric.checks)
    evidence = {"missing": missing, "wrong_signature": arity, "unused": unused}
    if missing or arity:
        problems = [f"the rubric names {missing} but verify.py does not define them"] if missing else []
        problems += [f"{arity} do not take (initial, final, trace)"] if arity else []
        return Check(
            "rubric_matches_verifier",
            FAIL,
            "; ".join(problems),
            evidence,
            "define one top-level def check_x(initial, final, trace) per rubric check",
        )
    if unused:
        return Check(
            "rubric_matches_verifier",
            WARNING,
            f"verify.py defines {unused}, which no rubric item uses",
            evidence,
            "add a rubric item for each check function, or remove it",
        )
    return Check("rubric_matches_verifier", PASS, f"{len(task.rubric.checks)} rubric checks, each defined once")


def _solution(task: Task) -> tuple[Check, set[str]]:
    tree = _parse(task.solution_py)
    if isinstance(tree, str):
        return Check("solution_defines_solve", FAIL, tree, None, "fix the syntax of solution.py"), set()
    solve = _defs(tree).get("solve")
    if solve is None or not _accepts(solve, 1):
        why = "solution.py has no top-level def solve(tools)"
        return Check("solution_defines_solve", FAIL, why, None, "define solve(tools)"), set()
    param = (solve.args.posonlyargs + solve.args.args)[0].arg
    called = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in (param, "tools")
    }
    return Check("solution_defines_solve", PASS, f"solve({param}) calls {len(called)} distinct tools"), called


def _unknown_items(task: Task) -> list[str]:
    """`allow` patterns that spell out an existing item (modified or removed) that world.yaml lacks."""
    s0 = normalize(task.world, task.dir)
    known = set(containers(s0))
    out = []
    for pattern in task.rubric.changes.allow:
        path = pattern.lstrip("+-~").split("#", 1)[0]
        if pattern[:1] == "+" or _GLOB.search(path):  # new items and globs name nothing that must exist
            continue
        where = paths.split(known, path)
        if path not in known and (where is None or paths.get(s0, *where) is None):
            out.append(f"{pattern} names {path}, which world.yaml does not have")
    return out


def _tools(task: Task, called: set[str]) -> Check:
    every = catalogue()
    given = select(task.config.tools)
    problems = [f"tools pattern {p!r} matches no tool" for p in task.config.tools if not fnmatch.filter(every, p)]
    if called - set(every):
        problems.append(f"the solution calls tools that do not exist: {sorted(called - set(every))}")
    refused = sorted((called & set(every)) - set(given))
    if refused:
        problems.append(f"the solution calls tools the task does not give the agent: {refused}")
    problems += [f"allow pattern {p}" for p in _unknown_items(task)]
    apps = {p.lstrip("+-~").split("/", 1)[0] for p in task.rubric.changes.allow} & set(APPS)
    reachable = {t.app for t in given.values()}
    reachable |= {"files"} if "terminal" in reachable else set()
    unreachable = sorted(apps - reachable)
    if unreachable:
        problems.append(f"allow lets {unreachable} change, but the agent has no tool for them")
    evidence = {"tools": sorted(given), "solution_calls": sorted(called)}
    if problems:
        return Check(
            "tools_consistent",
            FAIL,
            "; ".join(problems),
            evidence,
            "make task.toml tools, the solution's calls and [changes] allow agree with each other and with world.yaml",
        )
    apps_used = sorted({every[c].app for c in called if c in every})
    return Check("tools_consistent", PASS, f"the solution uses {apps_used} through tools the task gives", evidence)


def _assets(task: Task) -> Check:
    bad = assets.outside(task.dir, task.world)
    if bad:
        return Check(
            "assets_inside_task",
            FAIL,
            "assets that are not ordinary files of the task: " + "; ".join(bad),
            bad,
            "copy every asset into the task's assets/ folder; a task must carry its own files",
        )
    count = len(assets.asset_refs(task.world))
    return Check("assets_inside_task", PASS, f"{count} asset references, all inside the task")


def _leaks(task: Task) -> Check:
    found = leaks.leaked(task)
    if found:
        return Check(
            "no_answer_in_prompt",
            FAIL,
            f"prompt.md states {found}, which the hidden files expect and the world does not contain",
            found,
            "remove the expected values from the prompt; the agent should work them out from the world",
        )
    return Check("no_answer_in_prompt", PASS, "no expected value of the hidden files appears in the prompt")


def _valid_config(task_dir: Path, raw: dict[str, Any]) -> TaskConfig | None:
    """task.toml's valid fields, the folder name as id, defaults for the rest."""
    data = {**raw, "id": task_dir.name}
    for _ in range(len(data) + 1):
        try:
            return TaskConfig.model_validate(data)
        except ValidationError as exc:
            for err in exc.errors():
                key = err["loc"][0] if err["loc"] else None
                if key == "operators":
                    data["operators"] = [o for o in data.get("operators") or [] if o in OPERATORS]
                elif key in ("title", "group"):
                    data[key] = task_dir.name if key == "title" else GROUPS[0]
                elif key is not None:
                    data.pop(str(key), None)
    return None


def _valid_rubric(raw: dict[str, Any]) -> Rubric | None:
    """The rubric items that are valid on their own (the first of each id) and the valid allow patterns."""
    items: dict[str, RubricItem] = {}
    for entry in raw.get("item") or []:
        try:
            item = RubricItem.model_validate(entry)
        except ValidationError:
            continue
        if item.id != COLLATERAL_ITEM:
            items.setdefault(item.id, item)
    patterns = []
    for pattern in (raw.get("changes") or {}).get("allow") or []:
        try:
            patterns += Changes.model_validate({"allow": [pattern]}).allow
        except ValidationError:
            continue
    if not items:
        return None
    return Rubric.model_validate({"item": [i.model_dump() for i in items.values()], "changes": {"allow": patterns}})


def _salvage(task_dir: Path) -> Task | None:
    """As much of a task that does not load as the other dimensions need to run, so a repair round gets
    their findings too: task.toml's and the rubric's valid parts, the prompt, the world. None when the
    world does not load or a rubric, verify.py or solution.py is missing."""
    needed = ("hidden/rubric.toml", "hidden/verify.py", "hidden/solution.py", "task.toml", "prompt.md")
    if any(not (task_dir / name).is_file() for name in needed):
        return None
    try:
        config_raw = tomllib.loads((task_dir / "task.toml").read_text(encoding="utf-8"))
        rubric_raw = tomllib.loads((task_dir / "hidden" / "rubric.toml").read_text(encoding="utf-8"))
        world, _ = load_world(task_dir)
        prompt = (task_dir / "prompt.md").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, WorldError):
        return None
    config, rubric = _valid_config(task_dir, config_raw), _valid_rubric(rubric_raw)
    if config is None or rubric is None:
        return None
    return Task(task_dir, config, prompt, world, rubric, "", task_digest(task_dir))


def check_structure(task_dir: Path) -> tuple[Dimension, Task | None, bool]:
    """The structure dimension, the task, and whether it loaded. A task that does not load is salvaged
    when it can be (see `_salvage`): the other dimensions run on what is valid, but it is never accepted."""
    files, complete = _files(task_dir)
    checks = [files]
    if not complete:
        checks.append(Check("schemas", BLOCKED, "the task cannot be loaded without its files"))
        return Dimension(NAME, checks), None, False
    try:
        task = load_task(task_dir)
    except TaskError as exc:
        message = str(exc)
        checks.append(Check("schemas", FAIL, message, None, _schema_hint(message)))
        return Dimension(NAME, checks), _salvage(task_dir), False
    checks.append(Check("schemas", PASS, "task.toml, world.yaml and hidden/rubric.toml are valid"))
    checks.append(_rubric_matches(task))
    solution, called = _solution(task)
    checks += [solution, _tools(task, called), _assets(task), _leaks(task), check_realism(task)]
    return Dimension(NAME, checks), task, True


def _schema_hint(message: str) -> str:
    where = re.search(r"(task\.toml|world\.yaml|rubric\.toml)", message)
    return f"fix {where.group(1)} as the message says" if where else "fix the file the message names"
