"""action-items: the story sits in a world of some 400 objects that never looks like it, and the summary note's
check accepts an honest note in another style (and in the Work folder) but rejects one that gives an item a
wrong date (another item's, a day off), whether or not the task asks for the items in the note. The
reminders follow the user's rules note; each lever's slip fails its own item."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.grade.collateral import allowed

FAMILY = "action-items"
CASES = ((1, None), (1, ["cross_source_conflict", "hidden_dependency"]), (3, ["noisy_data", "cross_tool_consistency"]))


def _objects(draft: TaskDraft) -> int:
    groups = (draft.mail, draft.calendar, draft.reminders, draft.notes)
    return sum(len(v) for g in groups for v in g.values()) + len(draft.contacts) + len(draft.files)


def _items(draft: TaskDraft) -> list[tuple[dict[str, Any], list[date]]]:
    """Each item the user owns (title, pattern) with the due dates its check accepts."""
    checks = {c.id: c for c in draft.checks}
    out = []
    for item in draft.facts["items"]:
        due = checks[f"{item['key']}_reminder"].args["due"]
        out.append((item, [date.fromisoformat(d) for d in ([due] if isinstance(due, str) else due)]))
    return out


def _passes(check: Check, body: str, folder: str = "Notes") -> bool:
    note = {"uid": "new-note", "title": "Decisions and my to-dos", "body": body}
    passed, _ = check.helper({"notes": {}}, {"notes": {folder: [note]}}, **check.args)
    return passed


def _note(draft: TaskDraft, dated: dict[str, date], *, iso: bool = False) -> str:
    lines = ["Decided:", *(f"* {d}" for d in draft.facts["decisions"]), "", "My items:"]
    for item, dues in _items(draft):
        when = dated.get(item["key"], dues[0])
        shown = when.isoformat() if iso else f"{when:%a} {when.day} {when:%B}"
        lines.append(f"* {item['title']} – {shown}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module", params=CASES, ids=lambda case: f"seed{case[0]}-{'+'.join(case[1] or ['all'])}")
def draft(request) -> TaskDraft:
    seed, operators = request.param
    return generate(FAMILY, seed, operators=operators)


def test_the_story_sits_in_a_life_that_never_looks_like_it(draft):
    assert _objects(draft) >= 300
    patterns = [item["pattern"] for item, _ in _items(draft)]
    story = {c.args.get("stale") for c in draft.checks}
    for lst, todos in draft.reminders.items():
        for todo in todos:
            if todo["uid"] not in story and lst == draft.facts["list"]:
                assert not any(re.search(p, todo["title"], re.I) for p in patterns), todo["title"]
    event = draft.facts["event"].lower()
    named = [e["summary"] for es in draft.calendar.values() for e in es if event in e["summary"].lower()]
    assert len([s for s in named if "planning" not in s]) <= 2, named  # the event and its cancelled old dates


def test_an_honest_note_passes_in_any_style(draft):
    check = next(c for c in draft.checks if c.id == "summary_note")
    assert _passes(check, _note(draft, {}))
    assert _passes(check, _note(draft, {}, iso=True))


def test_an_item_with_a_wrong_date_fails(draft):
    check = next(c for c in draft.checks if c.id == "summary_note")
    (first, first_dues), (_, second_dues), *_ = _items(draft)
    if second_dues[0] not in first_dues:  # another item's date
        assert not _passes(check, _note(draft, {first["key"]: second_dues[0]}, iso=True))
    for shift in (1, -1):  # a day off
        off = first_dues[0] + timedelta(days=shift)
        if off not in first_dues:
            assert not _passes(check, _note(draft, {first["key"]: off}))


def test_the_note_may_go_in_a_work_folder(draft):
    """A blind player filed the summary in a new "Work" folder; the request names no folder, so it passes,
    and the new note there is no collateral change."""
    check = next(c for c in draft.checks if c.id == "summary_note")
    assert _passes(check, _note(draft, {}), folder="Work")
    assert allowed({"op": "added", "path": "notes/Work/new-note"}, draft.allow)
    assert not allowed({"op": "removed", "path": "notes/Work/new-note"}, draft.allow)


def _reminders(draft: TaskDraft, dues: dict[str, str] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(initial, final) reminders: each item's check satisfied as the reference does it (its pre-existing
    reminder moved or left, else a new one), with `dues` overriding an item's day."""
    checks = {c.id: c for c in draft.checks}
    initial = {"reminders": {k: [dict(t) for t in v] for k, v in draft.reminders.items()}}
    final = {"reminders": {k: [dict(t) for t in v] for k, v in draft.reminders.items()}}
    work = final["reminders"][draft.facts["list"]]
    for item, days in _items(draft):
        due = (dues or {}).get(item["key"], days[0].isoformat())
        there = checks[f"{item['key']}_reminder"].args["stale"]
        todo = next((t for t in work if t["uid"] == there), None)
        if todo is None:
            work.append({"uid": f"new-{item['key']}", "title": item["title"], "due": due, "completed": False})
        else:
            todo["due"] = due
    return initial, final


