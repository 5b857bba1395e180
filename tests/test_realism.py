"""The realism lint of stage 2: each rule catches a seeded tell-tale detail in a real task folder, says
which item it is in and costs the structure dimension; generated tasks and the examples are clean."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from stageclaw.author import all_families, generate
from stageclaw.task.loader import load_task
from stageclaw.validate.realism import RULES, lint
from stageclaw.validate.structure import check_structure
from tests.conftest import EXAMPLE, EXAMPLES


def _mail(message_id: str, sender: str, subject: str, body: str, date: str = "2026-03-08T10:00:00+08:00") -> dict:
    return {
        "message_id": message_id,
        "from": sender,
        "to": ["lin.chen@example.com"],
        "subject": subject,
        "date": date,
        "flags": [],
        "body": body,
    }


def _inbox(*messages: dict) -> Any:
    return lambda world: world["mail"]["folders"]["INBOX"].extend(messages)


SUMMARY = "Hi Lin,\n\nYou spent {} in February.\n\nKite Bank"
# rule -> (what to add to quarterly-sync's world, the item the finding must name, words of its message)
SEEDED: dict[str, tuple[Any, str, str]] = {
    "event_times": (
        lambda w: w["calendar"]["Personal"].append(
            {
                "uid": "evt-pe",
                "summary": "Parents' evening",
                "start": "2026-03-11T07:45:00",
                "end": "2026-03-11T09:00:00",
            }
        ),
        "calendar/Personal/evt-pe",
        "starts at 07:45",
    ),
    "currency": (
        _inbox(
            _mail(
                "<yen@kite.example>", "Kite Bank <hello@kite.example>", "Card summary", SUMMARY.format("JPY 1,234.50")
            )
        ),
        "mail/folders/INBOX/<yen@kite.example>",
        "no minor unit",
    ),
    "mail_dates": (
        _inbox(
            _mail(
                "<ticket@rail.example>",
                "China Rail <tickets@rail.example>",
                "Your e-ticket: Shanghai → Beijing",
                "Your ticket for 8 March:\n\nShanghai → Beijing, dep. 07:05\nBooking reference: K7Q2",
                date="2026-03-08T21:40:00+08:00",
            )
        ),
        "mail/folders/INBOX/<ticket@rail.example>",
        "after the journey",
    ),
    "addresses": (
        lambda w: w["notes"]["Notes"].append(
            {"uid": "n-office", "title": "Tokyo office", "body": "2-17-4 Roppongi, Minato-ku, Tokyo 150-0043"}
        ),
        "notes/Notes/n-office",
        "not in Minato",
    ),
    "named_after_user": (
        lambda w: w["contacts"].append({"uid": "c-vendor", "name": "Mei Wong", "organization": "Chen Consulting"}),
        "contacts/c-vendor",
        "the user's name",
    ),
    "greetings": (
        _inbox(
            _mail(
                "<twice@orbitals.io>",
                "Priya Raman <priya@orbitals.io>",
                "Slides",
                "Hi Lin,\n\nthe slides are in the shared folder.\n\nSee you on Thursday!\n\nBest,\nPriya",
            )
        ),
        "mail/folders/INBOX/<twice@orbitals.io>",
        "2 sign-offs",
    ),
    "same_documents": (
        _inbox(
            _mail("<s1@kite.example>", "Kite Bank <hello@kite.example>", "Your summary", SUMMARY.format("¥9,120.00")),
            _mail("<s2@kite.example>", "Kite Bank <hello@kite.example>", "Your summary", SUMMARY.format("¥8,460.00")),
        ),
        "mail/folders/INBOX/<s1@kite.example>",
        "give different figures",
    ),
}


def _seeded(tmp_path: Path, rule: str) -> Path:
    task = shutil.copytree(EXAMPLE, tmp_path / EXAMPLE.name)
    world = yaml.safe_load((task / "world.yaml").read_text(encoding="utf-8"))
    world.setdefault("notes", {}).setdefault("Notes", [])
    SEEDED[rule][0](world)
    (task / "world.yaml").write_text(yaml.safe_dump(world, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return task


def test_every_rule_has_a_seeded_example():
    assert set(SEEDED) == set(RULES) and len(RULES) == 7


@pytest.mark.parametrize("rule", sorted(SEEDED))
def test_each_rule_catches_its_seeded_example_and_costs_the_structure_dimension(rule, tmp_path):
    assert lint(load_task(EXAMPLE)) == []
    task = _seeded(tmp_path, rule)
    findings = lint(load_task(task))
    assert [(f.rule, f.item) for f in findings] == [(rule, SEEDED[rule][1])], findings
    assert SEEDED[rule][2] in findings[0].message
    structure, *_ = check_structure(task)
    check = structure.check("realism")
    assert check.status == RULES[rule][1] == structure.status
    assert check.evidence == [findings[0].to_json()]


def test_a_monthly_spend_of_pocket_money_is_implausible(tmp_path):
    task = shutil.copytree(EXAMPLE, tmp_path / EXAMPLE.name)
    world = yaml.safe_load((task / "world.yaml").read_text(encoding="utf-8"))
    world["mail"]["folders"]["INBOX"].append(
        _mail("<mx@kite.example>", "Kite Bank <hello@kite.example>", "Card summary", SUMMARY.format("MX$216.91"))
    )
    (task / "world.yaml").write_text(yaml.safe_dump(world, allow_unicode=True, sort_keys=False), encoding="utf-8")
    [finding] = lint(load_task(task))
    assert finding.rule == "currency" and "too little for a month" in finding.message


def test_look_alikes_an_operator_accounts_for_are_not_findings(tmp_path):
    """A hand-written task vouches for its look-alikes by declaring the operator that makes them; a generated
    one by naming them in its [provenance] evidence."""
    task = _seeded(tmp_path, "same_documents")
    config = (task / "task.toml").read_text(encoding="utf-8")
    (task / "task.toml").write_text(config.replace('"cross_tool_consistency"]', '"noisy_data"]'), encoding="utf-8")
    assert lint(load_task(task)) == []


def test_generated_tasks_and_the_examples_are_clean(tmp_path):
    for name, family in all_families().items():
        assert lint(load_task(generate(name, 1).write(tmp_path))) == [], name
        for locale in family.locales[1:]:
            assert lint(load_task(generate(name, 3, locale=locale).write(tmp_path))) == [], (name, locale)
    for task in sorted(EXAMPLES.iterdir()):
        assert lint(load_task(task)) == [], task.name
