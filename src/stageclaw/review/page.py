"""The review pages: an index of the tasks under review and one page per task, server-rendered HTML.

A task's page holds everything the audit looks at, in the order a reviewer reads it: the prompt, the
world app by app, the goal, the rubric with each item's verifier source, the reference solution's
trajectory and the changes it made, the mutants and which item rejected each, the alternative
solutions and their scores, the difficulty evidence, the realism findings, the playtests, and the
verdict form. Nothing is fetched from elsewhere.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from stageclaw.review.view import TaskView
from stageclaw.task.review import VERDICTS

CLIP = 2000
STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 1em 4em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ddd;padding-top:.6em}
pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap;word-break:break-word;margin:.3em 0}
table{border-collapse:collapse;width:100%;margin:.4em 0}td,th{border:1px solid #ddd;padding:.25em .4em;
vertical-align:top;text-align:left}th{background:#f0f0f0}.ok{color:#176f2c}.bad{color:#b00020}
.badge{display:inline-block;padding:0 .5em;border-radius:.6em;background:#eee}
nav.apps button{margin:0 .3em .3em 0}nav.apps button.on{font-weight:bold}
.app[hidden]{display:none}label{display:block;margin:.4em 0}textarea{width:100%;height:6em}
"""
SCRIPT = """
document.querySelectorAll('nav.apps button').forEach(b => b.addEventListener('click', () => {
  document.querySelectorAll('nav.apps button').forEach(x => x.classList.toggle('on', x === b));
  document.querySelectorAll('.app').forEach(s => { s.hidden = s.dataset.app !== b.dataset.app; });
}));
"""


def _clip(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True)
    return escape(text if len(text) <= CLIP else text[:CLIP] + " …")


def _table(head: list[str], rows: list[list[str]]) -> str:
    """A table; the cells are HTML already."""
    ths = "".join(f"<th>{escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{ths}</tr></thead><tbody>{trs}</tbody></table>" if rows else "<p>none</p>"


def _mark(ok: bool | None, yes: str = "yes", no: str = "no") -> str:
    return f'<span class="ok">{yes}</span>' if ok else f'<span class="bad">{no}</span>'


def page(title: str, body: str) -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{STYLE}</style></head><body>{body}<script>{SCRIPT}</script></body></html>"
    )


def index(base: str, rows: list[dict[str, Any]]) -> str:
    """The tasks under review: id, title, stage-2 score (when validated), review status."""
    cells = [
        [
            f'<a href="{base}task/{escape(r["id"])}">{escape(r["id"])}</a>',
            escape(r["title"]),
            "–" if r["score"] is None else f"{r['score']:g}",
            f'<span class="badge review-status">{escape(r["review"])}</span>',
        ]
        for r in rows
    ]
    body = f"<h1>stageclaw review: {len(rows)} tasks</h1>" + _table(["task", "title", "stage 2", "review"], cells)
    return page("stageclaw review", body)


