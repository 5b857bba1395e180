"""Alternative solution 'by_kind' for handover-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import re
from collections import Counter
from datetime import date, datetime, timedelta
from itertools import product


FACTS = {'sheet': 'Handover/Handover October 2025.xlsx',
 'absences': 'Team absences',
 'start': '2025-10-20',
 'end': '2025-10-31',
 'sign': 'Michael',
 'org': 'Corvid Studio',
 'clients': [{'name': 'Harbor Studio',
              'threads': ['Renewal quote', 'Updated forecast'],
              'domain': 'harbor-studio.co.uk',
              'told': False,
              'meeting': 'Harbor Studio: project review'},
             {'name': 'Granite Partners',
              'threads': ['Revised statement of work'],
              'domain': 'gp-group.co.uk',
              'told': False,
              'meeting': 'Catch-up with Emeka'},
             {'name': 'Cobalt Robotics',
              'threads': ['Data processing agreement'],
              'domain': 'cobalt-robotics.co.uk',
              'told': False,
              'meeting': 'Cobalt Robotics: project review'},
             {'name': 'Copperleaf Partners',
              'threads': ['Pilot results'],
              'domain': 'copperleaf-partners.co.uk',
              'told': True,
              'meeting': 'Copperleaf Partners sync'},
             {'name': 'Driftwood Media',
              'threads': ['Onboarding plan'],
              'domain': 'driftwood-media.co.uk',
              'told': False,
              'meeting': 'Driftwood Media: project review'}]}
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def _words(name: str) -> str:
    return "|".join(rf"\b{re.escape(w)}\b" for w in name.split() if len(w) > 2)


def _leave(f: dict[str, Any]) -> list[date]:
    start, end = date.fromisoformat(f["start"]), date.fromisoformat(f["end"])
    return [start + timedelta(days=n) for n in range((end - start).days + 1)]


def _stale(tools: Any, f: dict[str, Any], plans: list[dict[str, Any]]) -> dict[str, list[tuple[Any, ...]]]:
    """The user's own things the handover makes stale: open reminders due in the leave about a client (by its
    contact's name or the company's), blocks of the user's own (no guests) in the leave about a client, and note
    lines about a client that name a colleague other than its cover. Each with the plan it belongs to."""
    days = {d.isoformat() for d in _leave(f)}
    found: dict[str, list[tuple[Any, ...]]] = {"reminders": [], "blocks": [], "lines": []}
    for todo in every(tools.reminders_list, "reminders"):
        for plan in plans:
            about = _words(plan["card"]["name"]) + "|" + re.escape(plan["client"]["name"])
            if str(todo.get("due") or "")[:10] in days and re.search(about, todo["title"], re.I):
                found["reminders"].append((todo, plan))
    events = tools.calendar_list_events(
        start=f["start"], end=(date.fromisoformat(f["end"]) + timedelta(days=1)).isoformat(), calendar="Work"
    )["events"]
    for event in events:
        for plan in plans:
            if not event.get("attendees") and plan["client"]["name"] in event["summary"]:
                found["blocks"].append((event, plan))
    for plan in plans:
        others = "|".join(_words(n) for n in plan["team"] if n != plan["cover"]["name"])
        for note in every(tools.notes_search, "notes", query=plan["client"]["name"]):
            body = tools.notes_read(uid=note["uid"])
            for line in body["body"].splitlines():
                if plan["client"]["name"] in line and re.search(others, line):
                    found["lines"].append((body, line, plan))
    return found


def _invite(tools: Any, plan: dict[str, Any]) -> None:
    for event in plan["meetings"]:
        tools.calendar_update_event(uid=event["uid"], attendees=[*event["attendees"], plan["cover"]["emails"][0]])


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _latest(plan: dict[str, Any], subject: str) -> dict[str, Any]:
    return newest([m for m in plan["mail"] if subject in m["subject"]])


def cover_fits(problem: dict[str, Any], client: str, person: str) -> bool:
    """The colleague knows the client, is at work on its meeting days, speaks its language and is the one the
    client was told of, if any."""
    need = problem["needs"].get(client)
    return (
        person in problem["knows"][client]
        and not set(problem["days"][client]) & set(problem["off"].get(person, ()))
        and (need is None or need in problem["speaks"].get(person, ()))
        and problem["told"].get(client, person) == person
    )


def cover_assignments(problem: dict[str, Any]) -> tuple[int, list[tuple[str, ...]]]:
    """How many assignments (a colleague per client) there are, and the ones that keep every rule."""
    count, valid = 0, []
    clients = problem["clients"]
    for pick in product(problem["colleagues"], repeat=len(clients)):
        count += 1
        if max(Counter(pick).values()) <= problem["cap"] and all(
            cover_fits(problem, c, p) for c, p in zip(clients, pick, strict=True)
        ):
            valid.append(pick)
    return count, valid


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _off(tools: Any, f: dict[str, Any], team: dict[str, dict[str, Any]]) -> dict[str, set[date]]:
    """The days of the leave each colleague is out: the absences calendar (all-day ends are exclusive) and what
    they mailed about (a weekday they don't work, a day away)."""
    days = _leave(f)
    found = tools.calendar_list_events(
        start=(days[0] - timedelta(days=30)).isoformat(),
        end=(days[-1] + timedelta(days=30)).isoformat(),
        calendar=f["absences"],
    )["events"]
    out: dict[str, set[date]] = {name: set() for name in team}
    for e in found:
        name = e["summary"].split(" – ")[0]
        first, after = date.fromisoformat(e["start"][:10]), date.fromisoformat(e["end"][:10])
        if name in out:
            out[name] |= {d for d in days if first <= d < after}
    for name, card in team.items():
        for m in tools.mail_search(folder="INBOX", sender=card["emails"][0])["messages"]:
            body = tools.mail_read(id=m["id"])["body"]
            for weekday in re.findall(r"\b(Monday|Tuesday|Wednesday|Thursday|Friday)s\b", body):
                out[name] |= {d for d in days if d.weekday() == WEEKDAYS.index(weekday)}
            for d in days:
                month = MONTHS[d.month - 1]
                if re.search(rf"\b{d.day}\s+{month}\b|\b{month}\s+{d.day}\b", body):
                    out[name].add(d)
    return out


def _sheet(tools: Any, f: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, str], dict[str, set[str]]]:
    """Who knows each client, the language a client's calls are in, and who speaks what (the Team tab)."""
    text = tools.files_read(path=f["sheet"])["content"]
    rows = [r for r in csv.reader(text.splitlines()) if r]
    names = {c["name"] for c in f["clients"]}
    knows = {r[0]: [x.strip() for x in r[1].split(",")] for r in rows if r[0] in names}
    needs = {}
    for r in rows:
        found = re.search(r"calls are in (\w+)", r[2]) if r[0] in names and len(r) > 2 else None
        if found:
            needs[r[0]] = found.group(1)
    team = {p for listed in knows.values() for p in listed}
    speaks = {r[0]: {x.strip() for x in r[1].split(",")} for r in rows if r[0] in team and len(r) > 1}
    return knows, needs, speaks


