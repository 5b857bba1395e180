"""A benchmark suite: a manifest of generator calls built into task directories, hints and a README.

`suite.toml` lists each task as the `stageclaw generate` arguments that make it (family, seed,
operators, locale) and states the rules the suite keeps (tasks per group, apps, operators and
rubric items per task, tasks per operator). Building a suite writes every task, `hints.txt`
(one hint per line, in table order, so the same hints can feed the LLM author) and `README.md`
(the task table and the operator distribution); the same manifest always gives the same bytes.

A private twin of a suite (`author.twin`) is a suite too: its manifest lists its seeds and, under
`[twin]`, the suite it twins, the reseed and how each task was drawn; its tasks record both in
their provenance.
"""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stageclaw.author.draft import TaskDraft
from stageclaw.author.emit import toml_array, toml_table
from stageclaw.author.family import generate
from stageclaw.errors import StageclawError
from stageclaw.task.loader import PLAYTESTS, PLAYTESTS_REPORT, REVIEW_FILE, STAGE2_RECORD
from stageclaw.task.model import GROUPS, OPERATORS

WORLD_APPS = ("mail", "calendar", "reminders", "notes", "contacts", "files")


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    family: str
    seed: int
    operators: list[str] | None = None  # None: all the family supports
    locale: str = "en"


class Rules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tasks_per_group: int = 0
    min_apps: int = 1
    min_operators: int = 1
    min_rubric_items: int = 1
    min_tasks_per_operator: int = 0
    # The operators `min_tasks_per_operator` counts; all of them when omitted.
    operators: list[str] | None = None
    min_alternatives: int = 0  # alternative solutions per task, which stage 2 runs and must accept
    require_review: bool = False  # validate accepts a task only with a reviewer's fresh "accept"
    min_families: int = 0  # distinct scenario families in the suite
    max_tasks_per_family: int = 0  # 0: no limit
    min_median_objects: int = 0  # world objects per task (messages, events, to-dos, notes, contacts, files, records)
    # The reference solutions' tool calls per task, median: checked by running them (`oracle_rule_violations`).
    min_median_oracle_calls: int = 0


class Draw(BaseModel):
    """How one task of a twin was drawn: its public counterpart, its seed, the seeds tried, stage 2's verdict."""

    model_config = ConfigDict(extra="forbid")
    public: str
    seed: int
    tried: int
    stage2: str


class Twin(BaseModel):
    model_config = ConfigDict(extra="forbid")
    suite: str  # the public suite this one twins
    reseed: int
    draw: list[Draw] = []  # in the manifest's task order


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    title: str
    intro: str = ""
    rules: Rules = Field(default_factory=Rules)
    twin: Twin | None = None
    task: list[Entry]


@dataclass
class Suite:
    manifest: Manifest
    drafts: list[TaskDraft] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # one line per [[task]] its generator failed on

    def files_out(self) -> dict[str, bytes]:
        """Every file the suite writes besides the manifest, by path relative to the suite folder."""
        out = {f"{d.id}/{rel}": data for d in self.drafts for rel, data in d.files_out().items()}
        out["hints.txt"] = hints_text(self).encode()
        out["README.md"] = readme_text(self).encode()
        return out


def load_manifest(path: Path) -> Manifest:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StageclawError(f"{path}: no such suite manifest") from None
    except tomllib.TOMLDecodeError as exc:
        raise StageclawError(f"{path}: not valid TOML: {exc}") from None
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise StageclawError(f"{path}: {where}: {first['msg']}") from None


