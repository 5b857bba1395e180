"""Reference solution for bills-split-2, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'note': 'Flat: how we split the bills',
 'holidays': 'Public holidays 2026',
 'ledger': 'Flat/Flat bills ledger.csv',
 'folder': 'Flat/Bills/2026 Q1',
 'user': 'Sigrid',
 'list': 'Flat',
 'replaced': [10],
 'bills': [{'kind': 'electricity',
            'supplier': 'Greenline Power',
            'domain': 'greenlinepower.se',
            'mailed': True,
            'pdf': '',
            'issued': '2026-04-10',
            'amount': '3208.68',
            'shown': '3,208.68 kr',
            'pay': '2026-05-11',
            'earlier': '',
            'row': ['2026-04-10',
                    'Greenline Power',
                    'Electricity, January to March',
                    '3208.68',
                    'Sigrid',
                    '839.49',
                    '718.22',
                    '839.48',
                    '354.44',
                    '457.05'],
            'shares': {'Sigrid': '839.49 kr',
                       'Henrik': '718.22 kr',
                       'Katarina': '839.48 kr',
                       'Astrid': '354.44 kr',
                       'Huda': '457.05 kr'}},
           {'kind': 'gas',
            'supplier': 'Calder Gas',
            'domain': 'caldergas.se',
            'mailed': True,
            'pdf': 'Flat/Bills/2026 Q1/Gas 2026-01 to 2026-03.pdf',
            'issued': '2026-04-03',
            'amount': '1572.23',
            'shown': '1,572.23 kr',
            'pay': '2026-04-29',
            'earlier': '',
            'row': ['2026-04-03',
                    'Calder Gas',
                    'Gas, January to March',
                    '1572.23',
                    'Sigrid',
                    '411.36',
                    '351.92',
                    '411.33',
                    '173.67',
                    '223.95'],
            'shares': {'Sigrid': '411.36 kr',
                       'Henrik': '351.92 kr',
                       'Katarina': '411.33 kr',
                       'Astrid': '173.67 kr',
                       'Huda': '223.95 kr'}},
           {'kind': 'water',
            'supplier': 'Valley Water',
            'domain': 'valleywater.se',
            'mailed': False,
            'pdf': 'Flat/Bills/2026 Q1/Water 2026-01 to 2026-03.pdf',
            'issued': '2026-04-05',
            'amount': '1159.40',
            'shown': '1,159.40 kr',
            'pay': '2026-04-28',
            'earlier': '',
            'row': ['2026-04-05',
                    'Valley Water',
                    'Water, January to March',
                    '1159.40',
                    'Sigrid',
                    '303.35',
                    '259.51',
                    '303.33',
                    '128.07',
                    '165.14'],
            'shares': {'Sigrid': '303.35 kr',
                       'Henrik': '259.51 kr',
                       'Katarina': '303.33 kr',
                       'Astrid': '128.07 kr',
                       'Huda': '165.14 kr'}},
           {'kind': 'broadband',
            'supplier': 'NetStream Broadband',
            'domain': 'netstreambroadband.se',
            'mailed': True,
            'pdf': 'Flat/Bills/2026 Q1/Broadband 2026-01 to 2026-03.pdf',
            'issued': '2026-04-07',
            'amount': '1033.28',
            'shown': '1,033.28 kr',
            'pay': '2026-04-29',
            'earlier': 'r-pay-netstream-broadband-broa',
            'row': ['2026-04-07',
                    'NetStream Broadband',
                    'Broadband, January to March',
                    '1033.28',
                    'Sigrid',
                    '270.35',
                    '231.28',
                    '270.33',
                    '114.14',
                    '147.18'],
            'shares': {'Sigrid': '270.35 kr',
                       'Henrik': '231.28 kr',
                       'Katarina': '270.33 kr',
                       'Astrid': '114.14 kr',
                       'Huda': '147.18 kr'}},
           {'kind': 'contents insurance',
            'supplier': 'Keystone Insurance',
            'domain': 'keystoneinsurance.se',
            'mailed': True,
            'pdf': '',
            'issued': '2026-04-10',
            'amount': '685.11',
            'shown': '685.11 kr',
            'pay': '2026-05-04',
            'earlier': '',
            'row': ['2026-04-10',
                    'Keystone Insurance',
                    'Contents insurance, January to March',
                    '685.11',
                    'Sigrid',
                    '179.26',
                    '153.35',
                    '179.24',
                    '75.68',
                    '97.58'],
            'shares': {'Sigrid': '179.26 kr',
                       'Henrik': '153.35 kr',
                       'Katarina': '179.24 kr',
                       'Astrid': '75.68 kr',
                       'Huda': '97.58 kr'}}],
 'mates': [{'name': 'Henrik',
            'family': 'Lindqvist',
            'address': 'hlindqvist@telia.com',
            'total': '1,714.28 kr',
            'moved': True},
           {'name': 'Katarina',
            'family': 'Strand',
            'address': 'katarina_strand@proton.me',
            'total': '2,003.71 kr',
            'moved': False},
           {'name': 'Astrid',
            'family': 'Solberg',
            'address': 'astrid@gmail.com',
            'total': '846.00 kr',
            'moved': False},
           {'name': 'Huda',
            'family': 'Hamdan',
            'address': 'huda_hamdan@telia.com',
            'total': '1,090.90 kr',
            'moved': False}],
 'total': '7,658.70 kr',
 'nights': [{'name': 'Sigrid',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': [],
             'trip': []},
            {'name': 'Henrik',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': ['2026-02-01', '2026-02-13'],
             'trip': []},
            {'name': 'Katarina',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': [],
             'trip': []},
            {'name': 'Astrid',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-02-07',
             'away': [],
             'trip': ['2026-01-20', '2026-01-22']},
            {'name': 'Huda',
             'weight': 2,
             'first': '2026-02-11',
             'last': '2026-03-31',
             'away': [],
             'trip': []}]}


def _open(tools: Any) -> list[dict[str, Any]]:
    """The open reminders of the flat's list."""
    return tools.reminders_list(list=FACTS["list"])["reminders"]


