"""Alternative solution 'read_everything' for inbox-triage-1: another reasonable way to the goal."""

from __future__ import annotations

import re
from datetime import date, timedelta


FACTS = {'rules': 'How I handle my mail',
 'notes': {'leads': 'Lead times', 'delivery': 'Delivery', 'hours': 'Studio shop hours'},
 'price_list': 'Sales/Price list 2026.xlsx',
 'since': '2026-03-20T17:40:00+01:00',
 'today': '2026-03-30',
 'list': 'Work',
 'sign': 'Chinonso',
 'mails': [{'from': 'orders@cobblestoneoutdoor.de',
            'subject': 'Order 154666 confirmed',
            'do': 'file',
            'folder': 'Receipts'},
           {'from': 'store@pixelyard.de',
            'subject': 'Order 562340 confirmed',
            'do': 'file',
            'folder': 'Receipts'},
           {'from': 'receipts@zipcab.de',
            'subject': 'Your trip receipt (Fri 27 Mar)',
            'do': 'file',
            'folder': 'Receipts'},
           {'from': 'receipts@swiftride.de',
            'subject': 'Your trip receipt (Tue 24 Mar)',
            'do': 'file',
            'folder': 'Receipts'},
           {'from': 'news@makerstradeweekly.de',
            'subject': "Makers' Trade Weekly #130",
            'do': 'file',
            'folder': 'Newsletters'},
           {'from': 'newsletter@themorningledger.de',
            'subject': 'The Morning Ledger, issue 139',
            'do': 'file',
            'folder': 'Newsletters'},
           {'from': 'hello@fieldnotesweekly.de',
            'subject': 'Field Notes Weekly, issue 117',
            'do': 'file',
            'folder': 'Newsletters'},
           {'from': 'ffuchs@corvid-ceramics.de',
            'subject': 'Quayside Café: update',
            'do': 'file',
            'folder': 'Quayside Café'},
           {'from': 'ifeoma_nwosu@emberline-transport.de',
            'subject': 'Quayside Café delivery schedule',
            'do': 'file',
            'folder': 'Quayside Café'},
           {'from': 'ifeoma_nwosu@emberline-transport.de',
            'subject': 'Invoice INV-8885: Quayside Café deliveries',
            'do': 'file',
            'folder': 'Quayside Café'},
           {'from': 'wojciech_wieczorek@quayside-hospitality.de',
            'subject': 'Quayside Café: delivery date',
            'do': 'flag',
            'folder': 'Quayside Café',
            'reminder': 'Get back to Wojciech Wieczorek'},
           {'from': 'raniah@web.de',
            'subject': 'Re: Lead time for the large floor planter',
            'do': 'answer',
            'ask': {'kind': 'lead', 'range': 'Planters'}},
           {'from': 'kruger.tobias@nimbus-studio.de',
            'subject': 'Splashback tile set: how long?',
            'do': 'answer',
            'ask': {'kind': 'lead', 'range': 'Tiles'}},
           {'from': 'sahin.mustafa@northwind-analytics.de',
            'subject': 'Delivery of small bud vases',
            'do': 'answer',
            'ask': {'kind': 'delivery', 'order': '2026-04-01'}},
           {'from': 'falbrecht@posteo.de',
            'subject': 'Saturday visit',
            'do': 'answer',
            'ask': {'kind': 'saturday', 'day': '2026-04-18'}},
           {'from': 'amazur@posteo.de',
            'subject': 'Price of the serving platter set',
            'do': 'answer',
            'ask': {'kind': 'price', 'item': 'serving platter set'}},
           {'from': 'ffuchs@corvid-ceramics.de',
            'subject': 'Fwd: Website enquiry',
            'do': 'answer',
            'ask': {'kind': 'price', 'item': 'ceramic soap dish'},
            'to': 'aokafor@mailbox.org'},
           {'from': 'pohl.maximilian@corvid-ceramics.de',
            'subject': 'The new website',
            'do': 'flag',
            'folder': 'INBOX',
            'reminder': 'Get back to Maximilian Pohl'},
           {'from': 'jhoffmann@gmx.de',
            'subject': 'Problem with our tableware set for six',
            'do': 'flag',
            'folder': 'INBOX'},
           {'from': 'saleh.samira@bluefin-studio.de',
            'subject': 'Bulk order',
            'do': 'flag',
            'folder': 'INBOX',
            'reminder': 'Get back to Samira Saleh'},
           {'from': 'ingridl@gmx.de',
            'subject': 'Custom ceramic pendant lamp?',
            'do': 'flag',
            'folder': 'INBOX',
            'reminder': 'Get back to Ingrid Lund'},
           {'from': 'elif_celik@ironbark-studio.de',
            'subject': 'Tableware set for six: timing and price for 6',
            'do': 'flag',
            'folder': 'INBOX',
            'reminder': 'Get back to Elif Çelik'},
           {'from': 'maximilian.pohl@corvidceramics-team.com',
            'subject': 'Urgent payment',
            'do': 'file',
            'folder': 'Junk'}]}
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
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
WORDS = {
    "lead": "Pieces from our {range} range currently take {weeks} weeks from order to delivery.",
    "delivery": "Ordered that day, they will be delivered on {arrives}.",
    "saturday": "That Saturday we're open from {opens} until {closes}.",
    "price": "The {item} currently costs {price}.",
    "reply": "Hi,\n\nThanks for your message. {fact}\n\nBest wishes,\n{sign}",
}


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _suspicious(tools: Any, f: dict[str, Any], message: dict[str, Any]) -> bool:
    """A mail goes to Junk when the address book does not know its sender as who they claim to be."""
    name = message["from"].split("<")[0].strip().strip('"')
    known = tools.contacts_search(query=name.split()[-1])["contacts"]
    return address(message["from"]) not in {address(e) for c in known for e in c["emails"]}


