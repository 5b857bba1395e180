"""project-tracker: the plan-note checks accept an honest update written in another style and reject
the near misses an agent makes (a stale date left in, the new job ticked off, a finished job left open)."""

from __future__ import annotations

import copy
import re
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.content.text import MONTHS
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.solutions.project_tracker import DAY

SEEDS = (1, 2, 4, 7)  # a kitchen, a bathroom (in the US: month first) and gardens


def _verdict(check: Check, body: str) -> bool:
    note = {"uid": check.args["uid"], "title": check.args["label"], "body": body}
    passed, _ = check.helper({"notes": {check.args["folder"]: [note]}}, **check.args)
    return passed


def _spelled(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]}"


@cache
def _draft(seed: int) -> TaskDraft:
    """The task at `seed`, built once: a world of a few hundred objects takes seconds to draw."""
    return generate("project-tracker", seed)


def _task(seed: int) -> tuple[dict[str, Check], list[str], dict[str, date], list[tuple[dict[str, Any], date]]]:
    draft = _draft(seed)
    checks = {c.id: c for c in draft.checks}
    plan = next(n for n in draft.notes["Notes"] if n["uid"] == checks["note_dates"].args["uid"])
    moves = {c.args["pattern"]: date.fromisoformat(c.args["due"]) for c in draft.checks if c.id.endswith("_moved")}
    news = checks["note_ticked"].args["entries"][:2]  # the two things the user has to choose
    jobs = checks["note_ticked"].args["entries"][2:]
    assert not any(new["done"] for new in news) and any(job["done"] for job in jobs)
    dues = [date.fromisoformat(checks[item].args["due"]) for item in ("choice_reminder", "choice2_reminder")]
    return checks, plan["body"].split("\n"), moves, list(zip(news, dues, strict=True))


def _updated(
    seed: int, *, tick: str = "✅", stale: bool = False, new_done: bool = False, both: bool = False
) -> tuple[dict, str]:
    """The plan as an agent might update it: ticks as marks, dates spelled out, the new job without a box;
    with `stale` the old date kept as history ("(was Mon 2 Mar)"), with `both` kept as if it still held."""
    checks, lines, moves, news = _task(seed)
    jobs = checks["note_ticked"].args["entries"][2:]
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
    for new, by in news:
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
    _, lines, _, _ = _task(seed)
    assert not _verdict(checks["note_dates"], "\n".join(lines))  # nothing updated
    checks, body = _updated(seed, stale=True)  # the history gives a date the job never had
    kept = date.fromisoformat(next(e["was"][0] for e in checks["note_dates"].args["entries"] if "was" in e))
    old = re.search(r"\(was ([^)]+)\)", body).group(1)
    assert not _verdict(checks["note_dates"], body.replace(old, _spelled(kept + timedelta(days=1))))


def _reminder(check: Check, title: str) -> bool:
    todo = {"uid": "new", "title": title, "due": check.args["due"], "completed": False}
    passed, _ = check.helper({"reminders": {}}, {"reminders": {check.args["lst"]: [todo]}}, **check.args)
    return passed


@pytest.mark.parametrize("seed", SEEDS)
def test_a_date_written_in_the_new_reminder_must_be_its_due_day(seed):
    checks, *_ = _task(seed)
    check = checks["choice_reminder"]
    label, due = check.args["label"].capitalize(), date.fromisoformat(check.args["due"])
    assert _reminder(check, label) and _reminder(check, f"{label} (by {due.isoformat()})")
    assert not _reminder(check, f"{label} (by {(due + timedelta(days=1)).isoformat()})")


def test_each_operator_changes_the_task():
    base = generate("project-tracker", 4, operators=[])
    assert {c.id for c in base.checks} >= {"choice_reminder", "choice2_reminder", "only_these"}
    assert len(base.checks) >= 8
    assert "note_dates" not in {c.id for c in base.checks}
    waits = generate("project-tracker", 4, operators=["hidden_dependency"])
    assert len([c for c in waits.checks if c.id.endswith("_moved")]) == 3
    assert "working days after" in waits.facts["follows"]["rule"]
    aliased = generate("project-tracker", 4, operators=["entity_alignment"])
    writer = aliased.facts["done"][1]
    sender = next(m for m in aliased.mail["INBOX"] if m["subject"] == writer["subject"])
    contact = next(c for c in aliased.contacts if c["name"].endswith(writer["surname"]))
    assert sender["from"].split("<")[1].rstrip(">") not in contact["emails"]


