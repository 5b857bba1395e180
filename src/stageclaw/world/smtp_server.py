"""The user's SMTP submission server (aiosmtpd, in-process).

An authenticated episode user may send from their own address to anyone; each accepted
message is written to that episode's outbox, and delivered to its INBOX when the user is a
recipient; then the episode hears of it (`answer`), so that correspondents' automatic replies can come
back. Unauthenticated clients and foreign sender addresses are refused, as a real provider would.
"""

from __future__ import annotations

import email.utils
import logging
import os
import threading
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from stageclaw.world import procs


@dataclass
class MailAccount:
    login: str
    password: str
    address: str
    outbox: Path
    deliver: Callable[[bytes], None]
    now: Callable[[], datetime]
    answer: Callable[[bytes, list[str]], None] = lambda data, recipients: None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, data: bytes) -> None:
        """Append to the outbox atomically, numbered in order of acceptance."""
        with self._lock:
            self.outbox.mkdir(parents=True, exist_ok=True)
            seq = len([n for n in os.listdir(self.outbox) if n.endswith(".eml")]) + 1
            tmp = self.outbox / f".{seq:06d}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, self.outbox / f"{seq:06d}.eml")


def _complete_headers(data: bytes, account: MailAccount) -> bytes:
    """Add Message-ID and Date when the client left them out, as submission servers do."""
    head, sep, _ = data.partition(b"\r\n\r\n")
    if not sep:
        head, sep, _ = data.partition(b"\n\n")
    names = {
        line.split(b":", 1)[0].strip().lower() for line in head.splitlines() if b":" in line and line[:1] not in b" \t"
    }
    extra = b""
    if b"message-id" not in names:
        domain = account.address.rpartition("@")[2] or "localhost"
        extra += f"Message-ID: <{uuid.uuid4().hex}@{domain}>\r\n".encode()
    if b"date" not in names:
        extra += f"Date: {email.utils.format_datetime(account.now())}\r\n".encode()
    return extra + data


class SubmissionServer:
    def __init__(self) -> None:
        self.accounts: dict[str, MailAccount] = {}
        self.port = 0
        self._controller: Controller | None = None

    def start(self) -> None:
        # It only ever speaks to loopback clients; aiosmtpd's advice to require TLS is noise here.
        logging.getLogger("mail.log").setLevel(logging.ERROR)
        warnings.filterwarnings("ignore", module="aiosmtpd")
        self.port = procs.free_port()
        self._controller = Controller(
            self,
            hostname="127.0.0.1",
            port=self.port,
            authenticator=self._authenticate,
            auth_required=True,
            auth_require_tls=False,
            ready_timeout=10,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            try:
                self._controller.stop()
            except RuntimeError:  # its event loop already ended (the listener died): nothing left to stop
                pass
            self._controller = None

    def alive(self) -> bool:
        return (
            self._controller is not None
            and self._controller._thread is not None
            and self._controller._thread.is_alive()
        )

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode(errors="replace")
        account = self.accounts.get(login)
        if account is None or auth_data.password.decode(errors="replace") != account.password:
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, auth_data=login)

    def _account(self, session: Any) -> MailAccount | None:
        return self.accounts.get(session.auth_data) if session.authenticated else None

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, mail_options: list[str]) -> str:
        account = self._account(session)
        if account is None:
            return "530 5.7.0 Authentication required"
        if address.strip().lower() != account.address:
            return f"553 5.7.1 Sender address rejected: {address} is not owned by user {account.login}"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        account = self._account(session)
        if account is None:
            return "530 5.7.0 Authentication required"
        data = _complete_headers(envelope.original_content or envelope.content, account)
        account.record(data)
        if any(r.strip().lower() == account.address for r in envelope.rcpt_tos):
            account.deliver(data)
        account.answer(data, envelope.rcpt_tos)
        return "250 OK: message accepted"
