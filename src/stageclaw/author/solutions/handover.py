"""handover: per client, the cover by the sheet's rule; forward, tell, invite, note."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author.solutionlib import address, newest

FACTS: dict[str, Any] = {}


def _sheet(tools: Any, f: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Client -> (covered by, second choice), from the handover sheet's rows."""
    text = tools.files_read(path=f["sheet"])["content"]
    rows = [line.split(",") for line in text.splitlines()]
    names = {c["name"] for c in f["clients"]}
    return {r[0]: (r[1], r[2]) for r in rows if r and r[0] in names}


def _off(tools: Any, f: dict[str, Any]) -> set[str]:
    """Who is off on some day of the leave: all-day absences end, exclusive, the day after their last day."""
    start, end = date.fromisoformat(f["start"]), date.fromisoformat(f["end"])
    found = tools.calendar_list_events(
        start=(start - timedelta(days=30)).isoformat(),
        end=(end + timedelta(days=30)).isoformat(),
        calendar=f["absences"],
    )["events"]
    out = set()
    for e in found:
        first, after = date.fromisoformat(e["start"][:10]), date.fromisoformat(e["end"][:10])
        if first <= end and after > start:
            out.add(e["summary"].split(" – ")[0])
    return out


def _plan(tools: Any, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Per client: its card, its cover's card, its messages and its meetings during the leave."""
    sheet = _sheet(tools, f)
    off = _off(tools, f)
    meetings = tools.calendar_list_events(
        start=f["start"], end=(date.fromisoformat(f["end"]) + timedelta(days=1)).isoformat(), calendar="Work"
    )["events"]
    out = []
    for client in f["clients"]:
        first, second = sheet[client["name"]]
        name = second if first in off else first
        # a namesake works elsewhere: the colleague's card has the user's firm
        cover = next(
            c
            for c in tools.contacts_search(query=name)["contacts"]
            if c["name"] == name and c["organization"] == f["org"]
        )
        card = next(
            c for c in tools.contacts_search(query=client["name"])["contacts"] if c["organization"] == client["name"]
        )
        mine = {address(e) for e in card["emails"]}
        # others at the client write too: everything from the client's domain
        mail = tools.mail_search(folder="INBOX", sender=f"@{client['domain']}")["messages"]
        out.append(
            {
                "client": client,
                "card": card,
                "cover": cover,
                "mail": mail,
                "meetings": [e for e in meetings if mine & {address(a) for a in e["attendees"]}],
            }
        )
    return out


def _latest(plan: dict[str, Any], subject: str) -> dict[str, Any]:
    return newest([m for m in plan["mail"] if subject in m["subject"]])


def _invite(tools: Any, plan: dict[str, Any]) -> None:
    for event in plan["meetings"]:
        tools.calendar_update_event(uid=event["uid"], attendees=[*event["attendees"], plan["cover"]["emails"][0]])


def _note(plan: dict[str, Any], words: str) -> str:
    return f"{plan['card']['notes']}\n{words.format(cover=plan['cover']['name'])}".strip()


def _when(f: dict[str, Any]) -> tuple[str, str]:
    start, end = (datetime.fromisoformat(f[k]) for k in ("start", "end"))
    return f"{start:%A} {start.day} {start:%B}", f"{end:%A} {end.day} {end:%B}"


def solve(tools):
    f = FACTS
    start, end = _when(f)
    for plan in _plan(tools, f):
        cover, card = plan["cover"], plan["card"]
        for subject in plan["client"]["threads"]:
            latest = tools.mail_read(id=_latest(plan, subject)["id"])
            tools.mail_forward(
                id=latest["id"],
                to=[cover["emails"][0]],
                body=f"Hi {cover['name'].split()[0]},\n\nHanding this one over while I'm away from {start} to {end}; "
                f"the latest version is attached.\n\nThanks!\n{f['sign']}",
            )
        if not plan["client"]["told"]:  # the sheet notes the one told already
            _tell(tools, card, cover, start, end, f["sign"])
        _invite(tools, plan)
        tools.contacts_update(uid=card["uid"], notes=_note(plan, "{cover} covers while I'm on leave."))


def _tell(tools: Any, card: dict[str, Any], cover: dict[str, Any], start: str, end: str, sign: str) -> None:
    tools.mail_send(
        to=[card["emails"][0]],
        subject="While I'm on leave",
        body=f"Dear {card['name'].split()[0]},\n\nI'm on leave from {start} to {end}. My colleague "
        f"{cover['name']} will look after you in the meantime and has the latest on everything we're working "
        f"on.\n\nBest regards,\n{sign}",
    )


def solve_by_kind(tools):
    """All forwards first, then the clients, the meetings and the cards (notes first, then the old ones)."""
    f = FACTS
    start, end = _when(f)
    plans = _plan(tools, f)
    for plan in plans:
        for subject in plan["client"]["threads"]:
            tools.mail_forward(id=_latest(plan, subject)["id"], to=[plan["cover"]["emails"][0]])
    for plan in [p for p in plans if not p["client"]["told"]]:
        tools.mail_send(
            to=[plan["card"]["emails"][0]],
            subject=f"Cover from {start}",
            body=f"Hello,\n\nFrom {start} until {end} I'm away. Please contact {plan['cover']['name']} "
            f"({plan['cover']['emails'][0]}) with anything you need.\n\nKind regards,\n{f['sign']}",
        )
    for plan in plans:
        _invite(tools, plan)
    for plan in plans:
        note = f"Cover during my leave: {plan['cover']['name']}.\n{plan['card']['notes']}"
        tools.contacts_update(uid=plan["card"]["uid"], notes=note)


def solve_reply_in_thread(tools):
    """Tells each client not yet told by replying in their open thread, then forwards it; meetings and cards
    last."""
    f = FACTS
    plans = _plan(tools, f)
    for plan in plans:
        cover = plan["cover"]
        if not plan["client"]["told"]:  # told already: only the forward
            tools.mail_reply(
                id=_latest(plan, plan["client"]["threads"][0])["id"],
                body=f"Thanks for this! I'm off for two weeks from Monday, so I've passed it to {cover['name']}, who "
                f"covers for me and will come back to you.\n\n{f['sign']}",
            )
        for subject in plan["client"]["threads"]:
            tools.mail_forward(id=_latest(plan, subject)["id"], to=[cover["emails"][0]], body="For you while I'm out.")
    for plan in plans:
        _invite(tools, plan)
        tools.contacts_update(uid=plan["card"]["uid"], notes=_note(plan, "Covered by {cover} during my leave."))
