"""The run directory keeps its promises: one run at a time, and a damaged results.jsonl is named by line."""

from __future__ import annotations

import json

import pytest

from stageclaw.errors import StageclawError
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import ResultStore, read_results
from stageclaw.task.loader import load_task
from tests.conftest import ROOT

TASK = load_task(ROOT / "tests" / "corpus" / "healthy")


def test_a_second_run_on_the_same_out_is_refused_while_the_first_runs(tmp_path):
    first = ResultStore(tmp_path, False, RunConfig(agent="noop", out=tmp_path).identity())
    try:
        with pytest.raises(StageclawError, match=r"is in use by another stageclaw run \(pid \d+\)"):
            run([TASK], RunConfig(agent="noop", out=tmp_path, resume=True))
    finally:
        first.close()
    run([TASK], RunConfig(agent="noop", out=tmp_path, resume=True))  # free again once the first has ended
    assert len(read_results(tmp_path / "results.jsonl")) == 1


def test_a_malformed_results_line_is_an_error_naming_its_line(tmp_path):
    run([TASK], RunConfig(agent="noop", out=tmp_path, trials=2))
    path = tmp_path / "results.jsonl"
    good = path.read_text().splitlines()
    for bad in ('{"task_id": "healthy", "trial": 3', "[1, 2]", '{"trial": 1, "status": "completed"}'):
        path.write_text(f"{good[0]}\n{bad}\n{good[1]}\n")
        with pytest.raises(StageclawError) as info:
            run([TASK], RunConfig(agent="noop", out=tmp_path, trials=2, resume=True))
        assert str(info.value).startswith(f"{path}:2: not a result line (") and "\n" not in str(info.value)
    path.write_text(f"{good[0]}\n{good[1]}\n" + good[0][:40])  # a line torn by a kill is ignored, and cut
    summary = run([TASK], RunConfig(agent="noop", out=tmp_path, trials=2, resume=True))
    assert summary["episodes"] == 2 and path.read_text().endswith("}\n")
    assert [json.loads(line)["trial"] for line in path.read_text().splitlines()] == [1, 2]
