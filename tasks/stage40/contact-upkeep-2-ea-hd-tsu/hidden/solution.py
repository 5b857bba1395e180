"""Reference solution for contact-upkeep-2-ea-hd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Nasser', 'subject': 'Some news'},
             'file': '',
             'row': 'Abdullah Nasser',
             'expect': ['+33 1 90 15 68 28', 'Head of Partnerships', 'Quillfeather Media'],
             'known_address': 'nasser.abdullah@brightlane-health.fr',
             'changes': {'emails': ['anasser@quillfeather-media.fr'],
                         'phones': ['+33 1 90 15 68 28'],
                         'organization': 'Quillfeather Media',
                         'title': 'Head of Partnerships'},
             'first': 'Abdu',
             'email': 'anasser@quillfeather-media.fr',
             'phone': '+33 1 90 15 68 28'},
            {'search': {'sender': 'mathildep@orange.fr'},
             'file': '',
             'row': 'Mathilde Perrin',
             'expect': ['165 rue Oberkampf, 75011 Paris', '+33 1 52 19 80 42'],
             'known_address': 'mathildep@orange.fr',
             'changes': {'phones': ['+33 1 52 19 80 42'], 'notes': 'Home: 165 rue Oberkampf, 75011 Paris'},
             'first': 'Mathilde',
             'email': 'mathildep@orange.fr',
             'phone': '+33 1 52 19 80 42'},
            {'search': {'sender': 'yasmink@free.fr', 'subject': 'Thursday Night Choir: updated member list'},
             'file': 'Shared/Thursday Night Choir/members-2026.csv',
             'row': 'Bastien Lemaire',
             'expect': ['blemaire@free.fr', '+33 6 76 43 08 04'],
             'known_address': 'bastien.lemaire@gmail.com',
             'changes': {'emails': ['blemaire@free.fr'], 'phones': ['+33 6 76 43 08 04']},
             'first': 'Bastien',
             'email': 'blemaire@free.fr',
             'phone': '+33 6 76 43 08 04'}],
 'me': 'Élodie',
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


def solve(tools):
    f = FACTS
    for person in f["people"]:
        _source(tools, person)
        tools.contacts_update(uid=_contact(tools, person)["uid"], **person["changes"])
    for note in f["notes"]:
        tools.mail_send(**note)
