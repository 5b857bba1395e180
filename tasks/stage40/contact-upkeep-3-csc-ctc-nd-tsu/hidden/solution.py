"""Reference solution for contact-upkeep-3-csc-ctc-nd-tsu, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Eze', 'subject': 'New job, new details'},
             'file': '',
             'row': 'Amara Eze',
             'expect': ['+44 161 496 4685', 'Marketing Lead', 'Meridian Health'],
             'known_address': 'aeze@brightlane-robotics.co.uk',
             'changes': {'emails': ['aeze@meridian-health.co.uk'],
                         'phones': ['+44 161 496 4685'],
                         'organization': 'Meridian Health',
                         'title': 'Marketing Lead'},
             'first': 'Amara',
             'email': 'aeze@meridian-health.co.uk',
             'phone': '+44 161 496 4685'},
            {'search': {'sender': 'fionam@hotmail.co.uk'},
             'file': '',
             'row': 'Fiona Marsh',
             'expect': ['167 Leith Walk, Edinburgh EH6 5HW', '+44 131 496 2289'],
             'known_address': 'fionam@hotmail.co.uk',
             'changes': {'phones': ['+44 131 496 2289'], 'notes': 'Home: 167 Leith Walk, Edinburgh EH6 5HW'},
             'first': 'Fiona',
             'email': 'fionam@hotmail.co.uk',
             'phone': '+44 131 496 2289'},
            {'search': {'sender': 'jcartwright@outlook.com'},
             'file': '',
             'row': 'Jennifer Cartwright',
             'expect': ['+44 7297 800281'],
             'known_address': 'jcartwright@outlook.com',
             'changes': {'emails': ['jennifer@hotmail.co.uk'], 'phones': ['+44 7297 800281']},
             'first': 'Jennifer',
             'email': 'jennifer@hotmail.co.uk',
             'phone': '+44 7297 800281'}],
 'me': 'Babatunde',
 'notes': [{'to': ['Amara Eze <aeze@meridian-health.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Amara,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: aeze@meridian-health.co.uk, "
                    "direct line +44 161 496 4685. Let me know if anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Babatunde'},
           {'to': ['Fiona Marsh <fionam@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Fiona,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +44 131 496 2289. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Babatunde'},
           {'to': ['Jennifer Cartwright <jennifer@hotmail.co.uk>'],
            'subject': 'Your new details',
            'body': 'Hi Jennifer,\n'
                    '\n'
                    "Thanks for the heads-up! I've saved your new number, +44 7297 800281, and your new "
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
