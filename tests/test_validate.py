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
from stageclaw.run.store import write_json
from stageclaw.task.loader import STAGE2_RECORD, load_task, load_tasks
from stageclaw.task.verifier import run_checks, run_checks_many
from stageclaw.validate import Report, validate_path, validate_task
from stageclaw.validate import record as records
from stageclaw.validate.changes import units
from stageclaw.validate.llm_check import LLMReviewer
from stageclaw.validate.mutants import MutantMaker
from stageclaw.validate.oracle import run_oracle
from stageclaw.validate.repair import repair_prompt, repair_request
from stageclaw.validate.verifiability import MAX_MUTANTS
from stageclaw.world import diff, dumps
from tests.conftest import EXAMPLE, EXAMPLES

UUID = Path("/proc/sys/kernel/random/uuid")
OPERATORS = {"revert", "drop", "value", "nudge", "distractor", "duplicate", "container", "extra"}
RENT = Path(__file__).parent / "tasks" / "rent-change"


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
        # Hand-written, without [provenance] evidence: their alternative solutions are all accepted too.
        assert report.sensitivity == 1.0 and report.alternatives["total"] >= 2, report.alternatives
        mutation = report.mutation
        assert mutation["kill_rate"] == 1.0, (report.task_id, mutation["survivors"])
        assert mutation["coverage"]["rate"] == 1.0 and mutation["coverage"]["missed"] == []
        assert 20 <= mutation["total"] <= MAX_MUTANTS
        assert {"revert", "value", "nudge", "duplicate", "extra"} <= set(mutation["by_operator"])
        assert report.llm_review.status == "blocked" and not report.diagnostics()
    assert set().union(*(r.mutation["by_operator"] for r in reports.values())) == OPERATORS
    # This alternative retitles the stale reminders it moves; a mutant that puts a title back as it was does
    # what the reference solution does, which is no near miss of the alternative's.
    retitling = reports["offsite-action-items"].mutation["alternatives"]["terminal_first"]
    assert retitling["total"] >= 20 and retitling["survivors"] == []


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
    assert {"revert", "drop", "value", "nudge", "distractor", "duplicate", "container", "extra"} == kinds
    assert all(m["fields"] for m in data["mutation"]["mutants"] if m["operator"] == "value")
    assert data["diagnostics"] == [] and data["llm_review"]["status"] == "blocked"
    summary = (out / "quarterly-sync" / "summary.md").read_text()
    assert summary.startswith("# quarterly-sync: accepted (100 / 100") and "## Mutation test" in summary
    episode = out / "quarterly-sync" / "oracle"
    assert {"trajectory.json", "s0.json", "sH.json", "audit.jsonl", "grade.json"} <= {p.name for p in episode.iterdir()}
    listing = json.loads((out / "summary.json").read_text())
    assert listing["accepted"] == 4 and listing["rejected"] == []
    assert report.timings["oracle"] > 0


def test_the_record_vouches_only_for_the_files_it_saw_accepted(examples, tmp_path):
    reports, _ = examples
    tasks = tmp_path / "suite"
    shutil.copytree(EXAMPLES, tasks)
    digests = {t.id: t.digest for t in load_tasks(tasks)[0]}
    record = tasks / STAGE2_RECORD
    assert records.problems(record, digests) == [f"{t}: not in the record" for t in sorted(digests)]
    records.update(record, [reports["quarterly-sync"]])
    records.update(record, [r for r in reports.values() if r.task_id != "quarterly-sync"])  # merged, not replaced
    assert records.problems(record, digests) == []
    (tasks / "quarterly-sync" / "prompt.md").write_text("Cancel the sync instead.\n")
    changed = {t.id: t.digest for t in load_tasks(tasks)[0]}
    assert records.problems(record, changed) == ["quarterly-sync: its files changed since it was validated"]
    partial = records.read(record) | {
        "summit-trip-booking": records.entry(reports["summit-trip-booking"]) | {"kill_rate": 0.98}
    }
    write_json(record, {"tasks": partial})
    assert records.problems(record, digests)[-1].startswith("summit-trip-booking: recorded as 100")


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
    mutants = maker.structural(MAX_MUTANTS)
    texts = {dumps(m.state) for m in mutants}
    assert len(texts) == len(mutants) and dumps(oracle.sH) not in texts
    assert all(diff(oracle.sH, m.state) for m in mutants)
    described = " | ".join(m.description for m in mutants)
    # 15:00 taken as local time: the classic slip, and a time Priya's mail states (the world's wrong value).
    assert "calendar/Work/evt-1#start: 2026-03-12T15:00:00+08:00 instead of 2026-03-12T23:00:00+08:00" in described
    assert "calendar/Work/evt-1 moved 1 h earlier" in described
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
    # One accepted wrong end state is enough: the dimension fails and the task is rejected.
    assert verifiability.status == "fail" and verifiability.points == 0 and not report.accepted
    survivors = [s["description"] for s in report.mutation["survivors"]]
    # 15:00 taken as local time: the time-zone slip, which is also the time Priya's mail states.
    assert any("2026-03-12T15:00:00+08:00" in s for s in survivors), survivors
    assert any("lasts an hour longer" in s for s in survivors)
    [diagnostic] = [d for d in report.diagnostics() if d.check == "mutation_kill_rate"]
    assert diagnostic.status == "fail" and "2026-03-12T15:00:00+08:00" in diagnostic.problem and diagnostic.suggestion
    assert "calendar/Work/evt-1#start" in report.mutation["weak_fields"]


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


