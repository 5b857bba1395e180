"""`stageclaw report` on real runs of two agents over the example tasks, and its HTML in a real browser
(Debian's chromium driven by Playwright; `scripts/install --test` installs both)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stageclaw.report import build as report_build
from stageclaw.report.build import build
from stageclaw.report.html import write
from stageclaw.report.viewer import clip, narration
from stageclaw.run.runner import RunConfig, run
from stageclaw.task.loader import load_tasks
from tests.conftest import EXAMPLES

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


TASKS, _ = load_tasks(EXAMPLES)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    run(TASKS, RunConfig(agent="oracle", out=root / "oracle", workers=2))
    run(TASKS, RunConfig(agent="noop", out=root / "noop"))
    return root


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "stageclaw", "report", *args], capture_output=True, text=True, env=env)


def test_report_command_prints_the_leaderboard_and_writes_html_and_json(runs, tmp_path):
    done = _report(str(runs), "--out", str(tmp_path / "out" / "report.html"))  # a folder of run directories
    assert done.returncode == 0, done.stderr
    n = len(TASKS)
    assert "oracle" in done.stdout and "noop" in done.stdout and f"incomplete {n}" in done.stdout
    assert (tmp_path / "out" / "report.html").stat().st_size > 10_000
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    oracle, noop = data["agents"]
    assert oracle["agent"] == "oracle" and oracle["mean_score"] == 100 and oracle["success_rate"] == 1
    assert oracle["pass_at_k"]["1"]["value"] == 1 and oracle["tool_calls"] > 0 and oracle["tool_error_rate"] == 0
    summary = json.loads((runs / "noop" / "summary.json").read_text())
    assert noop["mean_score"] == summary["mean_score"] and noop["failure_modes"] == {"incomplete": n}
    assert set(data["breakdowns"]) == {"group", "operators", "apps"} and "(none)" in data["breakdowns"]["apps"]
    modes = {(e["agent"], e["mode"], e["failure_mode"]) for e in data["episodes"]}
    assert len(data["episodes"]) == 2 * n and modes == {("oracle", None, None), ("noop", "incomplete", "no_change")}

    one = _report(str(runs / "noop"))
    assert one.returncode == 0 and (runs / "noop" / "report.html").is_file()
    bad = _report(str(tmp_path / "nothing-here"))
    assert bad.returncode == 2 and "not a run directory" in bad.stderr


def test_report_out_takes_a_folder_or_an_html_name_and_says_what_it_wrote(runs, tmp_path):
    folder = _report(str(runs / "noop"), "--out", str(tmp_path / "site"))  # a folder that does not exist yet
    assert folder.returncode == 0, folder.stderr
    html, data = tmp_path / "site" / "report.html", tmp_path / "site" / "report.json"
    assert html.read_text().startswith("<!doctype html>") and json.loads(data.read_text())["agents"]
    assert f"wrote {html}" in folder.stdout and str(data) in folder.stdout

    named = _report(str(runs / "noop"), "--out", str(tmp_path / "site" / "noop.HTML"))
    assert named.returncode == 0 and (tmp_path / "site" / "noop.HTML").is_file()
    assert (tmp_path / "site" / "noop.json").is_file() and "noop.HTML" in named.stdout

    for name in ("report.htm", "report.txt"):  # a browser would show these as source
        refused = _report(str(runs / "noop"), "--out", str(tmp_path / name))
        assert refused.returncode == 2 and "ending in .html" in refused.stderr, refused.stderr
        assert not (tmp_path / name).exists() and not list(tmp_path.glob("report.json"))


def test_the_report_opens_in_chromium_and_shows_an_episodes_state_diff(runs, tmp_path):
    assert CHROMIUM.exists(), "Debian's chromium is missing: run scripts/install --test"
    from playwright.sync_api import sync_playwright

    html, _ = write(build([runs / "oracle", runs / "noop"]), tmp_path / "report.html")
    problems: list[str] = []
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: requests.append(r.url))
            page.goto(html.as_uri())

            rows = page.locator("#leaderboard-table tbody tr").all_inner_texts()
            assert len(rows) == 2 and "oracle" in rows[0] and "noop" in rows[1]
            assert page.locator("#failures svg").count() == 1 and page.locator("#leaderboard svg").count() >= 1

            page.select_option("#f-agent", label="oracle")
            page.select_option("#f-task", label="quarterly-sync")
            page.locator("#episode-table tbody tr").first.click()
            page.wait_for_selector("#viewer #diff")
            assert "#ep/" in page.url
            diff = page.locator("#viewer #diff").inner_text()
            assert "calendar/Work/evt-1#start" in diff and "2026-03-12T23:00:00+08:00" in diff
            assert "Collateral changes · 0" in diff
            viewer = page.locator("#viewer").inner_text()
            assert "quarterly sync" in viewer and "Trajectory · 7 steps" in viewer and "calendar_update_event" in viewer

            page.go_back()
            page.wait_for_selector("#overview:not([hidden])")
            page.select_option("#f-agent", label="noop")
            page.locator("#episode-table tbody tr").first.click()
            page.wait_for_selector("#viewer #diff")
            viewer = page.locator("#viewer").inner_text()
            assert "nothing changed" in viewer and "incomplete" in viewer and "no tool calls" in viewer
        finally:
            browser.close()
    assert not problems
    assert requests and all(url.startswith("file:") for url in requests)


def test_the_viewer_interleaves_what_the_model_said_and_cuts_long_values():
    messages = [
        {"role": "system", "content": "..."},
        {"role": "user", "content": "Move the sync."},
        {
            "role": "assistant",
            "content": "Let me look.",
            "tool_calls": [{"function": {"name": "now", "arguments": ""}}],
        },
        {"role": "tool", "content": "{}"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Two calls, one of them broken."},
                {"type": "tool_use", "name": "mail_search", "input": {}},
            ],
        },
        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "now", "arguments": "{oops"}}]},
        {
            "role": "assistant",
            "content": "Then this.",
            "tool_calls": [{"function": {"name": "now", "arguments": "{}"}}],
        },
        {"role": "assistant", "content": "Done."},
    ]
    # the broken call never reached the tools, so "Then this." comes before the third step, not the fourth
    assert narration(messages) == {0: "Let me look.", 1: "Two calls, one of them broken.", 2: "Then this."}
    assert clip({"a": 1}) == {"a": 1} and clip("x" * 10) == "x" * 10
    long = clip({"text": "y" * 5000})
    assert isinstance(long, str) and long.startswith('{"text": "yyy') and long.endswith("more characters)")


def test_worker_processes_give_the_same_report(runs, monkeypatch):
    alone = build([runs])
    monkeypatch.setattr(report_build, "PARALLEL_FROM", 1)  # as for a big report: spawned workers
    shared = build([runs])
    assert shared.records == alone.records and shared.pages == alone.pages and shared.agents == alone.agents
