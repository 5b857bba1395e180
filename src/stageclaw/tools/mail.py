"""Mail tools: a mail client over the episode's real IMAP (Dovecot) and SMTP submission servers.

Messages are addressed as `FOLDER/UID`. One IMAP session is kept per episode and reopened
once if it broke; every message a tool returns is built by `mime.message_state`, so it has
exactly the fields (and values) of the State JSON.
"""

from __future__ import annotations

import base64
import email.utils
import imaplib
import re
import smtplib
import stat
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from email.message import Message
from typing import Annotated, Any, TypeVar

from pydantic import Field

from stageclaw.tools import paging, paths
from stageclaw.tools.base import ToolContext, ToolError, tool
from stageclaw.tools.timeparse import parse_datetime
from stageclaw.world import canonical, mime
from stageclaw.world.episode import Endpoints

ATTACHMENT_CAP = 25 << 20  # bytes of one attached file, as mail providers allow

T = TypeVar("T")

_SESSION = "imap"
_TIMEOUT_S = 30
_SNIPPET = 160
_DEFAULT_LIMIT = 20
_ID_HINT = "ids look like INBOX/12 (folder/UID, as returned by mail_search)"
_SYSTEM_FLAGS = {
    "seen": "\\Seen",
    "answered": "\\Answered",
    "flagged": "\\Flagged",
    "deleted": "\\Deleted",
    "draft": "\\Draft",
}
_KEYWORD = re.compile(r"^[A-Za-z$][A-Za-z0-9$_.-]{0,63}$")
_LIST_LINE = re.compile(rb'^\((?P<attrs>[^)]*)\) (?:"(?:[^"\\]|\\.)*"|NIL) (?P<name>.+)$')
_FETCH_UID = re.compile(rb"\bUID (\d+)")
_FETCH_FLAGS = re.compile(rb"\bFLAGS \(([^)]*)\)")
_REPLY_PREFIX = re.compile(r"^(\s*re\s*:\s*)+", re.IGNORECASE)
_FORWARD_PREFIX = re.compile(r"^\s*(fwd?|wg|tr)\s*:", re.IGNORECASE)
# The keyword Thunderbird, Apple Mail and Outlook's IMAP clients set on a message once forwarded.
FORWARDED = "$Forwarded"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


# --- IMAP wire helpers ----------------------------------------------------------------------


