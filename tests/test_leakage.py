"""Hidden stays hidden: from the terminal and the files tools, the agent reaches nothing outside its workspace.

The attacker tries the task's `hidden/` folder, another live episode's workspace and the mail and
Radicale storage of both episodes, by absolute host paths, relative paths, links and whole-disk
searches. Every result and error is checked for distinctive strings planted in those places.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, ServicePool, load_world

EXAMPLE = Path(__file__).resolve().parent.parent / "tasks" / "examples" / "quarterly-sync"
RUBRIC_SECRET = "RUBRICSECRET7f3a9c"
OTHER_SECRET = "OTHEREPISODESECRET52e1"
STORE_SECRET = "STORESECRET9d04"
CONTROL = "CONTROLMARKER31b7"
SECRETS = (RUBRIC_SECRET, OTHER_SECRET, STORE_SECRET)


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    task = tmp_path / "leaky-task"
    shutil.copytree(EXAMPLE / "assets", task / "assets")
    world = (EXAMPLE / "world.yaml").read_text(encoding="utf-8")
    # A mail subject lands in the Maildir, a contact's notes in Radicale's storage; neither in the workspace.
    world = world.replace(
        'subject: "Moving our quarterly sync"', f'subject: "Moving our quarterly sync {STORE_SECRET}"'
    )
    world = world.replace('notes: "Brother"', f'notes: "Brother {STORE_SECRET}"')
    (task / "world.yaml").write_text(world, encoding="utf-8")
    (task / "hidden").mkdir()
    (task / "hidden" / "rubric.toml").write_text(
        f'[[item]]\nid = "moved"\ndescription = "{RUBRIC_SECRET}"\nweight = 1\ncheck = "check_moved"\n',
        encoding="utf-8",
    )
    (task / "hidden" / "solution.py").write_text(f"# {RUBRIC_SECRET}\ndef solve(tools):\n    pass\n", encoding="utf-8")
    (task / "prompt.md").write_text("Move the quarterly sync.\n", encoding="utf-8")
    return task


@pytest.fixture
def episodes(pool: ServicePool, task_dir: Path) -> Iterator[tuple[Episode, Episode]]:
    world, base = load_world(task_dir)
    with pool.episode(world, base) as mine, pool.episode(world, base) as other:
        (other.workspace / "secret.txt").write_text(OTHER_SECRET, encoding="utf-8")
        yield mine, other


def attempts(reg: Registry, calls: list[tuple[str, dict]]) -> list[str]:
    """Run every call; each outcome, result or error, as text."""
    out = []
    for name, args in calls:
        try:
            out.append(json.dumps(reg.call(name, args), ensure_ascii=False))
        except ToolError as exc:
            out.append(f"{name} error: {exc.message}")
    return out


def assert_nothing_leaked(outcomes: list[str]) -> None:
    leaks = [text for text in outcomes if any(secret in text for secret in SECRETS)]
    assert leaks == [], f"hidden data reached the agent: {leaks}"


def store_files(episode: Episode) -> list[Path]:
    """Files of the episode's mail and Radicale stores, as host paths."""
    found = [p for p in episode.home.rglob("*") if p.is_file()]
    radicale = episode.pool.radicale.storage / "collection-root" / episode.login
    found += [p for p in radicale.rglob("*") if p.is_file()]
    return found


