"""Email as people write it: greetings and sign-offs that fit the sender, signatures, quoted history,
message ids in the styles real mail servers use."""

from __future__ import annotations

import random
import textwrap
from datetime import datetime
from typing import Any

from stageclaw.author.content.people import Person
from stageclaw.author.content.text import MONTHS, WEEKDAYS

CASUAL, WORK, FORMAL = "casual", "work", "formal"
GREETINGS = {
    CASUAL: ("Hi {first},", "Hey {first},", "Hi {first}!"),
    WORK: ("Hi {first},", "Hello {first},", "Dear {first},"),
    FORMAL: ("Dear {first},", "Dear {name},", "Hello {name},"),
}
CLOSINGS = {
    CASUAL: ("Cheers,", "Thanks!", "See you,", "x", "Talk soon,"),
    WORK: ("Best,", "Thanks,", "Best regards,", "Many thanks,", "Kind regards,", "Thanks a lot,"),
    FORMAL: ("Kind regards,", "Best regards,", "Yours sincerely,", "With best regards,"),
}
GREETINGS_ZH = {
    CASUAL: ("{first}：", "嗨，{first}！"),
    WORK: ("{first}，你好：", "{first}您好，", "Hi {first}，"),
    FORMAL: ("尊敬的{first}：", "{first}您好："),
}
CLOSINGS_ZH = {CASUAL: ("回头聊！", "谢啦"), WORK: ("谢谢！", "祝好", "多谢"), FORMAL: ("此致\n敬礼", "顺祝商祺")}


def message_id(rng: random.Random, domain: str, when: datetime) -> str:
    """A Message-ID in one of the shapes Gmail, Outlook, Apple Mail and mail robots produce."""
    hexes = "0123456789abcdef"
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    style = rng.randrange(4) if domain == "gmail.com" else rng.randrange(1, 4)
    if style == 0:
        return f"<CA{''.join(rng.choice(letters) for _ in range(14))}@mail.gmail.com>"
    if style == 1:
        return f"<{when:%Y%m%d%H%M%S}.{''.join(rng.choice(hexes) for _ in range(6))}@{domain}>"
    if style == 2:
        parts = ["".join(rng.choice(hexes) for _ in range(n)) for n in (8, 4, 4, 12)]
        return f"<{'-'.join(parts)}@{domain}>"
    return f"<{''.join(rng.choice(hexes) for _ in range(10))}.{when:%Y%m%d}@{domain}>"


def greeting(rng: random.Random, to: Person, register: str, locale: str = "en") -> str:
    table = GREETINGS_ZH if locale == "zh" else GREETINGS
    return rng.choice(table[register]).format(first=to.first, name=to.name)


def closing(rng: random.Random, register: str, locale: str = "en") -> str:
    return rng.choice((CLOSINGS_ZH if locale == "zh" else CLOSINGS)[register])


def signature(person: Person, full: bool, locale: str = "en") -> str:
    """Just the name, or a full block: name, title, organisation, address, phone."""
    name = person.first if person.goes_by or locale == "zh" else person.given
    if not full:
        return name
    lines = ["--", person.name if not person.goes_by else f'{person.given} "{person.goes_by}" {person.family}']
    if person.title:
        lines.append(person.title)
    if person.org is not None:
        lines += [person.org.legal, person.org.address]
    lines.append(("电话 " if locale == "zh" else "T ") + person.phone)
    return name + "\n\n" + "\n".join(lines)


def wrap(text: str, locale: str = "en", width: int = 72) -> str:
    """Paragraphs wrapped like a plain-text mail client does (Chinese text is not wrapped)."""
    if locale == "zh":
        return text
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if any(line.startswith(("-", "*", "•", "|", ">")) or line[:2].strip().isdigit() for line in lines):
            out.append(para)  # a list or a table keeps its lines
        else:
            out.append(textwrap.fill(" ".join(para.split()), width=width, break_on_hyphens=False))
    return "\n\n".join(out)


def attribution(when: datetime, who: str, locale: str = "en", style: int = 0) -> str:
    """The line a client puts above a quoted message."""
    if locale == "zh":
        return f"在 {when.year}年{when.month}月{when.day}日 {when:%H:%M}，{who} 写道："
    wd, mon = WEEKDAYS[when.weekday()][:3], MONTHS[when.month - 1][:3]
    if style == 0:
        return f"On {wd}, {when.day} {mon} {when.year} at {when:%H:%M}, {who} wrote:"
    if style == 1:
        return f"On {when.day} {mon} {when.year}, at {when:%H:%M}, {who} wrote:"
    return f"On {mon} {when.day}, {when.year}, at {when.hour % 12 or 12}:{when:%M} {when:%p}, {who} wrote:"