def _mutf7_encode(name: str) -> str:
    """RFC 3501 modified UTF-7, which IMAP uses for folder names (the stdlib has no codec for it)."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            encoded = base64.b64encode("".join(run).encode("utf-16-be")).rstrip(b"=").replace(b"/", b",")
            out.append("&" + encoded.decode("ascii") + "-")
            run.clear()

    for ch in name:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            run.append(ch)
    flush()
    return "".join(out)


def _mutf7_decode(name: str) -> str:
    def shifted(match: re.Match[str]) -> str:
        chunk = match.group(1).replace(",", "/")
        if not chunk:
            return "&"
        return base64.b64decode(chunk + "=" * (-len(chunk) % 4)).decode("utf-16-be")

    return re.sub(r"&([A-Za-z0-9+,]*)-", shifted, name)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _astring(text: str) -> bytes:
    """A search string: quoted when plain ASCII, otherwise a non-synchronizing literal (LITERAL+)."""
    if text.isascii() and text.isprintable():
        return _quoted(text).encode("ascii")
    raw = text.encode("utf-8")
    return b"{%d+}\r\n" % len(raw) + raw


def _uid_set(uids: Iterable[int], sep: str = ":") -> str:
    """Sorted UIDs as compact ranges: `1:3,7` (or `1-3, 7` for people)."""
    ranges: list[list[int]] = []
    for uid in sorted(set(uids)):
        if ranges and uid == ranges[-1][1] + 1:
            ranges[-1][1] = uid
        else:
            ranges.append([uid, uid])
    joiner = "," if sep == ":" else ", "
    return joiner.join(str(a) if a == b else f"{a}{sep}{b}" for a, b in ranges)


def _text(data: Any) -> str:
    """What the server said, as readable text."""
    if isinstance(data, (list, tuple)):
        return " ".join(_text(d) for d in data if d is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", errors="replace")
    return str(data)


def _fetched(data: list[Any]) -> dict[int, tuple[list[str] | None, bytes | None]]:
    """UID -> (flags, literal) from imaplib's FETCH data, whatever order the items came in.

    imaplib splits a response with a literal into `(prefix, literal)` and the rest of the
    line (which may carry FLAGS) into the next element; a new response starts with a number.
    """
    records: list[list[Any]] = []
    for item in data:
        if isinstance(item, tuple):
            records.append([item[0], item[1]])
        elif isinstance(item, bytes):
            if records and not item[:1].isdigit():
                records[-1][0] += item
            else:
                records.append([item, None])
    out: dict[int, tuple[list[str] | None, bytes | None]] = {}
    for meta, literal in records:
        uid_match = _FETCH_UID.search(meta)
        if uid_match is None:
            continue
        uid = int(uid_match.group(1))
        flags_match = _FETCH_FLAGS.search(meta)
        flags = flags_match.group(1).decode("ascii", errors="replace").split() if flags_match else None
        old_flags, old_literal = out.get(uid, (None, None))
        out[uid] = (flags if flags is not None else old_flags, literal if literal is not None else old_literal)
    return out


# --- the IMAP session ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Folder:
    name: str  # as the user sees it, e.g. "Projects/Alpha" or "Café"
    wire: str  # quoted modified UTF-7, ready for a command
    attrs: frozenset[str]  # LIST attributes, lower-cased: "\\sent", "\\noselect", ...


@dataclass(frozen=True)
class _Located:
    folder: _Folder
    uid: int
    flags: list[str]
    data: bytes | None

    @property
    def id(self) -> str:
        return f"{self.folder.name}/{self.uid}"


def _parse_id(value: str) -> tuple[str, int]:
    folder, sep, uid = str(value).strip().rpartition("/")
    if not sep or not folder or not (uid.isascii() and uid.isdigit()) or int(uid) == 0:
        raise ToolError(f"bad id {value!r}: {_ID_HINT}", "invalid_arguments")
    return folder, int(uid)


class _Session:
    """One logged-in IMAP connection and the few commands the tools need."""

    def __init__(self, endpoints: Endpoints) -> None:
        self.conn = imaplib.IMAP4(endpoints.host, endpoints.imap_port, timeout=_TIMEOUT_S)
        try:
            self.conn.login(endpoints.login, endpoints.password)
        except imaplib.IMAP4.error as exc:
            self.conn.shutdown()
            raise ToolError(f"could not log in to the mail server ({exc})", "internal") from None

    def close(self) -> None:
        self.conn.logout()

    def ok(self, result: tuple[str, Any], action: str) -> Any:
        typ, data = result
        if typ != "OK":
            raise ToolError(f"the mail server refused to {action}: {_text(data)}")
        return data

    def folders(self) -> dict[str, _Folder]:
        """Selectable folders by name, INBOX first, then alphabetical."""
        data = self.ok(self.conn.list(), "list folders")
        found: dict[str, _Folder] = {}
        for item in data:
            if isinstance(item, tuple):  # the name came as a literal
                line, raw_name = item[0], item[1]
                match = _LIST_LINE.match(line)
            else:
                match = _LIST_LINE.match(item or b"")
                raw_name = match.group("name") if match else b""
                if raw_name.startswith(b'"'):
                    raw_name = re.sub(rb"\\(.)", rb"\1", raw_name[1:-1])
            if match is None:
                continue
            attrs = frozenset(a.lower() for a in match.group("attrs").decode("ascii", errors="replace").split())
            if attrs & {"\\noselect", "\\nonexistent"}:
                continue
            wire = raw_name.decode("ascii", errors="replace")
            name = _mutf7_decode(wire)
            found[name] = _Folder(name, _quoted(wire), attrs)
        return dict(sorted(found.items(), key=lambda kv: (kv[0] != "INBOX", kv[0])))

    def folder(self, name: str, folders: dict[str, _Folder] | None = None) -> _Folder:
        folders = folders if folders is not None else self.folders()
        wanted = "INBOX" if name.strip().upper() == "INBOX" else name.strip().strip("/")
        if wanted not in folders:
            raise ToolError(f"no folder {name!r}; folders are: {', '.join(folders)}")
        return folders[wanted]

    def special(self, attr: str, fallback: str, folders: dict[str, _Folder]) -> _Folder:
        """The folder with a special-use attribute (`\\sent`, `\\trash`), or the usual name."""
        for folder in folders.values():
            if attr in folder.attrs:
                return folder
        return self.folder(fallback, folders)

    def select(self, folder: _Folder, *, writable: bool) -> None:
        self.ok(self.conn.select(folder.wire, readonly=not writable), f"open folder {folder.name!r}")

    def fetch(self, uids: Iterable[int], items: str) -> dict[int, tuple[list[str] | None, bytes | None]]:
        uid_list = list(uids)
        if not uid_list:
            return {}
        return _fetched(self.ok(self.conn.uid("FETCH", _uid_set(uid_list), items), "read messages"))

    def search(self, criteria: list[bytes | str]) -> list[int]:
        data = self.ok(self.conn.uid("SEARCH", "CHARSET", "UTF-8", *(criteria or ["ALL"])), "search")
        return [int(u) for u in _text(data).split()]

    def locate(self, message_id: str, *, writable: bool, body: bool) -> _Located:
        """Open the folder of `FOLDER/UID` and fetch that message's flags (and bytes)."""
        folder_name, uid = _parse_id(message_id)
        folder = self.folder(folder_name)
        self.select(folder, writable=writable)
        got = self.fetch([uid], "(UID FLAGS BODY.PEEK[])" if body else "(UID FLAGS)").get(uid)
        if got is None or (body and got[1] is None):
            uids = self.search(["ALL"])
            has = f"has UIDs {_uid_set(uids, '-')}" if uids else "is empty"
            raise ToolError(
                f"no message with id {message_id} (folder {folder.name} {has}); use mail_search to find ids"
            )
        return _Located(folder, uid, got[0] or [], got[1])

    def store(self, uid: int, op: str, flags: list[str]) -> None:
        self.ok(self.conn.uid("STORE", str(uid), op, f"({' '.join(flags)})"), "change flags")

    def sync(self, folder: _Folder) -> None:
        """Have Dovecot number the messages already in `folder` before anything is saved into it.

        Dovecot gives UIDs to seeded Maildir files only when it first scans the folder; a
        message moved or appended into a folder nobody has opened yet would take UID 1.
        """
        self.ok(self.conn.status(folder.wire, "(UIDNEXT)"), f"open folder {folder.name!r}")

    def move(self, uid: int, target: _Folder) -> str | None:
        """UID MOVE; the message's new id when the server tells it (COPYUID)."""
        self.sync(target)
        self.conn.response("COPYUID")  # forget a COPYUID left over from an earlier command
        self.ok(self.conn.uid("MOVE", str(uid), target.wire), f"move the message to {target.name!r}")
        copied = self.conn.response("COPYUID")[1][-1]
        return f"{target.name}/{_text(copied).split()[-1]}" if copied else None

    def append(self, folder: _Folder, data: bytes, flags: str, when: datetime) -> None:
        self.sync(folder)
        self.ok(self.conn.append(folder.wire, flags, when, data), f"save the message in {folder.name!r}")


