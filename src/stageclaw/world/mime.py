"""Mail messages as RFC 5322 bytes and as State JSON."""

from __future__ import annotations

import email
import email.utils
import hashlib
import mimetypes
from datetime import datetime, tzinfo
from email import encoders, policy
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path
from typing import Any

from stageclaw.world import canonical, imip
from stageclaw.world.model import AttachmentSeed, MessageSeed, asset_path


def attachment_bytes(att: AttachmentSeed, base: Path) -> bytes:
    if att.text is not None:
        return att.text.encode("utf-8")
    return asset_path(base, att.path or "").read_bytes()


def _header_text(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


def _address_header(values: list[str]) -> str:
    pairs = email.utils.getaddresses(values)
    return ", ".join(email.utils.formataddr((name, addr), charset="utf-8") for name, addr in pairs if addr)


def _localize(value: datetime, tz: tzinfo) -> datetime:
    return value.replace(tzinfo=tz) if value.tzinfo is None else value


def attachment_part(filename: str, data: bytes) -> Message:
    ctype, _ = mimetypes.guess_type(filename)
    maintype, subtype = (ctype or "application/octet-stream").split("/", 1)
    part: Message | None = None
    if maintype == "text":
        try:
            part = MIMEText(data.decode("utf-8"), subtype, "utf-8")
        except UnicodeDecodeError:
            part = None
    if part is None:
        part = MIMEBase(maintype, subtype)
        part.set_payload(data)
        encoders.encode_base64(part)
    part.add_header(
        "Content-Disposition", "attachment", filename=filename if filename.isascii() else ("utf-8", "", filename)
    )
    return part


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
    """Render a message the way a mail client would send it.

    `calendar` is (METHOD, iCalendar object) of an invitation: it goes in a `text/calendar` part that
    is an alternative to the body, as calendar clients send them (RFC 6047).
    """
    text: Message = MIMEText(body, "plain", "utf-8")
    if calendar is not None:
        method, ics = calendar
        invite = MIMEText(ics.decode("utf-8"), "calendar", "utf-8")
        invite.set_param("method", method)
        text = MIMEMultipart("alternative", _subparts=[text, invite])
    msg: Message = text
    if attachments:
        msg = MIMEMultipart("mixed")
        msg.attach(text)
        for filename, data in attachments:
            msg.attach(attachment_part(filename, data))
    msg["From"] = _address_header([sender])
    if to:
        msg["To"] = _address_header(to)
    if cc:
        msg["Cc"] = _address_header(cc)
    msg["Subject"] = _header_text(subject)
    msg["Date"] = email.utils.format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = " ".join(references or [in_reply_to])
    return msg.as_bytes()


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
        "invitation": imip.invitation_of(msg),
    }