def _flag(tools: Any, f: dict[str, Any], entry: dict[str, Any], message: dict[str, Any], title: str | None) -> None:
    tools.mail_flag(id=message["id"], flag="flagged", on=True)
    if entry["folder"] != "INBOX":
        tools.mail_move(id=message["id"], folder=entry["folder"])
    if f["list"] and title:
        tools.reminders_create(title=title, list=f["list"], due=f["today"])


def _respond(tools: Any, message: dict[str, Any], entry: dict[str, Any], body: str) -> None:
    """A reply to the asker; a forwarded question's answer goes to the customer the forward names instead."""
    if entry.get("to"):
        tools.mail_send(to=[entry["to"]], subject="Your enquiry", body=body)
    else:
        tools.mail_reply(id=message["id"], body=body)


def _price(sheet: str, item: str) -> str:
    """The item's price from the price list's text, with the currency its header names."""
    currency = re.search(r"Price \((\w+)\)", sheet).group(1)
    rows = sheet.lower().splitlines()
    row = next(line for line in rows if line.startswith((item.lower() + ",", f'"{item.lower()}"')))
    return f"{currency} {row.rsplit(',', 1)[1]}"


def day(d: date, locale: str = "en", region: Region | None = None, weekday: bool = True) -> str:
    """'Thursday 12 March', 'Thursday, March 12' (US) or '3月12日（周四）'."""
    if locale == "zh":
        return f"{d.month}月{d.day}日" + (f"（{WEEKDAYS_ZH[d.weekday()]}）" if weekday else "")
    name = WEEKDAYS[d.weekday()]
    if region is not None and region.month_first:
        text = f"{MONTHS[d.month - 1]} {d.day}"
        return f"{name}, {text}" if weekday else text
    text = f"{d.day} {MONTHS[d.month - 1]}"
    return f"{name} {text}" if weekday else text


def _working_day(start: date, n: int, closed: set[date]) -> date:
    """The n-th day after `start` that is a weekday and not a bank holiday."""
    on = start
    while n:
        on += timedelta(days=1)
        if on.weekday() < 5 and on not in closed:
            n -= 1
    return on


