"""Reference solution for bills-split-1, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'note': 'Flat: how we split the bills',
 'holidays': 'Public holidays 2026',
 'ledger': 'Flat/Flat bills ledger.csv',
 'folder': 'Flat/Bills/2026 Q1',
 'user': 'Joakim',
 'list': 'Flat',
 'replaced': [10],
 'bills': [{'kind': 'electricity',
            'supplier': 'Northern Spark Electric',
            'domain': 'northernsparkelectric.de',
            'mailed': True,
            'pdf': '',
            'issued': '2026-04-15',
            'amount': '261.74',
            'shown': '€261.74',
            'pay': '2026-05-12',
            'earlier': '',
            'row': ['2026-04-15',
                    'Northern Spark Electric',
                    'Electricity, January to March',
                    '261.74',
                    'Joakim',
                    '90.62',
                    '51.67',
                    '60.40',
                    '28.85',
                    '30.20'],
            'shares': {'Joakim': '€90.62',
                       'Ingrid': '€51.67',
                       'Deniz': '€60.40',
                       'Sigrid': '€28.85',
                       'Omar': '€30.20'}},
           {'kind': 'gas',
            'supplier': 'Hearthgas',
            'domain': 'hearthgas.de',
            'mailed': True,
            'pdf': 'Flat/Bills/2026 Q1/Gas 2026-01 to 2026-03.pdf',
            'issued': '2026-04-08',
            'amount': '212.03',
            'shown': '€212.03',
            'pay': '2026-05-12',
            'earlier': '',
            'row': ['2026-04-08',
                    'Hearthgas',
                    'Gas, January to March',
                    '212.03',
                    'Joakim',
                    '73.41',
                    '41.86',
                    '48.93',
                    '23.37',
                    '24.46'],
            'shares': {'Joakim': '€73.41',
                       'Ingrid': '€41.86',
                       'Deniz': '€48.93',
                       'Sigrid': '€23.37',
                       'Omar': '€24.46'}},
           {'kind': 'water',
            'supplier': 'Clearbrook Water',
            'domain': 'clearbrookwater.de',
            'mailed': False,
            'pdf': 'Flat/Bills/2026 Q1/Water 2026-01 to 2026-03.pdf',
            'issued': '2026-04-09',
            'amount': '93.58',
            'shown': '€93.58',
            'pay': '2026-04-29',
            'earlier': '',
            'row': ['2026-04-09',
                    'Clearbrook Water',
                    'Water, January to March',
                    '93.58',
                    'Joakim',
                    '32.42',
                    '18.47',
                    '21.59',
                    '10.31',
                    '10.79'],
            'shares': {'Joakim': '€32.42',
                       'Ingrid': '€18.47',
                       'Deniz': '€21.59',
                       'Sigrid': '€10.31',
                       'Omar': '€10.79'}},
           {'kind': 'broadband',
            'supplier': 'NetStream Broadband',
            'domain': 'netstreambroadband.de',
            'mailed': True,
            'pdf': 'Flat/Bills/2026 Q1/Broadband 2026-01 to 2026-03.pdf',
            'issued': '2026-04-10',
            'amount': '91.07',
            'shown': '€91.07',
            'pay': '2026-04-30',
            'earlier': 'r-pay-netstream-broadband-broa',
            'row': ['2026-04-10',
                    'NetStream Broadband',
                    'Broadband, January to March',
                    '91.07',
                    'Joakim',
                    '31.54',
                    '17.98',
                    '21.01',
                    '10.04',
                    '10.50'],
            'shares': {'Joakim': '€31.54',
                       'Ingrid': '€17.98',
                       'Deniz': '€21.01',
                       'Sigrid': '€10.04',
                       'Omar': '€10.50'}},
           {'kind': 'contents insurance',
            'supplier': 'Keystone Insurance',
            'domain': 'keystoneinsurance.de',
            'mailed': True,
            'pdf': '',
            'issued': '2026-04-13',
            'amount': '38.97',
            'shown': '€38.97',
            'pay': '2026-05-08',
            'earlier': '',
            'row': ['2026-04-13',
                    'Keystone Insurance',
                    'Contents insurance, January to March',
                    '38.97',
                    'Joakim',
                    '13.51',
                    '7.69',
                    '8.99',
                    '4.29',
                    '4.49'],
            'shares': {'Joakim': '€13.51',
                       'Ingrid': '€7.69',
                       'Deniz': '€8.99',
                       'Sigrid': '€4.29',
                       'Omar': '€4.49'}}],
 'mates': [{'name': 'Ingrid',
            'family': 'Lund',
            'address': 'lund.ingrid@mailbox.org',
            'total': '€137.67',
            'moved': True},
           {'name': 'Deniz', 'family': 'Kaya', 'address': 'deniz@gmx.de', 'total': '€160.92', 'moved': False},
           {'name': 'Sigrid',
            'family': 'Nyström',
            'address': 'snystrom@posteo.de',
            'total': '€76.86',
            'moved': False},
           {'name': 'Omar',
            'family': 'Mansour',
            'address': 'mansour.omar@mailbox.org',
            'total': '€80.44',
            'moved': False}],
 'total': '€697.39',
 'nights': [{'name': 'Joakim',
             'weight': 3,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': [],
             'trip': []},
            {'name': 'Ingrid',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': ['2026-03-05', '2026-03-17'],
             'trip': []},
            {'name': 'Deniz',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-03-31',
             'away': [],
             'trip': []},
            {'name': 'Sigrid',
             'weight': 2,
             'first': '2026-01-01',
             'last': '2026-02-12',
             'away': [],
             'trip': ['2026-01-20', '2026-01-23']},
            {'name': 'Omar',
             'weight': 2,
             'first': '2026-02-15',
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
