"""task.toml and hidden/rubric.toml as pydantic models (the task directory contract)."""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

OPERATORS = (
    "cross_source_conflict",
    "hidden_dependency",
    "noisy_data",
    "entity_alignment",
    "tool_state_update",
    "cross_tool_consistency",
    "injected_instruction",
    "temporal_reasoning",
)
GROUPS = ("scheduling", "communication", "planning", "documents", "life_admin")
_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_CHECK = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _Strict(BaseModel):
    # inf or nan in a weight or budget would turn scores into NaN and the results into non-standard JSON.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Provenance(_Strict):
    """Where a task came from: a family and seed (procedural) or a hint and model (LLM author).

    `evidence` says, per difficulty operator, what in the world makes the task that hard
    (item paths as the diff writes them, e.g. `calendar/Work/evt-1`), for stage 2 and auditors.
    A task of a private twin of a suite (`stageclaw generate --suite ... --reseed N`) names the
    public `suite` it twins and the `reseed` N it was drawn with. `levers` says, one line each, what a
    family planted to make the job itself hard (a rule's exception, a consequence in another app, a
    derived value, a latent state) and which rubric item grades it, so that a failed play can be
    classified as the agent's mistake or the task's defect.
    """

    family: str | None = None
    seed: int | None = None
    locale: str | None = None
    suite: str | None = None
    reseed: int | None = None
    operators: list[str] = []
    author: str | None = None
    model: str | None = None
    generator_version: str | None = None
    evidence: dict[str, dict[str, Any]] = {}
    levers: list[str] = []


class TaskConfig(_Strict):
    id: str
    title: str
    group: str
    operators: list[str] = []
    tools: list[str] = Field(default=["*"], description="tool names or globs the agent gets")
    time_budget_s: float = Field(default=600, gt=0)
    max_steps: int = Field(default=50, gt=0)
    hint: str = ""
    provenance: Provenance = Provenance()

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"{value!r}: use lower-case letters, digits, '-', '_' and '.'")
        return value

    @field_validator("group")
    @classmethod
    def _group(cls, value: str) -> str:
        if value not in GROUPS:
            raise ValueError(f"unknown group {value!r}; groups are {', '.join(GROUPS)}")
        return value

    @field_validator("operators")
    @classmethod
    def _operators(cls, value: list[str]) -> list[str]:
        for op in value:
            if op not in OPERATORS:
                raise ValueError(f"unknown operator {op!r}; operators are {', '.join(OPERATORS)}")
        return value


Uses = Literal["answer", "trace"]
TRACE_USES: tuple[str, ...] = get_args(Uses)


class RubricItem(_Strict):
    """One graded criterion. `uses` declares what a check reads besides the states: the agent's final
    `answer` or its whole `trace` (steps and answer); a check that reads them without saying so is a
    defect stage 2 reports, since the state alone should decide a state-based item."""

    id: str = Field(description="a short name, unique in the rubric")
    description: str = Field(description="what holds in the end state, with the expected values")
    weight: float = Field(default=1, gt=0, le=1e6, description="its share of the score (bounded: the sum stays finite)")
    critical: bool = Field(default=False, description="the task fails without it")
    check: str | None = Field(default=None, description="the function in verify.py that decides it")
    judge: str | None = Field(default=None, description="instead of check: a criterion for an LLM judge")
    stage: str = Field(default="", description="the step of the work where it is decided, in a few words")
    uses: list[Uses] = Field(default=[], description="what the check reads besides the states")

    @model_validator(mode="after")
    def _one_kind(self) -> RubricItem:
        if (self.check is None) == (self.judge is None):
            raise ValueError(f"item {self.id!r}: give exactly one of 'check' (a function in verify.py) or 'judge'")
        if self.check is not None and not _CHECK.match(self.check):
            raise ValueError(f"item {self.id!r}: check {self.check!r} is not a Python function name")
        return self


class Changes(_Strict):
    allow: list[str] = []

    @field_validator("allow")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        for pattern in value:
            body = pattern[1:] if pattern[:1] in "+-~" else pattern
            if not body or body.startswith("/"):
                raise ValueError(
                    f"{pattern!r} is not a change pattern like '+reminders/*/*' or '~calendar/Work/evt-1#*'"
                )
        return value


class Rubric(_Strict):
    items: list[RubricItem] = Field(alias="item")
    changes: Changes = Changes()

    @model_validator(mode="after")
    def _unique(self) -> Rubric:
        ids = [i.id for i in self.items]
        if not ids:
            raise ValueError("the rubric needs at least one [[item]]")
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"item ids used twice: {', '.join(dupes)}")
        if "no_collateral_damage" in ids:
            raise ValueError("'no_collateral_damage' is added by the grader; do not declare it")
        return self

    @property
    def checks(self) -> list[str]:
        return [i.check for i in self.items if i.check]
