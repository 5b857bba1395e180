"""Bad tool calls over MCP and in-process: each is refused, audited and counted, the world stays as it was,
and a good call beside them still works. Results are capped in size; fault plans behave as written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

from stageclaw.errors import StageclawError
from stageclaw.tools.audit import AuditLog
from stageclaw.tools.cap import CAP_BYTES, cap
from stageclaw.tools.faults import FaultPlan, FaultRule
from stageclaw.tools.mcp_server import StepBudget, build_server
from stageclaw.tools.registry import Registry
from stageclaw.world import diff
from tests.conftest import ROOT

BAD_CALLS = [
    ("mail_sned", {"to": ["ana@gardens.example"]}, "unknown tool 'mail_sned'"),
    ("files_read", {}, "files_read: invalid arguments: path: Field required"),
    ("reminders_create", {"title": 123}, "reminders_create: invalid arguments: title: Input should be a valid string"),
    ("now", {"tz": "UTC"}, "now: invalid arguments: tz: unknown argument"),
    ("mail_send", {"to": ["ana@gardens.example\r\nBcc: eve@evil.example"], "subject": "s", "body": "b"},
     "it holds a line break"),
    ("mail_send", {"to": ["ana@gardens.example"], "cc": ["bo@other.example\n"], "subject": "s", "body": "b"},
     "it holds a line break"),
    ("calendar_list_events", {"start": "2026-01-01", "end": "2126-01-01"}, "is over 10 years long"),
]  # fmt: skip


def test_bad_mcp_calls_are_refused_audited_and_counted(make_episode, tmp_path):
    world = {
        "now": "2026-03-10T09:00:00+01:00",
        "timezone": "Europe/Berlin",
        "user": {"name": "Kai Weber", "email": "kai.weber@example.com"},
        "reminders": {"Inbox": []},
    }
    episode = make_episode(world)
    s0 = episode.snapshot()
    budget = StepBudget(len(BAD_CALLS) + 1)

    async def session(registry: Registry) -> tuple:
        async with Client(build_server(registry, budget=budget)) as client:
            bad = [await client.call_tool(name, args) for name, args, _ in BAD_CALLS]
            good = await client.call_tool(
                "reminders_create", {"title": "Pay Ana", "list": "Inbox", "due": "2026-03-24"}
            )
            over = await client.call_tool("mail_sned", {})
            return bad, good, over

    with Registry(episode, audit=AuditLog(tmp_path / "audit.jsonl")) as registry:
        bad, good, over = anyio.run(session, registry)
        audit = registry.audit.entries
    for result, (name, _, says) in zip(bad, BAD_CALLS, strict=True):
        assert result.is_error and says in result.content[0].text, (name, result.content[0].text)
    assert not good.is_error and good.structured_content["uid"]
    assert over.is_error and "step budget spent" in over.content[0].text  # the refusals took their steps
    assert [(e["tool"], e["ok"]) for e in audit] == [(n, False) for n, _, _ in BAD_CALLS] + [("reminders_create", True)]
    assert {e["error_kind"] for e in audit[:4]} == {"invalid_arguments"}
    changes = [(c["op"], c["path"].rsplit("/", 1)[0]) for c in diff(s0, episode.snapshot())]
    assert changes == [("added", "reminders/Inbox")]  # the good call only: no mail left, no list changed


def test_arguments_that_are_not_an_object_are_a_tool_error(reg):
    refused = reg.invoke("now", [1, 2])
    assert refused == {"ok": False, "error": "now: arguments must be a JSON object", "kind": "invalid_arguments"}
    assert reg.audit.entries[-1]["ok"] is False


def test_a_huge_result_is_capped_with_a_note_the_agent_can_act_on(make_episode):
    body = "The garden invoice, line by line.\n" * 60_000  # about 2 MB
    message = {"message_id": "<big@x.example>", "from": "ana@gardens.example", "date": "2026-03-09T16:00:00+01:00"}
    world = {
        "now": "2026-03-10T09:00:00+01:00",
        "timezone": "Europe/Berlin",
        "user": {"name": "Kai Weber", "email": "kai.weber@example.com"},
        "mail": {"folders": {"INBOX": [{**message, "subject": "Invoice", "body": body}]}},
    }
    with Registry(make_episode(world)) as registry:
        read = registry.call("mail_read", {"id": "INBOX/1"})
        listed = registry.call("mail_list_folders")
    assert len(read["body"]) < 300_000 and read["body"] == body[: len(read["body"])]
    assert read["subject"] == "Invoice" and read["id"] == "INBOX/1"  # the rest of the result is whole
    assert read["truncated"].startswith(f"this result was cut to {CAP_BYTES // 1024} KiB: body shows the first ")
    assert "truncated" not in listed


def test_a_capped_list_keeps_its_first_items_and_names_the_paging_arguments():
    result = {"messages": [{"id": f"INBOX/{i}", "snippet": "x" * 500} for i in range(2000)], "total": 2000}
    out = cap(result, ["folder", "limit", "cursor"], limit=64 * 1024)
    assert out["messages"] == result["messages"][: len(out["messages"])] and out["total"] == 2000
    assert f"messages shows the first {len(out['messages'])} of 2000 items; use limit / cursor" in out["truncated"]
    assert len(str(out)) < 66 * 1024 and cap(out, limit=10**7) is out


def test_each_fault_rule_counts_its_own_matches(reg):
    plan = FaultPlan(
        rule=[
            FaultRule(tools="*", kind="transient_error", nth=1),
            FaultRule(tools="now", kind="slow", nth=1, delay_s=0),  # the same call as the rule above
            FaultRule(tools="now", kind="permission_denied", nth=2),
        ]
    )
    with Registry(reg.episode, faults=plan) as registry:
        outcomes = [registry.invoke("now") for _ in range(3)]
        entries = registry.audit.entries
    assert [o.get("kind") for o in outcomes] == ["fault", "fault", None]
    assert "503" in outcomes[0]["error"] and "403" in outcomes[1]["error"]
    assert [(f["rule"], f["kind"]) for f in registry.faults.fired] == [(0, "transient_error"), (1, "slow"), (2, "permission_denied")]  # fmt: skip
    assert entries[0]["fault"] == {"rule": 0, "kind": "transient_error", "tool": "now", "also": [1]}
    assert entries[1]["fault"] == {"rule": 2, "kind": "permission_denied", "tool": "now"}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[[rule]]\ntools = "*"\nkind = "explode"\nnth = 1\n', "rule[0].kind: Input should be"),
        ('[[rule]]\ntools = "*"\nkind = "slow"\nnth = 1\nprobability = 0.5\n', "give exactly one of 'nth'"),
        ('[[rule]]\ntools = "*"\nkind = "slow"\nnth = 0\n', "rule[0].nth: Input should be greater than or equal"),
        ('[[rule]]\ntools = "*"\nkind = "slow"\nnth = 1\ncolour = "red"\n', "rule[0].colour: unknown key"),
        ("[[rule]\n", "not a valid fault plan: TOMLDecodeError"),
        (None, "cannot read the fault plan: No such file or directory"),
    ],
)
def test_a_bad_fault_plan_is_one_line(tmp_path, text, says):
    path = tmp_path / "faults.toml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(StageclawError) as info:
        FaultPlan.load(path)
    assert str(info.value).startswith(f"{path}: ") and says in str(info.value) and "\n" not in str(info.value)


def test_run_with_a_bad_fault_plan_prints_one_line(tmp_path):
    plan = tmp_path / "faults.toml"
    plan.write_text('[[rule]]\ntools = "*"\nkind = "explode"\nnth = 1\nprobability = 2\n')
    task = ROOT / "tests" / "corpus" / "healthy"
    argv = [sys.executable, "-m", "stageclaw", "run", "--agent", "noop", "--tasks", str(task), "--faults", str(plan)]
    res = subprocess.run([*argv, "--out", str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stdout == ""
    [line] = res.stderr.strip().splitlines()
    assert line.startswith(f"error: {plan}: not a valid fault plan: rule[0].kind: ") and "probability" in line
    assert not Path(tmp_path / "run").exists()
