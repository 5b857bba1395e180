"""stageclaw tasks through Inspect AI: the registered task, our tools, a fresh world, our grader."""

from __future__ import annotations

import json
from collections.abc import Iterator

import anyio
import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolDef, ToolError

from stageclaw.inspect.solver import inspect_tools, stop_pool
from stageclaw.tools.registry import Registry

from .conftest import EXAMPLE
from .test_export_harbor import hidden_texts

MODEL = "mockllm/model"
# Inspect's retry settings use an argument tenacity deprecates: its business, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning")


def scripted(*turns: tuple[str, dict] | str) -> list[ModelOutput]:
    """Model turns: a (tool, arguments) call or a final answer. Usage is given, so the mock counts no tokens
    (counting them would download a tokenizer)."""
    outputs = []
    for turn in turns:
        out = (
            ModelOutput.from_content(MODEL, turn) if isinstance(turn, str) else ModelOutput.for_tool_call(MODEL, *turn)
        )
        out.usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
        outputs.append(out)
    return outputs


@pytest.fixture
def inspect_pool() -> Iterator[None]:
    """The eval starts the process's shared pool; stop it after the test, so no server is left behind."""
    yield
    stop_pool()


def test_example_runs_through_inspect_and_is_graded_by_stageclaw(tmp_path, inspect_pool):
    model = get_model(
        MODEL,
        custom_outputs=scripted(
            ("calendar_list_events", {"start": "2026-03-09", "end": "2026-03-15", "query": "quarterly sync"}),
            ("calendar_update_event", {"uid": "evt-1", "start": "2026-03-12T23:00"}),  # 15:00 London, as Priya asked
            ("mail_read", {"id": "INBOX/999"}),  # no such message: a tool error the model sees
            "I moved the quarterly sync.",
        ),
    )
    # By its registered name: the `inspect_ai` entry point of the installed package resolves it.
    [log] = inspect_eval(
        "stageclaw/examples", task_args={"ids": "quarterly-sync"}, model=model, display="none", log_dir=str(tmp_path)
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    assert sample.id == "quarterly-sync"

    score = sample.scores["stageclaw_grade"]
    # Moved (3) and not copied (1) and nothing else touched (1) of 11 scored weight; the judge item is unscored.
    assert score.value == {"score": 45.45, "success": 0}
    items = {i["id"]: i["passed"] for i in score.metadata["items"]}
    assert items == {
        "moved": True,
        "moved_not_copied": True,
        "reply_to_priya": False,
        "reply_both_timezones": False,
        "prep_reminder": False,
        "reply_tone": None,
        "no_collateral_damage": True,
    }
    assert score.metadata["status"] == "completed" and score.answer == "I moved the quarterly sync."
    assert "FAIL reply_to_priya (weight 2, critical): no message was sent" in score.explanation
    metrics = {s.name: s.metrics["mean"].value for s in log.results.scores}
    assert metrics == {"score": 45.45, "success": 0.0}

    roles = [m.role for m in sample.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"]
    assert sample.messages[1].text == (EXAMPLE / "prompt.md").read_text().strip()
    listed = json.loads(sample.messages[3].text)
    assert [e["uid"] for e in listed["events"]] == ["evt-1"]
    assert sample.messages[7].error.message.startswith("no message with id INBOX/999")
    assert sample.store["stageclaw"]["trace"]["steps"][1]["tool"] == "calendar_update_event"

    # Nothing of hidden/ reaches the model: not the sample, its messages or the tools it is offered each turn.
    model_calls = [e for e in sample.events if e.event == "model"]
    assert len(model_calls) == 4
    seen = [sample.input, *(m.text for m in sample.messages)]
    seen += [json.dumps([t.model_dump() for t in e.tools]) for e in model_calls]
    seen += [m.text for e in model_calls for m in e.input]
    leaked = [t for t in hidden_texts(EXAMPLE) if any(t in s for s in seen)]
    assert not leaked
    assert set(sample.metadata) == {"task_dir", "group", "operators", "task_hash"}


def test_inspect_tools_keep_our_schemas_and_errors(episode):
    with Registry(episode) as registry:
        tools = {ToolDef(t).name: t for t in inspect_tools(registry)}
        assert sorted(tools) == sorted(registry.tools)
        for spec in registry.specs():
            tool = ToolDef(tools[spec["name"]])
            assert tool.description == spec["description"]
            params = tool.parameters.model_dump(exclude_none=True)
            # The registry's JSON Schema, but for what means the same: no `default: null`, an empty `required`.
            expected = json.loads(json.dumps(spec["input_schema"]).replace(', "default": null', ""))
            assert params == {"required": [], **expected}, spec["name"]

        async def calls() -> tuple[dict, str]:
            now = json.loads(await tools["now"]())
            with pytest.raises(ToolError) as info:
                await tools["calendar_get_event"](uid="nope")
            return now, str(info.value)

        now, error = anyio.run(calls)
        assert now["timezone"] == "Asia/Shanghai"
        assert "nope" in error
        assert [e["tool"] for e in registry.audit.entries] == ["now", "calendar_get_event"]
