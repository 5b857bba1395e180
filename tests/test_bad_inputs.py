"""The bad-input corpus (tests/corpus/cases.py): every broken task is refused with its one-line message
and every odd but valid one is solved, in one `stageclaw run` and one `validate` beside a healthy task
that must get its result. Then what loads but breaks while it runs: one task's failure, never the run's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stageclaw.agents.base import AGENT_ERROR, TASK_ERROR
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_tasks
from stageclaw.validate.checker import validate_path
from tests.corpus.cases import BAD, HEALTHY, VALID, Case, replace, write_case

OK = {"healthy", *(c.name for c in VALID)}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    write_case(Case("healthy", lambda task: None), root)
    for case in BAD + VALID:
        write_case(case, root)
    return root


def expected(case: Case, root: Path) -> tuple[str, str]:
    """What a bad case's message starts with, and what it says."""
    task = root / case.name
    return (f"{task}/{case.file}: {case.field}" if case.file else str(task)), case.says


def test_the_corpus_holds_every_case_of_the_issue():
    names = {c.name for c in BAD}
    assert len(BAD) >= 60 and len(names) == len(BAD) and not names & OK
    issue = {
        "crlf-subject", "year-1", "year-9999", "file-folder-clash", "long-calendar", "prompt-latin1",  # crashes
        "dst-gap-event", "all-day-zero", "asset-symlink", "tools-mail", "weight-inf", "folder-inbox",  # silent
        "rrule-secondly",
    }  # fmt: skip
    assert issue <= names


