"""Injected tool faults: a seeded, recorded plan that replays exactly.

A plan is a list of rules. A rule matches tool names by glob and fires on the n-th matching
call or with a seeded probability per call, at most `times` times. The same plan and seed
give the same faults for the same sequence of calls.
"""

from __future__ import annotations

import fnmatch
import random
import threading
import time
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from stageclaw.errors import StageclawError
from stageclaw.tools.base import ToolError

FaultKind = Literal["transient_error", "permission_denied", "timeout", "slow"]

MESSAGES = {
    "transient_error": (
        "the server answered 503 Service Unavailable (a temporary problem); nothing was changed, try again"
    ),
    "permission_denied": "the server refused: 403 Forbidden; you do not have permission to do this",
    "timeout": "the request timed out after {delay:g} s with no answer; nothing was changed",
}


class FaultRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tools: str = Field(description="glob over tool names, e.g. 'calendar_*'")
    kind: FaultKind
    nth: int | None = Field(default=None, ge=1)
    probability: float | None = Field(default=None, gt=0, le=1)
    times: int | None = Field(default=None, ge=1)
    delay_s: float = Field(default=2.0, ge=0, le=120)

    @model_validator(mode="after")
    def _trigger(self) -> FaultRule:
        if (self.nth is None) == (self.probability is None):
            raise ValueError("give exactly one of 'nth' or 'probability'")
        return self


class FaultPlan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: int = 0
    rules: list[FaultRule] = Field(default=[], alias="rule")

    @classmethod
    def load(cls, path: Path) -> FaultPlan:
        try:
            data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            return cls.model_validate(data)
        except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
            raise StageclawError(f"{path}: not a valid fault plan: {exc}") from None


class FaultInjector:
    """Applies a plan to one episode's calls and remembers what fired."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self.fired: list[dict[str, Any]] = []
        self._matches = [0] * len(plan.rules)
        self._firings = [0] * len(plan.rules)
        self._lock = threading.Lock()

    def _pick(self, name: str) -> tuple[int, FaultRule] | None:
        with self._lock:
            chosen = None
            for i, rule in enumerate(self.plan.rules):
                if not fnmatch.fnmatchcase(name, rule.tools):
                    continue
                self._matches[i] += 1
                if chosen is not None or (rule.times is not None and self._firings[i] >= rule.times):
                    continue
                if rule.nth is not None:
                    hit = self._matches[i] == rule.nth
                else:
                    hit = random.Random(f"{self.plan.seed}:{i}:{self._matches[i]}").random() < (rule.probability or 0)
                if hit:
                    self._firings[i] += 1
                    chosen = (i, rule)
            return chosen

    def before(self, name: str) -> dict[str, Any] | None:
        """Called before a tool runs: may sleep, or raise the injected error. Returns what fired."""
        picked = self._pick(name)
        if picked is None:
            return None
        index, rule = picked
        record = {"rule": index, "kind": rule.kind, "tool": name}
        self.fired.append(record)
        if rule.kind in ("slow", "timeout"):
            time.sleep(rule.delay_s)
        if rule.kind != "slow":
            raise ToolError(MESSAGES[rule.kind].format(delay=rule.delay_s), "fault")
        return record
