"""Runs inside the verifier sandbox: `python -I -S verifier_runner.py INPUT.json VERIFY.py`.

Standard library only. INPUT holds `cases`, a list of [initial, final, trace] triples, and the
check names. Each check gets fresh copies of its case's states and a time limit; its outcome is
written as one JSON line (with the case's index) to the original stdout, while anything the
verifier itself prints goes to stderr.
"""

import importlib.util
import json
import os
import signal
import sys
import traceback


class CheckTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CheckTimeout()


def _emit(out, **record):
    out.write(json.dumps(record) + "\n")
    out.flush()


def _outcome(value):
    if isinstance(value, bool):
        return value, ""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], bool) and isinstance(value[1], str):
        return value
    raise TypeError(f"returned {value!r:.120}; a check returns True/False or (bool, 'reason')")


def main():
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    with open(sys.argv[1], encoding="utf-8") as fh:
        data = json.load(fh)
    raws = [json.dumps(case) for case in data["cases"]]
    try:
        spec = importlib.util.spec_from_file_location("verify", sys.argv[2])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException:
        detail = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        for case in range(len(raws)):
            for name in data["checks"]:
                _emit(out, case=case, check=name, passed=False, defect=f"verify.py failed to load: {detail}")
        return
    signal.signal(signal.SIGALRM, _alarm)
    for case, raw in enumerate(raws):
        for name in data["checks"]:
            _emit(out, case=case, check=name, **_run(module, name, raw, data["per_check_s"]))


def _run(module, name, raw, limit):
    fn = getattr(module, name, None)
    if not callable(fn):
        return {"passed": False, "defect": f"verify.py has no function {name}"}
    initial, final, trace = json.loads(raw)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        value = fn(initial, final, trace)
    except CheckTimeout:
        return {"passed": False, "defect": f"{name} did not finish within {limit} s"}
    except BaseException as exc:  # a check that raises is a defect of the task, reported not raised
        line = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return {"passed": False, "defect": f"{name} raised {line}"}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        passed, reason = _outcome(value)
    except TypeError as exc:
        return {"passed": False, "defect": f"{name} {exc}"}
    return {"passed": passed, "reason": reason}


main()
