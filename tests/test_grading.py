"""Stage 4 on the example tasks: oracle and noop, default-deny, broken verifiers, the judge, hidden data."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from stageclaw.agents.base import EpisodeBrief
from stageclaw.agents.fake_llm import FakeLLM, Script
from stageclaw.agents.reference import OracleAgent
from stageclaw.errors import StageclawError
from stageclaw.grade.collateral import allowed
from stageclaw.grade.grader import grade
from stageclaw.grade.judge import LLMJudge
from stageclaw.run.episode import brief_for, trace_of
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task, load_tasks
from stageclaw.tools.registry import Registry
from tests.conftest import EXAMPLES

EXAMPLE_TASKS, _ = load_tasks(EXAMPLES)


def test_examples_are_complete_tasks():
    assert len(EXAMPLE_TASKS) >= 3
    for task in EXAMPLE_TASKS:
        apps = {p.split("/")[0] for p in task.rubric.changes.allow} | {"mail"}
        assert len(task.rubric.items) >= 5, task.id
        assert len(task.config.operators) >= 2, task.id
        assert len(apps) >= 2, task.id


def test_oracle_succeeds_and_noop_fails_on_every_example(tmp_path):
    oracle = run(EXAMPLE_TASKS, RunConfig(agent="oracle", out=tmp_path / "oracle", workers=2))
    noop = run(EXAMPLE_TASKS, RunConfig(agent="noop", out=tmp_path / "noop"))
    by_task = {r["task_id"]: r for r in read_results(tmp_path / "oracle" / "results.jsonl")}
    for task in EXAMPLE_TASKS:
        result = by_task[task.id]
        assert result["success"] is True and result["score"] == 100, (task.id, result["items"], result["collateral"])
        assert result["steps"] >= 4 and not result["defects"]
    assert oracle["success_rate"] == 1.0
    assert noop["success_rate"] == 0.0
    for result in read_results(tmp_path / "noop" / "results.jsonl"):
        assert result["failure_mode"] == "no_change" and result["steps"] == 0
    episode = tmp_path / "oracle" / "episodes" / f"{EXAMPLE_TASKS[0].id}__t1"
    assert {p.name for p in episode.iterdir()} == {"trajectory.json", "s0.json", "sH.json", "audit.jsonl", "grade.json"}
    summary = json.loads((tmp_path / "oracle" / "summary.json").read_text())
    assert summary["episodes"] == len(EXAMPLE_TASKS) and summary["mean_score"] == 100


def _solve(pool, task):
    episode = pool.episode(task.world, task.dir)
    s0 = episode.snapshot()
    registry = Registry(episode, allow=task.config.tools)
    outcome = OracleAgent(task.solution_py).run(brief_for(task), registry)
    return episode, registry, s0, outcome


def test_a_change_outside_allow_fails_no_collateral_damage(pool):
    task = load_task(EXAMPLES / "quarterly-sync")
    episode, registry, s0, outcome = _solve(pool, task)
    with episode, registry:
        clean = grade(task, s0, episode.snapshot(), trace_of(registry.audit, outcome))
        assert clean.success
        registry.call("notes_create", {"title": "Scratch", "body": "an agent's stray note"})
        dirty = grade(task, s0, episode.snapshot(), trace_of(registry.audit, outcome))
    item = next(i for i in dirty.items if i.id == "no_collateral_damage")
    assert item.passed is False and "added notes/Notes/" in item.reason
    assert not dirty.success and dirty.score < 100
    assert [c["path"].split("/")[:2] for c in dirty.collateral] == [["notes", "Notes"]]


BROKEN = {
    "raises": ("def {name}(i, f, t):\n    return f['no-such-app']\n", "raised KeyError"),
    "loops": ("def {name}(i, f, t):\n    while True:\n        pass\n", "did not finish within 1"),
    "prints": (
        "import os\nos.write(1, b'{{\"check\": \"x\"}}')\ndef {name}(i, f, t):\n    print('hello')\n    return True\n",
        None,
    ),
    "junk": ("def {name}(i, f, t):\n    return 'yes'\n", "returned 'yes'"),
    "missing": ("X = 1\n", "has no function"),
    "syntax": ("def {name}(i, f, t)\n    return True\n", "failed to load"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_verifier_fails_its_items_and_marks_the_task_defective(pool, tmp_path, kind):
    src = load_task(EXAMPLES / "quarterly-sync")
    shutil.copytree(src.dir, tmp_path / src.id)
    name = src.rubric.checks[0]
    body, expected = BROKEN[kind]
    original = (src.verify_py).read_text()
    (tmp_path / src.id / "hidden" / "verify.py").write_text(
        original.replace(f"def {name}(", f"def _orig_{name}(") + "\n" + body.format(name=name)
    )
    task = load_task(tmp_path / src.id)
    episode, registry, s0, outcome = _solve(pool, task)
    with episode, registry:
        g = grade(task, s0, episode.snapshot(), trace_of(registry.audit, outcome), check_timeout_s=1)
    item = next(
        i for i in g.items if i.kind == "check" and i.id == next(r.id for r in task.rubric.items if r.check == name)
    )
    if expected is None:  # printing is harmless: the verifier's output cannot forge results
        assert item.passed is True and not g.defective
    else:
        assert item.passed is False and expected in item.reason and g.defective and not g.success
        others = [i for i in g.items if i.kind == "check" and i.id != item.id]
        assert kind in ("syntax",) or all(i.passed for i in others)


def test_judge_items_form_a_quality_figure_apart_from_score_and_success(pool):
    task = load_task(EXAMPLES / "quarterly-sync")
    assert any(i.judge for i in task.rubric.items)
    episode, registry, s0, outcome = _solve(pool, task)
    with episode, registry:
        sH, trace = episode.snapshot(), trace_of(registry.audit, outcome)
    yes = Script(turns=[{"content": 'Verdict: {"passed": true, "reason": "polite and clear"}'}])
    with FakeLLM(yes) as server:
        g = grade(task, s0, sH, trace, LLMJudge("openai:fake", base_url=server.url))
        sent = server.requests[0]["messages"][1]["content"]
    judged = next(i for i in g.items if i.kind == "judge")
    assert judged.passed is True and judged.reason == "polite and clear" and g.score == 100 and g.quality == 100
    assert "Priya" in sent and "mail/outbox/" in sent
    assert grade(task, s0, sH, trace).quality is None  # no judge, no quality; the score is the same
    broken = Script(turns=[{"error": 503}, {"content": "I think it is fine"}, {"content": "{}"}])
    with FakeLLM(broken) as server:
        g = grade(task, s0, sH, trace, LLMJudge("openai:fake", base_url=server.url, retries=3, backoff_s=0))
    judged = next(i for i in g.items if i.kind == "judge")
    assert judged.passed is None and "unscored" in judged.reason and g.success and g.score == 100
    assert g.quality is None
    no = Script(turns=[{"content": '{"passed": false, "reason": "rude"}'}])
    with FakeLLM(no) as server:
        g = grade(task, s0, sH, trace, LLMJudge("openai:fake", base_url=server.url))
    # A judge's "no" lowers the quality, never the score or the success: those are the verifier's alone.
    assert g.success and g.score == 100 and g.quality == 0


def _distinctive(task) -> set[str]:
    """Strings that exist only in the task's hidden folder."""
    visible = (task.dir / "prompt.md").read_text() + (task.dir / "world.yaml").read_text()
    found = set(re.findall(r"def (check_\w+)", task.verify_py.read_text()))
    found |= {i.description for i in task.rubric.items}
    found |= {line.strip() for line in (task.hidden / "goal.md").read_text().splitlines() if len(line.strip()) > 40}
    return {s for s in found if s not in visible}


