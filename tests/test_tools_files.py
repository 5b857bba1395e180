"""The files tools on a real episode workspace."""

from __future__ import annotations

import os

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.files import READ_CAP
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode
from stageclaw.world.diff import diff

PLAN = "# Q1 plan\n\n- Ship the Orbitals integration\n- Hire a designer\n"


def changes(episode: Episode, before: dict) -> list[tuple[str, str]]:
    return [(c["op"], c["path"]) for c in diff(before, episode.snapshot())]


def refused(reg: Registry, name: str, args: dict, match: str, kind: str = "tool") -> None:
    with pytest.raises(ToolError, match=match) as exc:
        reg.call(name, args)
    assert exc.value.kind == kind


def test_list(reg: Registry) -> None:
    assert reg.call("files_list", {}) == {
        "entries": [
            {"path": "docs", "type": "dir", "size": None},
            {"path": "docs/agenda.pdf", "type": "file", "size": 86},
            {"path": "docs/plan.md", "type": "file", "size": len(PLAN)},
        ],
        "total": 3,
        "next_cursor": None,
    }
    for name in ("a/b/c.txt", "a/b-c.txt", "a/b/d/e.txt"):
        reg.call("files_write", {"path": name, "content": "x"})
    assert [e["path"] for e in reg.call("files_list", {"path": "a"})["entries"]] == [
        "a/b",
        "a/b/c.txt",
        "a/b/d",
        "a/b/d/e.txt",
        "a/b-c.txt",
    ]
    assert reg.call("files_list", {"path": "docs/plan.md"})["entries"] == [
        {"path": "docs/plan.md", "type": "file", "size": len(PLAN)}
    ]
    refused(reg, "files_list", {"path": "nope"}, "no such file or folder")
    refused(reg, "files_list", {"path": ".."}, "outside your files")