def _imap(ctx: ToolContext, work: Callable[[_Session], T]) -> T:
    """Run `work` on the episode's IMAP session, reconnecting once if the connection broke."""
    broken: Exception | None = None
    for _ in range(2):
        try:
            session = ctx.client(_SESSION, lambda: _Session(ctx.episode.endpoints), _Session.close)
            return work(session)
        except imaplib.IMAP4.readonly as exc:
            raise ToolError(f"that folder is read-only ({exc}); nothing was changed") from None
        except (imaplib.IMAP4.abort, OSError) as exc:
            ctx.drop(_SESSION)
            broken = exc
        except imaplib.IMAP4.error as exc:
            raise ToolError(f"the mail server refused: {exc}") from None
    raise ToolError(f"the mail server could not be reached ({broken}); try again in a moment", "internal")


# --- composing and sending ----------------------------------------------------------------------


def _recipients(values: list[str], field: str) -> list[str]:
    out = []
    for value in values:
        if any(c in value for c in "\r\n\0"):  # a line break would start another header, e.g. a Bcc
            raise ToolError(f"bad address {value!r} in {field}: it holds a line break", "invalid_arguments")
        pairs = email.utils.getaddresses([value])
        if not pairs or not all(re.fullmatch(r"[^@\s<>,]+@[^@\s<>,]+", addr) for _, addr in pairs):
            raise ToolError(
                f"bad address {value!r} in {field}: give addresses like name@example.com or 'Name <name@example.com>'",
                "invalid_arguments",
            )
        out.extend(email.utils.formataddr(pair) for pair in pairs)
    return out


def _message_id_arg(value: str) -> str:
    text = value.strip()
    if not text.startswith("<"):
        text = f"<{text}>"
    if not re.fullmatch(r"<[^<>\s]+@[^<>\s]+>", text):
        raise ToolError(
            f"bad in_reply_to {value!r}: give the Message-ID of the message you answer, like <abc@example.com>",
            "invalid_arguments",
        )
    return text


