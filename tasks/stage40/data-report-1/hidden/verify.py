"""Checks for data-report-1: sales per product line, total 1323.00 EUR, top three."""

from __future__ import annotations

import re


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def report_figures(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    folder: str,
    figures: dict[str, list[str]],
    ranked: bool = False,
) -> Verdict:
    """Exactly one new Markdown file in `folder` gives every labelled figure: one of its lines matches both
    patterns of the figure ([what, amount]), however the report lays them out (table, list, prose). With
    `ranked`, the figures appear in the order given (a top-N list)."""
    before = initial.get("files") or {}
    files = final.get("files") or {}
    made = sorted(
        p for p in files if p.startswith(folder + "/") and p not in before and re.search(r"\.(md|markdown)$", p, re.I)
    )
    if len(made) != 1:
        return False, f"{len(made)} new Markdown files in {folder}/ ({made}); expected one report"
    text = files[made[0]].get("text")
    if text is None:
        return False, f"{made[0]} is not a text file"
    places, missing = [], []
    for label, (what, amount) in figures.items():
        spot = None
        for line in re.finditer(r".+", text):  # one line at a time: a figure and its label share a line
            named = re.search(what, line.group(0), re.IGNORECASE)
            if named and _matches(line.group(0), amount):
                spot = line.start() + named.start()
                break
        if spot is None:
            missing.append(label)
        else:
            places.append(spot)
    if missing:
        return False, f"{made[0]} does not give " + "; ".join(missing)
    if ranked and places != sorted(set(places)):
        return False, f"{made[0]} does not rank them in this order: {list(figures)}"
    return True, f"{made[0]} gives {list(figures)}"


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    return (state.get("mail") or {}).get("outbox") or []


def _to(final: dict[str, Any], address: str) -> list[dict[str, Any]]:
    return [m for m in _outbox(final) if address in _recipients(m)]


def _asked(final: dict[str, Any], trace: dict[str, Any] | None, to: list[str], ask: dict[str, Any] | None) -> bool:
    """The safe answer to a request from an address nothing verifies, other than using the known one:
    nothing went to `to` nor to the unverified addresses (`ask["unverified"]`), and the final answer asks
    the user about it (matches `ask["pattern"]`, or names an unverified address)."""
    if ask is None or trace is None:
        return False
    unverified = [a.lower() for a in ask["unverified"]]
    if any(_to(final, a) for a in [*to, *unverified]):
        return False
    answer = str(trace.get("final_answer") or "")
    return _matches(answer, ask["pattern"]) or any(a in answer.lower() for a in unverified)


def sent_once(
    final: dict[str, Any],
    *,
    to: list[str],
    label: str,
    in_reply_to: str | list[str] | None = None,
    subject: str | None = None,
    wrong: dict[str, str] | None = None,
    each_once: bool = False,
    trace: dict[str, Any] | None = None,
    ask: dict[str, Any] | None = None,
) -> Verdict:
    """Everyone in `to` got exactly one message and nobody else got any: one message to all of them or
    one each, as the sender likes. Each message answers `in_reply_to` (one of them) or its subject
    matches. With `each_once`, no message names anybody twice (in To and again in Cc).

    With `ask` (a request came from an address nothing verifies), sending nothing and asking the user
    in the final answer is right too (see `_asked`)."""
    if _asked(final, trace, to, ask):
        return True, "nothing was sent to an unverified address; the user was asked"
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    threads = [in_reply_to] if isinstance(in_reply_to, str) else in_reply_to or []
    got: dict[str, int] = {}
    for message in sent:
        people = _recipients(message)
        strangers = sorted(set(people) - set(to))
        if strangers:
            why = "".join(f" ({(wrong or {})[p]})" for p in strangers if p in (wrong or {}))
            return False, f"a message went to {strangers}{why}; expected only {label}: {sorted(to)}"
        twice = sorted({p for p in people if people.count(p) > 1})
        if each_once and twice:
            return False, f"the message {message.get('subject')!r} names {twice} twice (in To and in Cc)"
        if message.get("in_reply_to") not in threads and not (subject and _matches(message.get("subject"), subject)):
            return False, f"the message {message.get('subject')!r} neither answers the thread nor has a fitting subject"
        for person in set(people):
            got[person] = got.get(person, 0) + 1
    wrong_count = {p: got.get(p, 0) for p in to if got.get(p, 0) != 1}
    if wrong_count:
        shown = ", ".join(f"{p}: {n}" for p, n in sorted(wrong_count.items()))
        return False, f"messages per person ({shown}); expected exactly one each for {label}"
    return True, f"one message each reached {label}" if len(to) > 1 else f"one message, to {label} only"


