"""Reference solution for expense-claim-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'manager': 'Marsh',
 'subject': 'Seattle expenses',
 'window': ['2026-06-29', '2026-07-05'],
 'trip': 'Seattle',
 'code_in': 'calendar',
 'vendors': [{'sender': 'reservations@waypoint-house-hotel.com',
              'vendor': 'Waypoint House Hotel',
              'kind': 'hotel',
              'category': 'Lodging'},
             {'sender': 'no-reply@summit-airlines.com',
              'vendor': 'Summit Airlines',
              'kind': 'travel',
              'category': 'Travel'},
             {'sender': 'receipts@zipcab.com', 'vendor': 'Zipcab', 'kind': 'ride', 'category': 'Transport'},
             {'sender': 'receipts@bistro-adwoa.com',
              'vendor': 'Bistro Adwoa',
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'receipts@tuan-s-grill.com',
              'vendor': "Tuan's Grill",
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'orders@seattle-design-store.com',
              'vendor': 'Seattle Design Store',
              'kind': 'shop',
              'category': None}],
 'draft_merchant': 'Zipcab',
 'currency': 'USD',
 'purpose': '{code} Tidewater Robotics workshop',
 'symbol': '$',
 'reply': 'Hi Maggie,\n'
          '\n'
          'my Seattle expenses are all submitted on Expensely: {count} reports, {total} in total.\n'
          '\n'
          'Thanks,\n'
          'Li'}
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


def fill_form(tools: Any, page: dict[str, Any], values: dict[str, str]) -> None:
    """Type or choose each value into the page's form field of that name (`{n: input name=amount ...}`)."""
    for name, value in values.items():
        found = re.search(rf"\{{(\d+): (\w+)(?: type=\w+)? name={re.escape(name)} ", page["text"])
        assert found, f"the page {page['url']} has no field {name}"
        if found.group(2) == "select":
            tools.browser_select(ref=int(found.group(1)), option=value)
        else:
            tools.browser_fill(ref=int(found.group(1)), value=value)


def _date(text: str) -> date:
    """A day written '3 March 2026' or 'March 3, 2026'."""
    found = re.search(r"(\d{1,2}) ([A-Z][a-z]+) (\d{4})", text)
    if found:
        d, month, year = found.groups()
    else:
        month, d, year = re.search(r"([A-Z][a-z]+) (\d{1,2}), (\d{4})", text).groups()
    return date(int(year), MONTHS.index(month) + 1, int(d))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def solve(tools):
    f = FACTS
    request = tools.mail_read(id=newest(tools.mail_search(sender=f["manager"], subject=f["subject"])["messages"])["id"])
    trip = tools.calendar_list_events(start=f["window"][0], end=f["window"][1], query=f["trip"])["events"][0]
    first, last = date.fromisoformat(trip["start"]), date.fromisoformat(trip["end"]) - timedelta(days=1)
    where = trip["description"] if f["code_in"] == "calendar" else request["body"]
    code = re.search(r"[Pp]roject ([A-Z]{3}-\d{4})", one_line(where)).group(1)
    policy = one_line(tools.browser_open(url="/expenses/policy")["text"])
    cap = float(re.search(r"Meals: up to \D*([\d,]+\.\d\d)", policy).group(1).replace(",", ""))
    for vendor in f["vendors"]:
        assert vendor["category"] is None or vendor["category"] in policy, "the policy names other categories"

    expenses, void = {}, set()
    for vendor in f["vendors"]:
        for hit in tools.mail_search(sender=vendor["sender"])["messages"]:
            text = one_line(tools.mail_read(id=hit["id"])["body"])
            void.update(re.findall(r"replaces invoice no\. ([A-Z0-9-]+)", text))
            when = _date(re.search(r"(?:Date|Check-out): (.+?\d{4})", text).group(1))
            if vendor["category"] is None or not first <= when <= last:
                continue  # a personal purchase, or a ride outside the trip
            ref = re.search(r"(?:Invoice no\.|Booking reference:|Receipt no\.) ([A-Z0-9-]+)", text).group(1)
            amount = float(re.search(r"Total: \D*([\d,]+\.\d\d)", text).group(1).replace(",", ""))
            if vendor["kind"] == "meal":
                amount = min(amount, cap)
            expenses[ref] = {**vendor, "ref": ref, "date": when.isoformat(), "amount": amount}  # sent twice: once
    claims = sorted((e for ref, e in expenses.items() if ref not in void), key=lambda e: (e["date"], e["ref"]))

    # The draft saved during the trip is that expense's report: finish it first, then file the others.
    listing = tools.browser_open(url="/expenses/")["text"]
    started = re.search(rf"\[\d+\] (EXP-\d+) \| [^|\n]+ \| {re.escape(f['draft_merchant'])} \| .*\| draft", listing)
    page = tools.browser_open(url=f"/expenses/{started.group(1)}/edit")
    on = re.search(r"name=date [^}]*value=\"([\d-]+)\"", page["text"]).group(1)
    claims.sort(key=lambda c: (c["vendor"], c["date"]) != (f["draft_merchant"], on))
    for n, claim in enumerate(claims):
        if n:
            page = tools.browser_open(url="/expenses/new")
        values = {
            "date": claim["date"],
            "merchant": claim["vendor"],
            "category": claim["category"],
            "amount": f"{claim['amount']:.2f}",
            "currency": f["currency"],
            "description": f["purpose"].format(code=code),
            "receipt": claim["ref"],
        }
        fill_form(tools, page, values)
        done = tools.browser_click(text="Submit for approval")
        assert "was submitted for approval" in done["text"], done["text"]

    total = round(sum(c["amount"] for c in claims), 2)
    tools.mail_reply(id=request["id"], body=f["reply"].format(count=len(claims), total=f"{f['symbol']}{total:,.2f}"))
