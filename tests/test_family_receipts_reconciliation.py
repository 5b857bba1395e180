"""receipts-reconciliation on the real servers: the reference and its alternatives score 100, an operator subset
is accepted by stage 2 with every mutant killed, and the mistakes the scenario invites (the receipt's euros
for a payment abroad, a double charge or a refund marked matched, a payment with no receipt given someone
else's, the follow-up counted through the holidays, the shop's mail to the wrong address, a reissued receipt's
cancelled number, the receipt the partner forwarded missed, the month's reminder left open) are each rejected;
so are the greedy matching of the café's and the bakery's receipts (each in date order to the first line that
fits) and the receipt paid with the other card at the same counter. The shop's automatic reply sends billing
queries to another of its addresses: the mail about the double charge counts once it reaches that one."""

from __future__ import annotations

import copy
import csv
import io
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author import verifylib as v
from stageclaw.author.draft import TaskDraft
from stageclaw.grade.grader import grade
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import Task, load_task
from stageclaw.validate import validate_path
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.world.workspace import file_state
from tests.reactions import redirect_is_graded

FAMILY = "receipts-reconciliation"


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
    return {i.id for i in result.items if i.passed is False} | ({"collateral"} if result.collateral else set())


def _sheet(draft: TaskDraft) -> str:
    return next(c.args["path"] for c in draft.checks if c.id == "no_strays")


def _rows(state: dict[str, Any], path: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(state["files"][path]["text"])))


