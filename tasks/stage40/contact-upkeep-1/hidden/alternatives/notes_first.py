"""Alternative solution 'notes_first' for contact-upkeep-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta


FACTS = {'people': [{'search': {'sender': 'Holloway', 'subject': 'A change of scene'},
             'file': '',
             'row': 'Alexander Holloway',
             'expect': ['+44 161 496 7331', 'Operations Lead', 'Fernhill Media'],
             'known_address': 'alexander_holloway@nimbus-robotics.co.uk',
             'changes': {'emails': ['alex@fernhill-media.co.uk'],
                         'phones': ['+44 161 496 7331'],
                         'organization': 'Fernhill Media',
                         'title': 'Operations Lead'},
             'first': 'Alex',
             'email': 'alex@fernhill-media.co.uk',
             'phone': '+44 161 496 7331',
             'home': ''},
            {'search': {'sender': 'fiona.winslow@outlook.com'},
             'file': '',
             'row': 'Fiona Winslow',
             'expect': ['16 Rye Lane, London SE15 4QN', '+44 20 7433 5258'],
             'known_address': 'fiona.winslow@outlook.com',
             'changes': {'phones': ['+44 20 7433 5258'],
                         'notes': 'Home: 16 Rye Lane, London SE15 4QN\n'
                                  'Previous: 136 Deansgate, Manchester M3 4LQ'},
             'first': 'Fiona',
             'email': 'fiona.winslow@outlook.com',
             'phone': '+44 20 7433 5258',
             'home': '16 Rye Lane, London SE15 4QN'},
            {'search': {'sender': 'deepika_krishnamurthy@hotmail.co.uk'},
             'file': '',
             'row': 'Deepika Krishnamurthy',
             'expect': ['159 Broughton Street, Edinburgh EH1 3RJ', '+44 131 496 9323'],
             'known_address': 'deepika_krishnamurthy@hotmail.co.uk',
             'changes': {'phones': ['+44 131 496 9323'],
                         'notes': 'Home: 159 Broughton Street, Edinburgh EH1 3RJ\n'
                                  'Previous: 23 Oldham Street, Manchester M1 1JQ'},
             'first': 'Deepika',
             'email': 'deepika_krishnamurthy@hotmail.co.uk',
             'phone': '+44 131 496 9323',
             'home': '159 Broughton Street, Edinburgh EH1 3RJ'},
            {'search': {'sender': 'nokeke@gmail.com'},
             'file': '',
             'row': 'Nnamdi Okeke',
             'expect': ['187 Bishopsgate, London EC2M 4YE', '+44 20 7821 7081'],
             'known_address': 'nokeke@gmail.com',
             'changes': {'phones': ['+44 20 7821 7081'],
                         'notes': 'Home: 187 Bishopsgate, London EC2M 4YE\n'
                                  'Previous: 116 Cockburn Street, Edinburgh EH1 1BS'},
             'first': 'Nnamdi',
             'email': 'nokeke@gmail.com',
             'phone': '+44 20 7821 7081',
             'home': '187 Bishopsgate, London EC2M 4YE'},
            {'search': {'sender': 'kwhitfield@icloud.com',
                        'subject': 'Eastfield Climbing Club: updated member list'},
             'file': 'Shared/Eastfield Climbing Club/members-2026.csv',
             'row': 'Stuart Blackwood',
             'expect': ['stuart_blackwood@outlook.com', '+44 7977 086990'],
             'known_address': 'stuart_blackwood@gmail.com',
             'changes': {'emails': ['stuart_blackwood@outlook.com'], 'phones': ['+44 7977 086990']},
             'first': 'Stuart',
             'email': 'stuart_blackwood@outlook.com',
             'phone': '+44 7977 086990',
             'home': ''},
            {'search': {'sender': 'kwhitfield@icloud.com',
                        'subject': 'Eastfield Climbing Club: updated member list'},
             'file': 'Shared/Eastfield Climbing Club/members-2026.csv',
             'row': 'Eleanor Thornton',
             'expect': ['eleanor.thornton@gmail.com', '+44 7941 403715'],
             'known_address': 'eleanort@outlook.com',
             'changes': {'emails': ['eleanor.thornton@gmail.com'], 'phones': ['+44 7941 403715']},
             'first': 'Eleanor',
             'email': 'eleanor.thornton@gmail.com',
             'phone': '+44 7941 403715',
             'home': ''}],
 'me': 'Abhishek',
 'since': '2026-03-03',
 'today': '2026-03-24',
 'echoes': {'card': {'old': '136 Deansgate, Manchester M3 4LQ', 'new': '16 Rye Lane, London SE15 4QN'},
            'cards': {'title': 'Christmas card list',
                      'old': '23 Oldham Street, Manchester M1 1JQ',
                      'new': '159 Broughton Street, Edinburgh EH1 3RJ'},
            'games': {'old': '116 Cockburn Street, Edinburgh EH1 1BS',
                      'new': '187 Bishopsgate, London EC2M 4YE'},
            'weekend': {'name': 'weekend away.csv',
                        'swaps': [['+44 7308 639709', '+44 7977 086990'],
                                  ['+44 7603 526705', '+44 7941 403715'],
                                  ['stuart_blackwood@gmail.com', 'stuart_blackwood@outlook.com'],
                                  ['eleanort@outlook.com', 'eleanor.thornton@gmail.com']]}},
 'notes': [{'to': ['Alex Holloway <alex@fernhill-media.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Alex,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: alex@fernhill-media.co.uk, "
                    "direct line +44 161 496 7331. Let me know if anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Abhishek'},
           {'to': ['Fiona Winslow <fiona.winslow@outlook.com>'],
            'subject': 'Your new details',
            'body': 'Hi Fiona,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 20 7433 5258. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Abhishek'},
           {'to': ['Deepika Krishnamurthy <deepika_krishnamurthy@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Deepika,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 131 496 9323. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Abhishek'},
           {'to': ['Nnamdi Okeke <nokeke@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Nnamdi,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 20 7821 7081. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Abhishek'},
           {'to': ['Stuart Blackwood <stuart_blackwood@outlook.com>'],
            'subject': 'Your new details',
            'body': 'Hi Stuart,\n'
                    '\n'
                    "I saw your new details on the Eastfield Climbing Club list. I've saved your new number, "
                    "+44 7977 086990, and your new email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Abhishek'},
           {'to': ['Eleanor Thornton <eleanor.thornton@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Eleanor,\n'
                    '\n'
                    "I saw your new details on the Eastfield Climbing Club list. I've saved your new number, "
                    "+44 7941 403715, and your new email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Abhishek'}]}


def _contact(tools, person):
    # The stored contact is the one with the address they used to have (a namesake has another).
    hits = tools.contacts_search(query=person["known_address"])["contacts"]
    (contact,) = [c for c in hits if person["known_address"] in c["emails"]]
    return contact


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


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


def _swapped(sheet, swaps):
    for old, new in swaps:
        sheet = sheet.replace(old, new)
    return sheet


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


solve = solve_notes_first
