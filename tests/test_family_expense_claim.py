"""expense-claim: the generated worlds hold every fact the claim needs where the family says (stage 2
runs them in tests/test_author_families.py), and the checks tell the usual mistakes of a claim apart:
the draft filed again, the replaced invoice, a meal over the cap, a receipt claimed twice."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft, inspect_params

SUBSETS = (None, [], ["hidden_dependency"], ["cross_source_conflict", "noisy_data"], ["entity_alignment"])


def _claims(draft: TaskDraft) -> list[dict[str, Any]]:
    return next(c.args["claims"] for c in draft.checks if c.id == "claims_filed")


def _ref(claim: dict[str, Any]) -> str:
    return re.sub(r"\(\?[<!]*\[\\w-\]\)|\\", "", claim["receipt"])


def _code(draft: TaskDraft) -> str:
    return re.search(r"[A-Z]{3}-\d{4}", next(c.description for c in draft.checks if c.id == "business_purpose")).group(
        0
    )


def _stated(draft: TaskDraft, item: str, pattern: str) -> str:
    """What the description of rubric item `item` states where `pattern` has its group."""
    return re.search(pattern, next(c.description for c in draft.checks if c.id == item)).group(1)


def _verdicts(draft: TaskDraft, final: dict[str, Any]) -> dict[str, bool]:
    initial = {"web": {"expenses": {"reports": draft.web["expenses"]["reports"]}}}
    out = {}
    for check in draft.checks:
        if check.helper.__name__ in ("expense_claims", "report_submitted"):
            given = {"initial": initial, "final": final}
            passed = {k: v for k, v in given.items() if k in inspect_params(check.helper)}
            out[check.id] = check.helper(**passed, **check.args)[0]
    return out


def _filed(draft: TaskDraft, claims: list[dict[str, Any]]) -> dict[str, Any]:
    """The portal after filing `claims` the way the solution does: the ride's draft completed, the rest new."""
    reports = copy.deepcopy(draft.web["expenses"]["reports"])
    started = next(r for r in reports if r["status"] == "draft")
    for n, claim in enumerate(claims):
        row = {
            "id": f"EXP-{1001 + n}",
            "date": claim["dates"][-1],
            "merchant": re.sub(r"\\(.)", r"\1", claim["merchant"]),
            "category": claim["category"],
            "amount": claim["amount"],
            "currency": claim["currency"],
            "description": f"{_code(draft)} client work",
            "receipt": _ref(claim),
            "status": "submitted",
            "submitted_at": draft.now,
        }
        if claim["merchant"] == re.escape(started["merchant"]) and claim["dates"] == [started["date"]]:
            row["id"] = started["id"]
            reports.remove(started)
        reports.append(row)
    return {"web": {"expenses": {"reports": sorted(reports, key=lambda r: r["id"])}}}


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("operators", SUBSETS)
def test_every_fact_of_the_claim_is_in_the_world_and_none_in_the_prompt(seed, operators):
    draft = generate("expense-claim", seed, operators=operators)
    inbox = "\n".join(m["body"] for m in draft.mail["INBOX"])
    claims = _claims(draft)
    assert 5 <= len(claims) <= 7
    for claim in claims:
        assert _ref(claim) in inbox
        if claim["category"] != "Meals":
            assert f"{claim['amount']:,.2f}" in inbox  # only meals differ from their receipt (the cap)
    code = _code(draft)
    trip = draft.calendar["Work"][0]
    request = next(m for m in draft.mail["INBOX"] if m["subject"].endswith(" expenses"))
    hidden = "hidden_dependency" in draft.operators
    assert (code in trip["description"], code in request["body"]) == (hidden, not hidden)
    assert not re.search(r"\d", draft.prompt) and code not in draft.prompt
    started = next(r for r in draft.web["expenses"]["reports"] if r["status"] == "draft")
    ride = next(c for c in claims if c["dates"] == [started["date"]] and c["category"] == "Transport")
    assert started["amount"] != ride["amount"] and started["category"] != "Transport" and "receipt" not in started


@pytest.mark.parametrize("seed", range(1, 5))
def test_the_checks_pass_a_right_claim_and_catch_the_usual_mistakes(seed):
    draft = generate("expense-claim", seed)
    claims = _claims(draft)
    assert all(_verdicts(draft, _filed(draft, claims)).values())

    # The ride filed as a new report, the draft left as it was.
    started = next(r for r in draft.web["expenses"]["reports"] if r["status"] == "draft")
    final = _filed(draft, claims)
    final["web"]["expenses"]["reports"] = [
        *(r for r in final["web"]["expenses"]["reports"] if r["id"] != started["id"]),
        {**next(r for r in final["web"]["expenses"]["reports"] if r["id"] == started["id"]), "id": "EXP-2001"},
        started,
    ]
    verdicts = _verdicts(draft, final)
    assert not verdicts["draft_completed"] and verdicts["claims_filed"]

    # The hotel claimed by the invoice the corrected one replaces.
    hotel = {**claims[0], "receipt": re.escape(_stated(draft, "corrected_invoice", r"replaced (INV-\d{4}-\d{4})"))}
    verdicts = _verdicts(draft, _filed(draft, [hotel, *claims[1:]]))
    assert not verdicts["claims_filed"] and not verdicts["corrected_invoice"]

    # The dinner at what it cost, over the policy's cap.
    dinner = next(c for c in draft.checks if c.id == "meal_capped").args["claims"][0]["receipt"]
    full = float(_stated(draft, "meal_capped", r"\(\D*([\d,]+\.\d\d)\)").replace(",", ""))
    verdicts = _verdicts(draft, _filed(draft, [{**c, "amount": full} if c["receipt"] == dinner else c for c in claims]))
    assert not verdicts["meal_capped"] and not verdicts["claims_filed"] and verdicts["claim_details"]

    # A receipt sent twice, filed twice; and everything right but left as drafts.
    twice = _filed(draft, [*claims, claims[-1]])
    assert not _verdicts(draft, twice)["claims_filed"]
    drafts = _filed(draft, claims)
    for report in drafts["web"]["expenses"]["reports"]:
        if report.get("submitted_at") == draft.now:
            report.update(status="draft", submitted_at=None)
    assert not any(_verdicts(draft, drafts).values())
