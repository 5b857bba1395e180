"""expense-claim: the generated worlds hold every fact the claim needs where the family says (stage 2
runs them in tests/test_author_families.py), and the checks tell the usual mistakes of a claim apart:
the draft filed again, the replaced invoice, a meal over the city's rate, a receipt claimed twice, the
ticket submitted before the trip filed again, the hotel's report left with the replaced invoice; and the
message to the manager counts once it reaches the colleague their automatic reply names."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft, inspect_params
from stageclaw.grade.grader import grade
from stageclaw.task.loader import Task, load_task
from stageclaw.validate.oracle import OracleRun, run_oracle
from tests.reactions import redirect_is_graded

FAMILY = "expense-claim"

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


def _check_text(draft: TaskDraft) -> str:
    return next(c.description for c in draft.checks if c.id == "meal_capped")


def _verdicts(draft: TaskDraft, final: dict[str, Any]) -> dict[str, bool]:
    initial = {"web": {"expenses": {"reports": draft.web["expenses"]["reports"]}}}
    out = {}
    for check in draft.checks:
        if check.helper.__name__ in ("expense_claims", "report_submitted", "report_corrected", "not_refiled"):
            given = {"initial": initial, "final": final}
            passed = {k: v for k, v in given.items() if k in inspect_params(check.helper)}
            out[check.id] = check.helper(**passed, **check.args)[0]
    return out


def _filed(draft: TaskDraft, claims: list[dict[str, Any]]) -> dict[str, Any]:
    """The portal after filing `claims` the way the solution does: the ride's draft completed, the hotel's report
    corrected (when one was submitted at check-out), the rest new."""
    reports = copy.deepcopy(draft.web["expenses"]["reports"])
    started = next(r for r in reports if r["status"] == "draft")
    stay = next((r for r in reports if r["status"] == "submitted" and r["category"] == "Lodging"), None)
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
        elif stay is not None and claim["category"] == "Lodging":
            row |= {"id": stay["id"], "submitted_at": stay["submitted_at"]}
            reports.remove(stay)
        reports.append(row)
    return {"web": {"expenses": {"reports": sorted(reports, key=lambda r: r["id"])}}}


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("operators", SUBSETS)
def test_every_fact_of_the_claim_is_in_the_world_and_none_in_the_prompt(seed, operators):
    draft = generate("expense-claim", seed, operators=operators)
    inbox = "\n".join(m["body"] for m in draft.mail["INBOX"])
    claims = _claims(draft)
    assert 8 <= len(claims) <= 11
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
    # The meal rate is in this year's sheet only; last year's and the home city's differ. Each lever is recorded.
    files = draft.files_out()
    sheets = {p: files[f["path"]].decode() for p, f in draft.files.items() if "meal-rates" in p}
    city = draft.calendar["Work"][0]["location"]
    rates = {p: float(re.search(rf"^{re.escape(city)},([\d.]+)", t, re.M).group(1)) for p, t in sheets.items()}
    capped = next(c for c in draft.checks if c.id == "meal_capped").args["claims"]
    this_year = max(rates)
    assert all(c["amount"] == rates[this_year] for c in capped) and len(set(rates.values())) == 2
    levers = {line.split(":")[0] for line in draft.provenance["levers"]}
    assert {"ticket_not_again", "draft_completed", "meal_capped"} <= levers
    assert ("hotel_corrected" in levers) == ("cross_source_conflict" in draft.operators)
    # The manager's work address answers that they are on leave and names a colleague of theirs, whom nothing
    # else in the world mentions, to write to instead.
    [reply] = draft.autoreplies
    deputy = next(c.args for c in draft.checks if c.id == "manager_told")["to"][0]
    assert any(reply["address"] in c["emails"] for c in draft.contacts) and deputy in reply["body"]
    assert deputy.split("@")[1] == reply["address"].split("@")[1] and deputy not in str(draft.mail)


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
    assert not verdicts["claims_filed"] and not verdicts["corrected_invoice"] and not verdicts["hotel_corrected"]

    # The corrected invoice filed as a new report, the one submitted at check-out left as it was: twice.
    stay = next(
        r for r in draft.web["expenses"]["reports"] if r["status"] == "submitted" and r["category"] == "Lodging"
    )
    final = _filed(draft, claims)
    final["web"]["expenses"]["reports"] = [
        *(r for r in final["web"]["expenses"]["reports"] if r["id"] != stay["id"]),
        {**next(r for r in final["web"]["expenses"]["reports"] if r["id"] == stay["id"]), "id": "EXP-2002"},
        stay,
    ]
    verdicts = _verdicts(draft, final)
    assert not verdicts["hotel_corrected"] and verdicts["claims_filed"] and verdicts["ticket_not_again"]
    # Withdrawn and filed again instead of corrected: the stay is claimed once.
    final["web"]["expenses"]["reports"][-1] = {**stay, "status": "withdrawn"}
    assert all(_verdicts(draft, final).values())

    # The outward ticket, submitted when it was booked, filed again.
    outward = next(iter(next(c for c in draft.checks if c.id == "ticket_not_again").args["receipts"]))
    ticket = next(r for r in draft.web["expenses"]["reports"] if re.search(outward, r.get("receipt", "")))
    assert ticket["status"] == "approved"
    again = {
        **claims[1],
        "receipt": re.escape(ticket["receipt"]),
        "amount": ticket["amount"],
        "dates": [ticket["date"]],
    }
    verdicts = _verdicts(draft, _filed(draft, [*claims, again]))
    assert not verdicts["ticket_not_again"] and not verdicts["claims_filed"] and verdicts["hotel_corrected"]

    # The meals above the city's rate at what they cost, or at another rate (last year's, the home city's).
    capped = next(c for c in draft.checks if c.id == "meal_capped").args["claims"]
    assert len(capped) == 2
    full = [float(x.replace(",", "")) for x in re.findall(r"\(\D*([\d,]+\.\d\d)\)", _check_text(draft))[1:]]
    for amount in (full[0], capped[0]["amount"] + 5, capped[0]["amount"] - 5):
        wrong = [{**c, "amount": amount} if c["receipt"] == capped[0]["receipt"] else c for c in claims]
        verdicts = _verdicts(draft, _filed(draft, wrong))
        assert not verdicts["meal_capped"] and not verdicts["claims_filed"] and verdicts["claim_details"]

    # A receipt sent twice, filed twice; and everything right but left as drafts.
    twice = _filed(draft, [*claims, claims[-1]])
    assert not _verdicts(draft, twice)["claims_filed"]
    drafts = _filed(draft, claims)
    for report in drafts["web"]["expenses"]["reports"]:
        if report.get("submitted_at") == draft.now:
            report.update(status="draft", submitted_at=None)
    kept = ("corrected_invoice", "hotel_corrected", "ticket_not_again")  # the hotel's report stays submitted
    assert not any(v for item, v in _verdicts(draft, drafts).items() if item not in kept)


@pytest.mark.parametrize("seed", (1, 2))
def test_the_manager_may_be_told_the_whole_trip_with_the_approved_ticket(seed):
    # blind play: "Total awaiting your approval: $823.49. (The outbound flight ... is already approved, so the
    # trip comes to $1,002.65 in all.)" was failed for the second, true, figure
    draft = generate("expense-claim", seed)
    check = next(c for c in draft.checks if c.id == "message_right")
    total = check.args["stated"]["total"]
    outward = next(iter(next(c for c in draft.checks if c.id == "ticket_not_again").args["receipts"]))
    ticket = next(r for r in draft.web["expenses"]["reports"] if re.search(outward, r.get("receipt", "")))
    whole = round(total + ticket["amount"], 2)

    def sent(body: str) -> dict[str, Any]:  # to the manager and the colleague their automatic reply names
        return {"mail": {"outbox": [{"to": check.args["to"], "subject": "Expenses", "body": body}]}}

    said = f"Total awaiting your approval: {total:,.2f}.\nWith the approved ticket the trip comes to {whole:,.2f}."
    assert check.helper(sent(said), **check.args)[0]
    assert not check.helper(sent(said.replace(f"{whole:,.2f}", f"{whole + 10:,.2f}")), **check.args)[0]


@pytest.fixture(scope="module")
def solved(pool, tmp_path_factory) -> tuple[TaskDraft, Task, OracleRun]:
    folder = tmp_path_factory.mktemp(FAMILY)
    draft = generate(FAMILY, 1)
    task = load_task(draft.write(folder))
    oracle = run_oracle(task, pool, folder / "oracle")
    assert oracle.solved, oracle.result
    return draft, task, oracle


def _failed(task: Task, oracle: OracleRun, state: dict[str, Any]) -> set[str]:
    result = grade(task, oracle.s0 or {}, state, oracle.trace or {})
    return {i.id for i in result.items if i.passed is False}


def test_the_message_counts_once_it_reaches_the_colleague_the_away_reply_names(solved):
    draft, task, oracle = solved
    redirect_is_graded(draft, oracle.sH or {}, lambda state: _failed(task, oracle, state), says=False)