def test_a_budget_below_the_reference_solutions_calls_is_rejected(pool, tmp_path):
    # meeting-move kept the default 40 steps when its reference solution grew to 56 calls
    def tight(task_dir: Path) -> None:
        text = (task_dir / "task.toml").read_text()
        (task_dir / "task.toml").write_text(re.sub(r"(?m)^max_steps = \d+", "max_steps = 2", text))

    report = validate_task(_variant(tmp_path, tight), pool)
    oracle = report.dimensions["verifiability"].check("oracle_scores_100")
    assert not report.accepted and oracle.status == "fail" and "budget of 2" in oracle.detail


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


def test_the_organizer_and_invitations_the_calendar_adds_are_by_products():
    event = {"uid": "e1", "summary": "Hold", "attendees": [], "organizer": None, "start": "2026-03-12T10:00:00+08:00"}
    invite = {"message_id": "<i1@x>", "to": ["a@x.org"], "invitation": {"method": "REQUEST", "uid": "e1"}}
    note = {"message_id": "<n1@x>", "to": ["a@x.org"], "invitation": None}
    s0 = {"calendar": {"Work": [event]}, "mail": {"folders": {"Sent": []}, "outbox": []}}
    booked = {**event, "summary": "Review", "attendees": ["a@x.org"], "organizer": "Lin <lin@x.org>"}
    sH = {"calendar": {"Work": [booked]}, "mail": {"folders": {"Sent": [invite, note]}, "outbox": [invite, note]}}
    found = units(s0, sH, ["~calendar/Work/e1#*", "+mail/outbox/*", "+mail/folders/Sent/*"])
    assert sorted(u.path for u in found.units) == ["calendar/Work/e1", "mail/outbox/<n1@x>"]
    [meeting] = [u for u in found.units if u.app == "calendar"]
    assert sorted(meeting.fields) == ["attendees", "summary"]
    assert sorted(c["path"] for c in found.tolerated) == [
        "calendar/Work/e1#organizer",
        "mail/folders/Sent/<i1@x>",
        "mail/folders/Sent/<n1@x>",
        "mail/outbox/<i1@x>",
    ]


def test_a_note_checked_only_for_having_changed_is_rejected_naming_the_field_and_the_survivors(pool, tmp_path):
    """The rent task with a lax verifier: the note merely changed. Every value the solution wrote in it is
    made wrong, the withdrawn figure from the world among them, and those survive."""

    def changed_only(task_dir: Path) -> None:
        (task_dir / "hidden" / "verify.py").write_text(
            "def _body(state):\n"
            "    return [n.get('body') for ns in state.get('notes', {}).values() for n in ns if n['uid'] == 'n-fixed-costs']\n"
            "\n\ndef check_rent(initial, final, trace):\n"
            "    return _body(final) != _body(initial), 'the note changed'\n"
            "\n\ndef check_total(initial, final, trace):\n"
            "    return _body(final) != _body(initial), 'the note changed'\n"
            "\n\ndef check_kept(initial, final, trace):\n"
            "    return _body(final) != _body(initial), 'the note changed'\n"
        )

    good = validate_task(RENT, pool)
    assert good.accepted and good.score == 100 and good.mutation["coverage"]["rate"] == 1.0
    task_dir = tmp_path / RENT.name
    shutil.copytree(RENT, task_dir)
    changed_only(task_dir)
    report = validate_task(task_dir, pool)
    assert not report.accepted and report.dimensions["verifiability"].status == "fail"
    assert report.mutation["weak_fields"] == ["notes/Notes/n-fixed-costs#body"]
    survivors = [s["description"] for s in report.mutation["survivors"]]
    assert any("1,250 changed to 1,235 (the world's amount)" in s for s in survivors)  # the withdrawn figure
    assert any("1,385 changed to 1,386 (one off amount)" in s for s in survivors)
    [diagnostic] = [d for d in report.diagnostics() if d.check == "mutation_kill_rate"]
    assert "notes/Notes/n-fixed-costs#body" in diagnostic.problem and "1,235" in diagnostic.problem


