"""Time `stageclaw report` on a synthetic leaderboard: 40 tasks x 11 agents x 3 trials = 1320 episodes.

    python benchmarks/report.py [--tasks 40] [--agents 11] [--trials 3] [--keep DIR] [--no-browser]

The run directories are fake but schema-valid: each task has a world of about 100 items
(mail, calendar, reminders, notes, contacts, files); each episode has a results.jsonl line,
trajectory.json with an OpenAI-style transcript and 5-23 tool calls (list results of 10-18 items),
grade.json with the diff of s0 and sH (made with stageclaw's own diff), s0.json, sH.json and
audit.jsonl. Agents differ in skill; failures are spread over the taxonomy's modes.

It times the whole command in a subprocess (as a user runs it), the phases in-process, and,
unless --no-browser or Chromium/Playwright are missing, opening report.html and an episode.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from stageclaw.report.build import build
from stageclaw.report.html import write
from stageclaw.run.store import write_json
from stageclaw.world.diff import diff

WORDS = (
    "budget",
    "offsite",
    "agenda",
    "invoice",
    "quarterly",
    "review",
    "travel",
    "dinner",
    "contract",
    "draft",
    "venue",
    "deposit",
    "headcount",
    "reminder",
    "approve",
    "schedule",
    "sync",
    "planning",
    "report",
    "vendor",
    "lunch",
    "flight",
    "hotel",
    "receipt",
    "tax",
)
PROMPT = "Priya asked to move our quarterly sync; move it, reply to her, and remind me an hour before it starts."
GROUPS = ("scheduling", "communication", "planning", "documents", "life_admin")
OPERATORS = (
    "cross_source_conflict",
    "hidden_dependency",
    "noisy_data",
    "entity_alignment",
    "tool_state_update",
    "cross_tool_consistency",
)
STAGES = (
    "finding the request",
    "matching the person across apps",
    "timezone conversion",
    "choosing the recipient",
    "deriving the due date",
    "updating the record",
    "writing the summary",
)
# What a failed synthetic episode did wrong (each meant to land in one mode of the taxonomy).
OUTCOMES = (
    "incomplete",  # moved the event, never made the reminder
    "wrong_value",  # moved the event to the wrong time
    "wrong_entity",  # moved another event
    "collateral",  # did everything, plus a stray note
    "tool_error",  # reminders_create failed (a fault) and was never retried
    "misuse",  # called a tool that does not exist to move the event
    "budget",  # ran out of steps
    "claimed",  # changed nothing, said it was done
    "infra",  # the provider failed
)
# Outcomes whose other checks (the non-critical check_N items) fail at random.
SLOPPY = ("wrong_value", "wrong_entity", "budget")


def text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def world(rng: random.Random, t: int) -> dict[str, Any]:
    def msg(i: int, folder: str) -> dict[str, Any]:
        return {
            "message_id": f"<m{t}-{folder}-{i}@example.com>",
            "from": f"Sender {i} <sender{i}@example.com>",
            "to": ["Lin Chen <lin.chen@example.com>"],
            "cc": [],
            "subject": f"{text(rng, 4)[:-1]} #{i}",
            "date": f"2026-03-{1 + i % 28:02d}T09:{i % 60:02d}:00+08:00",
            "flags": ["\\Seen"] if i % 3 else [],
            "body": text(rng, rng.randint(40, 120)),
            "in_reply_to": None,
            "attachments": [],
        }

    def event(i: int) -> dict[str, Any]:
        return {
            "uid": f"evt-{i}",
            "summary": f"{text(rng, 3)[:-1]} {i}",
            "start": f"2026-03-{1 + i % 28:02d}T{8 + i % 10:02d}:00:00+08:00",
            "end": f"2026-03-{1 + i % 28:02d}T{9 + i % 10:02d}:00:00+08:00",
            "all_day": False,
            "location": "Room 4",
            "description": text(rng, 20),
            "attendees": [f"a{i}@example.com"],
            "organizer": None,
            "status": None,
            "rrule": None,
        }

    return {
        "mail": {
            "folders": {
                "INBOX": [msg(i, "in") for i in range(30)],
                "Archive": [msg(i, "ar") for i in range(10)],
                "Sent": [],
                "Trash": [],
            },
            "outbox": [],
        },
        "calendar": {"Work": [event(i) for i in range(18)], "Personal": [event(i) for i in range(18, 25)]},
        "reminders": {
            "Inbox": [
                {
                    "uid": f"r-{i}",
                    "title": f"{text(rng, 3)[:-1]} {i}",
                    "notes": text(rng, 10),
                    "due": f"2026-04-{1 + i % 28:02d}",
                    "priority": None,
                    "completed": False,
                    "completed_at": None,
                }
                for i in range(15)
            ]
        },
        "notes": {
            "Notes": [
                {"uid": f"n-{i}", "title": f"Note {text(rng, 2)[:-1]} {i}", "body": text(rng, 60), "tags": []}
                for i in range(10)
            ]
        },
        "contacts": [
            {
                "uid": f"c-{i}",
                "name": f"Person {i} {rng.choice(WORDS).title()}",
                "emails": [f"p{i}@example.com"],
                "phones": [],
                "organization": "Example",
                "title": None,
                "notes": "",
                "birthday": None,
            }
            for i in range(8)
        ],
        "files": {
            f"docs/file{i}.md": {
                "sha256": hashlib.sha256(str(i).encode()).hexdigest(),
                "size": 900,
                "text": text(rng, 150),
            }
            for i in range(4)
        },
    }


def listing(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    events = state["calendar"]["Work"]
    return {"events": [{**e, "calendar": "Work"} for e in rng.sample(events, min(len(events), rng.randint(10, 18)))]}


def episode(
    rng: random.Random, s0: dict[str, Any], task: int, skill: float
) -> tuple[str, dict[str, Any], list[dict[str, Any]], str, str]:
    """(status, sH, steps, outcome, target uid) of one synthetic episode."""
    outcome = "success" if rng.random() < skill else rng.choice(OUTCOMES)
    sH = copy.deepcopy(s0)
    target = f"evt-{task % 18}"
    steps: list[dict[str, Any]] = []

    def call(tool: str, args: dict[str, Any], result: Any = None, error: str | None = None, kind: str = "tool") -> None:
        entry: dict[str, Any] = {"seq": len(steps) + 1, "t": "2026-03-10T09:00:00+08:00", "tool": tool, "args": args}
        entry["ok"] = error is None
        if error is None:
            entry["result"] = result
        else:
            entry["error"], entry["error_kind"] = error, kind
        entry["latency_ms"] = round(rng.uniform(1, 40), 3)
        steps.append(entry)

    for _ in range(rng.randint(4, 20)):
        call("calendar_list_events", {"start": "2026-03-01", "end": "2026-03-31"}, listing(s0, rng))
    work = sH["calendar"]["Work"]
    if outcome in ("success", "wrong_value", "incomplete", "collateral", "tool_error", "budget"):
        new_start = "2026-03-12T23:00:00+08:00" if outcome != "wrong_value" else "2026-03-12T15:00:00+08:00"
        event = next(e for e in work if e["uid"] == target)
        event["start"] = new_start
        call("calendar_update_event", {"uid": target, "start": new_start}, {"event": event})
    if outcome == "wrong_entity":
        wrong = next(e for e in work if e["uid"] != target)
        wrong["start"] = "2026-03-12T23:00:00+08:00"
        call("calendar_update_event", {"uid": wrong["uid"], "start": wrong["start"]}, {"event": wrong})
    if outcome == "misuse":
        call(
            "calendar_move_event", {"uid": target}, error="unknown tool 'calendar_move_event'", kind="invalid_arguments"
        )
    if outcome == "collateral":
        note = {"uid": f"n-x{rng.randint(0, 10**6)}", "title": "Scratch", "body": "stray", "tags": []}
        sH["notes"]["Notes"].append(note)
        call("notes_create", {"title": "Scratch", "body": "stray"}, {"uid": note["uid"]})
    if outcome == "tool_error":
        call("reminders_create", {"title": "Prepare for the sync"}, error="the server answered 503", kind="fault")
    elif outcome not in ("incomplete", "claimed", "infra"):
        reminder = {
            "uid": f"r-new-{rng.randint(0, 10**6)}",
            "title": "Prepare for the sync",
            "notes": "",
            "due": "2026-03-12T22:00:00+08:00",
            "priority": None,
            "completed": False,
            "completed_at": None,
        }
        sH["reminders"]["Inbox"].append(reminder)
        call("reminders_create", {"title": reminder["title"], "due": reminder["due"]}, {"uid": reminder["uid"]})
    status = {"budget": "max_steps", "infra": "infra_error"}.get(outcome, "completed")
    return status, sH, steps, outcome, target


def grade_items(outcome: str, target: str, rng: random.Random) -> list[dict[str, Any]]:
    moved = outcome in ("success", "incomplete", "collateral", "tool_error", "budget")
    reminded = outcome not in ("incomplete", "claimed", "tool_error")
    items = [
        {
            "id": "moved",
            "description": f"{target} starts at 23:00",
            "weight": 3.0,
            "critical": True,
            "kind": "check",
            "passed": moved,
            "reason": f"{target} starts 2026-03-12T23:00" if moved else f"{target} starts at the wrong time",
            "stage": "timezone conversion",
            "defect": None,
        },
        {
            "id": "reminder",
            "description": "A reminder an hour before",
            "weight": 2.0,
            "critical": True,
            "kind": "check",
            "passed": reminded,
            "reason": "reminder due 22:00" if reminded else "no new reminder was created",
            "stage": "deriving the due date",
            "defect": None,
        },
    ]
    for j in range(5):
        passed = outcome not in SLOPPY or rng.random() < 0.6
        items.append(
            {
                "id": f"check_{j}",
                "description": f"Check {j} of the task",
                "weight": 1.0,
                "critical": False,
                "kind": "check",
                "passed": passed,
                "reason": "fine" if passed else f"check {j} failed",
                "stage": STAGES[j],
                "defect": None,
            }
        )
    if outcome in SLOPPY:
        items[-1]["passed"] = False
    return items


def synthesize(root: Path, tasks: int, agents: int, trials: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    worlds = [world(rng, t) for t in range(tasks)]
    s0_text = [json.dumps(w, ensure_ascii=False, indent=2, sort_keys=True) + "\n" for w in worlds]
    meta = [(rng.choice(GROUPS), sorted(rng.sample(OPERATORS, rng.randint(2, 4)))) for _ in range(tasks)]
    count = 0
    for a in range(agents):
        name = f"openai:synthetic-{a:02d}"
        run = root / f"agent-{a:02d}"
        (run / "episodes").mkdir(parents=True)
        write_json(run / "run.json", {"agent": name, "agent_options": {}, "faults": None})
        skill = 0.15 + 0.7 * a / max(1, agents - 1)
        lines = []
        for t in range(tasks):
            task_id = f"task-{t:02d}"
            for trial in range(1, trials + 1):
                status, sH, steps, outcome, target = episode(rng, worlds[t], t, skill)
                ep = run / "episodes" / f"{task_id}__t{trial}"
                ep.mkdir()
                messages: list[dict[str, Any]] = [{"role": "system", "content": "You are ..."}]
                messages.append({"role": "user", "content": "Move the sync and remind me."})
                for s in steps:
                    cid = f"call_{s['seq']}"
                    call = {
                        "id": cid,
                        "type": "function",
                        "function": {"name": s["tool"], "arguments": json.dumps(s["args"])},
                    }
                    messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
                    content = json.dumps(s["result"] if s["ok"] else {"error": s["error"]}, ensure_ascii=False)
                    messages.append({"role": "tool", "tool_call_id": cid, "content": content})
                messages.append({"role": "assistant", "content": "Done: I moved the sync and set a reminder."})
                usage = {
                    "input_tokens": rng.randint(5_000, 60_000),
                    "output_tokens": rng.randint(200, 3000),
                    "turns": len(steps) + 1,
                }
                cost = round(
                    usage["input_tokens"] * (0.2 + a * 0.3) / 1e6 + usage["output_tokens"] * (0.8 + a) / 1e6, 6
                )
                wall = round(rng.uniform(5, 90), 3)
                write_json(
                    ep / "trajectory.json",
                    {
                        "task_id": task_id,
                        "agent": name,
                        "trial": trial,
                        "prompt": PROMPT,
                        "status": status,
                        "error": None,
                        "final_answer": "Done: I moved the sync and set a reminder.",
                        "messages": messages,
                        "steps": steps,
                        "usage": usage,
                        "wall_s": wall,
                    },
                )
                (ep / "audit.jsonl").write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in steps))
                result: dict[str, Any] = {
                    "task_id": task_id,
                    "agent": name,
                    "trial": trial,
                    "status": status,
                    "error": None,
                    "steps": len(steps),
                    "tool_errors": sum(1 for s in steps if not s["ok"]),
                    "tokens": usage,
                    "cost_usd": cost,
                    "wall_s": wall,
                    "group": meta[t][0],
                    "operators": meta[t][1],
                    "task_hash": hashlib.sha256(task_id.encode()).hexdigest(),
                    "stageclaw_version": "0.1.0",
                    "agent_config": {"provider": "openai", "model": name.split(":")[1]},
                    "faults": None,
                }
                if status == "infra_error":
                    result.update(
                        score=None, success=None, items=[], collateral=[], defects=[], failure_mode="infrastructure"
                    )
                else:
                    (ep / "s0.json").write_text(s0_text[t])
                    write_json(ep / "sH.json", sH)
                    changes = diff(worlds[t], sH)
                    items = grade_items(outcome, target, rng)
                    bad = [{"op": c["op"], "path": c["path"]} for c in changes if c["path"].startswith("notes/")]
                    items.append(
                        {
                            "id": "no_collateral_damage",
                            "description": "Nothing changed that the task did not call for",
                            "weight": 1,
                            "critical": True,
                            "kind": "collateral",
                            "passed": not bad,
                            "reason": "; ".join(f"{c['op']} {c['path']}" for c in bad),
                            "stage": "side effects",
                            "defect": None,
                        }
                    )
                    total = sum(i["weight"] for i in items)
                    score = round(100 * sum(i["weight"] for i in items if i["passed"]) / total, 2)
                    success = all(i["passed"] for i in items)
                    grade = {"items": items, "collateral": bad, "changes": changes, "score": score, "success": success}
                    write_json(ep / "grade.json", {**grade, "defects": [], "defective": False})
                    result.update(
                        score=score,
                        success=success,
                        items=[{k: i[k] for k in ("id", "passed", "weight", "critical", "reason")} for i in items],
                        collateral=bad,
                        defects=[],
                        failure_mode=None if success else "wrong_state",
                    )
                lines.append(json.dumps(result, ensure_ascii=False, sort_keys=True))
                count += 1
        (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    return count


def browser_timings(html: Path) -> dict[str, float] | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=args)
        page = browser.new_page()
        started = time.perf_counter()
        page.goto(html.as_uri())
        page.wait_for_selector("#episode-table tbody tr")
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        page.select_option("#f-outcome", "failed")
        page.wait_for_selector("#episode-table tbody tr")
        filtered = time.perf_counter() - started
        started = time.perf_counter()
        page.click("#episode-table tbody tr")
        page.wait_for_selector("#viewer .episode #diff")
        opened = time.perf_counter() - started
        started = time.perf_counter()
        page.go_back()
        page.wait_for_selector("#overview:not([hidden])")
        back = time.perf_counter() - started
        browser.close()
    return {"load": loaded, "filter": filtered, "open episode": opened, "back to list": back}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=40)
    parser.add_argument("--agents", type=int, default=11)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Write the run directories here and keep them.")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="stageclaw-report-bench-"))
    try:
        started = time.perf_counter()
        n = synthesize(root / "runs", args.tasks, args.agents, args.trials)
        size = sum(f.stat().st_size for f in (root / "runs").rglob("*") if f.is_file())
        print(f"synthesized {n} episodes ({size / 2**20:.0f} MiB) in {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        cmd = [
            sys.executable,
            "-m",
            "stageclaw",
            "report",
            str(root / "runs"),
            "--out",
            str(root / "cli" / "report.html"),
        ]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        print(f"stageclaw report (subprocess, end to end): {time.perf_counter() - started:.2f} s")

        started = time.perf_counter()
        report = build([root / "runs"])
        built = time.perf_counter() - started
        started = time.perf_counter()
        html, data = write(report, root / "report.html")
        written = time.perf_counter() - started
        print(f"  read + analyze + metrics: {built:.2f} s; render + write HTML and JSON: {written:.2f} s")
        print(f"  report.html {html.stat().st_size / 2**20:.1f} MiB, report.json {data.stat().st_size / 2**20:.1f} MiB")
        if not args.no_browser:
            timings = browser_timings(html)
            if timings is None:
                print("browser: skipped (needs playwright and /usr/bin/chromium)")
            else:
                print("browser (headless Chromium): " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items()))
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