def _world(view: TaskView) -> str:
    world = view.world
    sections: dict[str, str] = {}
    folders = world.get("mail", {}).get("folders", {})
    if any(folders.values()):
        parts = []
        for folder, messages in folders.items():
            rows = [
                [
                    escape(m["from"]),
                    escape(", ".join(m.get("to") or [])),
                    escape(m["date"] or ""),
                    f"<b>{escape(m['subject'] or '')}</b><pre>{_clip(m.get('body') or '')}</pre>",
                ]
                for m in messages
            ]
            parts.append(f"<h3>{escape(folder)}</h3>" + _table(["from", "to", "date", "message"], rows))
        sections["mail"] = "".join(parts)
    for app, fields in (
        ("calendar", ("summary", "start", "end", "location")),
        ("reminders", ("title", "due", "completed")),
        ("notes", ("title", "body")),
    ):
        groups = world.get(app) or {}
        if any(groups.values()):
            sections[app] = "".join(
                f"<h3>{escape(name)}</h3>"
                + _table(
                    ["uid", *fields],
                    [
                        [
                            escape(i["uid"]),
                            *(
                                f"<pre>{_clip(i.get(f))}</pre>" if f == "body" else escape(str(i.get(f) or ""))
                                for f in fields
                            ),
                        ]
                        for i in items
                    ],
                )
                for name, items in groups.items()
            )
    if world.get("contacts"):
        sections["contacts"] = _table(
            ["uid", "name", "emails", "phones", "organization", "notes"],
            [
                [
                    escape(str(c.get(k) if not isinstance(c.get(k), list) else ", ".join(c[k])))
                    for k in ("uid", "name", "emails", "phones", "organization", "notes")
                ]
                for c in world["contacts"]
            ],
        )
    if world.get("files"):
        sections["files"] = _table(
            ["path", "content"],
            [
                [escape(p), f"<pre>{_clip(f['text'])}</pre>" if f.get("text") is not None else f"{f['size']} bytes"]
                for p, f in world["files"].items()
            ],
        )
    web = view.task.world.web.model_dump(mode="json", exclude_none=True) if view.task.world.web else {}
    if any(web.values()):
        sections["web"] = "".join(
            f"<h3>{escape(app)} · {escape(table)}</h3><pre>{_clip(rows)}</pre>"
            for app, tables in web.items()
            if tables
            for table, rows in tables.items()
            if rows
        )
    buttons = "".join(
        f'<button type="button" data-app="{a}" class="{"on" if n == 0 else ""}">{escape(a)}</button>'
        for n, a in enumerate(sections)
    )
    bodies = "".join(
        f'<section class="app" data-app="{a}"{"" if n == 0 else " hidden"}>{html}</section>'
        for n, (a, html) in enumerate(sections.items())
    )
    return f'<nav class="apps">{buttons}</nav>{bodies}'


def _rubric(view: TaskView) -> str:
    rows = [
        [
            f"<b>{escape(i.id)}</b>",
            escape(i.description),
            f"{i.weight:g}" + (" · critical" if i.critical else ""),
            escape(i.stage),
            f'<details><summary>{escape(i.kind)}</summary><pre class="verifier">{escape(i.source)}</pre></details>',
        ]
        for i in view.rubric
    ]
    allow = "".join(f"<li><code>{escape(p)}</code></li>" for p in view.task.rubric.changes.allow)
    return (
        _table(["item", "description", "weight", "stage", "verifier"], rows)
        + f"<p>Allowed changes:</p><ul>{allow}</ul>"
    )


def _oracle(view: TaskView) -> str:
    steps = [
        [
            str(n),
            escape(s.get("tool", "")),
            f"<pre>{_clip(s.get('args'))}</pre>",
            _mark(s.get("ok"), "ok", "error"),
            f"<pre>{_clip(s.get('result') if s.get('ok') else s.get('error'))}</pre>",
        ]
        for n, s in enumerate(view.trajectory, 1)
    ]
    changes = [
        [
            escape(c["op"]),
            f"<code>{escape(c['path'])}</code>",
            f"<pre>{_clip(c.get('before', ''))}</pre>",
            f"<pre>{_clip(c.get('after', ''))}</pre>",
        ]
        for c in view.changes
    ]
    return (
        f'<h3>Trajectory · {len(steps)} steps</h3><div id="trajectory">'
        + _table(["#", "tool", "arguments", "", "result"], steps)
        + f'</div><h3>s0 → sH · {len(changes)} changes</h3><div id="diff">'
        + _table(["", "path", "before", "after"], changes)
        + "</div>"
    )


def _mutants(view: TaskView) -> str:
    mutation = view.report.get("mutation") or {}
    rows = [
        [
            escape(m["id"]),
            escape(m["operator"]),
            escape(m["description"]),
            escape(", ".join(m["killed_by"])) if m["killed_by"] else '<span class="bad">survived</span>',
        ]
        for m in mutation.get("mutants") or []
    ]
    head = f"<p>{mutation.get('killed', 0)} of {mutation.get('total', 0)} rejected.</p>" if mutation else ""
    return head + _table(["mutant", "operator", "the mistake", "rejected by"], rows)