def _attachments(ctx: ToolContext, names: list[str]) -> list[tuple[str, bytes]]:
    out = []
    with paths.Workspace(ctx.episode.workspace) as ws:
        for name in names:
            rel = paths.clean(name)
            if not rel or stat.S_ISDIR(getattr(ws.lstat(rel), "st_mode", 0)):
                raise ToolError(f"{name!r} is a folder; attach the files in it one by one", "invalid_arguments")
            data, size = ws.read(rel, ATTACHMENT_CAP + 1, name)
            if size > ATTACHMENT_CAP:
                raise ToolError(f"{name!r} has {size} bytes; an attachment may have {ATTACHMENT_CAP >> 20} MiB at most")
            out.append((rel.rsplit("/", 1)[-1], data))
    return out


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def _submit(ctx: ToolContext, envelope_to: list[str], data: bytes) -> None:
    """Hand the message to the user's submission server, authenticated as the user."""
    ep = ctx.episode.endpoints
    try:
        # An explicit local_hostname: smtplib would otherwise ask DNS for this machine's name.
        with smtplib.SMTP(ep.host, ep.smtp_port, local_hostname="localhost", timeout=_TIMEOUT_S) as smtp:
            smtp.login(ep.login, ep.password)
            smtp.sendmail(ep.address, envelope_to, _crlf(data))
    except smtplib.SMTPAuthenticationError as exc:
        raise ToolError(f"the mail server did not accept the user's login ({exc.smtp_code})", "internal") from None
    except smtplib.SMTPRecipientsRefused as exc:
        refused = "; ".join(f"{addr}: {code} {_text(msg)}" for addr, (code, msg) in exc.recipients.items())
        raise ToolError(f"the mail server refused: {refused}") from None
    except smtplib.SMTPResponseException as exc:
        raise ToolError(f"the mail server refused: {exc.smtp_code} {_text(exc.smtp_error)}") from None
    except (smtplib.SMTPException, OSError) as exc:
        raise ToolError(f"the mail server could not be reached ({exc}); the message was not sent", "internal") from None


def _send(
    ctx: ToolContext,
    *,
    to: list[str],
    cc: list[str],
    subject: str,
    body: str,
    attachments: list[tuple[str, bytes]] | None = None,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    mark: tuple[_Located, str] | None = None,
    calendar: tuple[str, bytes] | None = None,
) -> str:
    """Build, submit and file a message in Sent; returns its Message-ID.

    `mark` is the message this one answers or forwards and the flag that says so on it.
    """
    ep = ctx.episode.endpoints
    domain = ep.address.rpartition("@")[2] or "localhost"
    message_id = f"<{uuid.uuid4().hex}@{domain}>"
    now = ctx.now()
    data = mime.build_message(
        sender=email.utils.formataddr((ctx.episode.world.user.name, ep.address)),
        to=to,
        cc=cc,
        subject=subject,
        date=now,
        message_id=message_id,
        body=body,
        in_reply_to=in_reply_to,
        references=references,
        attachments=attachments,
        calendar=calendar,
    )
    _submit(ctx, [canonical.bare_address(a) for a in [*to, *cc]], data)

    def file_copy(session: _Session) -> None:
        if mark is not None:
            session.select(mark[0].folder, writable=True)
            session.store(mark[0].uid, "+FLAGS.SILENT", [mark[1]])
        session.append(session.special("\\sent", "Sent", session.folders()), data, "(\\Seen)", now)

    try:
        _imap(ctx, file_copy)
    except ToolError as exc:
        raise ToolError(
            f"the message WAS sent (message_id {message_id}), do not send it again; "
            f"but filing it afterwards failed: {exc.message}",
            exc.kind,
        ) from None
    return message_id


def send_invitation(ctx: ToolContext, *, to: str, subject: str, body: str, method: str, ics: bytes) -> str:
    """Mail one attendee an iTIP object (`method`, `ics`) like any message the user sends; returns its Message-ID."""
    return _send(ctx, to=[to], cc=[], subject=subject, body=body, calendar=(method, ics))


def _reply_subject(subject: str) -> str:
    return "Re: " + _REPLY_PREFIX.sub("", subject)


def _forward_subject(subject: str) -> str:
    return subject if _FORWARD_PREFIX.match(subject) else f"Fwd: {subject}"


def _forward_body(note: str, msg: Message) -> str:
    """The user's note, then the original's headers and text, quoted (`> `) so they read as not the user's words."""
    header_lines = [
        f"{name}: {canonical.decode_words(str(msg.get(name)))}"
        for name in ("From", "Date", "Subject", "To", "Cc")
        if msg.get(name)
    ]
    original, _ = mime.body_and_attachments(msg)
    quoted = "\n".join(f"> {line}".rstrip() for line in [*header_lines, "", *original.splitlines()])
    intro = "---------- Forwarded message ----------"
    return f"{note.rstrip()}\n\n{intro}\n{quoted}" if note.strip() else f"{intro}\n{quoted}"


