"""A private twin of a suite: the same families, operators and locales, with new seeds drawn from N.

`stageclaw generate --suite S --reseed N` gives a user a split of S that no model has trained on. Each
task of the manifest gets seeds from a stream of its own (the suite's name, N and the task's place in
the manifest), tried in turn until one gives a task that

- builds (a family may give up on an unlucky draw: it raises AssertionError or ValueError),
- keeps the suite's rules for one task (apps, operators, rubric items),
- shares no fact with its public counterpart (`shared`), and
- is accepted by stage 2 with every mutant killed (`accept`, which the caller gives: stage 2 is not
  stage 1's to call).

The twin's manifest lists the seeds that passed and how each task was drawn, so `stageclaw generate
--suite TWIN/suite.toml` rebuilds it byte for byte. N is what keeps a twin private: the generators
are public, so whoever knows N can rebuild it.

**Shared facts.** Of the public task: the people and organisations its generator drew (full names in
either script, organisations' names and legal names, their domains: `People.cast`), and every date
written `YYYY-MM-DD` and every amount of money but zero (a number with two decimals, in any grouping:
`1,234.50`, `1.234,50`, `1234.50` are the same amount) of its story: the prompt, the goal, the rubric,
the checks' expected values and the reference solution's FACTS, which is what a model that learnt the
public task would carry over. None of them may appear in any file of the twin, hidden ones included
(of verify.py and solution.py, which bundle library code, what the seed decides). The background life
around a story (`content.volume`: a year of calendar, months of mail) is left out of the public side:
two worlds of a year each share days whatever their seeds, and those days answer nothing. What the
family writes whatever the seed (a late fee fixed by the currency: the values two draws of reference
seeds share) is the furniture of every task of the family, and is not counted. Names that the generator
did not draw (a newsletter's sender, an airline, a web app) are not counted either.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from stageclaw.author import suite as suites
from stageclaw.author.draft import TaskDraft
from stageclaw.author.emit import yaml_text
from stageclaw.author.family import generate
from stageclaw.errors import StageclawError

SEEDS = (1000, 99_999)  # twin seeds: clear of the small seeds public suites use
REFERENCE_SEEDS = range(100_000, 100_010)  # draws that tell a family's fixed values from drawn ones
MAX_DRAWS = 40  # seeds tried per task before giving up
DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
# Two decimals after digits grouped by ',', '.', a space, a narrow space or an apostrophe, or not at all.
AMOUNT = re.compile(r"(?<![\d.,])(\d{1,3}(?:[,.' \u202f]\d{3})+|\d+)[.,](\d{2})(?![\d])")

# Stage 2 of one twin task: (accepted with every mutant killed, a note for the record such as
# "100 · 29/29 mutants killed", or why not).
Accept = Callable[[TaskDraft], tuple[bool, str]]


@dataclass
class Facts:
    """What a twin must not share with a task: each value as it is searched for."""

    names: set[str] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)
    amounts: set[str] = field(default_factory=set)  # in cents: "123450"


def draft_text(draft: TaskDraft) -> str:
    """The text of every file of a task, as far as its seed decides it: verify.py and solution.py bundle
    library code around the checks' arguments and the solution's FACTS, so those stand for them."""
    parts = [draft.task_toml(), draft.prompt, yaml_text(draft.world()), draft.rubric_toml(), draft.goal]
    parts += [data.decode("utf-8", errors="replace") for data in draft.assets.values()]
    parts += _scalars([c.args for c in draft.checks] + [draft.facts])
    return "\n".join(parts)


def story_text(draft: TaskDraft) -> str:
    """The text of what a task asks and expects: prompt, goal, rubric, the checks' arguments, the solution's FACTS."""
    return "\n".join(
        [draft.prompt, draft.goal, draft.rubric_toml(), *_scalars([c.args for c in draft.checks] + [draft.facts])]
    )


def _scalars(value: Any) -> list[str]:
    """Every scalar in a nest of lists and dicts, as text; a float as an amount, with two decimals."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (str(k), *_scalars(v))]
    if isinstance(value, list | tuple | set | frozenset):
        return [s for v in value for s in _scalars(v)]
    if isinstance(value, float):
        return [f"{value:.2f}"]
    return [str(value)]


def amounts(text: str) -> set[str]:
    """Every amount of money in `text` but zero, as a number of cents: '1,234.50' and '1234,50' are '123450'."""
    found = {(re.sub(r"\D", "", whole) + cents).lstrip("0") for whole, cents in AMOUNT.findall(text)}
    return found - {""}


def facts(draft: TaskDraft) -> Facts:
    """The names the task's generator drew, and the dates and amounts of its story."""
    story = story_text(draft)
    return Facts(names=set(draft.cast), dates=set(DATE.findall(story)), amounts=amounts(story))


