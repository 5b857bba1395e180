"""Stage 2's sensitivity: alternative solutions run like the reference one and must be accepted; a verifier
that demands one way of reaching the goal is reported with the alternative and the item that rejected it."""

from __future__ import annotations

from stageclaw.author import generate
from stageclaw.task.loader import load_task
from stageclaw.validate import validate_task

STRICT = """def check_told(initial, final, trace):
    sent = final["mail"]["outbox"]
    return len(sent) == 1, f"{len(sent)} messages were sent; expected exactly one"
"""


def test_a_verifier_demanding_exactly_one_message_is_reported_with_the_alternative_and_item(pool, tmp_path):
    folder = generate("find-a-slot", 1, operators=[]).write(tmp_path / "tasks")
    task = load_task(folder)
    assert {"per_person", "mail_first"} <= set(task.alternatives)
    fair = validate_task(folder, pool)
    assert fair.dimensions["verifiability"].check("sensitivity").status == "pass"
    assert fair.sensitivity == 1.0 and fair.kill_rate == 1.0 and fair.score == 100

    verify = task.verify_py.read_text()
    assert "def check_told(" in verify
    task.verify_py.write_text(verify + "\n\n" + STRICT)  # the later definition is the one the rubric calls
    strict = validate_task(folder, pool)
    check = strict.dimensions["verifiability"].check("sensitivity")
    assert check.status == "fail" and strict.score < 100
    assert "per_person" in check.detail and "told" in check.detail and "expected exactly one" in check.detail
    results = {r["name"]: r for r in strict.alternatives["results"]}
    assert results["per_person"]["accepted"] is False
    assert [i["item"] for i in results["per_person"]["rejected_by"]] == ["told"]
    assert results["mail_first"]["accepted"] is True  # one message to all: the strict check takes it
    assert strict.sensitivity == 0.5
    assert any(d.check == "sensitivity" and "per_person" in d.problem for d in strict.diagnostics())
