"""The LLM author: a task from a hint, repaired from stage 2's diagnostics until it is accepted.

What the model is given, honestly:
- the task contract, generated from the code that enforces it (`author.contract`);
- the tool catalogue: every tool's name, description, JSON Schema and result shape;
- an exploration of an empty world: stageclaw builds one (just a user, a time and a zone) on
  the real servers and calls the read-only tools on it, so the model sees the exact shape of
  their results. The model does not call tools itself.

It answers with one JSON object holding the task's files. stageclaw writes them to a scratch
folder, runs stage 2 (`validate_task`) and, while the task is rejected and repairs are left,
sends back the diagnostics, in the words of the answer (`rubric.items[4].check`), and asks for the
complete revised object. Every attempt is recorded as it completes (score, points per dimension,
kill rate, coverage, diagnostics, tokens, cost, files); an accepted task is copied to the output
folder. A provider that fails (after retries of transient errors; a 4xx answer is final) ends that
hint with status provider_error and keeps its attempts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stageclaw.agents.llm import ProviderError, with_retries
from stageclaw.agents.prices import PriceTable
from stageclaw.author.content.people import slug
from stageclaw.author.contract import contract, locate, tool_specs
from stageclaw.author.emit import toml_array, toml_table, toml_value, yaml_text
from stageclaw.run.store import write_json
from stageclaw.validate.report import DEFAULT_THRESHOLD, Report
from stageclaw.world.pool import ServicePool

AUTHOR = "stageclaw author"
EXPLORE = (
    ("now", {}),
    ("mail_list_folders", {}),
    ("mail_search", {"folder": "INBOX"}),
    ("calendar_list_calendars", {}),
    ("reminders_list", {}),
    ("notes_list", {}),
    ("contacts_search", {"query": "a"}),
    ("files_list", {}),
)
ANSWER = """\
Answer with one JSON object and nothing else:
{"task": {"id", "title", "group", "operators", "tools", "time_budget_s", "max_steps", "hint"},
 "prompt": "...", "world": "world.yaml as YAML text (or the same as a JSON object)",
 "rubric": {"items": [{"id", "description", "weight", "critical", "check" or "judge", "stage"}], "allow": [...]},
 "verify_py": "...", "solution_py": "...", "alternatives": {"NAME": "python source of solve(tools)"},
 "goal": "...", "assets": {"file.csv": "text of a file under assets/"}}
"""


class TaskFields(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str
    title: str
    group: str
    operators: list[str] = []
    tools: list[str] = ["*"]
    time_budget_s: float = 600
    max_steps: int = 40
    hint: str = ""


class RubricFields(BaseModel):
    model_config = ConfigDict(extra="ignore")
    items: list[dict[str, Any]]
    allow: list[str] = []


class Authored(BaseModel):
    """The model's answer: the contents of every task file."""

    model_config = ConfigDict(extra="ignore")
    task: TaskFields
    prompt: str = Field(min_length=1)
    world: str | dict[str, Any]
    rubric: str | RubricFields
    verify_py: str = Field(min_length=1)
    solution_py: str = Field(min_length=1)
    alternatives: dict[str, str] = {}
    goal: str = ""
    assets: dict[str, str] = {}

    def files(self, model: str, hint: str) -> dict[str, str]:
        task = self.task.model_dump()
        task["id"] = task_id = slug(task["id"]) or "authored-task"
        task["provenance"] = {"author": AUTHOR, "model": model}
        task["hint"] = task["hint"] or hint
        out = {
            "task.toml": toml_table(task),
            "prompt.md": self.prompt.strip() + "\n",
            "world.yaml": self.world if isinstance(self.world, str) else yaml_text(self.world),
            "hidden/verify.py": self.verify_py,
            "hidden/solution.py": self.solution_py,
            "hidden/goal.md": self.goal.strip() + "\n",
        }
        if isinstance(self.rubric, str):
            out["hidden/rubric.toml"] = self.rubric
        else:
            allow = "".join(f"  {toml_value(p)},\n" for p in self.rubric.allow)
            items = [{k: v for k, v in item.items() if v is not None} for item in self.rubric.items]
            try:
                out["hidden/rubric.toml"] = toml_array("item", items) + f"\n[changes]\nallow = [\n{allow}]\n"
            except TypeError as exc:
                raise ValueError(f"the rubric has a value TOML cannot hold: {exc}") from None
        for name, text in self.assets.items():
            out[f"assets/{Path(name).name}"] = text
        for name, code in self.alternatives.items():
            out[f"hidden/alternatives/{slug(Path(name).stem).replace('-', '_') or 'alternative'}.py"] = code
        return {f"{task_id}/{k}": v for k, v in out.items()}


