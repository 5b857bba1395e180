"""The stage40 benchmark: what its manifest generates, byte for byte; the rules of the issue; every task
accepted by stage 2 with every mutant killed (on record, a sample of it again in every run, and all of it
under `pytest -m stage2`); the reference solutions succeed and doing nothing fails."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections import Counter
from pathlib import Path
from statistics import median

import pytest
from typer.testing import CliRunner

from stageclaw.author import suite as suites
from stageclaw.cli import app
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import STAGE2_RECORD, load_tasks
from stageclaw.task.model import GROUPS, OPERATORS
from stageclaw.validate import record as records
from stageclaw.validate import validate_path

ROOT = Path(__file__).resolve().parent.parent
STAGE40 = ROOT / "tasks" / "stage40"
MANIFEST = STAGE40 / "suite.toml"
RECORD = STAGE40 / STAGE2_RECORD


@pytest.fixture(scope="module")
def built() -> suites.Suite:
    return suites.build(suites.load_manifest(MANIFEST))


@pytest.fixture(scope="module")
def tasks():
    loaded, errors = load_tasks(STAGE40)
    assert not errors
    return loaded


def test_the_folder_is_exactly_what_the_manifest_generates(built):
    assert suites.differences(built, STAGE40) == []


def test_the_suite_keeps_the_rules_of_the_benchmark(built):
    rules = built.manifest.rules
    assert (rules.tasks_per_group, rules.min_apps, rules.min_operators) == (8, 3, 2)
    assert (rules.min_rubric_items, rules.min_tasks_per_operator, rules.min_alternatives) == (5, 8, 2)
    assert (rules.min_families, rules.max_tasks_per_family) == (30, 2)
    assert (rules.min_median_objects, rules.min_median_oracle_calls) == (300, 25)
    assert rules.operators is None  # every operator counts, injected_instruction and temporal_reasoning too
    assert len(built.drafts) == 40
    assert Counter(d.group for d in built.drafts) == dict.fromkeys(GROUPS, 8)
    for draft in built.drafts:
        assert len(suites.apps_of(draft)) >= 3 and len(draft.operators) >= 2, draft.id
        assert len(draft.checks) + len(draft.judges) >= 5, draft.id
        assert len(draft.alternatives) >= 2, draft.id
    assert set(suites.operator_counts(built)) == set(OPERATORS)
    assert all(n >= 8 for n in suites.operator_counts(built).values())
    families = Counter(d.provenance["family"] for d in built.drafts)
    assert len(families) >= 30 and max(families.values()) <= 2
    assert median(suites.world_objects(d) for d in built.drafts) >= 300


def test_each_task_records_its_hint_family_and_seed(built):
    hints = [line for line in (STAGE40 / "hints.txt").read_text().splitlines() if not line.startswith("#")]
    assert len(hints) == 40 and len(set(hints)) == 40
    readme = (STAGE40 / "README.md").read_text()
    for n, draft in enumerate(suites.ordered(built)):
        config = tomllib.loads((STAGE40 / draft.id / "task.toml").read_text())
        assert config["hint"] == hints[n]
        entry = config["provenance"]
        assert {"family", "seed", "locale", "operators"} <= set(entry)
        assert f"| {n + 1} | `{draft.id}` | {draft.group} |" in readme


# The blind playtests of stage40 found correct answers the checks rejected; each is now an alternative
# solution of its task, which stage 2 runs and must accept (test_stage_2_accepts_... below).
PLAYTEST_CASES = {
    "find-a-slot-1": "per_person",  # one mail per person instead of one to all
    "contact-upkeep-1": "read_all_reply",  # each note a reply in the person's own thread
    "meeting-move-1": "new_message",  # a new message to the known address, not the reply
    "project-tracker-1": "annotated",  # "Paint – Fri 6 Mar (was Mon 2 Mar)"
    "expense-report-1": "check_in_dates",  # the hotel row dated by its check-in
    "action-items-1": "weekend",  # "by the end of next week" read as its Sunday
    "inbox-followup-1": "new_messages",  # the client's document withheld from an unverified address
}


def test_the_playtest_cases_are_alternatives_of_their_tasks(tasks):
    by_id = {t.id: t for t in tasks}
    for task_id, name in PLAYTEST_CASES.items():
        assert name in by_id[task_id].alternatives, (task_id, sorted(by_id[task_id].alternatives))
    evidence = by_id["inbox-followup-1"].config.provenance.evidence["entity_alignment"]
    assert evidence["verified_by"] == "unverified"  # so the known work address is the graded one


SMALL = """name = "small"
title = "Two tasks"
[[task]]
family = "invoice-filing"
seed = 3
[[task]]
family = "meeting-move"
seed = 4
operators = ["noisy_data"]
"""


def test_the_check_option_finds_a_changed_and_a_stray_file(tmp_path):
    (tmp_path / "suite.toml").write_text(SMALL)
    runner = CliRunner()
    suite = ["generate", "--suite", str(tmp_path / "suite.toml")]
    assert runner.invoke(app, suite).exit_code == 0
    assert runner.invoke(app, [*suite, "--check"]).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "README.md",
        "hints.txt",
        "invoice-filing-3",
        "meeting-move-4-nd-tsu",
        "suite.toml",
    ]
    task = tmp_path / "meeting-move-4-nd-tsu"
    (task / "prompt.md").write_text("something else\n")
    (task / "hidden" / "notes.txt").write_text("stray\n")
    result = runner.invoke(app, [*suite, "--check"])
    assert result.exit_code == 1
    assert f"differs: {task.name}/prompt.md" in result.output
    assert f"not generated: {task.name}/hidden/notes.txt" in result.output
    # Building again restores the folder and drops a task that left the manifest.
    (tmp_path / "suite.toml").write_text(SMALL.split("[[task]]")[0] + "[[task]]" + SMALL.split("[[task]]")[2])
    assert runner.invoke(app, suite).exit_code == 0
    assert not (tmp_path / "invoice-filing-3").exists()
    assert runner.invoke(app, [*suite, "--check"]).exit_code == 0


def test_a_broken_manifest_is_a_one_line_error(tmp_path):
    bad = tmp_path / "suite.toml"
    command = [sys.executable, "-m", "stageclaw", "generate", "--suite", str(bad)]
    bad.write_text('name = "x"\ntitle = "x"\n[[task]]\nfamily = "meeting-move"\nseed = "one"\n')
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and f"{bad}: task.0.seed: Input should be a valid integer" in result.stderr
    assert "Traceback" not in result.stderr
    bad.write_text(
        'name = "x"\ntitle = "x"\n[rules]\nmin_rubric_items = 50\n[[task]]\nfamily = "meeting-move"\nseed = 1\n'
    )
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and re.search(
        r"meeting-move-1: \d+ rubric items, the suite wants at least 50", result.stderr
    )
    assert not (tmp_path / "meeting-move-1").exists()


def _fully_accepted(report) -> None:
    assert report.accepted and report.score == 100, (report.task_id, report.diagnostics())
    assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
    assert report.mutation["coverage"]["rate"] == 1.0, (report.task_id, report.mutation["coverage"])
    assert report.sensitivity == 1.0 and report.alternatives["total"] >= 2, (report.task_id, report.alternatives)
    assert report.dimensions["structure"].check("realism").status == "pass", report.task_id


def test_every_task_has_a_current_full_acceptance_on_record(tasks):
    # Stage 2 on all 40 takes a quarter of an hour on 2 cores, so CI checks the record it left: a task whose
    # files changed since (a rebuilt generator's output too) fails here until it is validated again with
    # `stageclaw validate tasks/stage40 --workers 2 --record tasks/stage40/validated.json`.
    assert records.problems(RECORD, {t.id: t.digest for t in tasks}) == []


# One task of each group (the quickest to check; one in Chinese), through the whole of stage 2 in every run: the record
# above vouches for the tasks' files, this for the checker and the tools they were validated with.
SAMPLE = ["trip-itinerary-1", "document-request-2", "action-items-2", "expense-report-1", "bill-triage-1-zh"]


def test_a_task_of_each_group_is_still_accepted_as_recorded(pool, tmp_path):
    for task_id in SAMPLE:
        shutil.copytree(STAGE40 / task_id, tmp_path / "tasks" / task_id)
    reports = validate_path(tmp_path / "tasks", pool, out=tmp_path / "out", workers=2)
    assert sorted(r.task_id for r in reports) == sorted(SAMPLE)
    recorded = records.read(RECORD)
    for report in reports:
        _fully_accepted(report)
        assert records.entry(report) | {"stageclaw_version": ""} == recorded[report.task_id] | {"stageclaw_version": ""}


@pytest.mark.stage2
def test_stage_2_accepts_every_task_with_every_mutant_killed_and_every_alternative(pool, tmp_path):
    reports = validate_path(STAGE40, pool, out=tmp_path, workers=2)
    assert len(reports) == 40
    recorded = records.read(RECORD)
    for report in reports:
        _fully_accepted(report)
        assert records.entry(report) | {"stageclaw_version": ""} == recorded[report.task_id] | {"stageclaw_version": ""}


def test_the_oracle_succeeds_everywhere_and_doing_nothing_nowhere(built, tasks, tmp_path):
    oracle = run(tasks, RunConfig(agent="oracle", out=tmp_path / "oracle", workers=2))
    assert oracle["episodes"] == 40 and oracle["success_rate"] == 1.0
    results = read_results(tmp_path / "oracle" / "results.jsonl")
    for result in results:
        assert result["score"] == 100 and result["steps"] >= 4, (result["task_id"], result["steps"])
    assert suites.oracle_rule_violations(built, {r["task_id"]: r["steps"] for r in results}) == []
    noop = run(tasks, RunConfig(agent="noop", out=tmp_path / "noop", workers=2))
    assert noop["episodes"] == 40 and noop["success_rate"] == 0.0


def test_a_wheel_carries_the_bundled_benchmarks(tmp_path):
    """So that `inspect eval stageclaw/stage40` finds them after a plain `pip install stageclaw`."""
    # Built from a copy: a build in the checkout leaves src/stageclaw.egg-info there, which then shadows the
    # installed package's metadata for everything run from the checkout (Inspect then finds no task).
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "*.egg-info", "__pycache__", ".*cache"))
    build = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)]
    subprocess.run(build, check=True, timeout=600, cwd=tmp_path)
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("stage40", "examples"):
        files = [p.relative_to(ROOT / "tasks").as_posix() for p in (ROOT / "tasks" / name).rglob("*") if p.is_file()]
        assert files and [f for f in files if f"stageclaw/_tasks/{f}" not in names] == []
