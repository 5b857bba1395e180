"""Reference solution for contact-upkeep-1, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'people': [{'search': {'sender': 'Marsh', 'subject': 'A change of scene'},
             'file': '',
             'row': 'Daniel Marsh',
             'expect': ['+81 3 5679 1013', 'Senior Consultant', 'Emberline Studio K.K.'],
             'known_address': 'dmarsh@fernhill-partners.co.jp',
             'changes': {'emails': ['dan_marsh@emberline-studio.co.jp'],
                         'phones': ['+81 3 5679 1013'],
                         'organization': 'Emberline Studio',
                         'title': 'Senior Consultant'}},
            {'search': {'sender': 'grahama@docomo.ne.jp'},
             'file': '',
             'row': 'Graham Ashworth',
             'expect': ['Dogenzaka, Shibuya 178, 150-0043 Tokyo', '+81 3 5267 0568'],
             'known_address': 'grahama@docomo.ne.jp',
             'changes': {'phones': ['+81 3 5267 0568'],
                         'notes': 'Home: Dogenzaka, Shibuya 178, 150-0043 Tokyo'}},
            {'search': {'sender': 'harrieth@icloud.com',
                        'subject': 'Harbour Road Runners: updated member list'},
             'file': 'Shared/Harbour Road Runners/members-2026.csv',
             'row': 'Yuki Yoshida',
             'expect': ['yukiy@docomo.ne.jp', '+81 90 9653 6899'],
             'known_address': 'yuki_yoshida@icloud.com',
             'changes': {'emails': ['yukiy@docomo.ne.jp'], 'phones': ['+81 90 9653 6899']}}],
 'notes': [{'to': ['Dan Marsh <dan_marsh@emberline-studio.co.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Dan,\n'
                    '\n'
                    "Congratulations on the new job! I've updated your details: "
                    'dan_marsh@emberline-studio.co.jp, direct line +81 3 5679 1013. Let me know if '
                    "anything's off.\n"
                    '\n'
                    'Best,\n'
                    'Riku'},
           {'to': ['Graham Ashworth <grahama@docomo.ne.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Graham,\n'
                    '\n'
                    "Congrats on the move! I've saved your new address and the home number +81 3 5267 0568. "
                    "Shout if that's wrong.\n"
                    '\n'
                    'See you soon,\n'
                    'Riku'},
           {'to': ['Yuki Yoshida <yukiy@docomo.ne.jp>'],
            'subject': 'Your new details',
            'body': 'Hi Yuki,\n'
                    '\n'
                    "I saw your new details on the Harbour Road Runners list. I've saved your new number, "
                    "+81 90 9653 6899, and this address. Tell me if that's not right.\n"
                    '\n'
                    'Cheers,\n'
                    'Riku'}]}


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
