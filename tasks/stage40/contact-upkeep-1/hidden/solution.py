"""Reference solution for contact-upkeep-1, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Pemberton', 'subject': 'Some news'},
             'file': '',
             'row': 'Jonathan Pemberton',
             'expect': ['+81 3 0303 3167', 'Product Manager', 'Alder Studio'],
             'known_address': 'jonathan@nimbus-robotics.co.jp',
             'changes': {'emails': ['jon@alder-studio.co.jp'],
                         'phones': ['+81 3 0303 3167'],
                         'organization': 'Alder Studio',
                         'title': 'Product Manager'},
             'first': 'Jon',
             'email': 'jon@alder-studio.co.jp',
             'phone': '+81 3 0303 3167'},
            {'search': {'sender': 'aoik@gmail.com'},
             'file': '',
             'row': 'Aoi Kato',
             'expect': ['3-8-4 Dogenzaka, Shibuya-ku, Tokyo 150-0043', '+81 3 5258 3270'],
             'known_address': 'aoik@gmail.com',
             'changes': {'phones': ['+81 3 5258 3270'],
                         'notes': 'Home: 3-8-4 Dogenzaka, Shibuya-ku, Tokyo 150-0043'},
             'first': 'Aoi',
             'email': 'aoik@gmail.com',
             'phone': '+81 3 5258 3270'},
            {'search': {'sender': 'aoi.nakamura@gmail.com'},
             'file': '',
             'row': 'Aoi Nakamura',
             'expect': ['1-22-1 Dogenzaka, Shibuya-ku, Tokyo 150-0043', '+81 3 1985 8790'],
             'known_address': 'aoi.nakamura@gmail.com',
             'changes': {'phones': ['+81 3 1985 8790'],
                         'notes': 'Home: 1-22-1 Dogenzaka, Shibuya-ku, Tokyo 150-0043'},
             'first': 'Aoi',
             'email': 'aoi.nakamura@gmail.com',
             'phone': '+81 3 1985 8790'},
            {'search': {'sender': 'harutoy@icloud.com'},
             'file': '',
             'row': 'Haruto Yamamoto',
             'expect': ['2-17-2 Roppongi, Minato-ku, Tokyo 106-0032', '+81 3 8199 4903'],
             'known_address': 'harutoy@icloud.com',
             'changes': {'phones': ['+81 3 8199 4903'],
                         'notes': 'Home: 2-17-2 Roppongi, Minato-ku, Tokyo 106-0032'},
             'first': 'Haruto',
             'email': 'harutoy@icloud.com',
             'phone': '+81 3 8199 4903'},
            {'search': {'sender': 'yoshida.mei@docomo.ne.jp',
                        'subject': 'Northside Book Club: updated member list'},
             'file': 'Shared/Northside Book Club/members-2026.csv',
             'row': 'Charlotte Sinclair',
             'expect': ['csinclair@icloud.com', '+81 90 1411 2092'],
             'known_address': 'charlotte.sinclair@docomo.ne.jp',
             'changes': {'emails': ['csinclair@icloud.com'], 'phones': ['+81 90 1411 2092']},
             'first': 'Charlotte',
             'email': 'csinclair@icloud.com',
             'phone': '+81 90 1411 2092'},
            {'search': {'sender': 'yoshida.mei@docomo.ne.jp',
                        'subject': 'Northside Book Club: updated member list'},
             'file': 'Shared/Northside Book Club/members-2026.csv',
             'row': 'Sota Matsumoto',
             'expect': ['sota.matsumoto@docomo.ne.jp', '+81 90 7728 3400'],
             'known_address': 'sota_matsumoto@gmail.com',
             'changes': {'emails': ['sota.matsumoto@docomo.ne.jp'], 'phones': ['+81 90 7728 3400']},
             'first': 'Sota',
             'email': 'sota.matsumoto@docomo.ne.jp',
             'phone': '+81 90 7728 3400'}],
 'me': 'Riku',
 'since': '2026-03-03',
 'notes': [{'to': ['Jon Pemberton <jon@alder-studio.co.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Jon,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: jon@alder-studio.co.jp, "
                    "direct line +81 3 0303 3167. Let me know if anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Riku'},
           {'to': ['Aoi Kato <aoik@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Aoi,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +81 3 5258 3270. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Riku'},
           {'to': ['Aoi Nakamura <aoi.nakamura@gmail.com>'],
            'subject': 'Your new details',
            'body': 'Hi Aoi,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +81 3 1985 8790. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Riku'},
           {'to': ['Haruto Yamamoto <harutoy@icloud.com>'],
            'subject': 'Your new details',
            'body': 'Hi Haruto,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +81 3 8199 4903. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Riku'},
           {'to': ['Charlotte Sinclair <csinclair@icloud.com>'],
            'subject': 'Your new details',
            'body': 'Hi Charlotte,\n'
                    '\n'
                    "I saw your new details on the Northside Book Club list. I've saved your new number, +81 "
                    "90 1411 2092, and your new email. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Riku'},
           {'to': ['Sota Matsumoto <sota.matsumoto@docomo.ne.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Sota,\n'
                    '\n'
                    "I saw your new details on the Northside Book Club list. I've saved your new number, +81 "
                    "90 7728 3400, and your new email. Tell me if that's not right.\n"
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


def solve(tools):
    f, read = FACTS, {}
    for person in f["people"]:
        _source(tools, person, read)
        tools.contacts_update(uid=_contact(tools, person)["uid"], **person["changes"])
    for note in f["notes"]:
        tools.mail_send(**note)
