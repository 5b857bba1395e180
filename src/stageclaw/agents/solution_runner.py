"""Runs inside the solution jail: `python -I -S -B solution_runner.py SOLUTION.py`.

Standard library only. `solve(tools)` gets `tools`, whose `tools.NAME(**args)` writes one JSON line
`{"call": NAME, "args": ARGS}` to the original stdout and reads the answer from stdin:
`{"ok": true, "result": ...}`, or `{"ok": false, "error": MESSAGE, "kind": KIND}`, which raises
ToolError. The last line says how `solve` ended: `{"done": ANSWER}`, `{"tool_error": MESSAGE}` or
`{"failed": WHY}`. Whatever the solution prints goes to stderr.
"""

import importlib.util
import json
import os
import sys
import traceback


class ToolError(Exception):
    def __init__(self, message, kind="tool"):
        super().__init__(message)
        self.message = message
        self.kind = kind


class Tools:
    """`tools.NAME(**args)`, the interface a solution gets (`tools.ToolError` is what a failed call raises)."""

    ToolError = ToolError

    def __init__(self, send, receive):
        self._send = send
        self._receive = receive

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda **args: self._call(name, args)

    def _call(self, name, args):
        self._send({"call": name, "args": args})
        reply = self._receive()
        if reply.get("ok") is True:
            return reply["result"]
        raise ToolError(reply.get("error", f"{name} failed"), reply.get("kind", "tool"))


def _where(exc, path):
    """The line of the solution file the exception came from, if it came from there."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    return f" (line {frames[-1].lineno} of the solution: {frames[-1].line})" if frames else ""


def main():
    path = sys.argv[1]
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    replies = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)
    sys.stdin = os.fdopen(quiet, "r")

    def send(message):
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    def receive():
        line = replies.readline()
        if not line:  # stageclaw is gone
            os._exit(3)
        return json.loads(line)

    try:
        spec = importlib.util.spec_from_file_location("solution", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        answer = module.solve(Tools(send, receive))
    except ToolError as exc:
        send({"tool_error": exc.message})
    except SystemExit as exc:
        send({"failed": f"it called sys.exit({exc.code!r}){_where(exc, path)}"})
    except BaseException as exc:  # the solution's defect, reported, never raised
        line = traceback.format_exception_only(type(exc), exc)[-1].strip()
        send({"failed": f"{line}{_where(exc, path)}"})
    else:
        send({"done": answer if isinstance(answer, str) else ""})


main()
