"""project-tracker: the plan-note checks accept an honest update written in another style and reject
the near misses an agent makes (a stale date left in, the new job ticked off, a finished job left open)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.content.text import MONTHS
from stageclaw.author.draft import Check
from stageclaw.author.solutions.project_tracker import DAY

SEEDS = (1, 2, 4, 7)  # a kitchen, a bathroom (in the US: month first) and gardens


def _verdict(check: Check, body: str) -> bool:
    note = {"uid": check.args["uid"], "title": check.args["label"], "body": body}
    passed, _ = check.helper({"notes": {check.args["folder"]: [note]}}, **check.args)
    return passed


def _spelled(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]}"


def _task(seed: int) -> tuple[dict[str, Check], list[str], dict[str, date], dict[str, Any], date]:
    draft = generate("project-tracker", seed)
    checks = {c.id: c for c in draft.checks}
    plan = next(n for n in draft.notes["Notes"] if n["uid"] == checks["note_dates"].args["uid"])
    moves = {c.args["pattern"]: date.fromisoformat(c.args["due"]) for c in draft.checks if c.id.endswith("_moved")}
    new, *jobs = checks["note_ticked"].args["entries"]
    assert new["done"] is False and any(job["done"] for job in jobs)
    return checks, plan["body"].split("\n"), moves, new, date.fromisoformat(checks["choice_reminder"].args["due"])


def _updated(
    seed: int, *, tick: str = "✅", stale: bool = False, new_done: bool = False, both: bool = False
) -> tuple[dict, str]:
    """The plan as an agent might update it: ticks as marks, dates spelled out, the new job without a box;
    with `stale` the old date kept as history ("(was Mon 2 Mar)"), with `both` kept as if it still held."""
    checks, lines, moves, new, by = _task(seed)
    jobs = checks["note_ticked"].args["entries"][1:]
    out = ["Updated after this week's mails."]
    for line in lines:
        job = next((j for j in jobs if re.search(j["pattern"], line, re.IGNORECASE)), None)
        if job is not None and job["done"] and "[ ]" in line:
            line = line.replace("[ ]", tick)
        for pattern, when in moves.items():
            if re.search(pattern, line, re.IGNORECASE):
                old = re.search(DAY, line).group(0)
                line = line.replace(old, _spelled(when) + (f" (was {old})" if stale else f" / {old}" if both else ""))
        out.append(line)
    out.append(f"- {'[x] ' if new_done else ''}{new['label'].capitalize()} – me – by {_spelled(by)}")
    return checks, "\n".join(out)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_update_in_another_style_passes(seed):
    checks, body = _updated(seed)
    assert _verdict(checks["note_ticked"], body)
    assert _verdict(checks["note_dates"], body)
    checks, body = _updated(seed, stale=True)  # the old date kept as history: "Fri 6 March (was Mon 2 Mar)"
    assert _verdict(checks["note_ticked"], body) and _verdict(checks["note_dates"], body)
    checks, body = _updated(seed, tick="[X]")
    assert _verdict(checks["note_ticked"], body) and _verdict(checks["note_dates"], body)


@pytest.mark.parametrize("seed", SEEDS)
def test_near_misses_fail(seed):
    checks, body = _updated(seed, both=True)  # the old date given as if it still held
    assert _verdict(checks["note_ticked"], body) and not _verdict(checks["note_dates"], body)
    checks, body = _updated(seed, new_done=True)
    assert not _verdict(checks["note_ticked"], body)
    checks, body = _updated(seed, tick="[ ]")  # the finished jobs left open
    assert not _verdict(checks["note_ticked"], body) and _verdict(checks["note_dates"], body)
    _, lines, _, _, _ = _task(seed)
    assert not _verdict(checks["note_dates"], "\n".join(lines))  # nothing updated


def test_each_operator_changes_the_task():
    base = generate("project-tracker", 4, operators=[])
    assert {c.id for c in base.checks} >= {"choice_reminder", "only_these"} and len(base.checks) >= 5
    assert "note_dates" not in {c.id for c in base.checks}
    waits = generate("project-tracker", 4, operators=["hidden_dependency"])
    assert len([c for c in waits.checks if c.id.endswith("_moved")]) == 2
    assert "working days after" in waits.facts["follows"]["rule"]
    aliased = generate("project-tracker", 4, operators=["entity_alignment"])
    writer = aliased.facts["done"][1]
    sender = next(m for m in aliased.mail["INBOX"] if m["subject"] == writer["subject"])
    contact = next(c for c in aliased.contacts if c["name"].endswith(writer["surname"]))
    assert sender["from"].split("<")[1].rstrip(">") not in contact["emails"]
