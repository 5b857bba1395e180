"""Checks for quarterly-sync: the sync moves to 12 March 15:00 London (GMT) = 23:00 Shanghai."""

import re
from datetime import UTC, datetime, timedelta

PRIYA = "priya@orbitals.io"
REQUEST_ID = "<q1-2026@orbitals.io>"
NEW_START = datetime(2026, 3, 12, 15, 0, tzinfo=UTC)  # London is on GMT until 29 March
NEW_END = NEW_START + timedelta(hours=1)
REMIND_AT = NEW_START - timedelta(hours=1)

LONDON_TIME = re.compile(r"(?<![\d:])15[:.h]00(?!\d)|(?<![\d:.])3(?:[:.]00)?\s*(?:pm|p\.m\.)", re.IGNORECASE)
SHANGHAI_TIME = re.compile(r"(?<![\d:])23[:.h]00(?!\d)|(?<![\d:.])11(?:[:.]00)?\s*(?:pm|p\.m\.)", re.IGNORECASE)
THE_DAY = re.compile(r"thursday|\b12(?:th)?\b|星期四|周四|12日|12号", re.IGNORECASE)
# A date written out with its month (12 March, March 12th, 3月12日): any such date must be the 12th.
WRITTEN_DATE = re.compile(
    r"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\.?[^\S\n]+(?:of[^\S\n]+)?mar\w*|\bmar\w*\.?[^\S\n]+(\d{1,2})(?!\d)|(?<!\d)3月(\d{1,2})[日号]",
    re.IGNORECASE,
)


def _address(value):
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _instant(value):
    """An ISO time as an aware datetime; None for a missing value or a bare date."""
    if not value or len(value) == 10:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _events(state):
    return [(cal, event) for cal, events in (state.get("calendar") or {}).items() for event in events]


def _event(state, uid):
    for cal, event in _events(state):
        if event.get("uid") == uid:
            return cal, event
    return None, None


def _outbox(state):
    return (state.get("mail") or {}).get("outbox") or []


def _recipients(message):
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _to_priya(state):
    return [m for m in _outbox(state) if PRIYA in _recipients(m)]


def check_moved(initial, final, trace):
    cal, event = _event(final, "evt-1")
    if event is None:
        return False, "evt-1 (Quarterly sync) is gone from every calendar"
    if cal != "Work":
        return False, f"evt-1 moved to calendar {cal!r}; it belongs in Work"
    start, end = _instant(event.get("start")), _instant(event.get("end"))
    if start is None or end is None:
        return False, f"evt-1 is not a timed event any more (start {event.get('start')!r}, end {event.get('end')!r})"
    if start != NEW_START:
        shown = start.astimezone(UTC).isoformat()
        return False, f"evt-1 starts {event['start']} ({shown}); expected 2026-03-12T15:00 London = 23:00+08:00"
    if end != NEW_END:
        return False, f"evt-1 ends {event['end']}; expected one hour after the start (2026-03-13T00:00+08:00)"
    return True, "evt-1 is at 12 March 15:00-16:00 London time"


def check_moved_not_copied(initial, final, trace):
    syncs = [(cal, e) for cal, e in _events(final) if "quarterly sync" in (e.get("summary") or "").lower()]
    uids = sorted(e.get("uid") for _, e in syncs)
    if uids != ["evt-1"]:
        return False, f"expected exactly one 'Quarterly sync' event, evt-1; found {uids}"
    return True, "only evt-1 is the quarterly sync"


def check_reply_to_priya(initial, final, trace):
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    if len(sent) != 1:
        subjects = [m.get("subject") for m in sent]
        return False, f"{len(sent)} messages were sent ({subjects}); expected one reply to Priya"
    message = sent[0]
    people = _recipients(message)
    if PRIYA not in people:
        return False, f"the message went to {people}, not to {PRIYA}"
    others = sorted(set(people) - {PRIYA})
    if others:
        return False, f"the message also went to {others}; only Priya should get it"
    threaded = message.get("in_reply_to") == REQUEST_ID
    on_topic = "quarterly sync" in (message.get("subject") or "").lower()
    if not (threaded or on_topic):
        return False, f"the message neither answers {REQUEST_ID} nor is about the quarterly sync in its subject"
    return True, "one reply, to Priya only"


def check_reply_both_timezones(initial, final, trace):
    messages = _to_priya(final)
    if not messages:
        return False, "nothing was sent to Priya"
    problems = []
    for message in messages:
        body = message.get("body") or ""
        missing = []
        if not LONDON_TIME.search(body):
            missing.append("15:00 / 3 pm London time")
        if not SHANGHAI_TIME.search(body):
            missing.append("23:00 / 11 pm the user's time")
        if not THE_DAY.search(body + " " + (message.get("subject") or "")):
            missing.append("the day (Thursday 12 March)")
        days = {int(next(g for g in m.groups() if g)) for m in WRITTEN_DATE.finditer(body)}
        if days - {12}:
            missing.append(f"the right date (it gives March {sorted(days - {12})})")
        if not missing:
            return True, "the reply gives 15:00 London and 23:00 Shanghai on Thursday 12 March"
        problems.append(", ".join(missing))
    return False, "the reply does not mention " + "; ".join(problems)


def check_prep_reminder(initial, final, trace):
    old = {t.get("uid") for todos in (initial.get("reminders") or {}).values() for t in todos}
    new = [t for todos in (final.get("reminders") or {}).values() for t in todos if t.get("uid") not in old]
    if not new:
        return False, "no new reminder was created"
    about = [t for t in new if "agenda" in ((t.get("title") or "") + " " + (t.get("notes") or "")).lower()]
    if not about:
        return False, f"no new reminder mentions the agenda (new: {[t.get('title') for t in new]})"
    if len(new) > 1:
        return False, f"{len(new)} new reminders ({[t.get('title') for t in new]}); expected one"
    todo = about[0]
    if not (todo.get("title") or "").strip():
        return False, "the agenda reminder has no title: it would pop up blank"
    if todo.get("completed"):
        return False, "the agenda reminder is already marked done"
    due = todo.get("due")
    at = _instant(due)
    if at is None:
        kind = "a date without a time" if due and len(due) == 10 else "no due time"
        return False, f"the agenda reminder has {kind} ({due!r}); expected 2026-03-12T22:00+08:00"
    if at != REMIND_AT:
        return False, f"the agenda reminder is due {due}; expected one hour before the sync: 2026-03-12T22:00+08:00"
    return True, "agenda reminder due 22:00 Shanghai, an hour before the sync"