def test_run_refuses_each_bad_task_in_one_line_and_runs_the_others(corpus, tmp_path):
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "oracle", "--tasks", str(corpus), "--workers", "2"]
    res = subprocess.run([*argv, "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 1, res.stdout + res.stderr  # broken tasks were skipped
    refused = {}
    for line in res.stderr.splitlines():
        if line.startswith("skipping broken task "):
            folder, _, message = line.removeprefix("skipping broken task ").partition(": ")
            refused[Path(folder).name] = message
    assert set(refused) == {c.name for c in BAD}
    for case in BAD:
        start, says = expected(case, corpus)
        assert refused[case.name].startswith(start) and says in refused[case.name], (case.name, refused[case.name])
    results = {r["task_id"]: r for r in read_results(out / "results.jsonl")}
    assert set(results) == OK
    assert all(r["success"] and r["score"] == 100 for r in results.values()), results


def test_validate_rejects_each_bad_task_with_its_message_and_accepts_the_others(corpus, pool, tmp_path):
    reports = {r.task_id: r for r in validate_path(corpus, pool, out=tmp_path / "v", workers=2)}
    assert len(reports) == len(BAD) + len(OK)
    for case in BAD:
        report = reports[case.name]
        assert not report.accepted, case.name
        start, says = expected(case, corpus)
        detail = "; ".join(c.detail for c in report.dimensions["structure"].checks if c.status != "pass")
        assert says in detail and (start in detail or not case.file), (case.name, detail)
    for name in OK:
        assert reports[name].accepted and reports[name].score == 100, (name, reports[name].diagnostics())


def test_a_task_that_breaks_while_it_runs_is_that_tasks_failure(pool, tmp_path):
    """Failures past loading: a world that no longer builds, a solution that raises or exits, a verifier
    that raises. Each is its task's result line; the healthy task beside them succeeds."""
    root = tmp_path / "tasks"
    cases = {
        "asset-gone": lambda task: None,  # its asset is removed after loading, below
        "solution-raises": lambda task: replace(
            task / "hidden" / "solution.py", "    tools.now()\n", "    tools.now()\n    raise KeyError('due')\n"
        ),
        "solution-exits": lambda task: replace(
            task / "hidden" / "solution.py", "    tools.now()\n", "    tools.now()\n    import sys\n    sys.exit(3)\n"
        ),
        "verifier-raises": lambda task: replace(
            task / "hidden" / "verify.py", "    before = ", "    raise RuntimeError('broken check')\n    before = "
        ),
    }
    for name, change in cases.items():
        write_case(Case(name, change), root)
    write_case(Case("healthy", lambda task: None), root)
    tasks, errors = load_tasks(root)
    assert errors == {} and len(tasks) == 5
    (root / "asset-gone" / "assets" / "invoice-77.txt").unlink()
    # A fresh rendering is needed to meet the missing asset: the one made at loading is cached per world.
    tasks = [t if t.id != "asset-gone" else _reloaded(t) for t in tasks]
    run(tasks, RunConfig(agent="oracle", out=tmp_path / "run", workers=2), pool=pool)
    results = {r["task_id"]: r for r in read_results(tmp_path / "run" / "results.jsonl")}
    assert results["healthy"]["success"] is True
    gone = results["asset-gone"]
    assert gone["status"] == TASK_ERROR and gone["score"] is None and gone["failure_mode"] == "task_defect"
    assert gone["error"].startswith(f"{root / 'asset-gone' / 'world.yaml'}: the world does not build: ")
    assert "mail.folders.INBOX[0]" in gone["error"] and "\n" not in gone["error"] and gone["defects"]
    raised = results["solution-raises"]
    assert raised["status"] == AGENT_ERROR and "KeyError: 'due'" in raised["error"] and raised["success"] is False
    exited = results["solution-exits"]
    assert exited["status"] == AGENT_ERROR and "3" in exited["error"] and exited["success"] is False
    broken = results["verifier-raises"]
    assert broken["defects"] and "broken check" in " ".join(broken["defects"]) and broken["success"] is False
    summary = run([], RunConfig(agent="oracle", out=tmp_path / "run", resume=True))
    assert summary["episodes"] == 5 and summary["unscored"] == 1 and summary["task_errors"] == 1


def _reloaded(task):  # type: ignore[no-untyped-def]
    from dataclasses import replace as with_world

    from stageclaw.world.model import World

    return with_world(task, world=World.model_validate(task.world.model_dump(by_alias=True)))


def test_the_healthy_template_is_a_complete_task():
    tasks, errors = load_tasks(HEALTHY)
    assert errors == {} and [t.id for t in tasks] == ["healthy"]


def test_a_suite_task_whose_generator_fails_leaves_the_others_written(tmp_path):
    manifest = tmp_path / "suite.toml"
    entries = '[[task]]\nfamily = "invoice-filing"\nseed = 1\n\n[[task]]\nfamily = "no-such-family"\nseed = 2\n'
    manifest.write_text(f'name = "mini"\ntitle = "Mini"\n\n{entries}')
    (tmp_path / "README.md").write_text("the last complete build\n")
    res = subprocess.run(
        [sys.executable, "-m", "stageclaw", "generate", "--suite", str(manifest)], capture_output=True, text=True
    )
    assert res.returncode == 1
    [line] = res.stderr.strip().splitlines()
    assert line.startswith("not generated task 2 (no-such-family, seed 2): ") and "no-such-family" in line
    assert (tmp_path / "invoice-filing-1" / "task.toml").is_file()
    assert (tmp_path / "README.md").read_text() == "the last complete build\n"


def test_one_hint_that_breaks_the_author_does_not_stop_the_others(tmp_path):
    from typer.testing import CliRunner

    from stageclaw.agents.fake_llm import FakeLLM
    from stageclaw.cli import app
    from tests.test_author_llm import HINT, _answer, _script

    bad = _answer(broken=False)
    bad["assets"] = {"bad\x00name.csv": "a,b\n"}  # a file name the author cannot write
    hints = tmp_path / "hints.txt"
    hints.write_text(f"first: {HINT}\nsecond: {HINT}\n")
    with FakeLLM(_script(json.dumps(bad), json.dumps(_answer(broken=False)))) as llm:
        argv = ["author", "--hints", str(hints), "--model", "gpt-4.1-mini", "--base-url", llm.url]
        result = CliRunner().invoke(app, [*argv, "--out", str(tmp_path / "out"), "--max-repairs", "0"])
    assert result.exit_code == 1, result.output
    first, second = json.loads((tmp_path / "out" / "attempts.json").read_text())["runs"]
    assert not first["accepted"] and (first["error"] or first["attempts"])
    assert second["accepted"] and second["hint"] == f"second: {HINT}"