def build(manifest: Manifest) -> Suite:
    """Generate every task of the manifest and check the suite's rules.

    A task whose generator fails is listed in `failures` and the others are built; the rules are
    checked only when every task was built.
    """
    suite = Suite(manifest)
    for n, entry in enumerate(manifest.task, 1):
        try:
            draft = generate(entry.family, entry.seed, entry.operators, entry.locale)
        except StageclawError as exc:
            suite.failures.append(f"task {n} ({entry.family}, seed {entry.seed}): {exc}")
            continue
        if manifest.twin is not None:
            mark_twin(draft, manifest.twin.suite, manifest.twin.reseed)
        suite.drafts.append(draft)
    problems = [] if suite.failures else rule_violations(suite)
    if problems:
        raise StageclawError(f"suite {manifest.name} breaks its rules:\n  " + "\n  ".join(problems))
    return suite


def mark_twin(draft: TaskDraft, suite: str, reseed: int) -> None:
    """Record in a task's provenance that it belongs to the twin `reseed` of `suite`."""
    draft.provenance = {**draft.provenance, "suite": suite, "reseed": reseed}


def manifest_toml(manifest: Manifest) -> str:
    """A manifest as suite.toml, for a suite written by stageclaw (a twin)."""
    data = manifest.model_dump(exclude_none=True, exclude={"task", "twin"})
    out = "# Written by stageclaw generate --reseed; `stageclaw generate --suite` on this file rebuilds the folder.\n\n"
    out += toml_table(data)
    if manifest.twin is not None:
        twin = manifest.twin
        out += f"\n[twin]\n{toml_table({'suite': twin.suite, 'reseed': twin.reseed})}\n"
        out += toml_array("twin.draw", [d.model_dump() for d in twin.draw]) + "\n"
    return out + toml_array("task", [e.model_dump(exclude_none=True) for e in manifest.task])


def write(suite: Suite, folder: Path) -> list[Path]:
    """Write the suite into `folder`; task folders of earlier builds that left the suite are removed.

    With failures, only the tasks that were built are written: the folders, hints and README of the
    last complete build stay as they were.
    """
    folder.mkdir(parents=True, exist_ok=True)
    if suite.failures:
        return [d.write(folder) for d in suite.drafts]
    keep = {d.id for d in suite.drafts}
    for old in folder.iterdir():
        if old.is_dir() and (old / "task.toml").is_file() and old.name not in keep:
            shutil.rmtree(old)
    (folder / "hints.txt").write_text(hints_text(suite), encoding="utf-8")
    (folder / "README.md").write_text(readme_text(suite), encoding="utf-8")
    return [d.write(folder) for d in suite.drafts]


def differences(suite: Suite, folder: Path) -> list[str]:
    """The files in `folder` that a fresh build would write differently, add, or remove."""
    expected = suite.files_out()
    tasks = {d.id for d in suite.drafts}
    found = {
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and (p.parent == folder or p.relative_to(folder).parts[0] in tasks) and p.name != REVIEW_FILE
    } - {"suite.toml", PLAYTESTS, PLAYTESTS_REPORT, STAGE2_RECORD}
    out = [f"missing: {rel}" for rel in sorted(set(expected) - found)]
    out += [f"not generated: {rel}" for rel in sorted(found - set(expected))]
    out += [f"differs: {rel}" for rel in sorted(found & set(expected)) if (folder / rel).read_bytes() != expected[rel]]
    return out


def apps_of(draft: TaskDraft) -> list[str]:
    world = draft.world()
    return [a for a in WORLD_APPS if a in world] + sorted(world.get("web", {}))


