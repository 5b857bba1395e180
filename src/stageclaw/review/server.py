"""The review server: the review pages on a loopback port, and the verdict form that signs a task.

Every page lives under a random token (`http://127.0.0.1:PORT/TOKEN/`), and the form carries it too,
so that no other web page the reviewer has open can read the hidden files or post a verdict. A task is
validated (stage 2, into the report folder) the first time its page is opened, and again whenever its
files changed since its report; requests are served one at a time, so validations never overlap.
"""

from __future__ import annotations

import json
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

from stageclaw.errors import StageclawError
from stageclaw.review import page
from stageclaw.review.view import task_view
from stageclaw.task.loader import TaskError, find_task_dirs, load_task, task_digest
from stageclaw.task.review import review_status, sign
from stageclaw.validate.checker import validate_task
from stageclaw.world.pool import ServicePool

MAX_FORM = 64 * 1024


class ReviewServer:
    """Serves the tasks under `path`; stage-2 reports go to (and are reused from) `out`."""

    def __init__(self, path: Path, out: Path, pool: ServicePool, port: int = 0) -> None:
        self.dirs = {d.name: d for d in find_task_dirs(Path(path))}
        if not self.dirs:
            raise StageclawError(f"no task folder under {path}")
        self.out, self.pool = Path(out), pool
        self.token = secrets.token_urlsafe(16)
        self.httpd = HTTPServer(("127.0.0.1", port), _handler(self))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/{self.token}/"

    def report_dir(self, task_id: str) -> Path:
        """The task's stage-2 report folder, validated again when the task changed since."""
        folder = self.out / task_id
        report = folder / "validation.json"
        current = task_digest(self.dirs[task_id])
        if not report.is_file() or json.loads(report.read_text(encoding="utf-8")).get("task_hash") != current:
            validate_task(self.dirs[task_id], self.pool, out=self.out)
        return folder

    def index_rows(self) -> list[dict[str, Any]]:
        rows = []
        for task_id, folder in sorted(self.dirs.items()):
            report = self.out / task_id / "validation.json"
            data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else {}
            try:
                title, status = load_task(folder).config.title, review_status(folder).status
            except (TaskError, StageclawError) as exc:
                title, status = f"does not load: {exc}", "invalid"
            score = data.get("score") if data.get("task_hash") == task_digest(folder) else None
            rows.append({"id": task_id, "title": title, "score": score, "review": status})
        return rows

    def start(self) -> None:
        """Serve from a thread of its own (tests, notebooks); `close()` stops it."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.httpd.shutdown() if self._thread is not None else None
        self.httpd.server_close()


def _handler(server: ReviewServer) -> type[BaseHTTPRequestHandler]:
    base = f"/{server.token}/"

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet by default, like the rest
            pass

        def _send(self, status: int, body: str, content_type: str = "text/html; charset=utf-8") -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _task_id(self, suffix: str = "") -> str | None:
            path = unquote(self.path.split("?", 1)[0])
            if not (path.startswith(base + "task/") and path.endswith(suffix)):
                return None
            task_id = path[len(base + "task/") : len(path) - len(suffix)]
            return task_id if task_id in server.dirs else None

        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] == base:
                self._send(HTTPStatus.OK, page.index(base, server.index_rows()))
                return
            task_id = self._task_id()
            if task_id is None:
                self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")
                return
            try:
                view = task_view(load_task(server.dirs[task_id]), server.report_dir(task_id))
            except (TaskError, StageclawError) as exc:
                self._send(HTTPStatus.UNPROCESSABLE_ENTITY, f"{task_id}: {exc}", "text/plain")
                return
            self._send(HTTPStatus.OK, page.task_page(view, base, server.token))

        def do_POST(self) -> None:
            task_id = self._task_id("/review")
            length = int(self.headers.get("Content-Length") or 0)
            if task_id is None or length > MAX_FORM:
                self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")
                return
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode("utf-8")).items()}
            if not secrets.compare_digest(form.get("token", ""), server.token):
                self._send(HTTPStatus.FORBIDDEN, "the form does not come from this review page", "text/plain")
                return
            try:
                sign(server.dirs[task_id], form.get("reviewer", ""), form.get("verdict", ""), form.get("notes", ""))
            except StageclawError as exc:
                self._send(HTTPStatus.BAD_REQUEST, str(exc), "text/plain")
                return
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", f"{base}task/{task_id}#verdict")
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler
