"""`stageclaw play`: episodes played by a scripted MCP client, through the shell client, and on the page in
Chromium; budgets; and that nothing of the task's hidden folder reaches the player before the finish."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp import Client
from typer.testing import CliRunner

from stageclaw.agents.factory import check_spec
from stageclaw.agents.play import PLAY_JSON
from stageclaw.cli import app
from stageclaw.errors import StageclawError
from stageclaw.report.build import build
from stageclaw.run import play
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from stageclaw.tools.audit import read
from tests.conftest import EXAMPLE
from tests.test_report_html import CHROMIUM, CHROMIUM_ARGS

CANARY = "CANARY-7c1e-hidden-only"


def _task(tmp_path: Path, *, canary: bool = False, **config: Any) -> Path:
    """A copy of the example task with other budgets, a page-breaking file and, if asked, a canary in every
    hidden file."""
    folder = tmp_path / "task" / EXAMPLE.name
    shutil.copytree(EXAMPLE, folder)
    toml = folder / "task.toml"
    text = toml.read_text()
    for key, value in config.items():
        text = re.sub(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
    toml.write_text(text)
    world = yaml.safe_load((folder / "world.yaml").read_text())
    world["files"]["docs/markup.html"] = {"text": "<img src=x onerror=\"document.title='pwned'\"><b>bold</b>\n"}
    (folder / "world.yaml").write_text(yaml.safe_dump(world, allow_unicode=True, sort_keys=False))
    if canary:
        for name in ("goal.md", "solution.py", "verify.py"):
            path = folder / "hidden" / name
            path.write_text(path.read_text() + f"\n# {CANARY}\n")
        rubric = folder / "hidden" / "rubric.toml"
        rubric.write_text(rubric.read_text().replace('description = "', f'description = "{CANARY} ', 1))
    return folder


@contextmanager
def _playing(
    task_dir: Path, out: Path, player: str = "bot", time_budget_s: float | None = None
) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """A play of `task_dir` in a thread: yields play.json's content and a box that gets its result and summary."""
    ready: queue.Queue[dict[str, Any] | None] = queue.Queue()
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"], box["summary"] = play.play(load_task(task_dir), out, player, ready.put, time_budget_s)
        except BaseException as exc:
            box["error"] = exc
            ready.put(None)

    thread = threading.Thread(target=target, name="test-play")
    thread.start()
    info = ready.get(timeout=120)
    assert info is not None, box.get("error")
    try:
        yield info, box
    finally:
        if thread.is_alive() and box.get("finished") is None:  # the test failed midway: end the play
            try:
                play.finish(out, "", wait_s=60)
            except StageclawError:
                pass
        thread.join(120)
        assert not thread.is_alive()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _post(url: str, data: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return json.loads(exc.read())


def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_play_names_are_checked_before_anything_starts():
    check_spec("play:alice.b-2")
    with pytest.raises(StageclawError, match="player name"):
        check_spec("play:two words")
    result = CliRunner().invoke(app, ["run", "--agent", "play:alice", "--tasks", str(EXAMPLE)])
    assert isinstance(result.exception, StageclawError) and "stageclaw play" in str(result.exception)


def test_a_scripted_player_solves_the_task_over_mcp_and_leaves_an_ordinary_run_directory(tmp_path):
    out = tmp_path / "run"

    async def solve(url: str) -> list[str]:
        async with Client(url) as tools:

            async def call(name: str, **args: Any) -> dict[str, Any]:
                result = await tools.call_tool(name, args)
                assert not result.is_error, result.content
                return result.structured_content

            listed = [t.name for t in (await tools.list_tools()).tools]
            found = (await call("mail_search", sender="priya"))["messages"][0]
            await call("mail_read", id=found["id"])
            events = (await call("calendar_list_events", start="2026-03-09", end="2026-03-15"))["events"]
            sync = next(e for e in events if e["summary"] == "Quarterly sync")
            await call("calendar_update_event", uid=sync["uid"], start="2026-03-12T23:00:00+08:00")
            body = "Done: moved to Thursday 12 March, 15:00 London time (23:00 Shanghai)."
            await call("mail_reply", id=found["id"], body=body)
            due = "2026-03-12T22:00:00+08:00"
            await call("reminders_create", title="Go through Priya's agenda", list="Inbox", due=due)
            return listed

    with _playing(EXAMPLE, out, "bot") as (info, box):
        assert info["max_steps"] == 40 and info["time_budget_s"] == 600
        assert info["user"] == {"name": "Lin Chen", "email": "lin.chen@example.com"}
        assert "Priya" in info["prompt"] and "Asia/Shanghai" in info["system"]
        listed = anyio.run(solve, info["mcp_url"])
        done = play.finish(out, "Moved the sync, replied to Priya, set the reminder.")
        box["finished"] = True
    assert "mail_send" in listed and "terminal_run" in listed
    result, summary = box["result"], box["summary"]
    assert done == result
    assert (result["agent"], result["status"], result["score"], result["success"]) == (
        "play:bot",
        "completed",
        100,
        True,
    )
    assert result["agent_config"] == {"player": "bot"} and summary["episodes"] == 1
    ep = out / "episodes" / "quarterly-sync__t1"
    trajectory = json.loads((ep / "trajectory.json").read_text())
    assert trajectory["final_answer"] == "Moved the sync, replied to Priya, set the reminder."
    assert [e["tool"] for e in read(ep / "audit.jsonl")][-3:] == [
        "calendar_update_event",
        "mail_reply",
        "reminders_create",
    ]
    report = build([out])
    assert report.agents[0]["agent"] == "play:bot" and report.agents[0]["success_rate"] == 1


def test_the_shell_client_lists_calls_and_finishes_a_play_started_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    env = {**os.environ, "COLUMNS": "200"}
    cmd = [sys.executable, "-m", "stageclaw", "play", str(EXAMPLE), "--out", str(out), "--player", "shell"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        announced = [proc.stdout.readline() for _ in range(3)]
        info = json.loads((out / PLAY_JSON).read_text())
        assert announced[0].startswith("quarterly-sync is ready for shell: at most 40 tool calls, 600 s")
        assert announced[1].split() == ["page", info["page_url"]] and announced[2].split() == ["MCP", info["mcp_url"]]
        assert urllib.parse.urlsplit(info["mcp_url"]).hostname == "127.0.0.1"

        listing = _cli("play", "--tools", str(out))
        assert listing.exit_code == 0
        assert "mail_send(to, subject, body, cc?, attachments?, in_reply_to?)" in listing.stdout
        assert "    · limit?: integer 1..200 - at most this many results per page" in listing.stdout
        only = _cli("play", "--tools", str(out), "now")
        assert only.stdout.splitlines()[0] == "now()" and "mail_send" not in only.stdout
        assert "no tool nope" in str(_cli_error("play", "--tools", str(out), "nope"))

        now = _cli("play", "--call", str(out), "now")
        assert now.exit_code == 0 and json.loads(now.stdout)["timezone"] == "Asia/Shanghai"
        search = _cli("play", "--call", str(out), "mail_search", '{"folder": "INBOX", "limit": 5}')
        assert search.exit_code == 0
        assert json.loads(search.stdout)["messages"][0]["subject"] == "Moving our quarterly sync"
        assert '  "messages": [' in search.stdout and '"to": ["Lin Chen <lin.chen@example.com>"]' in search.stdout
        refused = _cli("play", "--call", str(out), "calendar_get_event", '{"uid": "evt-404"}')
        assert refused.exit_code == 1 and refused.stderr.startswith("tool error: no event with uid 'evt-404'")
        assert "not JSON" in str(_cli_error("play", "--call", str(out), "now", "{oops"))
        assert "JSON object" in str(_cli_error("play", "--call", str(out), "now", "[1]"))

        finished = _cli("play", "--finish", str(out), "--answer", "Nothing moved yet.")
        assert finished.exit_code == 0
        assert finished.stdout.startswith("finished: score ") and "not a success (status completed, 3 tool calls)" in (
            finished.stdout
        )
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert "stageclaw run: play:shell" in stdout and "run directory:" in stdout
    [result] = read_results(out / "results.jsonl")
    assert (result["agent"], result["steps"], result["tool_errors"]) == ("play:shell", 3, 1)
    ended = str(_cli_error("play", "--call", str(out), "now"))
    assert "has ended; `stageclaw play --finish" in ended and "score" not in ended  # no grade before --finish
    assert "has ended: score" in str(_cli_error("play", "--finish", str(out)))


def _off_the_loop(fn: Any, *args: Any) -> Any:
    """`fn(*args)` on a thread of its own: Playwright's sync API keeps an event loop running on this one."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(fn(*args)))
    thread.start()
    thread.join(120)
    return box[0]


def _cli_error(*args: str) -> BaseException | None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code != 0
    return result.exception


def test_the_step_budget_refuses_calls_past_it_from_mcp_and_the_page(tmp_path):
    out = tmp_path / "run"

    async def three(url: str) -> list[Any]:
        async with Client(url) as tools:
            return [await tools.call_tool("now", {}) for _ in range(3)]

    with _playing(_task(tmp_path, max_steps=2), out) as (info, box):
        first, second, third = anyio.run(three, info["mcp_url"])
        page = _post(info["page_url"] + "api/call", {"tool": "now", "args": {}})
        log = json.loads(_get(info["page_url"] + "api/log")[1])
        play.finish(out, "out of steps")
        box["finished"] = True
    assert not first.is_error and not second.is_error
    assert third.is_error and "step budget spent" in third.content[0].text
    assert page == {"ok": False, "error": third.content[0].text.removeprefix("Error executing tool now: ")}
    assert (log["steps_used"], log["max_steps"], len(log["entries"])) == (2, 2, 2)
    result = box["result"]
    assert (result["status"], result["steps"], result["failure_mode"]) == ("max_steps", 2, "budget_exhausted")


def test_the_time_budget_ends_the_play_without_a_finish(tmp_path):
    out = tmp_path / "run"
    with _playing(_task(tmp_path, time_budget_s=3), out) as (info, box):
        assert _post(info["page_url"] + "api/call", {"tool": "now", "args": {}})["ok"]
        box["finished"] = False  # nobody finishes: the budget does
    result = box["result"]
    assert (result["status"], result["steps"], result["failure_mode"]) == ("timeout", 1, "budget_exhausted")
    assert "time budget of 3 s" in result["error"]


def test_a_time_budget_given_to_play_replaces_the_tasks(tmp_path):
    out = tmp_path / "run"
    with _playing(_task(tmp_path, time_budget_s=600), out, time_budget_s=3) as (info, box):
        assert info["time_budget_s"] == 3 and info["max_steps"] == 40  # the steps stay the task's
        box["finished"] = False
    result = box["result"]
    assert (result["status"], result["agent_config"]["time_budget_s"]) == ("timeout", 3)


def test_nothing_hidden_reaches_the_page_the_tools_play_json_or_the_run_directory_before_the_finish(tmp_path):
    out = tmp_path / "run"
    task_dir = _task(tmp_path, canary=True)
    secrets = [CANARY] + [
        line.strip()
        for path in sorted((task_dir / "hidden").rglob("*"))
        if path.is_file()
        for line in path.read_text().splitlines()
        if len(line.strip()) >= 25
    ]

    async def tool_list(url: str) -> str:
        async with Client(url) as tools:
            return json.dumps([t.model_dump(mode="json") for t in (await tools.list_tools()).tools])

    def leaks(text: str) -> list[str]:
        return [s for s in secrets if s in text]

    with _playing(task_dir, out) as (info, box):
        page_url = info["page_url"]
        assert _post(page_url + "api/call", {"tool": "files_read", "args": {"path": "docs/plan.md"}})["ok"]
        assert not _post(page_url + "api/call", {"tool": "files_read", "args": {"path": "nope.md"}})["ok"]
        seen = {
            "page": _get(page_url)[1],
            "brief": _get(page_url + "api/brief")[1],
            "log": _get(page_url + "api/log")[1],
            "tools": anyio.run(tool_list, info["mcp_url"]),
            **{str(p): p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()},
        }
        # The page's server answers only under its token, and serves no file of the task whatever the path.
        where = urllib.parse.urlsplit(page_url)
        token = where.path.strip("/")
        hidden_rel = os.path.relpath(task_dir / "hidden" / "goal.md", "/")
        probes = [
            "/",
            "/api/brief",
            f"/{token}x/api/brief",
            f"/{token}/../hidden/goal.md",
            f"/{token}/%2e%2e/%2e%2e/hidden/goal.md",
            f"/{token}/{hidden_rel}",
            f"/{token}/../../../../../../{hidden_rel}",
            f"/{token}/hidden/goal.md",
            f"/{token}/task.toml",
        ]
        answers = {}
        for path in probes:
            conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
            conn.request("GET", path)  # sent as written: no client-side normalization of `..`
            response = conn.getresponse()
            answers[path] = (response.status, response.read().decode(errors="replace"))
            conn.close()
        play.finish(out, "done")
        box["finished"] = True
    assert {k: leaks(v) for k, v in seen.items() if leaks(v)} == {}
    entries = json.loads(seen["log"])["entries"]  # what the page shows of the audit: no error kinds, no faults
    assert [e["ok"] for e in entries] == [True, False] and not any({"error_kind", "fault"} & set(e) for e in entries)
    assert {p: status for p, (status, _) in answers.items()} == dict.fromkeys(probes, 404)
    assert not any(leaks(body) for _, body in answers.values())
    # The detector works: after the finish, the grade (with the rubric's descriptions) is in the run directory.
    assert leaks((out / "episodes" / "quarterly-sync__t1" / "grade.json").read_text()) == [CANARY]


def test_the_page_in_chromium_shows_the_brief_calls_tools_from_forms_logs_every_call_and_finishes(tmp_path):
    assert CHROMIUM.exists(), "Debian's chromium is missing: run scripts/install --test"
    from playwright.sync_api import expect, sync_playwright

    out = tmp_path / "run"
    with _playing(_task(tmp_path), out, "human") as (info, box), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(info["page_url"])
            expect(page.locator("#prompt")).to_have_text(info["prompt"])
            expect(page.locator("#system")).to_contain_text("Lin Chen <lin.chen@example.com>")
            expect(page.locator("#max-steps")).to_have_text("40")
            assert page.locator("details.tool").count() == len(_off_the_loop(play.list_tools, out))

            # A form made from files_read's schema; the file's markup is shown as text, never run.
            page.locator("#tool-files_read summary").click()
            page.locator("#f-files_read-path").fill("docs/markup.html")
            page.locator("#tool-files_read button").click()
            expect(page.locator("#tool-files_read .out")).to_contain_text('<img src=x onerror=\\"document.title=')
            # Typed fields: an integer and a list of strings.
            page.locator("#tool-reminders_create summary").click()
            page.locator("#f-reminders_create-title").fill("Agenda prep")
            page.locator("#f-reminders_create-priority").fill("5")
            page.locator("#tool-reminders_create button").click()
            expect(page.locator("#tool-reminders_create .out")).to_contain_text('"uid"')
            page.locator("#tool-mail_send summary").click()
            page.locator("#f-mail_send-to").fill("priya@orbitals.io\n  wei@chen.family \n")
            page.locator("#f-mail_send-subject").fill("Sync")
            page.locator("#f-mail_send-body").fill("See you Thursday.")
            page.locator("#tool-mail_send button").click()
            expect(page.locator("#tool-mail_send .out")).to_contain_text("message_id")
            # A call from outside the page (the shell client) shows in its log too.
            assert _off_the_loop(_cli, "play", "--call", str(out), "now").exit_code == 0
            expect(page.locator("#log .entry")).to_have_count(4)
            expect(page.locator("#log .entry summary").first).to_contain_text("#4 now({})")
            expect(page.locator("#steps")).to_have_text("4")
            assert page.title() == "stageclaw play" and page.locator("#log img, .out img").count() == 0

            page.locator("#answer").fill("Sent Priya a note and set a reminder.")
            page.locator("#finish button").click()
            expect(page.locator("#ended")).to_contain_text("Finished")
            box["finished"] = True
        finally:
            browser.close()
    result = box["result"]
    assert (result["agent"], result["status"], result["steps"]) == ("play:human", "completed", 4)
    args = {e["tool"]: e["args"] for e in read(out / "episodes" / "quarterly-sync__t1" / "audit.jsonl")}
    assert args["reminders_create"] == {"title": "Agenda prep", "priority": 5}
    assert args["mail_send"] == {
        "to": ["priya@orbitals.io", "wei@chen.family"],
        "subject": "Sync",
        "body": "See you Thursday.",
    }
    trajectory = json.loads((out / "episodes" / "quarterly-sync__t1" / "trajectory.json").read_text())
    assert trajectory["final_answer"] == "Sent Priya a note and set a reminder."
