"""Which checks read the agent's final answer or trajectory, found in verify.py's syntax tree.

A check gets `(initial, final, trace)`. One that refers to its third parameter, takes `*args` or
`**kwargs`, or whose module reaches into call frames (where the runner's own copy of the trace
lives) may read the trace; its rubric item must then declare `uses`. The file is read, never
imported: verify.py is untrusted. Stage 2 also grades with a neutral trace, which catches what
slips past this reading.
"""

from __future__ import annotations

import ast
from pathlib import Path

# What reaches a caller's variables or runs code built at run time: with it any function of the
# module can read the trace. What still slips through is caught by grading with a neutral trace.
_FRAMES = {"_getframe", "f_back", "f_locals", "currentframe"}  # as a name or an attribute
_BUILTINS = {"eval", "exec", "compile", "locals", "vars", "globals", "__import__"}  # as a bare name
_MODULES = {"inspect", "gc", "ctypes"}


def _frames(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and (node.id in _FRAMES or node.id in _BUILTINS):
            return True
        if isinstance(node, ast.Attribute) and node.attr in _FRAMES:
            return True
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            if any(m and m.split(".")[0] in _MODULES for m in modules):
                return True
    return False


def _reads_trace(fn: ast.FunctionDef) -> bool:
    args = fn.args
    if args.vararg is not None or args.kwarg is not None:
        return True
    positional = [*args.posonlyargs, *args.args]
    if len(positional) < 3:
        return False
    name = positional[2].arg
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(fn))


def trace_readers(verify_py: Path, checks: list[str]) -> dict[str, str]:
    """The checks among `checks` that may read the trace, each with why."""
    try:
        tree = ast.parse(verify_py.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}  # structure reports a verify.py that does not parse
    if _frames(tree):
        return dict.fromkeys(checks, "verify.py inspects call frames, where the trace can be read")
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    return {
        name: "it refers to its trace parameter (or takes *args/**kwargs)"
        for name in checks
        if name in defs and _reads_trace(defs[name])
    }
