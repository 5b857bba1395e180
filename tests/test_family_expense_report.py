"""expense-report: each planted difficulty fails its own rubric item and nothing else of the table, and a
right report passes every item however its rows are laid out (stage 2 runs the alternatives in
tests/test_author_families.py); the report counts once it reaches the address the claims mailbox's automatic
reply names."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

SUBSETS = (None, [], ["noisy_data"], ["cross_source_conflict", "hidden_dependency"])


def _check(draft: TaskDraft, item: str):
    return next(c for c in draft.checks if c.id == item)


def _verdicts(draft: TaskDraft, final: dict[str, Any]) -> dict[str, bool]:
    table = ("csv_rows", "csv_entries", "sent_once")
    return {c.id: c.helper(final, **c.args)[0] for c in draft.checks if c.helper.__name__ in table}


def _rows(draft: TaskDraft) -> list[list[Any]]:
    """The rows the report wants, each dated by its last allowed day (the hotel: check-out)."""
    return [[d if isinstance(d, str) else d[-1], a] for d, a in _check(draft, "report_rows").args["rows"]]


def _final(draft: TaskDraft, rows: list[list[Any]], to: str | None = None, total_row: bool = False) -> dict[str, Any]:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "vendor", "category", "amount"])
    for n, (day, amount) in enumerate(rows):
        writer.writerow([day, f"Vendor {n}", "meals", f"{amount:.2f}"])
    if total_row:
        writer.writerow(["", "Total", "", f"{sum(a for _, a in rows):.2f}"])
    path = _check(draft, "report_rows").args["path"]
    sent = _check(draft, "sent_to_claims").args
    # Where the automatic reply sends it, with the claims mailbox that answered in copy.
    box, cc = (to, []) if to else (sent["to"][0], sent["tried"])
    message = {"to": [box], "cc": cc, "subject": "Expense report", "body": "", "attachments": [{"path": path}]}
    return {"files": {path: {"text": out.getvalue()}}, "mail": {"outbox": [message]}}


def _absent(draft: TaskDraft, item: str) -> list[list[Any]]:
    return [[d if isinstance(d, str) else d[0], a] for d, a, _ in _check(draft, item).args["absent"]]


@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("operators", SUBSETS)
def test_the_job_is_large_and_its_levers_are_recorded(seed, operators):
    draft = generate("expense-report", seed, operators=operators)
    assert len(_rows(draft)) >= 5
    assert len(_absent(draft, "tickets_not_again")) == 2 and len(_absent(draft, "company_card_left_off")) == 2
    levers = draft.provenance["levers"]
    assert {line.split(":")[0] for line in levers} == {c.id for c in draft.checks} & {
        "tickets_not_again",
        "company_card_left_off",
        "sent_to_claims",
        "trip_only_once",
        "hotel_amended",
        "own_report_merged",
        "own_reminder_done",
    }
    assert "Expenses/README.md" in draft.prompt and "claims@" not in draft.prompt
    # The company card's digits are in the README only, and on the receipts paid with it.
    readme = draft.files_out()[draft.files["Expenses/README.md"]["path"]].decode()
    digits = re.search(r"card ending (\d{4})", readme).group(1)
    inbox = [m["body"] for m in draft.mail["INBOX"] if f"•••• {digits}" in m["body"]]
    assert len(inbox) == 2 and digits not in draft.prompt


@pytest.mark.parametrize("seed", range(1, 4))
def test_a_right_report_passes_and_each_slip_fails_its_own_item(seed):
    draft = generate("expense-report", seed)
    rows = _rows(draft)
    assert all(_verdicts(draft, _final(draft, rows)).values())
    assert all(_verdicts(draft, _final(draft, list(reversed(rows)), total_row=True)).values())

    # The tickets claimed at booking, claimed again.
    verdicts = _verdicts(draft, _final(draft, rows + _absent(draft, "tickets_not_again")))
    assert not verdicts["tickets_not_again"] and not verdicts["report_rows"]
    assert verdicts["company_card_left_off"] and verdicts["hotel_amended"]

    # One receipt paid with the company card.
    verdicts = _verdicts(draft, _final(draft, rows + _absent(draft, "company_card_left_off")[:1]))
    assert not verdicts["company_card_left_off"] and verdicts["tickets_not_again"]

    # The hotel at the replaced invoice.
    hotel = _check(draft, "hotel_amended").args
    replaced = [hotel["absent"][0][0][-1], hotel["absent"][0][1]]
    amended = hotel["present"][0][1]
    swapped = [replaced if a == amended else [d, a] for d, a in rows]
    verdicts = _verdicts(draft, _final(draft, swapped))
    assert not verdicts["hotel_amended"] and verdicts["tickets_not_again"] and verdicts["company_card_left_off"]

    # The meal sent twice, counted twice; a personal ride outside the trip.
    twice = _check(draft, "trip_only_once").args["present"][0]
    verdicts = _verdicts(draft, _final(draft, [*rows, [twice[0][-1], twice[1]]]))
    assert not verdicts["trip_only_once"] and verdicts["hotel_amended"]
    verdicts = _verdicts(draft, _final(draft, rows + _absent(draft, "trip_only_once")[:1]))
    assert not verdicts["trip_only_once"]

    # To the finance person the README names, not to the claims mailbox they asked for.
    person = next(iter(_check(draft, "sent_to_claims").args["wrong"]))
    verdicts = _verdicts(draft, _final(draft, rows, to=person))
    assert not verdicts["sent_to_claims"] and verdicts["report_rows"]


@pytest.mark.parametrize("seed", range(1, 3))
def test_the_users_own_start_and_reminder_must_not_be_left(seed):
    draft = generate("expense-report", seed)
    started = _check(draft, "own_report_merged")
    (path,) = started.args["paths"]
    assert path in draft.files and path != _check(draft, "report_rows").args["path"]
    text = draft.files_out()[draft.files[path]["path"]].decode()
    assert text.startswith("date,vendor,category,amount") and len(text.splitlines()) >= 2
    final = _final(draft, _rows(draft))
    assert started.helper(final, **started.args)[0]  # moved to the report's path or deleted
    final["files"][path] = {"text": text}
    assert not started.helper(final, **started.args)[0]  # left beside the report

    done = _check(draft, "own_reminder_done")
    uid = done.args["uid"]
    ((lst, todo),) = [(n, r) for n, items in draft.reminders.items() for r in items if r["uid"] == uid]
    assert lst != "Bills" and "claim" not in todo["title"].lower() and "expense" not in todo["title"].lower()
    initial = {"reminders": {lst: [todo]}}
    assert not done.helper(initial, {"reminders": {lst: [todo]}}, **done.args)[0]  # left open
    later = {**todo, "due": "2099-01-01"}
    assert not done.helper(initial, {"reminders": {lst: [later]}}, **done.args)[0]  # put off, still open
    ticked = {**todo, "completed": True}
    assert done.helper(initial, {"reminders": {lst: [ticked]}}, **done.args)[0]  # ticked off
    assert done.helper(initial, {"reminders": {lst: []}}, **done.args)[0]  # deleted


@pytest.mark.parametrize("seed", (1, 2))
def test_the_readme_settles_the_users_own_start_and_their_reminder(seed):
    # blind play: the user's own start on the trip's CSV was left beside the report, and their reminder open;
    # "one CSV per trip" alone did not say the report takes its place
    draft = generate("expense-report", seed)
    readme = draft.assets[draft.files["Expenses/README.md"]["path"]].decode()
    assert "takes its place" in readme and "tick off my reminder" in readme


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp("expense-report")
    draft = generate("expense-report", 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def test_the_report_counts_once_it_reaches_the_address_the_automatic_reply_names(solved):
    draft, task, oracle = solved
    [reply] = draft.autoreplies
    assert reply["address"] == _check(draft, "sent_to_claims").args["tried"][0]
    end, failed = oracle.sH or {}, lambda state: _failed(task, oracle, state)
    # The report reaches the desk once (sent_once reads the subject only), carrying the CSV, and giving the total.
    redirect_is_graded(draft, end, failed, says=False, item_id="sent_to_claims")
    redirect_is_graded(draft, end, failed, says=False, item_id="report_attached")
    redirect_is_graded(draft, end, failed, says=True, item_id="total_in_mail")