@pytest.mark.parametrize("task", EXAMPLE_TASKS, ids=lambda t: t.id)
def test_nothing_hidden_reaches_the_agent(pool, task):
    secrets = _distinctive(task)
    assert len(secrets) >= 5
    brief = brief_for(task)
    seen = [json.dumps(brief.__dict__, ensure_ascii=False)]
    episode, registry, _, _ = _solve(pool, task)
    with episode, registry:
        listing = registry.call("files_list", {})
        for entry in listing["entries"]:
            if entry["type"] == "file":
                seen.append(json.dumps(registry.invoke("files_read", {"path": entry["path"]}), ensure_ascii=False))
        seen.append(json.dumps(registry.invoke("terminal_run", {"command": "ls -laR / 2>/dev/null | head -2000"})))
        seen.extend(json.dumps(e.get("result"), ensure_ascii=False) for e in registry.audit.entries)
        seen.extend(json.dumps(s["input_schema"]) + s["description"] for s in registry.specs())
    text = "\n".join(seen)
    assert not [s for s in secrets if s in text]
    assert isinstance(brief, EpisodeBrief) and "hidden" not in text.replace("hidden_", "")


def test_a_broken_task_is_reported_and_the_others_still_load(tmp_path):
    for task in EXAMPLE_TASKS:
        shutil.copytree(task.dir, tmp_path / task.id)
    broken = tmp_path / EXAMPLE_TASKS[0].id / "task.toml"
    broken.write_text(broken.read_text().replace("max_steps = ", "max_steps = -"))
    tasks, errors = load_tasks(tmp_path)
    assert {t.id for t in tasks} == {t.id for t in EXAMPLE_TASKS[1:]}
    [(path, message)] = errors.items()
    assert path.name == EXAMPLE_TASKS[0].id and "task.toml: max_steps: Input should be greater than 0" in message