ACCEPTED, REJECTED, PROVIDER_ERROR = "accepted", "rejected", "provider_error"


@dataclass
class Attempt:
    number: int
    accepted: bool
    score: float | None
    dimensions: dict[str, str]  # status per dimension
    kill_rate: float | None
    diagnostics: list[dict[str, Any]]
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    wall_s: float
    error: str = ""  # the answer was not a task folder at all
    files: dict[str, str] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)  # per dimension
    coverage: float | None = None  # share of the changed fields the mutants made wrong


@dataclass
class Authoring:
    """One hint's authoring: `status` is accepted, rejected (out of repairs) or provider_error (the
    model could not be reached; the attempts made before are kept)."""

    hint: str
    model: str
    accepted: bool = False
    task_id: str = ""
    task_dir: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    status: str = REJECTED
    error: str = ""  # what stopped this hint's authoring (the provider, a crash); the other hints go on

    @property
    def input_tokens(self) -> int:
        return sum(a.input_tokens for a in self.attempts)

    @property
    def output_tokens(self) -> int:
        return sum(a.output_tokens for a in self.attempts)

    @property
    def cost_usd(self) -> float | None:
        costs = [a.cost_usd for a in self.attempts]
        return None if any(c is None for c in costs) else round(sum(c for c in costs if c is not None), 6)

    def to_json(self) -> dict[str, Any]:
        return {
            **{k: v for k, v in asdict(self).items() if k != "attempts"},
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
            "attempts": [asdict(a) for a in self.attempts],
        }


def parse_answer(text: str) -> Authored:
    """The JSON object in the model's answer (a fenced block is accepted); ValueError says what is wrong."""
    match = re.search(r"\{.*\}", text or "", re.S)
    if not match:
        raise ValueError("the answer holds no JSON object")
    try:
        return Authored.model_validate(json.loads(match.group(0)))
    except json.JSONDecodeError as exc:
        raise ValueError(f"the JSON does not parse: {exc}") from None
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"the JSON object is not a task: {problems}") from None


def explore(pool: ServicePool) -> list[dict[str, Any]]:
    """The read-only tools called on an empty world: what their results look like."""
    from stageclaw.tools.registry import Registry
    from stageclaw.world.model import parse_world

    user = {"name": "Ada Lovelace", "email": "ada@example.com"}
    world = parse_world({"now": "2026-03-10T09:00:00+01:00", "timezone": "Europe/Berlin", "user": user})
    calls = []
    with tempfile.TemporaryDirectory() as base, pool.episode(world, Path(base)) as episode, Registry(episode) as reg:
        for name, args in EXPLORE:
            calls.append({"tool": name, "args": args, "result": reg.invoke(name, args)})
    return calls


def briefing(hint: str, exploration: list[dict[str, Any]]) -> str:
    return "\n\n".join(
        [
            f"Write a complete task for this hint:\n\n{hint}",
            "The tools an agent (and your solution) can use, with their JSON Schemas and result shapes:\n"
            + json.dumps(tool_specs(), ensure_ascii=False),
            "What the read-only tools return on an empty world (stageclaw called them for you):\n"
            + json.dumps(exploration, ensure_ascii=False),
            ANSWER,
        ]
    )


