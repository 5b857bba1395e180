"""A scripted OpenAI-compatible chat-completions server, for tests and dry runs.

    stageclaw fake-llm --script script.yaml [--port N]

It answers OpenAI chat completions (`/v1/chat/completions`) and Anthropic messages
(`/v1/messages`). The script is a list of assistant turns replayed in order, one per request:

    turns:
      - tool_calls: [{name: files_read, arguments: {path: docs/plan.md}}]
      - content: "Done: I moved the meeting."
      - error: 500                      # answer this request with HTTP 500
      - content: '{"passed": true, "reason": "ok"}'
        usage: {prompt_tokens: 900, completion_tokens: 20}
    when_done: repeat_last              # or: error (HTTP 500, the default)

Every request is kept (`GET /requests`), so a test can assert on what an agent sent.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stageclaw.errors import StageclawError


class ScriptedCall(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    arguments: dict[str, Any] | str = {}


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    content: str | None = None
    tool_calls: list[ScriptedCall] = []
    error: int | None = Field(default=None, ge=400, le=599)
    usage: dict[str, int] | None = None
    delay_s: float = 0


class Script(BaseModel):
    model_config = ConfigDict(extra="forbid")
    turns: list[Turn]
    when_done: str = Field(default="error", pattern="^(error|repeat_last)$")

    @classmethod
    def load(cls, path: Path) -> Script:
        try:
            return cls.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
        except (OSError, yaml.YAMLError, ValidationError) as exc:
            raise StageclawError(f"{path}: not a valid fake-llm script: {exc}") from None


def _anthropic_message(turn: Turn, model: str, prompt_chars: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": turn.content}] if turn.content else []
    for call in turn.tool_calls:
        args = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
        content.append({"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:12]}", "name": call.name, "input": args})
    usage = turn.usage or {
        "prompt_tokens": prompt_chars // 4 + 1,
        "completion_tokens": len(json.dumps(content)) // 4 + 1,
    }
    return {
        "id": f"msg_{uuid.uuid4().hex[:16]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if turn.tool_calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": usage.get("prompt_tokens", 0), "output_tokens": usage.get("completion_tokens", 0)},
    }


def _completion(turn: Turn, model: str, prompt_chars: int) -> dict[str, Any]:
    calls = [
        {
            "id": f"call_{uuid.uuid4().hex[:12]}",
            "type": "function",
            "function": {
                "name": c.name,
                "arguments": c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments),
            },
        }
        for c in turn.tool_calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": turn.content}
    if calls:
        message["tool_calls"] = calls
    completion_chars = len(turn.content or "") + sum(len(c["function"]["arguments"]) for c in calls)
    usage = turn.usage or {"prompt_tokens": prompt_chars // 4 + 1, "completion_tokens": completion_chars // 4 + 1}
    usage = {**usage, "total_tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)}
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:16]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": usage,
    }


class FakeLLM:
    """The server, started on a free loopback port (or `port`); use as a context manager."""

    def __init__(self, script: Script, port: int = 0) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._next = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The OpenAI-style base URL; the Anthropic SDK takes `root_url` (it adds /v1 itself)."""
        return f"{self.root_url}/v1"

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def _turn(self) -> Turn | None:
        with self._lock:
            turns = self.script.turns
            if self._next < len(turns):
                self._next += 1
                return turns[self._next - 1]
            return turns[-1] if self.script.when_done == "repeat_last" and turns else None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, code: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/requests"):
                    self._send(200, {"requests": fake.requests})
                elif self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with fake._lock:
                    fake.requests.append(body)
                path = self.path.split("?")[0].rstrip("/")
                render = {"/chat/completions": _completion, "/messages": _anthropic_message}
                kind = next((suffix for suffix in render if path.endswith(suffix)), None)
                if kind is None:
                    self._send(404, {"error": {"message": f"no endpoint {self.path}"}})
                    return
                if body.get("stream"):
                    self._send(400, {"error": {"message": "the fake LLM does not stream"}})
                    return
                turn = fake._turn()
                if turn is None:
                    self._send(500, {"error": {"message": "the fake LLM script has no more turns"}})
                    return
                time.sleep(turn.delay_s)
                if turn.error is not None:
                    self._send(
                        turn.error, {"error": {"message": f"scripted error {turn.error}", "type": "server_error"}}
                    )
                    return
                prompt_chars = len(json.dumps(body.get("messages", []))) + len(json.dumps(body.get("system", "")))
                self._send(200, render[kind](turn, str(body.get("model", "fake")), prompt_chars))

        return Handler

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
