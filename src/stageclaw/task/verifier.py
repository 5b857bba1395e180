"""The verifier runtime: a task's check functions run in a separate, time-limited process,
in a bubblewrap sandbox without network that sees only the verifier and its input.

Authored verifiers are untrusted code: a check that raises, hangs, prints or returns junk fails
its item with the reason and marks the task as defective; it never breaks the harness.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stageclaw.world import bwrap

RUNNER = Path(__file__).with_name("verifier_runner.py")
BOX = "/verifier"
Case = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]  # (initial, final, trace)


@dataclass(frozen=True)
class CheckResult:
    check: str
    passed: bool
    reason: str = ""
    defect: str | None = None


def _python() -> tuple[str, str]:
    """The interpreter to run inside the sandbox and the installation folder to bind for it."""
    base = os.path.realpath(sys.base_prefix)
    exe = os.path.join(base, "bin", f"python{sys.version_info.major}.{sys.version_info.minor}")
    if not os.path.exists(exe):
        exe = os.path.realpath(sys.executable)
    return exe, base


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
    exe, prefix = _python()
    work = Path(tempfile.mkdtemp(prefix="stageclaw-verify-"))
    try:
        (work / "input.json").write_text(
            json.dumps({"cases": [list(case) for case in cases], "checks": checks, "per_check_s": per_check_s})
        )
        shutil.copyfile(verify_py, work / "verify.py")
        shutil.copyfile(RUNNER, work / "runner.py")
        argv = bwrap.base_argv(bwrap.binary())
        if not prefix.startswith("/usr/") and prefix != "/usr":
            argv += ["--ro-bind", prefix, prefix]
        argv += ["--ro-bind", str(work), BOX, "--chdir", BOX, "--setenv", "LANG", "C.UTF-8"]
        argv += [exe, "-I", "-S", "-B", f"{BOX}/runner.py", f"{BOX}/input.json", f"{BOX}/verify.py"]
        limit = per_check_s * len(checks) * len(cases) + 10
        try:
            proc = subprocess.run(argv, capture_output=True, timeout=limit, check=False)
            stdout, stderr = proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            stdout, stderr = exc.stdout or b"", exc.stderr or b""
        parsed = _parse(stdout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    why = (stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"])[0][:200]
    out = []
    for n in range(len(cases)):
        results = parsed.get(n, {})
        for name in checks:
            if name not in results:
                results[name] = CheckResult(name, False, defect=f"the verifier stopped before {name} ran ({why})")
        out.append({name: results[name] for name in checks})
    return out


def _parse(stdout: bytes) -> dict[int, dict[str, CheckResult]]:
    out: dict[int, dict[str, CheckResult]] = {}
    for line in stdout.decode(errors="replace").splitlines():
        try:
            rec = json.loads(line)
            result = CheckResult(rec["check"], bool(rec["passed"]), rec.get("reason", ""), rec.get("defect"))
            out.setdefault(int(rec["case"]), {})[rec["check"]] = result
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue
    return out
