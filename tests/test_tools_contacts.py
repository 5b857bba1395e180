"""The contacts tools against the pool's real Radicale (CardDAV)."""

from __future__ import annotations

import pytest

from stageclaw.tools.base import ToolError
from stageclaw.tools.contacts import AddressBook
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode
from stageclaw.world.diff import diff
from tests.conftest import changes


def uids(result: dict) -> list[str]:
    return [c["uid"] for c in result["contacts"]]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("PRIYA", ["c-1"]),  # name, any case
        ("orbitals.io", ["c-1"]),  # email domain
        ("orbit", ["c-1"]),  # organization
        ("account director", ["c-1"]),  # job title
        ("7946", ["c-1"]),  # phone
        ("brother", ["c-2"]),  # notes
        ("陈", ["c-2"]),  # non-Latin name
        ("chen.family", ["c-2"]),
        ("nobody-by-this-name", []),
        ("<&>'\"", []),  # XML metacharacters are escaped, not injected
    ],
)
def test_search_matches_every_field(reg: Registry, query: str, expected: list[str]) -> None:
    assert uids(reg.call("contacts_search", {"query": query})) == expected


def test_search_results_are_state_json_contacts(reg: Registry, episode: Episode) -> None:
    everyone = reg.call("contacts_search", {"query": "  "})
    state = {c["uid"]: c for c in episode.snapshot()["contacts"]}
    assert sorted(uids(everyone)) == ["c-1", "c-2"]
    for contact in everyone["contacts"]:
        assert contact == state[contact["uid"]]
    assert reg.call("contacts_get", {"uid": "c-2"}) == state["c-2"]
    assert set(state["c-1"]) == {"uid", "name", "emails", "phones", "organization", "title", "notes", "birthday"}


def test_get_errors(reg: Registry) -> None:
    with pytest.raises(ToolError, match=r"no contact with uid 'C-1'.*contacts_search") as exc:
        reg.call("contacts_get", {"uid": "C-1"})  # uids are exact
    assert exc.value.kind == "tool"
    with pytest.raises(ToolError) as exc:
        reg.call("contacts_get", {"uid": " "})
    assert exc.value.kind == "invalid_arguments"
    with pytest.raises(ToolError, match="unknown argument"):
        reg.call("contacts_get", {"uid": "c-1", "name": "x"})


