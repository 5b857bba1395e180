"""The service pool: one Radicale, one Dovecot and one SMTP listener on free loopback ports, and
the web apps' HTTP server, started for the first episode whose world has web apps.

A pool serves many episodes at once; each episode is a set of accounts, so building and
removing one needs no restart. Stopping the pool leaves no process behind, also on Ctrl-C,
SIGTERM or an exception (and the kernel kills the servers if stageclaw itself is killed).

A pool heals: `heal()` (called between episodes) restarts any server that died, or the whole
pool if that fails, and counts the restart in `generation`, so an episode that spanned one is
known to be void. Its folder records the process that owns it; the next pool started in the same
place removes the folders of owners that are gone (a run that was killed).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from stageclaw.errors import ServiceError
from stageclaw.world.dovecot_server import DovecotServer
from stageclaw.world.episode import Episode
from stageclaw.world.model import World
from stageclaw.world.radicale_server import RadicaleServer
from stageclaw.world.smtp_server import SubmissionServer

if TYPE_CHECKING:
    from stageclaw.world.web.server import WebServer

PREFIX = "stageclaw-pool-"
OWNER = "owner.json"  # {"pid", "start"}: the process that owns the pool folder
T = TypeVar("T")


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


def _started_at(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), or None when there is no such process.

    With the pid it names one process for good: a pid reused by a later process has another start.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def reap_stale(parent: Path) -> list[Path]:
    """Remove the pool folders in `parent` whose owning process is gone; returns them.

    Only folders that name their owner are touched: a pool being started, one of an older
    stageclaw, or one of a live process (another run, a test session) is left alone.
    """
    removed = []
    for folder in sorted(parent.glob(f"{PREFIX}*")):
        try:
            owner = json.loads((folder / OWNER).read_text())
            pid, start = int(owner["pid"]), str(owner["start"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if _started_at(pid) != start:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


class ServicePool:
    def __init__(self, root: Path | None = None) -> None:
        self._owns_root = root is None
        self.root = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix=PREFIX, dir=scratch_dir()))
        self.radicale = RadicaleServer(self.root / "radicale")
        self.dovecot = DovecotServer(self.root / "dovecot")
        self.smtp = SubmissionServer()
        self._web: WebServer | None = None
        self.episodes: dict[str, Episode] = {}
        self.generation = 0  # server restarts so far: an episode that saw this number change is void
        self._lock = threading.Lock()
        self._heal_lock = threading.Lock()
        self._keeper: ThreadPoolExecutor | None = None
        self._started = False

    def start(self) -> ServicePool:
        # Dovecot's processes run as other users when we are root: they may pass through the pool to
        # their own folders, but list and read nothing of it; episodes (workspaces) are ours alone.
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o711 if os.geteuid() == 0 else 0o700)
        if os.geteuid() == 0:
            _check_traversable(self.root)
        if self._owns_root:
            pid = os.getpid()
            (self.root / OWNER).write_text(json.dumps({"pid": pid, "start": _started_at(pid)}))
            reap_stale(self.root.parent)
        (self.root / "episodes").mkdir(exist_ok=True)
        (self.root / "episodes").chmod(0o700)
        atexit.register(self.stop)
        self._started = True
        # Servers die with the thread that started them (see procs.spawn): this one lives as long as the
        # pool, so the pool may be started, and healed, from any thread.
        self._keeper = ThreadPoolExecutor(1, thread_name_prefix="pool-keeper")
        try:
            self._on_keeper(self._start_servers)
        except BaseException:
            self.stop()
            raise
        return self

    def _on_keeper(self, work: Callable[[], T]) -> T:
        if self._keeper is None:
            raise ServiceError("the service pool is not started")
        return self._keeper.submit(work).result()

    def _start_servers(self) -> None:
        self.dovecot.start()
        self.radicale.start()
        self.smtp.start()
        self.dovecot.wait()
        self.radicale.wait()

    def _stop_servers(self) -> None:
        self.smtp.stop()
        if self._web is not None:
            self._web.stop()
            self._web = None
        self.radicale.stop()
        self.dovecot.stop()

    def _dead(self) -> list[str]:
        dead = [name for name, server in self._servers().items() if not server.alive()]
        if self._web is not None and not self._web.alive():
            dead.append("web apps'")
        return dead

    def _servers(self) -> dict[str, RadicaleServer | DovecotServer | SubmissionServer]:
        return {"Radicale": self.radicale, "Dovecot": self.dovecot, "SMTP": self.smtp}

    def check(self, since: int | None = None) -> None:
        """Raise if a server has died, or (with `since`) was restarted after generation `since`:
        an infrastructure failure, not the agent's."""
        dead = self._dead()
        if dead:
            raise ServiceError(f"the {', '.join(dead)} server of this pool has stopped")
        if since is not None and self.generation != since:
            raise ServiceError("a server of this pool died and was restarted during the episode")

    def heal(self) -> None:
        """Restart every server that has died; if that fails, restart them all. Raises ServiceError
        when even that fails. Episodes running at the time are void (see `check`)."""
        with self._heal_lock:
            dead = self._dead()
            if not dead or not self._started:
                return
            self.generation += 1
            try:
                self._on_keeper(lambda: self._restart(dead))
            except ServiceError:
                self._on_keeper(self._restart_all)

    def _restart(self, dead: list[str]) -> None:
        if "web apps'" in dead and self._web is not None:
            self._web.stop()
            self._web = None  # started again by the next episode that has web apps
        for name, server in self._servers().items():
            if name in dead:
                server.stop()
                server.start()
        if "Dovecot" in dead:
            self.dovecot.wait()
        if "Radicale" in dead:
            self.radicale.wait()

    def _restart_all(self) -> None:
        self._stop_servers()
        self._start_servers()

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
        self._stop_servers()
        if self._keeper is not None:
            # Not waited for: a server it is still starting dies with its thread, which ends after that start.
            self._keeper.shutdown(wait=False, cancel_futures=True)
            self._keeper = None
        if self._owns_root:
            shutil.rmtree(self.root, ignore_errors=True)
        atexit.unregister(self.stop)

    def __enter__(self) -> ServicePool:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