def test_read(reg: Registry, episode: Episode) -> None:
    assert reg.call("files_read", {"path": "docs/plan.md"}) == {
        "path": "docs/plan.md",
        "content": PLAN,
        "extracted": False,
    }
    assert reg.call("files_read", {"path": "./docs//plan.md"})["path"] == "docs/plan.md"
    (episode.workspace / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    refused(reg, "files_read", {"path": "photo.jpg"}, r"not a text file or a document.*terminal_run.*xxd ~/photo\.jpg")
    (episode.workspace / "latin1.txt").write_bytes("café".encode("latin-1"))
    refused(reg, "files_read", {"path": "latin1.txt"}, "not a text file")
    refused(reg, "files_read", {"path": "docs"}, "is a folder.*files_list")
    refused(reg, "files_read", {"path": "missing.md"}, "no such file")
    os.mkfifo(episode.workspace / "pipe")
    refused(reg, "files_read", {"path": "pipe"}, "not a regular file")


def test_read_caps_large_files_at_a_character_boundary(reg: Registry, episode: Episode) -> None:
    text = "é" * READ_CAP  # two bytes each: the cap falls after a whole character
    (episode.workspace / "big.txt").write_text("a" + text, encoding="utf-8")
    out = reg.call("files_read", {"path": "big.txt"})
    assert out["truncated"] is True
    assert out["content"] == "a" + "é" * ((READ_CAP - 1) // 2)
    assert f"has {1 + 2 * READ_CAP} bytes" in out["note"] and "terminal_run" in out["note"]
    assert "truncated" not in reg.call("files_read", {"path": "docs/plan.md"})


def test_write(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("files_write", {"path": "notes/2026/todo.txt", "content": "call Priya\n"}) == {
        "path": "notes/2026/todo.txt",
        "size": 11,
        "created": True,
    }
    out = reg.call("files_write", {"path": "docs/plan.md", "content": PLAN + "- Book travel 🧳\n"})
    assert out["created"] is False and out["size"] == len((PLAN + "- Book travel 🧳\n").encode())
    assert changes(episode, s0) == [
        ("modified", "files/docs/plan.md#sha256"),
        ("modified", "files/docs/plan.md#size"),
        ("modified", "files/docs/plan.md#text"),
        ("added", "files/notes/2026/todo.txt"),
    ]
    assert episode.snapshot()["files"]["notes/2026/todo.txt"]["text"] == "call Priya\n"


@pytest.mark.parametrize(
    ("path", "match"),
    [
        ("docs", "is a folder"),
        ("", "is a folder"),
        ("docs/plan.md/inner.txt", "existing file"),
        ("/tmp/x.txt", "outside your files"),
        ("../x.txt", "outside your files"),
        ("docs/../../x.txt", "outside your files"),
    ],
)
def test_write_refusals(reg: Registry, episode: Episode, path: str, match: str) -> None:
    s0 = episode.snapshot()
    with pytest.raises(ToolError, match=match):
        reg.call("files_write", {"path": path, "content": "x"})
    assert diff(s0, episode.snapshot()) == []


def test_move(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("files_move", {"src": "docs/plan.md", "dst": "archive/2026/plan-q1.md"}) == {
        "src": "docs/plan.md",
        "dst": "archive/2026/plan-q1.md",
    }
    assert reg.call("files_move", {"src": "docs/agenda.pdf", "dst": "archive"})["dst"] == "archive/agenda.pdf"
    assert reg.call("files_move", {"src": "archive/agenda.pdf", "dst": "inbox/"})["dst"] == "inbox/agenda.pdf"
    assert changes(episode, s0) == [
        ("added", "files/archive/2026/plan-q1.md"),
        ("removed", "files/docs/agenda.pdf"),
        ("removed", "files/docs/plan.md"),
        ("added", "files/inbox/agenda.pdf"),
    ]
    assert reg.call("files_move", {"src": "archive", "dst": "docs/old"})["dst"] == "docs/old"
    assert reg.call("files_read", {"path": "docs/old/2026/plan-q1.md"})["content"] == PLAN


def test_move_refusals(reg: Registry, episode: Episode) -> None:
    reg.call("files_write", {"path": "docs/plan-v2.md", "content": "v2"})
    reg.call("files_write", {"path": "other/plan.md", "content": "other"})
    s0 = episode.snapshot()
    refused(reg, "files_move", {"src": "docs/plan-v2.md", "dst": "docs/plan.md"}, "already exists.*files_delete")
    refused(reg, "files_move", {"src": "docs/plan.md", "dst": "other"}, "'other/plan.md' already exists")
    refused(reg, "files_move", {"src": "docs", "dst": "docs/sub"}, "into itself")
    refused(reg, "files_move", {"src": "nope.txt", "dst": "x.txt"}, "no such file")
    refused(reg, "files_move", {"src": "", "dst": "x"}, "not the folder itself", "invalid_arguments")
    refused(reg, "files_move", {"src": "docs/plan.md", "dst": "../plan.md"}, "outside your files")
    refused(reg, "files_move", {"src": "docs/plan.md", "dst": "docs/plan-v2.md/x"}, "existing file")
    assert diff(s0, episode.snapshot()) == []


def test_delete(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("files_delete", {"path": "docs/agenda.pdf"}) == {"deleted": "docs/agenda.pdf"}
    assert changes(episode, s0) == [("removed", "files/docs/agenda.pdf")]
    refused(reg, "files_delete", {"path": "docs"}, "not empty.*plan.md")
    reg.call("files_delete", {"path": "docs/plan.md"})
    reg.call("files_delete", {"path": "docs"})
    assert reg.call("files_list", {})["entries"] == []
    refused(reg, "files_delete", {"path": "docs"}, "no such file or folder")
    refused(reg, "files_delete", {"path": "."}, "not the folder itself", "invalid_arguments")
    refused(reg, "files_delete", {"path": "../workspace"}, "outside your files")


def test_links_out_of_the_workspace_are_not_followed(reg: Registry, episode: Episode, tmp_path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("private")
    os.symlink(outside, episode.workspace / "out")
    os.symlink(tmp_path, episode.workspace / "outdir")
    os.symlink("docs/plan.md", episode.workspace / "plan-link")
    listed = {e["path"]: e["type"] for e in reg.call("files_list", {})["entries"]}
    assert listed["out"] == listed["outdir"] == listed["plan-link"] == "link"
    refused(reg, "files_read", {"path": "out"}, "through a link")
    refused(reg, "files_write", {"path": "out", "content": "x"}, "through a link")
    refused(reg, "files_write", {"path": "outdir/new.txt", "content": "x"}, "through a link")
    refused(reg, "files_list", {"path": "outdir"}, "through a link")
    assert reg.call("files_read", {"path": "plan-link"})["content"] == PLAN  # a link inside is fine
    reg.call("files_move", {"src": "out", "dst": "moved-link"})  # moves the link, not its target
    reg.call("files_delete", {"path": "moved-link"})
    reg.call("files_delete", {"path": "outdir"})
    assert outside.read_text() == "private" and tmp_path.is_dir()
    assert not os.path.lexists(episode.workspace / "moved-link")


def test_list_pages_in_tree_order(reg: Registry, episode: Episode) -> None:
    for i in range(250):
        (episode.workspace / "bulk").mkdir(exist_ok=True)
        (episode.workspace / "bulk" / f"f{i:03d}.txt").write_text("x")
    first = reg.call("files_list", {"path": "bulk"})
    assert first["total"] == 250 and len(first["entries"]) == 200 and "entries 1-200 of 250" in first["note"]
    # A file added meanwhile before the cursor does not shift the next page.
    (episode.workspace / "bulk" / "a-new.txt").write_text("x")
    rest = reg.call("files_list", {"path": "bulk", "cursor": first["next_cursor"]})
    assert [e["path"] for e in rest["entries"]] == [f"bulk/f{i:03d}.txt" for i in range(200, 250)]
    assert rest["next_cursor"] is None and rest["total"] == 251
    refused(reg, "files_list", {"path": "docs", "cursor": first["next_cursor"]}, "other arguments", "invalid_arguments")