def rule_violations(suite: Suite) -> list[str]:
    rules, out = suite.manifest.rules, []
    ids = Counter(d.id for d in suite.drafts)
    out += [f"{i}: listed {n} times" for i, n in ids.items() if n > 1]
    for d in suite.drafts:
        out += task_rule_violations(d, rules)
    if rules.tasks_per_group:
        groups = Counter(d.group for d in suite.drafts)
        out += [
            f"group {g}: {groups[g]} tasks, the suite wants {rules.tasks_per_group}"
            for g in GROUPS
            if groups[g] != rules.tasks_per_group
        ]
    families = Counter(d.provenance["family"] for d in suite.drafts)
    if len(families) < rules.min_families:
        out.append(f"{len(families)} families, the suite wants at least {rules.min_families}")
    if rules.max_tasks_per_family:
        out += [
            f"family {f}: {n} tasks, the suite wants at most {rules.max_tasks_per_family}"
            for f, n in sorted(families.items())
            if n > rules.max_tasks_per_family
        ]
    sizes = [world_objects(d) for d in suite.drafts]
    if sizes and median(sizes) < rules.min_median_objects:
        out.append(f"median world size {median(sizes):g} objects, the suite wants at least {rules.min_median_objects}")
    per_operator = operator_counts(suite)
    counted = rules.operators if rules.operators is not None else list(OPERATORS)
    out += [f"rules.operators: unknown operator {op!r}" for op in counted if op not in OPERATORS]
    out += [
        f"operator {op}: in {n} tasks, the suite wants at least {rules.min_tasks_per_operator}"
        for op, n in per_operator.items()
        if op in counted and n < rules.min_tasks_per_operator
    ]
    return out


def task_rule_violations(d: TaskDraft, rules: Rules) -> list[str]:
    """The rules for one task that `d` breaks."""
    out = []
    if len(apps_of(d)) < rules.min_apps:
        out.append(f"{d.id}: {len(apps_of(d))} apps, the suite wants at least {rules.min_apps}")
    if len(d.operators) < rules.min_operators:
        out.append(f"{d.id}: {len(d.operators)} operators, the suite wants at least {rules.min_operators}")
    items = len(d.checks) + len(d.judges)
    if items < rules.min_rubric_items:
        out.append(f"{d.id}: {items} rubric items, the suite wants at least {rules.min_rubric_items}")
    if len(d.alternatives) < rules.min_alternatives:
        wanted = rules.min_alternatives
        out.append(f"{d.id}: {len(d.alternatives)} alternative solutions, the suite wants at least {wanted}")
    return out


def world_objects(draft: TaskDraft) -> int:
    """How many things the task's world holds: messages, events, to-dos, notes, contacts, files and the web
    apps' records."""

    def count(value: Any) -> int:
        if isinstance(value, list):
            return len(value)
        if isinstance(value, dict):
            return sum(count(v) for v in value.values())
        return 0

    world = draft.world()
    apps = [world.get("mail", {}).get("folders", {}), *(world.get(a) for a in ("calendar", "reminders", "notes"))]
    return sum(count(a) for a in apps if a) + len(world.get("contacts") or []) + len(draft.files) + count(draft.web)


def oracle_rule_violations(suite: Suite, calls: dict[str, int]) -> list[str]:
    """The rule on the reference solutions' tool calls, given each task's count (task id -> calls)."""
    wanted = suite.manifest.rules.min_median_oracle_calls
    missing = sorted({d.id for d in suite.drafts} - set(calls))
    if missing:
        return [f"no reference run for {', '.join(missing)}"]
    got = median(calls[d.id] for d in suite.drafts)
    return [f"median reference tool calls {got:g}, the suite wants at least {wanted}"] if got < wanted else []


def operator_counts(suite: Suite) -> dict[str, int]:
    counts = Counter(op for d in suite.drafts for op in d.operators)
    return {op: counts[op] for op in OPERATORS}


def ordered(suite: Suite) -> list[TaskDraft]:
    """Table order: by group as the benchmark lists them, then as the manifest lists the tasks."""
    return sorted(suite.drafts, key=lambda d: GROUPS.index(d.group))


