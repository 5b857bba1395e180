"""Private twins of a suite (`stageclaw generate --suite ... --reseed N`): new seeds, nothing shared with the
public tasks, every task accepted by stage 2, rebuilt byte for byte from the twin's manifest, named by reports."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stageclaw.author import suite as suites
from stageclaw.author.family import generate
from stageclaw.author.twin import DATE, SEEDS, amounts, build_twin, draft_text, facts, furniture, shared
from stageclaw.cli import app
from stageclaw.errors import StageclawError
from stageclaw.report.build import build
from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from tests.conftest import ROOT

STAGE40 = ROOT / "tasks" / "stage40"
# Two families of each group, none of them using the browser (which makes stage 2 take seconds per task).
FAMILIES = {
    "scheduling": ("meeting-move", "find-a-slot"),
    "communication": ("document-request", "contact-upkeep"),
    "planning": ("action-items", "project-tracker"),
    "documents": ("invoice-filing", "data-report"),
    "life_admin": ("appointment-booking", "bill-triage"),
}


def _subset(tmp_path: Path) -> Path:
    """A suite of the first stage40 task of each family in FAMILIES, with stage40's rules for one task."""
    public = suites.load_manifest(STAGE40 / "suite.toml")
    wanted = {f for pair in FAMILIES.values() for f in pair}
    entries, seen = [], set()
    for entry in public.task:
        if entry.family in wanted and entry.family not in seen:
            seen.add(entry.family)
            entries.append(entry)
    rules = public.rules.model_copy(update={"tasks_per_group": 0, "min_tasks_per_operator": 0})
    manifest = public.model_copy(update={"name": "stage40-sample", "intro": "", "task": entries, "rules": rules})
    folder = tmp_path / "stage40-sample"
    folder.mkdir()
    (folder / "suite.toml").write_text(suites.manifest_toml(manifest))
    return folder / "suite.toml"


def test_amounts_are_compared_by_value_in_any_grouping():
    assert amounts("€1,234.50 or 1.234,50 € or 1 234,50 kr, 1234.50; 0.00 and 7.5 are not amounts") == {"123450"}
    assert amounts("12,300.00元 · $0.99 · 1,050.00") == {"1230000", "99", "105000"}


def test_a_task_shares_its_names_dates_and_amounts_with_itself_and_the_furniture_is_left_out():
    entry = suites.Entry(family="bill-triage", seed=1, locale="zh")
    draft = generate(entry.family, entry.seed, locale="zh")
    mine, fixed = facts(draft), furniture(entry)
    found = shared(mine, draft)
    assert {f.split()[0] for f in found} == {"name", "date", "amount"}
    assert any(f"name {person}" in found for person in draft.cast)
    assert len(set(DATE.findall(draft_text(draft)))) > len(mine.dates)  # the background's days are not the story's
    assert fixed.dates <= mine.dates and fixed.amounts <= mine.amounts and len(fixed.dates) < len(mine.dates) / 4


def test_a_draw_stage_2_rejects_is_replaced_and_a_task_with_no_acceptable_draw_is_an_error(tmp_path):
    manifest = suites.Manifest(
        name="tiny", title="tiny", task=[suites.Entry(family="meeting-move", seed=1, operators=["noisy_data"])]
    )
    verdicts = iter([(False, "rejected: 60 · 20/29 mutants killed"), (True, "100 · 29/29 mutants killed")])
    twin = build_twin(manifest, 3, lambda draft: next(verdicts))
    [draw] = twin.manifest.twin.draw
    assert (draw.public, draw.stage2) == ("meeting-move-1-nd-tsu", "100 · 29/29 mutants killed") and draw.tried >= 2
    assert twin.drafts[0].provenance["seed"] == draw.seed == twin.manifest.task[0].seed != 1
    with pytest.raises(StageclawError, match=r"task 1 \(meeting-move-1-nd-tsu\): no seed in 40 draws.*stage 2: no"):
        build_twin(manifest, 3, lambda draft: (False, "no"))


@pytest.mark.stage2
def test_twins_of_two_families_per_group_are_validated_share_nothing_and_are_named_by_reports(tmp_path):
    manifest_path = _subset(tmp_path)
    out = tmp_path / "twin"
    made = CliRunner().invoke(
        app, ["generate", "--suite", str(manifest_path), "--reseed", "5", "--out", str(out)], catch_exceptions=False
    )
    assert made.exit_code == 0, made.stdout
    assert "the twin 5 of stage40-sample, 10 tasks, each accepted by stage 2" in made.stdout

    manifest = suites.load_manifest(out / "suite.toml")
    public = suites.load_manifest(manifest_path)
    assert manifest.name == "stage40-sample-twin-5" and manifest.twin.suite == "stage40-sample"
    assert manifest.twin.reseed == 5 and len(manifest.task) == len(public.task) == 10
    assert "private twin 5 of the suite `stage40-sample`" in (out / "README.md").read_text()
    library = "\n".join(p.read_text() for p in (ROOT / "src" / "stageclaw" / "author").rglob("*.py"))
    twin_dirs = []
    for entry, twin_entry, draw in zip(public.task, manifest.task, manifest.twin.draw, strict=True):
        assert (twin_entry.family, twin_entry.operators, twin_entry.locale) == (
            entry.family,
            entry.operators,
            entry.locale,
        )
        assert SEEDS[0] <= twin_entry.seed <= SEEDS[1] and draw.seed == twin_entry.seed
        killed = draw.stage2.split(" · ")[1].split()[0].split("/")
        assert draw.stage2.startswith("100 · ") and killed[0] == killed[1] != "0", draw

        # Read back from the files: what the public task holds, the twin does not.
        original = generate(entry.family, entry.seed, entry.operators, entry.locale)
        twin_dir = out / generate(twin_entry.family, twin_entry.seed, twin_entry.operators, twin_entry.locale).id
        twin_dirs.append(twin_dir)
        public_text, twin_text = _text(STAGE40 / draw.public), _text(twin_dir)
        fixed = furniture(entry)  # and what verify.py and solution.py bundle of the library's own code
        fixed_dates, fixed_amounts = fixed.dates | set(DATE.findall(library)), fixed.amounts | amounts(library)
        assert not (set(DATE.findall(public_text)) - fixed_dates) & set(DATE.findall(twin_text)), draw.public
        assert not (amounts(public_text) - fixed_amounts) & amounts(twin_text), draw.public
        names = [n for n in original.cast - fixed.names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", twin_text)]
        assert names == [], draw.public
        provenance = tomllib.loads((twin_dir / "task.toml").read_text())["provenance"]
        assert (provenance["suite"], provenance["reseed"], provenance["family"]) == ("stage40-sample", 5, entry.family)

    # The twin's manifest rebuilds it byte for byte.
    check = CliRunner().invoke(app, ["generate", "--suite", str(out / "suite.toml"), "--check"])
    assert check.exit_code == 0, check.stdout

    # A run on a twin says which twin it was on.
    task = load_task(twin_dirs[0])
    run([task], RunConfig(agent="oracle", out=tmp_path / "run"))
    [result] = read_results(tmp_path / "run" / "results.jsonl")
    assert result["success"] and result["twin"] == {"suite": "stage40-sample", "reseed": 5}
    assert build([tmp_path / "run"]).agents[0]["twins"] == {"stage40-sample twin 5": 1}
    report = CliRunner().invoke(app, ["report", str(tmp_path / "run")])
    assert "oracle ran on the private stage40-sample twin 5 (1 episodes)" in report.stdout


def _text(folder: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", errors="replace") for p in sorted(folder.rglob("*")) if p.is_file())
