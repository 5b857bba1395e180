"""bills-split: share the quarter's flat bills by the house note, update the ledger, tell each flatmate their
total at their current address, and set a payment reminder per bill."""

from __future__ import annotations

import csv
import io
from typing import Any

from stageclaw.author.solutionlib import newest, one_line

FACTS: dict[str, Any] = {}


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


def _read_people(tools: Any) -> None:
    """Who lived there when: the leaver's last mail, the newcomer's answer, the trips away, the new address."""
    for subject in ("Moving out", "The room", "Away for a bit", "This weekend"):
        found = tools.mail_search(subject=subject, since="2026-01-01")["messages"]
        tools.mail_read(id=newest(found)["id"])
    for mate in FACTS["mates"]:
        if mate["moved"]:
            found = tools.mail_search(subject="New email address", sender=mate["family"])["messages"]
            assert mate["address"] in tools.mail_read(id=newest(found)["id"])["body"]


def _ledger(tools: Any, rows: list[list[str]]) -> None:
    """The ledger with the quarter's rows (the rows they replace taken out)."""
    text = tools.files_read(path=FACTS["ledger"])["content"]
    table = list(csv.reader(io.StringIO(text)))
    header, old = table[0], [r for n, r in enumerate(table[1:]) if n not in FACTS["replaced"]]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *old, *rows])
    tools.files_write(path=FACTS["ledger"], content=out.getvalue())


def _holidays(tools: Any) -> None:
    """The public holidays that working days skip, from the user's list the house note points to."""
    found = tools.notes_search(query="holidays")["notes"]
    listed = next(n for n in found if n["title"] == FACTS["holidays"])
    assert "bank is shut" in tools.notes_read(uid=listed["uid"])["body"]


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


def _open(tools: Any) -> list[dict[str, Any]]:
    """The open reminders of the flat's list."""
    return tools.reminders_list(list=FACTS["list"])["reminders"]


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


def solve_one_mail(tools):
    """Reminders first, with the amounts; one mail to all; currency signs in the ledger and a total row."""
    f = FACTS
    tools.notes_list(folder="Notes")
    _read_people(tools)
    _read_bills(tools)
    _holidays(tools)
    for bill in f["bills"]:
        _remind(tools, f"Pay the {bill['kind']} bill ({bill['supplier']}, {bill['shown']})", bill, replace=True)
    rows = [[*b["row"][:3], b["shown"], *b["row"][4:]] for b in f["bills"]]
    _ledger(
        tools, [*rows, ["", "", "Total, January to March", f["total"], "", *("" for _ in f["bills"][0]["row"][5:])]]
    )
    lines = [f"- {m['name']}: {m['total']}" for m in f["mates"]]
    body = (
        "Hi all,\n\nI've split the bills for January to March the usual way (the ledger has the details). What "
        "everyone owes me:\n\n" + "\n".join(lines) + f"\n\nCheers,\n{f['user']}"
    )
    tools.mail_send(to=[m["address"] for m in f["mates"]], subject="Flat bills, January to March", body=body)
    return "Done: ledger, one mail to everyone, reminders."


def solve_breakdown(tools):
    """Every bill read from its PDF too; one mail each with every bill's part; the amount in each reminder's notes."""
    f = FACTS
    tools.notes_search(query="bills")
    listed = tools.files_list(path=f["folder"])["entries"]
    for entry in listed:
        tools.files_read(path=entry["path"])
    _read_bills(tools)
    _read_people(tools)
    _ledger(tools, [b["row"] for b in f["bills"]])
    for mate in f["mates"]:
        parts = [f"- {b['kind'].capitalize()} ({b['shown']}): {b['shares'][mate['name']]}" for b in f["bills"]]
        body = (
            f"Dear {mate['name']},\n\nHere is your part of each of the flat's bills for January to March:\n\n"
            + "\n".join(parts)
            + f"\n\nIn total: {mate['total']}.\n\nBest,\n{f['user']}"
        )
        tools.mail_send(to=[mate["address"]], subject="Your share of the flat bills", body=body)
    _holidays(tools)
    for bill in f["bills"]:
        _remind(tools, f"{bill['supplier']}: transfer", bill, notes=f"Bill {bill['shown']}, paid from my account")
    return "Ledger updated, a breakdown sent to each flatmate, reminders set."