def test_resume_skips_finished_episodes_and_refuses_to_overwrite(tmp_path):
    tasks = EXAMPLE_TASKS[:1]
    run(tasks, RunConfig(agent="noop", out=tmp_path, trials=2))
    with pytest.raises(StageclawError, match="--resume"):
        run(tasks, RunConfig(agent="noop", out=tmp_path, trials=2))
    before = (tmp_path / "results.jsonl").read_text()
    run(tasks, RunConfig(agent="noop", out=tmp_path, trials=3, resume=True))
    lines = read_results(tmp_path / "results.jsonl")
    assert (tmp_path / "results.jsonl").read_text().startswith(before)
    assert sorted(r["trial"] for r in lines) == [1, 2, 3]


def test_collateral_patterns():
    def ok(op: str, path: str, *patterns: str) -> bool:
        return allowed({"op": op, "path": path}, list(patterns))

    assert ok("added", "reminders/Inbox/r-9", "+reminders/*/*")
    assert not ok("removed", "reminders/Inbox/r-9", "+reminders/*/*")
    assert ok("modified", "calendar/Work/evt-1#start", "~calendar/Work/evt-1#*")
    assert ok("modified", "calendar/Work/evt-1#start", "calendar/Work/evt-1")
    assert not ok("modified", "calendar/Work/evt-10#start", "~calendar/Work/evt-1")
    assert not ok("added", "files/docs/sub/x.md", "+files/docs/*")
    assert ok("added", "files/docs/sub/x.md", "+files/docs/**")
    assert not ok("added", "mail/folders/INBOX/<a@b>", "+mail/folders/*")
    assert ok("added", "mail/folders/Receipts", "+mail/folders/*")


def test_cli_run_prints_a_summary_and_exits_zero(tmp_path):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "stageclaw",
            "run",
            "--agent",
            "oracle",
            "--tasks",
            str(EXAMPLES),
            "--out",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "success 100%" in res.stdout and "mean score 100.0" in res.stdout
    assert len(read_results(tmp_path / "r" / "results.jsonl")) == len(EXAMPLE_TASKS)
