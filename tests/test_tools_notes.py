"""Notes tools against the pool's real Radicale: results, stored state, diffs and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, davstore, dumps
from tests.conftest import changes, fails

N1 = {
    "uid": "n-1",
    "title": "Orbitals account",
    "body": "Priya Raman is our contact at Orbitals; she prefers afternoons, London time.",
    "tags": ["orbitals", "work"],
    "folder": "Notes",
}


def test_list_read_and_search_change_nothing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("notes_list") == {"notes": [N1], "total": 1, "next_cursor": None}
    assert reg.call("notes_list", {"folder": "Notes"}) == {"notes": [N1], "total": 1, "next_cursor": None}
    assert reg.call("notes_read", {"uid": "n-1"}) == N1
    for query in ("orbitals ACCOUNT", "AFTERNOONS", "work", "london time"):
        assert reg.call("notes_search", {"query": query}) == {"notes": [N1], "total": 1, "next_cursor": None}, query
    assert reg.call("notes_search", {"query": "dentist"}) == {"notes": [], "total": 0, "next_cursor": None}
    assert dumps(episode.snapshot()) == dumps(s0)


def test_read_and_list_errors(reg: Registry) -> None:
    assert fails(reg, "notes_read", uid="n-9").message == "no note with uid 'n-9'; use notes_list to find uids"
    assert "no note with uid 'evt-1'" in fails(reg, "notes_read", uid="evt-1").message  # an event
    assert fails(reg, "notes_list", folder="Inbox").message == (
        "no notes folder named 'Inbox'; folders are: Notes ('Inbox' is a reminder list, which holds only reminders)"
    )
    empty = fails(reg, "notes_search", query="")
    assert empty.kind == "invalid_arguments" and "query" in empty.message


def test_create_in_notes_as_a_journal(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call(
        "notes_create", {"title": "Ideas, Q2", "body": "one; two\nthree", "tags": ["plans", " work ", "plans", ""]}
    )
    assert out["note"] == {
        "uid": out["uid"],
        "title": "Ideas, Q2",
        "body": "one; two\nthree",
        "tags": ["plans", "work"],
        "folder": "Notes",
    }
    s1 = episode.snapshot()
    assert changes(s0, s1) == [("added", f"notes/Notes/{out['uid']}")]
    assert {k: v for k, v in out["note"].items() if k != "folder"} in s1["notes"]["Notes"]
    root = davstore.user_root(episode.pool.radicale.storage, episode.login)
    raw = (root / "notes-notes" / f"{out['uid']}.ics").read_text()
    assert "BEGIN:VJOURNAL" in raw and "VEVENT" not in raw and "CREATED:20260310T01" in raw
    assert [n["uid"] for n in reg.call("notes_search", {"query": "PLANS"})["notes"]] == [out["uid"]]


def test_create_refuses_other_kinds_of_collections(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert fails(reg, "notes_create", title="x", body="y", folder="Work").message == (
        "no notes folder named 'Work'; folders are: Notes ('Work' is a calendar, which holds only events)"
    )
    assert "no notes folder named 'Ideas'" in fails(reg, "notes_create", title="x", body="y", folder="Ideas").message
    assert "body: Field required" in fails(reg, "notes_create", title="x").message
    assert dumps(episode.snapshot()) == dumps(s0)


def test_create_without_folders_makes_notes(make_episode: Callable[[dict[str, Any]], Episode]) -> None:
    episode = make_episode(
        {
            "now": "2026-03-10T09:00:00+08:00",
            "timezone": "Asia/Shanghai",
            "user": {"name": "Lin Chen", "email": "lin.chen@example.com"},
            "notes": {"Journal": []},
        }
    )
    with Registry(episode) as reg:
        s0 = episode.snapshot()
        out = reg.call("notes_create", {"title": "Groceries", "body": "eggs"})
        assert out["note"]["folder"] == "Notes"
        assert changes(s0, episode.snapshot()) == [("added", "notes/Notes"), ("added", f"notes/Notes/{out['uid']}")]
        assert (
            reg.call("notes_create", {"title": "Dream", "body": "…", "folder": "journal"})["note"]["folder"]
            == "Journal"
        )
        assert [n["folder"] for n in reg.call("notes_list")["notes"]] == ["Journal", "Notes"]


def test_update_changes_only_given_fields(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("notes_update", {"uid": "n-1", "body": "Priya moved to Berlin."})
    assert out["note"] == {**N1, "body": "Priya moved to Berlin."}
    s1 = episode.snapshot()
    assert changes(s0, s1) == [("modified", "notes/Notes/n-1#body")]
    retitled = reg.call("notes_update", {"uid": "n-1", "title": "Orbitals", "tags": []})["note"]
    assert (retitled["title"], retitled["tags"]) == ("Orbitals", [])
    assert changes(s1, episode.snapshot()) == [
        ("modified", "notes/Notes/n-1#tags"),
        ("modified", "notes/Notes/n-1#title"),
    ]
    assert "no note with uid 'r-1'" in fails(reg, "notes_update", uid="r-1", body="x").message


def test_delete_note(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("notes_delete", {"uid": "n-1"}) == {"deleted": "n-1", "folder": "Notes"}
    assert changes(s0, episode.snapshot()) == [("removed", "notes/Notes/n-1")]
    assert reg.call("notes_list") == {"notes": [], "total": 0, "next_cursor": None}
    assert "no note with uid 'n-1'" in fails(reg, "notes_delete", uid="n-1").message


def test_long_notes_page_by_size_and_each_comes_once(reg: Registry) -> None:
    for i in range(12):
        reg.call("notes_create", {"title": f"Log {i:02d}", "body": f"entry {i}\n" + "x" * 9000})
    seen, cursor = [], None
    while True:
        page = reg.call("notes_search", {"query": "entry", **({"cursor": cursor} if cursor else {})})
        # A page stops before its notes pass the size budget, though the default limit is 20.
        assert page["total"] == 12 and 1 <= len(page["notes"]) <= 4
        seen += [n["title"] for n in page["notes"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"Log {i:02d}" for i in range(12)]
