"""Checks for offsite-action-items.

Due dates are compared as days in the user's timezone (America/Mexico_City, UTC-6 all year since
2022); a reminder may be due on a date or at a time that day. Reminders are recognised by title.
"""

import re
from datetime import date, datetime, timedelta, timezone

LOCAL = timezone(timedelta(hours=-6))

DEPOSIT = r"deposit|anticipo"
HEADCOUNT = r"head\s*-?\s*count|dietary|final numbers|attendee|asistentes"
AGENDA = r"agenda"
BUDGET = r"budget|presupuesto"
NOT_MINE = r"\bbus\b|autob[uú]s|session|per[\s-]?diem|vi[aá]ticos|invite|invitaci[oó]n"

HEADCOUNT_OK = 29
HEADCOUNT_NAIVE = (33,)  # the "Yes" rows, counted without the latest-answer rule
HEADCOUNT_WORDS = (
    r"head\s*-?\s*count|attend\w*|coming|going|confirmed|people|guests|participants|rsvps?\b|asistentes|personas"
)
DIETARY = (
    ("vegetarian", r"vegetarian|veggie|vegetarian[oa]s?", 6),
    ("vegan", r"vegan[oa]?s?", 3),
    ("gluten-free", r"gluten|c[oe]?eliac|cel[ií]ac[oa]s?", 2),
    ("halal", r"halal", 2),
    ("nut allergy", r"\bnuts?\b|peanuts?|cacahuate", 1),
    ("lactose intolerant", r"lactose|lactosa|dairy", 1),
)
# The days a correct note may name: the offsite, the follow-up meeting, the four new due dates.
NOTE_DAYS = {(5, 14), (5, 15), (4, 6), (4, 14), (4, 23), (5, 8), (4, 10)}
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _todos(state):
    return [(name, t) for name, todos in (state.get("reminders") or {}).items() for t in todos]


def _todo(state, uid):
    return next((t for _, t in _todos(state) if t.get("uid") == uid), None)


def _due_day(due):
    if not due:
        return None
    try:
        if len(due) == 10:
            return date.fromisoformat(due)
        when = datetime.fromisoformat(due)
    except ValueError:
        return None
    return (when if when.tzinfo is None else when.astimezone(LOCAL)).date()


def _matches(todo, pattern, exclude=None):
    title = todo.get("title") or ""
    return bool(re.search(pattern, title, re.IGNORECASE)) and not (exclude and re.search(exclude, title, re.IGNORECASE))


def _one_open(final, label, pattern, expected, exclude=None, stale=None):
    """Exactly one open reminder for an action item, in Work, due on `expected`."""
    if stale is not None:
        old = _todo(final, stale)
        if old is not None and old.get("completed"):
            return False, f"the stale reminder {old.get('title')!r} was ticked off, but the {label} is not done"
    found = [(lst, t) for lst, t in _todos(final) if not t.get("completed") and _matches(t, pattern, exclude)]
    if not found:
        return False, f"no open reminder for the {label}"
    if len(found) > 1:
        shown = [f"{t.get('title')!r} due {t.get('due')} in {lst}" for lst, t in found]
        return False, f"{len(found)} open reminders for the {label} (a stale one left next to a new one?): {shown}"
    lst, todo = found[0]
    if lst != "Work":
        return False, f"the {label} reminder {todo.get('title')!r} is in the {lst!r} list, not in Work"
    day = _due_day(todo.get("due"))
    if day != expected:
        return False, f"the {label} reminder {todo.get('title')!r} is due {todo.get('due')}; expected {expected}"
    return True, f"the {label} reminder is due {expected}"


def check_deposit_reminder(initial, final, trace):
    return _one_open(final, "deposit", DEPOSIT, date(2026, 4, 14), stale="r-deposit")


def check_headcount_reminder(initial, final, trace):
    others = f"{DEPOSIT}|{AGENDA}|{BUDGET}"
    return _one_open(final, "headcount/dietary", HEADCOUNT, date(2026, 4, 23), exclude=others, stale="r-headcount")


def check_agenda_reminder(initial, final, trace):
    return _one_open(final, "agenda", AGENDA, date(2026, 5, 8))


def check_budget_reminder(initial, final, trace):
    return _one_open(final, "budget sheet", BUDGET, date(2026, 4, 10), exclude=f"{DEPOSIT}|{AGENDA}")


