"""Hostile or careless task code: a solution.py that patches the grader, loops, exits or floods its output;
a verify.py that forges its result lines or floods the harness. Each is that task's defect, reported
clearly; none forges a grade or ends, stalls or bloats the harness.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import stageclaw.grade.grader
import stageclaw.task.verifier
from stageclaw.agents.base import AGENT_ERROR, TIMEOUT
from stageclaw.run.episode import run_episode
from stageclaw.task.loader import load_task
from stageclaw.task.verifier import run_checks
from stageclaw.validate.checker import validate_task
from tests.conftest import EXAMPLE

RSS_LIMIT = 400 << 20  # bytes a harness may reach while task code floods it (it starts near 150 MiB)

# Replaces every check of the rubric with one that passes, in any stageclaw it can reach.
PATCH_THE_GRADER = """
import sys

def solve(tools):
    for name, module in list(sys.modules.items()):
        if name.startswith("stageclaw"):
            for attr in ("run_checks", "run_checks_many"):
                if hasattr(module, attr):
                    setattr(module, attr, lambda *a, **k: {})
    try:
        import stageclaw.task.verifier as v
        v.CheckResult.__init__.__defaults__ = (True, "", None)
    except ImportError:
        pass
    return "patched"
"""


def _task(tmp_path: Path, solution: str, *, budget: float | None = None) -> Path:
    task = tmp_path / "task" / EXAMPLE.name
    shutil.copytree(EXAMPLE, task)
    (task / "hidden" / "solution.py").write_text(textwrap.dedent(solution))
    if budget is not None:
        toml = task / "task.toml"
        toml.write_text(toml.read_text().replace("time_budget_s = 600", f"time_budget_s = {budget:g}"))
    return task


def test_a_solution_cannot_patch_the_grader(pool, tmp_path):
    functions = (stageclaw.task.verifier.run_checks, stageclaw.grade.grader.run_checks)
    result = run_episode(pool, load_task(_task(tmp_path, PATCH_THE_GRADER)), "oracle", 1, tmp_path / "ep")
    assert (stageclaw.task.verifier.run_checks, stageclaw.grade.grader.run_checks) == functions
    assert result["status"] == "completed" and result["score"] < 100 and result["success"] is False


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("import sys\n    sys.exit(0)", "the reference solution failed: it called sys.exit(0) (line 4 of the solution"),
        ("raise ValueError('no such meeting')", "ValueError: no such meeting (line 3 of the solution"),
        ("import os\n    os._exit(0)", "process ended with exit code 0 before solve() returned"),
        ("import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)", "was killed by signal 9 (Killed)"),
        ("tools.no_such_tool()", "the reference solution's tool call failed: unknown tool 'no_such_tool'"),
        ("print('x' * (64 << 20), end='')", "sent a message over 32 MiB"),
    ],
    ids=["sys.exit", "raise", "os._exit", "SIGKILL", "tool error", "flood"],
)
def test_a_failing_solution_is_the_tasks_defect_with_a_clear_message(pool, tmp_path, body, said):
    # The flood is on the solution's own channel (its print goes to stderr, so it writes the channel directly).
    if body.startswith("print"):
        body = "import os\n    os.write(3, b'x' * (64 << 20))"
    solution = f"def solve(tools):\n    tools.now()\n    {body}\n"
    result = run_episode(pool, load_task(_task(tmp_path, solution)), "oracle", 1, tmp_path / "ep")
    assert result["status"] == AGENT_ERROR and said in result["error"], result["error"]
    assert result["steps"] >= 1  # its calls went through the episode's registry, audited


def test_sys_exit_in_a_solution_is_a_defect_in_validate_not_its_end(pool, tmp_path):
    report = validate_task(_task(tmp_path, "import sys\ndef solve(tools):\n    sys.exit(3)\n"), pool)
    oracle = report.dimensions["verifiability"].check("oracle_scores_100")
    assert not report.accepted and oracle.status == "fail" and "sys.exit(3)" in oracle.detail


def test_a_looping_solution_is_stopped_at_its_time_budget(pool, tmp_path):
    task = load_task(_task(tmp_path, "def solve(tools):\n    while True:\n        pass\n", budget=2))
    started = time.monotonic()
    result = run_episode(pool, task, "oracle", 1, tmp_path / "ep")
    assert result["status"] == TIMEOUT and "time budget of 2 s" in result["error"]
    assert time.monotonic() - started < 2 + 15  # the budget, then grading (no timing claim beyond "it ended")


def _descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child in Path(f"/proc/{parent}/task").glob("*/children"):
            kids = {int(k) for k in child.read_text().split()}
            todo += kids - found
            found |= kids
    return found


@pytest.mark.parametrize(
    ("how", "command"),
    [(signal.SIGINT, "run"), (signal.SIGTERM, "run"), (signal.SIGINT, "validate")],
    ids=["run-ctrl-c", "run-sigterm", "validate-ctrl-c"],
)
def test_a_looping_solution_stops_with_its_harness(tmp_path, how, command):
    task = _task(tmp_path, "def solve(tools):\n    tools.now()\n    while True:\n        pass\n")
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    argv = [sys.executable, "-m", "stageclaw", command, "--out", str(out)]
    argv += ["--agent", "oracle", "--tasks", str(task)] if command == "run" else ["--workers", "2", str(task)]
    harness = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not list(out.glob("**/audit.jsonl")) and time.monotonic() < deadline:
            time.sleep(0.05)  # the solution made its first call: it is looping now, in a worker thread
        spawned = _descendants(harness.pid)
        assert len(spawned) >= 3  # the servers and the jail
        harness.send_signal(how)
        harness.wait(timeout=15)  # within seconds
    finally:
        harness.kill()
    deadline = time.monotonic() + 5
    while _alive(spawned) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive(spawned) == []


def _alive(pids: set[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            if ") Z" not in Path(f"/proc/{pid}/stat").read_text():  # a zombie has ended
                alive.append(pid)
        except OSError:
            continue
    return alive


FORGE = """
import json, os, stat


