"""Reminders tools against the pool's real Radicale: results, stored state, diffs and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, davstore, dumps
from tests.conftest import changes, fails

WORLD = {
    "now": "2026-03-10T09:00:00+08:00",
    "timezone": "Asia/Shanghai",
    "user": {"name": "Lin Chen", "email": "lin.chen@example.com"},
}


def test_list_leaves_out_completed_unless_asked(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("reminders_list") == {
        "reminders": [
            {
                "uid": "r-1",
                "title": "Book dentist",
                "notes": "",
                "due": "2026-03-12",
                "priority": 5,
                "completed": False,
                "completed_at": None,
                "list": "Inbox",
            }
        ],
        "total": 1,
        "next_cursor": None,
    }
    everything = reg.call("reminders_list", {"include_completed": True, "list": "Inbox"})["reminders"]
    assert [(t["uid"], t["completed"]) for t in everything] == [("r-1", False), ("r-2", True)]
    assert dumps(episode.snapshot()) == dumps(s0)
    assert fails(reg, "reminders_list", list="Work").message == (
        "no reminder list named 'Work'; lists are: Inbox ('Work' is a calendar, which holds only events)"
    )


def test_create_in_the_first_list_with_every_field(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call(
        "reminders_create",
        {"title": "Call Priya", "due": "2026-03-11T10:00:00+00:00", "notes": "about Q2, budget", "priority": 1},
    )
    assert changes(s0, episode.snapshot()) == [("added", f"reminders/Inbox/{out['uid']}")]
    assert out["reminder"] == {
        "uid": out["uid"],
        "title": "Call Priya",
        "notes": "about Q2, budget",
        "due": "2026-03-11T18:00:00+08:00",
        "priority": 1,
        "completed": False,
        "completed_at": None,
        "list": "Inbox",
    }
    dated = reg.call("reminders_create", {"title": "Pay rent", "due": "2026-03-31", "list": "inbox"})["reminder"]
    assert (dated["due"], dated["priority"], dated["list"]) == ("2026-03-31", None, "Inbox")
    naive = reg.call("reminders_create", {"title": "Stretch", "due": "2026-03-10T17:30"})["reminder"]
    assert naive["due"] == "2026-03-10T17:30:00+08:00"
    assert [t["title"] for t in reg.call("reminders_list")["reminders"]] == [
        "Stretch",
        "Call Priya",
        "Book dentist",
        "Pay rent",
    ]


def test_create_without_lists_makes_reminders(make_episode: Callable[[dict[str, Any]], Episode]) -> None:
    episode = make_episode({**WORLD, "calendar": {"Work": []}})
    with Registry(episode) as reg:
        s0 = episode.snapshot()
        first = reg.call("reminders_create", {"title": "Water plants"})
        second = reg.call("reminders_create", {"title": "Buy milk"})
        assert sorted(changes(s0, episode.snapshot())) == [
            ("added", "reminders/Reminders"),
            *sorted(("added", f"reminders/Reminders/{out['uid']}") for out in (first, second)),
        ]
        assert reg.call("calendar_list_calendars")["calendars"] == [{"name": "Work"}]
    props = davstore.read_user(episode.pool.radicale.storage, episode.login)
    assert {c.name: c.components for c in props} == {"Work": ["VEVENT"], "Reminders": ["VTODO"], "Contacts": []}


def test_create_picks_the_first_list_by_name(make_episode: Callable[[dict[str, Any]], Episode]) -> None:
    episode = make_episode({**WORLD, "reminders": {"Shopping": [], "errands": []}})
    with Registry(episode) as reg:
        assert reg.call("reminders_create", {"title": "Post letter"})["reminder"]["list"] == "errands"
        assert fails(reg, "reminders_create", title="x", list="Chores").message == (
            "no reminder list named 'Chores'; lists are: errands, Shopping"
        )


def test_create_errors_change_nothing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert "no reminder list named 'Work'" in fails(reg, "reminders_create", title="x", list="Work").message
    assert "no reminder list named 'Notes'" in fails(reg, "reminders_create", title="x", list="Notes").message
    for args, expected in [
        ({"priority": 10}, "priority: Input should be less than or equal to 9"),
        ({"priority": -1}, "priority: Input should be greater than or equal to 0"),
        ({"due": "next friday"}, "bad due 'next friday': use ISO 8601"),
    ]:
        error = fails(reg, "reminders_create", title="x", **args)
        assert expected in error.message and error.kind == "invalid_arguments", args
    assert dumps(episode.snapshot()) == dumps(s0)


def test_update_changes_only_given_fields(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("reminders_update", {"uid": "r-1", "title": "Book dentist (Dr Wu)", "priority": 2, "notes": "x"})
    assert out["reminder"]["due"] == "2026-03-12"
    assert changes(s0, episode.snapshot()) == [
        ("modified", "reminders/Inbox/r-1#notes"),
        ("modified", "reminders/Inbox/r-1#priority"),
        ("modified", "reminders/Inbox/r-1#title"),
    ]
    s1 = episode.snapshot()
    cleared = reg.call("reminders_update", {"uid": "r-1", "due": "", "notes": ""})["reminder"]
    assert (cleared["due"], cleared["notes"]) == (None, "")
    assert changes(s1, episode.snapshot()) == [
        ("modified", "reminders/Inbox/r-1#due"),
        ("modified", "reminders/Inbox/r-1#notes"),
    ]
    assert "no reminder with uid 'evt-1'" in fails(reg, "reminders_update", uid="evt-1", title="x").message
    assert "bad due '12 March'" in fails(reg, "reminders_update", uid="r-1", due="12 March").message


def test_update_moves_between_lists(make_episode: Callable[[dict[str, Any]], Episode]) -> None:
    episode = make_episode({**WORLD, "reminders": {"Home": [{"uid": "t-1", "title": "Fix tap"}], "Work": []}})
    with Registry(episode) as reg:
        s0 = episode.snapshot()
        assert reg.call("reminders_update", {"uid": "t-1", "list": "Work"})["reminder"]["list"] == "Work"
        assert changes(s0, episode.snapshot()) == [("removed", "reminders/Home/t-1"), ("added", "reminders/Work/t-1")]


def test_complete_uses_the_episode_clock(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    done = reg.call("reminders_complete", {"uid": "r-1"})["reminder"]
    assert done["completed"] is True
    assert done["completed_at"].startswith("2026-03-10T09:0") and done["completed_at"].endswith("+08:00")
    s1 = episode.snapshot()
    assert changes(s0, s1) == [
        ("modified", "reminders/Inbox/r-1#completed"),
        ("modified", "reminders/Inbox/r-1#completed_at"),
    ]
    assert {k: v for k, v in done.items() if k != "list"} in s1["reminders"]["Inbox"]
    again = reg.call("reminders_complete", {"uid": "r-2"})["reminder"]
    assert again["completed_at"] == "2026-03-01T10:00:00+08:00"
    assert dumps(episode.snapshot()) == dumps(s1)
    assert "no reminder with uid 'n-1'" in fails(reg, "reminders_complete", uid="n-1").message


def test_delete_reminder(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("reminders_delete", {"uid": "r-2"}) == {"deleted": "r-2", "list": "Inbox"}
    assert changes(s0, episode.snapshot()) == [("removed", "reminders/Inbox/r-2")]
    assert fails(reg, "reminders_delete", uid="r-2").message == (
        "no reminder with uid 'r-2'; use reminders_list to find uids"
    )


def test_list_lists_counts_open_and_completed(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("reminders_list_lists") == {
        "lists": [{"name": "Inbox", "open": 1, "completed": 1}],
        "total": 1,
        "next_cursor": None,
    }
    reg.call("reminders_create", {"title": "x", "list": "Inbox"})
    assert reg.call("reminders_list_lists")["lists"] == [{"name": "Inbox", "open": 2, "completed": 1}]
    assert [c for c in changes(s0, episode.snapshot()) if c[0] != "added"] == []
