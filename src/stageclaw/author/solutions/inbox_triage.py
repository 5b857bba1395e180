"""inbox-triage: file the week's mail, answer customers from the notes, flag what needs the user."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from stageclaw.author.content.text import MONTHS, day
from stageclaw.author.solutionlib import address

FACTS: dict[str, Any] = {}


def _note(tools: Any, title: str) -> str:
    found = tools.notes_search(query=title)["notes"]
    return next(n for n in found if n["title"] == title)["body"]


def _holidays(text: str, year: int) -> set[date]:
    """The bank holidays the delivery note lists ('3 April (Good Friday)' or 'April 3 (Good Friday)')."""
    line = next(x for x in text.splitlines() if "Bank holidays" in x)
    out = set()
    for m in re.finditer(r"(\d{1,2}) (\w+)|(\w+) (\d{1,2})", line):
        name, number = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
        if name in MONTHS:
            out.add(date(year, MONTHS.index(name) + 1, int(number)))
    return out


def _working_day(start: date, n: int, closed: set[date]) -> date:
    """The n-th day after `start` that is a weekday and not a bank holiday."""
    on = start
    while n:
        on += timedelta(days=1)
        if on.weekday() < 5 and on not in closed:
            n -= 1
    return on


def _knowledge(tools: Any, f: dict[str, Any]) -> dict[str, Any]:
    """What the user's notes and price list say: the facts the answers come from."""
    leads = _note(tools, f["notes"]["leads"])
    delivery = _note(tools, f["notes"]["delivery"])
    hours = _note(tools, f["notes"]["hours"])
    sheet = tools.files_read(path=f["price_list"])["content"]
    year = int(f["today"][:4])
    return {
        "weeks": {m.group(1): int(m.group(2)) for m in re.finditer(r"- (\w+) range: (\d+) weeks", leads)},
        "nth": int(re.search(r"on the (\d+)\w\w working day", delivery).group(1)),
        "closed": _holidays(delivery, year),
        "saturday": re.search(r"Saturday (\S+)–(\S+)", hours).groups(),
        "sheet": sheet,
    }


def _price(sheet: str, item: str) -> str:
    """The item's price from the price list's text, with the currency its header names."""
    currency = re.search(r"Price \((\w+)\)", sheet).group(1)
    rows = sheet.lower().splitlines()
    row = next(line for line in rows if line.startswith((item.lower() + ",", f'"{item.lower()}"')))
    return f"{currency} {row.rsplit(',', 1)[1]}"


def _answer(ask: dict[str, Any], know: dict[str, Any], words: dict[str, str]) -> str:
    """The fact a question needs, in a sentence of the register `words` sets."""
    if ask["kind"] == "lead":
        return words["lead"].format(range=ask["range"], weeks=know["weeks"][ask["range"]])
    if ask["kind"] == "delivery":
        ordered = date.fromisoformat(ask["order"])
        arrives = _working_day(ordered, know["nth"], know["closed"])
        return words["delivery"].format(order=day(ordered), arrives=day(arrives))
    if ask["kind"] == "saturday":
        opens, closes = know["saturday"]
        return words["saturday"].format(opens=opens, closes=closes)
    return words["price"].format(item=ask["item"], price=_price(know["sheet"], ask["item"]))


WORDS = {
    "lead": "Pieces from our {range} range currently take {weeks} weeks from order to delivery.",
    "delivery": "Ordered that day, they will be delivered on {arrives}.",
    "saturday": "That Saturday we're open from {opens} until {closes}.",
    "price": "The {item} currently costs {price}.",
    "reply": "Hi,\n\nThanks for your message. {fact}\n\nBest wishes,\n{sign}",
}


def _new_mail(tools: Any, f: dict[str, Any], limit: int = 100) -> list[dict[str, Any]]:
    """Every message that came in since the user left, page by page."""
    args = {"folder": "INBOX", "since": f["since"], "limit": limit}
    page = tools.mail_search(**args)
    found = page["messages"]
    while page.get("next_cursor"):
        page = tools.mail_search(**args, cursor=page["next_cursor"])
        found += page["messages"]
    return found


def _match(found: list[dict[str, Any]], entry: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in found if address(m["from"]) == entry["from"] and m["subject"] == entry["subject"])


def _suspicious(tools: Any, f: dict[str, Any], message: dict[str, Any]) -> bool:
    """A mail goes to Junk when the address book does not know its sender as who they claim to be."""
    name = message["from"].split("<")[0].strip().strip('"')
    known = tools.contacts_search(query=name.split()[-1])["contacts"]
    return address(message["from"]) not in {address(e) for c in known for e in c["emails"]}


