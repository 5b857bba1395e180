"""commitments-review: every promise in the Sent mail since the last review, dated by the review note's
rules (working days from the calendar's holidays, events where the calendar has them now, a later date
agreed in the thread, a working day early for an outsider), becomes a reminder in Promises (one the user set
already is kept); kept ones get none (one set already is ticked off); the
note's open list is brought up to date."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from stageclaw.author.solutionlib import one_line

FACTS: dict = {}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _working(day, holidays):
    return day.weekday() < 5 and day.isoformat() not in holidays


def working_day(day, steps, holidays):
    """The `steps`-th working day after `day` (before it when negative); `day` itself does not count."""
    step = 1 if steps > 0 else -1
    for _ in range(abs(steps)):
        day += timedelta(days=step)
        while not _working(day, holidays):
            day += timedelta(days=step)
    return day


def due_date(kind, written, holidays, weekday=None, n=None, event=None):
    """When a promise written on `written` is due, by the review note's rules for its `kind`."""
    if kind == "weekday":
        return written + timedelta(days=(weekday - written.weekday()) % 7 or 7)
    if kind == "tomorrow":
        return working_day(written, 1, holidays)
    if kind == "working_days":
        return working_day(written, n, holidays)
    if kind == "next_week":
        return written + timedelta(days=7 - written.weekday() + 4)
    if kind == "month_end":
        last = (written.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        return last if _working(last, holidays) else working_day(last, -1, holidays)
    if kind == "after":
        return working_day(event, 1, holidays)
    assert kind == "before", f"no rule for {kind}"
    return working_day(event, -1, holidays)


def _own(body):
    return one_line("\n".join(line for line in (body or "").splitlines() if not line.lstrip().startswith(">")))


def _thread(tools, subject, sent=None):
    """The messages of a thread (found by its subject) in Sent and in the inbox, oldest first, read."""
    found = sent if sent is not None else tools.mail_search(subject=subject, limit=50)["messages"]
    mine = sorted((m for m in found if subject in m["subject"]), key=lambda m: datetime.fromisoformat(m["date"]))
    return [{**m, "text": _own(tools.mail_read(id=m["id"])["body"])} for m in mine]


def _calendar(tools, f):
    """The public holidays in the calendar, and when each event the promises name is (held) now."""
    events = tools.calendar_list_events(start=f["from"], end=f["until"])["events"]
    holidays = set()
    for e in events:
        if e["all_day"] and f["holiday"] in e["summary"].lower():
            first = date.fromisoformat(e["start"][:10])
            last = date.fromisoformat(e["end"][:10])
            holidays |= {(first + timedelta(days=k)).isoformat() for k in range((last - first).days)}
    held = {}
    for name in f["events"]:
        event = next(e for e in events if e["summary"].startswith(name))
        held[name] = [date.fromisoformat(t[:10]) for t in event.get("occurrences") or [event["start"]]]
    return holidays, held


def _outsider(tools, name):
    """Whether the asker works outside the user's company, by their contact card."""
    card = next(c for c in tools.contacts_search(query=name)["contacts"] if c["name"] == name)
    return card.get("organization") != FACTS["org"]


def _review(tools, sent=None):
    """Each promise with its fate (open, kept), its due date and its reminder's (a working day early for an
    outsider, the note's last rule), worked out from the mail, the calendar and the contacts."""
    f = FACTS
    holidays, held = _calendar(tools, f)
    out = []
    for p in f["promises"]:
        thread = _thread(tools, p["subject"], sent)
        promise = next(m for m in thread if p["said"] in m["text"])
        written = date.fromisoformat(promise["date"][:10])
        later = [m for m in thread if datetime.fromisoformat(m["date"]) > datetime.fromisoformat(promise["date"])]
        kept = any(m["folder"] == "Sent" and p["kept"] and p["kept"] in m["text"].lower() for m in later)
        agreed = any(m["folder"] == "Sent" and p["agreed"] and p["agreed"] in m["text"] for m in later)
        event = next(d for d in held[p["event"]] if d >= written) if p["event"] else None
        if agreed:
            due = date.fromisoformat(p["agreed_on"])
        elif p["kind"] == "date":
            due = date.fromisoformat(p["on"])
        else:
            due = due_date(p["kind"], written, holidays, p["weekday"], p["n"], event)
        remind = working_day(due, -1, holidays) if _outsider(tools, p["who"]) else due
        out.append({**p, "due": due, "remind": remind, "kept_now": kept})
    return out


def _existing(tools):
    return tools.reminders_list(list=FACTS["list"])["reminders"]


def _line(p, due):
    return f"- {p['title']} – {WEEKDAYS[due.weekday()][:3]} {due.day} {due.strftime('%b')}"


def _apply(tools, review, titles=None, note_style="list"):
    """Reminders, ticks and the note, from the worked-out review."""
    f = FACTS
    existing = _existing(tools)
    for p in review:
        old = next((r for r in existing if re.search(p["pattern"], r["title"], re.I)), None)
        if p["kept_now"]:
            if old is not None and not old["completed"]:
                tools.reminders_complete(uid=old["uid"])
            continue
        if old is not None:
            if old["due"][:10] != p["remind"].isoformat():
                tools.reminders_update(uid=old["uid"], due=p["remind"].isoformat())
            continue
        title = (titles or {}).get(p["key"], p["title"])
        tools.reminders_create(title=title, list=f["list"], due=p["remind"].isoformat())
    if not f["update"]:
        return
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    head = note["body"].split(f["open_heading"])[0]
    open_ones = sorted((p for p in review if not p["kept_now"]), key=lambda p: p["due"])
    if note_style == "list":
        body = head + f["open_heading"] + "\n" + "\n".join(_line(p, p["due"]) for p in open_ones) + "\n"
    else:  # the open list ticked off and added to, in a table
        rows = [f"| {p['title']} | {p['due'].isoformat()} |" for p in open_ones]
        done = [f"- [x] {p['title']}" for p in review if p["kept_now"]]
        body = head + f["open_heading"] + "\n| promise | due |\n|---|---|\n" + "\n".join(rows) + "\n\nDone:\n"
        body += "\n".join(done) + "\n"
    tools.notes_update(uid=note["uid"], body=body)


def solve(tools):
    f = FACTS
    note = next(n for n in tools.notes_search(query=f["note"])["notes"] if n["title"] == f["note"])
    assert f["since"] in one_line(note["body"]), "the note does not say when the last review was"
    _apply(tools, _review(tools))


def solve_read_all(tools):
    """Lists the whole Sent folder since the last review once and reads the threads from it; writes the open
    list as a table with a Done section."""
    f = FACTS
    sent = tools.mail_search(folder="Sent", since=f["since_iso"], limit=200)["messages"]
    inbox = tools.mail_search(folder="INBOX", since=f["since_iso"], limit=200)["messages"]
    _apply(tools, _review(tools, sent + inbox), note_style="table")


def solve_other_titles(tools):
    """Reminder titles in other words (the person first, then the thing), the note kept as a list."""
    review = _review(tools)
    titles = {p["key"]: f"{p['first']}: {p['object']}" for p in review}
    _apply(tools, review, titles=titles)
