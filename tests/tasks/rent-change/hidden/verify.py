"""Checks for rent-change: the note's rent line gives €1,250, its total line €1,385, and the other costs
stay as they were."""

import re

NOTE = "n-fixed-costs"
FIGURE = re.compile(r"(?<![\d.,])\d{1,3}(?:[,.\s]\d{3})*(?:[.,]\d{2})?(?![\d])")


def _note(state):
    for notes in (state.get("notes") or {}).values():
        for note in notes:
            if note.get("uid") == NOTE:
                return note
    return None


def _euros(figure):
    """'1,250', '1.250' or '1,250.00' as 1250, and '1,250.50' as 1250.5: cents count."""
    cents = re.search(r"[.,](\d{2})$", figure) if len(figure) > 3 else None
    whole = int(re.sub(r"\D", "", figure[: cents.start()] if cents else figure))
    return whole + int(cents.group(1)) / 100 if cents else whole


def _figures(body, label):
    """The amounts on the lines of the note that name `label` (the parking rent is not the rent)."""
    found = []
    for line in (body or "").splitlines():
        if re.search(label, line, re.IGNORECASE) and not re.search(r"parking", line, re.IGNORECASE):
            found += [_euros(f) for f in FIGURE.findall(line)]
    return found


def _line(final, label, expected):
    note = _note(final)
    if note is None:
        return False, "the fixed-costs note is gone"
    found = _figures(note.get("body"), label)
    if found != [expected]:
        return False, f"the {label} line gives {found or 'nothing'}; expected {expected}"
    return True, f"the {label} line gives {expected}"


def check_rent(initial, final, trace):
    return _line(final, "rent", 1250)


def check_total(initial, final, trace):
    return _line(final, "total", 1385)


def check_kept(initial, final, trace):
    for label, expected in (("electricity", 95), ("internet", 40)):
        ok, why = _line(final, label, expected)
        if not ok:
            return ok, why
    return True, "electricity €95 and internet €40 as before"