def test_the_story_sits_in_a_full_life_that_never_names_the_trades():
    draft = _draft(1)
    world = len(draft.contacts) + len(draft.files)
    world += sum(
        len(items) for app in (draft.mail, draft.calendar, draft.reminders, draft.notes) for items in app.values()
    )
    assert world >= 300
    f = draft.facts
    surnames = [job["surname"] for job in [*f["done"], f["delay"], f["sheet"], *f["asks"], f["confirmed"]]]
    mentions = [m for m in draft.mail["INBOX"] if any(s in f"{m['from']} {m['body']}" for s in surnames)]
    assert len(mentions) <= 8  # the trades' own mails (the late one twice) and nothing else
    assert draft.mail["INBOX"] == sorted(draft.mail["INBOX"], key=lambda m: datetime.fromisoformat(m["date"]))


def _state(draft: TaskDraft) -> dict[str, Any]:
    return copy.deepcopy({"reminders": draft.reminders, "calendar": draft.calendar})


@pytest.mark.parametrize("seed", (1, 2))
def test_the_users_own_undated_reminder_is_given_the_date_not_doubled(seed):
    draft = _draft(seed)
    check = {c.id: c for c in draft.checks}["choice_reminder"]
    s0, args = _state(draft), check.args
    mine = next(t for t in s0["reminders"][args["lst"]] if t["uid"] == args["stale"])
    assert "due" not in mine and re.search(args["pattern"], mine["title"], re.IGNORECASE)
    dated = _state(draft)
    next(t for t in dated["reminders"][args["lst"]] if t["uid"] == args["stale"])["due"] = args["due"]
    assert check.helper(s0, dated, **args)[0]
    doubled = _state(draft)  # a new reminder beside the user's own, which stays undated
    doubled["reminders"][args["lst"]].append({"uid": "new", "title": args["label"].capitalize(), "due": args["due"]})
    assert not check.helper(s0, doubled, **args)[0]
    replaced = _state(draft)  # deleted and made again: one reminder, fine
    replaced["reminders"][args["lst"]] = [t for t in replaced["reminders"][args["lst"]] if t["uid"] != args["stale"]]
    replaced["reminders"][args["lst"]].append({"uid": "new", "title": args["label"].capitalize(), "due": args["due"]})
    assert check.helper(s0, replaced, **args)[0]


@pytest.mark.parametrize("seed", (1, 2))
def test_a_trades_day_in_the_calendar_is_moved_not_doubled(seed):
    draft = _draft(seed)
    days = [c for c in draft.checks if c.id.endswith("_day")]
    assert len(days) >= 2
    for check in days:
        args = check.args
        event = next(e for e in draft.calendar[args["calendar"]] if re.search(args["pattern"], e["summary"], re.I))
        moved = _state(draft)
        mine = next(e for e in moved["calendar"][args["calendar"]] if e["uid"] == event["uid"])
        mine.update(start=args["start"], end=args["end"])
        assert check.helper(_state(draft), moved, **args)[0]
        doubled = _state(draft)  # a new event on the new day, the old one left where it was
        doubled["calendar"][args["calendar"]].append(
            {**event, "uid": "new", "start": args["start"], "end": args["end"]}
        )
        assert not check.helper(_state(draft), doubled, **args)[0]
        assert not check.helper(_state(draft), _state(draft), **args)[0]  # not moved at all


@pytest.mark.parametrize("seed", (1, 2))
def test_the_job_sheets_day_is_only_in_the_attachment(seed):
    draft = _draft(seed)
    sheet = draft.facts["sheet"]
    message = next(m for m in draft.mail["INBOX"] if m["subject"] == sheet["subject"])
    assert message["attachments"] and sheet["says"] not in message["body"]
    check = next(c for c in draft.checks if c.id.endswith("_moved") and c.args["pattern"] == sheet["pattern"])
    assert check.args["due"] == sheet["date"]
    todo = next(t for t in draft.reminders[check.args["lst"]] if t["uid"] == check.args["stale"])
    assert todo["due"] != sheet["date"]  # left on the plan's day, the reminder fails
    assert not check.helper(_state(draft), _state(draft), **check.args)[0]
    levers = "\n".join(draft.provenance["levers"])
    for item in ("choice_reminder", "choice2_reminder", check.id, check.id.replace("_moved", "_day")):
        assert f"{item}: " in levers
    assert len(draft.alternatives) >= 2


@pytest.mark.parametrize("seed", (1, 2))
def test_the_job_sheet_gives_the_hour_the_calendar_keeps(seed):
    # blind play: the sheet said "from 8am" beside a calendar day from 08:30, and the check kept 08:30
    draft = _draft(seed)
    sheet = draft.facts["sheet"]
    message = next(m for m in draft.mail["INBOX"] if m["subject"] == sheet["subject"])
    text = draft.assets[message["attachments"][0]["path"]].decode("latin-1")
    check = next(c for c in draft.checks if c.id.endswith("_day") and c.args["pattern"] == sheet["pattern"])
    start = datetime.fromisoformat(check.args["start"])
    hour = f"{start.hour % 12 or 12}" + (f":{start.minute:02d}" if start.minute else "")
    assert f"from {hour}{'am' if start.hour < 12 else 'pm'}" in text
