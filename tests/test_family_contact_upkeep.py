"""contact-upkeep on the real servers: operator subsets are accepted by stage 2, the mistakes the
scenario invites (the switchboard, the namesake, a new contact for the alias, the old address, the
stand-in's number) are each rejected, and honest variations of the solved state still pass; so are the
levers' near misses: the old home dropped against the user's rule, the move that was taken back applied
(or its person told), the housewarming invitation's move missed."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.suite import world_objects
from stageclaw.grade.grader import COLLATERAL_ITEM, grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.world.canonical import bare_address

FAMILY = "contact-upkeep"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp("contact-upkeep")
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


def _contact(state: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(c for c in state["contacts"] if c["uid"] == uid)


def _namesake(draft: TaskDraft) -> str:
    job = _args(draft, "new_job")["uid"]
    pairs = [p.split(" ~ ") for p in draft.evidence["noisy_data"]["look_alikes"]]
    (path,) = [twin for twin, target in pairs if target == f"contacts/{job}"]
    return path.removeprefix("contacts/")


@pytest.mark.stage2
def test_subsets_of_the_operators_are_accepted_with_every_mutant_killed(pool, tmp_path):
    subsets = (["noisy_data"], ["entity_alignment", "cross_source_conflict"], ["hidden_dependency"], [])
    for operators in subsets:
        generate(FAMILY, 4, operators=operators).write(tmp_path)
    for report in validate_path(tmp_path, pool):
        assert report.score == 100, (report.task_id, [d.problem for d in report.diagnostics()])
        assert report.kill_rate == 1.0, (report.task_id, report.mutation["survivors"])
        assert report.mutation["total"] >= 10
        checks = report.dimensions["difficulty"].checks
        assert all(c.status == "pass" for c in checks if c.name.startswith("operator:")), report.task_id


def test_the_oracle_meets_the_quality_bar(solved):
    draft, task, oracle = solved
    assert len(task.rubric.items) >= 12
    assert len(oracle.trace["steps"]) >= 25
    assert world_objects(draft) >= 300
    assert {"mail", "contacts", "files"} <= {s["tool"].split("_")[0] for s in oracle.trace["steps"]}
    assert sorted(draft.operators) == sorted(draft.evidence)


def test_saving_the_switchboard_the_first_mail_gave_fails(solved):
    draft, task, oracle = solved
    args = _args(draft, "new_job_reach")
    switchboard = args["old_phone"][-1]
    for phones in ([switchboard], [args["phone"], switchboard]):
        state = copy.deepcopy(oracle.sH)
        _contact(state, args["uid"])["phones"] = phones
        assert "new_job_reach" in _failed(task, oracle, state)


def test_updating_the_namesake_fails(solved):
    draft, task, oracle = solved
    job = _contact(oracle.sH, _args(draft, "new_job")["uid"])
    state = copy.deepcopy(oracle.sH)
    _contact(state, _namesake(draft)).update({k: job[k] for k in ("emails", "phones", "organization", "title")})
    assert {"no_strays", COLLATERAL_ITEM} <= _failed(task, oracle, state)


def test_a_new_contact_for_the_name_they_sign_with_fails(solved):
    draft, task, oracle = solved
    alias = draft.evidence["entity_alignment"]["names"][1]
    state = copy.deepcopy(oracle.s0)
    state["mail"] = copy.deepcopy(oracle.sH["mail"])
    job = copy.deepcopy(_contact(oracle.sH, _args(draft, "new_job")["uid"]))
    state["contacts"].append({**job, "uid": "c-new", "name": alias})
    assert {"new_job", "new_job_reach", "no_strays"} <= _failed(task, oracle, state)


def test_a_note_to_an_old_address_fails(solved):
    draft, task, oracle = solved
    for item in ("new_job_reach", "club_member"):
        args = _args(draft, item)
        old = _contact(oracle.s0, args["uid"])["emails"][0]
        state = copy.deepcopy(oracle.sH)
        note = next(m for m in state["mail"]["outbox"] if args["email"] in map(bare_address, m["to"]))
        note["to"] = [old]
        assert "told_each" in _failed(task, oracle, state)


def test_saving_the_stand_in_from_the_auto_reply_fails(solved):
    _, task, oracle = solved
    away = next(m for m in oracle.s0["mail"]["folders"]["INBOX"] if m["subject"].startswith("Automatic reply"))
    state = copy.deepcopy(oracle.sH)
    colleague = next(c for c in state["contacts"] if bare_address(away["from"]) in c["emails"])
    colleague["phones"] = [*colleague["phones"], "+00 0000 0000"]
    assert {"no_strays", COLLATERAL_ITEM} <= _failed(task, oracle, state)


def test_honest_variations_pass(solved):
    draft, task, oracle = solved
    job, move = _args(draft, "new_job_reach"), _args(draft, "moved_address")
    state = copy.deepcopy(oracle.sH)
    saved = _contact(state, job["uid"])
    national = "0" + job["phone"].split(" ", 1)[1].replace(" ", "-")
    saved.update(
        emails=[*saved["emails"], draft.evidence["entity_alignment"]["addresses"][0]],  # the old one kept second
        phones=[national],
        organization=saved["organization"] + " Ltd",
        notes="Previously at the old company",
    )
    home = _contact(state, move["uid"])
    home["notes"] = home["notes"].replace(", ", "\n")
    for note in state["mail"]["outbox"]:
        note["body"] = note["body"].replace(job["phone"], national)
    assert _failed(task, oracle, state) == set()


def test_the_old_home_kept_as_history_must_be_the_old_home(solved):
    draft, task, oracle = solved
    move = _args(draft, "moved_address_2")
    old = _contact(oracle.s0, move["uid"])["notes"].removeprefix("Home: ")
    state = copy.deepcopy(oracle.sH)
    saved = _contact(state, move["uid"])
    saved["notes"] += f"\n(was {old})"
    assert _failed(task, oracle, state) == set()
    off = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), old, count=1)  # its house number one off
    saved["notes"] = saved["notes"].replace(f"(was {old})", f"(was {off})")
    assert "moved_address_2" in _failed(task, oracle, state)


def test_the_old_home_dropped_against_the_rule_fails(solved):
    draft, task, oracle = solved
    move = _args(draft, "moved_history")
    state = copy.deepcopy(oracle.sH)
    saved = _contact(state, move["uid"])
    saved["notes"] = saved["notes"].splitlines()[0]
    assert _failed(task, oracle, state) == {"moved_history"}


def test_the_move_taken_back_applied_or_told_fails(solved):
    draft, task, oracle = solved
    uid = _args(draft, "retracted_kept")["untouched"][0]
    before = _contact(oracle.s0, uid)
    state = copy.deepcopy(oracle.sH)
    _contact(state, uid)["phones"] = ["+00 0000 0001"]
    assert _failed(task, oracle, state) == {"retracted_kept", COLLATERAL_ITEM}
    state = copy.deepcopy(oracle.sH)
    note = copy.deepcopy(state["mail"]["outbox"][0])
    state["mail"]["outbox"].append({**note, "to": before["emails"], "message_id": "<retracted@x>"})
    assert "told_each" in _failed(task, oracle, state)


def test_the_move_in_the_housewarming_invitation_missed_fails(solved):
    draft, task, oracle = solved
    uid = _args(draft, "moved_address_3")["uid"]
    state = copy.deepcopy(oracle.sH)
    state["contacts"] = [c if c["uid"] != uid else _contact(oracle.s0, uid) for c in state["contacts"]]
    assert {"moved_address_3", "moved_number_3"} <= _failed(task, oracle, state)
