"""Alternative solution 'new_message' for receipts-reconciliation-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import re
from datetime import date, datetime, timedelta
from decimal import Decimal


FACTS = {'note': 'Reconciling the card statement',
 'receipts': 'Documents/Receipts',
 'holidays': 'Holidays',
 'card': 'Visa debit ending 8085',
 'month': '2026-03',
 'month_first': False,
 'card_type': 'CARD',
 'follow': 3}
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


def _tick_off(tools: Any) -> None:
    """The month's 'Reconcile' reminder, done."""
    year, month = (int(x) for x in FACTS["month"].split("-"))
    title = f"Reconcile the {MONTHS[month - 1]} {year}"
    todo = next(t for t in tools.reminders_list()["reminders"] if t["title"].startswith(title))
    tools.reminders_complete(uid=todo["uid"])


def _chase_text(double: dict[str, Any]) -> str:
    r = double["receipt"]
    return (
        f"Hello,\n\nYour charge of {double['amount']:.2f} on {double['day']:%d %B %Y} for receipt {r['number']} was "
        "taken twice from my card. Please refund the second charge.\n\nThank you"
    )


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


def _sheet_path() -> str:
    return f"Finance/Reconciliation/{FACTS['month']}.csv"


def _due(tools: Any, today: date, days: int) -> date:
    """`days` working days after today, the holidays in the calendar skipped."""
    events = tools.calendar_list_events(
        start=today.isoformat(), end=(today + timedelta(days=30)).isoformat(), calendar=FACTS["holidays"]
    )["events"]
    off = {date.fromisoformat(e["start"][:10]) for e in events}
    day = today
    while days:
        day += timedelta(days=1)
        if day.weekday() < 5 and day not in off:
            days -= 1
    return day


def _squash(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def _shop_of(line: dict[str, Any], receipt: dict[str, Any]) -> bool:
    shown = _squash(line["description"])
    return any(_squash(name) in shown for name in (receipt["brand"], receipt["legal"]) if len(_squash(name)) > 4)


def _matchings(options: list[list[dict[str, Any]]]) -> list[list[dict[str, Any] | None]]:
    """Every way to give each purchase one of its possible receipts, no receipt twice (a purchase with no
    possible receipt has none)."""
    found: list[list[dict[str, Any] | None]] = []

    def walk(n: int, chosen: list[dict[str, Any] | None]) -> None:
        if n == len(options):
            found.append(list(chosen))
            return
        if not options[n]:
            walk(n + 1, [*chosen, None])
        taken = {r["number"] for r in chosen if r is not None}
        for receipt in options[n]:
            if receipt["number"] not in taken:
                walk(n + 1, [*chosen, receipt])

    walk(0, [])
    return found


def _fits(line: dict[str, Any], receipt: dict[str, Any]) -> bool:
    """Whether `receipt` can be the receipt of the purchase `line`: this card, the shop's name or its registered
    name on the line, posted on the purchase day or up to three days later, and the amount (or, for a payment
    abroad, the foreign amount the bank prints in the line)."""
    if receipt["card"] != FACTS["card"] or not _shop_of(line, receipt):
        return False
    if not line["day"] - timedelta(days=3) <= receipt["day"] <= line["day"]:
        return False
    abroad = receipt["currency"] and f"{receipt['currency']} {receipt['total']:.2f}" in line["description"]
    return receipt["total"] == line["amount"] or bool(abroad)


def _reconcile(
    lines: list[dict[str, Any]], receipts: list[dict[str, Any]], refunds: dict[str, Decimal], matcher: Any = None
) -> list[dict]:
    """Each card line with its receipt and status. The receipts are matched to the purchases all at once: a shop
    that charges the same amounts again and again leaves a line several possible receipts, and only one way
    to pair them all up fits every date and name."""
    card = [line for line in lines if line["type"] == FACTS["card_type"]]
    # two identical lines (same day, shop and amount) are one purchase charged twice: they share its receipt
    purchases: dict[tuple, list[dict[str, Any]]] = {}
    for line in card:
        if not line["paid_in"]:
            purchases.setdefault((line["day"], line["description"], line["amount"]), []).append(line)
    keys = list(purchases)
    options = [[r for r in receipts if _fits(purchases[k][0], r)] for k in keys]
    [matching] = (matcher or _matchings)(options)  # the statement's facts leave exactly one
    of = dict(zip(keys, matching, strict=True))
    out = []
    for line in card:
        row = {**line, "receipt": None, "status": "no receipt"}
        if line["paid_in"]:  # a refund, perhaps posted days after the purchase
            for receipt in receipts:
                if _shop_of(line, receipt) and refunds.get(receipt["number"]) == line["amount"]:
                    row.update(receipt=receipt, status="refunded")
                    break
        else:
            key = (line["day"], line["description"], line["amount"])
            receipt = of[key]
            if receipt is not None:
                first = purchases[key][0] is line
                status = "refunded" if receipt["number"] in refunds else "matched" if first else "double charge"
                row.update(receipt=receipt, status=status)
        out.append(row)
    return out


def _day(text: str) -> date:
    """A statement's date (dd/mm/yyyy, or mm/dd/yyyy where months come first), or a receipt's '14 March 2026'."""
    if "/" in text:
        a, b, year = (int(x) for x in text.split("/"))
        return date(year, a, b) if FACTS["month_first"] else date(year, b, a)
    words = text.replace(",", " ").split()
    month = next(n for n, name in enumerate(MONTHS, 1) if name in words)
    day, year = (int(w) for w in words if w.isdigit())
    return date(year, month, day)


def _parse(text: str) -> dict[str, Any] | None:
    """A receipt's facts from its lines (in a mail or a PDF); None if `text` is no receipt."""
    trading = re.search(r"^(.+) is a trading name of (.+)\.$", text, re.MULTILINE)
    number = re.search(r"Receipt no\. (\S+)", text)
    if trading is None or number is None:
        return None
    total = re.search(r"^Total: (.+)$", text, re.MULTILINE).group(1)
    currency = re.match(r"([A-Z]{3}) ", total)
    return {
        "brand": trading.group(1).strip(),
        "legal": trading.group(2).strip(),
        "number": number.group(1),
        "day": _day(re.search(r"^Date: (.+)$", text, re.MULTILINE).group(1)),
        "total": Decimal(re.sub(r"[^\d.]", "", total)),
        "currency": currency.group(1) if currency else None,
        "card": re.search(r"^Paid with: (.+)$", text, re.MULTILINE).group(1).strip(),
        "support": re.search(r"Write to (\S+@\S+?)\.?$", text, re.MULTILINE).group(1),
    }


def _all(tools: Any, **query: Any) -> list[dict[str, Any]]:
    """Every message of a search, page after page."""
    out, cursor = [], None
    while True:
        page = tools.mail_search(**query, **({"cursor": cursor} if cursor else {}))
        out += page["messages"]
        cursor = page.get("next_cursor")
        if not cursor:
            return out


def _receipts(tools: Any, lines: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Decimal]]:
    """Every receipt of the month (files, then mail) and the refunds (order number -> amount)."""
    found, refunds = [], {}
    for entry in tools.files_list(path=FACTS["receipts"])["entries"]:
        if entry["type"] == "file":
            receipt = _parse(tools.files_read(path=entry["path"])["content"])
            if receipt is not None:
                found.append(receipt | {"id": None})
    start = min(x["day"] for x in lines) - timedelta(days=5)
    end = max(x["day"] for x in lines) + timedelta(days=3)
    window = {"since": start.isoformat(), "before": end.isoformat(), "limit": 100}
    # by the receipt's own words, not the subject: a receipt forwarded by someone else has none of it there
    cancelled = set()
    for hit in _all(tools, text="Receipt no.", **window):
        body = tools.mail_read(id=hit["id"])["body"]
        receipt = _parse(body)
        if receipt is not None:
            found.append(receipt | {"id": hit["id"]})
        cancelled |= set(re.findall(r"receipt (\S+) is no longer valid", body))
    found = [r for r in found if r["number"] not in cancelled]
    for hit in tools.mail_search(subject="refund", **window)["messages"]:
        body = tools.mail_read(id=hit["id"])["body"]
        refunded = re.search(r"refunded (\S+) to your .+ for order (\S+)\.", body)
        if refunded:
            refunds[refunded.group(2)] = Decimal(re.sub(r"[^\d.]", "", refunded.group(1)))
    return found, refunds