def check_a(initial, final, trace):
    return False


def check_b(initial, final, trace):
    # The runner keeps its result channel on a descriptor of its own, and has written check_a's result by now:
    # add a line for check_a on every pipe there is, with a string where a boolean belongs.
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, (json.dumps({"case": 0, "check": "check_a", "passed": "false"}) + "\\n").encode())
        except OSError:
            pass
    return False
"""


# Writes the only line there is for itself, with a string where a boolean belongs, and ends the runner
# before it can write the real one.
FORGE_ALONE = """
import json, os, stat


def check_a(initial, final, trace):
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, (json.dumps({"case": 0, "check": "check_a", "passed": "false"}) + "\\n").encode())
        except OSError:
            pass
    os._exit(0)
"""


@pytest.mark.parametrize("forge", [FORGE, FORGE_ALONE], ids=["beside-the-real-line", "alone"])
def test_forged_result_lines_with_a_string_for_passed_do_not_pass(tmp_path, forge):
    verify = tmp_path / "verify.py"
    verify.write_text(forge)
    result = run_checks(verify, ["check_a", "check_b"], {}, {}, {})["check_a"]
    assert result.passed is False and result.defect is not None


FLOOD = """
import os, sys
chunk = b"x" * (1 << 20)
for _ in range(1024):  # 1 GiB of what it prints...
    os.write(2, chunk)
for _ in range(256):  # ...and a 256 MiB line on its result channel
    os.write(3, chunk)

def check_x(initial, final, trace):
    return True
"""

MEASURE = """
import json, resource, sys
from pathlib import Path
from stageclaw.task.verifier import run_checks
result = run_checks(Path(sys.argv[1]), ["check_x"], {}, {}, {})["check_x"]
print(json.dumps({"rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10, "defect": result.defect}))
"""


def test_a_verifier_flooding_its_output_does_not_bloat_the_harness(tmp_path):
    verify = tmp_path / "verify.py"
    verify.write_text(FLOOD)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", MEASURE, str(verify)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    measured = json.loads(out.stdout)
    assert measured["rss"] < RSS_LIMIT, measured
    assert "check_x" in measured["defect"] or "cut" in measured["defect"]


def test_an_alternative_solution_runs_in_the_same_jail(pool, tmp_path):
    task_dir = _task(tmp_path, (EXAMPLE / "hidden" / "solution.py").read_text())
    (task_dir / "hidden" / "alternatives").mkdir(exist_ok=True)
    (task_dir / "hidden" / "alternatives" / "peek.py").write_text(
        "import os\n\ndef solve(tools):\n    return ' '.join(sorted(os.listdir('/')))\n"
    )
    result = run_episode(pool, load_task(task_dir), "oracle:peek", 1, tmp_path / "ep")
    answer = json.loads((tmp_path / "ep" / "trajectory.json").read_text())["final_answer"]
    assert result["status"] == "completed" and result["steps"] == 0
    assert set(answer.split()) <= {
        "bin",
        "dev",
        "etc",
        "lib",
        "lib64",
        "proc",
        "root",
        "sbin",
        "solution",
        "tmp",
        "usr",
    }
