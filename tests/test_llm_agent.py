"""The built-in LLM agent against the scripted fake provider, through the real tools and servers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stageclaw.agents.fake_llm import FakeLLM, Script
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from tests.conftest import EXAMPLE
from tests.test_grading import _distinctive
from tests.test_world_processes import descendants, still_alive

TASK = load_task(EXAMPLE)

SOLVE = [
    {"tool_calls": [{"name": "mail_search", "arguments": {"sender": "priya"}}]},
    {"tool_calls": [{"name": "mail_read", "arguments": {"id": "INBOX/1"}}]},
    {
        "tool_calls": [
            {"name": "calendar_update_event", "arguments": {"uid": "evt-1", "start": "2026-03-12T15:00:00+00:00"}},
            {
                "name": "mail_reply",
                "arguments": {
                    "id": "INBOX/1",
                    "body": "Hi Priya,\n\nDone: the quarterly sync is now Thursday 12 March, 15:00 London time "
                    "(23:00 Shanghai time).\n\nBest,\nLin",
                },
            },
        ]
    },
    {
        "tool_calls": [
            {
                "name": "reminders_create",
                "arguments": {
                    "title": "Go through Priya's agenda",
                    "list": "Inbox",
                    "due": "2026-03-12T22:00:00+08:00",
                },
            }
        ]
    },
    {"content": "Moved the sync, replied to Priya and set a reminder."},
]


def _run(tmp_path: Path, spec: str, server: FakeLLM, **options) -> dict:
    base = server.root_url if spec.startswith("anthropic:") else server.url
    config = RunConfig(agent=spec, out=tmp_path / "run", agent_options={"base_url": base, "backoff_s": 0, **options})
    run([TASK], config)
    [result] = read_results(tmp_path / "run" / "results.jsonl")
    return result


@pytest.mark.parametrize("spec", ["openai:fake", "anthropic:fake"])
def test_a_scripted_agent_solves_the_task_through_the_real_tools(tmp_path, spec):
    with FakeLLM(Script(turns=SOLVE)) as server:
        result = _run(tmp_path, spec, server)
        requests = list(server.requests)
    assert result["status"] == "completed" and result["success"], result["items"]
    assert result["steps"] == 5 and result["tool_errors"] == 0
    assert result["tokens"]["turns"] == 5 and result["tokens"]["input_tokens"] > 0
    assert result["cost_usd"] > 0 and result["agent_config"]["model"] == "fake"
    trajectory = json.loads((tmp_path / "run" / "episodes" / f"{TASK.id}__t1" / "trajectory.json").read_text())
    assert trajectory["final_answer"].startswith("Moved the sync")
    assert len(trajectory["messages"]) >= 10
    first = requests[0]
    names = {t["function"]["name"] if "function" in t else t["name"] for t in first["tools"]}
    assert "mail_search" in names and "terminal_run" in names
    sent = json.dumps(requests, ensure_ascii=False)
    assert "2026-03-10T09:00:00+08:00" in sent and "Asia/Shanghai" in sent and "lin.chen@example.com" in sent
    assert not [s for s in _distinctive(TASK) if s in sent]


def test_tool_errors_go_back_to_the_model(tmp_path):
    script = Script(
        turns=[
            {"tool_calls": [{"name": "calendar_teleport", "arguments": {}}]},
            {"tool_calls": [{"name": "calendar_get_event", "arguments": "{not json"}]},
            {"tool_calls": [{"name": "calendar_get_event", "arguments": {"uid": "evt-404"}}]},
            {"content": "I could not do it."},
        ]
    )
    with FakeLLM(script) as server:
        result = _run(tmp_path, "openai:fake", server)
        last = server.requests[-1]["messages"]
    tool_msgs = [m["content"] for m in last if m["role"] == "tool"]
    assert "unknown tool 'calendar_teleport'" in tool_msgs[0]
    assert "not valid JSON" in tool_msgs[1]
    assert "evt-404" in tool_msgs[2]
    assert result["status"] == "completed" and result["success"] is False


def test_a_script_that_never_finishes_hits_max_steps(tmp_path):
    script = Script(turns=[{"tool_calls": [{"name": "now", "arguments": {}}]}], when_done="repeat_last")
    with FakeLLM(script) as server:
        result = _run(tmp_path, "openai:fake", server, max_steps=4)
    assert result["status"] == "max_steps" and result["steps"] == 4 and result["failure_mode"] == "budget_exhausted"


def test_token_budget_stops_the_agent(tmp_path):
    script = Script(
        turns=[
            {"tool_calls": [{"name": "now", "arguments": {}}], "usage": {"prompt_tokens": 600, "completion_tokens": 10}}
        ],
        when_done="repeat_last",
    )
    with FakeLLM(script) as server:
        result = _run(tmp_path, "openai:fake", server, token_budget=1500)
    assert result["status"] == "budget_exhausted" and result["tokens"]["turns"] == 3


def test_provider_errors_are_retried_then_the_episode_is_an_infra_error(tmp_path):
    flaky = Script(turns=[{"error": 500}, {"error": 429}, *SOLVE])
    with FakeLLM(flaky) as server:
        result = _run(tmp_path / "flaky", "openai:fake", server)
        assert len(server.requests) == len(SOLVE) + 2
    assert result["status"] == "completed" and result["success"]

    down = Script(turns=[{"error": 503}], when_done="repeat_last")
    with FakeLLM(down) as server:
        result = _run(tmp_path / "down", "openai:fake", server, retries=2)
        # 3 attempts per episode, and the runner retries the infra error twice
        assert len(server.requests) == 9
    assert result["status"] == "infra_error" and result["score"] is None and result["success"] is None


def test_a_bad_request_is_the_agents_failure_not_infrastructure(tmp_path):
    with FakeLLM(Script(turns=[{"error": 400}])) as server:
        result = _run(tmp_path, "openai:fake", server)
    assert result["status"] == "agent_error" and result["success"] is False


def test_eight_workers_keep_sixteen_episodes_apart(tmp_path):
    summary = run([TASK], RunConfig(agent="oracle", out=tmp_path, trials=16, workers=8))
    results = read_results(tmp_path / "results.jsonl")
    assert len(results) == 16 and summary["success_rate"] == 1.0
    for r in results:
        folder = tmp_path / "episodes" / f"{r['task_id']}__t{r['trial']}"
        s0, sh = (json.loads((folder / name).read_text()) for name in ("s0.json", "sH.json"))
        # each episode sees only its own writes: exactly its one reply, its own reminder, its moved event
        assert len(sh["mail"]["outbox"]) == 1 and sh["files"] == s0["files"]
        assert len(sh["reminders"]["Inbox"]) == len(s0["reminders"]["Inbox"]) + 1


def test_a_run_killed_mid_way_resumes_to_exactly_one_line_per_episode(tmp_path):
    tasks = tmp_path / "tasks"
    shutil.copytree(EXAMPLE, tasks / EXAMPLE.name)
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "oracle", "--tasks", str(tasks), "--trials", "12"]
    argv += ["--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not read_results(out / "results.jsonl") and time.monotonic() < deadline:
        time.sleep(0.05)
    servers = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert still_alive(servers) == {}
    partial = read_results(out / "results.jsonl")
    assert 1 <= len(partial) < 12
    res = subprocess.run([*argv, "--resume"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    lines = read_results(out / "results.jsonl")
    pairs = [(r["task_id"], r["trial"]) for r in lines]
    assert len(pairs) == len(set(pairs)) == 12
    assert (out / "results.jsonl").read_text().count("\n") == len(lines)