def test_update_changes_only_given_fields(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    out = reg.call("contacts_update", {"uid": "c-1", "emails": ["priya@orbitals.io", "Priya R <P.Raman@Gmail.com>"]})
    assert out["contact"]["emails"] == ["priya@orbitals.io", "p.raman@gmail.com"]
    s1 = episode.snapshot()
    assert changes(s0, s1) == [("modified", "contacts/c-1#emails")]
    assert reg.call("contacts_get", {"uid": "c-1"}) == out["contact"]

    reg.call(
        "contacts_update",
        {
            "uid": "c-1",
            "name": "Priya Raman-Shah",
            "organization": "",
            "birthday": "1985-02-03",
            "notes": "Met in Leeds",
        },
    )
    s2 = episode.snapshot()
    assert changes(s1, s2) == [
        ("modified", "contacts/c-1#birthday"),
        ("modified", "contacts/c-1#name"),
        ("modified", "contacts/c-1#notes"),
        ("modified", "contacts/c-1#organization"),
    ]
    c1 = next(c for c in s2["contacts"] if c["uid"] == "c-1")
    assert (c1["name"], c1["organization"], c1["birthday"], c1["notes"]) == (
        "Priya Raman-Shah",
        "",
        "1985-02-03",
        "Met in Leeds",
    )
    assert c1["phones"] == ["+44 20 7946 0991"] and c1["title"] == "Account Director"
    assert uids(reg.call("contacts_search", {"query": "raman-shah"})) == ["c-1"]

    reg.call("contacts_update", {"uid": "c-2", "phones": ["+86 138 0000 0000"], "title": "Engineer", "birthday": ""})
    assert changes(s2, episode.snapshot()) == [
        ("modified", "contacts/c-2#birthday"),
        ("modified", "contacts/c-2#phones"),
        ("modified", "contacts/c-2#title"),
    ]


@pytest.mark.parametrize(
    ("args", "kind", "message"),
    [
        ({"uid": "c-1"}, "invalid_arguments", "at least one field"),
        ({"uid": "c-1", "birthday": "1985-02-30"}, "invalid_arguments", "YYYY-MM-DD"),
        ({"uid": "c-1", "emails": ["not an address"]}, "invalid_arguments", "not an email address"),
        ({"uid": "c-1", "name": "  "}, "invalid_arguments", "cannot be empty"),
        ({"uid": "c-404", "title": "x"}, "tool", "no contact with uid 'c-404'"),
        ({"uid": "c-1", "emails": "priya@orbitals.io"}, "invalid_arguments", "emails"),
    ],
)
def test_update_errors_change_nothing(reg: Registry, episode: Episode, args: dict, kind: str, message: str) -> None:
    s0 = episode.snapshot()
    with pytest.raises(ToolError, match=message) as exc:
        reg.call("contacts_update", args)
    assert exc.value.kind == kind
    assert diff(s0, episode.snapshot()) == []


def test_stale_etag_is_refused_with_a_hint(reg: Registry, episode: Episode) -> None:
    ep = episode.endpoints
    book = AddressBook(ep.dav_url, ep.login, ep.password)
    try:
        stale = book.get("c-1")
        reg.call("contacts_update", {"uid": "c-1", "title": "CEO"})
        with pytest.raises(ToolError, match=r"changed meanwhile.*contacts_get"):
            book.put(stale.href, stale.data, etag=stale.etag, action="update contact 'c-1'")
    finally:
        book.close()
    assert reg.call("contacts_get", {"uid": "c-1"})["title"] == "CEO"


def test_create(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    uid = reg.call(
        "contacts_create",
        {"name": "Ana Lima", "emails": ["Ana@Lima.dev"], "phones": ["+55 11 5555 0100"], "organization": "Lima Labs"},
    )["uid"]
    other = reg.call("contacts_create", {"name": "Bo"})["uid"]
    assert uid != other and uid not in ("c-1", "c-2")
    s1 = episode.snapshot()
    assert changes(s0, s1) == sorted([("added", f"contacts/{uid}"), ("added", f"contacts/{other}")], key=lambda c: c[1])
    created = next(c for c in s1["contacts"] if c["uid"] == uid)
    assert created == {
        "uid": uid,
        "name": "Ana Lima",
        "emails": ["ana@lima.dev"],
        "phones": ["+55 11 5555 0100"],
        "organization": "Lima Labs",
        "title": "",
        "notes": "",
        "birthday": None,
    }
    assert reg.call("contacts_get", {"uid": uid}) == created
    assert uids(reg.call("contacts_search", {"query": "lima.dev"})) == [uid]


@pytest.mark.parametrize(
    ("args", "message"),
    [({"name": ""}, "cannot be empty"), ({"name": "X", "emails": ["x at y"]}, "not an email"), ({}, "name")],
)
def test_create_errors(reg: Registry, episode: Episode, args: dict, message: str) -> None:
    s0 = episode.snapshot()
    with pytest.raises(ToolError, match=message) as exc:
        reg.call("contacts_create", args)
    assert exc.value.kind == "invalid_arguments"
    assert diff(s0, episode.snapshot()) == []


def test_server_refusals_become_tool_errors(reg: Registry, episode: Episode, pool) -> None:
    with pool.episode(episode.world, episode.base) as other:
        ep = episode.endpoints
        book = AddressBook(ep.dav_url, ep.login, ep.password)
        try:
            book.path = f"/{other.login}/contacts/"  # someone else's address book
            with pytest.raises(ToolError, match="403"):
                book.query(None)
            book.path = f"/{ep.login}/contacts/"
            assert book.http.request("DELETE", book.path).status_code in (200, 204)
        finally:
            book.close()
    with pytest.raises(ToolError, match="404") as exc:
        reg.call("contacts_search", {"query": "priya"})
    assert exc.value.kind == "tool"


def test_merge_keeps_every_email_phone_and_detail(reg: Registry, episode: Episode) -> None:
    dup = reg.call(
        "contacts_create",
        {
            "name": "P. Raman",
            "emails": ["priya.raman@gmail.example", "PRIYA@orbitals.io"],
            "phones": ["+44 7700 900123", "+44 20 7946 0991"],
            "organization": "Orbitals Ltd",
            "notes": "Met at the London summit",
        },
    )["uid"]
    third = reg.call("contacts_create", {"name": "Priya R", "emails": ["pr@home.example"], "title": "Director"})["uid"]
    s0 = episode.snapshot()
    out = reg.call("contacts_merge", {"uids": ["c-1", dup, third]})
    assert out["deleted"] == [dup, third]
    merged = out["contact"]
    assert merged == next(c for c in episode.snapshot()["contacts"] if c["uid"] == "c-1")
    assert merged["name"] == "Priya Raman" and merged["organization"] == "Orbitals"
    # Every address and number of all three, each once, the first contact's primary address first.
    assert merged["emails"] == ["priya@orbitals.io", "priya.raman@gmail.example", "pr@home.example"]
    assert merged["phones"] == ["+44 20 7946 0991", "+44 7700 900123"]
    # What the first had a different value for is kept in its notes, not dropped.
    assert "Met at the London summit" in merged["notes"]
    assert "Organization (from a merged duplicate): Orbitals Ltd" in merged["notes"]
    assert "Job title (from a merged duplicate): Director" in merged["notes"] and merged["title"] == "Account Director"
    assert sorted(changes(s0, episode.snapshot())) == sorted(
        [
            ("modified", "contacts/c-1#emails"),
            ("modified", "contacts/c-1#notes"),
            ("modified", "contacts/c-1#phones"),
            ("removed", f"contacts/{dup}"),
            ("removed", f"contacts/{third}"),
        ]
    )


def test_merge_and_delete_errors_change_nothing(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    for uids, kind in ((["c-1"], "invalid_arguments"), (["c-1", "c-1"], "invalid_arguments"), (["c-1", "c-9"], "tool")):
        with pytest.raises(ToolError) as exc:
            reg.call("contacts_merge", {"uids": uids})
        assert exc.value.kind == kind
    with pytest.raises(ToolError, match="no contact with uid 'c-9'"):
        reg.call("contacts_delete", {"uid": "c-9"})
    assert episode.snapshot() == s0


def test_delete(reg: Registry, episode: Episode) -> None:
    s0 = episode.snapshot()
    assert reg.call("contacts_delete", {"uid": "c-2"}) == {"deleted": "c-2", "name": "陈伟"}
    assert changes(s0, episode.snapshot()) == [("removed", "contacts/c-2")]
    assert uids(reg.call("contacts_search", {"query": ""})) == ["c-1"]


def test_search_pages(reg: Registry) -> None:
    for i in range(60):
        reg.call("contacts_create", {"name": f"Person {i:02d}", "emails": [f"p{i}@bulk.example"]})
    first = reg.call("contacts_search", {"query": "bulk.example"})
    assert first["total"] == 60 and len(first["contacts"]) == 50 and "contacts 1-50 of 60" in first["note"]
    rest = reg.call("contacts_search", {"query": "bulk.example", "cursor": first["next_cursor"]})
    names = [c["name"] for c in first["contacts"] + rest["contacts"]]
    assert names == [f"Person {i:02d}" for i in range(60)] and rest["next_cursor"] is None
