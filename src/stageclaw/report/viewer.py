"""An episode's page in the HTML report: what the viewer shows, cut to size and packed.

Values (arguments, results, changed fields) longer than CLIP characters of JSON are cut; shorter
ones are kept as they are and pretty-printed by the viewer.
"""

from __future__ import annotations

import base64
import gzip
import json
from typing import Any

from stageclaw.report.calls import reaches_tools
from stageclaw.report.failures import Classification

CLIP = 3000  # characters of one argument list, result or changed value


def clip(value: Any, text: str | None = None) -> Any:
    """A value for the viewer as is (it pretty-prints it), or, when long, its JSON `text` cut at CLIP characters."""
    if isinstance(value, str):
        return value if len(value) <= CLIP else f"{value[:CLIP]}… ({len(value) - CLIP} more characters)"
    if text is None:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return value if len(text) <= CLIP else f"{text[:CLIP]}… ({len(text) - CLIP} more characters)"


def _assistant_turns(messages: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """(text, tool calls that reached the tools) per assistant message, OpenAI or Anthropic shaped."""
    turns = []
    for m in messages:
        if m.get("role") != "assistant":
            continue
        content = m.get("content")
        if isinstance(content, list):  # Anthropic blocks
            text = "\n".join(str(b.get("text", "")) for b in content if b.get("type") == "text")
            calls = sum(1 for b in content if b.get("type") == "tool_use")
        else:
            text = str(content or "")
            raws = [c.get("function", {}).get("arguments") for c in m.get("tool_calls") or []]
            calls = sum(1 for raw in raws if reaches_tools(raw))
        turns.append((text.strip(), calls))
    return turns


def narration(messages: list[dict[str, Any]]) -> dict[int, str]:
    """What the model said before each step (by 0-based step index); its last, call-less turn is the answer."""
    turns = _assistant_turns(messages)
    if turns and turns[-1][1] == 0:
        turns = turns[:-1]
    said: dict[int, str] = {}
    at = 0
    for text, calls in turns:
        if text:
            said[at] = f"{said[at]}\n\n{text}" if at in said else text
        at += calls
    return said


def viewer_page(
    result: dict[str, Any],
    trajectory: dict[str, Any],
    grade: dict[str, Any] | None,
    changes: list[dict[str, Any]],
    cls: Classification,
    texts: list[tuple[str, str]],
) -> dict[str, Any]:
    """Prompt, answer, each step (with what the model said before it), the diff with collateral changes
    marked, and the rubric with each failed item's diagnosis; `texts` are the steps' `step_texts`."""
    said = narration(trajectory.get("messages") or [])
    failed = {f.seq: f for f in cls.calls.failed if f.seq is not None}
    steps = []
    for i, s in enumerate(trajectory.get("steps") or []):
        step = {
            "tool": s.get("tool"),
            "ok": bool(s.get("ok")),
            "args": clip(s.get("args"), texts[i][0]),
            "out": clip(s.get("result") if s.get("ok") else s.get("error"), texts[i][1]),
            "ms": s.get("latency_ms"),
            "said": said.get(i),
        }
        if not s.get("ok"):
            step["kind"] = s.get("error_kind")
            step["recovered"] = failed[i + 1].recovered if i + 1 in failed else None
        if s.get("fault"):
            step["fault"] = s["fault"].get("kind") if isinstance(s["fault"], dict) else str(s["fault"])
        steps.append(step)
    collateral = {c["path"] for c in (grade or {}).get("collateral") or result.get("collateral") or []}
    shown = [
        {
            "op": c["op"],
            "path": c["path"],
            "collateral": c["path"] in collateral,
            **{side: clip(c[side]) for side in ("before", "after") if side in c},
        }
        for c in changes
    ]
    diagnosis = {d.id: d.to_json() for d in cls.diagnoses}
    items = (grade or {}).get("items") or result.get("items") or []
    return {
        "prompt": trajectory.get("prompt") or "",
        "final_answer": trajectory.get("final_answer") or "",
        "error": result.get("error"),
        "steps": steps,
        "malformed": [
            {"tool": f.tool, "message": f.message, "recovered": f.recovered} for f in cls.calls.failed if f.seq is None
        ],
        "changes": shown,
        "items": [
            {
                "id": i.get("id"),
                "description": i.get("description", ""),
                "passed": i.get("passed"),
                "weight": i.get("weight"),
                "critical": i.get("critical"),
                "stage": i.get("stage", ""),
                "reason": i.get("reason", ""),
                "diagnosis": diagnosis.get(str(i.get("id"))),
            }
            for i in items
        ],
    }


def pack(page: dict[str, Any]) -> str:
    """A viewer page as base64 of gzip'ed JSON: a fifth of the size, and no `</script>` can appear in it."""
    data = gzip.compress(json.dumps(page, ensure_ascii=False, separators=(",", ":")).encode(), 6, mtime=0)
    return base64.b64encode(data).decode("ascii")
