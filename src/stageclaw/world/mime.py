"""Mail messages as RFC 5322 bytes and as State JSON."""

from __future__ import annotations

import base64
import email
import email.utils
import hashlib
import mimetypes
import urllib.parse
from datetime import datetime, tzinfo
from email import policy
from email.message import Message
from pathlib import Path
from typing import Any

from stageclaw.world import canonical, imip
from stageclaw.world.model import AttachmentSeed, MessageSeed, asset_path


def attachment_bytes(att: AttachmentSeed, base: Path) -> bytes:
    if att.text is not None:
        return att.text.encode("utf-8")
    return asset_path(base, att.path or "").read_bytes()


_WORD_BYTES = 45  # UTF-8 bytes per encoded word: 60 base64 characters, within RFC 2047's 75


def encoded_words(value: str) -> str:
    """A header text: ASCII as it is, anything else as RFC 2047 base64 UTF-8 words, never splitting a
    character across two words."""
    if value.isascii():
        return value
    words, chunk = [], b""
    for char in value:
        data = char.encode()
        if len(chunk) + len(data) > _WORD_BYTES:
            words.append(chunk)
            chunk = b""
        chunk += data
    words.append(chunk)
    return " ".join(f"=?utf-8?b?{base64.b64encode(w).decode()}?=" for w in words)


def _mailbox(name: str, addr: str) -> str:
    if not name:
        return addr
    if name.isascii():
        return email.utils.formataddr((name, addr))
    return f"{encoded_words(name)} <{addr}>"


def _address_header(values: list[str]) -> str:
    return ", ".join(_mailbox(name, addr) for v in values for name, addr in canonical.mailbox_list(v) if addr)


def _fold(name: str, value: str) -> str:
    """`Name: value`, folded at spaces so lines stay within 78 characters where they can."""
    line = f"{name}: {value}"
    if len(line) <= 78:
        return line
    out, current = [], f"{name}:"
    for word in value.split(" "):
        if len(current) + 1 + len(word) > 78 and current.strip() and not current.endswith(":"):
            out.append(current)
            current = ""
        current += " " + word
    out.append(current)
    return "\n".join(out)


def _base64_lines(data: bytes) -> str:
    return base64.encodebytes(data).decode("ascii")


def _filename_param(filename: str) -> str:
    if filename.isascii() and '"' not in filename and "\\" not in filename:
        return f'filename="{filename}"'
    return "filename*=utf-8''" + urllib.parse.quote(filename, safe="")


def _attachment(filename: str, data: bytes) -> str:
    ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    if ctype.startswith("text/"):
        try:
            data.decode("utf-8")
            ctype += '; charset="utf-8"'
        except UnicodeDecodeError:
            ctype = "application/octet-stream"
    head = [
        f"Content-Type: {ctype}",
        "Content-Transfer-Encoding: base64",
        f"Content-Disposition: attachment; {_filename_param(filename)}",
    ]
    return "\n".join(head) + "\n\n" + _base64_lines(data)


def build_message(
    *,
    sender: str,
    to: list[str],
    cc: list[str],
    subject: str,
    date: datetime,
    message_id: str,
    body: str,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    attachments: list[tuple[str, bytes]] | None = None,
    calendar: tuple[str, bytes] | None = None,
) -> bytes:
    """Render a message the way a mail client sends it: a UTF-8 text part, base64, and the
    attachments in a multipart/mixed with a boundary derived from the content (same input, same bytes).

    `calendar` is (METHOD, iCalendar object) of an invitation: it goes in a `text/calendar` part that
    is an alternative to the body, as calendar clients send them (RFC 6047).
    """
    headers = [_fold("From", _address_header([sender]))]
    if to:
        headers.append(_fold("To", _address_header(to)))
    if cc:
        headers.append(_fold("Cc", _address_header(cc)))
    headers += [
        _fold("Subject", encoded_words(subject)),
        f"Date: {email.utils.format_datetime(date)}",
        f"Message-ID: {message_id}",
    ]
    if in_reply_to:
        headers += [f"In-Reply-To: {in_reply_to}", _fold("References", " ".join(references or [in_reply_to]))]
    headers.append("MIME-Version: 1.0")
    text = 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n'
    text += _base64_lines(body.encode("utf-8"))
    if calendar is not None:
        method, ics = calendar
        invite = f'Content-Type: text/calendar; charset="utf-8"; method={method}\nContent-Transfer-Encoding: base64\n\n'
        text = _multipart("alternative", [text, invite + _base64_lines(ics)])
    if attachments:
        text = _multipart("mixed", [text, *(_attachment(name, data) for name, data in attachments)])
    return ("\n".join(headers) + "\n" + text).encode("ascii")