def _threading(msg: Message, data: bytes) -> tuple[str, list[str]]:
    """The Message-ID a reply or forward refers to, and the References chain that ends with it."""
    parent = mime.message_id_of(msg, data)
    references = str(msg.get("References") or msg.get("In-Reply-To") or "").split()
    return parent, [*references, parent]


def _pairs(msg: Message, header: str) -> list[tuple[str, str]]:
    return [
        (canonical.decode_words(name), addr) for name, addr in email.utils.getaddresses(msg.get_all(header, [])) if addr
    ]


def _reply_recipients(msg: Message, own: str, reply_all: bool) -> tuple[list[str], list[str]]:
    """Who a reply goes to, as mail clients decide it; addresses ready for a header."""
    original_to = _pairs(msg, "To")
    target = _pairs(msg, "Reply-To") or _pairs(msg, "From")
    if all(addr.lower() == own for _, addr in target):
        # Replying to a message the user sent goes to its recipients again, not to the user.
        target = original_to
    to: list[str] = []
    cc: list[str] = []
    seen = {own}
    groups = [(to, target)]
    if reply_all:
        groups += [(to, original_to), (cc, _pairs(msg, "Cc"))]
    for dest, candidates in groups:
        for name, addr in candidates:
            if addr.lower() not in seen:
                seen.add(addr.lower())
                dest.append(email.utils.formataddr((name, addr)))
    return to, cc


# --- search ---------------------------------------------------------------------------------------


def _imap_date(day: datetime) -> str:
    return f"{day.day}-{_MONTHS[day.month - 1]}-{day.year}"


