"""Checks for expense-claim-1-ea-hd-tsu: 7 expenses of the Denver trip, total $780.54."""

from __future__ import annotations

import re


def _matches(text: Any, pattern: str | None) -> bool:
    return pattern is None or bool(re.search(pattern, text or "", re.IGNORECASE))


def filed(initial: dict[str, Any], final: dict[str, Any], *, message_ids: list[str], folder: str) -> Verdict:
    """Each message in `message_ids` is in `folder` and nowhere else."""
    folders = (final.get("mail") or {}).get("folders") or {}
    for message_id in message_ids:
        places = sorted(name for name, msgs in folders.items() for m in msgs if m.get("message_id") == message_id)
        if places != [folder]:
            return False, f"the message {message_id} is in {places or 'no folder'}; expected only in {folder!r}"
    return True, f"{len(message_ids)} messages are filed in {folder!r}"


def _claim_differs(report: dict[str, Any], claim: dict[str, Any], field: str) -> str | None:
    """What is wrong with one field of the report filed for `claim`, or None."""
    if field == "amount":
        ok = report.get("amount") is not None and round(report["amount"], 2) == round(claim["amount"], 2)
    elif field == "date":
        ok = report.get("date") in claim["dates"]
    elif field in ("merchant", "description"):
        ok = _matches(report.get(field), claim[field])
    else:
        ok = report.get(field) == claim[field]
    shown = claim["dates"] if field == "date" else claim[field]
    return None if ok else f"{field} {report.get(field)!r} (expected {shown!r})"


def _submitted(report: dict[str, Any]) -> bool:
    """Sent for approval: the portal stamps the time when it takes a report."""
    return report.get("status") == "submitted" and bool(report.get("submitted_at"))


def _expense_reports(state: dict[str, Any]) -> list[dict[str, Any]]:
    return ((state.get("web") or {}).get("expenses") or {}).get("reports") or []


def expense_claims(
    initial: dict[str, Any],
    final: dict[str, Any],
    *,
    claims: list[dict[str, Any]],
    fields: list[str],
    complete: bool = True,
    wrong: dict[str, str] | None = None,
) -> Verdict:
    """Each of `claims` was filed exactly once and submitted, agreeing on `fields`; with `complete`, nothing else.

    A claim is found by its receipt reference (`receipt`, a pattern); the reports that count are
    those new or changed in the episode, except the ones withdrawn again. `wrong` explains a
    receipt pattern that should not have been claimed (a replaced invoice, a personal purchase)."""
    before = {r.get("id"): r for r in _expense_reports(initial)}
    filed = [r for r in _expense_reports(final) if before.get(r.get("id")) != r and r.get("status") != "withdrawn"]
    claimed: set[Any] = set()
    for claim in claims:
        found = [r for r in filed if _matches(r.get("receipt"), claim["receipt"])]
        claimed.update(r.get("id") for r in found)
        if len(found) != 1:
            ids = [r.get("id") for r in found]
            return False, f"{claim['what']} was filed {len(found)} times {ids}; expected once"
        report = found[0]
        if not _submitted(report):
            return False, f"{report.get('id')}, for {claim['what']}, is {report.get('status')}, not submitted"
        problems = [p for p in (_claim_differs(report, claim, f) for f in fields) if p]
        if problems:
            return False, f"the report for {claim['what']} ({report.get('id')}) has " + "; ".join(problems)
    extra = [r for r in filed if r.get("id") not in claimed]
    if complete and extra:
        why = [
            f"{r.get('id')} ({r.get('merchant')}, {r.get('amount')}"
            + "".join(f": {reason}" for pattern, reason in (wrong or {}).items() if _matches(r.get("receipt"), pattern))
            + ")"
            for r in extra
        ]
        return False, "reports were filed that are not among the expenses to claim: " + ", ".join(why)
    return True, f"{len(claims)} expense(s) filed once each and submitted, {', '.join(fields)} right"


def report_submitted(final: dict[str, Any], *, report: str, receipt: str, amount: float, label: str) -> Verdict:
    """The existing report `report` was completed (receipt `receipt`, `amount`) and submitted, not replaced."""
    row = next((r for r in _expense_reports(final) if r.get("id") == report), None)
    if row is None:
        return False, f"the draft {report} for {label} was deleted instead of being completed"
    if not _submitted(row):
        return False, f"{report} ({label}) is {row.get('status')}, not submitted"
    if not _matches(row.get("receipt"), receipt) or round(row.get("amount") or 0, 2) != round(amount, 2):
        return False, f"{report} holds receipt {row.get('receipt')!r} and {row.get('amount')}, not {label} at {amount}"
    return True, f"{report} ({label}) was completed and submitted"


def _address(value: Any) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _recipients(message: dict[str, Any]) -> list[str]:
    return [_address(a) for a in (message.get("to") or []) + (message.get("cc") or [])]


