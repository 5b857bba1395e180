"""One HTTP server per service pool for the web apps of every episode.

It runs in a thread of the pool's process, on a free loopback port. Each episode is a `Site`
under its own secret path prefix `/e/<token>/`: an unknown token is a 404, so one episode's
browser, confined to its prefix, never sees another episode's data.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from http import HTTPStatus

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route

from stageclaw.errors import ServiceError
from stageclaw.world.web import expenses, intranet, travel
from stageclaw.world.web.common import APP_BLURBS, ENV, Site, page, site_of


async def start_page(request: Request) -> Response:
    site = site_of(request)
    return page(site, None, "start.html", apps=[(app, APP_BLURBS[app]) for app in site.apps])


async def _error(request: Request, exc: Exception) -> Response:
    """An address outside every site (or a method a page does not take): a bare error page."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    html = ENV.get_template("missing.html").render(status=status, reason=HTTPStatus(status).phrase)
    return HTMLResponse(html, status)


def make_app(sites: dict[str, Site]) -> Starlette:
    app = Starlette(
        routes=[
            Mount(
                "/e/{token}",
                routes=[
                    Route("/", start_page),
                    Mount("/travel", routes=travel.routes),
                    Mount("/expenses", routes=expenses.routes),
                    Mount("/intranet", routes=intranet.routes),
                ],
            )
        ],
        exception_handlers={HTTPException: _error},
    )
    app.state.sites = sites
    return app


class WebServer:
    def __init__(self) -> None:
        self.sites: dict[str, Site] = {}
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15.0) -> WebServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            make_app(self.sites),
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        server = self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=lambda: asyncio.run(server.serve(sockets=[sock])), name="stageclaw-web", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise ServiceError(f"the web apps' server did not start on 127.0.0.1:{self.port}")
            time.sleep(0.005)
        return self

    def add(self, site: Site) -> None:
        self.sites[site.token] = site

    def remove(self, token: str) -> None:
        self.sites.pop(token, None)

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self._server = self._thread = None