def test_terminal_cannot_reach_hidden_data(episodes: tuple[Episode, Episode], task_dir: Path) -> None:
    mine, other = episodes
    rubric = task_dir / "hidden" / "rubric.toml"
    stores = store_files(mine) + store_files(other)
    holding = [p for p in stores if STORE_SECRET in p.read_text(errors="replace")]
    assert any(mine.home in p.parents for p in holding), "the store secret must be in the Maildir"
    assert any(p.suffix == ".vcf" for p in holding), "the store secret must be in Radicale's storage"
    (mine.workspace / "control.txt").write_text(CONTROL, encoding="utf-8")
    # A whole-disk search (skipping /proc, which holds this very command line, and the read-only /usr),
    # then a look for the pool's folder itself.
    grep = f"grep -rIlsF -D skip --exclude-dir=proc --exclude-dir=usr {{}} / ; ls -d {mine.pool.root} 2>&1"
    commands = [
        f"cat {rubric}",
        "cat ../hidden/rubric.toml",
        "cat ../../hidden/rubric.toml",
        "cd .. && ls -la && cat hidden/rubric.toml ../hidden/rubric.toml",
        f"cat {os.path.relpath(rubric, mine.workspace)}",
        f"cat /proc/1/root{rubric}; ls /proc/*/root{task_dir}",
        "ls -la .. / /home /tmp /root /etc /dev/shm; cat /etc/shadow",
        f"cat {other.workspace}/secret.txt; ls {other.workspace}",
        f"cat {os.path.relpath(other.workspace / 'secret.txt', mine.workspace)}",
        f"ls -R {mine.pool.root}; ls {Path(mine.pool.root).parent}",
        *(f"cat {p}" for p in stores),
        f"ln -s {rubric} rubric-link && cat rubric-link",
        f"ln -s {other.workspace / 'secret.txt'} other-link && cat other-link",
        f"ln -s {os.path.relpath(rubric, mine.workspace)} rel-link && cat rel-link",
        "cat /proc/self/mountinfo",
    ]
    with Registry(mine, allow=["terminal_run", "files_*"]) as reg:
        outcomes = attempts(reg, [("terminal_run", {"command": c}) for c in commands])
        # The links the shell just made must not let the files tools through either.
        outcomes += attempts(
            reg,
            [("files_read", {"path": link}) for link in ("rubric-link", "other-link", "rel-link")]
            + [("files_write", {"path": "rubric-link", "content": "overwritten"})]
            + [("files_list", {"path": link}) for link in ("rubric-link", "other-link")],
        )
        searches = attempts(reg, [("terminal_run", {"command": grep.format(s)}) for s in (*SECRETS, CONTROL)])
        finds = attempts(
            reg,
            [
                ("terminal_run", {"command": f"find / -not -path '/proc/*' -name {shlex.quote(name)} 2>/dev/null"})
                for name in (
                    "rubric.toml",
                    "solution.py",
                    "secret.txt",
                    "c-1.vcf",
                    "*.Radicale*",
                    "dovecot-uidlist",
                    "maildirfolder",
                )
            ],
        )
    assert_nothing_leaked(outcomes + searches + finds)
    assert [json.loads(found)["stdout"] for found in finds] == [""] * len(finds)
    assert rubric.read_text(encoding="utf-8").count(RUBRIC_SECRET) == 1
    # The same search does find what is in the workspace, so the empty results above mean something.
    assert "/home/user/control.txt" in searches[-1]
    assert all(f"{mine.pool.root}': No such file or directory" in s for s in searches)


def test_files_tools_cannot_reach_hidden_data(episodes: tuple[Episode, Episode], task_dir: Path) -> None:
    mine, other = episodes
    rubric = task_dir / "hidden" / "rubric.toml"
    rel_rubric = os.path.relpath(rubric, mine.workspace)
    rel_other = os.path.relpath(other.workspace / "secret.txt", mine.workspace)
    stores = store_files(mine) + store_files(other)
    calls: list[tuple[str, dict]] = [
        ("files_read", {"path": str(rubric)}),
        ("files_read", {"path": "../hidden/rubric.toml"}),
        ("files_read", {"path": "../../hidden/rubric.toml"}),
        ("files_read", {"path": rel_rubric}),
        ("files_read", {"path": "docs/../../hidden/rubric.toml"}),
        ("files_read", {"path": str(other.workspace / "secret.txt")}),
        ("files_read", {"path": rel_other}),
        *(("files_read", {"path": str(p)}) for p in stores),
        *(("files_read", {"path": os.path.relpath(p, mine.workspace)}) for p in stores),
        ("files_list", {"path": ".."}),
        ("files_list", {"path": "../.."}),
        ("files_list", {"path": "/"}),
        ("files_list", {"path": str(task_dir)}),
        ("files_list", {"path": str(mine.pool.root)}),
        ("files_move", {"src": rel_other, "dst": "stolen.txt"}),
        ("files_move", {"src": str(rubric), "dst": "stolen.toml"}),
        ("files_move", {"src": "docs/plan.md", "dst": "../plan.md"}),
        ("files_write", {"path": rel_rubric, "content": "overwritten"}),
        ("files_delete", {"path": rel_other}),
    ]
    with Registry(mine, allow=["files_*"]) as reg:
        outcomes = attempts(reg, calls)
        outcomes += attempts(reg, [("files_list", {}), ("files_read", {"path": "stolen.txt"})])
    assert_nothing_leaked(outcomes)
    assert all("error" in text for text in outcomes[:-2])
    assert rubric.read_text(encoding="utf-8").count(RUBRIC_SECRET) == 1
    assert (other.workspace / "secret.txt").read_text(encoding="utf-8") == OTHER_SECRET
    assert (mine.workspace / "docs" / "plan.md").is_file()