def check_only_my_items(initial, final, trace):
    before = {t.get("uid"): t for _, t in _todos(initial)}
    mine = (DEPOSIT, HEADCOUNT, AGENDA, BUDGET)
    for lst, todo in _todos(final):
        if todo.get("completed") or before.get(todo.get("uid")) == todo:
            continue
        title = todo.get("title") or ""
        if re.search(NOT_MINE, title, re.IGNORECASE) and not any(_matches(todo, p) for p in mine):
            return False, f"reminder {title!r} ({lst}) is someone else's or an already finished item"
        if not any(_matches(todo, p) for p in mine):
            return False, f"reminder {title!r} ({lst}) is not one of Tomás's open action items"
    return True, "only Tomás's four open action items were added or changed"


def _new_notes(initial, final):
    old = {n.get("uid") for notes in (initial.get("notes") or {}).values() for n in notes}
    return [n for notes in (final.get("notes") or {}).values() for n in notes if n.get("uid") not in old]


def _summary_text(initial, final):
    """The text of the one new note, or (None, why)."""
    notes = _new_notes(initial, final)
    if not notes:
        return None, "no new note was written"
    if len(notes) > 1:
        return None, f"{len(notes)} new notes ({[n.get('title') for n in notes]}); expected one"
    note = notes[0]
    return f"{note.get('title') or ''}\n{note.get('body') or ''}", ""


def check_note_headcount(initial, final, trace):
    text, why = _summary_text(initial, final)
    if text is None:
        return False, why
    near = _counts_near(text, HEADCOUNT_WORDS)
    naive = sorted(near & set(HEADCOUNT_NAIVE))
    if naive:
        return False, f"the note gives {naive} as the headcount: answers counted without keeping each person's latest"
    if HEADCOUNT_OK not in near:
        return False, f"the note does not give the headcount {HEADCOUNT_OK} (it gives {sorted(near) or 'none'})"
    return True, f"the note gives the headcount {HEADCOUNT_OK}"


def _counts_near(text, keyword):
    """Numbers written right before or after a mention of `keyword`, on the same line."""
    found = set()
    for line in text.splitlines():
        for match in re.finditer(keyword, line, re.IGNORECASE):
            before = re.search(r"(?<!\d)(\d+)[^\d\n]{0,30}$", line[: match.start()])
            after = re.match(r"[^\d\n]{0,30}?(\d+)(?!\d)", line[match.end() :])
            found.update(int(m.group(1)) for m in (before, after) if m)
    return found


def check_note_dietary(initial, final, trace):
    text, why = _summary_text(initial, final)
    if text is None:
        return False, why
    counts = _bound(_blank_dates(text), {label: keyword for label, keyword, _ in DIETARY}, COUNT)
    wrong = []
    for label, _, expected in DIETARY:
        given = sorted({int(n) for n in counts.get(label, [])})
        if given != [expected]:
            wrong.append(f"{label}: expected {expected}, the note has {given or 'no count'}")
    if wrong:
        return False, "; ".join(wrong)
    return True, "6 vegetarian, 3 vegan, 2 gluten-free, 2 halal, 1 nut allergy, 1 lactose intolerant"


# The decisions with a day or time, and what the note may say of them: the bus leaves at 07:00 on day 1
# (Thursday 14 May), the afternoon of day 2 (Friday 15 May) is free. The way back is another matter.
TOPICS = {
    "bus": r"\bbus\b|autob[uú]s|charter|coach",
    "afternoon": r"afternoon|tarde|(?<!gluten-)(?<!gluten )\bfree\b",
    "way back": r"\bback\b|\breturn\w*|regreso|vuelta",
}
CLOCK = r"(?<![\d:.,])\d{1,2}(?:[:.h]\d{2})?\s*[ap]\.?m\b\.?|(?<![\d:.,])\d{1,2}[:h]\d{2}(?!\d)"
DAY = r"\b(?:day|d[ií]a)\s*\d\b|\b1[45]\s+may\b|\bmay\s+1[45]\b|\b(?:thu|fri)\w*|\bjueves\b|\bviernes\b|\b2026-05-1[45]\b"
# A count: a whole number on its own, or with a times sign (2x); not part of 4,800, 07:00 or a code.
COUNT = r"(?<![\w.,:/-])\d{1,3}(?=\s*[x×]\b|(?![\w:/-]|[.,]\d))"


