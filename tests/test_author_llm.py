"""Stage 1, the LLM author, driven by the scripted fake LLM: a first draft stage 2 rejects, a repair it
accepts; every attempt is recorded with its score, diagnostics, tokens and cost."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stageclaw.agents.fake_llm import FakeLLM, Script
from stageclaw.author import generate
from stageclaw.author.llm import LLMAuthor, parse_answer, write_attempts
from stageclaw.cli import app

HINT = "A business trip's receipts arrive by mail; the user wants them as a CSV expense report sent to finance."
USAGE = {"prompt_tokens": 20000, "completion_tokens": 5000}  # gpt-4.1-mini: $0.40 / $1.60 per million


def _answer(broken: bool) -> dict:
    """A task the way a model answers: the files of a generated task (with a lax verifier when broken)."""
    files = {k: v.decode() for k, v in generate("expense-report", 3).files_out().items()}
    task = tomllib.loads(files["task.toml"])
    task.pop("provenance")
    rubric = tomllib.loads(files["hidden/rubric.toml"])
    verify = files["hidden/verify.py"]
    if broken:  # accepts every end state: doing nothing passes and no mutant is caught
        verify = re.sub(
            r"(def check_\w+\(initial, final, trace\):\n)    return .*?(?=\n\n\ndef |\Z)",
            r"\1    return True, 'fine'",
            verify,
            flags=re.S,
        )
    return {
        "task": task,
        "prompt": files["prompt.md"],
        "world": files["world.yaml"],
        "rubric": {"items": rubric["item"], "allow": rubric["changes"]["allow"]},
        "verify_py": verify,
        "solution_py": files["hidden/solution.py"],
        "alternatives": {
            k.rsplit("/", 1)[1].removesuffix(".py"): v for k, v in files.items() if k.startswith("hidden/alternatives/")
        },
        "goal": files["hidden/goal.md"],
        "assets": {k.split("/", 1)[1]: v for k, v in files.items() if k.startswith("assets/")},
    }


def _script(*turns: str) -> Script:
    return Script.model_validate({"turns": [{"content": t, "usage": USAGE} for t in turns]})


def test_a_rejected_draft_is_repaired_until_accepted(tmp_path):
    draft, repaired = json.dumps(_answer(broken=True)), "```json\n" + json.dumps(_answer(broken=False)) + "\n```"
    with FakeLLM(_script(draft, repaired)) as llm:
        result = CliRunner().invoke(
            app,
            ["author", "--hint", HINT, "--model", "gpt-4.1-mini", "--base-url", llm.url, "--out", str(tmp_path)],
        )
        requests = llm.requests
    assert result.exit_code == 0, result.output
    assert "accepted" in result.output and "2 (65 -> 100)" in result.output and "$0.0320" in result.output

    record = json.loads((tmp_path / "attempts.json").read_text())
    assert record["accepted"] == 1
    run = record["runs"][0]
    assert run["hint"] == HINT and run["accepted"] is True and run["task_id"] == "expense-report-3"
    first, second = run["attempts"]
    assert first["accepted"] is False and first["score"] < 80
    assert first["dimensions"]["verifiability"] == "fail" and first["kill_rate"] < 1
    assert {d["check"] for d in first["diagnostics"]} >= {"initial_state_fails", "mutation_kill_rate"}
    assert second["accepted"] is True and second["score"] == 100 and second["diagnostics"] == []
    for attempt in (first, second):
        assert attempt["input_tokens"] == 20000 and attempt["output_tokens"] == 5000
        assert attempt["cost_usd"] == pytest.approx(0.016)
        assert "hidden/verify.py" in attempt["files"]
    assert run["cost_usd"] == pytest.approx(0.032) and record["cost_usd"] == pytest.approx(0.032)

    task = tmp_path / "expense-report-3"
    config = tomllib.loads((task / "task.toml").read_text())
    assert config["provenance"] == {"author": "stageclaw author", "model": "gpt-4.1-mini"}
    assert "return True, 'fine'" not in (task / "hidden" / "verify.py").read_text()

    # The model saw the tool catalogue and an explored empty world, then the diagnostics of its draft.
    briefing = requests[0]["messages"][1]["content"]
    assert "calendar_update_event" in briefing and "mail_list_folders" in briefing and '"Trash"' in briefing
    repair = requests[1]["messages"][-1]["content"]
    assert "scored 65" in repair and "initial_state_fails" in repair
    assert "stageclaw-author-" not in repair and "rubric.items[1] is 'report_rows'" in repair


def test_an_answer_that_is_not_a_task_is_an_attempt_too(pool, tmp_path):
    with FakeLLM(_script("I would love to help with that!", json.dumps(_answer(broken=False)))) as llm:
        author = LLMAuthor("openai:gpt-4.1-mini", base_url=llm.url, max_repairs=1, backoff_s=0)
        run = author.write(HINT, tmp_path, pool)
    assert run.accepted and len(run.attempts) == 2
    assert run.attempts[0].error.startswith("the answer holds no JSON object") and run.attempts[0].score is None
    assert Path(run.task_dir, "world.yaml").is_file()


def test_out_of_repairs_is_a_failure_with_every_attempt_kept(tmp_path):
    broken = json.dumps(_answer(broken=True))
    with FakeLLM(_script(broken, broken)) as llm:
        result = CliRunner().invoke(
            app,
            [
                "author",
                "--hint",
                HINT,
                "--model",
                "gpt-4.1-mini",
                "--base-url",
                llm.url,
                "--out",
                str(tmp_path),
                "--max-repairs",
                "1",
            ],
        )
    assert result.exit_code == 1
    run = json.loads((tmp_path / "attempts.json").read_text())["runs"][0]
    assert not run["accepted"] and [a["accepted"] for a in run["attempts"]] == [False, False]
    assert not (tmp_path / "expense-report-3").exists()


def test_parse_answer_names_what_is_wrong():
    with pytest.raises(ValueError, match="not a task: task"):
        parse_answer('{"prompt": "x"}')
    assert parse_answer("Here it is:\n" + json.dumps(_answer(broken=False))).task.id == "expense-report-3"


def _turns(*turns: dict) -> Script:
    return Script.model_validate({"turns": list(turns)})


def test_a_provider_failure_ends_the_hint_keeps_its_attempts_and_the_next_hint_runs(tmp_path):
    """Hint 1: a draft stage 2 rejects, then the provider refuses (400): no retry of a 4xx, the hint ends
    as provider_error with its attempt kept. Hint 2 still runs and is accepted."""
    hints = tmp_path / "hints.txt"
    hints.write_text(f"{HINT}\n# a comment\n{HINT} (again)\n")
    broken, good = json.dumps(_answer(broken=True)), json.dumps(_answer(broken=False))
    script = _turns({"content": broken, "usage": USAGE}, {"error": 400}, {"content": good, "usage": USAGE})
    out = tmp_path / "out"
    with FakeLLM(script) as llm:
        result = CliRunner().invoke(
            app,
            ["author", "--hints", str(hints), "--model", "gpt-4.1-mini", "--base-url", llm.url, "--out", str(out)],
        )
        requests = llm.requests
    assert result.exit_code == 1, result.output
    assert len(requests) == 3  # the 400 was asked once, not retried
    record = json.loads((out / "attempts.json").read_text())
    first, second = record["runs"]
    assert first["status"] == "provider_error" and "400" in first["error"] and not first["accepted"]
    [kept] = first["attempts"]
    assert kept["score"] == 65 and kept["accepted"] is False and kept["kill_rate"] < 1
    assert kept["points"] == {"structure": 20, "reproducibility": 25, "verifiability": 0, "difficulty": 20}
    assert kept["input_tokens"] == 20000 and kept["cost_usd"] == pytest.approx(0.016) and kept["files"]
    assert second["status"] == "accepted" and second["attempts"][0]["coverage"] == 1.0
    assert record["accepted"] == 1 and record["provider_errors"] == 1
    assert "provider_error" in result.output and "1 of 2 hints accepted" in result.output


def test_attempts_are_saved_as_they_complete_and_transient_errors_are_retried(pool, tmp_path):
    saved: list[int] = []

    def on_attempt(record) -> None:
        saved.append(len(json.loads(write_attempts(tmp_path, [record]).read_text())["runs"][0]["attempts"]))

    script = _turns({"error": 503}, {"error": 429}, {"content": json.dumps(_answer(broken=False)), "usage": USAGE})
    with FakeLLM(script) as llm:
        author = LLMAuthor("openai:gpt-4.1-mini", base_url=llm.url, max_repairs=0, backoff_s=0)
        run = author.write(HINT, tmp_path, pool, on_attempt=on_attempt)
        assert len(llm.requests) == 3
    assert run.status == "accepted" and saved == [1]
    with FakeLLM(_turns({"error": 503})) as llm:  # the script then answers 500: every try fails
        author = LLMAuthor("openai:gpt-4.1-mini", base_url=llm.url, retries=2, backoff_s=0)
        run = author.write(HINT, tmp_path, pool)
        assert len(llm.requests) == 3
    assert run.status == "provider_error" and run.attempts == [] and "500" in run.error
