"""Alternative solution 'read_first' for tax-pack-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal


FACTS = {'note': 'Tax documents: how Krishnan wants them',
 'request': 'Your 2025-26 tax return: documents needed',
 'accountant': 'Krishnan Reddy',
 'root': 'Tax',
 'label': '2025-26',
 'start': '2025-07-01',
 'end': '2026-06-30',
 'this_year': '30 June 2026',
 'kinds': {'PAYG payment summary': 'Employment',
           'Annual interest summary': 'Interest',
           'Donation receipt': 'Donations'},
 'amounts': {'Employment': 'Gross payments', 'Interest': 'Interest earned', 'Donations': 'Amount'},
 'dates': {'Employment': 'Date of issue', 'Interest': 'Statement date', 'Donations': 'Date of gift'},
 'issuer_label': 'Payer',
 'searches': ['interest', 'donation', 'gift'],
 'month_first': False}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def _tidy(tools: Any, keep: list[dict], rest: list[dict], to: str, in_place: bool, tick: bool, purge: bool) -> None:
    """Put right what the pack leaves stale of the user's own: a note's figure from a statement that was
    corrected since, a to-do chasing a receipt that has come, an unfinished draft to the accountant with
    totals worked out before. `in_place`: edit the note's line, else write it anew; `tick`: tick the to-do
    off, else delete it; `purge`: delete the draft for good, else move it to Trash."""
    for fixed in [d for d in keep if d["replaces"]]:
        old = next(r for r in rest if r["issuer"] == fixed["issuer"] and r["printed"] == fixed["replaces"])
        was, now = f"{old['amount']:,.2f}", f"{fixed['amount']:,.2f}"
        for note in tools.notes_search(query=fixed["issuer"])["notes"]:
            lines = note["body"].split("\n")
            stale = [n for n, line in enumerate(lines) if fixed["issuer"] in line and was in line]
            if not stale:
                continue
            for n in stale:
                if in_place:
                    lines[n] = lines[n].replace(was, now)
                else:  # the line out, a new one in its place
                    head, figure = lines.pop(n).rsplit(":", 1)
                    symbol = re.match(r"\s*([^\d]*)", figure).group(1)
                    lines.insert(n, f"{head}: {symbol}{now} (corrected statement)")
            tools.notes_update(uid=note["uid"], body="\n".join(lines))
    givers = {d["issuer"] for d in keep if d["kind"] == "Donations"}
    for todo in tools.reminders_list()["reminders"]:
        if "receipt" in todo["title"].lower() and any(g in todo["title"] for g in givers):
            if tick:
                tools.reminders_complete(uid=todo["uid"])
            else:
                tools.reminders_delete(uid=todo["uid"])
    for message in tools.mail_search(folder="Drafts")["messages"]:
        if any(to.lower() in str(address).lower() for address in message["to"]):
            if purge:
                tools.mail_delete(id=tools.mail_delete(id=message["id"])["moved_to"])
            else:
                tools.mail_move(id=message["id"], folder="Trash")


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead


def _send(tools: Any, sheet: str, subject: str, body: str) -> str:
    """Mail the summary to the address on the card and tick off the reminder; the address."""
    card = tools.contacts_search(query=FACTS["accountant"])["contacts"][0]
    sent = tools.mail_send(to=[card["emails"][0]], subject=subject, body=body, attachments=[sheet])
    for mid, instead in redirected(tools, [sent["message_id"]]).items():  # on leave: forwarded to whom it names
        [copy] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(id=copy["id"], to=[instead], body="Hello,\n\nAs the automatic reply asked: my summary.")
    todo = next(t for t in tools.reminders_list()["reminders"] if FACTS["accountant"].split()[0] in t["title"])
    tools.reminders_complete(uid=todo["uid"])
    return card["emails"][0]


def _file(tools: Any, keep: list[dict[str, Any]], rest: list[dict[str, Any]], name: Any) -> str:
    """Move each kept document to its place by the rule (`name` gives the issuer's part); the year folder."""
    f = FACTS
    folder = f"{f['root']}/{f['label']}"
    for doc in keep:
        if doc.get("filed"):
            continue
        tools.files_move(src=doc["path"], dst=f"{folder}/{doc['kind']}/{doc['day']:%Y-%m} {name(doc['issuer'])}.pdf")
    for doc in rest:
        if doc["saved"]:
            tools.files_delete(path=doc["path"])  # only looked at: no clutter left behind
    return folder


def _when(text: str) -> date:
    """'14 April 2026' or 'April 14 2026' as a date."""
    words = text.replace(",", " ").split()
    month = next(n for n, name in enumerate(MONTHS, 1) if name in words)
    day, year = (int(w) for w in words if w.isdigit())
    return date(year, month, day)


def _money(text: str) -> Decimal:
    return Decimal(re.sub(r"[^\d.]", "", text))


def _refunded(tools: Any) -> set[tuple[Decimal, date]]:
    """The gifts a charity paid back in full (amount, date): their receipts are void."""
    out = set()
    for hit in tools.mail_search(subject="refund", since=FACTS["start"], limit=100)["messages"]:
        body = tools.mail_read(id=hit["id"])["body"]
        gift = re.search(r"donation of (.+?) made on (.+?) and refunded it in full", body)
        if gift:
            out.add((_money(gift.group(1)), _when(gift.group(2))))
    return out


def _read(tools: Any, path: str) -> dict[str, Any] | None:
    """What a document is (kind, issuer, date, amount, what it replaces), or None if it is none of them."""
    f = FACTS
    content = tools.files_read(path=path)["content"]
    lines = [line.strip() for line in content.splitlines() if line.strip() and not line.startswith("[page")]
    title = lines[0] if lines else ""
    kind = next((category for key, category in f["kinds"].items() if key in title), None)
    if kind is None:
        return None
    fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    issuer = fields[f["issuer_label"]] if kind == "Employment" else title.split(":")[0].strip()
    day = _when(fields[f["dates"][kind]])
    replaces = re.search(r"replaces the one dated (.+?), which", content)
    if kind == "Donations":
        this_year = date.fromisoformat(f["start"]) <= day <= date.fromisoformat(f["end"])
    else:
        this_year = f["this_year"] in content
    return {
        "path": path,
        "kind": kind,
        "issuer": issuer,
        "day": day,
        "printed": fields[f["dates"][kind]],
        "amount": _money(fields[f["amounts"][kind]]),
        "replaces": replaces.group(1) if replaces else None,
        "this_year": this_year,
    }


def _filed(tools: Any) -> list[dict[str, Any]]:
    """The documents already filed in this year's folder."""
    f, found = FACTS, []
    for kind in f["amounts"]:
        folder = f"{f['root']}/{f['label']}/{kind}"
        if not any(e["path"] == folder for e in tools.files_list(path=f"{f['root']}/{f['label']}")["entries"]):
            continue
        for entry in tools.files_list(path=folder)["entries"]:
            doc = _read(tools, entry["path"]) if entry["type"] == "file" else None
            if doc is not None:
                found.append(doc | {"saved": False, "filed": True})
    return found


def _keep(docs: list[dict[str, Any]], void: set[tuple[Decimal, date]]) -> tuple[list[dict], list[dict]]:
    """This year's documents, each once (the filed copy first), without what a correction replaces or a refund
    voids; and the rest."""
    replaced = {(d["kind"], d["issuer"], d["replaces"]) for d in docs if d["replaces"]}
    keep, rest, seen = [], [], set()
    for doc in sorted(docs, key=lambda d: not d.get("filed")):
        same = (doc["kind"], doc["issuer"], doc["day"], doc["amount"])
        if (doc["kind"] == "Donations" and (doc["amount"], doc["day"]) in void) or same in seen:
            rest.append(doc)
        elif doc["this_year"] and (doc["kind"], doc["issuer"], doc["printed"]) not in replaced:
            seen.add(same)
            keep.append(doc)
        else:
            rest.append(doc)
    return keep, rest


def _downloads(tools: Any, known: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The documents in Downloads besides the `known` ones (attachments saved there to be read)."""
    found, seen = [], {d["path"] for d in known}
    for entry in tools.files_list(path="Downloads")["entries"]:
        if entry["type"] == "file" and entry["path"].lower().endswith(".pdf") and entry["path"] not in seen:
            doc = _read(tools, entry["path"])
            if doc is not None:
                found.append(doc | {"saved": False})
    return found


def _attachments(tools: Any, searches: list[str], into: str) -> list[dict[str, Any]]:
    """Every PDF attached to a mail of the year about `searches`, saved under `into` and read once."""
    f, seen, found = FACTS, set(), []
    for word in searches:
        hits = tools.mail_search(subject=word, since=f["start"], limit=100)["messages"]
        for hit in hits:
            message = tools.mail_read(id=hit["id"])
            for attachment in message["attachments"]:
                if attachment["sha256"] in seen or not attachment["filename"].lower().endswith(".pdf"):
                    continue  # the same receipt sent twice is one document
                seen.add(attachment["sha256"])
                path = f"{into}/{attachment['sha256'][:10]}.pdf"
                tools.mail_save_attachment(id=hit["id"], filename=attachment["filename"], path=path)
                doc = _read(tools, path)
                if doc is None:
                    tools.files_delete(path=path)
                else:
                    found.append(doc | {"saved": True})
    return found


def _start(tools: Any) -> None:
    """The note with the rules and the portal's request: what is asked for, and for which year."""
    f = FACTS
    note = tools.notes_search(query=f["note"])["notes"][0]
    assert "Summary.csv" in note["body"], "the note is not the accountant's rules"
    request = tools.mail_search(subject=f["request"])["messages"][0]
    tools.mail_read(id=request["id"])


def solve_read_first(tools):
    """Looks the accountant up first, saves each attachment into the year folder to read it there, writes the
    totals as a table of their own with amounts as the documents print them."""
    f = FACTS
    tools.contacts_search(query=f["accountant"])
    _start(tools)
    folder = f"{f['root']}/{f['label']}"
    docs = _attachments(tools, ["interest", "receipt", "donation", "gift"], folder)
    docs += _downloads(tools, docs)
    keep, rest = _keep(docs + _filed(tools), _refunded(tools))
    _file(tools, keep, rest, lambda issuer: issuer)
    lines = ["Issuer,Category,Amount,Date"]
    for doc in sorted(keep, key=lambda d: d["day"]):
        lines.append(f'"{doc["issuer"]}",{doc["kind"]},"{doc["amount"]:,.2f}",{doc["day"]:%d %b %Y}')
    lines += ["", "Category,Sum of amounts"]
    for kind in f["amounts"]:
        total = sum((d["amount"] for d in keep if d["kind"] == kind), Decimal(0))
        lines.append(f'{kind},"{total:,.2f}"')
    sheet = f"{folder}/Summary.csv"
    tools.files_write(path=sheet, content="\n".join(lines) + "\n")
    body = f"Dear {f['accountant'].split()[0]},\n\nPlease find attached the summary of my {f['label']} documents.\n\n"
    body += "Best regards"
    address = _send(tools, sheet, f"{f['label']} tax return: summary", body)
    _tidy(tools, keep, rest, address, in_place=False, tick=True, purge=False)


solve = solve_read_first
