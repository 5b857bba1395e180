"""The file-format references: every key of the pydantic models that validate world.yaml
(`stageclaw.world.model`), task.toml and rubric.toml (`stageclaw.task.model`) and suite.toml
(`stageclaw.author.suite`), with its type,
default and, where the model says it, its meaning.

The models are the contract: the files are validated against them (unknown keys are errors), so
these pages list exactly what the files may hold.
"""

from __future__ import annotations

import json
import types
import typing
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from stageclaw.author.suite import Manifest
from stageclaw.docs.markdown import cell
from stageclaw.task.model import Rubric, TaskConfig
from stageclaw.world.model import World

# Validators that give a plain type its meaning in world.yaml, by function name.
MEANINGS = {
    "_parse_money": "amount (a number, at most two decimals)",
    "_check_currency": "currency (an ISO 4217 code such as `EUR`)",
}


def render() -> str:
    intro = (
        "Every key a `world.yaml` may hold, generated from the pydantic models that validate it "
        "(`stageclaw.world.model`). Unknown keys are errors naming the file and the field. A date is "
        "`YYYY-MM-DD`, a date-time ISO 8601 (`2026-03-10T09:00:00+08:00`; without an offset it is in the "
        "world's `timezone`). The rules values must keep, and a complete example, are in "
        "[the contract](../contract.md#worldyaml)."
    )
    return _page("world.yaml reference", intro, [(World, "The top level of world.yaml.")])


def render_task() -> str:
    intro = (
        "Every key of a task's `task.toml` and `hidden/rubric.toml`, and of a suite's `suite.toml`, generated "
        "from the pydantic models that validate them (`stageclaw.task.model`, `stageclaw.author.suite`). "
        "Unknown keys are errors naming the file and the field. What the files mean together is in "
        "[the contract](../contract.md)."
    )
    roots = [
        (TaskConfig, "task.toml: the task's card."),
        (Rubric, "hidden/rubric.toml: `[[item]]` tables and `[changes]`."),
        (Manifest, "suite.toml: a benchmark suite's manifest, `[rules]` and `[[task]]` tables."),
    ]
    return _page("task.toml, rubric.toml and suite.toml reference", intro, roots)


def _page(title: str, intro: str, roots: list[tuple[type[BaseModel], str]]) -> str:
    lines = [f"# {title}", "", intro, ""]
    tops = dict(roots)
    seen: list[type[BaseModel]] = []
    for root, _ in roots:
        seen += [m for m in _models(root) if m not in seen]
    for model in seen:
        lines += [f"## `{model.__name__}`", ""]
        doc = tops.get(model) or cell(model.__doc__ or "")
        if doc:
            lines += [doc, ""]
        meanings = any(f.description for f in model.model_fields.values())
        lines += ["| key | type | default |" + (" meaning |" if meanings else "")]
        lines += ["|---|---|---|" + ("---|" if meanings else "")]
        for name, field in model.model_fields.items():
            default = "required" if field.is_required() else f"`{_default(field)}`"
            row = f"| `{field.alias or name}` | {_field_type(field)} | {default} |"
            lines.append(row + (f" {cell(field.description or '')} |" if meanings else ""))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _models(root: type[BaseModel]) -> list[type[BaseModel]]:
    """`root` and every model its fields reach, in the order a reader meets them."""
    found: list[type[BaseModel]] = []

    def visit(model: type[BaseModel]) -> None:
        if model in found:
            return
        found.append(model)
        for field in model.model_fields.values():
            for inner in _inner_models(field.annotation):
                visit(inner)

    visit(root)
    return found


def _inner_models(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _inner_models(arg)]


def _field_type(field: FieldInfo) -> str:
    text = _type(field.annotation, field.metadata)
    signs = {"ge": "≥", "le": "≤", "gt": ">", "lt": "<"}
    bounds = [f"{sign} {getattr(m, k)}" for m in field.metadata for k, sign in signs.items() if hasattr(m, k)]
    return text + (f" ({', '.join(bounds)})" if bounds else "")


def _type(annotation: Any, metadata: list[Any] | tuple[Any, ...] = ()) -> str:
    for meta in metadata:
        name = getattr(getattr(meta, "func", None), "__name__", "")
        if name in MEANINGS:
            return MEANINGS[name]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type(args[0], args[1:])
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        text = " or ".join(_type(a) for a in rest)
        return text + (", or null" if len(rest) < len(args) else "")
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_type(args[0])}"
    if origin is set:
        return f"set of {_type(args[0])}"
    if origin is dict:
        return f"map of {_type(args[0])} to {_type(args[1])}"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[`{annotation.__name__}`](#{annotation.__name__.lower()})"
    names = {str: "string", int: "integer", bool: "boolean", float: "number", Decimal: "number", Any: "any value"}
    if annotation is datetime:
        return "date-time"
    if annotation is date:
        return "date"
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        value = value.model_dump(exclude_defaults=True)
    return json.dumps(value, default=str, ensure_ascii=False)
