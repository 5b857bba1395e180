"""The registry: validation, errors as results, audit log, seeded faults that replay exactly."""

from __future__ import annotations

import json

import pytest

from stageclaw.tools.audit import AuditLog, read
from stageclaw.tools.base import PAGING, ToolError
from stageclaw.tools.faults import FaultInjector, FaultPlan, FaultRule
from stageclaw.tools.registry import Registry, catalogue

DESIGN_TOOLS = {
    "now",
    *[
        "mail_list_folders",
        "mail_search",
        "mail_read",
        "mail_send",
        "mail_reply",
        "mail_forward",
        "mail_save_attachment",
        "mail_move",
        "mail_flag",
        "mail_delete",
    ],
    *["calendar_list_calendars", "calendar_list_events", "calendar_get_event", "calendar_delete_event"],
    "calendar_create_event",
    "calendar_update_event",
    *["reminders_list", "reminders_list_lists", "reminders_create", "reminders_update", "reminders_complete"],
    "reminders_delete",
    *["notes_list", "notes_search", "notes_read", "notes_delete", "notes_create", "notes_update"],
    *["contacts_search", "contacts_get", "contacts_update", "contacts_create", "contacts_delete", "contacts_merge"],
    *["files_list", "files_read", "files_write", "files_move", "files_delete", "terminal_run"],
    *["browser_open", "browser_read", "browser_click", "browser_fill", "browser_select", "browser_back"],
}


def test_catalogue_is_exactly_the_design_tools():
    tools = catalogue()
    assert set(tools) == DESIGN_TOOLS
    for tool in tools.values():
        spec = tool.spec()
        assert len(spec["description"]) > 20, tool.name
        assert spec["input_schema"]["type"] == "object"
        assert spec["input_schema"].get("additionalProperties") is False, tool.name


# Every listing and search tool pages its results.
PAGED = {
    *["mail_list_folders", "mail_search", "calendar_list_calendars", "calendar_list_events"],
    *["reminders_list", "reminders_list_lists", "notes_list", "notes_search", "contacts_search", "files_list"],
}
# What each description must say about its side effects and limits: the words an agent decides on.
PINNED = {
    "mail_read": ["marks it read (\\Seen)"],
    "mail_search": ["Changes nothing: messages stay unread", "first 160 characters"],
    "mail_send": ["sent at once; a copy is saved in Sent"],
    "mail_reply": ["sends the reply at once, saves a copy in Sent and marks the original answered"],
    "mail_forward": ["all of the original's attachments", "flags the original $Forwarded", "References"],
    "mail_delete": ["moves to Trash", "cannot be undone"],
    "mail_save_attachment": ["Nothing is ever overwritten", "not marked read", "the sha256 is the one mail_read lists"],
    "calendar_create_event": ["mailed an invitation (iCalendar METHOD:REQUEST)", "unless notify is false"],
    "calendar_update_event": [
        "updated invitation (METHOD:REQUEST; a guest just added gets a first one)",
        "cancellation (METHOD:CANCEL)",
        "about that occurrence alone when `occurrence` is given",
        "nobody is mailed",
    ],
    "calendar_delete_event": [
        "cancellation (METHOD:CANCEL, for one occurrence about that occurrence)",
        "unless notify is false",
        "nobody is mailed",
    ],
    "contacts_merge": ["every email address, phone number", "so nothing is lost", "the others are deleted"],
    "contacts_delete": ["cannot be undone", "contacts_merge"],
    "files_read": ["[page 2 of 5]", "scanned PDF has no text", "128 KiB", "pdftotext", "Changes nothing"],
    "terminal_run": ["no network", "64 KiB", "timeout_s", "pdftotext"],
}


def test_descriptions_state_side_effects_and_limits():
    tools = catalogue()
    for name, tool in tools.items():
        text = tool.description
        says = [phrase for phrase in ("Changes nothing", "Side effects:") if phrase in text]
        assert len(says) == 1, f"{name} must say either 'Changes nothing' or 'Side effects:' (once): {says}"
        assert ("cursor" in tool.input_schema()["properties"]) == (name in PAGED), name
        if name in PAGED:
            assert PAGING in text and "limit" in tool.input_schema()["properties"], name
    for name, phrases in PINNED.items():
        flowing = " ".join(tools[name].description.split())
        for phrase in phrases:
            assert phrase in flowing, f"{name}: {phrase!r}"
    for name in ("calendar_create_event", "calendar_update_event", "calendar_delete_event"):
        assert tools[name].input_schema()["properties"]["notify"]["default"] is True


