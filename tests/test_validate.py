"""Stage 2 on the real servers: the examples are accepted with every near-miss mutant rejected;
broken variants of an example are rejected or lose the dimension they should."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from stageclaw.agents.fake_llm import FakeLLM, Script
from stageclaw.task.loader import load_task
from stageclaw.task.verifier import run_checks, run_checks_many
from stageclaw.validate import Report, validate_path, validate_task
from stageclaw.validate.llm_check import LLMReviewer
from stageclaw.validate.mutants import MutantMaker
from stageclaw.validate.oracle import run_oracle
from stageclaw.validate.repair import repair_prompt, repair_request
from stageclaw.world import diff, dumps
from tests.conftest import EXAMPLE, EXAMPLES

UUID = Path("/proc/sys/kernel/random/uuid")
OPERATORS = {"revert", "nudge", "distractor", "duplicate", "container", "extra"}


@pytest.fixture(scope="module")
def examples(pool, tmp_path_factory) -> tuple[dict[str, Report], Path]:
    out = tmp_path_factory.mktemp("validation")
    reports = validate_path(EXAMPLES, pool, out=out)
    return {r.task_id: r for r in reports}, out


def test_the_examples_are_accepted_and_every_mutant_is_rejected(examples):
    reports, _ = examples
    assert len(reports) == 4
    for report in reports.values():
        statuses = {name: d.status for name, d in report.dimensions.items()}
        assert report.accepted and report.score == 100, (report.task_id, statuses, report.diagnostics())
        mutation = report.mutation
        assert mutation["kill_rate"] == 1.0, (report.task_id, mutation["survivors"])
        assert mutation["total"] >= 20 and mutation["total"] <= 60
        assert {"revert", "nudge", "duplicate", "extra"} <= set(mutation["by_operator"])
        assert report.llm_review.status == "blocked" and not report.diagnostics()
    assert set().union(*(r.mutation["by_operator"] for r in reports.values())) == OPERATORS


def test_the_report_files_follow_the_contract(examples):
    reports, out = examples
    report = reports["quarterly-sync"]
    data = json.loads((out / "quarterly-sync" / "validation.json").read_text())
    assert data["score"] == 100 and data["accepted"] is True and data["threshold"] == 80
    weights = {name: d["weight"] for name, d in data["dimensions"].items()}
    assert weights == {"structure": 20, "reproducibility": 25, "verifiability": 35, "difficulty": 20}
    for dim in data["dimensions"].values():
        assert dim["status"] == "pass" and dim["points"] == dim["weight"]
        assert all({"name", "status", "detail", "evidence", "suggestion"} <= set(c) for c in dim["checks"])
    kinds = {m["operator"] for m in data["mutation"]["mutants"]}
    assert {"revert", "nudge", "distractor", "duplicate", "container", "extra"} == kinds
    assert data["diagnostics"] == [] and data["llm_review"]["status"] == "blocked"
    summary = (out / "quarterly-sync" / "summary.md").read_text()
    assert summary.startswith("# quarterly-sync: accepted (100 / 100") and "## Mutation test" in summary
    episode = out / "quarterly-sync" / "oracle"
    assert {"trajectory.json", "s0.json", "sH.json", "audit.jsonl", "grade.json"} <= {p.name for p in episode.iterdir()}
    listing = json.loads((out / "summary.json").read_text())
    assert listing["accepted"] == 4 and listing["rejected"] == []
    assert report.timings["oracle"] > 0


def test_mutants_are_distinct_near_misses_of_the_solved_state(pool, tmp_path):
    task = load_task(EXAMPLE)
    oracle = run_oracle(task, pool, tmp_path / "oracle")
    maker = MutantMaker(
        oracle.s0,
        oracle.sH,
        task.rubric.changes.allow,
        task.world.tz,
        task.world.now.isoformat(),
        task.world.user.email,
    )
    mutants = maker.structural(60)
    texts = {dumps(m.state) for m in mutants}
    assert len(texts) == len(mutants) and dumps(oracle.sH) not in texts
    assert all(diff(oracle.sH, m.state) for m in mutants)
    described = " | ".join(m.description for m in mutants)
    assert "off by the time-zone offset (-8 h) (starts 2026-03-12T15:00:00+08:00)" in described  # 15:00 taken as local
    assert "pryia@orbitals.io instead of priya@orbitals.io" in described
    assert "copied with the changes instead of being updated" in described
    [extra] = [m for m in mutants if m.operator == "extra"]
    assert [c["op"] for c in diff(oracle.sH, extra.state)] == ["removed"]
    # Reading and replying flag Priya's mail and file a copy in Sent: by-products, never reverted alone.
    assert sorted(c["path"].split("/")[2] for c in maker.tolerated) == ["INBOX", "Sent"]


def test_many_cases_in_one_sandbox_run_give_what_one_run_each_gives(pool, tmp_path):
    task = load_task(EXAMPLE)
    oracle = run_oracle(task, pool, tmp_path / "oracle")
    cases = [(oracle.s0, oracle.sH, oracle.trace), (oracle.s0, oracle.s0, oracle.trace), (oracle.s0, oracle.sH, {})]
    batch = run_checks_many(task.verify_py, task.rubric.checks, cases)
    single = [run_checks(task.verify_py, task.rubric.checks, *case) for case in cases]
    assert batch == single
    assert all(r.passed for r in batch[0].values()) and not all(r.passed for r in batch[1].values())
    assert run_checks_many(task.verify_py, task.rubric.checks, []) == []


def _variant(tmp_path: Path, edit: Callable[[Path], None]) -> Path:
    """A copy of the quarterly-sync example with one defect."""
    task_dir = tmp_path / EXAMPLE.name
    shutil.copytree(EXAMPLE, task_dir)
    edit(task_dir)
    return task_dir


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_verifier_that_always_passes_is_rejected(pool, tmp_path):
    def always_pass(task_dir: Path) -> None:
        names = re.findall(r"^def (check_\w+)", (task_dir / "hidden" / "verify.py").read_text(), re.M)
        (task_dir / "hidden" / "verify.py").write_text(
            "".join(f"def {n}(i, f, t):\n    return True\n\n" for n in names)
        )

    report = validate_task(_variant(tmp_path, always_pass), pool)
    verifiability = report.dimensions["verifiability"]
    assert not report.accepted and verifiability.status == "fail"
    assert verifiability.check("initial_state_fails").status == "fail"
    assert verifiability.check("mutation_kill_rate").status == "fail" and report.kill_rate < 0.5
    killers = {tuple(m["killed_by"]) for m in report.mutation["mutants"] if not m["survived"]}
    assert killers == {("no_collateral_damage",)}  # only the default-deny check still rejects anything


def test_a_verifier_that_ignores_the_time_zone_loses_verifiability(pool, tmp_path):
    def zone_blind(task_dir: Path) -> None:
        verify = task_dir / "hidden" / "verify.py"
        # 15:00 "London time" accepted as a wall-clock time in any zone, and the length not checked.
        _replace(verify, "    if start != NEW_START:", "    if start.hour not in (15, 23) or start.day != 12:")
        _replace(verify, "    if end != NEW_END:", "    if end <= start:")

    report = validate_task(_variant(tmp_path, zone_blind), pool)
    verifiability = report.dimensions["verifiability"]
    assert verifiability.status == "warning" and verifiability.points == 17.5
    survivors = [s["description"] for s in report.mutation["survivors"]]
    assert any("off by the time-zone offset (-8 h) (starts 2026-03-12T15:00:00+08:00)" in s for s in survivors)
    assert any("lasts an hour longer" in s for s in survivors)
    [diagnostic] = [d for d in report.diagnostics() if d.check == "mutation_kill_rate"]
    assert diagnostic.status == "warning" and "time-zone offset" in diagnostic.problem and diagnostic.suggestion


@pytest.mark.skipif(not UUID.is_file(), reason="needs Linux's /proc/sys/kernel/random/uuid")
def test_an_asset_that_links_to_a_value_drawn_at_each_read_is_refused(pool, tmp_path):
    def random_asset(task_dir: Path) -> None:
        # Every read of this asset would give a new UUID: two builds of E0 could not agree.
        (task_dir / "assets" / "nonce.txt").symlink_to(UUID)
        _replace(task_dir / "world.yaml", "files:\n", "files:\n  docs/nonce.txt: {path: assets/nonce.txt}\n")

    report = validate_task(_variant(tmp_path, random_asset), pool)
    assert not report.accepted
    schemas = report.dimensions["structure"].check("schemas")
    assert schemas.status == "fail" and "files.docs/nonce.txt.path" in schemas.detail
    assert "goes through the symbolic link 'nonce.txt'" in schemas.detail
    build = report.dimensions["reproducibility"].check("build_twice")
    assert build.status == "blocked" and "symbolic link" in build.detail


def test_a_solution_that_stops_halfway_is_rejected(pool, tmp_path):
    def halfway(task_dir: Path) -> None:
        _replace(task_dir / "hidden" / "solution.py", "    tools.mail_reply(", "    return\n    tools.mail_reply(")

    report = validate_task(_variant(tmp_path, halfway), pool)
    verifiability = report.dimensions["verifiability"]
    assert not report.accepted and verifiability.status == "fail"
    oracle = verifiability.check("oracle_scores_100")
    assert oracle.status == "fail" and "reply_to_priya" in oracle.detail
    assert verifiability.check("mutation_kill_rate").status == "blocked"


def test_a_prompt_that_states_the_answer_fails_structure(pool, tmp_path):
    def leak(task_dir: Path) -> None:
        prompt = task_dir / "prompt.md"
        prompt.write_text(prompt.read_text().strip() + " I think that's Thursday at 23:00 my time.\n")

    report = validate_task(_variant(tmp_path, leak), pool)
    structure = report.dimensions["structure"]
    check = structure.check("no_answer_in_prompt")
    assert structure.status == "fail" and structure.points == 0
    assert check.status == "fail" and check.evidence == ["23:00"]
    assert all(report.dimensions[d].status == "pass" for d in ("reproducibility", "verifiability", "difficulty"))


def test_a_task_without_verify_py_is_rejected_with_repair_diagnostics(pool, tmp_path):
    report = validate_task(
        _variant(tmp_path, lambda d: (d / "hidden" / "verify.py").unlink()), pool, out=tmp_path / "v"
    )
    dims = {name: d.status for name, d in report.dimensions.items()}
    assert dims == {"structure": "fail", "reproducibility": "pass", "verifiability": "blocked", "difficulty": "blocked"}
    assert report.score == 25 and not report.accepted
    request = repair_request(report)
    assert request["diagnostics"][0] == {
        "dimension": "structure",
        "check": "files",
        "status": "fail",
        "problem": "missing hidden/verify.py",
        "evidence": ["hidden/verify.py"],
        "suggestion": "add the missing files",
    }
    assert "1. [structure/files, fail] missing hidden/verify.py" in repair_prompt(report)
    saved = json.loads((tmp_path / "v" / "quarterly-sync" / "validation.json").read_text())
    assert saved["accepted"] is False and saved["diagnostics"][0]["problem"] == "missing hidden/verify.py"


def test_the_llm_review_reports_its_ratings_and_is_blocked_when_the_model_fails():
    task = load_task(EXAMPLE)
    good = Script(turns=[{"content": '{"clarity": 5, "unambiguous": 4, "realism": 5, "problems": []}'}])
    with FakeLLM(good) as server:
        check = LLMReviewer("openai:fake", base_url=server.url)(task)
        sent = server.requests[0]["messages"][1]["content"]
    assert check.status == "pass" and check.evidence["clarity"] == 5
    assert "Priya emailed" in sent and "calendar/Work/evt-1: Quarterly sync" in sent
    poor = Script(turns=[{"content": '{"clarity": 2, "unambiguous": 3, "realism": 4, "problems": ["which sync?"]}'}])
    with FakeLLM(poor) as server:
        check = LLMReviewer("openai:fake", base_url=server.url)(task)
    assert check.status == "fail" and "which sync?" in check.detail
    broken = Script(turns=[{"error": 503}, {"content": "looks fine"}])
    with FakeLLM(broken) as server:
        check = LLMReviewer("openai:fake", base_url=server.url, retries=2, backoff_s=0)(task)
    assert check.status == "blocked" and "failed after 2 attempts" in check.detail


def test_cli_validate_writes_reports_and_exits_1_when_a_task_is_rejected(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "tasks" / EXAMPLE.name)
    broken = tmp_path / "tasks" / "broken"
    shutil.copytree(EXAMPLE, broken)
    _replace(broken / "task.toml", 'id = "quarterly-sync"', 'id = "broken"')
    (broken / "hidden" / "verify.py").unlink()
    command = [sys.executable, "-m", "stageclaw", "validate", str(tmp_path / "tasks"), "--out", str(tmp_path / "v")]
    env = {**os.environ, "COLUMNS": "160"}
    res = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "quarterly-sync" in res.stdout and "rejected broken (25)" in res.stdout
    assert "structure/files: missing hidden/verify.py" in res.stdout
    assert json.loads((tmp_path / "v" / "quarterly-sync" / "validation.json").read_text())["accepted"] is True
    assert json.loads((tmp_path / "v" / "broken" / "validation.json").read_text())["accepted"] is False
    res = subprocess.run([*command[:4], str(tmp_path / "nowhere")], capture_output=True, text=True, env=env)
    assert res.returncode == 2 and "no such folder" in res.stderr
