"""Alternative solution 'notes_first' for contact-upkeep-2-ea-hd-tsu: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Perrin', 'subject': 'Some news'},
             'file': '',
             'row': 'Valentin Perrin',
             'expect': ['+33 1 67 10 22 49', 'Customer Success Manager', 'Saltmarsh Studio'],
             'known_address': 'perrin.valentin@alder-systems.fr',
             'changes': {'emails': ['val@saltmarsh-studio.fr'],
                         'phones': ['+33 1 67 10 22 49'],
                         'organization': 'Saltmarsh Studio',
                         'title': 'Customer Success Manager'},
             'first': 'Val',
             'email': 'val@saltmarsh-studio.fr',
             'phone': '+33 1 67 10 22 49'},
            {'search': {'sender': 'nicolasm@orange.fr'},
             'file': '',
             'row': 'Nicolas Marchand',
             'expect': ['42 avenue Jean Jaurès, 69007 Lyon', '+33 4 14 16 92 62'],
             'known_address': 'nicolasm@orange.fr',
             'changes': {'phones': ['+33 4 14 16 92 62'], 'notes': 'Home: 42 avenue Jean Jaurès, 69007 Lyon'},
             'first': 'Nicolas',
             'email': 'nicolasm@orange.fr',
             'phone': '+33 4 14 16 92 62'},
            {'search': {'sender': 'moreau.nicolas@orange.fr'},
             'file': '',
             'row': 'Nicolas Moreau',
             'expect': ['227 avenue Jean Jaurès, 69007 Lyon', '+33 4 54 44 43 71'],
             'known_address': 'moreau.nicolas@orange.fr',
             'changes': {'phones': ['+33 4 54 44 43 71'],
                         'notes': 'Home: 227 avenue Jean Jaurès, 69007 Lyon'},
             'first': 'Nicolas',
             'email': 'moreau.nicolas@orange.fr',
             'phone': '+33 4 54 44 43 71'},
            {'search': {'sender': 'dominique_dubois@free.fr'},
             'file': '',
             'row': 'Dominique Dubois',
             'expect': ['217 rue du Faubourg Saint-Denis, 75010 Paris', '+33 1 35 39 92 58'],
             'known_address': 'dominique_dubois@free.fr',
             'changes': {'phones': ['+33 1 35 39 92 58'],
                         'notes': 'Home: 217 rue du Faubourg Saint-Denis, 75010 Paris'},
             'first': 'Dominique',
             'email': 'dominique_dubois@free.fr',
             'phone': '+33 1 35 39 92 58'},
            {'search': {'sender': 'antonio@gmail.com', 'subject': 'Northside Book Club: updated member list'},
             'file': 'Shared/Northside Book Club/members-2026.csv',
             'row': 'Matteo Galli',
             'expect': ['mgalli@orange.fr', '+33 6 57 15 54 40'],
             'known_address': 'matteog@gmail.com',
             'changes': {'emails': ['mgalli@orange.fr'], 'phones': ['+33 6 57 15 54 40']},
             'first': 'Matteo',
             'email': 'mgalli@orange.fr',
             'phone': '+33 6 57 15 54 40'},
            {'search': {'sender': 'antonio@gmail.com', 'subject': 'Northside Book Club: updated member list'},
             'file': 'Shared/Northside Book Club/members-2026.csv',
             'row': 'Valentin Girard',
             'expect': ['girard.valentin@gmail.com', '+33 6 96 71 55 86'],
             'known_address': 'valenting@free.fr',
             'changes': {'emails': ['girard.valentin@gmail.com'], 'phones': ['+33 6 96 71 55 86']},
             'first': 'Valentin',
             'email': 'girard.valentin@gmail.com',
             'phone': '+33 6 96 71 55 86'}],
 'me': 'Élodie',
 'since': '2026-09-15',
 'notes': []}


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
