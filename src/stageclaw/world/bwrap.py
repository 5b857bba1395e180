"""The common part of every bubblewrap sandbox stageclaw starts (the terminal, verifiers).

Read-only `/usr` and the few `/etc` files programs need (not `/etc/ssl/private`: the sandbox
user is the invoking user, root included, seen as uid 1000), private `/proc`, `/dev` and
`/tmp`, no network (`--unshare-all`), no nested namespaces, no inherited environment, and death
with the parent. Nothing else of the host exists inside unless a caller binds it.
"""

from __future__ import annotations

import shutil

from stageclaw.errors import ServiceError

INSTALL_HINT = "run scripts/install or `apt-get install bubblewrap`"
ETC_FILES = ("/etc/alternatives", "/etc/ld.so.cache", "/etc/ssl/certs", "/etc/ssl/openssl.cnf")


def find() -> str | None:
    return shutil.which("bwrap")


def binary() -> str:
    found = find()
    if found is None:
        raise ServiceError(f"bubblewrap (bwrap) is not installed: {INSTALL_HINT}")
    return found


def base_argv(bwrap: str) -> list[str]:
    argv = [bwrap, "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib64", "sbin"):
        argv += ["--symlink", f"usr/{name}", f"/{name}"]
    for path in ETC_FILES:
        argv += ["--ro-bind-try", path, path]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    argv += ["--unshare-all", "--unshare-user", "--disable-userns", "--uid", "1000", "--gid", "1000"]
    argv += ["--die-with-parent", "--new-session", "--clearenv"]
    return argv