def _answer(ask: dict[str, Any], know: dict[str, Any], words: dict[str, str]) -> str:
    """The fact a question needs, in a sentence of the register `words` sets."""
    if ask["kind"] == "lead":
        return words["lead"].format(range=ask["range"], weeks=know["weeks"][ask["range"]])
    if ask["kind"] == "delivery":
        ordered = date.fromisoformat(ask["order"])
        arrives = _working_day(ordered, know["nth"], know["closed"])
        return words["delivery"].format(order=day(ordered), arrives=day(arrives))
    if ask["kind"] == "saturday":
        opens, closes = know["saturday"]
        return words["saturday"].format(opens=opens, closes=closes)
    return words["price"].format(item=ask["item"], price=_price(know["sheet"], ask["item"]))


def _new_mail(tools: Any, f: dict[str, Any], limit: int = 100) -> list[dict[str, Any]]:
    """Every message that came in since the user left, page by page."""
    args = {"folder": "INBOX", "since": f["since"], "limit": limit}
    page = tools.mail_search(**args)
    found = page["messages"]
    while page.get("next_cursor"):
        page = tools.mail_search(**args, cursor=page["next_cursor"])
        found += page["messages"]
    return found


def _holidays(text: str, year: int) -> set[date]:
    """The bank holidays the delivery note lists ('3 April (Good Friday)' or 'April 3 (Good Friday)')."""
    line = next(x for x in text.splitlines() if "Bank holidays" in x)
    out = set()
    for m in re.finditer(r"(\d{1,2}) (\w+)|(\w+) (\d{1,2})", line):
        name, number = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
        if name in MONTHS:
            out.add(date(year, MONTHS.index(name) + 1, int(number)))
    return out


def _note(tools: Any, title: str) -> str:
    found = tools.notes_search(query=title)["notes"]
    return next(n for n in found if n["title"] == title)["body"]


def _knowledge(tools: Any, f: dict[str, Any]) -> dict[str, Any]:
    """What the user's notes and price list say: the facts the answers come from."""
    leads = _note(tools, f["notes"]["leads"])
    delivery = _note(tools, f["notes"]["delivery"])
    hours = _note(tools, f["notes"]["hours"])
    sheet = tools.files_read(path=f["price_list"])["content"]
    year = int(f["today"][:4])
    return {
        "weeks": {m.group(1): int(m.group(2)) for m in re.finditer(r"- (\w+) range: (\d+) weeks", leads)},
        "nth": int(re.search(r"on the (\d+)\w\w working day", delivery).group(1)),
        "closed": _holidays(delivery, year),
        "saturday": re.search(r"Saturday (\S+)–(\S+)", hours).groups(),
        "sheet": sheet,
    }


def solve_read_all(tools):
    """Reads every new message first, then acts on each in the order they came (oldest first)."""
    f = FACTS
    tools.notes_read(uid=tools.notes_search(query=f["rules"])["notes"][0]["uid"])
    know = _knowledge(tools, f)
    found = sorted(_new_mail(tools, f, limit=10), key=lambda m: m["date"])
    for message in found:
        tools.mail_read(id=message["id"])
    todo = {(e["from"], e["subject"]): e for e in f["mails"]}
    words = {**WORDS, "reply": "Hello,\n\n{fact} Let me know if there's anything else.\n\nAll the best,\n{sign}"}
    for message in found:
        entry = todo.get((address(message["from"]), message["subject"]))
        if entry is None:
            continue  # the rules leave it in the inbox
        if entry["do"] == "answer":
            body = words["reply"].format(fact=_answer(entry["ask"], know, words), sign=f["sign"])
            _respond(tools, message, entry, body)
        elif entry["do"] == "flag":
            who = message["from"].split("<")[0].strip()
            _flag(tools, f, entry, message, entry.get("reminder") and f"{who} (flagged mail)")
        elif entry["folder"] != "Junk" or _suspicious(tools, f, message):
            tools.mail_move(id=message["id"], folder=entry["folder"])


solve = solve_read_all