def _plan(tools: Any, f: dict[str, Any]) -> list[dict[str, Any]]:
    """Per client: its card, its cover's card, its messages and its meetings during the leave."""
    knows, needs, speaks = _sheet(tools, f)
    # a namesake works elsewhere: the colleague's card has the user's firm
    team = {
        name: next(
            c
            for c in tools.contacts_search(query=name)["contacts"]
            if c["name"] == name and c["organization"] == f["org"]
        )
        for name in sorted({p for listed in knows.values() for p in listed})
    }
    off = _off(tools, f, team)
    meetings = tools.calendar_list_events(
        start=f["start"], end=(date.fromisoformat(f["end"]) + timedelta(days=1)).isoformat(), calendar="Work"
    )["events"]
    clients, told = [], {}
    for client in f["clients"]:
        card = next(
            c for c in tools.contacts_search(query=client["name"])["contacts"] if c["organization"] == client["name"]
        )
        mine = {address(e) for e in card["emails"]}
        # others at the client write too: everything from the client's domain
        mail = tools.mail_search(folder="INBOX", sender=f"@{client['domain']}")["messages"]
        if client["told"]:  # the sheet notes the client told already: the mail in Sent names the cover
            sent = tools.mail_search(folder="Sent", recipient=card["emails"][0])["messages"]
            body = tools.mail_read(id=newest(sent)["id"])["body"]
            told[client["name"]] = next(name for name in team if name in body)
        clients.append(
            {
                "client": client,
                "card": card,
                "mail": mail,
                "meetings": [e for e in meetings if mine & {address(a) for a in e["attendees"]}],
            }
        )
    problem = {
        "clients": [c["name"] for c in f["clients"]],
        "colleagues": sorted(team),
        "knows": knows,
        "days": {p["client"]["name"]: [date.fromisoformat(e["start"][:10]) for e in p["meetings"]] for p in clients},
        "off": off,
        "speaks": speaks,
        "needs": needs,
        "told": told,
        "cap": 1,  # the sheet: nobody covers more than one client
    }
    _, [covers] = cover_assignments(problem)
    for plan, name in zip(clients, covers, strict=True):
        plan["cover"] = team[name]
        plan["team"] = sorted(team)
    return clients


def _when(f: dict[str, Any]) -> tuple[str, str]:
    start, end = (datetime.fromisoformat(f[k]) for k in ("start", "end"))
    return f"{start:%A} {start.day} {start:%B}", f"{end:%A} {end.day} {end:%B}"


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
    # the user's own things, changed in place: the reminder and the block name the cover, the note's guess goes
    stale = _stale(tools, f, plans)
    for todo, plan in stale["reminders"]:
        tools.reminders_update(uid=todo["uid"], title=f"{todo['title']} ({plan['cover']['name']} has it now)")
    for event, plan in stale["blocks"]:
        tools.calendar_update_event(uid=event["uid"], summary=f"{event['summary']} – {plan['cover']['name']} goes")
    for note, line, _ in stale["lines"]:
        body = tools.notes_read(uid=note["uid"])["body"]
        tools.notes_update(uid=note["uid"], body="\n".join(x for x in body.splitlines() if x != line))


solve = solve_by_kind
