"""What an LLM author is told: the task contract, generated from the code that enforces it.

Every rule a model must follow comes from where stageclaw keeps it, so the prompt cannot drift from
the checker: the rubric fields from the rubric model, the `stage` words from the diagnostics, the
`[changes] allow` semantics from the collateral check (its examples judged by it), each tool's
arguments and result shape from the tool catalogue, what `solve` and a check see from the runtime,
how each operator is detected from its detector, the mutant kinds and the dimension weights from
stage 2, and the output budget from the author's settings.
"""

from __future__ import annotations

import json
import re
from typing import Any

from stageclaw.agents.base import COMPLETED, AgentOutcome
from stageclaw.grade.collateral import allowed
from stageclaw.report.diagnostics import APP_WORDS, CHOOSING
from stageclaw.run.episode import trace_of
from stageclaw.task.model import GROUPS, RubricItem
from stageclaw.tools.audit import AuditLog
from stageclaw.tools.registry import catalogue
from stageclaw.validate.difficulty import OPERATORS, detects
from stageclaw.validate.mutants import KINDS
from stageclaw.validate.report import DEFAULT_THRESHOLD, WEIGHTS
from stageclaw.validate.verifiability import MAX_MUTANTS

# One change and one pattern per app: the prompt shows whether the pattern allows the change, as the
# collateral check judges it.
ALLOW_EXAMPLES = (
    ("mail", "~mail/folders/INBOX/*#flags", "modified", "mail/folders/INBOX/<q1@orbitals.io>#flags"),
    ("mail", "+mail/outbox/*", "added", "mail/outbox/<a1b2@example.com>"),
    ("mail", "+mail/outbox/*", "modified", "mail/outbox/<a1b2@example.com>#subject"),
    ("calendar", "~calendar/Work/evt-1", "modified", "calendar/Work/evt-1#start"),
    ("calendar", "~calendar/Work/evt-1#start", "modified", "calendar/Work/evt-1#end"),
    ("reminders", "+reminders/*/*", "added", "reminders/Inbox/r-9"),
    ("reminders", "-reminders/Inbox/r-2", "removed", "reminders/Inbox/r-2"),
    ("notes", "~notes/Notes/n-1#body", "modified", "notes/Notes/n-1#body"),
    ("contacts", "~contacts/c-*", "modified", "contacts/c-1#emails"),
    ("files", "+files/Reports/*", "added", "files/Reports/2026/q1.md"),
    ("files", "+files/Reports/**", "added", "files/Reports/2026/q1.md"),
    ("web", "+web/travel/bookings/*", "added", "web/travel/bookings/72GQA3"),
)


def _rubric() -> str:
    fields = "\n".join(f"  {name}: {f.description}" for name, f in RubricItem.model_fields.items())
    choosing = ", ".join(CHOOSING.pattern.split("|"))
    apps = "; ".join(f"{app}: {words}" for app, words in APP_WORDS.items())
    return (
        f"A rubric item has these fields:\n{fields}\n"
        "Give exactly one of check and judge. `stage` is free text; the failure diagnostics read it: a stage "
        f"with a word starting {choosing} is about choosing the right item (a failure there is the wrong item), "
        "any other is about getting a value right (a failure there is a wrong value); a word naming an app "
        f"({apps}) points the diagnosis at that app.\n"
        'A check that reads the agent\'s final answer or its steps must say so: uses = ["answer"] or ["trace"]. '
        "Stage 2 finds undeclared reading (in verify.py, and by grading with a neutral trace) and fails the task."
    )


def _allow() -> str:
    rows = []
    for app, pattern, op, path in ALLOW_EXAMPLES:
        verdict = "allowed" if allowed({"op": op, "path": path}, [pattern]) else "NOT allowed"
        rows.append(f"  {app}: {pattern!r} and the change {op} {path}: {verdict}")
    return (
        "[changes] allow lists glob patterns over change paths; any change no pattern allows fails the task "
        "(collateral damage). A change path is APP/CONTAINER/KEY[#FIELD]: mail items are keyed by Message-ID "
        "(mail/folders/NAME/<id@host>, mail/outbox/<id@host>), calendar, reminders and notes items by uid, "
        "contacts by uid, files by their path, web app rows by id. `*` matches within one path segment (it does "
        "not cross '/', it does cross '#'); `**` matches across segments; a leading + - or ~ limits a pattern to "
        "added, removed or modified changes; a pattern naming an item also covers changes of its fields. "
        "Judged by stageclaw:\n" + "\n".join(rows)
    )


