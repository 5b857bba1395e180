"""terminal_run in the real bubblewrap sandbox."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.tools.sandbox import OUTPUT_CAP, faketime_library
from stageclaw.world import Episode
from stageclaw.world.diff import diff


def run(reg: Registry, command: str, **extra: object) -> dict:
    return reg.call("terminal_run", {"command": command, **extra})


def processes_with(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            found.append(f"{pid}: {cmd}")
    return found


def test_streams_and_exit_codes(reg: Registry) -> None:
    assert run(reg, "echo out; echo err >&2; exit_code=3; (exit $exit_code)") == {
        "exit_code": 3,
        "stdout": "out\n",
        "stderr": "err\n",
    }
    assert run(reg, "echo $?")["stdout"] == "3\n"  # the last status carries over, as in a terminal
    assert run(reg, "ls no-such-file")["exit_code"] == 2
    assert run(reg, "printf 'no newline'") == {"exit_code": 0, "stdout": "no newline", "stderr": ""}


def test_state_persists_between_calls(reg: Registry) -> None:
    run(reg, "cd docs && export COLOR=teal && greet() { echo hi $1; }")
    assert run(reg, "pwd; echo $COLOR; greet Lin")["stdout"] == "/home/user/docs\nteal\nhi Lin\n"
    assert run(reg, "cd ~ && pwd")["stdout"] == "/home/user\n"


def test_sees_the_workspace_and_writes_show_in_the_snapshot(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = run(reg, "ls docs; grep -c Orbitals docs/plan.md; echo 'from the shell' > new.txt; rm docs/agenda.pdf")
    assert out["stdout"] == "agenda.pdf\nplan.md\n1\n"
    assert [(c["op"], c["path"]) for c in diff(s0, episode.snapshot())] == [
        ("removed", "files/docs/agenda.pdf"),
        ("added", "files/new.txt"),
    ]
    assert reg.call("files_read", {"path": "new.txt"})["content"] == "from the shell\n"
    assert run(reg, "id -un; echo $HOME; ls -ld /usr; touch /usr/x")["stdout"].startswith("user\n/home/user\n")


def test_commands_get_no_input_and_cannot_break_the_protocol(reg: Registry) -> None:
    assert run(reg, "cat; read line; echo read=$?")["stdout"] == "read=1\n"
    spoof = "__stageclaw_0123456789abcdef0123456789abcdef 0"
    out = run(reg, f"echo '{spoof}'; echo '{spoof}' >&2; sleep 0.2; echo after; exit_code=5; (exit 5)")
    assert out == {"exit_code": 5, "stdout": f"{spoof}\nafter\n", "stderr": f"{spoof}\n"}
    out = run(reg, "echo 'unterminated")
    assert out["exit_code"] == 2 and "unexpected EOF" in out["stderr"]
    assert run(reg, "echo still here")["stdout"] == "still here\n"
    assert run(reg, "-x")["exit_code"] == 127  # a leading dash is a command, not an option of the harness


def test_timeout_kills_the_shell_and_the_next_call_starts_fresh(reg: Registry) -> None:
    run(reg, "cd docs; X=1")
    started = time.monotonic()
    out = run(reg, "echo before; sleep 30 & sleep 0.1; wait", timeout_s=1)
    assert time.monotonic() - started < 3
    assert out["exit_code"] == 124 and out["stdout"] == "before\n" and "timed out after 1 s" in out["note"]
    assert run(reg, "pwd; echo x=$X") == {"exit_code": 0, "stdout": "/home/user\nx=\n", "stderr": ""}


def test_exit_restarts_the_shell(reg: Registry) -> None:
    run(reg, "cd docs")
    out = run(reg, "echo bye; exit 7")
    assert out["exit_code"] == 7 and out["stdout"] == "bye\n" and "shell exited" in out["note"]
    assert run(reg, "pwd")["stdout"] == "/home/user\n"


def test_a_reset_gives_a_fresh_shell_on_the_new_workspace(reg: Registry, episode: Episode) -> None:
    run(reg, "echo draft > draft.txt; cd docs")
    episode.reset()
    assert run(reg, "pwd; ls") == {"exit_code": 0, "stdout": "/home/user\ndocs\n", "stderr": ""}


def test_output_is_capped(reg: Registry) -> None:
    out = run(reg, "head -c 200000 /dev/zero | tr '\\0' a; seq 1 5 >&2")
    assert out["stdout"].startswith("a" * OUTPUT_CAP + "\n[truncated: showed the first 65536 of 200000 bytes")
    assert out["stderr"] == "1\n2\n3\n4\n5\n" and out["exit_code"] == 0
    assert run(reg, "yes | head -c 10")["stdout"] == "y\ny\ny\ny\ny\n"


def test_background_jobs_do_not_hold_the_answer(reg: Registry) -> None:
    started = time.monotonic()
    assert run(reg, "sleep 5 & echo started")["stdout"] == "started\n"
    assert time.monotonic() - started < 1


def test_no_network(reg: Registry, episode: Episode) -> None:
    port = episode.endpoints.imap_port
    out = run(reg, f"(echo > /dev/tcp/127.0.0.1/{port}) && echo CONNECTED")
    assert out["exit_code"] != 0 and "CONNECTED" not in out["stdout"]
    script = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2); print('CONNECTED')"
    out = run(reg, f'python3 -c "{script}"')
    assert out["exit_code"] != 0 and "CONNECTED" not in out["stdout"]


@pytest.mark.skipif(faketime_library() is None, reason="libfaketime is not installed")
def test_clock_is_the_episode_clock(reg: Registry) -> None:
    out = run(reg, "date '+%F %H:%M %z'; echo $TZ; python3 -c 'import datetime; print(datetime.date.today())'")
    stamp, zone, today = out["stdout"].splitlines()
    assert stamp in ("2026-03-10 09:00 +0800", "2026-03-10 09:01 +0800") and zone == "Asia/Shanghai"
    assert today == "2026-03-10"
    before, after = run(reg, "date +%s.%N; sleep 0.3; date +%s.%N")["stdout"].split()
    assert 0.25 < float(after) - float(before) < 1.5  # the fake clock advances in real time


def test_what_the_episode_writes_is_dated_by_the_world_clock(reg: Registry, episode: Episode) -> None:
    # The kernel stamps a written file with the real date, months from the world's: `ls -l` would show a
    # day the world has not reached. The world here is 2026-03-10 09:00 in Shanghai. (Within the command that
    # writes it, a file still shows the real date: the stamps are moved between calls.)
    reg.call("files_write", {"path": "by-tool.txt", "content": "x"})
    run(reg, "echo x > by-shell.txt; mkdir made; touch -d '2026-01-05 10:00' old.txt")
    out = run(reg, "ls -l --time-style=+%F")
    listing = {line.split()[-1]: line.split()[-2] for line in out["stdout"].splitlines()[1:]}
    assert listing["by-tool.txt"] == listing["by-shell.txt"] == listing["made"] == "2026-03-10", listing
    assert listing["docs"] == "2026-03-10" and listing["old.txt"] == "2026-01-05"  # seeded; set by the command
    stamp = float(run(reg, "stat -c %Y by-shell.txt")["stdout"])
    assert abs(stamp - episode.clock.now().timestamp()) < 30
    assert run(reg, "date -r by-shell.txt +%F")["stdout"] == "2026-03-10\n"  # and it stays so


def test_redating_never_reaches_outside_the_workspace(reg: Registry, tmp_path) -> None:
    # The agent plants a link to a host file written just now; the redating must move the link, not the file.
    outside = tmp_path / "host-file"
    outside.write_text("host")
    before = outside.stat().st_mtime_ns
    run(reg, f"ln -s {outside} link; mkdir -p deep && ln -s {tmp_path} deep/dir")
    run(reg, "true")
    assert outside.stat().st_mtime_ns == before
    assert run(reg, "stat -c %y link | cut -c1-10")["stdout"] == "2026-03-10\n"  # the link itself is redated


def test_arguments_are_checked(reg: Registry) -> None:
    for args in ({"command": "  "}, {"command": "ls", "timeout_s": 0}, {"command": "ls", "timeout_s": 301}, {}):
        with pytest.raises(ToolError) as exc:
            reg.call("terminal_run", args)
        assert exc.value.kind == "invalid_arguments"
    with pytest.raises(ToolError, match="files_write"):
        run(reg, "echo " + "x" * 100_001)


def wait_for(check: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + 2
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    return check()


def test_close_leaves_no_process_behind(episode: Episode) -> None:
    reg = Registry(episode, allow=["terminal_run"])
    try:
        run(reg, "sleep 4242.5 & sleep 4243.5 & (sleep 4244.5 &) ; echo ok")
        assert wait_for(lambda: len(processes_with("sleep 424")) == 3)
    finally:
        reg.close()
    assert wait_for(lambda: processes_with("sleep 424") == [])
    assert [p for p in processes_with("bwrap") if episode.login in p] == []


def test_missing_bwrap_is_a_clear_error(episode: Episode, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with (
        Registry(episode, allow=["terminal_run"]) as reg,
        pytest.raises(ToolError, match="apt-get install bubblewrap") as exc,
    ):
        run(reg, "ls")
    assert exc.value.kind == "internal"


def test_round_trip_is_fast(reg: Registry) -> None:
    run(reg, "true")
    times = []
    for _ in range(50):
        started = time.perf_counter()
        run(reg, "true")
        times.append(time.perf_counter() - started)
    median_ms = statistics.median(times) * 1000
    print(f"terminal_run round trip: median {median_ms:.2f} ms")
    assert median_ms < 20