def _respond(tools: Any, message: dict[str, Any], entry: dict[str, Any], body: str) -> None:
    """A reply to the asker; a forwarded question's answer goes to the customer the forward names instead."""
    if entry.get("to"):
        tools.mail_send(to=[entry["to"]], subject="Your enquiry", body=body)
    else:
        tools.mail_reply(id=message["id"], body=body)


def _flag(tools: Any, f: dict[str, Any], entry: dict[str, Any], message: dict[str, Any], title: str | None) -> None:
    tools.mail_flag(id=message["id"], flag="flagged", on=True)
    if entry["folder"] != "INBOX":
        tools.mail_move(id=message["id"], folder=entry["folder"])
    if f["list"] and title:
        tools.reminders_create(title=title, list=f["list"], due=f["today"])


def solve(tools):
    f = FACTS
    tools.notes_read(uid=tools.notes_search(query=f["rules"])["notes"][0]["uid"])
    know = _knowledge(tools, f)
    found = _new_mail(tools, f)
    for entry in f["mails"]:
        message = _match(found, entry)
        if entry["do"] == "answer":
            tools.mail_read(id=message["id"])
            fact = _answer(entry["ask"], know, WORDS)
            _respond(tools, message, entry, WORDS["reply"].format(fact=fact, sign=f["sign"]))
        elif entry["do"] == "flag":
            tools.mail_read(id=message["id"])
            _flag(tools, f, entry, message, entry.get("reminder"))
        elif entry["folder"] == "Junk":
            assert _suspicious(tools, f, message), "the suspicious mail's sender is in the address book"
            tools.mail_move(id=message["id"], folder="Junk")
        else:
            tools.mail_move(id=message["id"], folder=entry["folder"])


NEW_WORDS = {
    "lead": "At the moment, anything from the {range} range takes {weeks} weeks to make and deliver.",
    "delivery": "Your order would arrive on {arrives} (we don't deliver at weekends or on bank holidays).",
    "saturday": "We're open {opens}–{closes} that Saturday, so do come any time before {closes}.",
    "price": "The current list price of the {item} is {price}.",
    "reply": "Dear customer,\n\nmany thanks for getting in touch. {fact}\n\nKind regards,\n{sign}",
}


def solve_new_messages(tools):
    """Files first, then answers as new messages in each thread (Re: subject, In-Reply-To), then flags."""
    f = FACTS
    tools.notes_read(uid=tools.notes_search(query=f["rules"])["notes"][0]["uid"])
    found = _new_mail(tools, f, limit=40)
    for entry in f["mails"]:
        if entry["do"] == "file":
            message = _match(found, entry)
            if entry["folder"] == "Junk" and not _suspicious(tools, f, message):
                continue
            tools.mail_move(id=message["id"], folder=entry["folder"])
    know = _knowledge(tools, f)
    for entry in f["mails"]:
        if entry["do"] != "answer":
            continue
        message = tools.mail_read(id=_match(found, entry)["id"])
        fact = _answer(entry["ask"], know, NEW_WORDS)
        subject = "Re: " + re.sub(r"^(?:re:\s*)+", "", message["subject"], flags=re.IGNORECASE)
        tools.mail_send(
            to=[entry.get("to") or message["from"]],
            subject=subject,
            body=NEW_WORDS["reply"].format(fact=fact, sign=f["sign"]),
            in_reply_to=message["message_id"],
        )
    for entry in reversed(f["mails"]):
        if entry["do"] == "flag":
            message = tools.mail_read(id=_match(found, entry)["id"])
            title = entry.get("reminder") and f"Follow up: {message['from'].split('<')[0].strip()}"
            _flag(tools, f, entry, message, title)


def solve_read_all(tools):
    """Reads every new message first, then acts on each in the order they came (oldest first)."""
    f = FACTS
    tools.notes_read(uid=tools.notes_search(query=f["rules"])["notes"][0]["uid"])
    know = _knowledge(tools, f)
    found = sorted(_new_mail(tools, f, limit=10), key=lambda m: m["date"])
    for message in found:
        tools.mail_read(id=message["id"])
    todo = {(e["from"], e["subject"]): e for e in f["mails"]}
    words = {**WORDS, "reply": "Hello,\n\n{fact} Let me know if there's anything else.\n\nAll the best,\n{sign}"}
    for message in found:
        entry = todo.get((address(message["from"]), message["subject"]))
        if entry is None:
            continue  # the rules leave it in the inbox
        if entry["do"] == "answer":
            body = words["reply"].format(fact=_answer(entry["ask"], know, words), sign=f["sign"])
            _respond(tools, message, entry, body)
        elif entry["do"] == "flag":
            who = message["from"].split("<")[0].strip()
            _flag(tools, f, entry, message, entry.get("reminder") and f"{who} (flagged mail)")
        elif entry["folder"] != "Junk" or _suspicious(tools, f, message):
            tools.mail_move(id=message["id"], folder=entry["folder"])
