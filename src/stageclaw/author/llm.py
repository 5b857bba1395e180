"""The LLM author: a task from a hint, repaired from stage 2's diagnostics until it is accepted.

What the model is given, honestly:
- the task directory contract (files, world.yaml, rubric, checks, solutions) in brief;
- the tool catalogue: every tool's name, description and JSON Schema;
- an exploration of an empty world: stageclaw builds one (just a user, a time and a zone) on
  the real servers and calls the read-only tools on it, so the model sees the exact shape of
  their results. The model does not call tools itself.

It answers with one JSON object holding the task's files. stageclaw writes them to a scratch
folder, runs stage 2 (`validate_task`) and, while the task is rejected and repairs are left,
sends back `repair_prompt(report)` and asks for the complete revised object. Every attempt is
recorded (score, dimensions, diagnostics, tokens, cost); an accepted task is copied to the
output folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stageclaw.agents.prices import PriceTable
from stageclaw.author.content.people import slug
from stageclaw.author.emit import toml_array, toml_table, toml_value, yaml_text
from stageclaw.errors import StageclawError
from stageclaw.tools.registry import catalogue
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
CONTRACT = """\
You write tasks for stageclaw, a benchmark of personal AI agents that act on a user's real mail, calendar,
reminders, notes, contacts and files through tools, and are graded on the state they leave behind.

A task is a folder:
- task.toml: id (lower-case, digits, '-'), title, group (scheduling | communication | planning | documents |
  life_admin), operators (difficulty operators: cross_source_conflict, hidden_dependency, noisy_data,
  entity_alignment, tool_state_update, cross_tool_consistency), tools (globs, usually ["*"]), time_budget_s,
  max_steps, hint.
- prompt.md: what the user asks, in their own words. It must not state the values the checks expect
  (a computed time, a total, an address) unless the world states them too: the agent has to work them out.
- world.yaml: the initial world. Keys: now (ISO 8601 with offset), timezone (IANA), user {name, email},
  mail {folders: {INBOX: [MESSAGE], ...}}, calendar {NAME: [EVENT]}, reminders {LIST: [TODO]}, notes
  {FOLDER: [NOTE]}, contacts [CONTACT], files {relative/path: {text: ...}}. Unknown keys are errors.
  MESSAGE: message_id (<id@host>), from, to[], cc[], subject, date, flags[] (\\Seen, \\Answered, \\Flagged),
  body, in_reply_to, attachments [{filename, text}]. EVENT: uid, summary, start, end (ISO; all-day: dates with
  all_day: true, end exclusive), location, description, attendees[], organizer, status, rrule.
  TODO: uid, title, notes, due (date or time), priority (1-9), completed, completed_at.
  NOTE: uid, title, body, tags[]. CONTACT: uid, name, emails[], phones[], organization, title, notes, birthday.
- hidden/rubric.toml: [[item]] id, description, weight, critical, check = "check_x" (a function in verify.py) or
  judge = "criterion for an LLM judge", stage; and [changes] allow = [...] (glob patterns over change paths,
  like "~calendar/Work/evt-1#start", "+reminders/Work/*", "+mail/outbox/*", "+mail/folders/Sent/*",
  "~mail/folders/INBOX/*#flags", "~contacts/c-1", "-reminders/Work/r-2"; + added, - removed, ~ modified).
  Every change outside allow fails the task (collateral damage).
- hidden/verify.py: def check_x(initial, final, trace) -> (bool, reason), standard library only, over the State
  JSON (same fields as world.yaml; mail is {folders: {NAME: [MESSAGE]}, outbox: [MESSAGE sent by the agent]};
  messages in state have attachments [{filename, sha256, size}]; times are ISO in the task's zone; addresses are
  'Name <addr>' with the address lower-cased; files are {path: {sha256, size, text}}). Checks must be strict
  about facts (exact times, exactly one new item, exactly these recipients) and lenient about wording.
- hidden/solution.py: def solve(tools) that solves the task with the same tools as any agent, called as
  tools.NAME(**args) and returning their JSON results. It must find things through the tools (search, list,
  read) and never hard-code values the servers assign (uids of new items, message ids like INBOX/3).
- hidden/goal.md: the goal state in words, for auditors.

