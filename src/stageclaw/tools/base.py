"""What a tool is: a typed function over one episode's real servers, with a JSON Schema.

A tool module defines functions `def NAME(ctx: ToolContext, arg: T, ...) -> dict` and
decorates them with `@tool`; the decorator derives the argument model (and so the JSON
Schema an LLM sees) from the signature and the description from the docstring.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from stageclaw.world.episode import Episode

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Said once here for every tool that takes a `cursor` (see tools/paging.py), so they all say it alike.
PAGING = (
    "Results come in pages: `total` counts every match, a page holds at most `limit` of them and ends early"
    " rather than pass about 32 KB, and while more remain `next_cursor` is set (with a `note`): call again with"
    " the same arguments plus cursor=next_cursor for the next page. The order is fixed, so paging to the end"
    " returns each result exactly once."
)


class ToolError(Exception):
    """A failed tool call. `message` is written for the agent: say what went wrong and what to try.

    `kind` is `invalid_arguments`, `tool` (the world said no), `fault` (an injected fault) or
    `internal` (a server or stageclaw failed: an infrastructure problem, not the agent's).
    """

    def __init__(self, message: str, kind: str = "tool") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


@dataclass
class ToolContext:
    """Everything a tool may touch for one episode: its endpoints, clock and open clients.

    `out_dir` is the episode's output folder (where its audit log is), when it has one: tools keep
    files for the trajectory there, such as the browser's screenshots.
    """

    episode: Episode
    out_dir: Path | None = None
    _clients: dict[str, Any] = field(default_factory=dict)
    _closers: dict[str, Callable[[Any], None]] = field(default_factory=dict)

    @property
    def tz(self) -> Any:
        return self.episode.tz

    def now(self) -> Any:
        return self.episode.clock.now()

    def client(self, key: str, make: Callable[[], Any], close: Callable[[Any], None] | None = None) -> Any:
        """A client kept open across calls (an IMAP session, a CalDAV connection)."""
        if key not in self._clients:
            self._clients[key] = make()
            if close is not None:
                self._closers[key] = close
        return self._clients[key]

    def drop(self, key: str) -> None:
        """Forget a client (after its connection broke); the next call opens a new one."""
        client = self._clients.pop(key, None)
        closer = self._closers.pop(key, None)
        if client is not None and closer is not None:
            try:
                closer(client)
            except Exception:
                pass

    def close(self) -> None:
        for key in list(self._clients):
            self.drop(key)


@dataclass(frozen=True)
class Tool:
    """`returns` is the result's shape in the State JSON's words (`{uid, event: EVENT + {calendar}}`):
    what an author's solution gets back from `tools.NAME(...)`."""

    name: str
    app: str
    description: str
    args: type[BaseModel]
    func: Callable[..., dict[str, Any]]
    returns: str = ""

    def input_schema(self) -> dict[str, Any]:
        schema = self.args.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema()}

    def parse(self, args: dict[str, Any] | None) -> dict[str, Any]:
        if args is not None and not isinstance(args, dict):
            raise ToolError(f"{self.name}: arguments must be a JSON object", "invalid_arguments")
        try:
            model = self.args.model_validate(args or {})
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: "
                + ("unknown argument" if e["type"] == "extra_forbidden" else e["msg"])
                for e in exc.errors()
            )
            raise ToolError(f"{self.name}: invalid arguments: {problems}", "invalid_arguments") from None
        return {k: getattr(model, k) for k in type(model).model_fields}


CATALOGUE: dict[str, Tool] = {}


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def tool(app: str, returns: str = "") -> Callable[[Callable[..., dict[str, Any]]], Callable[..., dict[str, Any]]]:
    """Register `func` as the tool named after it, in the catalogue of tools of `app`; `returns` is the
    shape of its result."""

    def register(func: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
        name = func.__name__
        if not _NAME.match(name):
            raise ValueError(f"tool name {name!r} must match [a-z][a-z0-9_]*")
        hints = typing.get_type_hints(func, include_extras=True)
        fields: dict[str, Any] = {}
        for param in list(inspect.signature(func).parameters.values())[1:]:
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (hints[param.name], default)
        model = create_model(f"{name}_args", __base__=_Args, **fields)
        description = inspect.cleandoc(func.__doc__ or "")
        shape = returns
        if "cursor" in fields:
            description += "\n\n" + PAGING
            shape += " + {total, next_cursor, note?}"
        CATALOGUE[name] = Tool(name, app, description, model, func, shape)
        return func

    return register
