"""Alternative solution 'notes_first' for contact-upkeep-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Fletcher', 'subject': 'Moving on from Bluefin Labs'},
             'file': '',
             'row': 'Samantha Fletcher',
             'expect': ['+81 3 8666 7272', 'Senior Consultant', 'Emberline Systems'],
             'known_address': 'samanthaf@bluefin-labs.co.jp',
             'changes': {'emails': ['sam@emberline-systems.co.jp'],
                         'phones': ['+81 3 8666 7272'],
                         'organization': 'Emberline Systems',
                         'title': 'Senior Consultant'},
             'first': 'Sam',
             'email': 'sam@emberline-systems.co.jp',
             'phone': '+81 3 8666 7272'},
            {'search': {'sender': 'daiki@icloud.com'},
             'file': '',
             'row': 'Daiki Matsumoto',
             'expect': ['4-20-3 Dogenzaka, Shibuya-ku, Tokyo 150-0043', '+81 3 3428 1819'],
             'known_address': 'daiki@icloud.com',
             'changes': {'phones': ['+81 3 3428 1819'],
                         'notes': 'Home: 4-20-3 Dogenzaka, Shibuya-ku, Tokyo 150-0043'},
             'first': 'Daiki',
             'email': 'daiki@icloud.com',
             'phone': '+81 3 3428 1819'},
            {'search': {'sender': 'sakura@icloud.com',
                        'subject': 'Eastfield Climbing Club: updated member list'},
             'file': 'Shared/Eastfield Climbing Club/members-2026.csv',
             'row': 'Hana Tanaka',
             'expect': ['hana_tanaka@gmail.com', '+81 90 2670 5683'],
             'known_address': 'htanaka@docomo.ne.jp',
             'changes': {'emails': ['hana_tanaka@gmail.com'], 'phones': ['+81 90 2670 5683']},
             'first': 'Hana',
             'email': 'hana_tanaka@gmail.com',
             'phone': '+81 90 2670 5683'}],
 'me': 'Riku',
 'notes': [{'to': ['Sam Fletcher <sam@emberline-systems.co.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Sam,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: sam@emberline-systems.co.jp, "
                    "direct line +81 3 8666 7272. Let me know if anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Riku'},
           {'to': ['Daiki Matsumoto <daiki@icloud.com>'],
            'subject': 'Your new details',
            'body': 'Hi Daiki,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +81 3 3428 1819. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Riku'},
           {'to': ['Hana Tanaka <hana_tanaka@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Hana,\n'
                    '\n'
                    "I saw your new details on the Eastfield Climbing Club list. I've saved your new number, "
                    "+81 90 2670 5683, and your new email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Riku'}]}


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


def _source(tools, person, inbox=None):
    """The newest mail about the person (or the member list it points to), as one line, and that mail."""
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
    text = one_line(mail["body"])
    if person["file"]:  # the mail only says where the member list is
        assert person["file"] in text, "the mail does not point to the member list"
        rows = csv.DictReader(io.StringIO(tools.files_read(path=person["file"])["content"]))
        text = " ".join(next(r for r in rows if r["name"] == person["row"]).values())
    missing = [value for value in person["expect"] if value not in text]
    assert not missing, f"the source does not give {missing}"
    return text, mail


def solve_notes_first(tools):
    """Writes the notes before touching the address book, then updates the contacts in reverse order, with
    phone numbers written without spaces."""
    f = FACTS
    for person in f["people"]:
        _source(tools, person)
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
