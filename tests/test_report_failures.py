"""The failure taxonomy and process diagnostics on constructed trajectories and grades, one per mode."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from stageclaw.report.calls import analyze
from stageclaw.report.diagnostics import EntityIndex, split_path
from stageclaw.report.failures import MODES, classify
from stageclaw.world.diff import diff

S0: dict[str, Any] = {
    "mail": {
        "folders": {
            "INBOX": [
                {
                    "message_id": "<ask-1@orbitals.io>",
                    "from": "Priya Raman <priya@orbitals.io>",
                    "to": ["lin@example.com"],
                    "cc": [],
                    "subject": "Moving our quarterly sync",
                    "date": "2026-03-09T17:12:00+00:00",
                    "flags": [],
                    "body": "Could we move it to Thursday 15:00 London time?",
                    "in_reply_to": None,
                    "attachments": [],
                }
            ],
            "Sent": [],
        },
        "outbox": [],
    },
    "calendar": {
        "Work": [
            {"uid": "evt-1", "summary": "Quarterly sync", "start": "2026-03-10T18:00:00+08:00"},
            {"uid": "evt-2", "summary": "Team stand-up", "start": "2026-03-09T09:30:00+08:00"},
        ]
    },
    "reminders": {"Inbox": [{"uid": "r-1", "title": "Book dentist", "due": "2026-03-12", "completed": False}]},
    "notes": {"Notes": []},
    "contacts": [],
    "files": {},
}
MOVE_OK = {"uid": "evt-1", "start": "2026-03-12T23:00:00+08:00"}


def step(tool: str, args: Any, result: Any = None, error: str | None = None, kind: str = "tool") -> dict[str, Any]:
    out: dict[str, Any] = {"tool": tool, "args": args, "ok": error is None}
    if error is None:
        out["result"] = result if result is not None else {}
    else:
        out.update(error=error, error_kind=kind)
    return out


def item(
    id: str, passed: bool, reason: str, stage: str, critical: bool = True, description: str = ""
) -> dict[str, Any]:
    return {
        "id": id,
        "description": description,
        "weight": 1.0,
        "critical": critical,
        "kind": "check",
        "passed": passed,
        "reason": reason,
        "stage": stage,
        "defect": None,
    }


def episode(
    edit: Any = None,
    steps: list[dict[str, Any]] | None = None,
    items: list[dict[str, Any]] | None = None,
    status: str = "completed",
    answer: str = "Done.",
    collateral: list[str] | None = None,
    messages: list[dict[str, Any]] | None = None,
    defects: list[str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
    """(result line, trajectory, grade, s0, sH) of one constructed episode; `edit(sH)` is what the agent did."""
    sH = copy.deepcopy(S0)
    if edit is not None:
        edit(sH)
    changes = diff(S0, sH)
    bad = [{"op": c["op"], "path": c["path"]} for c in changes if c["path"] in (collateral or [])]
    items = list(items or [])
    items.append(
        item("no_collateral_damage", not bad, "; ".join(f"{c['op']} {c['path']}" for c in bad), "side effects")
    )
    success = all(i["passed"] for i in items)
    grade = {"items": items, "collateral": bad, "changes": changes, "defects": defects or [], "success": success}
    trajectory = {"steps": steps or [], "messages": messages or [], "final_answer": answer, "status": status}
    result = {"status": status, "success": success, "score": 50.0, "defects": defects or []}
    return result, trajectory, grade, S0, sH


def classified(case: tuple[Any, ...]) -> Any:
    """classify() as the report calls it: the diff from grade.json, the entities of s0 and of the diff."""
    result, trajectory, grade, s0, _ = case
    changes = grade["changes"] if grade else []
    return classify(result, trajectory, grade, changes, EntityIndex(s0).with_changes(changes))


def move(sH: dict[str, Any], uid: str = "evt-1", start: str = "2026-03-12T23:00:00+08:00") -> None:
    next(e for e in sH["calendar"]["Work"] if e["uid"] == uid)["start"] = start


def add_reminder(sH: dict[str, Any]) -> None:
    sH["reminders"]["Inbox"].append({"uid": "r-new", "title": "Read the agenda", "due": "2026-03-12T22:00:00+08:00"})


MOVED_FAILS = item("moved", False, "evt-1 starts 2026-03-10T18:00:00+08:00; expected 23:00", "timezone conversion")
REMINDER_OK = item("prep_reminder", True, "agenda reminder due 22:00", "deriving the reminder time")


def cases() -> dict[str, tuple[Any, ...]]:
    """One constructed episode per failure mode, named by the mode it must get."""
    return {
        "infrastructure": (
            {"status": "infra_error", "success": None, "score": None},
            {"steps": [step("now", {})], "final_answer": ""},
            None,
            None,
            None,
        ),
        "task_defect": episode(
            add_reminder,
            [step("reminders_create", {"title": "Read the agenda"}, {"uid": "r-new"})],
            [item("moved", False, "check_moved raised KeyError", "timezone conversion"), REMINDER_OK],
            defects=["moved: check_moved raised KeyError"],
        ),
        "budget_exhausted": episode(None, [step("now", {})] * 3, [MOVED_FAILS], status="max_steps", answer=""),
        "agent_error": episode(None, [], [MOVED_FAILS], status="agent_error", answer=""),
        "claimed_unchanged": episode(
            # reading the request marks it \Seen: that is not a change
            lambda sH: sH["mail"]["folders"]["INBOX"][0]["flags"].append("\\Seen"),
            [step("mail_read", {"id": "INBOX/1"}, {"message_id": "<ask-1@orbitals.io>"})],
            [MOVED_FAILS],
            answer="I moved the quarterly sync to Thursday.",
        ),
        "tool_misuse": episode(
            add_reminder,
            [
                step(
                    "calendar_move_event",
                    {"uid": "evt-1"},
                    error="unknown tool 'calendar_move_event'",
                    kind="invalid_arguments",
                ),
                step("reminders_create", {"title": "Read the agenda"}, {"uid": "r-new"}),
            ],
            [MOVED_FAILS, REMINDER_OK],
        ),
        "unrecovered_tool_error": episode(
            add_reminder,
            [
                step("calendar_update_event", {"uid": "evt-1"}, error="server said 503", kind="fault"),
                step("reminders_create", {"title": "Read the agenda"}, {"uid": "r-new"}),
            ],
            [MOVED_FAILS, REMINDER_OK],
        ),
        "wrong_entity": episode(
            lambda sH: move(sH, "evt-2"),
            [step("calendar_update_event", {"uid": "evt-2", "start": "2026-03-12T23:00:00+08:00"})],
            [MOVED_FAILS],
            collateral=["calendar/Work/evt-2#start"],
        ),
        "wrong_value": episode(
            lambda sH: move(sH, start="2026-03-12T15:00:00+08:00"),
            [
                step("calendar_list_events", {"start": "2026-03-09"}, {"events": [{"uid": "evt-1"}, {"uid": "evt-2"}]}),
                step("calendar_update_event", {"uid": "evt-1", "start": "2026-03-12T15:00:00+08:00"}),
            ],
            [item("moved", False, "evt-1 starts 2026-03-12T15:00:00+08:00; expected 23:00", "timezone conversion")],
        ),
        "incomplete": episode(
            add_reminder,
            [step("reminders_create", {"title": "Read the agenda"}, {"uid": "r-new"})],
            [MOVED_FAILS, REMINDER_OK, item("reply_to_priya", False, "no message was sent", "choosing the recipient")],
        ),
        "collateral_damage": episode(
            lambda sH: (move(sH), sH["notes"]["Notes"].append({"uid": "n-9", "title": "Scratch", "body": ""})),
            [step("calendar_update_event", MOVE_OK), step("notes_create", {"title": "Scratch"}, {"uid": "n-9"})],
            [item("moved", True, "evt-1 is at 23:00", "timezone conversion")],
            collateral=["notes/Notes/n-9"],
        ),
    }


@pytest.mark.parametrize("mode", MODES)
def test_each_failure_mode_is_assigned_from_a_constructed_episode(mode):
    got = classified(cases()[mode])
    assert got.mode == mode, (got.mode, got.modes, [d.to_json() for d in got.diagnoses])
    assert got.modes[0] == mode or mode in got.modes


def test_a_successful_episode_has_no_mode():
    result, trajectory, grade, s0, sH = episode(move, [step("calendar_update_event", MOVE_OK)], [])
    got = classified((result, trajectory, grade, s0, sH))
    assert result["success"] and got.mode is None and got.modes == [] and got.diagnoses == []


def test_precedence_lists_every_mode_and_puts_critical_items_first():
    # the moved event has the wrong value (critical); a non-critical note check finds nothing written (incomplete);
    # a stray reminder is collateral damage
    result, trajectory, grade, s0, sH = episode(
        lambda sH: (move(sH, start="2026-03-12T15:00:00+08:00"), add_reminder(sH)),
        [step("calendar_update_event", {"uid": "evt-1"}), step("reminders_create", {"title": "Read the agenda"})],
        [
            item("moved", False, "evt-1 starts 2026-03-12T15:00:00+08:00", "timezone conversion"),
            item("summary_note", False, "no new note was written", "summarising", critical=False),
        ],
        status="timeout",
        collateral=["reminders/Inbox/r-new"],
    )
    got = classified((result, trajectory, grade, s0, sH))
    assert got.mode == "budget_exhausted"
    assert got.modes == ["budget_exhausted", "wrong_value", "incomplete", "collateral_damage"]
    trajectory["status"] = result["status"] = "completed"
    assert classified((result, trajectory, grade, s0, sH)).mode == "wrong_value"


def test_an_item_naming_no_entity_is_judged_by_its_app_and_stage():
    def send(sH: dict[str, Any]) -> None:
        sH["mail"]["outbox"].append({"message_id": "<r-1@example.com>", "to": ["henrik@old.example"], "subject": "Re"})

    steps = [step("mail_send", {"to": ["henrik@old.example"]}, {"message_id": "<r-1@example.com>"})]
    choosing = item("sent_to_new_address", False, "one message, to the old address", "choosing the recipient")
    got = classified(episode(send, steps, [choosing]))
    [d] = [d for d in got.diagnoses if d.id == "sent_to_new_address"]
    assert got.mode == "wrong_entity" and d.entities == ["mail/outbox/<r-1@example.com>"]
    assert d.first_step is not None and (d.first_step.index, d.first_step.via) == (1, "result")
    wording = item("reply_both_timezones", False, "the reply gives only London time", "writing the reply")
    assert classified(episode(send, steps, [wording])).mode == "wrong_value"


def test_diagnostics_point_at_the_first_step_that_touched_the_checked_entity():
    result, trajectory, grade, s0, sH = cases()["wrong_value"]
    [d] = [d for d in classified((result, trajectory, grade, s0, sH)).diagnoses if d.id == "moved"]
    assert d.stage == "timezone conversion" and d.entities == ["calendar/Work/evt-1"] and d.verdict == "wrong_value"
    assert d.first_step is not None and d.first_step.to_json() == {
        "index": 1,
        "tool": "calendar_list_events",
        "via": "result",
    }
    assert d.first_action is not None and (d.first_action.index, d.first_action.tool) == (2, "calendar_update_event")
    # an entity named by its title ("Book dentist") is found too; never touched, the first step of its app is given
    ticked = item("ticked", False, "the reminder 'Book dentist' is still open", "closing the loop")
    [d] = [
        d
        for d in classified(episode(add_reminder, [step("reminders_create", {"title": "x"})], [ticked])).diagnoses
        if d.id == "ticked"
    ]
    assert d.entities == ["reminders/Inbox/r-1"] and d.verdict == "wrong_entity"
    assert d.first_step is not None and (d.first_step.via, d.first_action) == ("app", None)


def test_recovered_and_unrecovered_tool_errors():
    steps = [
        step("calendar_get_event", {"uid": "evt-9"}, error="no event with uid evt-9"),  # never again: unrecovered
        step("calendar_update_event", {"uid": "evt-1"}, error="503", kind="fault"),
        step("calendar_update_event", {"uid": "evt-1"}, {"event": {}}),  # same tool later: recovered
        step("files_read", {"path": "a.md"}, error="no such file"),
        step("files_write", {"path": "a.md", "content": "x"}, {}),  # same entity, other tool: recovered
        step("mail_sendd", {}, error="unknown tool 'mail_sendd'", kind="invalid_arguments"),
    ]
    stats = analyze(steps)
    assert (stats.calls, stats.errors, stats.recovered, stats.unrecovered, stats.misuse) == (6, 4, 2, 2, 1)
    assert [f.recovered for f in stats.failed] == [False, True, True, False]
    assert stats.apps == {"calendar", "files", "mail"} and stats.by_app()["calendar"] == [3, 2]


def test_arguments_that_are_not_json_are_misuse_found_in_the_transcript():
    def call(cid: str, name: str, raw: str) -> dict[str, Any]:
        return {"role": "assistant", "tool_calls": [{"id": cid, "function": {"name": name, "arguments": raw}}]}

    messages = [
        call("c1", "calendar_get_event", "{oops"),
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"error": "the arguments are not valid JSON"})},
        call("c2", "calendar_get_event", '{"uid": "evt-1"}'),
        {"role": "tool", "tool_call_id": "c2", "content": json.dumps({"uid": "evt-1"})},
        call("c3", "files_read", "{path:"),
        {"role": "tool", "tool_call_id": "c3", "content": json.dumps({"error": "not valid JSON"})},
    ]
    stats = analyze([step("calendar_get_event", {"uid": "evt-1"}, {"uid": "evt-1"})], messages)
    assert (stats.calls, stats.errors, stats.misuse, stats.recovered) == (3, 2, 2, 1)
    assert [(f.tool, f.seq, f.recovered) for f in stats.failed] == [
        ("calendar_get_event", None, True),
        ("files_read", None, False),
    ]
    result, trajectory, grade, s0, sH = cases()["wrong_value"]
    trajectory["messages"] = messages
    assert classified((result, trajectory, grade, s0, sH)).mode == "tool_misuse"


@pytest.mark.parametrize(
    ("path", "op", "split"),
    [
        ("calendar/Work/evt-17#start", "modified", ("calendar/Work", "evt-17")),
        ("mail/folders/INBOX/<a/b@x>#flags", "modified", ("mail/folders/INBOX", "<a/b@x>")),
        ("mail/outbox/<m-1@x>", "added", ("mail/outbox", "<m-1@x>")),
        ("contacts/c-1#emails", "modified", ("contacts", "c-1")),
        ("files/docs/a#b.md", "added", ("files", "docs/a#b.md")),
        ("files/docs/plan.md#sha256", "modified", ("files", "docs/plan.md")),
        ("web/shop/orders/17#status", "modified", ("web/shop/orders", "17")),
        ("mail/folders/Receipts", "added", ("mail/folders/Receipts", None)),
    ],
)
def test_diff_paths_split_into_container_and_item(path, op, split):
    assert split_path(path, op) == split


def test_the_entity_index_knows_added_items_and_new_names_without_the_final_state():
    sH = copy.deepcopy(S0)
    sH["reminders"]["Inbox"][0]["title"] = "Book the dentist for Friday"
    add_reminder(sH)
    index = EntityIndex(S0).with_changes(diff(S0, sH))
    assert index.mentioned("the reminder 'Book the dentist for Friday' is open") == {"reminders/Inbox/r-1"}
    assert index.mentioned("found 'Read the agenda', due 22:00") == {"reminders/Inbox/r-new"}
    assert index.mentioned("evt-1 overlaps the team stand-up") == {"calendar/Work/evt-1", "calendar/Work/evt-2"}
    assert index.mentioned("a standup") == set()  # whole words only
