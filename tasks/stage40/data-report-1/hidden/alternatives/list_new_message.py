"""Alternative solution 'list_new_message' for data-report-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'routine': 'Monthly summary: how I do it',
 'amendment': 'Shop/Partnership agreement - amendment 2026-10.md',
 'refunds': 'Refund issued',
 'platform_name': 'Shelfside',
 'lines_note': 'Product lines',
 'folder': 'Shop/exports',
 'platform': 'shelfside',
 'tz': 'America/Chicago',
 'first': '2026-11-01',
 'last': '2026-11-30',
 'partner': 'Frimpong',
 'subject': 'November numbers?',
 'excluded': 'Gift voucher',
 'report': 'Reports/2026-11 sales summary.md',
 'reports': 'Reports',
 'vouchers': 'Shop/vouchers.csv',
 'title': 'Bluefin Books: November 2026 sales',
 'headers': ['Product line', 'Sales', 'Top customers'],
 'symbol': '$',
 'currency': 'USD',
 'top': 5,
 'discount': 20,
 'shop': 'Bluefin Books',
 'me': 'Jiwoo',
 'today': '2026-12-07',
 'log': 'Monthly sales',
 'month': 'November 2026'}


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


def _coded(cents: int) -> str:
    return f"{FACTS['currency']} {cents / 100:,.2f}"


def _request(tools) -> dict[str, Any]:
    f = FACTS
    found = tools.mail_search(folder="INBOX", sender=f["partner"], subject=f["subject"], limit=5)["messages"]
    return tools.mail_read(id=found[0]["id"])


def _log(tools, total: str, in_place: bool = True) -> None:
    """The month's total in the sales note: its running line for the month replaced (`in_place`, where it was,
    or dropped and the total added at the end)."""
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["log"])["notes"] if n["title"] == f["log"])
    line = f"- {f['month']}: {total}"
    kept = [x for x in note["body"].rstrip("\n").splitlines() if not x.startswith(f"- {f['month']}:")]
    if in_place:
        body = note["body"].rstrip("\n").splitlines()
        at = next((n for n, x in enumerate(body) if x.startswith(f"- {f['month']}:")), None)
        kept = [*body[:at], line, *body[at + 1 :]] if at is not None else [*body, line]
    else:
        kept.append(line)
    tools.notes_update(uid=note["uid"], body="\n".join(kept) + "\n")


def _give(tools, header: str, rows: list[dict[str, str]], given: dict[str, str], today: str) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header.split(","), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        if row["code"] in given:
            row = {**row, "given_to": given[row["code"]], "given_on": today}
        writer.writerow(row)
    tools.files_write(path=FACTS["vouchers"], content=out.getvalue())


def _coded_now(person: dict[str, Any], recent: set[str]) -> bool:
    return person["name"] not in recent and person["address"] not in recent


def _recent(rows: list[dict[str, str]], today: str) -> set[str]:
    """Who the vouchers file gave a code to within the last three months (by name or address as written)."""
    day = date.fromisoformat(today)
    since = day.replace(year=day.year - (day.month <= 3), month=(day.month - 4) % 12 + 1)
    return {r["given_to"].strip() for r in rows if r["given_on"].strip() and r["given_on"] >= since.isoformat()}


def _today(tools) -> str:
    return tools.now()["now"][:10]


def _table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _codes(tools) -> tuple[str, list[dict[str, str]], list[str]]:
    """The vouchers file: its header line, its rows, and the codes nobody has had yet (in file order)."""
    text = tools.files_read(path=FACTS["vouchers"])["content"]
    rows = _table(text)
    return text.splitlines()[0], rows, [r["code"] for r in rows if not r["given_to"].strip()]


def _card(tools, family: str, query: str | None = None) -> dict[str, Any] | None:
    """The card of the customer with this family name (found by `query`, an address, when given, else by the
    name); None when the address book has no card for them (not every customer is in it)."""
    found = [c for c in tools.contacts_search(query=query or family)["contacts"] if c["name"].split()[-1] == family]
    if found:
        return found[0]
    return _card(tools, family) if query else None


def _local_day(stamp: str) -> date:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(ZoneInfo(FACTS["tz"])).date()


def _cents(amount: str) -> int:
    return round(float(amount) * 100)


def _exports(tools, entries: list[dict[str, Any]]) -> tuple[list[str], str | None]:
    """The weekly exports that cover the month (for each week the fullest one: a mid-week export covers less),
    and the month's corrections file if there is one."""
    f = FACTS
    first, last = date.fromisoformat(f["first"]), date.fromisoformat(f["last"])
    shape = re.compile(rf"{f['platform']}-orders-(\d{{4}}-\d{{2}}-\d{{2}})_(\d{{4}}-\d{{2}}-\d{{2}})\.csv$")
    weeks: dict[date, tuple[date, str]] = {}
    for entry in entries:
        found = shape.search(entry["path"])
        if not found:
            continue
        start, end = (date.fromisoformat(x) for x in found.groups())
        covers = end >= first - timedelta(days=1) and start <= last + timedelta(days=1)
        if covers and (start not in weeks or end > weeks[start][0]):
            weeks[start] = (end, entry["path"])
    corrections = next(
        (e["path"] for e in entries if e["path"].endswith(f"{f['platform']}-corrections-{f['first'][:7]}.csv")), None
    )
    return [path for _, (_, path) in sorted(weeks.items())], corrections


