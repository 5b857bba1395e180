"""action-items: the story sits in a world of some 400 objects that never looks like it, and the summary note's
check accepts an honest note in another style but rejects one that gives an item a wrong date (another
item's, a day off), whether or not the task asks for the items in the note."""

from __future__ import annotations

import re
from datetime import date, timedelta
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