def furniture(entry: suites.Entry) -> Facts:
    """What the family writes whatever the seed: the facts that two draws of reference seeds both hold
    (a late fee fixed by the currency, a vendor every task of the family uses)."""
    found: list[Facts] = []
    for seed in REFERENCE_SEEDS:
        try:
            found.append(facts(generate(entry.family, seed, entry.operators, entry.locale)))
        except (AssertionError, ValueError):  # the family gave up on this draw
            continue
        if len(found) == 2:
            a, b = found
            return Facts(a.names & b.names, a.dates & b.dates, a.amounts & b.amounts)
    raise StageclawError(f"family {entry.family} builds from fewer than 2 of the seeds {REFERENCE_SEEDS}")


def _named(name: str, text: str) -> bool:
    """`name` in `text` as whole words (a name in a script without spaces, such as Chinese, anywhere)."""
    if not name.isascii():
        return name in text
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def shared(public: Facts, twin: TaskDraft) -> list[str]:
    """The public task's names that appear anywhere in `twin`, and the dates and amounts of its story that
    `twin`'s story gives, each with its kind. (A year of background mail and calendar holds most days of
    the year: a day that only dates a newsletter there is no fact of the story.)"""
    text = draft_text(twin)
    out = [f"name {n}" for n in sorted(public.names) if _named(n, text)]
    story = story_text(twin)
    out += [f"date {d}" for d in sorted(public.dates & set(DATE.findall(story)))]
    out += [f"amount {int(a) / 100:.2f}" for a in sorted(public.amounts & amounts(story), key=int)]
    return out


def seeds(suite: str, reseed: int, index: int) -> Iterator[int]:
    """The seeds tried for the `index`-th task of `suite`'s twin `reseed`, in order."""
    rng = random.Random(f"{suite}:reseed:{reseed}:{index}")
    while True:
        yield rng.randint(*SEEDS)


def build_twin(
    manifest: suites.Manifest,
    reseed: int,
    accept: Accept,
    on_task: Callable[[int, suites.Draw], None] | None = None,
) -> suites.Suite:
    """The twin `reseed` of the suite `manifest` (a public one): its manifest and its tasks, each accepted.

    `on_task(n, draw)` is told of each task once it is found. Raises StageclawError when a task finds no
    seed in MAX_DRAWS.
    """
    if manifest.twin is not None:
        raise StageclawError(f"{manifest.name} is already a twin (of {manifest.twin.suite}); reseed its public suite")
    public = suites.build(manifest)
    entries: list[suites.Entry] = []
    draws: list[suites.Draw] = []
    drafts: list[TaskDraft] = []
    for n, (entry, original) in enumerate(zip(manifest.task, public.drafts, strict=True), 1):
        draft, draw = _draw(manifest, reseed, n, entry, original, accept, {d.id for d in drafts})
        entries.append(entry.model_copy(update={"seed": draft.provenance["seed"]}))
        draws.append(draw)
        drafts.append(draft)
        if on_task is not None:
            on_task(n, draw)
    twin = suites.Twin(suite=manifest.name, reseed=reseed, draw=draws)
    title = f"{manifest.name}, private twin {reseed}"
    twin_manifest = manifest.model_copy(
        update={"name": f"{manifest.name}-twin-{reseed}", "title": title, "intro": "", "task": entries, "twin": twin}
    )
    return suites.Suite(twin_manifest, drafts)


def _draw(
    manifest: suites.Manifest,
    reseed: int,
    n: int,
    entry: suites.Entry,
    original: TaskDraft,
    accept: Accept,
    taken: set[str],
) -> tuple[TaskDraft, suites.Draw]:
    """The first seed of the task's stream that gives an acceptable twin of `original`."""
    public, fixed = facts(original), furniture(entry)
    public = Facts(public.names - fixed.names, public.dates - fixed.dates, public.amounts - fixed.amounts)
    why, judged = "", ""
    for tried, seed in enumerate(seeds(manifest.name, reseed, n), 1):
        if tried > MAX_DRAWS:
            last_judged = f"; the last stage 2 rejected: {judged}" if judged and judged != why else ""
            raise StageclawError(
                f"task {n} ({original.id}): no seed in {MAX_DRAWS} draws of reseed {reseed} gives an acceptable "
                f"twin; the last: {why}{last_judged}; try another reseed"
            )
        try:
            draft = generate(entry.family, seed, entry.operators, entry.locale)
        except (AssertionError, ValueError) as exc:  # the family gave up on this draw
            why = f"seed {seed} does not build ({exc})"
            continue
        if draft.id in taken:
            why = f"seed {seed} gives {draft.id} twice"
            continue
        suites.mark_twin(draft, manifest.name, reseed)
        problems = suites.task_rule_violations(draft, manifest.rules) or shared(public, draft)
        if problems:
            why = f"seed {seed}: {'; '.join(problems[:3])}"
            continue
        ok, note = accept(draft)
        if not ok:
            why = judged = f"seed {seed}: stage 2: {note}"
            continue
        return draft, suites.Draw(public=original.id, seed=seed, tried=tried, stage2=note)
    raise AssertionError("unreachable: the seed stream is endless")
