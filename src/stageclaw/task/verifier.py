"""The verifier runtime: a task's check functions run in a separate, time-limited process, in a
jail (`world.bwrap`) without network that sees only the Python installation, the verifier, the
runner and its input.

Authored verifiers are untrusted code: a check that raises, hangs, prints or returns junk fails
its item with the reason and marks the task as defective; it never breaks the harness. Nothing of a
check is written to disk outside its jail (its files exist only in memory, its /tmp is its own),
its output is capped, and its results are read strictly: `passed` is a JSON boolean, or the check
has a defect.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stageclaw.world import bwrap, procs
from stageclaw.world.bwrap import Identity, Jail, Limits

RUNNER = Path(__file__).with_name("verifier_runner.py")
BOX = "/verifier"
Case = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]  # (initial, final, trace)
LIMITS = Limits(processes=32, memory=2 << 30, file_size=64 << 20)
RESULTS_CAP = 16 << 20  # bytes of result lines read back
LOG_CAP = 16 << 10  # bytes of the end of what the verifier printed, for the reason it stopped


@dataclass(frozen=True)
class CheckResult:
    check: str
    passed: bool
    reason: str = ""
    defect: str | None = None


def run_checks(
    verify_py: Path,
    checks: list[str],
    initial: dict[str, Any],
    final: dict[str, Any],
    trace: dict[str, Any],
    *,
    per_check_s: float = 10.0,
) -> dict[str, CheckResult]:
    """Run each named check on (initial, final, trace); every name gets a result."""
    return run_checks_many(verify_py, checks, [(initial, final, trace)], per_check_s=per_check_s)[0]


def run_checks_many(
    verify_py: Path, checks: list[str], cases: list[Case], *, per_check_s: float = 10.0
) -> list[dict[str, CheckResult]]:
    """Run each named check on each (initial, final, trace) case, all in one sandbox process.

    Grading many states of one task (the checker's mutants) costs one sandbox start instead of
    one per state; each check still gets fresh copies of its case's states and its own time limit.
    """
    if not checks or not cases:
        return [{} for _ in cases]
    exe, mounts = bwrap.python()
    data = json.dumps({"cases": [list(case) for case in cases], "checks": checks, "per_check_s": per_check_s})
    files = {f"{BOX}/{name}": path.read_bytes() for name, path in (("verify.py", verify_py), ("runner.py", RUNNER))}
    jail = Jail(mounts, Identity.fresh(), LIMITS, files={**files, f"{BOX}/input.json": data.encode()}, cwd=BOX)
    proc = jail.popen(
        [exe, "-I", "-S", "-B", f"{BOX}/runner.py", f"{BOX}/input.json", f"{BOX}/verify.py"],
        env={"LANG": "C.UTF-8"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    limit = per_check_s * len(checks) * len(cases) + 10
    stdout, stderr, timed_out = procs.communicate(proc, b"", limit, RESULTS_CAP, LOG_CAP)
    parsed = _parse(stdout, checks, len(cases))
    if timed_out:
        why = f"it ran past {limit:g} s and was stopped"
    elif len(stdout) >= RESULTS_CAP:
        why = f"its results passed {RESULTS_CAP >> 20} MiB and were cut"
    else:
        why = (stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"])[0][:200]
    out = []
    for n in range(len(cases)):
        results = parsed.get(n, {})
        for name in checks:
            if name not in results:
                results[name] = CheckResult(name, False, defect=f"the verifier stopped before {name} ran ({why})")
        out.append({name: results[name] for name in checks})
    return out


def _parse(stdout: bytes, checks: list[str], cases: int) -> dict[int, dict[str, CheckResult]]:
    """The result lines, read strictly: a line naming a known case and check gets a result; only a JSON
    `true` passes; anything else about it (a string "false", a second line for it) is a defect."""
    out: dict[int, dict[str, CheckResult]] = {}
    for line in stdout.decode(errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(rec, dict) or rec.get("check") not in checks:
            continue
        case, name = rec.get("case"), rec["check"]
        if not isinstance(case, int) or isinstance(case, bool) or not 0 <= case < cases:
            continue
        results = out.setdefault(case, {})
        if name in results:
            results[name] = CheckResult(name, False, defect=f"the verifier reported {name} more than once")
            continue
        passed, reason, defect = rec.get("passed"), rec.get("reason", ""), rec.get("defect")
        if not isinstance(passed, bool) or not isinstance(reason, str) or not isinstance(defect, str | None):
            bad = f"passed={passed!r:.40}, reason={reason!r:.40}, defect={defect!r:.40}"
            results[name] = CheckResult(name, False, defect=f"the verifier reported {name} malformed ({bad})")
            continue
        results[name] = CheckResult(name, passed and defect is None, reason, defect)
    return out
