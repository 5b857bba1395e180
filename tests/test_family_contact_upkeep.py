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


# -- the user's own items that the job makes stale (echoes) and the look-alikes that are not (decoys) ----------

ECHOES = ("echo_card", "echo_card_list", "echo_games", "echo_weekend", "echo_weekend_2")


def _where(state: dict[str, Any], app: str, uid: str) -> tuple[str, int]:
    return next((name, n) for name, items in state[app].items() for n, item in enumerate(items) if item["uid"] == uid)


def _stale(draft: TaskDraft, oracle: OracleRun, item: str) -> dict[str, Any]:
    """sH with the user's item that `item` grades as it was at the start."""
    args, state = _args(draft, item), copy.deepcopy(oracle.sH)
    if args["app"] == "files":
        state["files"][args["uid"]] = copy.deepcopy(oracle.s0["files"][args["uid"]])
    else:
        name, n = _where(state, args["app"], args["uid"])
        state[args["app"]][name][n] = copy.deepcopy(
            next(i for i in oracle.s0[args["app"]][name] if i["uid"] == args["uid"])
        )
    return state


def _doubled(draft: TaskDraft, oracle: OracleRun, item: str) -> dict[str, Any]:
    """sH with the old item (or, for a line of a list, the old line) left beside the updated one."""
    args, state = _args(draft, item), copy.deepcopy(oracle.sH)
    if args.get("lines"):
        app, uid = args["app"], args["uid"]
        before = (
            oracle.s0["files"][uid]["text"]
            if app == "files"
            else next(i for _, items in oracle.s0[app].items() for i in items if i["uid"] == uid)["body"]
        )
        old = next(line for line in before.splitlines() if re.search(args["about"], line, re.I))
        if app == "files":
            state["files"][uid]["text"] += old + "\n"
        else:
            name, n = _where(state, app, uid)
            state[app][name][n]["body"] += "\n" + old
        return state
    name, _ = _where(oracle.s0, args["app"], args["uid"])
    old = copy.deepcopy(next(i for i in oracle.s0[args["app"]][name] if i["uid"] == args["uid"]))
    state[args["app"]][name].append({**old, "uid": old["uid"] + "-again"})
    return state


@pytest.mark.parametrize("item", ECHOES)
def test_each_echo_left_stale_fails_its_item(solved, item):
    draft, task, oracle = solved
    assert item in _failed(task, oracle, _stale(draft, oracle, item))


@pytest.mark.parametrize("item", ECHOES)
def test_each_echo_doubled_fails_its_item(solved, item):
    draft, task, oracle = solved
    assert item in _failed(task, oracle, _doubled(draft, oracle, item))


def test_the_echoes_made_again_must_keep_their_day_and_place(solved):
    draft, task, oracle = solved
    card = _args(draft, "echo_card")
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "reminders", card["uid"])
    todo = state["reminders"][name].pop(n)
    state["reminders"][name].append({**todo, "uid": "r-again"})  # deleted and made again: fine
    assert "echo_card" not in _failed(task, oracle, state)
    state["reminders"][name][-1]["due"] = None  # made again without its day
    assert "echo_card" in _failed(task, oracle, state)
    games = _args(draft, "echo_games")
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "calendar", games["uid"])
    event = state["calendar"][name].pop(n)
    state["calendar"][name].append({**event, "uid": "evt-again"})
    assert "echo_games" not in _failed(task, oracle, state)
    state["calendar"][name][-1]["start"] = state["calendar"][name][-1]["start"].replace("T19:30", "T18:30")
    assert "echo_games" in _failed(task, oracle, state)


def test_a_ticked_off_card_reminder_fails(solved):
    draft, task, oracle = solved
    card = _args(draft, "echo_card")
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "reminders", card["uid"])
    state["reminders"][name][n]["completed"] = True
    assert "echo_card" in _failed(task, oracle, state)


def test_the_retracted_friends_card_line_moved_fails(solved):
    draft, task, oracle = solved
    decoy = _args(draft, "decoy_card_list")
    line = decoy["lines"][0]
    announced = next(c.description for c in draft.checks if c.id == "decoy_card_list").split("not ")[-1]
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "notes", decoy["uid"])
    note = state["notes"][name][n]
    moved = line.split(": ")[0] + ": " + announced
    note["body"] = note["body"].replace(line, moved)
    assert _failed(task, oracle, state) == {"decoy_card_list"}
    note["body"] = note["body"].replace(moved, "")
    assert _failed(task, oracle, state) == {"decoy_card_list"}


def test_last_years_cards_or_the_past_evening_touched_fails(solved):
    draft, task, oracle = solved
    moved = _args(draft, "echo_card_list")
    last = _args(draft, "decoy_last_year")
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "notes", last["uid"])
    note = state["notes"][name][n]
    old = next(line for line in note["body"].splitlines() if re.search(moved["about"], line))
    new = (
        next(c.description for c in draft.checks if c.id == "echo_card_list")
        .split("new home, ")[1]
        .split(", on her")[0]
    )
    note["body"] = note["body"].replace(old, old.split(", ")[0] + ", " + new + " ✓")
    assert {"decoy_last_year", COLLATERAL_ITEM} <= _failed(task, oracle, state)
    state = copy.deepcopy(oracle.sH)
    del state["notes"][name][n]
    assert {"decoy_last_year", COLLATERAL_ITEM} <= _failed(task, oracle, state)
    dinner = _args(draft, "decoy_dinner")["uids"][0]
    games = _args(draft, "echo_games")
    state = copy.deepcopy(oracle.sH)
    name, n = _where(state, "calendar", dinner)
    state["calendar"][name][n]["location"] = next(e for e in state["calendar"][name] if e["uid"] == games["uid"])[
        "location"
    ]
    assert {"decoy_dinner", COLLATERAL_ITEM} <= _failed(task, oracle, state)


def test_a_line_beside_the_echo_changed_fails(solved):
    draft, task, oracle = solved
    weekend = _args(draft, "echo_weekend")
    state = copy.deepcopy(oracle.sH)
    kept = weekend["keep"][-1]
    sheet = state["files"][weekend["uid"]]
    sheet["text"] = sheet["text"].replace(kept, kept.replace("@", " at "))
    assert {"echo_weekend", "echo_weekend_2"} <= _failed(task, oracle, state)


@pytest.mark.parametrize("name", ["notes_first", "read_all_reply"])
def test_the_alternatives_pass_with_the_echoes_made_again_or_kept_as_history(solved, pool, tmp_path, name):
    draft, task, _ = solved
    run = run_oracle(task, pool, tmp_path / name, agent=f"oracle:{name}")
    result = grade(task, run.s0 or {}, run.sH or {}, run.trace or {})
    assert all(i.passed is not False for i in result.items), [i.id for i in result.items if i.passed is False]
    card = _args(draft, "echo_card")["uid"]
    remade = all(t["uid"] != card for items in run.sH["reminders"].values() for t in items)
    assert remade == (name == "notes_first")
