"""Radicale (CalDAV + CardDAV) for a service pool: one process, one storage folder, many users, and
stageclaw's storage backend (`stageclaw.radicale_storage`), which remembers items between requests."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import stageclaw
from stageclaw.world import procs

CONFIG = """\
[server]
hosts = 127.0.0.1:{port}
max_connections = 64
[auth]
type = htpasswd
htpasswd_filename = {users}
htpasswd_encryption = plain
delay = 0
[storage]
type = stageclaw.radicale_storage
filesystem_folder = {storage}
[rights]
type = owner_only
[web]
type = none
[logging]
level = error
mask_passwords = True
"""


class RadicaleServer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.storage = root / "storage"
        self.users_file = root / "users"
        self.log = root / "radicale.log"
        self.port = 0
        self._proc = None
        self._users: dict[str, str] = {}
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o700)  # calendars, contacts and the password file: Radicale (this user) alone
        self.storage.mkdir(exist_ok=True)
        self._write_users()
        self.port = procs.free_port()
        config = self.root / "radicale.conf"
        config.write_text(CONFIG.format(port=self.port, users=self.users_file, storage=self.storage))
        # The storage backend is stageclaw's own module: make sure Radicale finds this copy of it.
        package_root = str(Path(stageclaw.__file__).resolve().parent.parent)
        path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": path}
        self._proc = procs.spawn([sys.executable, "-m", "radicale", "--config", str(config)], self.log, env)

    def wait(self) -> None:
        procs.wait_for_port(self.port, self._proc, "Radicale", self.log)

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def stop(self) -> None:
        procs.stop(self._proc)

    def add_user(self, user: str, password: str) -> None:
        with self._lock:
            self._users[user] = password
            self._write_users()

    def remove_user(self, user: str) -> None:
        with self._lock:
            self._users.pop(user, None)
            self._write_users()

    def _write_users(self) -> None:
        # Radicale re-reads the file on every request; replace it atomically.
        tmp = self.users_file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write("".join(f"{u}:{p}\n" for u, p in self._users.items()))
        os.replace(tmp, self.users_file)
