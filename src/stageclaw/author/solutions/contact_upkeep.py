"""contact-upkeep: update the changed contacts from the mail (or the file it points to), then tell the people."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from typing import Any

from stageclaw.author.solutionlib import every, newest, one_line

FACTS: dict[str, Any] = {}


def _source(tools, person, read, inbox=None):
    """The newest mail about the person (or the member list it points to), as one line, and that mail; `read`
    keeps what was already opened (two club members share the secretary's mail and the list)."""
    key = repr(sorted(person["search"].items()))
    if key in read:
        mail, text = read[key]
    else:
        mail, text = _open(tools, person, inbox)
        read[key] = mail, text
    if person["file"]:  # the list's row for this person
        rows = csv.DictReader(io.StringIO(text))
        text = " ".join(next(r for r in rows if r["name"] == person["row"]).values())
    else:
        text = one_line(mail["body"])
    missing = [value for value in person["expect"] if value not in text]
    assert not missing, f"the source does not give {missing}"
    return text, mail


def _open(tools, person, inbox):
    """The newest mail found for the person and, when it points to the member list, the list's text."""
    if inbox is None:
        found = tools.mail_search(folder="INBOX", **person["search"])["messages"]
    else:  # read from a listing of the whole inbox
        found = [
            m
            for m in inbox
            if person["search"].get("sender", "").lower() in m["from"].lower()
            and person["search"].get("subject", "") in m["subject"]
        ]
    mail = tools.mail_read(id=newest(found)["id"])  # a later mail corrects an earlier one
    if not person["file"]:
        return mail, ""
    assert person["file"] in one_line(mail["body"]), "the mail does not point to the member list"
    return mail, tools.files_read(path=person["file"])["content"]


def _contact(tools, person):
    # The stored contact is the one with the address they used to have (a namesake has another).
    hits = tools.contacts_search(query=person["known_address"])["contacts"]
    (contact,) = [c for c in hits if person["known_address"] in c["emails"]]
    return contact


def _street(address):
    return address.split(",")[0]


def _stale(tools, echoes, today):
    """The user's own items that still give someone's old details, found by those details: the open reminder
    and the coming event at a mover's old home, the card list (not last year's posted cards) with another's,
    the club weekend's sheet with the members' old mobiles."""
    card, cards, games, weekend = echoes["card"], echoes["cards"], echoes["games"], echoes["weekend"]
    todos = every(tools.reminders_list, "reminders")
    (todo,) = [t for t in todos if _street(card["old"]) in f"{t['title']} {t.get('notes') or ''}"]
    found = tools.notes_search(query=_street(cards["old"]))["notes"]
    (note,) = [n for n in found if n["title"] == cards["title"]]  # not last year's posted cards
    note = tools.notes_read(uid=note["uid"])
    start = date.fromisoformat(today)
    coming = tools.calendar_list_events(
        start=start.isoformat(), end=(start + timedelta(days=120)).isoformat(), query=_street(games["old"])
    )["events"]
    (event,) = coming  # the evening that is over stays as it was
    entries = every(tools.files_list, "entries", path="Documents")
    (path,) = [e["path"] for e in entries if e["path"].endswith(weekend["name"])]
    sheet = tools.files_read(path=path)["content"]
    assert all(old in sheet for old, _ in weekend["swaps"]), "the sheet does not give the old details"
    return todo, note, event, path, sheet


def _swapped(sheet, swaps):
    for old, new in swaps:
        sheet = sheet.replace(old, new)
    return sheet


def _tidy_in_place(tools, f, history=False):
    echoes = f["echoes"]
    todo, note, event, path, sheet = _stale(tools, echoes, f["today"])
    card, cards, games = echoes["card"], echoes["cards"], echoes["games"]
    changes = {"title": todo["title"].replace(card["old"], card["new"])}
    if history:
        changes["notes"] = f"She has moved (was {card['old']})."
    tools.reminders_update(uid=todo["uid"], **changes)
    new = cards["new"] + (f" (moved; was {_street(cards['old'])})" if history else "")
    tools.notes_update(uid=note["uid"], body=note["body"].replace(cards["old"], new))
    extra = {"description": "They have moved house."} if history else {}
    tools.calendar_update_event(uid=event["uid"], location=games["new"], **extra)
    tools.files_write(path=path, content=_swapped(sheet, echoes["weekend"]["swaps"]))


def _tidy_again(tools, f):
    """Deletes each stale item and makes it again with the new details."""
    echoes = f["echoes"]
    todo, note, event, path, sheet = _stale(tools, echoes, f["today"])
    card, cards, games = echoes["card"], echoes["cards"], echoes["games"]
    tools.reminders_delete(uid=todo["uid"])
    tools.reminders_create(title=todo["title"].replace(card["old"], card["new"]), list=todo["list"], due=todo["due"])
    tools.notes_delete(uid=note["uid"])
    tools.notes_create(
        title=note["title"], body=note["body"].replace(cards["old"], cards["new"]), folder=note.get("folder")
    )
    tools.calendar_delete_event(uid=event["uid"])
    tools.calendar_create_event(
        calendar=event["calendar"],
        summary=event["summary"],
        start=event["start"],
        end=event["end"],
        location=games["new"],
    )
    tools.files_delete(path=path)
    tools.files_write(path=path, content=_swapped(sheet, echoes["weekend"]["swaps"]))


def solve(tools):
    f, read = FACTS, {}
    for person in f["people"]:
        _source(tools, person, read)
        tools.contacts_update(uid=_contact(tools, person)["uid"], **person["changes"])
    for note in f["notes"]:
        tools.mail_send(**note)
    _tidy_in_place(tools, f)


def solve_read_all_reply(tools):
    """Lists the recent inbox first; keeps the old address as a second one and the old home as history; answers
    each person in the thread of their own mail when it came from the address now saved."""
    f = FACTS
    page = tools.mail_search(folder="INBOX", since=f["since"], limit=100)  # the last weeks, page by page
    inbox = page["messages"]
    while page.get("next_cursor"):
        page = tools.mail_search(folder="INBOX", since=f["since"], limit=100, cursor=page["next_cursor"])
        inbox += page["messages"]
    sources, read = [], {}
    for person in f["people"]:
        _, mail = _source(tools, person, read, inbox)
        contact = _contact(tools, person)
        changes = dict(person["changes"])
        if "emails" in changes:
            changes["emails"] = [*changes["emails"], person["known_address"]]
        if "notes" in changes and contact.get("notes"):  # the rule's previous address, in its own words
            changes["notes"] = f"Home: {person['home']}\n(was {contact['notes'].removeprefix('Home: ')})"
        tools.contacts_update(uid=contact["uid"], **changes)
        sources.append(mail)
    for person, mail in zip(f["people"], sources, strict=True):
        if not f["notes"]:
            break
        body = (
            f"Hello {person['first']},\n\nthanks for letting me know. I now have {person['phone']} for you, and "
            f"I'll use {person['email']} from now on.\n\nBest wishes,\n{f['me']}"
        )
        if person["email"] in mail["from"].lower():
            tools.mail_reply(id=mail["id"], body=body)
        else:
            tools.mail_send(to=[person["email"]], subject="Updated your details", body=body)
    _tidy_in_place(tools, f, history=True)


def solve_notes_first(tools):
    """Writes the notes before touching the address book, then updates the contacts in reverse order, with
    phone numbers written without spaces; tidies the user's own stale items first, each deleted and made again."""
    f, read = FACTS, {}
    _tidy_again(tools, f)
    for person in f["people"]:
        _source(tools, person, read)
    for person in f["people"] if f["notes"] else []:
        tools.mail_send(
            to=[person["email"]],
            subject="Got your new number",
            body=f"Hey {person['first']}! Just so you know, I've got you down as {person['phone']} now. "
            f"Cheers, {f['me']}",
        )
    for person in reversed(f["people"]):
        changes = dict(person["changes"])
        changes["phones"] = [p.replace(" ", "") for p in changes["phones"]]
        tools.contacts_update(uid=_contact(tools, person)["uid"], **changes)
