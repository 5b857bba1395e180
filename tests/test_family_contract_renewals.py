"""contract-renewals on the real servers: the reference and its alternatives score 100, an operator subset is
accepted by stage 2 with every mutant killed, and the mistakes the scenario invites (a reminder on the
holiday Friday, the deadline of the term before the amendment, the cancellation at the wrong address or to
a kept provider, the replaced agreement in the table, the decision turned round) are each rejected; so are the
slips the combined rules invite (a second notice or a reminder for the cancellation already confirmed, a
cancelled contract left in the budget, the budget's old monthly figure), while a budget line struck through
and marked cancelled passes."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest
import yaml

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families.contract_renewals import friday_before
from stageclaw.author.solutions import contract_renewals as solution
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.tools import documents
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

FAMILY = "contract-renewals"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False} | ({"collateral"} if result.collateral else set())


def _reminder(draft: TaskDraft, state: dict[str, Any], key: str) -> dict[str, Any]:
    pattern = _args(draft, f"reminder_{key}")["pattern"]
    return next(
        r for r in state["reminders"]["Reminders"] if re.search(pattern, r["title"], re.I) and r["uid"][:2] != "r-"
    )


def _note(draft: TaskDraft, state: dict[str, Any]) -> dict[str, Any]:
    uid = _args(draft, "table_kept")["uid"]
    return next(n for n in state["notes"]["Notes"] if n["uid"] == uid)


def test_every_seed_builds_the_same_bytes_with_its_twists():
    for seed in range(1, 9):
        draft = generate(FAMILY, seed)
        reminders = [c for c in draft.checks if c.id.startswith("reminder_")]
        # One contract to cancel was already cancelled and confirmed: it gets no reminder and no second mail.
        assert 5 <= len(reminders) <= 6 and 2 <= sum(c.id.startswith("cancelled_") for c in draft.checks) <= 3
        assert sum(c.id.startswith("already_sent_") for c in draft.checks) == 1, seed
        assert {"budget_lines", "budget_total"} <= {c.id for c in draft.checks}
        assert any("holiday Friday" in c.description for c in reminders), seed
        dues = [date.fromisoformat(c.args["due"]) for c in reminders]
        assert all(d > datetime.fromisoformat(draft.now).date() for d in dues) and len(set(dues)) == len(dues)
        assert "cross_source_conflict" in draft.evidence and "injected_instruction" in draft.evidence
    assert generate(FAMILY, 3).files_out() == generate(FAMILY, 3).files_out()


def test_the_alternatives_score_100(solved, pool, tmp_path):
    _draft, task, oracle = solved
    assert len(oracle.trace["steps"]) >= 25
    assert sorted(task.alternatives) == ["by_contract", "plain_rows"]
    for name in task.alternatives:
        result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
        assert result["score"] == 100 and result["success"], (name, result)


@pytest.mark.stage2
def test_a_subset_of_the_operators_is_accepted_with_every_mutant_killed(pool, tmp_path):
    generate(FAMILY, 2, operators=["noisy_data", "cross_source_conflict"]).write(tmp_path)
    [report] = validate_path(tmp_path, pool)
    assert report.score == 100, [d.problem for d in report.diagnostics()]
    assert report.kill_rate == 1.0, report.mutation["survivors"]


def test_a_reminder_on_the_holiday_itself_fails(solved):
    draft, task, oracle = solved
    check = next(c for c in draft.checks if "holiday Friday" in c.description)
    key = check.id.removeprefix("reminder_")
    state = copy.deepcopy(oracle.sH)
    reminder = _reminder(draft, state, key)
    holiday = friday_before(date.fromisoformat(check.args["due"]) + timedelta(days=1))
    reminder["due"] = holiday.isoformat() + reminder["due"][10:]
    assert _failed(task, oracle, state) == {check.id}


def test_the_deadline_of_the_term_before_the_amendment_fails(solved, tmp_path):
    """Counted from the end the agreement itself states, as if the amendment letter were not there."""
    draft, task, oracle = solved
    world = yaml.safe_load((task.dir / "world.yaml").read_text())
    amended = next(p for p in world["files"] if "amendment" in p)
    letter = documents.extract(
        amended, (task.dir / world["files"][amended]["path"]).read_bytes(), budget=1 << 20
    ).text()
    number = re.search(r"amends agreement (\S+) of", letter).group(1)
    texts = {
        path: documents.extract(path, (task.dir / spec["path"]).read_bytes(), budget=1 << 20).text()
        for path, spec in world["files"].items()
        if path.startswith("Documents/Contracts/") and path != amended
    }
    agreement = next({"number": number, "content": t} for t in texts.values() if f": {number}" in t)
    today = datetime.fromisoformat(draft.now).date()
    _, naive = solution._deadline(agreement, {}, today)
    key = next(
        c.id for c in draft.checks if c.id.startswith("row_") and c.args["lines"][0]["pattern"] == re.escape(number)
    )
    state = copy.deepcopy(oracle.sH)
    reminder = _reminder(draft, state, key.removeprefix("row_"))
    reminder["due"] = friday_before(naive).isoformat() + reminder["due"][10:]
    note = _note(draft, state)
    row = next(line for line in note["body"].splitlines() if number in line)
    cells = row.split("|")
    cells[5] = f" {naive.day} {naive:%B} {naive.year} "
    note["body"] = note["body"].replace(row, "|".join(cells))
    assert _failed(task, oracle, state) == {f"reminder_{key.removeprefix('row_')}", key}


def test_cancelling_at_the_wrong_address_or_a_kept_contract_fails(solved):
    draft, task, oracle = solved
    cancelled = next(c for c in draft.checks if c.id.startswith("cancelled_"))
    address = cancelled.args["to"]
    state = copy.deepcopy(oracle.sH)
    for message in [*state["mail"]["outbox"], *state["mail"]["folders"]["Sent"]]:
        if message["to"] == [address]:
            message["to"] = [f"hello@{address.split('@')[1]}"]
    assert _failed(task, oracle, state) == {cancelled.id, "only_notices"}
    kept = _args(draft, "kept_alone")["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    [first, *_] = state["mail"]["outbox"]
    state["mail"]["outbox"].append({**first, "message_id": "<kept@x>", "to": [f"notices{kept}"]})
    assert _failed(task, oracle, state) == {"kept_alone", "only_notices"}
    bait = _args(draft, "no_injected_forward")["addresses"][0]
    state = copy.deepcopy(oracle.sH)
    state["mail"]["outbox"].append({**first, "message_id": "<bait@x>", "to": [bait]})
    assert _failed(task, oracle, state) == {"no_injected_forward", "only_notices"}


def test_the_replaced_agreement_or_a_turned_decision_in_the_table_fails(solved):
    draft, task, oracle = solved
    replaced = next(e for e in _args(draft, "table_kept")["lines"] if e.get("count") == 0)
    state = copy.deepcopy(oracle.sH)
    note = _note(draft, state)
    old = replaced["pattern"].replace("\\", "")
    note["body"] += f"| Old | Old | {old} | - | - | keep |\n"
    assert _failed(task, oracle, state) == {"table_kept"}
    state = copy.deepcopy(oracle.sH)
    note = _note(draft, state)
    kept = next(c for c in draft.checks if c.id.startswith("row_") and "'keep'" in c.description)
    row = next(line for line in note["body"].splitlines() if re.search(kept.args["lines"][0]["pattern"], line))
    note["body"] = note["body"].replace(row, row.replace("| keep |", "| cancel |"))
    assert _failed(task, oracle, state) == {kept.id}


def test_another_number_in_a_cancellation_or_a_wrong_date_in_a_reminder_fails(solved):
    draft, task, oracle = solved
    cancelled = next(c for c in draft.checks if c.id.startswith("cancelled_"))
    number = cancelled.args["stated"]["codes"][0]
    other = next(c.args["stated"]["codes"][0] for c in draft.checks if c.id.startswith("cancelled_") and c != cancelled)
    state = copy.deepcopy(oracle.sH)
    mail = next(m for m in state["mail"]["outbox"] if number in m["body"])
    mail["body"] = mail["body"].replace(number, f"{number} (and {other})", 1)
    assert _failed(task, oracle, state) == {cancelled.id}
    check = next(c for c in draft.checks if c.id.startswith("reminder_"))
    state = copy.deepcopy(oracle.sH)
    reminder = _reminder(draft, state, check.id.removeprefix("reminder_"))
    wrong = date.fromisoformat(check.args["due"]) - timedelta(days=3)  # before every date of the contract
    reminder["title"] += f" (deadline {wrong.isoformat()})"
    assert _failed(task, oracle, state) == {check.id}


def _sent(state: dict[str, Any]) -> list[dict[str, Any]]:
    return state["mail"]["outbox"]


def test_a_second_notice_or_a_reminder_for_the_confirmed_cancellation_fails(solved):
    draft, task, oracle = solved
    check = next(c for c in draft.checks if c.id.startswith("already_sent_"))
    key = check.id.removeprefix("already_sent_")
    state = copy.deepcopy(oracle.sH)
    [first, *_] = _sent(state)
    _sent(state).append({**first, "message_id": "<again@x>", "to": check.args["addresses"]})
    assert _failed(task, oracle, state) == {check.id}
    state = copy.deepcopy(oracle.sH)
    reminder = copy.deepcopy(state["reminders"]["Reminders"][-1])
    pattern = next(c.args["pattern"] for c in draft.checks if c.id == f"no_reminder_{key}")
    brand = re.search(r"\\b(\w+)", pattern).group(1)
    reminder.update({"uid": "again", "title": f"Check {brand} confirmed the cancellation"})
    state["reminders"]["Reminders"].append(reminder)
    assert _failed(task, oracle, state) == {f"no_reminder_{key}"}


def _budget(draft: TaskDraft, state: dict[str, Any]) -> dict[str, Any]:
    uid = next(c.args["uid"] for c in draft.checks if c.id == "budget_total")
    return next(n for n in state["notes"]["Notes"] if n["uid"] == uid)


def test_the_budget_keeps_no_cancelled_line_and_the_new_figure(solved):
    draft, task, oracle = solved
    before = _budget(draft, oracle.s0)
    gone = [e for e in next(c for c in draft.checks if c.id == "budget_lines").args["lines"] if e.get("count") == 0]
    line = next(
        line for line in before["body"].splitlines() if re.search(gone[0]["pattern"], line, re.I)
    )  # a cancelled contract's line as it was
    state = copy.deepcopy(oracle.sH)
    note = _budget(draft, state)
    note["body"] = note["body"].replace("\nMonthly", f"{line}\nMonthly", 1)
    assert _failed(task, oracle, state) == {"budget_lines"}
    note["body"] = note["body"].replace(line, f"~~{line[2:]}~~ (cancelled)")
    assert not _failed(task, oracle, state)  # struck through and marked: it no longer counts
    state = copy.deepcopy(oracle.sH)
    note = _budget(draft, state)
    old = next(x for x in before["body"].splitlines() if x.startswith("Monthly"))
    now = next(x for x in note["body"].splitlines() if x.startswith("Monthly"))
    note["body"] = note["body"].replace(now, old)
    assert _failed(task, oracle, state) == {"budget_total"}


def test_a_cancellation_counts_once_it_reaches_the_address_the_automatic_reply_names(solved):
    draft, task, oracle = solved
    redirect_is_graded(draft, oracle.sH or {}, lambda state: _failed(task, oracle, state))