def _alternatives(view: TaskView) -> str:
    section = view.report.get("alternatives") or {}
    rows = [
        [
            f"<b>{escape(a['name'])}</b>",
            _mark(a["accepted"], "accepted", "REJECTED"),
            escape(str(a["score"])),
            escape(str(a["steps"])),
            escape("; ".join(f"{i['item']}: {i['reason']}" for i in a["rejected_by"])),
        ]
        for a in section.get("results") or []
    ]
    return _table(["alternative", "verdict", "score", "steps", "rejected by"], rows)


def _checks(view: TaskView, dimension: str) -> str:
    checks = ((view.report.get("dimensions") or {}).get(dimension) or {}).get("checks") or []
    rows = [
        [
            escape(c["name"]),
            escape(c["status"]),
            escape(c["detail"]),
            f"<details><summary>evidence</summary><pre>{_clip(c.get('evidence'))}</pre></details>",
        ]
        for c in checks
    ]
    return _table(["check", "status", "detail", ""], rows)


def _realism(view: TaskView) -> str:
    check = view.check("structure", "realism") or {}
    rows = [
        [escape(f["rule"]), f"<code>{escape(f['item'])}</code>", escape(f["message"])]
        for f in check.get("evidence") or []
    ]
    return f"<p>{escape(check.get('detail', 'not checked yet'))}</p>" + _table(["rule", "item", "finding"], rows)


def _playtests(view: TaskView) -> str:
    rows = [
        [
            escape(str(p.get("player"))),
            escape(str(p.get("date"))),
            escape(str(p.get("score"))),
            _mark(p.get("success")),
            escape(str(p.get("steps"))),
            "<br>".join(
                f"<b>{escape(str(f.get('item')))}</b> ({escape(str(f.get('category')))}): {escape(str(f.get('note')))}"
                for f in p.get("failures") or []
            ),
        ]
        for p in view.playtests
    ]
    return _table(["player", "date", "score", "success", "steps", "failures"], rows)


def _verdict(view: TaskView, action: str, token: str) -> str:
    review = view.review
    shown = f'<p>Review: <span class="badge" id="review-status">{escape(review.status)}</span>'
    if review.signoff is not None:
        s = review.signoff
        shown += f" · {escape(s.verdict)} by {escape(s.reviewer)} on {escape(s.date)}: {escape(s.notes)}"
    shown += "</p>"
    options = "".join(
        f'<label><input type="radio" name="verdict" value="{v}" required> {v.replace("_", " ")}</label>'
        for v in VERDICTS
    )
    return (
        shown + f'<form method="post" action="{escape(action)}" id="verdict-form">'
        f'<input type="hidden" name="token" value="{escape(token)}">'
        '<label>Reviewer <input name="reviewer" required></label>'
        f'{options}<label>Notes <textarea name="notes"></textarea></label>'
        '<button type="submit">Record the verdict</button></form>'
    )


def task_page(view: TaskView, base: str, token: str) -> str:
    task, report = view.task, view.report
    score = report.get("score")
    facts = f"{escape(task.config.group)} · operators {escape(', '.join(task.config.operators))} · stage 2: " + (
        "not validated"
        if score is None
        else f"{score:g}/100, " + ("accepted" if report.get("accepted") else "rejected")
    )
    sections = [
        ("prompt", "Prompt", f"<pre>{escape(task.prompt)}</pre>"),
        ("world", "World", _world(view)),
        ("goal", "Goal", f"<pre>{escape(task.goal or '(no goal.md)')}</pre>"),
        ("rubric", "Rubric and verifier", _rubric(view)),
        ("oracle", "Reference solution", _oracle(view)),
        ("mutants", "Mutants", _mutants(view)),
        ("alternatives", "Alternative solutions", _alternatives(view)),
        ("difficulty", "Difficulty evidence", _checks(view, "difficulty")),
        ("realism", "Realism findings", _realism(view)),
        ("playtests", "Playtests", _playtests(view)),
        ("verdict", "Verdict", _verdict(view, f"{base}task/{task.id}/review", token)),
    ]
    body = f'<p><a href="{base}">all tasks</a></p><h1>{escape(task.id)}: {escape(task.config.title)}</h1><p>{facts}</p>'
    body += "".join(
        f'<h2 id="{key}">{escape(title)}</h2><div class="section-{key}">{html}</div>' for key, title, html in sections
    )
    return page(task.id, body)