def _listing(tools, path: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Every entry under `path`, page after page."""
    out, cursor = [], None
    while True:
        args = {"path": path, **({"limit": limit} if limit else {}), **({"cursor": cursor} if cursor else {})}
        page = tools.files_list(**args)
        out += page["entries"]
        cursor = page.get("next_cursor")
        if not cursor:
            return out


def _routine(tools) -> str:
    f = FACTS
    notes = tools.notes_search(query=f["routine"])["notes"]
    body = next(n for n in notes if n["title"] == f["routine"])["body"]
    assert f["vouchers"] in body and "UTC" in body, "the routine note does not say where the codes are or the time"
    return body


def _figures(tools, read_all: bool = False) -> dict[str, Any]:
    """The month's figures by the routine: per line, the total, the top customers with their cards.

    With `read_all`, every CSV of the folder is read (one order number is one order, so the stale mid-week
    export adds nothing) and every customer's card is looked up by address."""
    f = FACTS
    routine = _routine(tools)
    entries = _listing(tools, f["folder"], limit=4 if read_all else None)
    weeks, corrections = _exports(tools, entries)
    if read_all:
        weeks = [e["path"] for e in entries if e["path"].endswith(".csv") and "-orders-" in e["path"]]
    orders: dict[str, dict[str, str]] = {}
    for path in weeks:
        for row in _table(tools.files_read(path=path)["content"]):
            orders.setdefault(row["order"], row)  # an export may repeat a row: one order number is one order
    amounts = {ref: _cents(row["amount"]) for ref, row in orders.items()}
    if corrections and "corrections" in routine:
        for fix in _table(tools.files_read(path=corrections)["content"]):
            amounts[fix["order"]] = _cents(fix["corrected_amount"])
    if f["refunds"] and f["refunds"] in routine:  # refunds made after the corrections file: the platform's mail
        found = tools.mail_search(sender=f["platform"], subject=f["refunds"], limit=20)["messages"]
        for hit in found:
            body = tools.mail_read(id=hit["id"])["body"]
            ref = re.search(r"on order (\S+) \(", body)
            now = re.search(r"New order amount: \D*([\d,]+\.\d\d)", body)
            if ref and now and ref.group(1) in amounts:
                amounts[ref.group(1)] = _cents(now.group(1).replace(",", ""))

    first, last = date.fromisoformat(f["first"]), date.fromisoformat(f["last"])
    month = {ref: row for ref, row in orders.items() if first <= _local_day(row["created_at"]) <= last}
    if f["lines_note"]:
        note = next(n for n in tools.notes_search(query=f["lines_note"])["notes"] if n["title"] == f["lines_note"])
        mapping = {
            item.strip(): line
            for line, items in re.findall(r"^- (.+?): (.+)$", note["body"], re.MULTILINE)
            for item in items.split(",")
        }
        line_of = {ref: mapping.get(row["product"]) for ref, row in month.items()}
    else:
        line_of = {ref: row["product_line"] or None for ref, row in month.items()}
    line_of = {ref: (None if month[ref]["product"] == f["excluded"] else line) for ref, line in line_of.items()}

    # A customer counts once, whichever address they ordered from: their card lists their addresses.
    usual: dict[str, str] = {}
    names: dict[str, str] = {}
    for row in month.values():
        names.setdefault(row["email"].lower(), row["customer"])
    families: dict[str, set[str]] = {}
    for email, name in names.items():
        families.setdefault(name.split()[-1], set()).add(email)
    cards: dict[str, dict[str, Any]] = {}
    for family, emails in sorted(families.items()):
        if len(emails) > 1 or read_all:
            for email in sorted(emails):
                card = _card(tools, family, email if read_all else None)
                held = [address(e) for e in card["emails"]] if card else []
                if email in held:
                    usual[email] = held[0]
                    cards[held[0]] = card

    per_line: dict[str, int] = {}
    per_person: dict[str, int] = {}
    for ref, row in month.items():
        line = line_of[ref]
        if line is None:
            continue
        email = row["email"].lower()
        who = usual.get(email, email)
        per_line[line] = per_line.get(line, 0) + amounts[ref]
        per_person[who] = per_person.get(who, 0) + amounts[ref]
    total = sum(per_line.values())
    lines = sorted(per_line.items(), key=lambda kv: -kv[1])
    top = []
    for who, cents in sorted(per_person.items(), key=lambda kv: -kv[1])[: f["top"]]:
        name = names.get(who) or next(names[e] for e, u in usual.items() if u == who)
        card = cards.get(who) or _card(tools, name.split()[-1])
        top.append(
            {
                "name": card["name"],
                "first": card["name"].split()[0],
                "address": address(card["emails"][0]),
                "cents": cents,
            }
        )
    share = re.search(r"share as we agreed: (\d+)% of the (.+?) sales", routine)
    percent, line = int(share.group(1)), share.group(2)
    if f["amendment"]:  # the partner's mail: the signed amendment changes the share from this month
        request = _request(tools)
        assert "amendment" in request["body"], "the partner's mail does not point to the amendment"
        signed = tools.files_read(path=f["amendment"])["content"]
        found = re.search(r"share of the (.+?) sales \(after refunds\) is (\d+)%", signed.replace("\n", " "))
        line, percent = found.group(1), int(found.group(2))
    # Half a cent rounds up: an even split of the difference is no one's to keep.
    owed = (dict(per_line)[line] * percent + 50) // 100
    return {"lines": lines, "total": total, "top": top, "share": owed}


def solve_list_new_message(tools):
    """The report as lists in the currency's code, a new message to the partner instead of a reply (the share in
    a sentence); the last free codes, each given to the customer's address; the sales note's total in the code."""
    f = FACTS
    figures = _figures(tools)
    text = (
        f"# {f['title']}\n\n## {f['headers'][0]}s\n\n"
        + "".join(f"- {line}: {_coded(c)}\n" for line, c in figures["lines"])
        + f"\nTotal: {_coded(figures['total'])}\n\n## {f['headers'][2]}\n\n"
        + "".join(f"- {t['name']} ({_coded(t['cents'])})\n" for t in figures["top"])
    )
    tools.files_write(path=f["report"], content=text)
    header, rows, free = _codes(tools)
    today = _today(tools)
    recent = _recent(rows, today)
    given = {}
    for person in figures["top"]:
        if _coded_now(person, recent):
            code = free.pop()
            body = (
                f"Dear {person['first']},\n\nA small thank-you for being such a loyal customer: use {code} at "
                f"checkout and you'll get {f['discount']} percent off.\n\nAll the best from everyone at {f['shop']}"
            )
            given[code] = person["address"]
        else:
            body = f"Dear {person['first']},\n\nThanks again for being such a loyal customer.\n\nBest, {f['shop']}"
        tools.mail_send(to=[person["address"]], subject="Thank you!", body=body)
    _give(tools, header, rows, given, today)
    _log(tools, _coded(figures["total"]), in_place=False)
    partner = address(_request(tools)["from"])
    listed = "; ".join(f"{line} {_coded(c)}" for line, c in figures["lines"])
    subject = f"{f['title']}: the figures"
    body = (
        f"Hello,\n\nthe totals: {listed}. Altogether {_coded(figures['total'])}. What you're owed: "
        f"{_coded(figures['share'])}.\n\n{f['me']}"
    )
    sent = tools.mail_send(to=[partner], subject=subject, body=body)
    for instead in redirected(tools, [sent["message_id"]]).values():  # away: sent again, the partner in copy
        tools.mail_send(to=[instead], cc=[partner], subject=subject, body=body)


solve = solve_list_new_message
