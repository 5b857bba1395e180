"""The LLM author's prompt states the whole contract, generated from the code that enforces it: change
the code and the prompt follows."""

from __future__ import annotations

import pytest

from stageclaw.author import contract as contract_module
from stageclaw.author.contract import ALLOW_EXAMPLES, contract, locate
from stageclaw.grade.collateral import allowed
from stageclaw.report.diagnostics import CHOOSING
from stageclaw.task.model import RubricItem
from stageclaw.tools.base import CATALOGUE, tool
from stageclaw.tools.registry import catalogue
from stageclaw.validate import difficulty
from stageclaw.validate.mutants import KINDS
from stageclaw.validate.report import DEFAULT_THRESHOLD, WEIGHTS
from stageclaw.validate.verifiability import MAX_MUTANTS
from stageclaw.world.state import APPS


def test_the_prompt_states_every_element_of_the_contract():
    text = contract(12345)
    for name, field in RubricItem.model_fields.items():  # the rubric fields, `uses` among them
        assert f"  {name}: {field.description}" in text
    assert all(stem in text for stem in CHOOSING.pattern.split("|"))  # the stage words the diagnostics read
    apps = {app for app, *_ in ALLOW_EXAMPLES}
    assert apps >= {*APPS, "web"} - {"clock"}, apps  # an allow example for every app
    for app, pattern, op, path in ALLOW_EXAMPLES:
        verdict = "allowed" if allowed({"op": op, "path": path}, [pattern]) else "NOT allowed"
        assert f"{app}: {pattern!r} and the change {op} {path}: {verdict}" in text
    assert "it does cross '#'" in text and "keyed by Message-ID" in text
    for t in catalogue().values():  # every tool with its result shape
        assert t.returns, f"{t.name} has no result shape: give @tool(..., returns=...)"
        assert f"  {t.name}(" in text and f") -> {t.returns}" in text
    assert '"final_answer": "Done: the note is updated."' in text and '"steps": [' in text and '"error":' in text
    assert "raises an exception" in text
    for op in difficulty.OPERATORS:  # how each operator is detected
        assert f"  {op}: {difficulty.detects(op)}" in text
    for kind, what in KINDS.items():  # the mutant policy
        assert f"  {kind}: {what}" in text
    assert f"up to {MAX_MUTANTS} near-miss" in text and "One mutant that passes every check fails verifiability" in text
    assert all(f"{name} {weight:g}" in text for name, weight in WEIGHTS.items())
    assert f"accepted at {DEFAULT_THRESHOLD:g}" in text
    assert "at most 12345 tokens" in text  # the output budget
    assert "rubric.items[N] counts the items from 1" in text


def test_the_prompt_follows_the_code(monkeypatch):
    """Not written twice: a new tool, a new operator detector and new weights show up by themselves."""

    @tool("files", returns="{lines: [str]}")
    def files_head(ctx, path: str) -> dict:  # type: ignore[no-untyped-def]
        """The first lines of a file."""
        return {}

    def _temporal(ev):  # type: ignore[no-untyped-def]
        """A date the solution wrote is computed from a relative one ("next Tuesday")."""
        return False, "", []

    try:
        monkeypatch.setitem(difficulty.OPERATORS, "temporal_reasoning", _temporal)
        monkeypatch.setitem(contract_module.WEIGHTS, "verifiability", 40)
        text = contract(16000)
    finally:
        CATALOGUE.pop("files_head")
    assert "  files_head(path) -> {lines: [str]}" in text
    assert '  temporal_reasoning: A date the solution wrote is computed from a relative one ("next Tuesday").' in text
    assert "verifiability 40" in text and "out of 105 points" in text


@pytest.mark.parametrize(
    ("diagnostic", "expected"),
    [
        ("/tmp/stageclaw-author-x1/t/hidden/rubric.toml: item[3]: item 'b': give exactly one", "rubric.items[4]: item"),
        ("/tmp/stageclaw-author-x1/t/world.yaml: calendar.Work[0].start: bad date", "world.calendar.Work[1].start:"),
        ("/tmp/stageclaw-author-x1/t/task.toml: operators[0]: unknown operator", "task.operators[1]: unknown"),
        ("missing hidden/verify.py", "missing verify_py"),
        ('File "/tmp/stageclaw-author-x1/t/hidden/solution.py", line 12', 'File "solution_py", line 12'),
    ],
)
def test_diagnostics_name_the_fields_of_the_answer(diagnostic, expected):
    shown = locate(diagnostic, "/tmp/stageclaw-author-x1")
    assert shown.startswith(expected) and "stageclaw-author" not in shown
