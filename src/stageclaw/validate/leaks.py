"""Hidden answers in the prompt: values the hidden files hold, the world does not, and prompt.md does.

A value the checks compare against (a time, a count, an address, an amount) that appears nowhere
in the world is something the agent has to work out. When the prompt states it, the task no
longer tests that step.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from stageclaw.task.loader import Task
from stageclaw.validate import assets

_VALUES = (
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),  # addresses
    re.compile(r"\d{4}-\d{2}-\d{2}"),  # dates
    re.compile(r"\d{1,2}:\d{2}"),  # clock times
    re.compile(r"\d+(?:[.,]\d+)*"),  # numbers and amounts
)
_REGEX_CHARS = re.compile(r"[|()\[\]\\^$*+?{}]")


def _tokens(text: str) -> set[str]:
    found = {m.group(0) for rx in _VALUES for m in rx.finditer(text)}
    return {t for t in found if sum(c.isdigit() for c in t) >= 2 or "@" in t}


def _constants(verify_py: Path) -> set[str]:
    """Module-level constants of verify.py: by convention the expected values (NEW_ADDRESS = ...)."""
    try:
        tree = ast.parse(verify_py.read_text(encoding="utf-8"))
    except (SyntaxError, OSError, UnicodeDecodeError):
        return set()
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for const in ast.walk(node.value):
                if (
                    isinstance(const, ast.Constant)
                    and isinstance(const.value, str | int)
                    and not isinstance(const.value, bool)
                ):
                    text = str(const.value)
                    if not _REGEX_CHARS.search(text):
                        out.add(text)
    return out


def hidden_values(task: Task) -> set[str]:
    texts = [i.description for i in task.rubric.items] + [i.judge or "" for i in task.rubric.items] + [task.goal]
    values = set().union(*(_tokens(t) for t in texts))
    for const in _constants(task.verify_py):
        values |= _tokens(const) | ({const} if len(const.split()) >= 2 and len(const) >= 8 else set())
    return values


def visible_text(task: Task) -> str:
    """world.yaml and every asset that is text: what the agent can find in its world."""
    return "\n".join([(task.dir / "world.yaml").read_text(encoding="utf-8"), *assets.texts(task.dir, task.world)])


def occurs(value: str, text: str) -> bool:
    return re.search(rf"(?<![\w@.]){re.escape(value)}(?![\w@]|\.\w)", text, re.IGNORECASE) is not None


def leaked(task: Task) -> list[str]:
    """Hidden values absent from the world and present in the prompt."""
    visible = visible_text(task)
    found = [v for v in hidden_values(task) if occurs(v, task.prompt) and not occurs(v, visible)]
    return sorted(v for v in found if not any(v != w and v in w for w in found))  # "23:00", not also "23"
