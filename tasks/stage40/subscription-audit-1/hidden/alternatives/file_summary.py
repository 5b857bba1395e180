"""Alternative solution 'file_summary' for subscription-audit-1: another reasonable way to the goal."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime


FACTS = {'note': 'Subscriptions',
 'statement': 'Downloads/Northgate Bank card transactions 2026-07-01 to 2026-10-06.csv',
 'user': 'Elin',
 'email': 'elin_sandberg@telia.com',
 'cancel': [{'name': 'The Metro Chronicle',
             'short': 'Metro Chronicle',
             'domain': 'metrochronicle.com',
             'support': 'help@metrochroniclegroup.com',
             'account': '20207797',
             'what': 'subscription',
             'moved': True,
             'contact': True},
            {'name': 'Hushnet VPN',
             'short': 'Hushnet VPN',
             'domain': 'hushnet.io',
             'support': 'support@hushnet.io',
             'account': 'HV-060166',
             'what': 'licence',
             'moved': False,
             'contact': True}],
 'done': [{'name': 'Screenwell', 'domain': 'screenwell.com'}],
 'kept': [{'name': 'Soundloft',
           'domain': 'soundloft.com',
           'role': 'rise',
           'monthly': '174.00 kr',
           'price': '174.00 kr',
           'old': '154.00 kr',
           'descriptor': 'SOUNDLOFT.COM'},
          {'name': 'Stowbox',
           'domain': 'stowbox.com',
           'role': 'annual',
           'monthly': '71.00 kr',
           'price': '852.00 kr',
           'old': '81.00 kr',
           'descriptor': 'STOWBOX*2 TB'},
          {'name': 'Green Crate',
           'domain': 'greencrate.co',
           'role': 'bank',
           'monthly': '1,178.99 kr',
           'price': '1,178.99 kr',
           'old': '',
           'descriptor': 'GREENCRATE*FAMILY BOX'},
          {'name': 'Questline Plus',
           'domain': 'questline.gg',
           'role': 'plain',
           'monthly': '130.99 kr',
           'price': '130.99 kr',
           'old': '',
           'descriptor': 'QUESTLINEPLUS.GG'}],
 'total': '1,554.98 kr',
 'year': '18,659.76 kr',
 'checked': {'name': 'Stretchly', 'domain': 'stretchly.app'},
 'trial': {'name': 'Audiora', 'domain': 'audiora.com', 'due': '2026-10-26T19:00:00+01:00'},
 'lists': 'Reminders',
 'folder': 'Notes',
 'budget': 'Documents/Monthly budget.csv',
 'lines': {'Subscriptions': '1,554.98 kr', 'Total': '27,027.95 kr'}}


def _budget(tools: Any, shown: bool = False) -> None:
    """The budget's Subscriptions line at the new monthly figure, and its Total line to match: as the ledger
    writes amounts (plain), or `shown` with the currency."""
    text = tools.files_read(path=FACTS["budget"])["content"]
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows:
        if row[0] in FACTS["lines"]:
            amount = FACTS["lines"][row[0]]
            row[1] = amount if shown else amount.strip("£$€A kr").replace(",", "")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    tools.files_write(path=FACTS["budget"], content=out.getvalue())


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


def _send(tools: Any, service: dict[str, Any], body: str, subject: str, cc: list[str] | None = None) -> None:
    sent = tools.mail_send(to=[service["support"]], subject=subject, body=body, cc=cc or [])
    for instead in redirected(tools, [sent["message_id"]]).values():  # its automatic reply names another desk
        tools.mail_send(to=[instead], subject=subject, body=body, cc=cc or [])


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def _newest(tools: Any, **query: Any) -> dict[str, Any]:
    found = tools.mail_search(**query)["messages"]
    assert found, f"no mail for {query}"
    return tools.mail_read(id=newest(found)["id"])


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _cancellations(tools: Any) -> list[dict[str, Any]]:
    """Each service to drop, with the account number and the support address its own mail gives."""
    out = []
    for service in FACTS["cancel"]:
        latest = one_line(_newest(tools, sender=f"no-reply@{service['domain']}")["body"])
        assert service["account"] in latest, f"{service['name']}: no account number in its latest mail"
        if service["moved"]:  # the help desk moved: the announcement from the same sender says where
            notice = one_line(_newest(tools, sender=f"no-reply@{service['domain']}", subject="help desk")["body"])
            assert service["support"] in notice, f"{service['name']}: the new help desk is not {service['support']}"
        else:
            assert service["support"] in latest, f"{service['name']}: cancellations do not go to {service['support']}"
        out.append(service)
    return out


def _prices(tools: Any) -> None:
    """What each kept service will cost: the price rise, the yearly plan, the meal kit on the card."""
    statement = None
    for service in FACTS["kept"]:
        if service["role"] == "rise":
            text = one_line(_newest(tools, sender=service["domain"], subject="price")["body"])
            assert service["price"] in text and service["old"] in text, f"{service['name']}: not the rise expected"
        elif service["role"] == "annual":
            text = one_line(_newest(tools, sender=service["domain"], subject="annual")["body"])
            assert service["price"] in text, f"{service['name']}: not the yearly plan expected"
        elif service["role"] == "plain":
            text = one_line(_newest(tools, sender=f"no-reply@{service['domain']}")["body"])
            assert service["price"] in text, f"{service['name']}: its last receipt is not {service['price']}"
        else:
            if statement is None:
                listed = tools.files_list(path="Downloads")["entries"]
                path = next(e["path"] for e in listed if "card transactions" in e["path"])
                statement = tools.files_read(path=path)["content"]
            charged = [line for line in statement.splitlines() if service["descriptor"] in line]
            amount = service["monthly"].lstrip("£$€A").replace(",", "").replace(" kr", "")
            assert charged and amount in charged[0], f"{service['name']}: the card shows {charged[:1]}"


def _check_trial_and_gym(tools: Any) -> None:
    checked = FACTS["checked"]
    text = one_line(_newest(tools, sender=checked["domain"], subject="cancelled")["body"])
    assert "won't take any more payments" in text, f"{checked['name']} is not cancelled"
    for done in FACTS["done"]:  # the note drops it, but the user cancelled it already
        text = one_line(_newest(tools, sender=done["domain"], subject="cancelled")["body"])
        assert "won't charge your card again" in text, f"{done['name']} is not cancelled yet"
    trial = one_line(_newest(tools, sender=FACTS["trial"]["domain"])["body"])
    assert "runs until" in trial, "no trial end in the newest trial mail"


def solve_file_summary(tools):
    """Reminder first, formal mails copied to the user, and the summary as a Markdown table in Documents."""
    f = FACTS
    tools.notes_search(query="subscriptions")
    _check_trial_and_gym(tools)
    trial = f["trial"]
    tools.reminders_create(
        title=f"{trial['name']} free trial ends tomorrow: keep or cancel?", list=f["lists"], due=trial["due"]
    )
    _prices(tools)
    for service in _cancellations(tools):
        body = (
            "Dear Sir or Madam,\n\n"
            f"I would like to cancel my {service['short']} {service['what']} with effect from the end of the current "
            f"period, and to stop any automatic renewal.\n\n{service['name']} account: {service['account']}\n\n"
            f"Please confirm the cancellation by email.\n\nYours faithfully,\n{f['user']}"
        )
        _send(tools, service, body, f"Cancellation request: {service['name']}", cc=[f["email"]])
    rows = []
    for s in f["kept"]:
        extra = {"rise": f"new price (was {s['old']})", "annual": f"{s['price']} billed yearly"}.get(s["role"], "")
        rows.append(f"| {s['name']} | {s['monthly']} | {extra} |")
    text = "\n".join(
        [
            "# Subscriptions after the clear-out",
            "",
            "| Service | Per month | Note |",
            "|---|---|---|",
            *rows,
            f"| **Total** | **{f['total']}** | {f['year']} a year |",
            "",
        ]
    )
    tools.files_write(path="Documents/Subscriptions after the clear-out.md", content=text)
    _budget(tools, shown=True)
    return "Done: cancellation requests sent, the trial reminder is set, the summary is in Documents."


solve = solve_file_summary
