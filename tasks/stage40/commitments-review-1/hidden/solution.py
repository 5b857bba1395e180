"""Reference solution for commitments-review-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta


FACTS = {'list': 'Promises',
 'note': 'Weekly review',
 'org': 'Harbor Robotics',
 'open_heading': 'Open promises',
 'since': 'Thursday 22 October',
 'since_iso': '2026-10-08',
 'from': '2026-10-02',
 'until': '2027-01-14',
 'holiday': 'bank holiday',
 'events': ['Client workshop with Driftwood Robotics'],
 'update': True,
 'promises': [{'key': 'proposal',
               'subject': 'Revised proposal?',
               'said': "You'll have the revised proposal by Friday.",
               'kind': 'weekday',
               'weekday': 4,
               'n': None,
               'on': None,
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Krzysztof the revised proposal',
               'pattern': '\\bKrzysztof\\b|\\bWójcik\\b|proposal',
               'first': 'Krzysztof',
               'who': 'Krzysztof Wójcik',
               'object': 'the revised proposal'},
              {'key': 'timeline',
               'subject': 'Updated project timeline',
               'said': "You'll get the updated timeline before the workshop.",
               'kind': 'before',
               'weekday': None,
               'n': None,
               'on': None,
               'event': 'Client workshop with Driftwood Robotics',
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Ananya the updated timeline',
               'pattern': '\\bAnanya\\b|\\bIyer\\b|timeline|schedule',
               'first': 'Ananya',
               'who': 'Ananya Iyer',
               'object': 'the updated timeline'},
              {'key': 'figures',
               'subject': 'Q3 figures for the board pack',
               'said': "I'll send the Q3 figures over tomorrow.",
               'kind': 'tomorrow',
               'weekday': None,
               'n': None,
               'on': None,
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Rebecca the quarterly figures',
               'pattern': '\\bEllison\\b|\\bRebecca\\b|figures|numbers',
               'first': 'Rebecca',
               'who': 'Rebecca Ellison',
               'object': 'the figures'},
              {'key': 'reference',
               'subject': 'Reference for Sam?',
               'said': "You'll have the reference by the end of the month.",
               'kind': 'month_end',
               'weekday': None,
               'n': None,
               'on': None,
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Write Tomasz the reference',
               'pattern': '\\bKowalczyk\\b|\\bTomasz\\b|reference',
               'first': 'Tomasz',
               'who': 'Tomasz Kowalczyk',
               'object': 'the reference'},
              {'key': 'checklist',
               'subject': 'Onboarding checklist for the new starter',
               'said': 'Give me 2 working days for the onboarding checklist.',
               'kind': 'working_days',
               'weekday': None,
               'n': 2,
               'on': None,
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Katarzyna the onboarding checklist',
               'pattern': '\\bKatarzyna\\b|\\bKról\\b|checklist|onboarding',
               'first': 'Katarzyna',
               'who': 'Katarzyna Król',
               'object': 'the onboarding checklist'},
              {'key': 'case_study',
               'subject': 'Case study for the website',
               'said': "I'll send a paragraph for the case study over by Thursday.",
               'kind': 'weekday',
               'weekday': 3,
               'n': None,
               'on': None,
               'event': None,
               'kept': 'as promised',
               'agreed': '',
               'agreed_on': None,
               'title': 'Write Arjun the case study paragraph',
               'pattern': '\\bArjun\\b|\\bBanerjee\\b|case study|paragraph',
               'first': 'Arjun',
               'who': 'Arjun Banerjee',
               'object': 'a paragraph for the case study'},
              {'key': 'slides',
               'subject': 'Slides from the workshop',
               'said': "I'll send the workshop slides over by Friday.",
               'kind': 'weekday',
               'weekday': 4,
               'n': None,
               'on': None,
               'event': None,
               'kept': 'as promised',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Rachel the workshop slides',
               'pattern': '\\bOsborne\\b|\\bRachel\\b|slides|deck',
               'first': 'Rachel',
               'who': 'Rachel Osborne',
               'object': 'the workshop slides'},
              {'key': 'intro',
               'subject': 'Intro to your legal team?',
               'said': "You'll get an intro to our legal team by Wednesday 28 October.",
               'kind': 'date',
               'weekday': None,
               'n': None,
               'on': '2026-10-28',
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Introduce Kwabena to legal',
               'pattern': '\\bKwabena\\b|\\bOsei\\b|intro|legal',
               'first': 'Kwabena',
               'who': 'Kwabena Osei',
               'object': 'an intro to our legal team'},
              {'key': 'feedback',
               'subject': 'Feedback on the brief',
               'said': "I'll have my feedback on the brief with you by Thursday 5 November.",
               'kind': 'date',
               'weekday': None,
               'n': None,
               'on': '2026-11-05',
               'event': None,
               'kept': '',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Mohammed feedback on the brief',
               'pattern': '\\bMohammed\\b|\\bSaleh\\b|feedback|brief',
               'first': 'Mohammed',
               'who': 'Mohammed Saleh',
               'object': 'my feedback on the brief'},
              {'key': 'forecast',
               'subject': 'Budget forecast for next year',
               'said': "I'll have my budget forecast with you by Monday 26 October.",
               'kind': 'date',
               'weekday': None,
               'n': None,
               'on': '2026-10-26',
               'event': None,
               'kept': 'as promised',
               'agreed': '',
               'agreed_on': None,
               'title': 'Send Daniel the budget forecast',
               'pattern': '\\bDaniel\\b|\\bLangley\\b|forecast',
               'first': 'Daniel',
               'who': 'Daniel Langley',
               'object': 'my budget forecast'},
              {'key': 'contract',
               'subject': 'Contract draft',
               'said': "I'll send my comments on the contract over by Tuesday.",
               'kind': 'weekday',
               'weekday': 1,
               'n': None,
               'on': None,
               'event': None,
               'kept': '',
               'agreed': 'Perfect, Monday 2 November it is.',
               'agreed_on': '2026-11-02',
               'title': 'Send Agnieszka comments on the contract',
               'pattern': '\\bAgnieszka\\b|\\bKrawczyk\\b|contract|comments',
               'first': 'Agnieszka',
               'who': 'Agnieszka Krawczyk',
               'object': 'my comments on the contract'},
              {'key': 'pricing',
               'subject': 'Question about pricing',
               'said': "You'll get an answer on the pricing by Tuesday 3 November.",
               'kind': 'date',
               'weekday': None,
               'n': None,
               'on': '2026-11-03',
               'event': None,
               'kept': '',
               'agreed': 'Perfect, Thursday 12 November it is.',
               'agreed_on': '2026-11-12',
               'title': 'Get back to Wojciech about the pricing',
               'pattern': '\\bNowak\\b|\\bWojciech\\b|\\bWojtek\\b|pricing|support hours',
               'first': 'Wojciech',
               'who': 'Wojciech Nowak',
               'object': 'an answer on the pricing'}]}
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


def _outsider(tools, name):
    """Whether the asker works outside the user's company, by their contact card."""
    card = next(c for c in tools.contacts_search(query=name)["contacts"] if c["name"] == name)
    return card.get("organization") != FACTS["org"]


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


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


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


def _line(p, due):
    return f"- {p['title']} – {WEEKDAYS[due.weekday()][:3]} {due.day} {due.strftime('%b')}"


def _existing(tools):
    return tools.reminders_list(list=FACTS["list"])["reminders"]


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