def hints_text(suite: Suite) -> str:
    head = (
        f"# {suite.manifest.name}: the hint of every task, one per line, in the order of README.md's table.\n"
        "# Each task's task.toml records its hint with the family, seed and operators that built it.\n"
    )
    return head + "".join(" ".join(d.hint.split()) + "\n" for d in ordered(suite))


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _twin_intro(twin: Twin) -> str:
    name, n = twin.suite, twin.reseed
    return (
        f"This folder is the private twin {n} of the suite `{name}`, written by `stageclaw generate --suite` on "
        f"{name}'s manifest with `--reseed {n}`: task for task the same families, operators and locales as "
        f"{name}, with new seeds drawn from {n}. Every task's provenance names the suite and the reseed, and "
        "`stageclaw report` names the twin a run was on. Each task was accepted by stage 2 with every near-miss "
        "mutant killed as it was drawn, and shares no person, organisation, date or amount with its public "
        "counterpart: no name of a person or organisation its generator drew, no `YYYY-MM-DD` date and no "
        "amount with two decimals (in any grouping) of the public task's story (prompt, goal, rubric, expected "
        "values) is in any file of the twin, but for what the family writes whatever the seed (a fee fixed by "
        "the currency). Keep the reseed private: whoever knows it can rebuild this folder."
    )


def readme_text(suite: Suite) -> str:
    m = suite.manifest
    lines = [f"# {m.title}", ""]
    if m.intro:
        lines += [m.intro.strip(), ""]
    if m.twin is not None:
        lines += [_twin_intro(m.twin), ""]
    lines += [
        "## The tasks",
        "",
        "| # | task | group | family · seed | apps | objects | operators | what the user asks for |",
        "|---|---|---|---|---|---:|---|---|",
    ]
    for n, d in enumerate(ordered(suite), 1):
        prov = d.provenance
        origin = f"{prov['family']} · {prov['seed']}" + (f" · {prov['locale']}" if prov["locale"] != "en" else "")
        lines.append(
            f"| {n} | `{d.id}` | {d.group} | {origin} | {', '.join(apps_of(d))} | {world_objects(d)} | "
            f"{', '.join(sorted(d.operators))} | {_cell(d.title)} |"
        )
    counts = operator_counts(suite)
    groups = Counter(d.group for d in suite.drafts)
    folder = f"tasks/{m.name}" if m.twin is None else "."
    families = Counter(d.provenance["family"] for d in suite.drafts)
    lines += ["", "## Operator distribution", "", "| operator | tasks |", "|---|---|"]
    lines += [f"| {op} | {n} |" for op, n in counts.items()]
    lines += ["", "## Groups and families", "", "| group | tasks | families |", "|---|---|---|"]
    for g in GROUPS:
        fams = sorted({d.provenance["family"] for d in suite.drafts if d.group == g})
        lines.append(f"| {g} | {groups[g]} | {', '.join(f'{f} ({families[f]})' for f in fams)} |")
    if m.twin is not None:
        lines += ["", "## How the tasks were drawn", "", "| # | task | twin of | seed | seeds tried | stage 2 |"]
        lines += ["|---|---|---|---|---|---|"]
        for n, (d, draw) in enumerate(zip(suite.drafts, m.twin.draw, strict=True), 1):
            lines.append(f"| {n} | `{d.id}` | `{draw.public}` | {draw.seed} | {draw.tried} | {_cell(draw.stage2)} |")
    lines += [
        "",
        "## Rebuild and check",
        "",
        f"Every file here except `suite.toml` is written by `stageclaw generate --suite {folder}/suite.toml`,",
        "from the families and seeds the manifest lists; the same manifest gives the same bytes.",
        "",
        "```bash",
        f"stageclaw generate --suite {folder}/suite.toml           # rebuild the tasks, hints.txt and this README",
        f"stageclaw generate --suite {folder}/suite.toml --check   # are the files here what the generators make?",
        f"stageclaw validate {folder}                              # stage 2: every task accepted, every mutant killed",
        f"stageclaw run --agent oracle --tasks {folder}            # the reference solutions: all succeed",
        f"stageclaw author --hints {folder}/hints.txt --model M    # the same hints, written by an LLM author",
        "```",
    ]
    return "\n".join(lines) + "\n"