def _outbox(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages the agent sent, without the calendar's invitations."""
    return [m for m in (state.get("mail") or {}).get("outbox") or [] if not m.get("invitation")]


def sent_once(
    final: dict[str, Any],
    *,
    to: list[str],
    label: str,
    in_reply_to: str | None = None,
    subject: str | None = None,
    wrong: dict[str, str] | None = None,
    each_once: bool = False,
) -> Verdict:
    """Exactly one message was sent, to exactly `to`; it answers `in_reply_to` or its subject matches.
    With `each_once` (a mail to a group), nobody is named twice, in To and again in Cc."""
    sent = _outbox(final)
    if not sent:
        return False, "no message was sent"
    if len(sent) != 1:
        return False, f"{len(sent)} messages were sent ({[m.get('subject') for m in sent]}); expected one"
    people = _recipients(sent[0])
    if sorted(set(people)) != sorted(to):
        why = [f" ({(wrong or {})[p]})" for p in people if p in (wrong or {})]
        return False, f"the message went to {people}{''.join(why)}; expected {label}: {sorted(to)}"
    twice = sorted({p for p in people if people.count(p) > 1})
    if each_once and twice:
        return False, f"the message names {twice} twice (in To and in Cc)"
    threaded = in_reply_to is not None and sent[0].get("in_reply_to") == in_reply_to
    if not threaded and (subject is None or not _matches(sent[0].get("subject"), subject)):
        return False, f"the message {sent[0].get('subject')!r} neither answers {in_reply_to} nor has a fitting subject"
    return True, f"one message, to {label} only"


CLAIMS = [{'what': 'the hotel stay at Harbor House Hotel (invoice INV-2026-6547)',
  'receipt': '(?<![\\w-])INV\\-2026\\-6547(?![\\w-])',
  'amount': 192.0,
  'dates': ['2026-03-03', '2026-03-04', '2026-03-05'],
  'currency': 'USD',
  'category': 'Lodging',
  'merchant': 'Harbor\\ House\\ Hotel',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the Summit Airlines ticket ZFT6T6 (2026-03-03)',
  'receipt': '(?<![\\w-])ZFT6T6(?![\\w-])',
  'amount': 131.88,
  'dates': ['2026-03-03'],
  'currency': 'USD',
  'category': 'Travel',
  'merchant': 'Summit\\ Airlines',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the Summit Airlines ticket FLHWZL (2026-03-05)',
  'receipt': '(?<![\\w-])FLHWZL(?![\\w-])',
  'amount': 332.58,
  'dates': ['2026-03-05'],
  'currency': 'USD',
  'category': 'Travel',
  'merchant': 'Summit\\ Airlines',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the CityHop Cars ride (RC-327464)',
  'receipt': '(?<![\\w-])RC\\-327464(?![\\w-])',
  'amount': 36.39,
  'dates': ['2026-03-03'],
  'currency': 'USD',
  'category': 'Transport',
  'merchant': 'CityHop\\ Cars',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the CityHop Cars ride (RC-700397)',
  'receipt': '(?<![\\w-])RC\\-700397(?![\\w-])',
  'amount': 24.93,
  'dates': ['2026-03-05'],
  'currency': 'USD',
  'category': 'Transport',
  'merchant': 'CityHop\\ Cars',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the meal at Café Kojo (R-92985)',
  'receipt': '(?<![\\w-])R\\-92985(?![\\w-])',
  'amount': 40.0,
  'dates': ['2026-03-04'],
  'currency': 'USD',
  'category': 'Meals',
  'merchant': 'Café\\ Kojo',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'},
 {'what': 'the meal at Café Akosua (R-34158)',
  'receipt': '(?<![\\w-])R\\-34158(?![\\w-])',
  'amount': 22.76,
  'dates': ['2026-03-03'],
  'currency': 'USD',
  'category': 'Meals',
  'merchant': 'Café\\ Akosua',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'}]


def check_claims_filed(initial, final, trace):
    return expense_claims(initial, final, claims=CLAIMS, fields=['amount'], wrong={})


def check_claim_details(initial, final, trace):
    return expense_claims(
        initial,
        final,
        claims=CLAIMS,
        fields=['date', 'merchant', 'category', 'currency'],
        complete=False,
    )


def check_business_purpose(initial, final, trace):
    return expense_claims(initial, final, claims=CLAIMS, fields=['description'], complete=False)


def check_meal_capped(initial, final, trace):
    return expense_claims(
        initial,
        final,
        claims=[{'what': 'the meal at Café Kojo (R-92985)',
  'receipt': '(?<![\\w-])R\\-92985(?![\\w-])',
  'amount': 40.0,
  'dates': ['2026-03-04'],
  'currency': 'USD',
  'category': 'Meals',
  'merchant': 'Café\\ Kojo',
  'description': '(?<![\\w-])WAY\\-9288(?!\\d)'}],
        fields=['amount'],
        complete=False,
    )


def check_draft_completed(initial, final, trace):
    return report_submitted(
        final,
        report='EXP-0735',
        receipt='(?<![\\w-])RC\\-327464(?![\\w-])',
        amount=36.39,
        label='the ride',
    )


def check_manager_told(initial, final, trace):
    return sent_once(
        final,
        to=['lprescott@outlook.com'],
        label='Lottie Prescott',
        in_reply_to='<ea76f390-87ed-44d8-c9b8c98fa875@outlook.com>',
        subject='expense|claim|Denver',
        wrong={'charlottep@fernhill-studio.com': 'their work address; they asked for replies at the personal one'},
    )
