"""Alternative solution 'reply_in_thread' for handover-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'sheet': 'Handover/Handover October 2025.xlsx',
 'absences': 'Team absences',
 'start': '2025-10-20',
 'end': '2025-10-31',
 'sign': 'Michael',
 'org': 'Corvid Studio',
 'clients': [{'name': 'Brightlane Systems',
              'threads': ['Updated forecast', 'Pilot results'],
              'domain': 'brightlane-systems.co.uk',
              'told': False,
              'meeting': 'Brightlane Systems weekly check-in'},
             {'name': 'Bluefin Logistics',
              'threads': ['Data processing agreement'],
              'domain': 'bl-group.co.uk',
              'told': False,
              'meeting': 'Sid / monthly review'},
             {'name': 'Foxglove Logistics',
              'threads': ['Renewal quote'],
              'domain': 'foxglove-logistics.co.uk',
              'told': False,
              'meeting': 'Foxglove Logistics: project review'},
             {'name': 'Cobalt Robotics',
              'threads': ['Revised statement of work'],
              'domain': 'cobalt-robotics.co.uk',
              'told': True,
              'meeting': 'Cobalt Robotics weekly check-in'}]}


def _note(plan: dict[str, Any], words: str) -> str:
    return f"{plan['card']['notes']}\n{words.format(cover=plan['cover']['name'])}".strip()


def _invite(tools: Any, plan: dict[str, Any]) -> None:
    for event in plan["meetings"]:
        tools.calendar_update_event(uid=event["uid"], attendees=[*event["attendees"], plan["cover"]["emails"][0]])


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _latest(plan: dict[str, Any], subject: str) -> dict[str, Any]:
    return newest([m for m in plan["mail"] if subject in m["subject"]])


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


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


def _sheet(tools: Any, f: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Client -> (covered by, second choice), from the handover sheet's rows."""
    text = tools.files_read(path=f["sheet"])["content"]
    rows = [line.split(",") for line in text.splitlines()]
    names = {c["name"] for c in f["clients"]}
    return {r[0]: (r[1], r[2]) for r in rows if r and r[0] in names}


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


solve = solve_reply_in_thread