def _tools() -> str:
    lines = []
    for tool in sorted(catalogue().values(), key=lambda t: t.name):
        props = tool.input_schema().get("properties", {})
        required = set(tool.input_schema().get("required", []))
        args = ", ".join(f"{name}{'' if name in required else '?'}" for name in props)
        lines.append(f"  {tool.name}({args}) -> {tool.returns}")
    return (
        "Every tool, its arguments (? optional) and the shape of its result. MESSAGE, EVENT, TODO, NOTE and "
        "CONTACT have the fields of world.yaml's items; PAGE is a web page as text with numbered links and "
        "fields:\n" + "\n".join(lines)
    )


def _runtime() -> str:
    audit = AuditLog()
    audit.entries = [
        {"tool": "notes_search", "args": {"query": "rent"}, "ok": True, "result": {"notes": []}},
        {"tool": "notes_read", "args": {"uid": "n-9"}, "ok": False, "error": "no note with uid 'n-9'"},
    ]
    example = trace_of(audit, AgentOutcome(COMPLETED, final_answer="Done: the note is updated."))
    return (
        "In hidden/solution.py, solve(tools) calls tools.NAME(**args) and gets the result as a dict (the shapes "
        "above). A failed call raises an exception whose message says what went wrong (no such item, a bad "
        "argument, an injected fault); an exception solve does not catch ends the run and the reference "
        "solution fails. What solve returns (a string) is its final answer.\n"
        "A check in hidden/verify.py is def check_x(initial, final, trace) -> (bool, reason): initial and final "
        "are the State JSON before and after; trace is what the agent did, for example "
        + json.dumps(example, ensure_ascii=False)
        + "."
    )


def _operators() -> str:
    lines = "\n".join(f"  {op}: {detects(op)}" for op in OPERATORS)
    return (
        "Difficulty operators (declare the ones your world has in task.toml `operators`). Stage 2 looks for each "
        f"in the world and the reference solution's run; a declared operator it cannot find costs points:\n{lines}"
    )


def _stage2() -> str:
    weights = ", ".join(f"{name} {weight:g}" for name, weight in WEIGHTS.items())
    kinds = "\n".join(f"  {kind}: {what}" for kind, what in KINDS.items())
    verifiability = WEIGHTS["verifiability"]
    return (
        f"Stage 2 scores the task out of {sum(WEIGHTS.values()):g} points: {weights}; a dimension with a warning "
        f"earns half its points. A task is accepted at {DEFAULT_THRESHOLD:g}.\n"
        "Verifiability runs your solution on the real servers, then makes up to "
        f"{MAX_MUTANTS} near-miss end states (mutants) from its end state:\n{kinds}\n"
        f"Each must fail at least one check (or change something allow does not allow). One mutant that passes "
        f"every check fails verifiability ({verifiability:g} points lost), and so does a field your solution "
        "changed that no mutant could make wrong. So: check every value your solution writes (a wrong date, "
        "amount, time, address, reference or count anywhere in a message, note or file must fail a check), "
        "and accept any wording; what the reply need not say, leave out of your solution's text. Every "
        "alternative solution is run the same way and must score 100 (sensitivity): a check that rejects a "
        "correct end state reached another way fails verifiability too."
    )


def _diagnostics() -> str:
    return (
        "After each attempt you get stage 2's diagnostics, naming the fields of your JSON answer "
        "(rubric.items[N] counts the items from 1; world, verify_py, solution_py, task.operators, ...)."
    )


