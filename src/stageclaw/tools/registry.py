"""The registry: one episode's tools, called in-process, by the oracle, or over MCP.

Every call is validated against the tool's schema, may meet an injected fault, is capped in size
(`cap`), and is written to the audit log, whatever became of it (an unknown tool and arguments that
fail the schema too). Failures come back as `ToolError`s (or, from `invoke`, as error results);
nothing a tool does raises through the harness.
"""

from __future__ import annotations

import fnmatch
import importlib
import threading
import time
from collections.abc import Iterable
from typing import Any

from stageclaw.tools.audit import AuditLog
from stageclaw.tools.base import CATALOGUE, Tool, ToolContext, ToolError
from stageclaw.tools.cap import cap
from stageclaw.tools.faults import FaultInjector, FaultPlan
from stageclaw.world.episode import Episode

MODULES = ("now", "mail", "calendar", "reminders", "notes", "contacts", "files", "terminal", "browser")


def catalogue() -> dict[str, Tool]:
    """Every tool stageclaw offers, by name."""
    for module in MODULES:
        importlib.import_module(f"stageclaw.tools.{module}")
    return dict(CATALOGUE)


def select(patterns: Iterable[str] | None) -> dict[str, Tool]:
    """The tools whose names match any of `patterns` (globs); all tools when None."""
    tools = catalogue()
    if patterns is None:
        return tools
    pats = list(patterns)
    return {name: t for name, t in tools.items() if any(fnmatch.fnmatchcase(name, p) for p in pats)}


class Registry:
    def __init__(
        self,
        episode: Episode,
        *,
        allow: Iterable[str] | None = None,
        audit: AuditLog | None = None,
        faults: FaultPlan | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.episode = episode
        self.stop = stop or threading.Event()
        self.tools = select(allow)
        self.audit = audit or AuditLog()
        self.faults = FaultInjector(faults) if faults is not None else None
        self.ctx = ToolContext(episode, out_dir=self.audit.path.parent if self.audit.path is not None else None)
        # One agent's calls apply in order: its clients (an IMAP session, a shell) are not shareable.
        self._lock = threading.Lock()

    def specs(self) -> list[dict[str, Any]]:
        return [self.tools[name].spec() for name in sorted(self.tools)]

    @property
    def stopped(self) -> bool:
        """The run was interrupted: agents should end their episode now."""
        return self.stop.is_set()

    def call(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a tool; returns its JSON result or raises ToolError."""
        if self.stopped:
            raise ToolError("the run was interrupted; stop now", "interrupted")
        with self._lock:
            return self._call(name, args)

    def _call(self, name: str, args: dict[str, Any] | None) -> dict[str, Any]:
        started = time.perf_counter()
        fault = None
        try:
            tool = self.tools.get(name)
            if tool is None:
                known = ", ".join(sorted(self.tools))
                raise ToolError(f"unknown tool {name!r}; the tools are: {known}", "invalid_arguments")
            kwargs = tool.parse(args)
            if self.faults is not None:
                fault = self.faults.before(name)
            result = cap(tool.func(self.ctx, **kwargs), tool.args.model_fields)
        except ToolError as exc:
            if exc.kind == "fault" and self.faults is not None:
                fault = self.faults.last
            self._record(name, args, started, error=exc, fault=fault)
            raise
        except Exception as exc:
            reason = f"{type(exc).__name__}: {exc}"
            wrapped = ToolError(f"{name} failed inside stageclaw ({reason}); this is not your fault", "internal")
            self._record(name, args, started, error=wrapped, fault=fault)
            raise wrapped from exc
        self._record(name, args, started, result=result, fault=fault)
        return result

    def invoke(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Like `call`, but a failure is a result: `{"ok": false, "error": ..., "kind": ...}`."""
        try:
            return {"ok": True, "result": self.call(name, args)}
        except ToolError as exc:
            return {"ok": False, "error": exc.message, "kind": exc.kind}

    def _record(
        self,
        name: str,
        args: Any,
        started: float,
        *,
        result: Any = None,
        error: ToolError | None = None,
        fault: dict[str, Any] | None = None,
    ) -> None:
        entry: dict[str, Any] = {"t": self.episode.clock.now().isoformat(), "tool": name, "args": args}
        entry["ok"] = error is None
        if error is None:
            entry["result"] = result
        else:
            entry["error"] = error.message
            entry["error_kind"] = error.kind
        if fault is not None:
            entry["fault"] = fault
        entry["latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
        self.audit.write(entry)

    def close(self) -> None:
        self.ctx.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
