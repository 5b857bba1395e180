"""Injected tool faults: a seeded, recorded plan that replays exactly.

A plan is a list of rules. A rule matches tool names by glob and fires on the n-th matching
call or with a seeded probability per call, at most `times` times, counting its own matches
whatever the other rules do. The same plan and seed give the same faults for the same sequence
of calls.
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

from stageclaw.errors import StageclawError, one_line
from stageclaw.tools.base import ToolError
from stageclaw.world.model import field_path

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
        """The plan in a TOML file; StageclawError with one line saying what is wrong with it."""
        try:
            data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            return cls.model_validate(data)
        except OSError as exc:
            raise StageclawError(f"{path}: cannot read the fault plan: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise StageclawError(f"{path}: not a valid fault plan: {one_line(exc)}") from None
        except ValidationError as exc:
            problems = "; ".join(
                f"{field_path(e['loc']) or 'plan'}: " + ("unknown key" if e["type"] == "extra_forbidden" else e["msg"])
                for e in exc.errors()
            )
            raise StageclawError(f"{path}: not a valid fault plan: {problems}") from None


class FaultInjector:
    """Applies a plan to one episode's calls and remembers what fired.

    Each rule counts its own matching calls and fires on its own terms, whatever the other rules do;
    when several fire on one call, their delays add up and the first error (in plan order) is the
    call's outcome.
    """

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self.fired: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None  # what fired on the latest call, for its audit entry
        self._matches = [0] * len(plan.rules)
        self._firings = [0] * len(plan.rules)
        self._lock = threading.Lock()

    def _hits(self, name: str) -> list[tuple[int, FaultRule]]:
        with self._lock:
            hits = []
            for i, rule in enumerate(self.plan.rules):
                if not fnmatch.fnmatchcase(name, rule.tools):
                    continue
                self._matches[i] += 1
                if rule.times is not None and self._firings[i] >= rule.times:
                    continue
                if rule.nth is not None:
                    hit = self._matches[i] == rule.nth
                else:
                    hit = random.Random(f"{self.plan.seed}:{i}:{self._matches[i]}").random() < (rule.probability or 0)
                if hit:
                    self._firings[i] += 1
                    hits.append((i, rule))
            return hits

    def before(self, name: str) -> dict[str, Any] | None:
        """Called before a tool runs: may sleep, or raise the injected error. Returns what fired."""
        hits = self._hits(name)
        self.last = None
        if not hits:
            return None
        records = [{"rule": i, "kind": rule.kind, "tool": name} for i, rule in hits]
        self.fired.extend(records)
        error = next((n for n, (_, rule) in enumerate(hits) if rule.kind != "slow"), None)
        main = dict(records[error if error is not None else 0])
        if len(records) > 1:
            main["also"] = [r["rule"] for r in records if r["rule"] != main["rule"]]
        self.last = main
        for _, rule in hits:
            if rule.kind in ("slow", "timeout"):
                time.sleep(rule.delay_s)
        if error is not None:
            rule = hits[error][1]
            raise ToolError(MESSAGES[rule.kind].format(delay=rule.delay_s), "fault")
        return main