def _statement(tools: Any) -> list[dict[str, Any]]:
    """The lines of this month's statement in Downloads, whichever format the bank exported."""
    found = [e["path"] for e in tools.files_list(path="Downloads")["entries"] if "statement" in e["path"]]
    path = next(p for p in found if FACTS["month"] in p)
    content = tools.files_read(path=path)["content"]
    rows = list(csv.reader(line for line in content.splitlines() if line.strip() and not line.startswith("[sheet")))
    header, out = rows[0], []
    for row in rows[1:]:
        cell = dict(zip(header, row, strict=False))
        if "Amount" in cell:
            value = Decimal(cell["Amount"])
            amount, paid_in = abs(value), value > 0
        else:
            paid_in = bool(cell["Paid in"])
            amount = Decimal(cell["Paid in"] or cell["Paid out"])
        when = cell.get("Date") or cell["Posting Date"]
        out.append(
            {
                "shown": when,
                "day": _day(when),
                "description": cell["Description"],
                "type": cell["Type"],
                "amount": amount,
                "paid_in": paid_in,
            }
        )
    return out


def _work(tools: Any, matcher: Any = None) -> tuple[list[dict[str, Any]], dict[str, Any], date]:
    note = tools.notes_search(query=FACTS["note"])["notes"][0]
    assert "double charge" in note["body"], "the note is not the reconciliation rules"
    today = datetime.fromisoformat(tools.now()["now"]).date()
    lines = _statement(tools)
    receipts, refunds = _receipts(tools, lines)
    rows = _reconcile(lines, receipts, refunds, matcher)
    double = next(r for r in rows if r["status"] == "double charge")
    return rows, double, _due(tools, today, FACTS["follow"])


def solve_new_message(tools):
    """Writes to the shop's contact address rather than replying, and writes again where its automatic reply says
    (rather than forwarding); ISO dates, amounts with the sign the money went, a notes column; the reminder on the
    day without a time."""
    rows, double, due = _work(tools)
    lines = ["Date,Merchant,Amount,Receipt,Status,Notes"]
    for r in rows:
        note = "bank's converted amount" if r["receipt"] and r["receipt"]["currency"] else ""
        signed = f"{'+' if r['paid_in'] else '-'}{r['amount']:.2f}"
        number = r["receipt"]["number"] if r["receipt"] else "none"
        lines.append(f'{r["day"].isoformat()},"{r["description"]}",{signed},{number},{r["status"]},{note}')
    tools.files_write(path=_sheet_path(), content="\n".join(lines) + "\n")
    receipt = double["receipt"]
    sent = tools.mail_send(to=[receipt["support"]], subject="Duplicate charge on my card", body=_chase_text(double))
    for instead in redirected(tools, [sent["message_id"]]).values():  # written again, to that address alone
        tools.mail_send(to=[instead], subject="Duplicate charge on my card", body=_chase_text(double))
    tools.reminders_create(title=f"{receipt['legal']}: chase the duplicate charge", due=due.isoformat())
    _tick_off(tools)


solve = solve_new_message
