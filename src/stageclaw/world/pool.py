"""The service pool: one Radicale, one Dovecot and one SMTP listener on free loopback ports, and
the web apps' HTTP server, started for the first episode whose world has web apps.

A pool serves many episodes at once; each episode is a set of accounts, so building and
removing one needs no restart. Stopping the pool leaves no process behind, also on Ctrl-C,
SIGTERM or an exception (and the kernel kills the servers if stageclaw itself is killed).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from stageclaw.errors import ServiceError
from stageclaw.world.dovecot_server import DovecotServer
from stageclaw.world.episode import Episode
from stageclaw.world.model import World
from stageclaw.world.radicale_server import RadicaleServer
from stageclaw.world.smtp_server import SubmissionServer

if TYPE_CHECKING:
    from stageclaw.world.web.server import WebServer


def scratch_dir() -> str | None:
    """Where pools keep their stores: $STAGECLAW_TMP, else RAM-backed /dev/shm, else the temp dir.

    Seeding writes hundreds of small files per episode; on tmpfs that costs microseconds each.
    """
    chosen = os.environ.get("STAGECLAW_TMP")
    if chosen:
        return chosen
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def _check_traversable(root: Path) -> None:
    for folder in [root, *root.parents]:
        if not os.stat(folder).st_mode & 0o001:
            raise ServiceError(
                f"{folder} is closed to other users, but Dovecot's processes must reach the pool in {root}: "
                f"run `chmod o+x {folder}` or point STAGECLAW_TMP somewhere else"
            )


class ServicePool:
    def __init__(self, root: Path | None = None) -> None:
        self._owns_root = root is None
        self.root = (
            Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="stageclaw-pool-", dir=scratch_dir()))
        )
        self.radicale = RadicaleServer(self.root / "radicale")
        self.dovecot = DovecotServer(self.root / "dovecot")
        self.smtp = SubmissionServer()
        self._web: WebServer | None = None
        self.episodes: dict[str, Episode] = {}
        self._lock = threading.Lock()
        self._started = False

    def start(self) -> ServicePool:
        # Dovecot's processes run as other users when we are root: they may pass through the pool to
        # their own folders, but list and read nothing of it; episodes (workspaces) are ours alone.
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o711 if os.geteuid() == 0 else 0o700)
        if os.geteuid() == 0:
            _check_traversable(self.root)
        (self.root / "episodes").mkdir(exist_ok=True)
        (self.root / "episodes").chmod(0o700)
        atexit.register(self.stop)
        self._started = True
        try:
            self.dovecot.start()
            self.radicale.start()
            self.smtp.start()
            self.dovecot.wait()
            self.radicale.wait()
        except BaseException:
            self.stop()
            raise
        return self

    def check(self) -> None:
        """Raise if a server has died (an infrastructure failure, not the agent's)."""
        for name, alive in (
            ("Radicale", self.radicale.alive()),
            ("Dovecot", self.dovecot.alive()),
            ("SMTP", self.smtp.alive()),
        ):
            if not alive:
                raise ServiceError(f"the {name} server of this pool has stopped")
        if self._web is not None and not self._web.alive():
            raise ServiceError("the web apps' server of this pool has stopped")

    def web(self) -> WebServer:
        """The web apps' server; started on first use, so worlds without web apps never pay for it."""
        with self._lock:
            if self._web is None:
                if not self._started:
                    raise ServiceError("the service pool is not started")
                # Imported here: starlette, uvicorn and jinja2 take 0.1 s to load.
                from stageclaw.world.web.server import WebServer

                self._web = WebServer().start()
            return self._web

    def forget_site(self, token: str) -> None:
        if self._web is not None:
            self._web.remove(token)

    def episode(self, world: World, base: Path) -> Episode:
        """Build a fresh episode of `world` (assets relative to `base`)."""
        if not self._started:
            raise ServiceError("the service pool is not started")
        episode = Episode(self, world, base)
        with self._lock:
            self.episodes[episode.login] = episode
        try:
            episode.build()
        except BaseException:
            episode.close()
            raise
        return episode

    def forget(self, episode: Episode) -> None:
        with self._lock:
            self.episodes.pop(episode.login, None)

    def stop(self) -> None:
        if not self._started:
            return
        self._started = False
        for episode in list(self.episodes.values()):
            episode.closed = True
        self.smtp.stop()
        if self._web is not None:
            self._web.stop()
            self._web = None
        self.radicale.stop()
        self.dovecot.stop()
        if self._owns_root:
            shutil.rmtree(self.root, ignore_errors=True)
        atexit.unregister(self.stop)

    def __enter__(self) -> ServicePool:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