def _multipart(kind: str, parts: list[str]) -> str:
    """A multipart entity (its Content-Type line and body); the boundary is derived from the parts."""
    digest = hashlib.sha256("".join(parts).encode("ascii")).hexdigest()[:32]
    boundary = f"=_stageclaw_{digest}" if kind == "mixed" else f"=_stageclaw_{kind}_{digest}"
    body = "".join(f"--{boundary}\n{part}" for part in parts) + f"--{boundary}--\n"
    return f'Content-Type: multipart/{kind}; boundary="{boundary}"\n\n' + body


def _localize(value: datetime, tz: tzinfo) -> datetime:
    return value.replace(tzinfo=tz) if value.tzinfo is None else value


def seed_message_bytes(seed: MessageSeed, tz: tzinfo, base: Path) -> bytes:
    return build_message(
        sender=seed.from_,
        to=seed.to,
        cc=seed.cc,
        subject=seed.subject,
        date=_localize(seed.date, tz),
        message_id=seed.message_id,
        body=seed.body,
        in_reply_to=seed.in_reply_to,
        attachments=[(a.filename, attachment_bytes(a, base)) for a in seed.attachments],
    )


def _digest(data: bytes) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def message_state_from_seed(seed: MessageSeed, tz: tzinfo, base: Path) -> dict[str, Any]:
    return {
        "message_id": seed.message_id,
        "from": canonical.address(seed.from_),
        "to": canonical.addresses(seed.to),
        "cc": canonical.addresses(seed.cc),
        "subject": " ".join(seed.subject.split()),
        "date": canonical.when(seed.date, tz),
        "flags": canonical.flags(seed.flags),
        "body": canonical.mail_text(seed.body),
        "in_reply_to": seed.in_reply_to,
        "attachments": [{"filename": a.filename, **_digest(attachment_bytes(a, base))} for a in seed.attachments],
        "invitation": None,
    }


def parse(data: bytes) -> Message:
    # compat32 is ~30x faster than policy.default here, and snapshots parse every message.
    return email.message_from_bytes(data, policy=policy.compat32)


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _is_attachment(part: Message) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    return bool(part.get_filename()) or disposition == "attachment"


def attachment_files(msg: Message) -> list[tuple[str, bytes]]:
    """(filename, content) of each attached file, in order: what a forward passes on."""
    return [
        (canonical.decode_words(part.get_filename() or ""), part.get_payload(decode=True) or b"")
        for part in msg.walk()
        if not part.is_multipart() and _is_attachment(part)
    ]


def body_and_attachments(msg: Message) -> tuple[str, list[dict[str, Any]]]:
    body: str | None = None
    html: str | None = None
    for part in msg.walk():
        if part.is_multipart() or _is_attachment(part):
            continue
        if part.get_content_type() == "text/plain" and body is None:
            body = _part_text(part)
        elif part.get_content_type() == "text/html" and html is None:
            html = _part_text(part)
    attachments = [{"filename": name, **_digest(data)} for name, data in attachment_files(msg)]
    return canonical.mail_text(body if body is not None else html), attachments


def message_date(msg: Message, tz: tzinfo) -> str | None:
    raw = msg.get("Date")
    if not raw:
        return None
    try:
        return canonical.when(email.utils.parsedate_to_datetime(str(raw)), tz)
    except (TypeError, ValueError):
        return None


def message_id_of(msg: Message, data: bytes) -> str:
    """The Message-ID, or a stable stand-in derived from the content when there is none."""
    raw = str(msg.get("Message-ID") or "").strip()
    return raw or f"<sha256-{hashlib.sha256(data).hexdigest()[:32]}@no-message-id>"


def message_state(data: bytes, flags: list[str], tz: tzinfo) -> dict[str, Any]:
    msg = parse(data)
    body, attachments = body_and_attachments(msg)
    in_reply_to = str(msg.get("In-Reply-To") or "").strip() or None
    return {
        "message_id": message_id_of(msg, data),
        "from": canonical.address(str(msg.get("From") or "")),
        "to": canonical.addresses(msg.get_all("To", [])),
        "cc": canonical.addresses(msg.get_all("Cc", [])),
        "subject": canonical.decode_words(str(msg.get("Subject") or "")),
        "date": message_date(msg, tz),
        "flags": canonical.flags(flags),
        "body": body,
        "in_reply_to": in_reply_to,
        "attachments": attachments,
        "invitation": imip.invitation_of(msg, tz),
    }
