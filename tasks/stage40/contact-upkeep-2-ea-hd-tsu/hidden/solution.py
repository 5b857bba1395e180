"""Reference solution for contact-upkeep-2-ea-hd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Dubois', 'subject': 'New job, new details'},
             'file': '',
             'row': 'Valentin Dubois',
             'expect': ['+33 1 15 68 44 46', 'Engineering Manager', 'Corvid Studio SAS'],
             'known_address': 'dubois.valentin@brightlane-health.fr',
             'changes': {'emails': ['dubois.val@corvid-studio.fr'],
                         'phones': ['+33 1 15 68 44 46'],
                         'organization': 'Corvid Studio',
                         'title': 'Engineering Manager'}},
            {'search': {'sender': 'ngirard@gmail.com'},
             'file': '',
             'row': 'Nicolas Girard',
             'expect': ['29 boulevard Voltaire, 75011 Paris', '+33 1 25 63 66 78'],
             'known_address': 'ngirard@gmail.com',
             'changes': {'phones': ['+33 1 25 63 66 78'],
                         'notes': 'Home: 29 boulevard Voltaire, 75011 Paris'}},
            {'search': {'sender': 'agalli@free.fr', 'subject': 'Thursday Night Choir: updated member list'},
             'file': 'Shared/Thursday Night Choir/members-2026.csv',
             'row': 'Nadia Aziz',
             'expect': ['nadia_aziz@orange.fr', '+33 6 43 46 75 40'],
             'known_address': 'nadia_aziz@free.fr',
             'changes': {'emails': ['nadia_aziz@orange.fr'], 'phones': ['+33 6 43 46 75 40']}}],
 'notes': []}


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def solve(tools):
    f = FACTS
    for person in f["people"]:
        found = tools.mail_search(folder="INBOX", **person["search"])["messages"]
        text = one_line(tools.mail_read(id=newest(found)["id"])["body"])  # a later mail corrects an earlier one
        if person["file"]:  # the mail only says where the member list is
            assert person["file"] in text, "the mail does not point to the member list"
            rows = csv.DictReader(io.StringIO(tools.files_read(path=person["file"])["content"]))
            text = " ".join(next(r for r in rows if r["name"] == person["row"]).values())
        missing = [value for value in person["expect"] if value not in text]
        assert not missing, f"the source does not give {missing}"

        # The stored contact is the one with the address they used to have (a namesake has another).
        hits = tools.contacts_search(query=person["known_address"])["contacts"]
        (contact,) = [c for c in hits if person["known_address"] in c["emails"]]
        tools.contacts_update(uid=contact["uid"], **person["changes"])
    for note in f["notes"]:
        tools.mail_send(**note)