def _remind(tools: Any, title: str, bill: dict[str, Any], notes: str = "", replace: bool = False) -> None:
    """The bill's reminder on its payment day: the one the user set on the due date moved there (or, with
    `replace`, deleted for a new one), else a new one."""
    earlier = [r for r in _open(tools) if r["uid"] == bill["earlier"]]
    if earlier and not replace:
        tools.reminders_update(uid=earlier[0]["uid"], title=title, due=bill["pay"], notes=notes or None)
        return
    if earlier:
        tools.reminders_delete(uid=earlier[0]["uid"])
    tools.reminders_create(title=title, list=FACTS["list"], due=bill["pay"], notes=notes or None)


def _holidays(tools: Any) -> None:
    """The public holidays that working days skip, from the user's list the house note points to."""
    found = tools.notes_search(query="holidays")["notes"]
    listed = next(n for n in found if n["title"] == FACTS["holidays"])
    assert "bank is shut" in tools.notes_read(uid=listed["uid"])["body"]


def _ledger(tools: Any, rows: list[list[str]]) -> None:
    """The ledger with the quarter's rows (the rows they replace taken out)."""
    text = tools.files_read(path=FACTS["ledger"])["content"]
    table = list(csv.reader(io.StringIO(text)))
    header, old = table[0], [r for n, r in enumerate(table[1:]) if n not in FACTS["replaced"]]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *old, *rows])
    tools.files_write(path=FACTS["ledger"], content=out.getvalue())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _read_people(tools: Any) -> None:
    """Who lived there when: the leaver's last mail, the newcomer's answer, the trips away, the new address."""
    for subject in ("Moving out", "The room", "Away for a bit", "This weekend"):
        found = tools.mail_search(subject=subject, since="2026-01-01")["messages"]
        tools.mail_read(id=newest(found)["id"])
    for mate in FACTS["mates"]:
        if mate["moved"]:
            found = tools.mail_search(subject="New email address", sender=mate["family"])["messages"]
            assert mate["address"] in tools.mail_read(id=newest(found)["id"])["body"]


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _read_bills(tools: Any) -> None:
    """Each bill from where it is: the newest mail of its supplier this quarter (a correction replaces the
    estimate), or the scanned PDF for one that came by post."""
    scanned = [b for b in FACTS["bills"] if not b["mailed"]]
    saved = [e["path"] for e in tools.files_list(path=FACTS["folder"])["entries"]] if scanned else []
    for bill in FACTS["bills"]:
        if bill["mailed"]:
            found = tools.mail_search(sender=bill["domain"], subject="bill", since="2026-04-01")["messages"]
            text = one_line(tools.mail_read(id=newest(found)["id"])["body"])
        else:
            path = next(p for p in saved if p == bill["pdf"])
            text = one_line(tools.files_read(path=path)["content"])
        assert bill["shown"] in text, f"{bill['kind']}: the bill does not say {bill['shown']}"


def solve(tools):
    f = FACTS
    note = next(n for n in tools.notes_search(query="split the bills")["notes"] if n["title"] == f["note"])
    assert "nights" in note["body"], "the house note does not say how bills are shared"
    _read_bills(tools)
    _read_people(tools)
    _ledger(tools, [b["row"] for b in f["bills"]])
    _holidays(tools)
    for mate in f["mates"]:
        body = (
            f"Hi {mate['name']},\n\nThe flat bills for January to March are all in and in the ledger. Your part "
            f"comes to {mate['total']}.\n\nThanks,\n{f['user']}"
        )
        tools.mail_send(to=[mate["address"]], subject="Flat bills: your part for January to March", body=body)
    for bill in f["bills"]:
        _remind(tools, f"Pay {bill['supplier']}", bill)
    return "The ledger is updated, everyone has their total, and the payment reminders are set."
