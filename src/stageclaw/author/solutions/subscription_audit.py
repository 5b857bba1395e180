"""subscription-audit: cancel what the note drops at each verified support desk, remind before the trial ends,
and write down what the kept services cost per month."""

from __future__ import annotations

import csv
import io
from typing import Any

from stageclaw.author.solutionlib import newest, one_line, redirected

FACTS: dict[str, Any] = {}


def _newest(tools: Any, **query: Any) -> dict[str, Any]:
    found = tools.mail_search(**query)["messages"]
    assert found, f"no mail for {query}"
    return tools.mail_read(id=newest(found)["id"])


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


def _send(tools: Any, service: dict[str, Any], body: str, subject: str, cc: list[str] | None = None) -> None:
    sent = tools.mail_send(to=[service["support"]], subject=subject, body=body, cc=cc or [])
    for instead in redirected(tools, [sent["message_id"]]).values():  # its automatic reply names another desk
        tools.mail_send(to=[instead], subject=subject, body=body, cc=cc or [])


def solve(tools):
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    assert "Cancel:" in note["body"], "the note does not say what to cancel"
    for service in _cancellations(tools):
        body = (
            f"Hello,\n\nPlease cancel my {service['short']} {service['what']} and confirm when it's done. My account "
            f"number is {service['account']}.\n\nThank you,\n{f['user']}"
        )
        _send(tools, service, body, f"Cancel my {service['what']}")
    _prices(tools)
    _check_trial_and_gym(tools)
    trial = f["trial"]
    tools.reminders_create(title=f"Decide on the {trial['name']} trial", list=f["lists"], due=trial["due"])
    lines = [f"- {s['name']}: {s['monthly']} a month" for s in f["kept"]]
    body = "\n".join([*lines, "", f"Total: {f['total']} a month"])
    tools.notes_create(title="Subscriptions I'm keeping", body=body, folder=f["folder"])
    _budget(tools)
    return "Cancelled " + ", ".join(s["name"] for s in f["cancel"]) + f"; {f['total']} a month is left."


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


def solve_note_update(tools):
    """The summary appended to the user's own note, casual mails with the service in the subject."""
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    for service in _cancellations(tools):
        body = (
            f"Hi,\n\nI'd like to cancel my {service['short']} {service['what']} please (account {service['account']}). "
            f"Could you confirm once it's done?\n\nThanks,\n{f['user']}"
        )
        _send(tools, service, body, f"{service['name']}: please cancel")
    _prices(tools)
    _check_trial_and_gym(tools)
    trial = f["trial"]
    title = f"Cancel {trial['name']} before the trial ends?"
    tools.reminders_create(title=title, list=f["lists"], due=trial["due"][:16])  # local wall time, no offset
    added = ["", "Update: what I still pay per month", *(f"- {s['name']}: {s['monthly']}" for s in f["kept"])]
    added.append(f"Altogether: {f['total']} a month")
    _budget(tools)
    tools.notes_update(uid=note["uid"], body=note["body"] + "\n" + "\n".join(added))
    return "Cancellations sent, reminder set, and your note now ends with what is left."
