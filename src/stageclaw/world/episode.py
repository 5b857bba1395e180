"""One episode's world: its own accounts on the pool's servers, its own workspace, its state."""

from __future__ import annotations

import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from stageclaw.world import davstore, maildir, seeding, state, workspace
from stageclaw.world.clock import EpisodeClock
from stageclaw.world.model import World
from stageclaw.world.smtp_server import MailAccount

if TYPE_CHECKING:
    from stageclaw.world.pool import ServicePool


@dataclass(frozen=True)
class Endpoints:
    """How a real client reaches this episode's applications."""

    login: str
    password: str
    address: str
    imap_port: int
    smtp_port: int
    dav_url: str
    host: str = "127.0.0.1"

    @property
    def caldav_url(self) -> str:
        return f"{self.dav_url}/{self.login}/"


class Episode:
    def __init__(self, pool: ServicePool, world: World, base: Path) -> None:
        self.pool = pool
        self.world = world
        self.base = base
        self.login = "u" + secrets.token_hex(6)
        self.password = secrets.token_urlsafe(18)
        self.dir = pool.root / "episodes" / self.login
        self.workspace = self.dir / "workspace"
        self.outbox = self.dir / "outbox"
        self.home = pool.dovecot.home(self.login)
        self.tz = world.tz
        self.clock = EpisodeClock(world.now, self.tz)
        self.closed = False

    @property
    def endpoints(self) -> Endpoints:
        return Endpoints(
            login=self.login,
            password=self.password,
            address=self.world.user.email,
            imap_port=self.pool.dovecot.port,
            smtp_port=self.pool.smtp.port,
            dav_url=self.pool.radicale.url,
        )

    def build(self) -> None:
        """Seed every store, then open the accounts, so nobody sees a half-built world."""
        self._seed()
        self.pool.dovecot.add_user(self.login, self.password)
        self.pool.radicale.add_user(self.login, self.password)
        self.pool.smtp.accounts[self.login] = MailAccount(
            login=self.login,
            password=self.password,
            address=self.world.user.email,
            outbox=self.outbox,
            deliver=self._deliver,
            now=self.clock.now,
        )

    def _seed(self) -> None:
        owner = self.pool.dovecot.owner
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        rendered = seeding.render(self.world, self.base)
        maildir.seed(self.home, rendered.mail, owner)
        davstore.write_user(self.pool.radicale.storage, self.login, rendered.dav)
        workspace.seed(self.workspace, self.world.files, self.base, self.world.now.timestamp())

    def reset(self) -> None:
        """Back to E0: drop live sessions, then rewrite every store."""
        self._kick()
        self._seed()
        self.clock = EpisodeClock(self.world.now, self.tz)
        self.pool.smtp.accounts[self.login].now = self.clock.now

    def _deliver(self, data: bytes) -> None:
        maildir.deliver(self.home, "INBOX", data, self.pool.dovecot.owner)

    def snapshot(self) -> state.State:
        mail = state.read_mail(self.home, self.outbox, self.tz)
        dav = state.read_dav(self.pool.radicale.storage, self.login, self.tz)
        return {"mail": mail, **dav, "files": workspace.read(self.workspace)}

    def _kick(self) -> None:
        self.pool.dovecot.kick(self.login)

    def close(self) -> None:
        """Remove the accounts and every file of this episode."""
        if self.closed:
            return
        self.closed = True
        self.pool.smtp.accounts.pop(self.login, None)
        self.pool.dovecot.remove_user(self.login)
        self.pool.radicale.remove_user(self.login)
        self._kick()
        davstore.remove_user(self.pool.radicale.storage, self.login)
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.pool.forget(self)

    def __enter__(self) -> Episode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
