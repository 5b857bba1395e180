"""Episodes per minute and peak memory of the oracle over the benchmark, by backend and workers.

    python benchmarks/scale.py [--tasks DIR] [--trials N] [--local 1,2,4,8] [--ray 1,2,4,8]

Each setting runs in a fresh Python process (a new run directory, new pools, for ray a new local
cluster), so that none inherits another's memory. Episodes per minute count from the start of
`run` to its end: for the local backend that includes starting the service pool; for ray, starting
the actors and their pools, but not the cluster (its start is shown apart: once per command).
Peak memory is the largest sum, over the samples taken every 0.2 s, of the proportional set size
(PSS: shared pages split between their users) of that process and everything below it: the servers,
browsers, and for ray the raylet, GCS, agents, workers and actors. CPU seconds per episode are
those of every process the setting started (startup included; counted by a cgroup of its own, so
only where this may make one, as root), which do not depend on what else the machine runs; the
machine's load average at the end of each setting says how much that was.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stageclaw.run.backend import connect_ray
from stageclaw.run.runner import RunConfig, run
from stageclaw.task.loader import load_tasks

TASKS = Path(__file__).resolve().parent.parent / "tasks"
SAMPLE_S = 0.2


def tree(root: int) -> list[int]:
    """`root` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, frontier = [root], [root]
    while frontier:
        below = children.get(frontier.pop(), [])
        found += below
        frontier += below
    return found


def pss_kib(pid: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:  # gone, or a kernel thread
        return 0
    return next((int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")), 0)


def cpu_cgroup() -> Path | None:
    """A new cgroup that counts CPU time (cgroup v1 cpuacct, or v2), or None where this may not make one.

    Unlike the children's rusage it also counts processes nobody waited for (Ray's workers are reparented).
    """
    for line in Path("/proc/mounts").read_text().splitlines():
        _, where, kind, options = line.split()[:4]
        if kind == "cgroup2" or (kind == "cgroup" and "cpuacct" in options.split(",")):
            try:
                return Path(tempfile.mkdtemp(prefix="stageclaw-scale-", dir=where))
            except OSError:
                continue
    return None


def cpu_seconds(group: Path) -> float:
    if (group / "cpuacct.usage").is_file():
        return int((group / "cpuacct.usage").read_text()) / 1e9
    usage = (group / "cpu.stat").read_text().split()
    return int(usage[usage.index("usage_usec") + 1]) / 1e6


def measure(backend: str, workers: int, tasks: Path, trials: int) -> dict[str, float | None]:
    """Run one setting in a child process; its figures, the peak PSS and the CPU time of its process tree."""
    argv = [sys.executable, __file__, "--child", backend, str(workers), "--tasks", str(tasks), "--trials", str(trials)]
    group = cpu_cgroup()

    def join_group() -> None:  # in the child, before it starts anything
        if group is not None:
            (group / "cgroup.procs").write_text(str(os.getpid()))

    child = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, preexec_fn=join_group)
    peak = 0
    while child.poll() is None:
        peak = max(peak, sum(pss_kib(pid) for pid in tree(child.pid)))
        time.sleep(SAMPLE_S)
    assert child.stdout is not None and child.returncode == 0, f"{backend} x {workers} failed"
    cpu = None
    if group is not None:
        cpu = cpu_seconds(group)
        deadline = time.monotonic() + 10  # for the stragglers of Ray's shutdown
        while (left := (group / "cgroup.procs").read_text().split()) and time.monotonic() < deadline:
            time.sleep(SAMPLE_S)
        assert not left, f"{backend} x {workers} left processes behind: {left}"
        group.rmdir()
    figures = json.loads(child.stdout.read().splitlines()[-1])
    return {**figures, "peak_mib": peak / 1024, "cpu_s": cpu, "load": os.getloadavg()[0]}


def child(backend: str, workers: int, tasks_dir: Path, trials: int) -> None:
    tasks, errors = load_tasks(tasks_dir)
    assert tasks and not errors, errors
    cluster_s = 0.0
    if backend == "ray":
        started = time.perf_counter()
        connect_ray()
        cluster_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="stageclaw-scale-") as out:
        config = RunConfig(agent="oracle", out=Path(out), trials=trials, workers=workers, backend=backend)
        started = time.perf_counter()
        summary = run(tasks, config)
        wall = time.perf_counter() - started
    if backend == "ray":
        import ray

        ray.shutdown()
    figures = {"episodes": summary["episodes"], "wall_s": wall, "cluster_s": cluster_s}
    print(json.dumps({**figures, "success_rate": summary["success_rate"]}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=Path, default=TASKS)
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--local", default="1,2,4,8", help="worker counts for the local backend ('' for none)")
    parser.add_argument("--ray", default="1,2,4,8", help="worker counts for the ray backend ('' for none)")
    parser.add_argument("--child", nargs=2, metavar=("BACKEND", "WORKERS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.tasks, args.trials)
        return
    episodes = len(load_tasks(args.tasks)[0]) * args.trials
    print(f"{episodes} episodes per setting ({args.trials} trials of each task), {os.cpu_count()} CPUs")
    head = f"{'backend':>7} {'workers':>7} {'wall s':>7} {'episodes/min':>12} {'peak MiB':>8} {'CPU s/episode':>13}"
    print(f"{head} {'cluster start s':>15} {'load':>5}")
    settings = [("local", w) for w in args.local.split(",") if w] + [("ray", w) for w in args.ray.split(",") if w]
    for backend, workers in settings:
        m = measure(backend, int(workers), args.tasks, args.trials)
        assert m["success_rate"] == 1.0, m
        per_min = m["episodes"] / m["wall_s"] * 60
        cluster = f"{m['cluster_s']:15.1f}" if backend == "ray" else f"{'':>15}"
        cpu = f"{m['cpu_s'] / m['episodes']:13.2f}" if m["cpu_s"] is not None else f"{'-':>13}"
        line = f"{backend:>7} {workers:>7} {m['wall_s']:7.1f} {per_min:12.1f} {m['peak_mib']:8.0f} {cpu}"
        print(f"{line} {cluster} {m['load']:5.1f}", flush=True)


if __name__ == "__main__":
    main()
