"""Alternative solution 'notes_first' for contact-upkeep-3-csc-ctc-nd-tsu: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Krishnamurthy', 'subject': 'Some news'},
             'file': '',
             'row': 'Ananya Krishnamurthy',
             'expect': ['+44 131 496 6362', 'Senior Consultant', 'Corvid Systems'],
             'known_address': 'ananya@orbitals-health.co.uk',
             'changes': {'emails': ['ananya@corvid-systems.co.uk'],
                         'phones': ['+44 131 496 6362'],
                         'organization': 'Corvid Systems',
                         'title': 'Senior Consultant'},
             'first': 'Ananya',
             'email': 'ananya@corvid-systems.co.uk',
             'phone': '+44 131 496 6362'},
            {'search': {'sender': 'jennifer@gmail.com'},
             'file': '',
             'row': 'Jennifer Kendrick',
             'expect': ['79 Portland Street, Manchester M1 3BN', '+44 161 496 5017'],
             'known_address': 'jennifer@gmail.com',
             'changes': {'phones': ['+44 161 496 5017'],
                         'notes': 'Home: 79 Portland Street, Manchester M1 3BN'},
             'first': 'Jennifer',
             'email': 'jennifer@gmail.com',
             'phone': '+44 161 496 5017'},
            {'search': {'sender': 'arjun.banerjee@outlook.com'},
             'file': '',
             'row': 'Arjun Banerjee',
             'expect': ['18 Upper Street, London N1 2XG', '+44 20 7400 1509'],
             'known_address': 'arjun.banerjee@outlook.com',
             'changes': {'phones': ['+44 20 7400 1509'], 'notes': 'Home: 18 Upper Street, London N1 2XG'},
             'first': 'Arjun',
             'email': 'arjun.banerjee@outlook.com',
             'phone': '+44 20 7400 1509'},
            {'search': {'sender': 'akosua@icloud.com'},
             'file': '',
             'row': 'Akosua Darko',
             'expect': ['226 Mare Street, London E8 3RL', '+44 20 7372 0606'],
             'known_address': 'akosua@icloud.com',
             'changes': {'phones': ['+44 20 7372 0606'], 'notes': 'Home: 226 Mare Street, London E8 3RL'},
             'first': 'Akosua',
             'email': 'akosua@icloud.com',
             'phone': '+44 20 7372 0606'},
            {'search': {'sender': 'iyer.krishnan@icloud.com'},
             'file': '',
             'row': 'Krishnan Iyer',
             'expect': ['+44 7695 266017'],
             'known_address': 'iyer.krishnan@icloud.com',
             'changes': {'emails': ['krishnan@hotmail.co.uk'], 'phones': ['+44 7695 266017']},
             'first': 'Krishnan',
             'email': 'krishnan@hotmail.co.uk',
             'phone': '+44 7695 266017'},
            {'search': {'sender': 'babatunde.balogun@gmail.com'},
             'file': '',
             'row': 'Babatunde Balogun',
             'expect': ['+44 7024 298042'],
             'known_address': 'babatunde.balogun@gmail.com',
             'changes': {'emails': ['babatunde.balogun@hotmail.co.uk'], 'phones': ['+44 7024 298042']},
             'first': 'Babatunde',
             'email': 'babatunde.balogun@hotmail.co.uk',
             'phone': '+44 7024 298042'}],
 'me': 'Babatunde',
 'since': '2026-01-06',
 'notes': [{'to': ['Ananya Krishnamurthy <ananya@corvid-systems.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Ananya,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: ananya@corvid-systems.co.uk, "
                    "direct line +44 131 496 6362. Let me know if anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Babatunde'},
           {'to': ['Jennifer Kendrick <jennifer@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Jennifer,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 161 496 5017. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Babatunde'},
           {'to': ['Arjun Banerjee <arjun.banerjee@outlook.com>'],
            'subject': 'Your new details',
            'body': 'Hi Arjun,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 20 7400 1509. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Babatunde'},
           {'to': ['Akosua Darko <akosua@icloud.com>'],
            'subject': 'Your new details',
            'body': 'Hi Akosua,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 20 7372 0606. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Babatunde'},
           {'to': ['Krishnan Iyer <krishnan@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Krishnan,\n'
                    '\n'
                    "Thanks for the heads-up! I've saved your new number, +44 7695 266017, and your new "
                    "email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Babatunde'},
           {'to': ['Babatunde Balogun <babatunde.balogun@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Babatunde,\n'
                    '\n'
                    "Thanks for the heads-up! I've saved your new number, +44 7024 298042, and your new "
                    "email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Babatunde'}]}


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


def solve_notes_first(tools):
    """Writes the notes before touching the address book, then updates the contacts in reverse order, with
    phone numbers written without spaces."""
    f, read = FACTS, {}
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
