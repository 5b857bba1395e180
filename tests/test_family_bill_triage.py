"""bill-triage on the real servers, in Chinese and in English: the reference solution solves both, and the
levers' mistakes (a second reminder next to the user's own, ticking the user's reminder off, a reminder for
the bill paid after the bank export, the amount of the bill whose statement is attached) each fail the item
that grades them."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "bill-triage"


def _solve(pool, folder, locale: str) -> tuple[TaskDraft, Task, OracleRun]:
    draft = generate(FAMILY, 1, locale=locale)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    return _solve(pool, tmp_path_factory.mktemp("bill-triage-zh"), "zh")


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _lever(draft: TaskDraft, letter: str) -> str:
    """The rubric item of the lever line that starts with `letter` (D: the user's own reminder, E: the
    attached statement)."""
    return next(
        line.split(":")[0]
        for line in draft.provenance["levers"]
        if line.split(": ", 1)[1].startswith(letter) and line.endswith(("does", "doubled"))
    )


def test_the_oracle_meets_the_quality_bar(solved):
    draft, _, oracle = solved
    assert len(oracle.trace["steps"]) >= 35
    assert {"mail", "files", "reminders"} <= {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    world = oracle.s0 or {}
    objects = sum(len(m) for m in world["mail"]["folders"].values()) + len(world["contacts"])
    objects += sum(len(e) for e in world["calendar"].values()) + len(world["files"])
    assert objects >= 300
    assert {"paid_after_export", "no_paid_reminders"} <= {line.split(":")[0] for line in draft.provenance["levers"]}


def test_the_english_task_is_solved_too(pool, tmp_path):
    draft, _, _ = _solve(pool, tmp_path, "en")
    assert len(draft.provenance["levers"]) >= 4


def test_the_users_own_reminder_is_moved_not_doubled_or_ticked_off(solved):
    draft, task, oracle = solved
    item = _lever(draft, "D")
    stale = _args(draft, item)["stale"]
    lst = _args(draft, item)["lst"]
    state = copy.deepcopy(oracle.sH)
    todos = state["reminders"][lst]
    own = next(t for t in todos if t["uid"] == stale)
    before = next(t for t in oracle.s0["reminders"][lst] if t["uid"] == stale)
    todos.append({**own, "uid": "a-second-one"})
    own.update(title=before["title"], due=before["due"])
    assert item in _failed(task, oracle, state)  # left as it was, with a new one next to it
    own.update(completed=True, completed_at=f"{own['due']}T09:00:00")
    assert item in _failed(task, oracle, state)  # ticked off: it says the bill is paid
    todos.remove(own)
    assert item not in _failed(task, oracle, state)  # deleted and replaced: fine


def test_a_reminder_for_the_bill_paid_after_the_export_fails(solved):
    draft, task, oracle = solved
    pattern = _args(draft, "paid_after_export")["pattern"]
    check = next(c for c in draft.checks if c.id == "paid_after_export")
    payee = next(b["payee"] for b in draft.facts["bills"] if b["payee"] in check.description)
    state = copy.deepcopy(oracle.sH)
    lst = draft.facts["list"]
    state["reminders"][lst].append(
        {"uid": "paid-one", "title": f"缴{payee}费用", "due": "2026-12-01", "completed": False, "notes": ""}
    )
    failed = _failed(task, oracle, state)
    assert {"paid_after_export", "no_paid_reminders"} <= failed, (pattern, failed)


def test_the_attached_bills_amount_is_checked(solved):
    draft, task, oracle = solved
    item = _lever(draft, "E")
    args = _args(draft, item)
    state = copy.deepcopy(oracle.sH)
    todo = next(
        t
        for t in state["reminders"][args["lst"]]
        if not t.get("completed") and re.search(args["pattern"], t["title"], re.IGNORECASE)
    )
    keyword = next(b["keyword"] for b in draft.facts["bills"] if re.search(args["pattern"], b["title"]))
    todo.update(title=f"交{keyword}", notes="")  # the bill, without its amount
    assert item in _failed(task, oracle, state)


def _own_item(draft: TaskDraft) -> str:
    """The rubric item of the bill the user jotted a reminder for in their general list."""
    return next(
        line.split(":")[0] for line in draft.provenance["levers"] if "D disguised" in line and "_reminder" in line
    )


def test_the_users_jotted_reminder_in_another_list_is_moved_not_left(solved):
    draft, task, oracle = solved
    item = _own_item(draft)
    args = _args(draft, item)
    general = next(
        name for name, todos in oracle.s0["reminders"].items() if any(t["uid"] == args["stale"] for t in todos)
    )
    assert general != args["lst"]
    before = next(t for t in oracle.s0["reminders"][general] if t["uid"] == args["stale"])
    assert re.search(r"\d", before["title"]) and not re.search(r"账单|bill|reminder", before["title"], re.IGNORECASE)
    moved = next(t for t in oracle.sH["reminders"][args["lst"]] if t["uid"] == args["stale"])
    state = copy.deepcopy(oracle.sH)
    state["reminders"][args["lst"]].remove(moved)
    state["reminders"][general].append(before)
    state["reminders"][args["lst"]].append({**moved, "uid": "a-new-one"})
    assert item in _failed(task, oracle, state)  # a new one in Bills, the user's own left open in the other list
    state["reminders"][general].remove(before)
    assert not _failed(task, oracle, state)  # deleted and made again: fine
    state["reminders"][args["lst"]][-1]["title"] = before["title"]
    assert item in _failed(task, oracle, state)  # still the first mail's amount


def test_the_users_reminder_for_a_paid_bill_is_closed_either_way(solved):
    draft, task, oracle = solved
    uid = _args(draft, "paid_reminder_closed")["uid"]
    general, before = next(
        (name, t) for name, todos in oracle.s0["reminders"].items() for t in todos if t["uid"] == uid
    )
    assert all(t["uid"] != uid for todos in oracle.sH["reminders"].values() for t in todos)  # the oracle deletes it
    state = copy.deepcopy(oracle.sH)
    state["reminders"][general].append(copy.deepcopy(before))
    assert {"paid_reminder_closed"} <= _failed(task, oracle, state)  # left open
    state["reminders"][general][-1].update(completed=True, completed_at=f"{before['due']}T09:00:00+08:00")
    failed = _failed(task, oracle, state)
    assert not failed  # ticked off: fine