def contract(max_tokens: int) -> str:
    """The system prompt of an LLM author whose answers may be `max_tokens` long."""
    groups = " | ".join(GROUPS)
    intro = f"""\
You write tasks for stageclaw, a benchmark of personal AI agents that act on a user's real mail, calendar,
reminders, notes, contacts, files and web apps through tools, and are graded on the state they leave behind.

A task is a folder:
- task.toml: id (lower-case, digits, '-'), title, group ({groups}), operators (see below), tools (globs,
  usually ["*"]), time_budget_s, max_steps, hint.
- prompt.md: what the user asks, in their own words. It must not state the values the checks expect
  (a computed time, a total, an address) unless the world states them too: the agent has to work them out.
- world.yaml: the initial world. Keys: now (ISO 8601 with offset), timezone (IANA), user {{name, email}},
  mail {{folders: {{INBOX: [MESSAGE], ...}}}}, calendar {{NAME: [EVENT]}}, reminders {{LIST: [TODO]}}, notes
  {{FOLDER: [NOTE]}}, contacts [CONTACT], files {{relative/path: {{text: ...}}}}. Unknown keys are errors.
  MESSAGE: message_id (<id@host>), from, to[], cc[], subject, date, flags[] (\\\\Seen, \\\\Answered, \\\\Flagged),
  body, in_reply_to, attachments [{{filename, text}}]. EVENT: uid, summary, start, end (ISO; all-day: dates with
  all_day: true, end exclusive), location, description, attendees[], organizer, status, rrule, exdates[],
  overrides[] (recurrence_id, summary, start, end, location, description, attendees[], status).
  TODO: uid, title, notes, due (date or time), priority (1-9), completed, completed_at.
  NOTE: uid, title, body, tags[]. CONTACT: uid, name, emails[], phones[], organization, title, notes, birthday.
- hidden/rubric.toml: the rubric items and [changes] allow (below).
- hidden/verify.py: the check functions, standard library only, over the State JSON (same fields as
  world.yaml; mail is {{folders: {{NAME: [MESSAGE]}}, outbox: [MESSAGE sent by the agent]}}; messages in state have
  attachments [{{filename, sha256, size}}] and invitation ({{method, uid}} on the invitations the calendar mails
  to the guests of an event the user organizes, else null: checks on the mail the agent writes skip them);
  times are ISO in the task's zone; addresses are 'Name <addr>' with the address lower-cased; files are
  {{path: {{sha256, size, text}}}}). Checks are strict about facts (exact times and amounts, the right
  recipients, no extra item) and lenient about wording and form (one mail to all or one each where the
  request allows both, a reply or a new message in the thread).
- hidden/solution.py: def solve(tools) that solves the task with the same tools as any agent. It must find
  things through the tools (search, list, read) and never hard-code values the servers assign (uids of new
  items, message ids like INBOX/3).
- hidden/alternatives/NAME.py: two or more other solutions, each a def solve(tools) that reaches the goal
  another way a careful assistant might (other wording, one message per person, another order, reading
  everything first); stage 2 runs them too and the verifier must accept every one.
- hidden/goal.md: the goal state in words, for auditors.

Your answer may be at most {max_tokens} tokens long: keep the world small and the code plain."""
    return "\n\n".join([intro, _rubric(), _allow(), _tools(), _runtime(), _operators(), _stage2(), _diagnostics()])


def tool_specs() -> list[dict[str, Any]]:
    """The tools as an agent sees them (name, description, JSON Schema), with their result shapes."""
    return [{**t.spec(), "returns": t.returns} for t in sorted(catalogue().values(), key=lambda t: t.name)]


FILES = {
    "task.toml": "task",
    "prompt.md": "prompt",
    "world.yaml": "world",
    "hidden/rubric.toml": "rubric",
    "hidden/verify.py": "verify_py",
    "hidden/solution.py": "solution_py",
    "hidden/goal.md": "goal",
}
_FILE = re.compile(
    r"(?<![\w./])(?:hidden/)?(task\.toml|prompt\.md|world\.yaml|rubric\.toml|verify\.py|solution\.py|goal\.md)"
    r"(?::\s*([A-Za-z_][\w.]*(?:\[\d+\][\w.]*)*)(?=:))?"
)


def _field(match: re.Match[str]) -> str:
    name = match.group(1)
    field = FILES.get(name) or FILES[f"hidden/{name}"]
    where = match.group(2)
    if not where:
        return field
    where = re.sub(r"^item\[", "items[", where)  # rubric.toml's [[item]] array is the answer's rubric.items
    where = re.sub(r"\[(\d+)\]", lambda m: f"[{int(m.group(1)) + 1}]", where)  # counted from 1
    return f"{field}.{where}"


def locate(text: str, scratch: str) -> str:
    """A diagnostic in the words of the author's JSON answer: the scratch folder left out, a task file
    named by its answer field, and positions in it counted from 1 (`rubric.items[4].check`)."""
    text = re.sub(re.escape(scratch.rstrip("/")) + r"/[^/\s]+/", "", text)
    return _FILE.sub(_field, text)
