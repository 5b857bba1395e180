"""Alternative solution 'draft_last' for expense-claim-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'manager': 'Marsh',
 'subject': 'Seattle expenses',
 'window': ['2026-06-29', '2026-07-05'],
 'trip': 'Seattle',
 'code_in': 'calendar',
 'vendors': [{'sender': 'reservations@brightlane-house-hotel.com',
              'vendor': 'Brightlane House Hotel',
              'kind': 'hotel',
              'category': 'Lodging'},
             {'sender': 'no-reply@summit-airlines.com',
              'vendor': 'Summit Airlines',
              'kind': 'travel',
              'category': 'Travel'},
             {'sender': 'receipts@ryde.com', 'vendor': 'Ryde', 'kind': 'ride', 'category': 'Transport'},
             {'sender': 'receipts@bistro-yutong.com',
              'vendor': 'Bistro Yutong',
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'receipts@bistro-imogen.com',
              'vendor': 'Bistro Imogen',
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'receipts@trattoria-prescott.com',
              'vendor': 'Trattoria Prescott',
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'receipts@bistro-adwoa.com',
              'vendor': 'Bistro Adwoa',
              'kind': 'meal',
              'category': 'Meals'},
             {'sender': 'orders@museum-shop-seattle.com',
              'vendor': 'Museum Shop Seattle',
              'kind': 'shop',
              'category': None}],
 'draft_merchant': 'Ryde',
 'rates': 'Expenses/meal-rates-2026.csv',
 'currency': 'USD',
 'purpose': '{code} Tidewater Robotics workshop',
 'symbol': '$',
 'reply': 'Hi Maggie,\n'
          '\n'
          'my Seattle expenses are all submitted on Expensely, {total} in total.\n'
          '\n'
          'Thanks,\n'
          'Li',
 'known_only': True,
 'me': 'Li'}
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


def _manager(tools):
    """The manager as the address book knows them."""
    f = FACTS
    return next(c for c in tools.contacts_search(query=f["manager"])["contacts"] if f["manager"] in c["name"])


def fill_form(tools: Any, page: dict[str, Any], values: dict[str, str]) -> None:
    """Type or choose each value into the page's form field of that name (`{n: input name=amount ...}`)."""
    for name, value in values.items():
        found = re.search(rf"\{{(\d+): (\w+)(?: type=\w+)? name={re.escape(name)} ", page["text"])
        assert found, f"the page {page['url']} has no field {name}"
        if found.group(2) == "select":
            tools.browser_select(ref=int(found.group(1)), option=value)
        else:
            tools.browser_fill(ref=int(found.group(1)), value=value)


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _portal(tools, claims, void):
    """What is on the portal already: the reports submitted or approved, by receipt (a claim among them is done;
    one holding a replaced invoice is to be corrected), and the draft saved during the trip."""
    f = FACTS
    listing = tools.browser_open(url="/expenses/")["text"]
    started = re.search(rf"\[\d+\] (EXP-\d+) \| [^|\n]+ \| {re.escape(f['draft_merchant'])} \| .*\| draft", listing)
    submitted = {}
    for report in re.findall(r"\[\d+\] (EXP-\d+) \|[^\n]*\| (?:submitted|approved)", listing):
        page = one_line(tools.browser_open(url=f"/expenses/{report}")["text"])
        submitted[report] = re.search(r"Receipt:? (\S+)", page).group(1)
    done = {ref for ref in submitted.values()}
    fix = {ref: report for report, ref in submitted.items() if ref in void}
    return started.group(1), [c for c in claims if c["ref"] not in done], fix


