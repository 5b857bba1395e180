"""Dovecot (IMAP) for a service pool: one daemon in the foreground, many users, Maildir on disk.

As root, Dovecot's login and internal processes take its packaged users and mail is owned
by `nobody`; as an ordinary user, everything runs as that user.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
from pathlib import Path

from stageclaw.errors import ServiceError
from stageclaw.world import procs
from stageclaw.world.maildir import Owner

SOCKET_PATH_MAX = 107  # bytes of a Unix socket's path (sun_path, less its NUL)
INSTALL_HINT = "install it with `scripts/install` (or `apt-get install dovecot-imapd`)"

CONFIG = """\
base_dir = {run}
state_dir = {state}
instance_name = stageclaw-{port}
log_path = {log}
info_log_path = {log}
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_cache_size = 0
auth_failure_delay = 0
mail_location = maildir:~:UTF-8
first_valid_uid = {first_uid}
first_valid_gid = {first_gid}
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
mail_max_userip_connections = 200
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {passwd}/%u
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={mail}/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
  chroot =
}}
service anvil {{
  chroot =
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Sent {{
    special_use = \\Sent
  }}
  mailbox Trash {{
    special_use = \\Trash
  }}
  mailbox Drafts {{
    special_use = \\Drafts
  }}
  mailbox Archive {{
    special_use = \\Archive
  }}
  mailbox Junk {{
    special_use = \\Junk
  }}
}}
"""


def _binary() -> str:
    found = shutil.which("dovecot") or next((p for p in ("/usr/sbin/dovecot",) if os.path.exists(p)), None)
    if not found:
        raise ServiceError(f"Dovecot is not installed; {INSTALL_HINT}")
    return found


def _accounts() -> tuple[Owner, dict[str, str | int]]:
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("dovenull")
            pwd.getpwnam("dovecot")
            nobody = pwd.getpwnam("nobody")
        except KeyError as exc:
            raise ServiceError(f"Dovecot's system users are missing ({exc}); reinstall it: {INSTALL_HINT}") from None
        owner = Owner(nobody.pw_uid, nobody.pw_gid)
        users = {"login_user": "dovenull", "internal_user": "dovecot", "internal_group": "dovecot"}
    else:
        me = pwd.getpwuid(os.geteuid())
        owner = Owner(me.pw_uid, me.pw_gid)
        users = {"login_user": me.pw_name, "internal_user": me.pw_name, "internal_group": me.pw_name}
    first = {"first_uid": min(owner.uid, 500), "first_gid": min(owner.gid, 500)}
    return owner, {**users, **first, "uid": owner.uid, "gid": owner.gid}


class DovecotServer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.mail_root = root / "mail"
        self.passwd = root / "users"
        self.log = root / "dovecot.log"
        self.config = root / "dovecot.conf"
        self.port = 0
        self.owner, self._users_conf = _accounts()
        self._proc = None

    def home(self, user: str) -> Path:
        return self.mail_root / user

    def start(self) -> None:
        binary = _binary()
        longest = self.root / "run" / "token-login" / "imap-urlauth"  # the longest of Dovecot's socket paths
        if len(bytes(longest)) > SOCKET_PATH_MAX:
            raise ServiceError(
                f"the pool folder {self.root.parent} is too deep for Dovecot's sockets ({longest} is over "
                f"{SOCKET_PATH_MAX} bytes): point STAGECLAW_TMP at a folder with a shorter path"
            )
        for sub in ("run", "state"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        # Left by a Dovecot that died: its pid may belong to another process by now, and Dovecot would
        # then refuse to start, taking it for itself still running.
        (self.root / "run" / "master.pid").unlink(missing_ok=True)
        # Dovecot's own users pass through to their folders: mail (the mail uid's alone) and the passwords
        # (its auth process's alone).
        self.root.chmod(0o711)
        self.mail_root.mkdir(parents=True, exist_ok=True)
        self.owner.apply(self.mail_root)
        self.mail_root.chmod(0o700)
        self.passwd.mkdir(exist_ok=True)
        self._give_auth(self.passwd)
        self.passwd.chmod(0o700)
        self.port = procs.free_port()
        self.config.write_text(
            CONFIG.format(
                run=self.root / "run",
                state=self.root / "state",
                log=self.log,
                passwd=self.passwd,
                mail=self.mail_root,
                port=self.port,
                **self._users_conf,
            )
        )
        self._proc = procs.spawn([binary, "-F", "-c", str(self.config)], self.log)

    def wait(self) -> None:
        procs.wait_for_port(self.port, self._proc, "Dovecot", self.log)

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def stop(self) -> None:
        # Dovecot's orderly shutdown takes about a second; its Maildirs are crash-safe, so be quick.
        procs.stop(self._proc, grace=0.2)

    def kick(self, user: str) -> None:
        """Close the user's live IMAP sessions (before a reset or removal)."""
        doveadm = shutil.which("doveadm") or "/usr/bin/doveadm"
        if self.alive() and os.path.exists(doveadm):
            subprocess.run(
                [doveadm, "-c", str(self.config), "kick", user], capture_output=True, timeout=10, check=False
            )

    def add_user(self, user: str, password: str) -> None:
        # One passwd-file per user: Dovecot re-checks a loaded file at most once a second, so
        # a shared file would hide a user added within a second of the last login; a file
        # it has never loaded is read at once.
        tmp = self.passwd / f".{user}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(f"{user}:{{PLAIN}}{password}\n")
        self._give_auth(tmp)
        os.replace(tmp, self.passwd / user)

    def _give_auth(self, path: Path) -> None:
        """Dovecot's auth process runs as its internal user (when we are root): it alone reads the passwords."""
        if os.geteuid() == 0:
            internal = pwd.getpwnam(str(self._users_conf["internal_user"]))
            os.chown(path, internal.pw_uid, grp.getgrnam(str(self._users_conf["internal_group"])).gr_gid)

    def remove_user(self, user: str) -> None:
        (self.passwd / user).unlink(missing_ok=True)