def _failing(draft: TaskDraft, initial: dict[str, Any], final: dict[str, Any]) -> set[str]:
    """The reminder checks that fail on (initial, final)."""
    ids = ("only_my_items", "not_the_namesakes_item")
    checks = [c for c in draft.checks if c.args.get("lst") or c.id in ids]
    return {c.id for c in checks if not c.helper(initial, final, **c.args)[0]}


def test_the_reminders_as_the_rules_say_pass_and_each_slip_fails(draft):
    """Items due by the user's rules pass; a supplier's reminder on the deadline itself, an item left on a
    weekend, the day before the event moved off its weekend, a second copy of the item already set up and a
    reminder for the namesake's item each fail."""
    assert _failing(draft, *_reminders(draft)) == set()
    checks = {c.id: c for c in draft.checks}
    rules = {i["key"]: i["rule"] for i in draft.facts["items"]}
    if draft.facts["rules_note"]:
        deadline = re.search(r"deadline (\d{4}-\d\d-\d\d)", checks["deposit_reminder"].description).group(1)
        assert _failing(draft, *_reminders(draft, {"deposit": deadline})) == {"deposit_reminder"}
        for item, days in _items(draft):
            if rules[item["key"]] == "day_before" and days[0].weekday() >= 5:  # the exception
                friday = days[0] - timedelta(days=days[0].weekday() - 4)
                assert f"{item['key']}_reminder" in _failing(
                    draft, *_reminders(draft, {item["key"]: friday.isoformat()})
                )
            elif days[0].weekday() == 4 and rules[item["key"]] != "this_friday":
                for weekend in (1, 2):  # the weekend rule ignored
                    late = (days[0] + timedelta(days=weekend)).isoformat()
                    assert f"{item['key']}_reminder" in _failing(draft, *_reminders(draft, {item["key"]: late}))
    latent = next(c for c in draft.checks if c.args.get("stale", "") and "set-up" in c.args["stale"])
    initial, final = _reminders(draft)
    title = next(i["title"] for i in draft.facts["items"] if f"{i['key']}_reminder" == latent.id)
    due = latent.args["due"] if isinstance(latent.args["due"], str) else latent.args["due"][0]
    final["reminders"][draft.facts["list"]].append({"uid": "again", "title": title, "due": due, "completed": False})
    assert latent.id in _failing(draft, initial, final)
    if "not_the_namesakes_item" in checks:
        initial, final = _reminders(draft)
        theirs = checks["not_the_namesakes_item"].description.split("No reminder to ")[1].split(":")[0]
        final["reminders"][draft.facts["list"]].append({"uid": "x", "title": theirs, "due": due, "completed": False})
        assert {"not_the_namesakes_item", "only_my_items"} <= _failing(draft, initial, final)


def test_a_work_summary_in_the_home_folder_fails(draft):
    check = next(c for c in draft.checks if c.id == "summary_note")
    assert "Home" in draft.notes
    assert not _passes(check, _note(draft, {}), folder="Home")


def test_the_prep_block_moves_with_the_event(draft):
    """Rule 5: the block to prepare moves with the event (in place or as a new event); left on the old day,
    kept beside its copy, or an hour out, it fails."""
    check = next((c for c in draft.checks if c.id == "prep_block"), None)
    if check is None:
        assert not (draft.facts["prep"] and draft.facts["rules_note"])
        return
    initial = {"calendar": {k: [dict(e) for e in v] for k, v in draft.calendar.items()}}

    def verdict(*changes: dict[str, Any]) -> bool:
        final = {"calendar": {k: [dict(e) for e in v] for k, v in draft.calendar.items()}}
        work = final["calendar"][check.args["calendar"]]
        block = next(e for e in work if e["summary"] == draft.facts["prep"])
        for change in changes:
            if change.get("uid"):
                work.append({**block, **change})
            else:
                block.update(change)
        return check.helper(initial, final, **check.args)[0]

    moved = {"start": check.args["start"], "end": check.args["end"]}
    assert verdict(moved)
    assert verdict({**moved, "summary": "Prep for the booth (moved)"})
    assert not verdict()
    assert not verdict({**moved, "uid": "copy"})
    hour = timedelta(hours=1)
    assert not verdict({k: (datetime.fromisoformat(v) + hour).isoformat() for k, v in moved.items()})