def _file(tools, claims, purpose, void, draft_first=True):
    """The draft saved during the trip is that expense's report: finish it (first, or last); correct a submitted
    report that holds a replaced invoice; file the others, but nothing that is submitted already."""
    f = FACTS
    draft, claims, fix = _portal(tools, claims, void)
    edit = f"/expenses/{draft}/edit"
    on = re.search(r"name=date [^}]*value=\"([\d-]+)\"", tools.browser_open(url=edit)["text"]).group(1)
    is_draft = [(c["vendor"], c["date"]) == (f["draft_merchant"], on) for c in claims]
    # the hotel's report filed with the replaced invoice: the corrected invoice goes there
    fixes = {n: fix.pop(next(iter(fix))) for n, c in enumerate(claims) if c["kind"] == "hotel" and fix}
    order = sorted(range(len(claims)), key=lambda n: is_draft[n] != draft_first)
    for n in order:
        claim = claims[n]
        if n in fixes:  # only what the new invoice changed, or (finishing the draft last) the whole form again
            page = tools.browser_open(url=f"/expenses/{fixes[n]}/edit")
            values = {"amount": f"{claim['amount']:.2f}", "receipt": claim["ref"]}
            if not draft_first:
                values = {"date": claim["date"], "merchant": claim["vendor"], "category": claim["category"]} | values
                values |= {"currency": f["currency"], "description": purpose}
            fill_form(tools, page, values)
            done = tools.browser_click(text="Save changes")
            assert "updated" in done["text"], done["text"]
            continue
        page = tools.browser_open(url=edit if is_draft[n] else "/expenses/new")
        values = {
            "date": claim["date"],
            "merchant": claim["vendor"],
            "category": claim["category"],
            "amount": f"{claim['amount']:.2f}",
            "currency": f["currency"],
            "description": purpose,
            "receipt": claim["ref"],
        }
        fill_form(tools, page, values)
        done = tools.browser_click(text="Submit for approval")
        assert "was submitted for approval" in done["text"], done["text"]
    return round(sum(c["amount"] for c in claims), 2), claims


def _date(text: str) -> date:
    """A day written '3 March 2026' or 'March 3, 2026'."""
    found = re.search(r"(\d{1,2}) ([A-Z][a-z]+) (\d{4})", text)
    if found:
        d, month, year = found.groups()
    else:
        month, d, year = re.search(r"([A-Z][a-z]+) (\d{1,2}), (\d{4})", text).groups()
    return date(int(year), MONTHS.index(month) + 1, int(d))


def _claims(tools, request):
    """The trip, the project code, the policy's meal cap and the receipts to claim (once each, in the trip,
    not replaced, meals capped)."""
    f = FACTS
    trip = tools.calendar_list_events(start=f["window"][0], end=f["window"][1], query=f["trip"])["events"][0]
    first, last = date.fromisoformat(trip["start"]), date.fromisoformat(trip["end"]) - timedelta(days=1)
    where = trip["description"] if f["code_in"] == "calendar" else request["body"]
    code = re.search(r"[Pp]roject ([A-Z]{3}-\d{4})", one_line(where)).group(1)
    policy = one_line(tools.browser_open(url="/expenses/policy")["text"])
    # Meals are capped at the city's rate in finance's sheet for the year (a copy in the Expenses folder).
    sheet = tools.files_read(path=f["rates"])["content"]
    cap = float(re.search(rf"^{re.escape(f['trip'])},\s*([\d.]+)", sheet, re.M).group(1))
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
    return claims, code, void


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _request(tools):
    f = FACTS
    return tools.mail_read(id=newest(tools.mail_search(sender=f["manager"], subject=f["subject"])["messages"])["id"])


def solve_draft_last(tools):
    """Files the new reports first and finishes the draft last, with another wording of the purpose; tells the
    manager in a new message to their address on file, with the total in the currency's code; and when an
    automatic reply names someone else, writes them a new message of their own."""
    f = FACTS
    request = _request(tools)
    claims, code, void = _claims(tools, request)
    total, claims = _file(tools, claims, f"Business trip to {f['trip']}, project {code}", void, draft_first=False)
    manager = _manager(tools)
    done = f"my expense reports for {f['trip']} are submitted on Expensely, {f['currency']} {total:,.2f} altogether"
    sent = tools.mail_send(
        to=[manager["emails"][0]],
        subject=f"Re: {request['subject']}",
        body=f"Hello,\n\nall done: {done}.\n\nBest,\n{f['me']}",
    )
    for instead in redirected(tools, [sent["message_id"]]).values():
        tools.mail_send(
            to=[instead],
            subject=f"Expenses for {f['trip']}, for approval",
            body=f"Hello,\n\n{manager['name']}'s automatic reply says you approve claims while they're away: "
            f"{done}.\n\nBest,\n{f['me']}",
        )


solve = solve_draft_last