def test_a_changed_field_no_mutant_reaches_fails_coverage(pool, tmp_path):
    report = validate_task(EXAMPLE, pool, max_mutants=3)
    coverage = report.dimensions["verifiability"].check("mutation_coverage")
    assert coverage.status == "fail" and coverage.evidence["missed"]
    assert coverage.evidence["touched"] < coverage.evidence["fields"]
    assert all(field in coverage.detail for field in coverage.evidence["missed"])


def test_a_verifier_that_trusts_a_phrase_in_the_answer_is_rejected(pool, tmp_path):
    """The attack: a check that passes whenever the agent's final answer holds a magic phrase. The
    reference solution never says it, so the mutants alone cannot expose it; reading the trace without
    declaring it does."""

    def magic(task_dir: Path) -> None:
        _replace(
            task_dir / "hidden" / "verify.py",
            "def check_moved(initial, final, trace):\n",
            "def check_moved(initial, final, trace):\n"
            "    if 'open sesame' in (trace.get('final_answer') or ''):\n"
            "        return True, 'trusted'\n",
        )

    report = validate_task(_variant(tmp_path / "attack", magic), pool)
    check = report.dimensions["verifiability"].check("trace_declared")
    assert not report.accepted and check.status == "fail"
    assert "moved (check_moved)" in check.detail and check.evidence == {"checks": ["check_moved"]}

    def declared(task_dir: Path) -> None:  # the same check, said out loud: an auditor sees it
        magic(task_dir)
        _replace(
            task_dir / "hidden" / "rubric.toml", 'check = "check_moved"\n', 'check = "check_moved"\nuses = ["answer"]\n'
        )

    report = validate_task(_variant(tmp_path / "declared", declared), pool)
    check = report.dimensions["verifiability"].check("trace_declared")
    assert check.status == "pass" and "['moved'] declare what they read" in check.detail


def test_a_check_whose_verdict_follows_the_trace_is_caught_by_the_neutral_grading(pool, tmp_path):
    """A check that reads its trace in a way the syntax tree does not show (the name is assembled at run
    time) is still caught: on the solved state, its verdict changes with a neutral trace."""

    def sneaky(task_dir: Path) -> None:
        _replace(
            task_dir / "hidden" / "verify.py",
            "def check_reply_to_priya(initial, final, trace):\n",
            "def check_reply_to_priya(initial, final, trace):\n"
            "    import builtins\n"
            "    if not getattr(builtins, 'ev' + 'al')('tra' + 'ce').get('steps'):\n"
            "        return False, 'no steps'\n",
        )

    report = validate_task(_variant(tmp_path, sneaky), pool)
    check = report.dimensions["verifiability"].check("trace_declared")
    assert check.status == "fail" and "check_reply_to_priya" in check.detail and "neutral" in check.detail
    assert report.mutation["trace_dependent"] == ["check_reply_to_priya"]


def test_operators_are_detected_in_a_hand_written_task_without_provenance(pool, tmp_path):
    task = load_task(RENT)
    assert not task.config.provenance.evidence
    report = validate_task(RENT, pool)
    checks = {c.name: c for c in report.dimensions["difficulty"].checks}
    conflict = checks["operator:cross_source_conflict"]
    assert conflict.status == "pass"
    # The real conflict first: the correction against the withdrawn figure, about the note it changed.
    assert conflict.evidence[0] == (
        "mail/folders/INBOX/<rent-0309@hv-lenz.de> gives 1,250, mail/folders/INBOX/<rent-0302@hv-lenz.de> gives "
        "1,235 (notes/Notes/n-fixed-costs)"
    )
    noise = checks["operator:noisy_data"]
    assert noise.status == "pass" and any("<parking-0305@hv-lenz.de>" in e for e in noise.evidence)
    hidden = checks["operator:hidden_dependency"]
    assert hidden.status == "pass"
    assert (
        hidden.evidence[0]
        == "1,250 (written to notes/Notes/n-fixed-costs) from mail/folders/INBOX/<rent-0309@hv-lenz.de>"
    )


