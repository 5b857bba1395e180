"""Reference solution for contact-upkeep-3-csc-ctc-nd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Zając', 'subject': 'New job, new details'},
             'file': '',
             'row': 'Agnieszka Zając',
             'expect': ['+44 161 496 3683', 'Product Manager', 'Juniper Logistics Ltd'],
             'known_address': 'agnieszka.zajac@brightlane-robotics.co.uk',
             'changes': {'emails': ['agnieszkaz@juniper-logistics.co.uk'],
                         'phones': ['+44 161 496 3683'],
                         'organization': 'Juniper Logistics',
                         'title': 'Product Manager'}},
            {'search': {'sender': 'fionam@hotmail.co.uk'},
             'file': '',
             'row': 'Fiona Marsh',
             'expect': ['39 Kingsland Road, London N1 7GU', '+44 20 7896 2878'],
             'known_address': 'fionam@hotmail.co.uk',
             'changes': {'phones': ['+44 20 7896 2878'], 'notes': 'Home: 39 Kingsland Road, London N1 7GU'}},
            {'search': {'sender': 'chinonsoi@outlook.com'},
             'file': '',
             'row': 'Chinonso Ibe',
             'expect': ['+44 7988 928446'],
             'known_address': 'chinonso.ibe@gmail.com',
             'changes': {'emails': ['chinonsoi@outlook.com'], 'phones': ['+44 7988 928446']}}],
 'notes': [{'to': ['Agnieszka Zając <agnieszkaz@juniper-logistics.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Agnieszka,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: "
                    'agnieszkaz@juniper-logistics.co.uk, direct line +44 161 496 3683. Let me know if '
                    "anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Babatunde'},
           {'to': ['Fiona Marsh <fionam@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Fiona,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 20 7896 2878. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Babatunde'},
           {'to': ['Chinonso Ibe <chinonsoi@outlook.com>'],
            'subject': 'Your new details',
            'body': 'Hi Chinonso,\n'
                    '\n'
                    "Thanks for the heads-up! I've saved your new number, +44 7988 928446, and this address. "
                    "Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Babatunde'}]}


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
