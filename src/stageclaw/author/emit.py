"""Writing task files deterministically: TOML, YAML, and self-contained Python modules.

A generated verify.py or solution.py must run on its own (verify.py in a sandbox with only the
standard library), yet the checks and solutions are written once, as ordinary, tested modules of
this package. `bundle` copies the functions a generated file needs, with everything they use
from this package, and turns the rest into standard-library imports: the output holds exactly
the code it runs, nothing else.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pprint
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import yaml

PACKAGE = "stageclaw."
FACTS = "FACTS"


# -- TOML ---------------------------------------------------------------------------------------


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a valid TOML basic string, except for DEL, which TOML wants escaped.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def _toml_key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key, ensure_ascii=False)


def toml_table(data: dict[str, Any], name: str = "") -> str:
    """A table: scalars and lists first, sub-tables after (`[name.sub]`), in the given order."""
    lines = [f"{_toml_key(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    out = "\n".join(lines) + ("\n" if lines else "")
    for key, value in data.items():
        if isinstance(value, dict):
            sub = f"{name}.{_toml_key(key)}" if name else _toml_key(key)
            scalars = not value or any(not isinstance(v, dict) for v in value.values())
            out += (f"\n[{sub}]\n" if scalars else "") + toml_table(value, sub)
    return out


def toml_array(name: str, rows: list[dict[str, Any]]) -> str:
    """`[[name]]` tables."""
    return "\n".join(f"[[{name}]]\n" + toml_table(row) for row in rows)


# -- YAML ---------------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Block style for multi-line text, no anchors: a world.yaml reads like one written by hand."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and not any(line != line.rstrip() for line in value.split("\n")) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def yaml_text(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)


# -- Python -------------------------------------------------------------------------------------


def literal(value: Any) -> str:
    """A Python literal, pretty-printed the same way every time."""
    return pprint.pformat(value, width=110, sort_dicts=False)


@dataclass
class _Module:
    """What one source module defines at top level: functions, constants and imported names."""

    module: ModuleType
    tree: ast.Module
    source: str
    defs: dict[str, ast.stmt] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # name -> (module, attribute)

    @classmethod
    def of(cls, module: ModuleType) -> _Module:
        source = inspect.getsource(module)
        tree = ast.parse(source)
        found = cls(module, tree, source)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found.defs[node.name] = node
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        found.defs[target.id] = node
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    found.imports[alias.asname or alias.name] = (alias.name, None)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
                for alias in node.names:
                    found.imports[alias.asname or alias.name] = (node.module, alias.name)
        return found


def _used_names(node: ast.AST) -> list[str]:
    """Names the code needs at run time: annotations are left out (the bundle postpones them)."""
    found: list[str] = []
    todo = [node]
    while todo:
        current = todo.pop()
        if isinstance(current, ast.Name):
            found.append(current.id)
        if isinstance(current, ast.arg | ast.AnnAssign):
            todo += [c for c in ast.iter_child_nodes(current) if c is not current.annotation]
        elif isinstance(current, ast.FunctionDef):
            todo += [c for c in ast.iter_child_nodes(current) if c is not current.returns]
        else:
            todo += list(ast.iter_child_nodes(current))
    return list(dict.fromkeys(found))


class Bundle:
    """The functions and constants a generated module needs, collected from this package."""

    def __init__(self) -> None:
        self._modules: dict[str, _Module] = {}
        self._code: dict[tuple[str, str], str] = {}  # (module, name) -> source, in dependency order
        self._stdlib: dict[str, set[str] | None] = {}  # module -> names (None: `import module`)
        self._names: dict[str, tuple[str, str]] = {}

    def _module(self, name: str) -> _Module:
        if name not in self._modules:
            self._modules[name] = _Module.of(importlib.import_module(name))
        return self._modules[name]

    def add(self, func: Callable[..., Any]) -> None:
        self._resolve(func.__module__, func.__name__)

    def _resolve(self, module_name: str, name: str) -> None:
        mod = self._module(module_name)
        if name == FACTS or (module_name, name) in self._code:
            return
        if name in mod.imports:
            source_module, attribute = mod.imports[name]
            if source_module.startswith(PACKAGE):
                self._resolve(source_module, attribute or name)
            elif attribute is None:
                self._stdlib[source_module] = None
            else:
                names = self._stdlib.setdefault(source_module, set())
                if names is not None:
                    names.add(attribute)
            return
        node = mod.defs.get(name)
        if node is None:
            return  # a builtin, a parameter or a local
        owner = self._names.setdefault(name, (module_name, name))
        if owner != (module_name, name):
            raise ValueError(f"{name} is defined in both {owner[0]} and {module_name}; a bundle needs one")
        self._code[(module_name, name)] = ""  # placeholder first: recursion between helpers ends here
        for used in _used_names(node):
            if used != name:
                self._resolve(module_name, used)
        segment = ast.get_source_segment(mod.source, node)
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            raise ValueError(f"{module_name}.{name}: decorated functions cannot be bundled")
        del self._code[(module_name, name)]
        self._code[(module_name, name)] = textwrap.dedent(segment or "")

    def render(self, docstring: str, facts: dict[str, Any] | None = None, tail: str = "") -> str:
        """The module: docstring, imports, FACTS, constants and helpers, then `tail`."""
        imports = [f"import {m}" for m, names in sorted(self._stdlib.items()) if names is None]
        imports += [f"from {m} import {', '.join(sorted(names))}" for m, names in sorted(self._stdlib.items()) if names]
        header = f'"""{docstring}"""\n\nfrom __future__ import annotations'
        parts = [header + ("\n\n" + "\n".join(imports) if imports else "")]
        constants = [code for code in self._code.values() if not code.startswith("def ")]
        functions = [code for code in self._code.values() if code.startswith("def ")]
        head = ([f"{FACTS} = {literal(facts)}"] if facts is not None else []) + constants
        if head:
            parts.append("\n".join(head))
        parts += functions
        if tail:
            parts.append(tail.strip("\n"))
        return "\n\n\n".join(parts) + "\n"
