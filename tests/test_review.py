"""The human audit: `stageclaw review` pages in Chromium (everything the audit looks at, the verdict form),
sign-offs that go stale when the task changes, the review status in validate and a suite that requires it."""

from __future__ import annotations

import json
import shutil
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stageclaw.author import generate
from stageclaw.author import suite as suites
from stageclaw.cli import app
from stageclaw.review import ReviewServer
from stageclaw.task.review import review_status, sign
from stageclaw.validate import validate_path
from tests.conftest import EXAMPLE
from tests.test_report_html import CHROMIUM, CHROMIUM_ARGS

PLAY = {
    "task_id": "quarterly-sync",
    "player": "blind-1",
    "date": "2026-11-30",
    "score": 80,
    "success": False,
    "steps": 9,
    "failures": [{"item": "prep_reminder", "category": "own_mistake", "note": "set it for 23:00"}],
}


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    shutil.copytree(EXAMPLE, folder / EXAMPLE.name)
    (folder / "playtests.jsonl").write_text(json.dumps(PLAY) + "\n", encoding="utf-8")
    return folder


def test_the_review_page_shows_the_audit_and_records_the_verdict_in_chromium(pool, suite, tmp_path):
    assert CHROMIUM.exists(), "Debian's chromium is missing: run scripts/install --test"
    from playwright.sync_api import sync_playwright

    task = suite / EXAMPLE.name
    server = ReviewServer(suite, tmp_path / "validation", pool)
    server.start()
    problems: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.on("pageerror", lambda e: problems.append(str(e)))
                page.goto(server.url)
                assert page.locator(".review-status").inner_text() == "unreviewed"
                page.click("text=quarterly-sync")  # the first visit validates the task
                page.wait_for_selector("#verdict-form")
                text = page.locator("body").inner_text()
                for heading in (
                    "Prompt",
                    "World",
                    "Goal",
                    "Rubric and verifier",
                    "Reference solution",
                    "Mutants",
                    "Alternative solutions",
                    "Difficulty evidence",
                    "Realism findings",
                    "Playtests",
                ):
                    assert heading in text, heading
                assert "Priya emailed asking to move our quarterly sync" in text
                page.locator(".section-rubric details").first.click()  # each item's verifier, folded
                assert "def check_moved(initial, final, trace):" in page.locator(".verifier").first.inner_text()
                assert "calendar/Work/evt-1#start" in page.locator("#diff").inner_text()
                assert "calendar_update_event" in page.locator("#trajectory").inner_text()
                mutants = page.locator(".section-mutants tbody tr").all_inner_texts()
                assert len(mutants) >= 20 and all("survived" not in row for row in mutants)
                alternatives = page.locator(".section-alternatives").inner_text()
                assert "new_message" in alternatives and "read_all" in alternatives and "REJECTED" not in alternatives
                assert "operator:cross_tool_consistency" in page.locator(".section-difficulty").inner_text()
                assert "no tell-tale details" in page.locator(".section-realism").inner_text()
                assert "blind-1" in page.locator(".section-playtests").inner_text()
                assert "set it for 23:00" in page.locator(".section-playtests").inner_text()

                # The world, app by app: the calendar's events show when its button is pressed.
                assert not page.locator('section.app[data-app="calendar"]').is_visible()
                page.click('nav.apps button[data-app="calendar"]')
                assert "Quarterly sync" in page.locator('section.app[data-app="calendar"]').inner_text()

                page.fill('input[name="reviewer"]', "Ana Ruiz")
                page.check('input[value="accept"]')
                page.fill('textarea[name="notes"]', "clear prompt; checks grade the outcome")
                page.click("text=Record the verdict")
                page.wait_for_selector("#review-status")
                assert page.locator("#review-status").inner_text() == "accepted"
                assert "Ana Ruiz" in page.locator(".section-verdict").inner_text()
            finally:
                browser.close()
    finally:
        server.close()
    assert not problems, problems
    saved = tomllib.loads((task / "review.toml").read_text(encoding="utf-8"))
    assert saved["reviewer"] == "Ana Ruiz" and saved["verdict"] == "accept" and saved["notes"].startswith("clear")
    assert review_status(task).accepted and saved["task_hash"] == review_status(task).signoff.task_hash


def test_the_verdict_form_needs_the_page_token(pool, suite, tmp_path):
    server = ReviewServer(suite, tmp_path / "validation", pool)
    server.start()
    try:
        forged = urllib.request.Request(
            f"{server.url}task/quarterly-sync/review",
            data=b"token=guess&reviewer=x&verdict=accept",
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(forged, timeout=30)
        assert refused.value.code == 403
        with pytest.raises(urllib.error.HTTPError) as hidden:
            urllib.request.urlopen(server.url.replace(server.token, "not-the-token"), timeout=30)
        assert hidden.value.code == 404
    finally:
        server.close()
    assert review_status(suite / EXAMPLE.name).status == "unreviewed"


def test_a_sign_off_goes_stale_when_any_file_of_the_task_changes(suite):
    task = suite / EXAMPLE.name
    result = CliRunner().invoke(
        app, ["review", "--sign", str(task), "--reviewer", "Ana", "--verdict", "accept", "--notes", "fine"]
    )
    assert result.exit_code == 0 and "accepted" in result.output
    assert review_status(task).status == "accepted"
    (task / "hidden" / "goal.md").write_text("# Goal\n\nsomething else\n", encoding="utf-8")
    assert review_status(task).status == "stale"
    sign(task, "Ana", "needs_work", "the goal changed")
    assert review_status(task).status == "needs work"
    bad = CliRunner().invoke(app, ["review", "--sign", str(task), "--reviewer", "Ana", "--verdict", "maybe"])
    assert bad.exit_code != 0 and "accept, needs_work, reject" in str(bad.exception)


def test_validate_shows_the_review_status_and_a_suite_may_require_an_accept(pool, tmp_path):
    folder = tmp_path / "suite"
    (folder / "suite.toml").parent.mkdir(parents=True)
    (folder / "suite.toml").write_text(
        'name = "small"\ntitle = "One task"\n[rules]\nrequire_review = true\n'
        '[[task]]\nfamily = "invoice-filing"\nseed = 1\noperators = []\n',
        encoding="utf-8",
    )
    built = suites.build(suites.load_manifest(folder / "suite.toml"))
    suites.write(built, folder)
    [task] = [folder / d.id for d in built.drafts]
    [report] = validate_path(folder, pool)
    assert report.score == 100 and report.human_review == {"status": "unreviewed"} and not report.accepted
    assert any(d.check == "review_required" for d in report.diagnostics())
    sign(task, "Ana", "accept")
    [report] = validate_path(folder, pool)
    assert report.accepted and report.human_review["status"] == "accepted"
    # Building the suite again keeps the sign-off, and it stays valid: the bytes are the same.
    suites.write(suites.build(suites.load_manifest(folder / "suite.toml")), folder)
    assert review_status(task).status == "accepted"
    assert suites.differences(built, folder) == []
    generate("invoice-filing", 1, operators=[]).write(tmp_path / "other")  # a task outside the suite
    [outside] = validate_path(tmp_path / "other", pool)
    assert outside.accepted and not outside.review_required
