"""One episode's world: its own accounts on the pool's servers, its own workspace, its state."""

from __future__ import annotations

import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from stageclaw.world import canonical, davstore, maildir, mime, seeding, state, workspace
from stageclaw.world.bwrap import Identity
from stageclaw.world.clock import EpisodeClock
from stageclaw.world.model import World
from stageclaw.world.smtp_server import MailAccount
from stageclaw.world.web import data as web_data
from stageclaw.world.web.data import Site

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
    web_url: str | None = None  # the episode's web apps (`.../e/<token>`); None when the world has none

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
        self.web_dir = self.dir / "web"
        # The secret path prefix of this episode's web apps: the browser is confined to it.
        self.web_token = secrets.token_urlsafe(16)
        self.home = pool.dovecot.home(self.login)
        self.tz = world.tz
        self.clock = EpisodeClock(world.now, self.tz)
        # Whom the episode's jails (its terminal, an agent program) run as: the owner of the workspace.
        self.identity = Identity.fresh()
        self.closed = False
        self._answered: set[str] = set()  # addresses whose automatic reply has come

    @property
    def endpoints(self) -> Endpoints:
        return Endpoints(
            login=self.login,
            password=self.password,
            address=self.world.user.email,
            imap_port=self.pool.dovecot.port,
            smtp_port=self.pool.smtp.port,
            dav_url=self.pool.radicale.url,
            web_url=self.web_url,
        )

    @property
    def web_url(self) -> str | None:
        if not self.world.web.apps:
            return None
        return f"{self.pool.web().url}/e/{self.web_token}"

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
            answer=self._answer,
        )
        if self.world.web.apps:
            self.pool.web().add(
                Site(
                    token=self.web_token,
                    root=self.web_dir,
                    apps=self.world.web.apps,
                    user_name=self.world.user.name,
                    user_email=self.world.user.email,
                    tz=self.tz,
                    now=lambda: self.clock.now(),  # reset() replaces the clock
                )
            )

    def _seed(self) -> None:
        owner = self.pool.dovecot.owner
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True)
        self.dir.chmod(0o700)
        rendered = seeding.render(self.world, self.base)
        maildir.seed(self.home, rendered.mail, owner)
        davstore.write_user(self.pool.radicale.storage, self.login, rendered.dav)
        workspace.seed(self.workspace, self.world.files, self.base, self.world.now.timestamp())
        self.identity.give(self.workspace)
        web_data.seed(self.web_dir, rendered.web)

    def reset(self) -> None:
        """Back to E0: drop live sessions, then rewrite every store."""
        self._kick()
        self._seed()
        self.clock = EpisodeClock(self.world.now, self.tz)
        self.pool.smtp.accounts[self.login].now = self.clock.now
        self._answered.clear()

    def _deliver(self, data: bytes) -> None:
        maildir.deliver(self.home, "INBOX", data, self.pool.dovecot.owner)

    def _answer(self, data: bytes, recipients: list[str]) -> None:
        """Each automatic reply of the world answers the first message the user sends to its address."""
        wanted = {r.strip().lower() for r in recipients}
        due = [r for r in self.world.mail.autoreplies if r.address in wanted and r.address not in self._answered]
        if not due:
            return
        msg = mime.parse(data)
        subject = canonical.decode_words(str(msg.get("Subject") or ""))
        for reply in due:
            self._answered.add(reply.address)
            self._deliver(
                mime.build_message(
                    sender=reply.from_,
                    to=[self.world.user.email],
                    cc=[],
                    subject=reply.subject.replace("{subject}", subject),
                    date=self.clock.now(),
                    message_id=reply.message_id,
                    body=reply.body,
                    in_reply_to=mime.message_id_of(msg, data),
                )
            )

    def snapshot(self) -> state.State:
        mail = state.read_mail(self.home, self.outbox, self.tz)
        dav = state.read_dav(self.pool.radicale.storage, self.login, self.tz)
        web = web_data.read(self.web_dir, self.world.web.apps)
        return {"mail": mail, **dav, "files": workspace.read(self.workspace), "web": web}

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
        self.pool.forget_site(self.web_token)
        self._kick()
        davstore.remove_user(self.pool.radicale.storage, self.login)
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.pool.forget(self)

    def __enter__(self) -> Episode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
