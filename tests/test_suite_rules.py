"""The rules a suite keeps beyond tasks per group: families, tasks per family, the size of its worlds and the
reference solutions' tool calls (run for real when the manifest asks for them)."""

from __future__ import annotations

import re
import tomllib

import pytest
from typer.testing import CliRunner

from stageclaw.author import suite as suites
from stageclaw.cli import app
from stageclaw.errors import StageclawError

TASKS = """
[[task]]
family = "invoice-filing"
seed = 3
[[task]]
family = "meeting-move"
seed = 4
operators = ["noisy_data"]
[[task]]
family = "meeting-move"
seed = 5
operators = []
"""


def _manifest(rules: str) -> suites.Manifest:
    text = f'name = "small"\ntitle = "Three tasks"\n[rules]\n{rules}\n{TASKS}'
    return suites.Manifest.model_validate(tomllib.loads(text))


def test_families_tasks_per_family_and_world_size_are_held_to_the_rules():
    loose = suites.build(_manifest("min_families = 2\nmax_tasks_per_family = 2\nmin_median_objects = 5"))
    sizes = [suites.world_objects(d) for d in loose.drafts]
    assert all(n >= 5 for n in sizes) and len({d.provenance["family"] for d in loose.drafts}) == 2
    strict = "min_families = 3\nmax_tasks_per_family = 1\nmin_median_objects = 100000"
    with pytest.raises(StageclawError) as caught:
        suites.build(_manifest(strict))
    message = str(caught.value)
    assert "2 families, the suite wants at least 3" in message
    assert "family meeting-move: 2 tasks, the suite wants at most 1" in message
    assert "the suite wants at least 100000" in message and "median world size" in message


def test_the_median_of_the_reference_solutions_tool_calls_is_run_and_checked(tmp_path):
    manifest = tmp_path / "suite.toml"
    runner = CliRunner()
    manifest.write_text('name = "small"\ntitle = "Three tasks"\n[rules]\nmin_median_oracle_calls = 1000\n' + TASKS)
    result = runner.invoke(app, ["generate", "--suite", str(manifest)])
    assert isinstance(result.exception, StageclawError), result.output
    assert re.search(r"median reference tool calls \d+, the suite wants at least 1000", str(result.exception))
    manifest.write_text('name = "small"\ntitle = "Three tasks"\n[rules]\nmin_median_oracle_calls = 3\n' + TASKS)
    result = runner.invoke(app, ["generate", "--suite", str(manifest), "--check"])
    assert result.exit_code == 0 and "the reference solutions succeed; median tool calls" in result.output