def test_unknown_tool_and_bad_arguments_are_tool_errors(episode, tmp_path):
    log = AuditLog(tmp_path / "audit.jsonl")
    with Registry(episode, audit=log) as reg:
        with pytest.raises(ToolError) as unknown:
            reg.call("calendar_teleport", {})
        assert unknown.value.kind == "invalid_arguments" and "calendar_list_events" in unknown.value.message
        bad = reg.invoke("now", {"when": "yesterday"})
        assert bad == {
            "ok": False,
            "error": "now: invalid arguments: when: unknown argument",
            "kind": "invalid_arguments",
        }
        ok = reg.invoke("now", {})
        assert ok["ok"] and ok["result"]["timezone"] == "Asia/Shanghai"
    entries = read(tmp_path / "audit.jsonl")
    assert [(e["seq"], e["tool"], e["ok"]) for e in entries] == [
        (1, "calendar_teleport", False),
        (2, "now", False),
        (3, "now", True),
    ]
    assert entries[1]["error_kind"] == "invalid_arguments" and entries[2]["result"]["now"].startswith(
        "2026-03-10T09:00"
    )
    assert all(e["latency_ms"] >= 0 and e["t"].startswith("2026-03-10") for e in entries)


def test_allow_restricts_the_tools(episode):
    with Registry(episode, allow=["mail_*", "now"]) as reg:
        names = {s["name"] for s in reg.specs()}
        assert "now" in names and "mail_send" in names and "calendar_create_event" not in names
        assert reg.invoke("files_read", {"path": "docs/plan.md"})["kind"] == "invalid_arguments"


def test_nth_call_fault_fires_once_and_is_recorded(episode, tmp_path):
    plan = FaultPlan(rule=[FaultRule(tools="no*", kind="transient_error", nth=2)])
    with Registry(episode, audit=AuditLog(tmp_path / "a.jsonl"), faults=plan) as reg:
        outcomes = [reg.invoke("now", {}) for _ in range(4)]
    assert [o["ok"] for o in outcomes] == [True, False, True, True]
    assert outcomes[1]["kind"] == "fault" and "503" in outcomes[1]["error"]
    entries = read(tmp_path / "a.jsonl")
    assert entries[1]["fault"] == {"rule": 0, "kind": "transient_error", "tool": "now"}
    assert "fault" not in entries[0]


def test_permission_and_timeout_faults(episode):
    plan = FaultPlan(
        rule=[
            FaultRule(tools="now", kind="permission_denied", nth=1),
            FaultRule(tools="now", kind="timeout", nth=2, delay_s=0),
            FaultRule(tools="now", kind="slow", nth=3, delay_s=0.05),
        ]
    )
    with Registry(episode, faults=plan) as reg:
        first, second, third = (reg.invoke("now", {}) for _ in range(3))
    assert "403" in first["error"] and "timed out" in second["error"] and third["ok"]
    assert [f["kind"] for f in reg.faults.fired] == ["permission_denied", "timeout", "slow"]


def _pattern(seed: int) -> list[bool]:
    injector = FaultInjector(FaultPlan(seed=seed, rule=[FaultRule(tools="*", kind="transient_error", probability=0.3)]))
    out = []
    for _ in range(60):
        try:
            injector.before("mail_search")
            out.append(False)
        except ToolError:
            out.append(True)
    return out


def test_probabilistic_faults_replay_with_the_same_seed():
    assert _pattern(7) == _pattern(7)
    assert _pattern(7) != _pattern(8)
    assert 5 < sum(_pattern(7)) < 35


def test_fault_plan_file_errors_are_clear(tmp_path):
    good = tmp_path / "faults.toml"
    good.write_text('seed = 3\n[[rule]]\ntools = "calendar_*"\nkind = "transient_error"\nnth = 1\n')
    assert FaultPlan.load(good).rules[0].tools == "calendar_*"
    bad = tmp_path / "bad.toml"
    bad.write_text('[[rule]]\ntools = "x"\nkind = "explode"\nnth = 1\n')
    with pytest.raises(Exception, match="not a valid fault plan"):
        FaultPlan.load(bad)


def test_results_are_json(episode):
    with Registry(episode) as reg:
        json.dumps(reg.call("now", {}))
