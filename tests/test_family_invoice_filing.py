"""invoice-filing on the real servers: the reference solution meets the quality bar, each planted lever's
near miss fails its own rubric item (an index written afresh, last December's invoice in this year's folder,
the cancelled invoice filed, a reminder doubled or ticked off, the paid invoice reminded again), and honest
variations (the cancelled invoice's reminder deleted and made anew, the index's columns reordered) pass."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families.invoice_filing import BILLS, FOLDER
from stageclaw.author.suite import world_objects
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "invoice-filing"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp("invoice-filing")
    draft = generate(FAMILY, 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def _year(draft: TaskDraft) -> int:
    return int(draft.now[:4])


def _bills(state: dict[str, Any]) -> list[dict[str, Any]]:
    return state["reminders"][BILLS]


def _moved_item(draft: TaskDraft, oracle: OracleRun):
    """The check of the invoice that replaces a cancelled one (its stale reminder is in Bills)."""
    bills = {r["uid"] for r in _bills(oracle.s0)}
    (item,) = [
        c for c in draft.checks if c.id.startswith("remind_") and c.args.get("stale") in bills and "_once" not in c.id
    ]
    return item


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len(task.rubric.items) >= 18
    assert len(oracle.trace["steps"]) >= 35
    assert world_objects(draft) >= 300
    assert {"mail", "files", "notes", "reminders"} <= {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert len(draft.provenance["levers"]) >= 10


def test_an_index_written_afresh_loses_the_earlier_rows(solved):
    draft, task, oracle = solved
    for label, year in (("this_year", _year(draft)), ("last_year", _year(draft) - 1)):
        path = f"{FOLDER}/{year}/index.csv"
        state = copy.deepcopy(oracle.sH)
        before = oracle.s0["files"][path]["text"].splitlines()
        kept = [line for line in state["files"][path]["text"].splitlines() if line not in before[1:]]
        state["files"][path]["text"] = "\n".join(kept) + "\n"
        assert f"index_{label}" in _failed(task, oracle, state)


def test_last_decembers_invoice_in_this_years_folder_fails(solved):
    draft, task, oracle = solved
    (december,) = [c for c in draft.checks if c.id.startswith("filed_") and f"/{_year(draft) - 1}/" in c.args["path"]]
    state = copy.deepcopy(oracle.sH)
    wrong = december.args["path"].replace(f"/{_year(draft) - 1}/", f"/{_year(draft)}/")
    state["files"][wrong] = state["files"].pop(december.args["path"])
    assert {december.id, "only_invoices_this_year", "only_invoices_last_year"} <= _failed(task, oracle, state)


def test_filing_the_cancelled_invoice_too_fails(solved):
    draft, task, oracle = solved
    stale = _moved_item(draft, oracle).args["stale"]
    cancelled = next(r for r in _bills(oracle.s0) if r["uid"] == stale)["title"].split()[-1]
    (download,) = [p for p in oracle.s0["files"] if p.startswith("Downloads/") and p.endswith(cancelled[-4:] + ".pdf")]
    state = copy.deepcopy(oracle.sH)
    state["files"][f"{FOLDER}/{_year(draft)}/cancelled {cancelled}.pdf"] = oracle.s0["files"][download]
    assert "only_invoices_this_year" in _failed(task, oracle, state)


def test_a_second_reminder_for_the_invoice_filed_before_fails(solved):
    draft, task, oracle = solved
    (item,) = [c for c in draft.checks if c.id.endswith("_once")]
    state = copy.deepcopy(oracle.sH)
    twin = next(r for r in _bills(state) if r["uid"] == item.args["stale"])
    _bills(state).append({**twin, "uid": "r-twin"})
    assert item.id in _failed(task, oracle, state)


def test_the_paid_invoice_reminded_again_fails(solved):
    draft, task, oracle = solved
    (item,) = [c for c in draft.checks if c.id.endswith("_paid")]
    paid = next(r for r in _bills(oracle.s0) if r.get("completed") and str(_year(draft)) in r["title"])
    state = copy.deepcopy(oracle.sH)
    _bills(state).append({"uid": "r-again", "title": paid["title"], "due": paid["due"], "completed": False})
    assert item.id in _failed(task, oracle, state)


def test_the_cancelled_invoices_reminder_ticked_off_or_left_fails(solved):
    draft, task, oracle = solved
    item = _moved_item(draft, oracle)
    old = next(r for r in _bills(oracle.s0) if r["uid"] == item.args["stale"])
    new = {"uid": "r-new", "title": f"Pay for {item.args['says']}", "due": item.args["due"], "completed": False}
    ticked = copy.deepcopy(oracle.sH)
    stale = next(r for r in _bills(ticked) if r["uid"] == item.args["stale"])
    stale.update(title=old["title"], due=old["due"], completed=True)
    _bills(ticked).append({**new, "title": old["title"].rsplit(" ", 1)[0] + " " + item.args["says"].replace("\\", "")})
    left = copy.deepcopy(ticked)
    next(r for r in _bills(left) if r["uid"] == item.args["stale"]).update(completed=False)
    for state in (ticked, left):
        assert item.id in _failed(task, oracle, state)


def test_honest_variations_pass(solved):
    draft, task, oracle = solved
    item = _moved_item(draft, oracle)
    state = copy.deepcopy(oracle.sH)
    moved = next(r for r in _bills(state) if r["uid"] == item.args["stale"])
    _bills(state).remove(moved)
    _bills(state).append({**moved, "uid": "r-made-anew", "notes": "replaces the cancelled invoice"})
    path = f"{FOLDER}/{_year(draft)}/index.csv"
    lines = [line.split(",") for line in state["files"][path]["text"].splitlines()]
    state["files"][path]["text"] = "\n".join(",".join([r[3], r[0], r[2], r[1]]) for r in lines) + "\n"
    state["files"][path].pop("sha256", None)
    assert not _failed(task, oracle, state)


def _own_items(draft: TaskDraft, oracle: OracleRun) -> list[tuple[Any, dict[str, Any], str]]:
    """(check, initial reminder, its list) of each of the user's own reminders outside Bills that a new invoice's
    reminder must absorb."""
    out = []
    for check in draft.checks:
        stale = check.args.get("stale") if check.id.startswith("remind_") else None
        for name, items in oracle.s0["reminders"].items():
            for item in items:
                if stale and name != BILLS and item["uid"] == stale:
                    out.append((check, item, name))
    return out


def test_the_users_own_reminders_are_planted_in_other_lists(solved):
    draft, _task, oracle = solved
    own = _own_items(draft, oracle)
    assert len(own) == 2
    assert {name for _, _, name in own} == {"Work", "Reminders"}
    for check, item, _ in own:
        assert "INV-" not in item["title"] and "Pay" not in item["title"]
        assert check.args["pattern"].strip("\\b").split("\\b")[0] in item["title"].replace("'", " ")
    assert sum(" L latent" in lever for lever in draft.provenance["levers"]) == 2


def test_the_users_own_reminder_left_beside_the_bills_one_fails(solved):
    draft, task, oracle = solved
    for check, item, name in _own_items(draft, oracle):
        state = copy.deepcopy(oracle.sH)
        moved = next(r for r in _bills(state) if r["uid"] == item["uid"])
        _bills(state).remove(moved)
        _bills(state).append({**moved, "uid": "r-fresh"})
        state["reminders"][name].append(copy.deepcopy(item))
        assert check.id in _failed(task, oracle, state), item["title"]


def test_the_users_own_reminder_fixed_but_left_in_its_list_fails(solved):
    draft, task, oracle = solved
    for check, item, name in _own_items(draft, oracle):
        state = copy.deepcopy(oracle.sH)
        moved = next(r for r in _bills(state) if r["uid"] == item["uid"])
        _bills(state).remove(moved)
        state["reminders"][name].append(moved)
        assert check.id in _failed(task, oracle, state), item["title"]


def test_the_users_own_reminder_deleted_and_made_anew_passes(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    for _, item, _ in _own_items(draft, oracle):
        moved = next(r for r in _bills(state) if r["uid"] == item["uid"])
        _bills(state).remove(moved)
        _bills(state).append({**moved, "uid": f"r-anew-{item['uid']}"})
    assert not _failed(task, oracle, state)