def quoted(message: dict[str, Any], when: datetime, locale: str, style: int) -> str:
    body = message.get("body", "").rstrip()
    lines = "\n".join(">" if not line.strip() else f"> {line}" for line in body.split("\n"))
    return f"{attribution(when, message['from'], locale, style)}\n{lines}"


def letter(
    rng: random.Random,
    sender: Person,
    to: Person,
    paragraphs: list[str],
    *,
    register: str = WORK,
    locale: str = "en",
    full_signature: bool | None = None,
    quote: tuple[dict[str, Any], datetime] | None = None,
) -> str:
    """A mail body: greeting, paragraphs, sign-off, signature, and the quoted message it answers."""
    full = rng.random() < 0.5 if full_signature is None else full_signature
    text = "\n\n".join([greeting(rng, to, register, locale), *(wrap(p, locale) for p in paragraphs)])
    text += f"\n\n{closing(rng, register, locale)}\n{signature(sender, full, locale)}"
    if quote is not None:
        text += "\n\n" + quoted(quote[0], quote[1], locale, rng.randrange(3))
    return text


def mail(
    rng: random.Random,
    sender: Person | str,
    to: list[Person | str],
    subject: str,
    body: str,
    when: datetime,
    *,
    flags: list[str] | None = None,
    cc: list[Person | str] | None = None,
    in_reply_to: str | None = None,
    attachments: list[dict[str, str]] | None = None,
    domain: str | None = None,
) -> dict[str, Any]:
    """A world.yaml message (State JSON field order)."""

    def box(p: Person | str) -> str:
        return p.mailbox if isinstance(p, Person) else p

    address = sender.email if isinstance(sender, Person) else sender
    msg: dict[str, Any] = {
        "message_id": message_id(rng, domain or address.rsplit("@", 1)[-1].rstrip(">"), when),
        "from": box(sender),
        "to": [box(p) for p in to],
    }
    if cc:
        msg["cc"] = [box(p) for p in cc]
    msg["subject"] = subject
    msg["date"] = when.isoformat()
    msg["flags"] = list(flags or [])
    if in_reply_to:
        msg["in_reply_to"] = in_reply_to
    msg["body"] = body
    if attachments:
        msg["attachments"] = attachments
    return msg


AWAY = (
    "Thank you for your email. I'm out of the office until {back} and won't be reading mail until then.\n\n"
    "{handled}, please write to my colleague {colleague} at {address}, who has your file and will take care of "
    "it.\n\n{first}",
    "Hello, and thanks for your message. I'm away from {today} until {back}, without access to my email.\n\n"
    "{handled} in the meantime, please contact {colleague} ({address}): they're looking after my clients while "
    "I'm away.\n\nBest regards,\n{first}",
)


def away_reply(
    rng: random.Random,
    person: Person,
    colleague: Person,
    today: str,
    back: str,
    handled: str,
    when: datetime,
    texts: tuple[str, ...] = AWAY,
) -> dict[str, Any]:
    """A world.yaml automatic reply: `person` is away until `back`; `handled` ("For bookings") goes to `colleague`.
    `texts`: the wordings to draw from, with the same fields as `AWAY`."""
    body = rng.choice(texts).format(
        back=back, today=today, handled=handled, colleague=colleague.name, address=colleague.email, first=person.first
    )
    return {
        "address": person.email,
        "from": person.mailbox,
        "subject": "Automatic reply: {subject}",
        "body": body,
        "message_id": message_id(rng, person.email.rsplit("@", 1)[-1], when),
    }


MOVED = (
    "Thank you for contacting {org}.\n\nThis mailbox is no longer monitored for {about}. So that your request "
    "reaches the right team, please send it to {instead}.\n\nThis is an automatic reply; please do not respond to it.",
    "Thanks for your email.\n\nPlease note that {about} are now handled by a dedicated team at {instead}. Messages "
    "to this address about {about} are not passed on, so please resend yours there.\n\nKind regards,\n{org}",
)


def moved_reply(rng: random.Random, org: str, address: str, instead: str, about: str, when: datetime) -> dict[str, Any]:
    """A world.yaml automatic reply from `org`'s mailbox `address`: `about` ("changes of address") go to `instead`."""
    return {
        "address": address,
        "from": f"{org} <{address}>",
        "subject": "Automatic reply: {subject}",
        "body": rng.choice(MOVED).format(org=org, about=about, instead=instead),
        "message_id": message_id(rng, address.rsplit("@", 1)[-1], when),
    }