def _write(state: dict[str, Any], path: str, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    state["files"][path] = file_state(out.getvalue().encode())


def _row_of(draft: TaskDraft, twist: str) -> Any:
    return next(c for c in draft.checks if c.id.startswith("row_") and twist in c.description)


def test_every_seed_builds_the_same_bytes_with_its_twists():
    regions = set()
    for seed in range(1, 9):
        draft = generate(FAMILY, seed)
        rows = [c for c in draft.checks if c.id.startswith("row_")]
        assert 17 <= len(rows) <= 27, len(rows)
        statuses = sorted(s for c in rows for s in c.args["statuses"])
        assert statuses.count("double charge") == 1 and statuses.count("refunded") == 2 and "no receipt" in statuses
        assert any(" EUR " in c.description for c in rows)
        levers = draft.evidence["tool_state_update"]["levers"]
        assert sorted(t[0] for t in levers) == ["B", "C", "E", "F", "G", "J", "K", "R"]
        assert sum(len(c.args.get("stated", {}).get("codes", [])) == 2 for c in rows) == 1  # one reissued receipt
        regions.add(draft.timezone.split("/")[0])
    assert regions == {"Europe", "America"}
    assert generate(FAMILY, 6).files_out() == generate(FAMILY, 6).files_out()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_joint_matching_is_unique_and_the_greedy_walk_fails(seed):
    """stage40's seeds: five linked choices, all 120 matchings enumerated, one fits; the greedy walk gets stuck."""
    draft = generate(FAMILY, seed)
    joint = draft.evidence["tool_state_update"]["joint"]
    assert joint["choices"] >= 4 and joint["enumerated"] == 120 and joint["valid"] == 1
    assert "none" in joint["greedy"].values()
    rows = {c.id: c for c in draft.checks}
    truth = {item: re.sub(r"\\", "", rows[item].args["receipt"]) for item in joint["greedy"]}
    assert truth != joint["greedy"]
    assert set(joint["greedy"].values()) - {"none"} <= set(truth.values())


def test_the_joint_solver_counts_matchings_and_sees_the_dead_end():
    from stageclaw.author.families.receipts_reconciliation import joint_solve

    d = date(2026, 3, 2)
    receipts = [("Cafe", Decimal("3.85"), d), ("Bakery", Decimal("3.85"), d + timedelta(days=1))]
    lines = [(d + timedelta(days=1), "ACME LTD", Decimal("3.85")), (d + timedelta(days=3), "SQ *CAFE", Decimal("3.85"))]
    solved = joint_solve(receipts, lines, "Cafe")
    assert solved["valid"] == [(1, 0)] and solved["greedy"] == [0, None] and solved["stuck"] == 1
    lines[1] = (d + timedelta(days=3), "ACME LTD", Decimal("3.85"))  # both names the registered one: two fit
    assert len(joint_solve(receipts, lines, "Cafe")["valid"]) == 2


def _row_for(check: Any, rows: list[list[str]]) -> list[str]:
    """The sheet's row a row item grades (its date and amount)."""
    [row] = [
        r
        for r in rows[1:]
        if re.search(check.args["date"], " ".join(r)) and abs(float(r[2])) == pytest.approx(check.args["amount"])
    ]
    return row


def test_the_greedy_matching_carried_out_fails_the_joint_rows(solved):
    draft, task, oracle = solved
    path, greedy = _sheet(draft), draft.evidence["tool_state_update"]["joint"]["greedy"]
    checks = {c.id: c for c in draft.checks}
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    for item, number in greedy.items():
        row = _row_for(checks[item], rows)
        row[3], row[4] = number, "matched" if number != "none" else "no receipt"
    _write(state, path, rows)
    failed = _failed(task, oracle, state)
    wrong = {item for item, number in greedy.items() if number != re.sub(r"\\", "", checks[item].args["receipt"])}
    assert failed == wrong and len(wrong) >= 2, failed


def test_the_other_cards_receipt_at_the_same_counter_fails(solved):
    draft, task, oracle = solved
    lever = next(t for t in draft.evidence["tool_state_update"]["levers"] if t.startswith("K:"))
    item, number = re.search(r"\((row_[^)]+)\)", lever).group(1), re.search(r"receipt (\S+) of", lever).group(1)
    path = _sheet(draft)
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    _row_for(next(c for c in draft.checks if c.id == item), rows)[3] = number
    _write(state, path, rows)
    assert _failed(task, oracle, state) == {item}


def test_the_alternatives_score_100(solved, pool, tmp_path):
    _draft, task, oracle = solved
    assert len(oracle.trace["steps"]) >= 25
    assert sorted(task.alternatives) == ["as_printed", "new_message"]
    for name in task.alternatives:
        result = run_episode(pool, task, f"oracle:{name}", 1, tmp_path / name)
        assert result["score"] == 100 and result["success"], (name, result)


@pytest.mark.stage2
def test_a_subset_of_the_operators_is_accepted_with_every_mutant_killed(pool, tmp_path):
    generate(FAMILY, 2, operators=["noisy_data"]).write(tmp_path)
    [report] = validate_path(tmp_path, pool)
    assert report.score == 100, [d.problem for d in report.diagnostics()]
    assert report.kill_rate == 1.0, report.mutation["survivors"]


def test_the_receipts_euros_instead_of_the_statements_amount_fails(solved):
    draft, task, oracle = solved
    path, check = _sheet(draft), _row_of(draft, " EUR ")
    foreign = re.search(r"EUR (\d+\.\d\d)", check.description).group(1)
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    row = next(r for r in rows if "EUR" in " ".join(r))
    row[2] = f"-{foreign}"
    _write(state, path, rows)
    assert _failed(task, oracle, state) == {check.id, "no_strays"}


@pytest.mark.parametrize("status", ["double charge", "refunded"])
def test_a_double_charge_or_a_refund_marked_matched_fails(solved, status):
    draft, task, oracle = solved
    path = _sheet(draft)
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    for row in rows:
        if row[-1] == status:
            row[-1] = "matched"
    _write(state, path, rows)
    failed = _failed(task, oracle, state)
    flagged = [c.id for c in draft.checks if c.id.startswith("row_") and status in c.args["statuses"]]
    assert failed == set(flagged) and flagged, failed


def test_a_payment_without_a_receipt_given_another_ones_fails(solved):
    draft, task, oracle = solved
    path, check = _sheet(draft), _row_of(draft, "no receipt")
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    stranger = next(r[3] for r in rows[1:] if r[3] != "none")
    row = next(r for r in rows if r[-1] == "no receipt")
    row[3], row[-1] = stranger, "matched"
    _write(state, path, rows)
    assert check.id in _failed(task, oracle, state)


def test_the_follow_up_counted_through_the_holidays_fails(solved):
    draft, task, oracle = solved
    check = next(c for c in draft.checks if c.id == "follow_up")
    today = datetime.fromisoformat(draft.now).date()
    naive, days = today, int(re.search(r"(\d) working days", check.description).group(1))
    while days:
        naive += timedelta(days=1)
        days -= naive.weekday() < 5  # weekends skipped, public holidays forgotten
    assert naive != date.fromisoformat(check.args["due"])
    state = copy.deepcopy(oracle.sH)
    [reminder] = [r for r in state["reminders"]["Reminders"] if re.search(check.args["pattern"], r["title"])]
    reminder["due"] = naive.isoformat() + reminder["due"][10:]
    assert _failed(task, oracle, state) == {"follow_up"}


def test_the_shops_mail_to_another_address_fails(solved):
    _draft, task, oracle = solved
    state = copy.deepcopy(oracle.sH)
    sent = {m["message_id"] for m in state["mail"]["outbox"]}
    for message in [*state["mail"]["outbox"], *state["mail"]["folders"]["Sent"]]:
        if message["message_id"] in sent:
            message["to"] = [re.sub(r"^[^@<]+@", "orders@", a.split("<")[-1].rstrip(">")) for a in message["to"]]
    assert _failed(task, oracle, state) == {"double_charge_mail"}


def test_another_receipt_number_in_one_of_a_double_charges_rows_fails(solved):
    draft, task, oracle = solved
    path, check = _sheet(draft), _row_of(draft, "double charge")
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    ours = re.sub(r"\\", "", check.args["receipt"])
    stranger = next(r[3] for r in rows[1:] if r[3] not in ("none", ours))
    row = next(r for r in rows if r[3] == ours)  # the other row of the pair still names the right one
    row[3] = stranger
    _write(state, path, rows)
    assert check.id in _failed(task, oracle, state)


def _chases(state: dict[str, Any], addresses: list[str]) -> list[dict[str, Any]]:
    """The messages sent to any of `addresses` ("Name <address>" or the bare address)."""
    return [
        m for m in state["mail"]["outbox"] if any(a.split("<")[-1].rstrip(">").lower() in addresses for a in m["to"])
    ]


@pytest.mark.parametrize("where", ["to", "tried"])
def test_another_day_in_the_chase_or_in_its_first_mail_fails(solved, where):
    """The mail the shop's billing address got, or the first one its automatic reply answered, gives a day that is
    neither the purchase's nor a charge's."""
    draft, task, oracle = solved
    args = next(c for c in draft.checks if c.id == "double_charge_mail").args
    state = copy.deepcopy(oracle.sH)
    [chase] = _chases(state, [args["to"]] if where == "to" else args["tried"])
    day = date.fromisoformat(args["stated"]["dates"][0]) - timedelta(days=3)
    chase["body"] = f"I first noticed it on {day.day} {day:%B} {day.year}.\n\n{chase['body']}"
    assert _failed(task, oracle, state) == {"double_charge_mail"}


def test_the_chase_counts_once_it_reaches_the_address_the_shops_automatic_reply_names(solved):
    draft, task, oracle = solved
    redirect_is_graded(draft, oracle.sH or {}, lambda state: _failed(task, oracle, state))


def test_whichever_address_of_the_shop_the_user_writes_to_answers_with_the_same_address():
    """The contact address on the receipt answers, and where the receipt came by mail, so does the mailbox a reply
    to it goes to (the note allows either): both name one billing address of the shop's own domain."""
    for seed in range(1, 9):
        draft = generate(FAMILY, seed)
        args = next(c for c in draft.checks if c.id == "double_charge_mail").args
        replies = {r["address"]: r for r in draft.autoreplies}
        assert list(replies) == args["tried"] and args["to"] not in replies
        assert all(args["to"] in r["body"] for r in replies.values())
        assert {a.split("@")[1] for a in [*replies, args["to"]]} == {args["to"].split("@")[1]}
        mailed = [m for m in draft.mail["INBOX"] if args["tried"][0] in m["from"]]
        assert len(replies) == (2 if mailed else 1) and args["tried"][-1].startswith("help@")


def _lever(draft: TaskDraft, letter: str) -> str:
    """The row item that grades the planted lever `letter` (as the task's provenance names it)."""
    text = next(t for t in draft.evidence["tool_state_update"]["levers"] if t.startswith(f"{letter}:"))
    return re.search(r"\((row_[^)]+)\)", text).group(1)


def test_the_cancelled_number_of_a_reissued_receipt_fails_unless_beside_the_new_one(solved):
    draft, task, oracle = solved
    path, item = _sheet(draft), _lever(draft, "F")
    check = next(c for c in draft.checks if c.id == item)
    new, old = check.args["stated"]["codes"]
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    row = next(r for r in rows if r[3] == new)
    row[3] = old
    _write(state, path, rows)
    assert _failed(task, oracle, state) == {item}
    row[3] = f"{new} (reissued; was {old})"  # the history beside the right number is harmless
    _write(state, path, rows)
    assert _failed(task, oracle, state) == set()


def test_the_forwarded_receipt_missed_fails(solved):
    draft, task, oracle = solved
    path, item = _sheet(draft), _lever(draft, "G")
    number = re.sub(r"\\", "", next(c for c in draft.checks if c.id == item).args["receipt"])
    state = copy.deepcopy(oracle.sH)
    rows = _rows(state, path)
    row = next(r for r in rows if r[3] == number)
    row[3], row[-1] = "none", "no receipt"
    _write(state, path, rows)
    assert _failed(task, oracle, state) == {item}


def test_the_months_reminder_left_open_fails(solved):
    draft, task, oracle = solved
    uid = next(c for c in draft.checks if c.id == "reminder_ticked").args["uid"]
    state = copy.deepcopy(oracle.sH)
    todo = next(r for r in state["reminders"]["Reminders"] if r["uid"] == uid)
    todo["completed"] = False
    assert _failed(task, oracle, state) == {"reminder_ticked"}


def test_the_receipts_mailbox_takes_only_a_reply_to_its_receipt_the_first_mail_too():
    """A receipt that came by mail (seed 2's): a reply to it, then on to the billing address, passes; the same
    words as a new message to the receipts mailbox do not, though it answers too and the billing address got
    them."""
    draft = generate(FAMILY, 2)
    check = next(c for c in draft.checks if c.id == "double_charge_mail")
    args = check.args
    [(mailbox, receipt)] = args["replies"].items()
    assert mailbox == args["tried"][0]
    number = re.sub(r"\\", "", args["says"]["the receipt number"])
    amount = next(c.args["amount"] for c in draft.checks if "double charge" in c.args.get("statuses", []))
    charged = next(
        text
        for on in args["stated"]["dates"]
        if re.search(args["says"]["the date"], text := f"{date.fromisoformat(on):%d %B %Y}")
    )
    body = f"Hello,\n\nReceipt {number}: {amount:.2f} was charged twice on {charged}. Please refund one.\n"
    me = f"{draft.user['name']} <{draft.user['email']}>"
    first = {"from": me, "to": [mailbox], "subject": f"Re: receipt {number}", "body": body, "in_reply_to": receipt}
    on = {"from": me, "to": [args["to"]], "subject": "Charged twice", "body": body, "in_reply_to": None}
    state = {"mail": {"outbox": [first, on]}}
    assert v.sent_alone(state, **args)[0]
    first["in_reply_to"] = None
    passed, why = v.sent_alone(state, **args)
    assert not passed and "takes only replies" in why