_DATE = re.compile(rb"^Date:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def _sent_at(header: bytes | None, tz: tzinfo) -> datetime | None:
    """The Date of a fetched DATE header field; a search reads it for every message it matches, so
    it is found by a pattern rather than by parsing a message."""
    found = _DATE.search(header or b"")
    raw = " ".join(found.group(1).decode("ascii", errors="replace").split()) if found else ""
    if not raw:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(str(raw))
    except (TypeError, ValueError):
        return None
    return parsed.replace(tzinfo=tz) if parsed.tzinfo is None else parsed


def _snippet(body: str) -> str:
    line = " ".join(body.split())
    return line if len(line) <= _SNIPPET else line[: _SNIPPET - 1].rstrip() + "…"


def _summary(folder: str, uid: int, data: bytes, flags: list[str], tz: tzinfo) -> dict[str, Any]:
    state = mime.message_state(data, flags, tz)
    keys = ("message_id", "from", "to", "cc", "subject", "date", "flags")
    return {
        "id": f"{folder}/{uid}",
        "folder": folder,
        **{k: state[k] for k in keys},
        "snippet": _snippet(state["body"]),
    }


# --- the tools ------------------------------------------------------------------------------------

Id = Annotated[str, Field(description="the message id FOLDER/UID as returned by mail_search, e.g. 'INBOX/12'")]
Attachments = Annotated[
    list[str] | None,
    Field(description="files from the user's workspace to attach, as relative paths like 'docs/plan.md'"),
]


@tool("mail", returns="{folders: [{name, total, unseen}]}")
def mail_list_folders(
    ctx: ToolContext,
    limit: paging.limit(100, 500) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """List the user's mail folders with their message counts, INBOX first, then by name. Changes nothing.

    Returns {folders: [{name, total, unseen}], total, next_cursor}. Folder names use '/' for
    subfolders (e.g. 'Projects/Alpha'); use them as given in the other mail tools.
    """
    pager: paging.Pager[_Folder] = paging.Pager("mail_list_folders", {}, limit, cursor, default=100, noun="folders")

    def work(s: _Session) -> dict[str, Any]:
        out = []
        page = pager.window(list(s.folders().values()), lambda f: (f.name != "INBOX", f.name))
        for folder in page:
            status = _text(s.ok(s.conn.status(folder.wire, "(MESSAGES UNSEEN)"), f"count {folder.name!r}"))
            counts = {k.lower(): int(v) for k, v in re.findall(r"\b(MESSAGES|UNSEEN) (\d+)", status)}
            out.append({"name": folder.name, "total": counts.get("messages", 0), "unseen": counts.get("unseen", 0)})
        folders, fields = pager.finish(out)
        return {"folders": folders, **fields}

    return _imap(ctx, work)


@tool("mail", returns="{messages: [{id, folder, message_id, from, to, cc, subject, date, flags, snippet}]}")
def mail_search(
    ctx: ToolContext,
    folder: Annotated[
        str | None, Field(description="only this folder, e.g. 'INBOX' or 'Archive'; default: every folder")
    ] = None,
    sender: Annotated[str | None, Field(description="text in the From header: a name or (part of) an address")] = None,
    recipient: Annotated[str | None, Field(description="text in the To or Cc headers")] = None,
    subject: Annotated[str | None, Field(description="text in the subject")] = None,
    text: Annotated[str | None, Field(description="text anywhere in the message: body or headers")] = None,
    since: Annotated[
        str | None,
        Field(
            description="only messages dated at or after this time, ISO 8601, e.g. '2026-03-01' or '2026-03-01T09:00'"
        ),
    ] = None,
    before: Annotated[
        str | None, Field(description="only messages dated before this time (exclusive), ISO 8601")
    ] = None,
    unseen: Annotated[
        bool | None, Field(description="true: only unread messages; false (default): read and unread")
    ] = None,
    limit: paging.limit(_DEFAULT_LIMIT, 200) = None,
    cursor: paging.CURSOR = None,
) -> dict[str, Any]:
    """Find messages; all given criteria must match (text matching is case-insensitive substring).

    Returns {messages: [{id, message_id, folder, from, to, cc, subject, date, flags, snippet}],
    total, next_cursor} with the newest first (by the message's Date). `id`
    (like 'INBOX/12') is what mail_read, mail_reply, mail_forward, mail_move, mail_flag and
    mail_delete take. Times without an offset are in the user's timezone; a bare date means its
    midnight. With no criteria it lists the newest messages. The snippet is the body's first 160
    characters; open a message with mail_read for all of it and its attachments. Changes nothing:
    messages stay unread.
    """
    tz = ctx.tz
    start = parse_datetime(since, tz, "since") if since else None
    end = parse_datetime(before, tz, "before") if before else None
    if start and end and start >= end:
        raise ToolError(f"since ({since}) must be earlier than before ({before})", "invalid_arguments")
    criteria: list[bytes | str] = []
    # SENTSINCE/SENTBEFORE compare whole days of the Date header in its own timezone, so
    # ask the server for a margin of two days and filter exactly here.
    if start:
        criteria += ["SENTSINCE", _imap_date(start - timedelta(days=2))]
    if end:
        criteria += ["SENTBEFORE", _imap_date(end + timedelta(days=2))]
    for key, value in (("FROM", sender), ("SUBJECT", subject), ("TEXT", text)):
        if value and value.strip():
            criteria += [key, _astring(value.strip())]
    if recipient and recipient.strip():
        criteria += ["OR", "TO", _astring(recipient.strip()), "CC", _astring(recipient.strip())]
    if unseen:
        criteria.append("UNSEEN")
    query = {"folder": folder, "sender": sender, "recipient": recipient, "subject": subject, "text": text}
    query |= {"since": since, "before": before, "unseen": unseen}
    pager: paging.Pager[tuple[datetime | None, _Folder, int]] = paging.Pager(
        "mail_search", query, limit, cursor, default=_DEFAULT_LIMIT, noun="messages"
    )

    def work(s: _Session) -> dict[str, Any]:
        folders = s.folders()
        scope = [s.folder(folder, folders)] if folder is not None else list(folders.values())
        found: list[tuple[datetime | None, _Folder, int]] = []
        for f in scope:
            s.select(f, writable=False)
            dates = s.fetch(s.search(criteria), "(UID BODY.PEEK[HEADER.FIELDS (DATE)])")
            for uid, (_, header) in dates.items():
                sent = _sent_at(header, tz)
                if (start or end) and (sent is None or (start and sent < start) or (end and sent >= end)):
                    continue
                found.append((sent, f, uid))
        # Newest first; undated messages last.
        chosen = pager.window(
            found, lambda x: (x[0] is not None, x[0].timestamp() if x[0] else 0, x[1].name, x[2]), descending=True
        )
        summaries: dict[tuple[str, int], dict[str, Any]] = {}
        for f in {f.name: f for _, f, _ in chosen}.values():
            s.select(f, writable=False)
            uids = [uid for _, g, uid in chosen if g.name == f.name]
            for uid, (flags, data) in s.fetch(uids, "(UID FLAGS BODY.PEEK[])").items():
                summaries[(f.name, uid)] = _summary(f.name, uid, data or b"", flags or [], tz)
        messages, fields = pager.finish(
            [summaries[(f.name, uid)] for _, f, uid in chosen if (f.name, uid) in summaries]
        )
        return {"messages": messages, **fields}

    return _imap(ctx, work)


@tool("mail", returns="MESSAGE + {id, folder}")
def mail_read(ctx: ToolContext, id: Id) -> dict[str, Any]:
    """Open one message and read it in full. Side effects: as opening it in a mail client, marks it read (\\Seen).

    Returns {id, folder, message_id, from, to[], cc[], subject, date, flags[], body, in_reply_to,
    attachments[{filename, sha256, size}], invitation}: `invitation` is {method, uid} when the
    message carries a calendar invitation (iCalendar METHOD REQUEST, CANCEL, REPLY...), else null.
    Attachments are listed, not opened.
    """

    def work(s: _Session) -> dict[str, Any]:
        found = s.locate(id, writable=True, body=True)
        flags = list(found.flags)
        if "\\seen" not in {f.lower() for f in flags}:
            s.store(found.uid, "+FLAGS.SILENT", ["\\Seen"])
            flags.append("\\Seen")
        return {"id": found.id, "folder": found.folder.name, **mime.message_state(found.data or b"", flags, ctx.tz)}

    return _imap(ctx, work)


@tool("mail", returns="{message_id}")
def mail_send(
    ctx: ToolContext,
    to: Annotated[list[str], Field(description="recipients, e.g. ['priya@orbitals.io', 'Wei Chen <wei@chen.family>']")],
    subject: Annotated[str, Field(description="the subject line")],
    body: Annotated[str, Field(description="the plain-text body")],
    cc: Annotated[list[str] | None, Field(description="copy recipients")] = None,
    attachments: Attachments = None,
    in_reply_to: Annotated[
        str | None,
        Field(
            description="the Message-ID this message answers, like '<abc@example.com>' (mail_reply does this for you)"
        ),
    ] = None,
) -> dict[str, Any]:
    """Send a new email from the user's address. Side effects: it is sent at once; a copy is saved in Sent.

    Returns {message_id}. To answer a message you have an id for, prefer mail_reply, which
    fills in the recipients, 'Re:' subject and threading headers.
    """
    to_list = _recipients(to, "to")
    cc_list = _recipients(cc or [], "cc")
    if not to_list:
        raise ToolError("give at least one recipient in 'to'", "invalid_arguments")
    files = _attachments(ctx, attachments or [])
    parent = _message_id_arg(in_reply_to) if in_reply_to else None
    # A line break in a subject would start a new header; mail clients keep subjects on one line.
    one_line = " ".join(subject.split())
    message_id = _send(ctx, to=to_list, cc=cc_list, subject=one_line, body=body, attachments=files, in_reply_to=parent)
    return {"message_id": message_id}


@tool("mail", returns="{message_id, to, cc, subject}")
def mail_reply(
    ctx: ToolContext,
    id: Id,
    body: Annotated[str, Field(description="your reply text; the original is not quoted automatically")],
    reply_all: Annotated[
        bool | None, Field(description="also send to everyone in the original To and Cc (default false)")
    ] = None,
    attachments: Attachments = None,
) -> dict[str, Any]:
    """Reply to a message: to its sender (or Reply-To), with subject 'Re: ...' and threading headers.

    With reply_all, the original To and Cc recipients (except the user) receive it too. The
    original's attachments are not sent back; `attachments` adds files from the workspace.
    Side effects: sends the reply at once, saves a copy in Sent and marks the original answered.
    Returns {message_id, to, cc, subject}.
    """
    files = _attachments(ctx, attachments or [])
    original = _imap(ctx, lambda s: s.locate(id, writable=False, body=True))
    msg = mime.parse(original.data or b"")
    own = ctx.episode.endpoints.address
    to, cc = _reply_recipients(msg, own, bool(reply_all))
    if not to:
        raise ToolError(f"message {id} has no sender to reply to; use mail_send with explicit recipients")
    parent, references = _threading(msg, original.data or b"")
    subject = _reply_subject(canonical.decode_words(str(msg.get("Subject") or "")))
    message_id = _send(
        ctx,
        to=to,
        cc=cc,
        subject=subject,
        body=body,
        attachments=files,
        in_reply_to=parent,
        references=references,
        mark=(original, "\\Answered"),
    )
    return {"message_id": message_id, "to": canonical.addresses(to), "cc": canonical.addresses(cc), "subject": subject}


@tool("mail", returns="{message_id, to, cc, subject, attachments: [filename]}")
def mail_forward(
    ctx: ToolContext,
    id: Id,
    to: Annotated[list[str], Field(description="who to forward it to, e.g. ['Bo Li <bo@acme.example>']")],
    body: Annotated[str | None, Field(description="your note above the forwarded message")] = None,
    cc: Annotated[list[str] | None, Field(description="copy recipients")] = None,
    attachments: Annotated[
        list[str] | None,
        Field(description="more files from the user's workspace to attach, besides the original's attachments"),
    ] = None,
) -> dict[str, Any]:
    """Forward a message: your note, then the original's headers and text quoted with '> ', and all of the
    original's attachments (plus any `attachments` from the workspace), with subject 'Fwd: ...'.

    In-Reply-To and References point at the original, as Gmail does. Side effects: sends at once,
    saves a copy in Sent and flags the original $Forwarded. Returns {message_id, to, cc, subject,
    attachments} (the filenames sent).
    """
    to_list = _recipients(to, "to")
    cc_list = _recipients(cc or [], "cc")
    if not to_list:
        raise ToolError("give at least one recipient in 'to'", "invalid_arguments")
    extra = _attachments(ctx, attachments or [])
    original = _imap(ctx, lambda s: s.locate(id, writable=False, body=True))
    msg = mime.parse(original.data or b"")
    parent, references = _threading(msg, original.data or b"")
    subject = _forward_subject(canonical.decode_words(str(msg.get("Subject") or "")))
    files = [*mime.attachment_files(msg), *extra]
    message_id = _send(
        ctx,
        to=to_list,
        cc=cc_list,
        subject=subject,
        body=_forward_body(body or "", msg),
        attachments=files,
        in_reply_to=parent,
        references=references,
        mark=(original, FORWARDED),
    )
    return {
        "message_id": message_id,
        "to": canonical.addresses(to_list),
        "cc": canonical.addresses(cc_list),
        "subject": subject,
        "attachments": [name for name, _ in files],
    }


@tool("mail", returns="{id}  (the message's new FOLDER/UID)")
def mail_move(
    ctx: ToolContext,
    id: Id,
    folder: Annotated[str, Field(description="an existing folder, e.g. 'Archive' (see mail_list_folders)")],
) -> dict[str, Any]:
    """Move a message to another existing folder (this tool cannot create folders). Side effects: the move.

    Returns {id}: the message's new id in that folder; its old id no longer works.
    """

    def work(s: _Session) -> dict[str, Any]:
        target = s.folder(folder)
        found = s.locate(id, writable=True, body=False)
        if target.name == found.folder.name:
            return {"id": found.id}
        return {"id": s.move(found.uid, target)}

    return _imap(ctx, work)


@tool("mail", returns="{id, flags}")
def mail_flag(
    ctx: ToolContext,
    id: Id,
    flag: Annotated[
        str,
        Field(
            description="seen, answered, flagged, deleted or draft (any case, backslash optional), "
            "or a keyword like '$Important'"
        ),
    ],
    on: Annotated[bool, Field(description="true to set the flag, false to clear it")],
) -> dict[str, Any]:
    """Set or clear a flag on a message: e.g. flag='seen', on=false marks it unread; flag='flagged' stars it.

    Returns {id, flags}: the message's flags afterwards. Side effects: the flag, nothing else;
    setting 'deleted' only marks the message: to delete it, use mail_delete.
    """
    name = _SYSTEM_FLAGS.get(flag.strip().lstrip("\\").lower())
    if name is None:
        name = flag.strip()
        if name.startswith("\\") or not _KEYWORD.match(name):
            raise ToolError(
                f"unknown flag {flag!r}: use seen, answered, flagged, deleted, draft or a keyword like $Important",
                "invalid_arguments",
            )

    def work(s: _Session) -> dict[str, Any]:
        found = s.locate(id, writable=True, body=False)
        s.store(found.uid, "+FLAGS.SILENT" if on else "-FLAGS.SILENT", [name])
        flags = s.fetch([found.uid], "(UID FLAGS)").get(found.uid, ([], None))[0] or []
        return {"id": found.id, "flags": canonical.flags(flags)}

    return _imap(ctx, work)


@tool("mail", returns="{deleted, moved_to} or {deleted, permanent: true}")
def mail_delete(ctx: ToolContext, id: Id) -> dict[str, Any]:
    """Delete a message the way a mail client does: it moves to Trash; deleting it from Trash removes it for good.

    Returns {deleted, moved_to} (the new id in Trash) or {deleted, permanent: true}; the old id no
    longer works. Side effects: the move, or from Trash the deletion, which cannot be undone.
    """

    def work(s: _Session) -> dict[str, Any]:
        trash = s.special("\\trash", "Trash", s.folders())
        found = s.locate(id, writable=True, body=False)
        if found.folder.name != trash.name:
            return {"deleted": found.id, "moved_to": s.move(found.uid, trash)}
        s.store(found.uid, "+FLAGS.SILENT", ["\\Deleted"])
        s.ok(s.conn.uid("EXPUNGE", str(found.uid)), f"delete {id}")
        return {"deleted": found.id, "permanent": True}

    return _imap(ctx, work)
