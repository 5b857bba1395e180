"""The families page: every scenario family of stage 1, by group, with what its module docstring
says it is and what each operator means in it. A new family documents itself here."""

from __future__ import annotations

import sys

from stageclaw.author.family import all_families
from stageclaw.docs.markdown import text
from stageclaw.task.model import GROUPS


def render() -> str:
    families = all_families()
    lines = [
        "# Scenario families",
        "",
        "The procedural families of [stage 1](../authoring.md), generated from their registry "
        "(`stageclaw generate --list` prints the same). Operators in bold are the family's core ones, "
        "always applied; the text is each family module's docstring.",
        "",
        "| family | group | apps | operators | locales |",
        "|---|---|---|---|---|",
    ]
    for name, fam in families.items():
        ops = ", ".join(f"**{op}**" if op in fam.core else op for op in sorted(fam.operators))
        lines.append(
            f"| [`{name}`](#{name}) | {fam.group} | {', '.join(fam.apps)} | {ops} | {', '.join(fam.locales)} |"
        )
    lines.append("")
    for group in GROUPS:
        members = [(n, f) for n, f in families.items() if f.group == group]
        if not members:
            continue
        lines += [f"## {group}", ""]
        for name, fam in members:
            doc = sys.modules[type(fam).__module__].__doc__ or fam.summary
            lines += [f"### `{name}`", "", text(doc.strip()), ""]
    return "\n".join(lines).rstrip() + "\n"
