"""Stage 2's sensitivity: alternative solutions run like the reference one and must be accepted; a verifier
that demands one way of reaching the goal is reported with the alternative and the item that rejected it."""

from __future__ import annotations

import shutil

from stageclaw.author import generate
from stageclaw.task.loader import load_task
from stageclaw.validate import validate_task
from tests.conftest import EXAMPLE

STRICT = """def check_told(initial, final, trace):
    sent = [m for m in final["mail"]["outbox"] if not m.get("invitation")]  # invitations are by-products
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


CHATTY = '''"""The reference way, with a note on the reminder that the checks do not read."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def solve(tools):
    found = tools.mail_search(sender="priya", subject="quarterly sync")["messages"]
    request = tools.mail_read(id=found[0]["id"])
    here = ZoneInfo(tools.now()["timezone"])
    start = datetime(2026, 3, 12, 15, 0, tzinfo=ZoneInfo("Europe/London")).astimezone(here)
    events = tools.calendar_list_events(start="2026-03-09", end="2026-03-15", query="quarterly")["events"]
    sync = next(e for e in events if e["summary"] == "Quarterly sync")
    tools.calendar_update_event(uid=sync["uid"], start=start.isoformat(), end=(start + timedelta(hours=1)).isoformat())
    tools.mail_reply(id=request["id"], body="Hi Priya, done: Thursday 12 March, 15:00 London time (23:00 for me). Lin")
    tools.reminders_create(
        title="Go through the agenda",
        due=(start - timedelta(hours=1)).isoformat(),
        notes="The sync moved from Tuesday 10 March; the agenda came on 9 March.",
    )
'''


def test_the_end_states_of_alternatives_get_mutants_too(pool, tmp_path):
    """An alternative may write a value the reference does not (a note on the reminder): a mutant of its end
    state that gets that value wrong and still passes is reported, naming the alternative."""
    folder = tmp_path / EXAMPLE.name
    shutil.copytree(EXAMPLE, folder)
    shipped = validate_task(folder, pool)
    check = shipped.dimensions["verifiability"].check("alternative_mutants")
    assert check.status == "pass" and shipped.mutation["alternatives"].keys() == {"new_message", "read_all"}
    (folder / "hidden" / "alternatives" / "chatty.py").write_text(CHATTY)
    report = validate_task(folder, pool)
    assert report.sensitivity == 1.0  # every alternative is accepted: the end states are right
    check = report.dimensions["verifiability"].check("alternative_mutants")
    assert check.status == "fail" and report.score < 100
    survivors = report.mutation["alternatives"]["chatty"]["survivors"]
    assert survivors and all("#notes" in f for s in survivors for f in s["fields"]), survivors
    assert "chatty:" in check.detail