class LLMAuthor:
    """Writes tasks with an OpenAI-compatible model (`openai:MODEL` or `MODEL`)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float | None = None,
        max_tokens: int = 16000,
        max_repairs: int = 3,
        threshold: float = DEFAULT_THRESHOLD,
        prices: PriceTable | None = None,
        retries: int = 3,
        backoff_s: float = 1.0,
    ) -> None:
        from openai import OpenAI

        self.model = model.removeprefix("openai:")
        self.temperature, self.max_tokens = temperature, max_tokens
        self.max_repairs, self.threshold = max_repairs, threshold
        self.prices = prices or PriceTable.load()
        self.retries, self.backoff_s = retries, backoff_s
        self.client = OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none",
            max_retries=0,
            timeout=600,
        )

    def _ask(self, messages: list[dict[str, str]]) -> tuple[str, int, int]:
        """The model's answer and its token counts; ProviderError when it cannot be had."""
        import openai

        params: dict[str, Any] = {"max_tokens": self.max_tokens, "response_format": {"type": "json_object"}}
        if self.temperature is not None:
            params["temperature"] = self.temperature

        def once() -> tuple[str, int, int]:
            reply = self.client.chat.completions.create(model=self.model, messages=messages, **params)
            usage = reply.usage
            text = reply.choices[0].message.content or ""
            return text, usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0

        return with_retries(once, openai, self.retries, self.backoff_s)

    def write(
        self,
        hint: str,
        out: Path,
        pool: ServicePool,
        on_attempt: Callable[[Authoring], None] | None = None,
    ) -> Authoring:
        """Author one task from `hint`; an accepted task lands in `out/<task-id>/`. `on_attempt` sees the
        record after each attempt, so a caller can save it as it grows. A provider failure ends the
        hint with status provider_error; what was done before is kept."""
        from stageclaw.validate.checker import validate_task

        record = Authoring(hint, self.model)
        messages = [
            {"role": "system", "content": contract(self.max_tokens)},
            {"role": "user", "content": briefing(hint, explore(pool))},
        ]

        def done(attempt: Attempt) -> None:
            record.attempts.append(attempt)
            if on_attempt is not None:
                on_attempt(record)

        for number in range(1, self.max_repairs + 2):
            started = time.perf_counter()
            try:
                text, tokens_in, tokens_out = self._ask(messages)
            except ProviderError as exc:
                record.status, record.error = PROVIDER_ERROR, f"the model {self.model} did not answer: {exc}"
                return record
            messages.append({"role": "assistant", "content": text})
            cost = self.prices.cost(self.model, tokens_in, tokens_out)
            try:
                files = parse_answer(text).files(self.model, hint)
            except ValueError as exc:  # not a task folder at all: an attempt, and a plain request to fix it
                wall = round(time.perf_counter() - started, 3)
                done(Attempt(number, False, None, {}, None, [], tokens_in, tokens_out, cost, wall, error=str(exc)))
                messages.append({"role": "user", "content": f"{exc}. {ANSWER}"})
                continue
            with tempfile.TemporaryDirectory(prefix="stageclaw-author-") as scratch:
                task_dir = _write(Path(scratch), files)
                report = validate_task(task_dir, pool, threshold=self.threshold)
                record.task_id = report.task_id
                if report.accepted:
                    target = Path(out) / task_dir.name
                    if target.exists():
                        shutil.rmtree(target)
                    shutil.copytree(task_dir, target)
                    record.accepted, record.task_dir, record.status = True, str(target), ACCEPTED
                done(_attempt(number, report, tokens_in, tokens_out, cost, time.perf_counter() - started, files))
                if report.accepted:
                    return record
                repair = _repair(report, scratch, files)
            messages.append({"role": "user", "content": repair + "\n" + ANSWER})
        return record


def _repair(report: Report, scratch: str, files: dict[str, str]) -> str:
    """Stage 2's diagnostics in the words of the answer, and where each rubric item is in it."""
    from stageclaw.validate.repair import repair_prompt

    text = locate(repair_prompt(report), scratch)
    rubric = next((v for k, v in files.items() if k.endswith("/hidden/rubric.toml")), "")
    ids = re.findall(r'(?m)^id\s*=\s*"([^"]*)"', rubric)
    if ids:
        text += "Your rubric items: " + ", ".join(f"rubric.items[{n}] is {i!r}" for n, i in enumerate(ids, 1)) + "\n"
    return text


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / next(iter(files)).split("/", 1)[0]


def _attempt(
    number: int,
    report: Report,
    tokens_in: int,
    tokens_out: int,
    cost: float | None,
    wall_s: float,
    files: dict[str, str],
) -> Attempt:
    return Attempt(
        number,
        report.accepted,
        report.score,
        {name: d.status for name, d in report.dimensions.items()},
        report.kill_rate,
        [asdict(d) for d in report.diagnostics()],
        tokens_in,
        tokens_out,
        cost,
        round(wall_s, 3),
        files={k.split("/", 1)[1]: v for k, v in files.items()},
        points={name: d.points for name, d in report.dimensions.items()},
        coverage=((report.mutation or {}).get("coverage") or {}).get("rate"),
    )


def write_attempts(out: Path, runs: list[Authoring]) -> Path:
    """`out/attempts.json`, written atomically: every authoring run with every attempt, and the totals."""
    costs = [r.cost_usd for r in runs]
    data = {
        "runs": [r.to_json() for r in runs],
        "accepted": sum(1 for r in runs if r.accepted),
        "provider_errors": sum(1 for r in runs if r.status == PROVIDER_ERROR),
        "input_tokens": sum(r.input_tokens for r in runs),
        "output_tokens": sum(r.output_tokens for r in runs),
        "cost_usd": None if any(c is None for c in costs) else round(sum(c for c in costs if c is not None), 6),
    }
    path = Path(out) / "attempts.json"
    write_json(path, data)
    return path