Stage 2 accepts a task at 80 of 100 points: structure (files, schemas, rubric <-> verify.py, the solution only
calls existing tools), reproducibility (the world builds the same twice), verifiability (the verifier is
deterministic, doing nothing fails, the reference solution scores 100 on the real servers, and near-miss
end states made from the solved state -- a change reverted, a time an hour off, another recipient, an item
duplicated or put in another list, an extra deletion -- are all rejected), difficulty (at least 2 apps,
4 tool calls of 3 tools, the declared operators visible in the world).
"""
ANSWER = """\
Answer with one JSON object and nothing else:
{"task": {"id", "title", "group", "operators", "tools", "time_budget_s", "max_steps", "hint"},
 "prompt": "...", "world": "world.yaml as YAML text (or the same as a JSON object)",
 "rubric": {"items": [{"id", "description", "weight", "critical", "check" or "judge", "stage"}], "allow": [...]},
 "verify_py": "...", "solution_py": "...", "goal": "...", "assets": {"file.csv": "text of a file under assets/"}}
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
        return {f"{task_id}/{k}": v for k, v in out.items()}


@dataclass
class Attempt:
    number: int
    accepted: bool
    score: float | None
    dimensions: dict[str, str]
    kill_rate: float | None
    diagnostics: list[dict[str, Any]]
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    wall_s: float
    error: str = ""  # the answer was not a task folder at all
    files: dict[str, str] = field(default_factory=dict)


@dataclass
class Authoring:
    hint: str
    model: str
    accepted: bool = False
    task_id: str = ""
    task_dir: str = ""
    attempts: list[Attempt] = field(default_factory=list)
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
    tools = [t.spec() for t in sorted(catalogue().values(), key=lambda t: t.name)]
    return "\n\n".join(
        [
            f"Write a complete task for this hint:\n\n{hint}",
            "The tools an agent (and your solution) can use:\n" + json.dumps(tools, ensure_ascii=False),
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
        params: dict[str, Any] = {"max_tokens": self.max_tokens, "response_format": {"type": "json_object"}}
        if self.temperature is not None:
            params["temperature"] = self.temperature
        last = ""
        for attempt in range(self.retries):
            try:
                reply = self.client.chat.completions.create(model=self.model, messages=messages, **params)
                usage = reply.usage
                text = reply.choices[0].message.content or ""
                return text, usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0
            except Exception as exc:  # provider errors: retried, then a clear failure
                last = f"{type(exc).__name__}: {exc}"
                time.sleep(min(self.backoff_s * 2**attempt, 8))
        raise StageclawError(f"the model {self.model} did not answer after {self.retries} tries ({last[:300]})")

    def write(self, hint: str, out: Path, pool: ServicePool) -> Authoring:
        """Author one task from `hint`; an accepted task lands in `out/<task-id>/`."""
        from stageclaw.validate.checker import validate_task
        from stageclaw.validate.repair import repair_prompt

        record = Authoring(hint, self.model)
        messages = [
            {"role": "system", "content": CONTRACT},
            {"role": "user", "content": briefing(hint, explore(pool))},
        ]
        for number in range(1, self.max_repairs + 2):
            started = time.perf_counter()
            text, tokens_in, tokens_out = self._ask(messages)
            messages.append({"role": "assistant", "content": text})
            cost = self.prices.cost(self.model, tokens_in, tokens_out)
            try:
                files = parse_answer(text).files(self.model, hint)
            except ValueError as exc:  # not a task folder at all: an attempt, and a plain request to fix it
                record.attempts.append(
                    Attempt(number, False, None, {}, None, [], tokens_in, tokens_out, cost, 0.0, error=str(exc))
                )
                messages.append({"role": "user", "content": f"{exc}. {ANSWER}"})
                continue
            with tempfile.TemporaryDirectory(prefix="stageclaw-author-") as scratch:
                task_dir = _write(Path(scratch), files)
                report = validate_task(task_dir, pool, threshold=self.threshold)
                attempt = _attempt(number, report, tokens_in, tokens_out, cost, time.perf_counter() - started, files)
                record.attempts.append(attempt)
                record.task_id = report.task_id
                if report.accepted:
                    target = Path(out) / task_dir.name
                    if target.exists():
                        shutil.rmtree(target)
                    shutil.copytree(task_dir, target)
                    record.accepted, record.task_dir = True, str(target)
                    return record
            messages.append({"role": "user", "content": repair_prompt(report) + "\n" + ANSWER})
        return record


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
    )


def write_attempts(out: Path, runs: list[Authoring]) -> Path:
    """`out/attempts.json`: every authoring run with every attempt, and the totals."""
    costs = [r.cost_usd for r in runs]
    data = {
        "runs": [r.to_json() for r in runs],
        "accepted": sum(1 for r in runs if r.accepted),
        "input_tokens": sum(r.input_tokens for r in runs),
        "output_tokens": sum(r.output_tokens for r in runs),
        "cost_usd": None if any(c is None for c in costs) else round(sum(c for c in costs if c is not None), 6),
    }
    path = Path(out) / "attempts.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