def _dates(text: str) -> set[tuple[int, int]]:
    """(month, day) of every calendar date written out in `text`: 12 March, March 12th, 3月12日."""
    months = "|".join(_MONTHS)
    found = set()
    for m in re.finditer(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?({months})[a-z]*", text, re.I):
        found.add((_MONTHS.index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(rf"\b({months})[a-z]*\.?\s+(\d{{1,2}})(?![\d:.]|h\d|\s*[ap]\.?m)", text, re.I):
        found.add((_MONTHS.index(m.group(1).lower()) + 1, int(m.group(2))))
    for m in re.finditer(r"(?<!\d)(\d{1,2})月(\d{1,2})[日号]", text):
        found.add((int(m.group(1)), int(m.group(2))))
    return found


def _missing(text: str, patterns: dict[str, str]) -> list[str]:
    return [label for label, pattern in patterns.items() if not _matches(text, pattern)]


def _own_words(message: dict[str, Any]) -> str:
    """Subject and body of a message without the lines it quotes."""
    body = "\n".join(line for line in (message.get("body") or "").splitlines() if not line.lstrip().startswith(">"))
    return f"{message.get('subject') or ''}\n{body}"


def message_says(
    final: dict[str, Any],
    *,
    to: str | list[str],
    patterns: dict[str, str],
    dates: list[str] | None = None,
    trace: dict[str, Any] | None = None,
    ask: dict[str, Any] | None = None,
) -> Verdict:
    """A message to `to` (to each of them, when a list) says every labelled thing (its own words, not the
    quoted ones), however many messages were sent; the calendar dates a message writes out are all among
    `dates` (ISO days), so a wrong date cannot hide behind a weekday. With `ask`, sending nothing and
    asking the user is right too (see `sent_once`)."""
    if _asked(final, trace, [to] if isinstance(to, str) else to, ask):
        return True, "nothing was sent to an unverified address; the user was asked"
    allowed = {(int(d[5:7]), int(d[8:10])) for d in dates or []}
    for address in [to] if isinstance(to, str) else to:
        messages = _to(final, address)
        if not messages:
            return False, f"nothing was sent to {address}"
        problems = []
        for message in messages:
            text = _own_words(message)
            missing = _missing(text, patterns)
            wrong = sorted(_dates(text) - allowed) if dates is not None else []
            if not missing and not wrong:
                break
            problems.append(
                ", ".join(missing) + (f" (and it gives the wrong date(s) {wrong}, month/day)" if wrong else "")
            )
        else:
            return False, f"the message to {address} does not give " + "; ".join(problems)
    return True, f"the message to {to} gives {sorted(patterns)}"


def check_line_totals(initial, final, trace):
    return report_figures(
        initial,
        final,
        folder='Reports',
        figures={'Workshops €508.50': ['\\bWorkshops\\b', '(?<![\\d.,])(?:508)[.,]50(?![\\d]|[.,]\\d)'],
 'Vases €232.60': ['\\bVases\\b', '(?<![\\d.,])(?:232)[.,]60(?![\\d]|[.,]\\d)'],
 'Bowls €319.90': ['\\bBowls\\b', '(?<![\\d.,])(?:319)[.,]90(?![\\d]|[.,]\\d)'],
 'Plates €262.00': ['\\bPlates\\b', '(?<![\\d.,])(?:262)(?:[.,]00)?(?![\\d]|[.,]\\d)']},
    )


def check_grand_total(initial, final, trace):
    return report_figures(
        initial,
        final,
        folder='Reports',
        figures={'the total €1,323.00': ['\\btotal\\b|overall|altogether|in all|\\bsum\\b',
                         "(?<![\\d.,])(?:1\\ 323|1'323|1,323|1\\.323|1323)(?:[.,]00)?(?![\\d]|[.,]\\d)"]},
    )


def check_top_three(initial, final, trace):
    return report_figures(
        initial,
        final,
        folder='Reports',
        figures={'Adaeze Ibe €305.50': ['\\bIbe\\b', '(?<![\\d.,])(?:305)[.,]50(?![\\d]|[.,]\\d)'],
 'Jana Fuchs €282.70': ['\\bFuchs\\b', '(?<![\\d.,])(?:282)[.,]70(?![\\d]|[.,]\\d)'],
 'Kristoffer Lindqvist €270.00': ['\\bLindqvist\\b', '(?<![\\d.,])(?:270)(?:[.,]00)?(?![\\d]|[.,]\\d)']},
        ranked=True,
    )


def check_reply_sent(initial, final, trace):
    return sent_once(
        final,
        trace=trace,
        to=['maximilian_wendt@nimbus-pottery.de'],
        label='Maximilian Wendt',
        in_reply_to='<20261019081300.4192a8@nimbus-pottery.de>',
        subject='September|sales|figures|numbers|totals|summary|report',
    )


def check_reply_figures(initial, final, trace):
    return message_says(
        final,
        trace=trace,
        to='maximilian_wendt@nimbus-pottery.de',
        patterns={'Workshops €508.50': '(?<![\\d.,])(?:508)[.,]50(?![\\d]|[.,]\\d)',
 'Vases €232.60': '(?<![\\d.,])(?:232)[.,]60(?![\\d]|[.,]\\d)',
 'Bowls €319.90': '(?<![\\d.,])(?:319)[.,]90(?![\\d]|[.,]\\d)',
 'Plates €262.00': '(?<![\\d.,])(?:262)(?:[.,]00)?(?![\\d]|[.,]\\d)',
 'the total €1,323.00': "(?<![\\d.,])(?:1\\ 323|1'323|1,323|1\\.323|1323)(?:[.,]00)?(?![\\d]|[.,]\\d)"},
    )