def _day(mention):
    """The day of the offsite a mention names: '1' (Thursday 14 May), '2' (Friday 15 May) or 'day N'."""
    said = mention.lower()
    if re.search(r"thu|jueves|\b14\b", said):
        return "1"
    if re.search(r"fri|viernes|\b15\b", said):
        return "2"
    return re.search(r"\d+", said).group(0)


def _clock(mention):
    """'7 am', '07:00', '7.00' as 'HH:MM'."""
    hour, minute = (int(n) for n in [*re.findall(r"\d+", mention), "0"][:2])
    half = re.search(r"([ap])\.?m", mention, re.IGNORECASE)
    if half:
        hour = hour % 12 + (12 if half.group(1).lower() == "p" else 0)
    return f"{hour:02d}:{minute:02d}"


def check_note_decisions(initial, final, trace):
    text, why = _summary_text(initial, final)
    if text is None:
        return False, why
    missing = []
    if not re.search(r"4[,.\s]?800|4\.8\s*k", text, re.IGNORECASE):
        missing.append("the MXN 4,800 per-person budget cap")
    times = {t: {_clock(c) for c in cs} for t, cs in _bound(text, TOPICS, CLOCK).items()}
    days = {t: {_day(d) for d in ds} for t, ds in _bound(text, TOPICS, DAY).items()}
    if times.get("bus") != {"07:00"} or days.get("bus", set()) - {"1"}:
        missing.append("the chartered bus at 07:00 on day 1")
    if days.get("afternoon") != {"2"}:
        missing.append("the free afternoon on day 2")
    if missing:
        return False, "the note does not record " + " and ".join(missing) + " (or gives another day or time)"
    return True, "the note records the budget cap, the bus and the free afternoon"


def _bound(text, topics, mention):
    """What `text` says of each topic (label -> regex): each match of `mention` belongs to the nearest topic
    named in its clause (a line, cut at sentence ends and semicolons), the nearest one between the same
    commas first. A clause that names no topic says nothing of any."""
    found = {}
    for clause in re.split(r"\n|;|(?<!\d)[.!?](?=\s|$)", text):
        named = [(m.start(), m.end(), t) for t, p in topics.items() for m in re.finditer(p, clause, re.IGNORECASE)]
        commas = [0, *(m.end() for m in re.finditer(r",(?=\s)", clause)), len(clause) + 1]
        for m in re.finditer(mention, clause, re.IGNORECASE):
            part = next((a, b) for a, b in zip(commas, commas[1:], strict=False) if a <= m.start() < b)
            near = [n for n in named if part[0] <= n[0] < part[1]] or named
            if near:
                topic = min(near, key=lambda n: n[0] - m.end() if n[0] >= m.end() else m.start() - n[1])[2]
                found.setdefault(topic, []).append(m.group(0))
    return found


def _dates(text):
    """(start, end, (month, day)) of each date the text writes out, both ends of a range (14 - 15 May) included."""
    months = "|".join(MONTHS)
    pattern = rf"(?<!\d)(\d{{1,2}})(?:\s*(?:-|–|to)\s*(?:[a-z]{{3,9}}\.?[^\S\n]+)?(\d{{1,2}}))?\.?[^\S\n]+({months})[a-z]*"
    for m in re.finditer(pattern, text, re.IGNORECASE):
        month = MONTHS.index(m.group(3).lower()) + 1
        yield from ((m.start(), m.end(), (month, int(d))) for d in m.group(1, 2) if d)
    for m in re.finditer(rf"\b({months})[a-z]*\.?[^\S\n]+(\d{{1,2}})(?![\d:])", text, re.IGNORECASE):
        yield m.start(), m.end(), (MONTHS.index(m.group(1).lower()) + 1, int(m.group(2)))
    for m in re.finditer(r"(?<![\d-])\d{4}-(\d{2})-(\d{2})(?!\d)", text):
        yield m.start(), m.end(), (int(m.group(1)), int(m.group(2)))


def _blank_dates(text):
    """`text` with its dates blanked out: the day of a date is not a count."""
    for start, end, _ in list(_dates(text)):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def check_note_dates(initial, final, trace):
    text, why = _summary_text(initial, final)
    if text is None:
        return False, why
    wrong = sorted({day for _, _, day in _dates(text)} - NOTE_DAYS)
    if wrong:
        return False, f"the note gives dates that are none of the offsite's, the meeting's or the deadlines: {wrong}"
    return True, "every date in the note is right"
