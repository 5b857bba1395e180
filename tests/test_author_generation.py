"""Stage 1, procedural families: the same arguments give the same bytes in any process, seeds give other
people, dates and values, operators choose the task, and the checks need only the standard library. Apart
from tests/test_author_families.py (stage 2 on the families) so that two test workers share the work."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest
import yaml

from stageclaw.author import all_families, generate
from stageclaw.task.loader import load_task

FAMILIES = sorted(all_families())


def _files(name: str, seed: int, **kwargs) -> dict[str, bytes]:
    return generate(name, seed, **kwargs).files_out()


@pytest.mark.parametrize("name", FAMILIES)
def test_the_same_arguments_give_the_same_bytes(name, tmp_path):
    one, two = generate(name, 5), generate(name, 5)
    first = one.files_out()
    assert first == two.files_out()
    a, b = one.write(tmp_path / "a"), two.write(tmp_path / "b")
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files)
    assert [str(f) for f in files] == sorted(first)


def test_generation_does_not_depend_on_the_process(tmp_path):
    """Byte-identical across interpreters with different hash seeds (no set or dict-order leaks)."""
    code = (
        "import sys; from pathlib import Path; from stageclaw.author import all_families, generate\n"
        "for name, family in all_families().items():\n"
        "    for locale in family.locales:\n"
        "        generate(name, 2, locale=locale).write(Path(sys.argv[1]))\n"
    )
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(tmp_path / seed)], env=env, check=True, timeout=900)
    one, two = (
        {p.relative_to(tmp_path / s): p.read_bytes() for p in (tmp_path / s).rglob("*") if p.is_file()}
        for s in ("1", "2")
    )
    assert one and one == two


@pytest.mark.parametrize("name", FAMILIES)
def test_different_seeds_give_different_people_dates_and_values(name):
    drawn = [_files(name, seed) for seed in (11, 12)]
    worlds = [yaml.safe_load(files["world.yaml"]) for files in drawn]
    assert worlds[0]["user"] != worlds[1]["user"]
    assert worlds[0]["now"] != worlds[1]["now"]
    people = [
        {m["from"] for ms in w.get("mail", {}).get("folders", {}).values() for m in ms}
        | {c["name"] for c in w.get("contacts", [])}
        | set(w.get("files", {}))
        for w in worlds
    ]
    assert people[0] != people[1]
    assert (
        drawn[0]["hidden/verify.py"] != drawn[1]["hidden/verify.py"]
    )  # the expected values differ, not only the names


@pytest.mark.parametrize("name", FAMILIES)
def test_operators_choose_the_task_and_record_evidence(name, tmp_path):
    family = all_families()[name]
    full = generate(name, 4)
    assert sorted(full.operators) == sorted(family.operators)
    core = generate(name, 4, operators=[])
    assert sorted(core.operators) == sorted(family.core)
    assert core.id != full.id and core.files_out() != full.files_out()
    task = load_task(full.write(tmp_path))  # the evidence loads as task.toml [provenance]
    provenance = task.config.provenance
    assert provenance.family == name and provenance.seed == 4
    assert sorted(provenance.evidence) == sorted(task.config.operators) == sorted(family.operators)
    assert all(provenance.evidence.values())


@pytest.mark.parametrize("name", FAMILIES)
def test_generated_checks_use_only_the_standard_library(name):
    files = _files(name, 2)
    for rel in ("hidden/verify.py", "hidden/solution.py"):
        tree = ast.parse(files[rel])
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert {m.split(".")[0] for m in modules} <= set(sys.stdlib_module_names), (rel, modules)
        assert (b"FACTS = " in files[rel]) == rel.endswith("solution.py")