def test_a_task_that_does_not_load_still_gets_the_other_dimensions_and_is_never_accepted(pool, tmp_path):
    """An unknown operator in task.toml: structure fails, and a repair round still learns how the
    verifier and the difficulty fare on what is valid."""

    def unknown_operator(task_dir: Path) -> None:
        _replace(task_dir / "task.toml", "operators = [", 'operators = ["telepathy", ')

    report = validate_task(_variant(tmp_path, unknown_operator), pool)
    dims = {name: d.status for name, d in report.dimensions.items()}
    assert dims == {"structure": "fail", "reproducibility": "pass", "verifiability": "pass", "difficulty": "pass"}
    assert report.score == 80 and not report.loaded and not report.accepted
    assert "telepathy" in report.dimensions["structure"].check("schemas").detail
    assert report.mutation["kill_rate"] == 1.0


def test_an_invitation_the_calendar_mailed_is_a_by_product_not_a_unit():
    """Saving an event with guests mails them the invitation: its text follows the event, which is judged
    itself, so no mutant makes the invitation's dates wrong."""
    invite = {"message_id": "<i1@x>", "to": ["b@x.org"], "body": "12 March 15:00", "invitation": {"method": "REQUEST"}}
    s0 = {"mail": {"folders": {"Sent": []}, "outbox": []}}
    sH = {"mail": {"folders": {"Sent": [dict(invite)]}, "outbox": [dict(invite)]}}
    found = units(s0, sH, ["+mail/outbox/*", "+mail/folders/Sent/*"])
    assert found.units == [] and {c["path"] for c in found.tolerated} == {
        "mail/outbox/<i1@x>",
        "mail/folders/Sent/<i1@x>",
    }


def test_an_attachment_saved_to_read_it_is_a_by_product_where_new_files_may_be_anywhere():
    """Opening a mail's attachment saves it first: with `+files/**` and nothing narrower, the saved copy is no
    unit; where the task names a folder for it (filing it is the job), it stays one."""
    sheet = {"filename": "sheet.pdf", "sha256": "ab" * 32, "size": 9}
    s0 = {"mail": {"folders": {"INBOX": [{"message_id": "<m1@x>", "attachments": [sheet]}]}}, "files": {}}
    saved = {"sha256": "ab" * 32, "size": 9, "text": "%PDF-1.4"}
    other = {"sha256": "cd" * 32, "size": 5, "text": "notes"}
    sH = {**s0, "files": {"Downloads/sheet.pdf": saved, "Downloads/notes.txt": other}}
    found = units(s0, sH, ["+files/**"])
    assert [u.path for u in found.units] == ["files/Downloads/notes.txt"]
    assert [c["path"] for c in found.tolerated] == ["files/Downloads/sheet.pdf"]
    filed = units(s0, sH, ["+files/**", "+files/Downloads/*"])
    assert sorted(u.path for u in filed.units) == ["files/Downloads/notes.txt", "files/Downloads/sheet.pdf"]


def test_the_units_of_created_items_follow_what_they_say_not_the_ids_the_tools_minted():
    """A capped mutant set takes units in order: ordered by Message-ID, the same solution gave another
    set on every run (CI once drew a mutant that the local run never made)."""

    def solved(ids: list[str]) -> dict:
        notes = [
            {
                "message_id": ids[0],
                "to": ["harriet@client.example"],
                "subject": "While I'm on leave",
                "invitation": None,
            },
            {"message_id": ids[1], "to": ["stuart@firm.example"], "subject": "Fwd: Forecast", "invitation": None},
        ]
        return {"mail": {"folders": {"Sent": []}, "outbox": notes}}

    s0 = {"mail": {"folders": {"Sent": []}, "outbox": []}}
    subjects = []
    for ids in (["<a@x>", "<b@x>"], ["<b@x>", "<a@x>"]):
        found = units(s0, solved(ids), ["+mail/outbox/*"])
        subjects.append([u.after["subject"] for u in found.units])
    assert subjects[0] == subjects[1] == ["Fwd: Forecast", "While I'm on leave"]
