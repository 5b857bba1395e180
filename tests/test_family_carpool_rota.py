"""carpool-rota on the real servers: stage 2 accepts it with every mutant killed; another rota that keeps the
rules passes (the checks grade the rules, not one answer); and the mistakes the story invites (a run on the
INSET day, a driver on their day off or on the weekday they took back, three runs in a week, the partner who
answered invited instead of the driver, a note or a mail that disagrees with the calendar) are each rejected."""

from __future__ import annotations

import copy
import json
from datetime import date
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle

FAMILY = "carpool-rota"


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 2)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False} | ({"collateral"} if result.collateral else set())


def _runs(oracle: OracleRun, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Day -> the run the solution made for it."""
    old = {e["uid"] for e in oracle.s0["calendar"]["Family"]}
    return {e["start"][:10]: e for e in state["calendar"]["Family"] if e["uid"] not in old}


def _drivers(draft: TaskDraft) -> dict[str, list[str]]:
    return next(c.args["drivers"] for c in draft.checks if c.id.startswith("run_"))


def test_seeds_build_a_world_with_a_rota_the_same_way_each_time():
    for seed in range(20, 26):
        draft = generate(FAMILY, seed)
        objects = sum(
            len(v) for app in (draft.mail, draft.calendar, draft.reminders, draft.notes) for v in app.values()
        )
        assert objects + len(draft.contacts) + len(draft.files) >= 300
        assert len([c for c in draft.checks if c.id.startswith("run_")]) >= 12
        assert not set(draft.facts["closures"]) & set(draft.facts["school"])
    assert generate(FAMILY, 21).files_out() == generate(FAMILY, 21).files_out()


@pytest.mark.stage2
def test_stage_two_accepts_a_subset_with_every_mutant_killed(pool, tmp_path):
    generate(FAMILY, 4, operators=["entity_alignment", "temporal_reasoning"]).write(tmp_path)
    [report] = validate_path(tmp_path, pool)
    assert report.score == 100, [d.problem for d in report.diagnostics()]
    assert report.kill_rate == 1.0, report.mutation["survivors"]


def test_another_rota_and_the_other_ways_pass(pool, solved, tmp_path):
    draft, task, oracle = solved
    made = {}
    for name in sorted(draft.alternatives):
        result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
        assert result["score"] == 100, (name, [i for i in result["items"] if i["passed"] is False])
        made[name] = tmp_path / name
    # The alternative's rota is not the reference's: the checks grade the rules, not one answer.
    other = json.loads((made["another_rota"] / "sH.json").read_text())
    ours = {d: e["attendees"] for d, e in _runs(oracle, oracle.sH).items()}
    theirs = {d: e["attendees"] for d, e in _runs(oracle, other).items()}
    assert ours.keys() == theirs.keys() and ours != theirs


def test_a_run_on_the_closure_fails(solved):
    draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    closed = draft.facts["closures"][0]
    run = next(iter(_runs(oracle, state).values()))
    state["calendar"]["Family"].append(
        {**run, "uid": "extra", "start": closed + run["start"][10:], "end": closed + run["end"][10:]}
    )
    assert f"no_run_{closed[5:7]}{closed[8:]}" in _failed(task, oracle, state)


def test_a_driver_on_a_day_they_cannot_do_fails(solved):
    """Each family's exception and the weekday a later mail took back are days they cannot drive."""
    draft, task, oracle = solved
    drivers = _drivers(draft)
    state = copy.deepcopy(oracle.sH)
    runs = _runs(oracle, state)
    day, run = sorted(runs.items())[0]
    cannot = next(a for a, days in drivers.items() if day not in days)
    run["attendees"] = [f"<{cannot}>"] if cannot != draft.user["email"] else []
    assert f"run_{day[5:7]}{day[8:]}" in _failed(task, oracle, state)


def test_three_runs_in_a_week_fails(solved):
    draft, task, oracle = solved
    drivers = _drivers(draft)
    state = copy.deepcopy(oracle.sH)
    runs = _runs(oracle, state)
    # Someone who can do three days of one week gets all three.
    weeks: dict[tuple[str, int], list[str]] = {}
    for person, days in drivers.items():
        for d in days:
            weeks.setdefault((person, date.fromisoformat(d).isocalendar()[1]), []).append(d)
    found = next(((p, ds) for (p, _), ds in sorted(weeks.items()) if len(ds) >= 3), None)
    if found is None:
        pytest.skip("nobody can do three days of a week in this world")
    who, three = found
    for d in three[:3]:
        runs[d]["attendees"] = [] if who == draft.user["email"] else [who]
    assert "fair_shares" in _failed(task, oracle, state)


def test_inviting_the_partner_who_answered_fails(solved):
    draft, task, oracle = solved
    driver, partner = draft.evidence["entity_alignment"]["addresses"]
    state = copy.deepcopy(oracle.sH)
    runs = [r for r in _runs(oracle, state).values() if any(driver in a for a in r["attendees"])]
    for run in runs:
        run["attendees"] = [partner]
    assert {f"run_{r['start'][5:7]}{r['start'][8:10]}" for r in runs} <= _failed(task, oracle, state)


def test_a_note_or_a_mail_that_disagrees_with_the_calendar_fails(solved):
    _, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    runs = _runs(oracle, state)
    a = sorted(runs)[0]
    b = next(d for d in sorted(runs) if runs[d]["attendees"] != runs[a]["attendees"])
    runs[a]["attendees"], runs[b]["attendees"] = runs[b]["attendees"], runs[a]["attendees"]
    failed = _failed(task, oracle, state)
    assert {"rota_in_note", "rota_sent"} <= failed
