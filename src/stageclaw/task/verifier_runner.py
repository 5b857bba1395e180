"""Runs inside the verifier sandbox: `python -I -S verifier_runner.py INPUT.json VERIFY.py`.

Standard library only. Each named check gets fresh copies of the states and a time limit;
its outcome is written as one JSON line to the original stdout, while anything the verifier
itself prints goes to stderr.
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
    raw = json.dumps([data["initial"], data["final"], data["trace"]])
    try:
        spec = importlib.util.spec_from_file_location("verify", sys.argv[2])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException:
        detail = traceback.format_exc(limit=-3).strip().splitlines()[-1]
        for name in data["checks"]:
            _emit(out, check=name, passed=False, defect=f"verify.py failed to load: {detail}")
        return
    signal.signal(signal.SIGALRM, _alarm)
    for name in data["checks"]:
        fn = getattr(module, name, None)
        if not callable(fn):
            _emit(out, check=name, passed=False, defect=f"verify.py has no function {name}")
            continue
        initial, final, trace = json.loads(raw)
        signal.setitimer(signal.ITIMER_REAL, data["per_check_s"])
        try:
            value = fn(initial, final, trace)
        except CheckTimeout:
            _emit(out, check=name, passed=False, defect=f"{name} did not finish within {data['per_check_s']} s")
            continue
        except BaseException as exc:  # a check that raises is a defect of the task, reported not raised
            line = traceback.format_exception_only(type(exc), exc)[-1].strip()
            _emit(out, check=name, passed=False, defect=f"{name} raised {line}")
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            passed, reason = _outcome(value)
        except TypeError as exc:
            _emit(out, check=name, passed=False, defect=f"{name} {exc}")
            continue
        _emit(out, check=name, passed=passed, reason=reason)


main()
