"""The mail tools against the real Dovecot and SMTP servers, checked through the State JSON."""

from __future__ import annotations

import email
import email.utils
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from stageclaw.errors import WorldError
from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry
from stageclaw.world import Episode, diff, maildir
from stageclaw.world.mime import build_message
from stageclaw.world.model import parse_world

PRIYA = "<q1-2026@orbitals.io>"
LUNCH = "<lunch-77@chen.family>"
INVOICE = "<invoice-2291@cloudhost.example>"
USER = "lin.chen@example.com"


def _msg(message_id: str, date: str, **fields: Any) -> dict[str, Any]:
    return {"message_id": message_id, "from": "Ana Ruiz <ana@acme.test>", "to": [USER], "date": date, **fields}


RICH = {
    "now": "2026-03-10T09:00:00+08:00",
    "timezone": "Asia/Shanghai",
    "user": {"name": "Lin Chen", "email": USER},
    "mail": {
        "folders": {
            "INBOX": [
                _msg(
                    "<plan-1@acme.test>",
                    "2026-03-09T10:00:00+00:00",
                    to=["Lin Chen <lin.chen@example.com>", "Bo Li <bo@acme.test>"],
                    cc=["Cy Dee <cy@acme.test>", USER.upper()],
                    subject="Re: RE: Launch plan",
                    body="Dates attached.",
                    in_reply_to="<plan-0@acme.test>",
                ),
                _msg("<long-1@acme.test>", "2026-03-05T10:00:00+00:00", subject="Long", body="word\n" * 100),
            ],
            "Projects/Alpha": [_msg("<alpha-1@acme.test>", "2026-03-01T10:00:00+00:00", subject="Alpha kickoff")],
            "Café Notes": [_msg("<cafe-1@acme.test>", "2026-03-02T10:00:00+00:00", subject="Crème brûlée")],
            "R&D 🧪": [],
            "Sent": [
                {
                    "message_id": "<mine-1@example.com>",
                    "from": "Lin Chen <lin.chen@example.com>",
                    "to": ["Bo Li <bo@acme.test>"],
                    "subject": "Budget",
                    "date": "2026-03-03T10:00:00+08:00",
                    "flags": ["\\Seen"],
                    "body": "Numbers inside.",
                }
            ],
            "Bulk": [_msg(f"<bulk-{i:02d}@shop.test>", f"2026-02-{i + 1:02d}T08:00:00+00:00") for i in range(25)],
        }
    },
}

CONTRACT = {
    "mail_list_folders": ([], ["limit", "cursor"]),
    "mail_search": (
        [],
        ["folder", "sender", "recipient", "subject", "text", "since", "before", "unseen", "limit", "cursor"],
    ),
    "mail_read": (["id"], []),
    "mail_send": (["to", "subject", "body"], ["cc", "attachments", "in_reply_to"]),
    "mail_reply": (["id", "body"], ["reply_all", "attachments"]),
    "mail_forward": (["id", "to"], ["body", "cc", "attachments"]),
    "mail_save_attachment": (["id", "path"], ["filename"]),
    "mail_move": (["id", "folder"], []),
    "mail_flag": (["id", "flag", "on"], []),
    "mail_delete": (["id"], []),
}


@pytest.fixture
def rich(make_episode: Any) -> Iterator[tuple[Episode, Registry]]:
    ep = make_episode(RICH)
    with Registry(ep, allow=["mail_*"]) as registry:
        yield ep, registry


def refused(reg: Registry, name: str, args: dict[str, Any]) -> ToolError:
    """The ToolError of a call the agent got wrong: never reported as an internal failure."""
    with pytest.raises(ToolError) as info:
        reg.call(name, args)
    assert info.value.kind in ("tool", "invalid_arguments"), info.value.message
    return info.value


def paths(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [f"{c['op']} {c['path']}" for c in diff(before, after)]


def outbox_raw(ep: Episode) -> list[email.message.Message]:
    return [email.message_from_bytes(p.read_bytes()) for p in sorted(ep.outbox.glob("*.eml"))]


def test_schemas_match_the_contract(reg: Registry) -> None:
    assert {name for name in reg.tools if name.startswith("mail_")} == set(CONTRACT)
    for name, (required, optional) in CONTRACT.items():
        schema = reg.tools[name].input_schema()
        assert sorted(schema.get("required", [])) == sorted(required), name
        assert set(schema["properties"]) == set(required) | set(optional), name
        assert all(prop.get("description") for prop in schema["properties"].values()), name
        assert reg.tools[name].description


def test_list_folders(reg: Registry, rich: tuple[Episode, Registry]) -> None:
    assert reg.call("mail_list_folders")["folders"] == [
        {"name": "INBOX", "total": 2, "unseen": 1},
        {"name": "Archive", "total": 1, "unseen": 0},
        {"name": "Sent", "total": 0, "unseen": 0},
        {"name": "Trash", "total": 0, "unseen": 0},
    ]
    names = [f["name"] for f in rich[1].call("mail_list_folders")["folders"]]
    assert names == ["INBOX", "Bulk", "Café Notes", "Projects/Alpha", "R&D 🧪", "Sent", "Trash"]


def test_search_all_folders_newest_first_and_changes_nothing(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    found = reg.call("mail_search", {})
    assert [m["id"] for m in found["messages"]] == ["INBOX/1", "INBOX/2", "Archive/1"]
    assert found["total"] == 3
    first = found["messages"][0]
    item = next(m for m in s0["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)
    assert first == {
        "id": "INBOX/1",
        "folder": "INBOX",
        **{k: item[k] for k in ("message_id", "from", "to", "cc", "subject", "date", "flags")},
        "snippet": "Hi Lin, Could we move Tuesday's quarterly sync to Thursday 12 March, 15:00 London time? "
        "The agenda is attached. Thanks, Priya",
    }
    for args in ({"unseen": True}, {"subject": "午饭"}, {"sender": "CLOUDHOST"}, {"text": "agenda", "folder": "inbox"}):
        reg.call("mail_search", args)
    assert episode.snapshot() == s0


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        ({"folder": "Archive"}, ["Archive/1"]),
        ({"sender": "priya"}, ["INBOX/1"]),
        ({"sender": "陈伟"}, ["INBOX/2"]),
        ({"recipient": "lin.chen"}, ["INBOX/1", "INBOX/2", "Archive/1"]),
        ({"subject": "quarterly SYNC"}, ["INBOX/1"]),
        ({"subject": "午饭"}, ["INBOX/2"]),
        ({"text": "London time"}, ["INBOX/1"]),
        ({"text": "老地方"}, ["INBOX/2"]),
        ({"unseen": True}, ["INBOX/1"]),
        # Priya wrote 2026-03-09 17:12 UTC: already the 10th in the user's timezone (+08:00).
        ({"since": "2026-03-10"}, ["INBOX/1"]),
        ({"before": "2026-03-10"}, ["INBOX/2", "Archive/1"]),
        ({"since": "2026-03-09T01:12:00+08:00", "before": "2026-03-10T01:12"}, []),
        ({"since": "2026-03-10T01:12", "before": "2026-03-10T01:13"}, ["INBOX/1"]),
        ({"since": "2026-02-28T16:00", "before": "2026-03-09"}, ["INBOX/2", "Archive/1"]),
        ({"limit": 2}, ["INBOX/1", "INBOX/2"]),
        ({"sender": "nobody-at-all"}, []),
    ],
)
def test_search_criteria(reg: Registry, args: dict[str, Any], ids: list[str]) -> None:
    assert [m["id"] for m in reg.call("mail_search", args)["messages"]] == ids


def test_search_limit_total_snippet_and_folder_names(rich: tuple[Episode, Registry]) -> None:
    _, reg = rich
    everything = reg.call("mail_search", {"folder": "Bulk"})
    assert len(everything["messages"]) == 20 and everything["total"] == 25
    newest = reg.call("mail_search", {"folder": "Bulk", "limit": 3})["messages"]
    assert [m["message_id"] for m in newest] == ["<bulk-24@shop.test>", "<bulk-23@shop.test>", "<bulk-22@shop.test>"]
    assert len(reg.call("mail_search", {"limit": 200})["messages"]) == 30
    long = reg.call("mail_search", {"subject": "Long"})["messages"][0]["snippet"]
    assert "\n" not in long and len(long) <= 160 and long.startswith("word word")
    assert [m["id"] for m in reg.call("mail_search", {"folder": "Café Notes"})["messages"]] == ["Café Notes/1"]
    assert [m["id"] for m in reg.call("mail_search", {"subject": "brûlée"})["messages"]] == ["Café Notes/1"]
    assert [m["id"] for m in reg.call("mail_search", {"folder": "Projects/Alpha"})["messages"]] == ["Projects/Alpha/1"]


def test_search_errors(reg: Registry) -> None:
    assert "bad since 'yesterday'" in refused(reg, "mail_search", {"since": "yesterday"}).message
    assert "bad before" in refused(reg, "mail_search", {"before": "2026-13-01"}).message
    assert "earlier" in refused(reg, "mail_search", {"since": "2026-03-10", "before": "2026-03-01"}).message
    assert refused(reg, "mail_search", {"folder": "Archiv"}).message == (
        "no folder 'Archiv'; folders are: INBOX, Archive, Sent, Trash"
    )
    for limit in (0, 201):
        assert refused(reg, "mail_search", {"limit": limit}).kind == "invalid_arguments"
    assert "unknown argument" in refused(reg, "mail_search", {"query": "x"}).message


def test_read_returns_the_state_message_and_marks_it_seen(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    got = reg.call("mail_read", {"id": "INBOX/1"})
    s1 = episode.snapshot()
    assert paths(s0, s1) == [f"modified mail/folders/INBOX/{PRIYA}#flags"]
    item = next(m for m in s1["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)
    assert got == {"id": "INBOX/1", "folder": "INBOX", **item}
    assert got["flags"] == ["\\Seen"] and got["attachments"][0]["filename"] == "agenda.pdf"
    # Reading an already read message changes nothing.
    again = reg.call("mail_read", {"id": "Archive/1"})
    assert episode.snapshot() == s1
    assert again["attachments"][0]["filename"] == "invoice-2291.csv"


def test_read_errors(reg: Registry, rich: tuple[Episode, Registry]) -> None:
    assert refused(reg, "mail_read", {"id": "INBOX/99"}).message == (
        "no message with id INBOX/99 (folder INBOX has UIDs 1-2); use mail_search to find ids"
    )
    assert refused(reg, "mail_read", {"id": "Sent/1"}).message.startswith(
        "no message with id Sent/1 (folder Sent is empty)"
    )
    for bad in ("abc", "INBOX/", "/3", "INBOX/x1", "INBOX/0"):
        assert refused(reg, "mail_read", {"id": bad}).message.startswith(f"bad id {bad!r}: ids look like INBOX/12")
    assert refused(reg, "mail_read", {"id": "Archiv/1"}).message == (
        "no folder 'Archiv'; folders are: INBOX, Archive, Sent, Trash"
    )
    assert "invalid arguments" in refused(reg, "mail_read", {}).message
    # Folder names with '/' and non-ASCII characters: the id splits on the last '/'.
    assert rich[1].call("mail_read", {"id": "Projects/Alpha/1"})["subject"] == "Alpha kickoff"
    assert rich[1].call("mail_read", {"id": "Café Notes/1"})["folder"] == "Café Notes"


def test_send_with_attachment(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    out = reg.call(
        "mail_send",
        {
            "to": ["Priya Raman <priya@orbitals.io>"],
            "cc": ["陈伟 <wei@chen.family>"],
            "subject": "Agenda for Thursday",
            "body": "Hi Priya,\n\nThe agenda is attached.\n\nLin",
            "attachments": ["docs/agenda.pdf"],
        },
    )
    mid = out["message_id"]
    assert mid.startswith("<") and mid.endswith("@example.com>")
    s1 = episode.snapshot()
    assert paths(s0, s1) == [f"added mail/folders/Sent/{mid}", f"added mail/outbox/{mid}"]
    [sent] = s1["mail"]["outbox"]
    assert sent["from"] == "Lin Chen <lin.chen@example.com>"
    assert sent["to"] == ["Priya Raman <priya@orbitals.io>"] and sent["cc"] == ["陈伟 <wei@chen.family>"]
    assert sent["subject"] == "Agenda for Thursday" and sent["body"] == "Hi Priya,\n\nThe agenda is attached.\n\nLin"
    assert sent["in_reply_to"] is None
    pdf = s1["files"]["docs/agenda.pdf"]
    assert sent["attachments"] == [{"filename": "agenda.pdf", "sha256": pdf["sha256"], "size": pdf["size"]}]
    # The date is the episode clock's (the task's now), not the wall clock.
    sent_at = datetime.fromisoformat(sent["date"])
    start = datetime.fromisoformat("2026-03-10T09:00:00+08:00")
    assert start <= sent_at < start + timedelta(minutes=1) and sent["date"].endswith("+08:00")
    [copy] = s1["mail"]["folders"]["Sent"]
    assert copy == {**sent, "flags": ["\\Seen"]}


def test_send_to_self_and_in_reply_to(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    mid = reg.call(
        "mail_send",
        {"to": [USER, "bob@example.org"], "subject": "Note", "body": "b", "in_reply_to": "q1-2026@orbitals.io"},
    )["message_id"]
    s1 = episode.snapshot()
    assert f"added mail/folders/INBOX/{mid}" in paths(s0, s1)
    assert s1["mail"]["outbox"][0]["in_reply_to"] == PRIYA
    assert outbox_raw(episode)[0]["References"] == PRIYA


def test_send_errors_change_nothing(episode: Episode, reg: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"to": ["priya@orbitals.io"], "subject": "s", "body": "b"}
    (episode.workspace / "escape.txt").symlink_to("/etc/hostname")
    s0 = episode.snapshot()
    for path in ("../secret.txt", "/etc/passwd"):
        assert "outside your files" in refused(reg, "mail_send", {**base, "attachments": [path]}).message
    assert "no such file" in refused(reg, "mail_send", {**base, "attachments": ["docs/missing.pdf"]}).message
    assert "is a folder" in refused(reg, "mail_send", {**base, "attachments": ["docs"]}).message
    assert "through a link" in refused(reg, "mail_send", {**base, "attachments": ["escape.txt"]}).message
    assert "bad address 'priya'" in refused(reg, "mail_send", {**base, "to": ["priya"]}).message
    assert "bad address" in refused(reg, "mail_send", {**base, "cc": ["Priya Raman"]}).message
    assert "at least one recipient" in refused(reg, "mail_send", {**base, "to": []}).message
    assert "bad in_reply_to" in refused(reg, "mail_send", {**base, "in_reply_to": "not an id"}).message
    # The submission server refuses a sender address the account does not own.
    monkeypatch.setattr(episode.pool.smtp.accounts[episode.login], "address", "someone@else.example")
    assert refused(reg, "mail_send", base).message.startswith("the mail server refused: 553")
    assert episode.snapshot() == s0


def test_reply_threads_and_marks_answered(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    out = reg.call("mail_reply", {"id": "INBOX/1", "body": "Thursday 15:00 London works.\n\n> Could we move it?"})
    mid = out["message_id"]
    assert out["to"] == ["Priya Raman <priya@orbitals.io>"] and out["cc"] == []
    assert out["subject"] == "Re: Moving our quarterly sync"
    s1 = episode.snapshot()
    assert paths(s0, s1) == [
        f"modified mail/folders/INBOX/{PRIYA}#flags",
        f"added mail/folders/Sent/{mid}",
        f"added mail/outbox/{mid}",
    ]
    original = next(m for m in s1["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)
    assert original["flags"] == ["\\Answered"]
    [sent] = s1["mail"]["outbox"]
    assert sent["in_reply_to"] == PRIYA and sent["subject"] == "Re: Moving our quarterly sync"
    assert sent["body"] == "Thursday 15:00 London works.\n\n> Could we move it?"
    assert outbox_raw(episode)[0]["References"] == PRIYA


def test_reply_all_recipients_subject_and_references(rich: tuple[Episode, Registry]) -> None:
    ep, reg = rich
    out = reg.call("mail_reply", {"id": "INBOX/1", "body": "Looks good.", "reply_all": True})
    assert out["to"] == ["Ana Ruiz <ana@acme.test>", "Bo Li <bo@acme.test>"]
    assert out["cc"] == ["Cy Dee <cy@acme.test>"]
    assert out["subject"] == "Re: Launch plan"
    raw = outbox_raw(ep)[0]
    assert raw["In-Reply-To"] == "<plan-1@acme.test>"
    assert raw["References"].split() == ["<plan-0@acme.test>", "<plan-1@acme.test>"]
    [sent] = ep.snapshot()["mail"]["outbox"]
    assert sent["to"] == out["to"] and sent["cc"] == out["cc"]
    # Plain reply: the sender only.
    assert reg.call("mail_reply", {"id": "INBOX/1", "body": "x"})["to"] == ["Ana Ruiz <ana@acme.test>"]
    # Replying to one's own sent message goes to its recipients.
    assert reg.call("mail_reply", {"id": "Sent/1", "body": "Any news?"})["to"] == ["Bo Li <bo@acme.test>"]


def test_reply_goes_to_reply_to(rich: tuple[Episode, Registry]) -> None:
    ep, reg = rich
    raw = build_message(
        sender="Shop <noreply@shop.test>",
        to=[USER],
        cc=[],
        subject="Your order",
        date=datetime.fromisoformat("2026-03-10T08:00:00+08:00"),
        message_id="<order-9@shop.test>",
        body="Questions? Just reply.",
    )
    raw = b"Reply-To: Support <help@shop.test>\n" + raw
    maildir.deliver(ep.home, "INBOX", raw, ep.pool.dovecot.owner)
    [hit] = reg.call("mail_search", {"subject": "Your order"})["messages"]
    assert reg.call("mail_reply", {"id": hit["id"], "body": "Where is it?"})["to"] == ["Support <help@shop.test>"]


def test_reply_with_attachments_arrives_threaded(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    out = reg.call("mail_reply", {"id": "INBOX/1", "body": "Our plan is attached.", "attachments": ["docs/plan.md"]})
    s1 = episode.snapshot()
    [sent] = s1["mail"]["outbox"]
    plan = s1["files"]["docs/plan.md"]
    # Only the file given goes back, not the agenda Priya attached.
    assert sent["attachments"] == [{"filename": "plan.md", "sha256": plan["sha256"], "size": plan["size"]}]
    assert sent["in_reply_to"] == PRIYA and sent["subject"] == "Re: Moving our quarterly sync"
    raw = outbox_raw(episode)[0]
    assert raw["In-Reply-To"] == PRIYA and raw["References"] == PRIYA
    assert paths(s0, s1) == [
        f"modified mail/folders/INBOX/{PRIYA}#flags",
        f"added mail/folders/Sent/{out['message_id']}",
        f"added mail/outbox/{out['message_id']}",
    ]
    assert (
        next(m for m in s1["mail"]["folders"]["Sent"] if m["message_id"] == out["message_id"])["attachments"]
        == (sent["attachments"])
    )


def test_forward_keeps_attachments_quotes_and_threads(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    agenda = next(m for m in s0["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)["attachments"]
    out = reg.call(
        "mail_forward",
        {"id": "INBOX/1", "to": ["Bo Li <bo@acme.test>"], "body": "FYI, see below.", "attachments": ["docs/plan.md"]},
    )
    assert out["subject"] == "Fwd: Moving our quarterly sync" and out["to"] == ["Bo Li <bo@acme.test>"]
    assert out["attachments"] == ["agenda.pdf", "plan.md"]
    s1 = episode.snapshot()
    [sent] = s1["mail"]["outbox"]
    plan = s1["files"]["docs/plan.md"]
    assert sent["attachments"] == [*agenda, {"filename": "plan.md", "sha256": plan["sha256"], "size": plan["size"]}]
    assert sent["in_reply_to"] == PRIYA and outbox_raw(episode)[0]["References"] == PRIYA
    lines = sent["body"].splitlines()
    assert lines[0] == "FYI, see below."
    assert "> From: Priya Raman <priya@orbitals.io>" in lines and "> Subject: Moving our quarterly sync" in lines
    assert "> Could we move Tuesday's quarterly sync to Thursday 12 March, 15:00 London time?" in lines
    original = next(m for m in s1["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)
    assert original["flags"] == ["$Forwarded"]
    assert paths(s0, s1) == [
        f"modified mail/folders/INBOX/{PRIYA}#flags",
        f"added mail/folders/Sent/{out['message_id']}",
        f"added mail/outbox/{out['message_id']}",
    ]
    # An inline attachment (given as text in the seed) goes along byte for byte; 'Fwd:' is not doubled.
    invoice = reg.call("mail_search", {"folder": "Archive"})["messages"][0]
    again = reg.call("mail_forward", {"id": invoice["id"], "to": ["bo@acme.test"]})
    resent = reg.call("mail_search", {"folder": "Sent", "subject": "Invoice 2291"})["messages"][0]
    refwd = reg.call("mail_forward", {"id": resent["id"], "to": ["cy@acme.test"]})
    assert again["subject"] == refwd["subject"] == "Fwd: Invoice 2291"
    outbox = episode.snapshot()["mail"]["outbox"]
    seeded = s0["mail"]["folders"]["Archive"][0]["attachments"]
    assert outbox[1]["attachments"] == outbox[2]["attachments"] == seeded
    assert outbox[1]["body"].startswith("---------- Forwarded message ----------\n> From: CloudHost Billing")


def test_forward_errors_change_nothing(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    assert "at least one recipient" in refused(reg, "mail_forward", {"id": "INBOX/1", "to": []}).message
    assert "bad address" in refused(reg, "mail_forward", {"id": "INBOX/1", "to": ["bo"]}).message
    assert (
        "no such file"
        in refused(reg, "mail_forward", {"id": "INBOX/1", "to": ["b@x.org"], "attachments": ["n"]}).message
    )
    assert "no message with id INBOX/9" in refused(reg, "mail_forward", {"id": "INBOX/9", "to": ["b@x.org"]}).message
    assert "no such file" in refused(reg, "mail_reply", {"id": "INBOX/1", "body": "x", "attachments": ["n"]}).message
    assert episode.snapshot() == s0


def test_save_attachment_writes_the_file_and_leaves_the_message(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    listed = next(m for m in s0["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)["attachments"][0]
    saved = reg.call("mail_save_attachment", {"id": "INBOX/1", "path": "Saved/"})
    assert saved == {"path": "Saved/agenda.pdf", "size": listed["size"], "sha256": listed["sha256"]}
    named = reg.call("mail_save_attachment", {"id": "INBOX/1", "path": "docs/Agenda Q1.pdf", "filename": "AGENDA.pdf"})
    assert named["path"] == "docs/Agenda Q1.pdf"
    s1 = episode.snapshot()
    assert s1["files"]["Saved/agenda.pdf"]["sha256"] == s1["files"]["docs/Agenda Q1.pdf"]["sha256"] == listed["sha256"]
    # Saving is not reading: the message stays unread and nothing else changes.
    assert paths(s0, s1) == ["added files/Saved/agenda.pdf", "added files/docs/Agenda Q1.pdf"]
    # Into an existing folder, without a trailing slash, under the attachment's own name.
    assert reg.call("mail_save_attachment", {"id": "Archive/1", "path": "docs"})["path"] == "docs/invoice-2291.csv"


def test_save_attachment_refuses_without_changing_anything(make_episode: Any) -> None:
    world = {
        **{k: RICH[k] for k in ("now", "timezone", "user")},
        "mail": {"folders": {"INBOX": [_msg("<none-1@acme.test>", "2026-03-08T10:00:00+00:00", subject="Plain")]}},
        "files": {"docs/notes.txt": {"text": "mine\n"}},
    }
    ep = make_episode(world)
    # A sender chooses an attachment's name: this one spells a path out of the user's files.
    raw = build_message(
        sender="Ana Ruiz <ana@acme.test>",
        to=[USER],
        cc=[],
        subject="Two files",
        date=datetime.fromisoformat("2026-03-09T10:00:00+00:00"),
        message_id="<two-1@acme.test>",
        body="See attached.",
        attachments=[("../../../etc/cron.d/evil", b"* * * * * root true\n"), ("notes.txt", b"hello\n")],
    )
    maildir.deliver(ep.home, "INBOX", raw, ep.pool.dovecot.owner)
    with Registry(ep) as reg:
        [two] = reg.call("mail_search", {"subject": "Two files"})["messages"]
        [plain] = reg.call("mail_search", {"subject": "Plain"})["messages"]
        s0 = ep.snapshot()
        message = {"id": two["id"], "path": "x/"}
        assert "say which with filename" in refused(reg, "mail_save_attachment", message).message
        missing = refused(reg, "mail_save_attachment", {**message, "filename": "a.pdf"})
        assert "it has: ../../../etc/cron.d/evil, notes.txt" in missing.message
        assert "no attachments" in refused(reg, "mail_save_attachment", {"id": plain["id"], "path": "x/"}).message
        taken = refused(reg, "mail_save_attachment", {"id": two["id"], "path": "docs/", "filename": "notes.txt"})
        assert "already exists" in taken.message
        for outside in ("../out.txt", "/tmp/out.txt"):
            args = {"id": two["id"], "path": outside, "filename": "notes.txt"}
            assert "outside your files" in refused(reg, "mail_save_attachment", args).message
        assert ep.snapshot() == s0
        # Only the last part of the sender's name is kept: it never chooses the folder.
        evil = reg.call("mail_save_attachment", {**message, "path": "in/", "filename": "../../../etc/cron.d/evil"})
        assert evil["path"] == "in/evil"
        assert paths(s0, ep.snapshot()) == ["added files/in/evil"]


def test_reply_errors(reg: Registry) -> None:
    assert refused(reg, "mail_reply", {"id": "INBOX/7", "body": "x"}).message.startswith("no message with id INBOX/7")
    assert refused(reg, "mail_reply", {"id": "7", "body": "x"}).kind == "invalid_arguments"


def test_move(episode: Episode, reg: Registry, rich: tuple[Episode, Registry]) -> None:
    s0 = episode.snapshot()
    assert reg.call("mail_move", {"id": "INBOX/2", "folder": "Archive"}) == {"id": "Archive/2"}
    assert paths(s0, episode.snapshot()) == [
        f"added mail/folders/Archive/{LUNCH}",
        f"removed mail/folders/INBOX/{LUNCH}",
    ]
    assert reg.call("mail_read", {"id": "Archive/2"})["message_id"] == LUNCH
    assert reg.call("mail_move", {"id": "Archive/2", "folder": "Archive"}) == {"id": "Archive/2"}
    s1 = episode.snapshot()
    assert refused(reg, "mail_move", {"id": "INBOX/1", "folder": "Archiv"}).message == (
        "no folder 'Archiv'; folders are: INBOX, Archive, Sent, Trash"
    )
    assert refused(reg, "mail_move", {"id": "INBOX/2", "folder": "Archive"}).message.startswith(
        "no message with id INBOX/2 (folder INBOX has UIDs 1)"
    )
    assert episode.snapshot() == s1
    ep, other = rich
    assert other.call("mail_move", {"id": "Café Notes/1", "folder": "Projects/Alpha"}) == {"id": "Projects/Alpha/2"}
    assert other.call("mail_move", {"id": "Projects/Alpha/2", "folder": "inbox"}) == {"id": "INBOX/3"}
    assert other.call("mail_move", {"id": "INBOX/3", "folder": "R&D 🧪"}) == {"id": "R&D 🧪/1"}
    folders = ep.snapshot()["mail"]["folders"]
    assert folders["Café Notes"] == [] and [m["message_id"] for m in folders["R&D 🧪"]] == ["<cafe-1@acme.test>"]
    assert other.call("mail_read", {"id": "R&D 🧪/1"})["folder"] == "R&D 🧪"


def test_flag(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    assert reg.call("mail_flag", {"id": "INBOX/1", "flag": "FLAGGED", "on": True})["flags"] == ["\\Flagged"]
    assert reg.call("mail_flag", {"id": "INBOX/1", "flag": "\\seen", "on": True})["flags"] == ["\\Flagged", "\\Seen"]
    assert reg.call("mail_flag", {"id": "INBOX/1", "flag": "$Important", "on": True})["flags"] == [
        "$Important",
        "\\Flagged",
        "\\Seen",
    ]
    s1 = episode.snapshot()
    assert paths(s0, s1) == [f"modified mail/folders/INBOX/{PRIYA}#flags"]
    item = next(m for m in s1["mail"]["folders"]["INBOX"] if m["message_id"] == PRIYA)
    assert item["flags"] == ["$Important", "\\Flagged", "\\Seen"]
    assert reg.call("mail_flag", {"id": "INBOX/2", "flag": "Seen", "on": False})["flags"] == ["$Family"]
    assert reg.call("mail_flag", {"id": "INBOX/2", "flag": "$Family", "on": False})["flags"] == []
    lunch = next(m for m in episode.snapshot()["mail"]["folders"]["INBOX"] if m["message_id"] == LUNCH)
    assert lunch["flags"] == []
    for bad in ("\\Recent", "read later", "", "\\Important"):
        assert refused(reg, "mail_flag", {"id": "INBOX/1", "flag": bad, "on": True}).message.startswith("unknown flag")
    assert refused(reg, "mail_flag", {"id": "Trash/1", "flag": "seen", "on": True}).message.startswith("no message")


def test_delete_moves_to_trash_then_removes(episode: Episode, reg: Registry) -> None:
    s0 = episode.snapshot()
    assert reg.call("mail_delete", {"id": "Archive/1"}) == {"deleted": "Archive/1", "moved_to": "Trash/1"}
    s1 = episode.snapshot()
    assert paths(s0, s1) == [f"removed mail/folders/Archive/{INVOICE}", f"added mail/folders/Trash/{INVOICE}"]
    assert reg.call("mail_delete", {"id": "Trash/1"}) == {"deleted": "Trash/1", "permanent": True}
    assert paths(s1, episode.snapshot()) == [f"removed mail/folders/Trash/{INVOICE}"]
    assert refused(reg, "mail_delete", {"id": "Trash/1"}).message.startswith("no message with id Trash/1")


def test_session_survives_a_dropped_connection(episode: Episode, reg: Registry) -> None:
    assert reg.call("mail_list_folders")["folders"][0]["name"] == "INBOX"
    episode.pool.dovecot.kick(episode.login)
    assert reg.call("mail_read", {"id": "INBOX/2"})["message_id"] == LUNCH


def test_sent_date_header_uses_the_task_timezone(episode: Episode, reg: Registry) -> None:
    reg.call("mail_send", {"to": ["priya@orbitals.io"], "subject": "s", "body": "b"})
    date = email.utils.parsedate_to_datetime(outbox_raw(episode)[0]["Date"])
    assert date.utcoffset() == timedelta(hours=8)


def test_null_optional_arguments_and_one_line_subjects(episode: Episode, reg: Registry) -> None:
    # Strict function calling sends every argument, with null for the ones left out.
    nulls = {
        k: None for k in ("folder", "sender", "recipient", "subject", "text", "since", "before", "unseen", "limit")
    }
    assert len(reg.call("mail_search", nulls)["messages"]) == 3
    reply = reg.call("mail_reply", {"id": "INBOX/2", "body": "好的", "reply_all": None})
    assert reply["to"] == ["陈伟 <wei@chen.family>"] and reply["subject"] == "Re: 周末午饭？"
    args = {"to": ["a@b.example"], "subject": "Hi\nBcc: evil@x.example", "body": "b", "cc": None, "attachments": None}
    mid = reg.call("mail_send", {**args, "in_reply_to": None})["message_id"]
    sent = next(m for m in episode.snapshot()["mail"]["outbox"] if m["message_id"] == mid)
    assert sent["subject"] == "Hi Bcc: evil@x.example" and outbox_raw(episode)[-1]["Bcc"] is None


def test_sender_name_with_a_comma(make_episode: Any) -> None:
    ep = make_episode({**RICH, "user": {"name": "Chen, Lin", "email": USER}, "mail": {}})
    with Registry(ep, allow=["mail_send"]) as reg:
        reg.call("mail_send", {"to": ["a@b.example"], "subject": "s", "body": "b"})
    assert ep.snapshot()["mail"]["outbox"][0]["from"] == "Chen, Lin <lin.chen@example.com>"


def _all_pages(reg: Registry, args: dict[str, Any]) -> tuple[list[str], int]:
    """The message ids of every page of a search, in order, and the number of pages."""
    seen: list[str] = []
    cursor, pages = None, 0
    while True:
        page = reg.call("mail_search", {**args, **({"cursor": cursor} if cursor else {})})
        assert page["total"] == 500
        seen += [m["message_id"] for m in page["messages"]]
        cursor, pages = page["next_cursor"], pages + 1
        if cursor is None:
            assert "note" not in page
            return seen, pages
        assert f"cursor={cursor!r}" in page["note"]


def test_paging_over_500_messages_returns_each_exactly_once(make_episode: Any) -> None:
    # Every third message shares its Date with another: the order must still be total.
    dated = [
        "2026-01-01T00:00:00+00:00"
        if i % 3 == 0
        else f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00"
        for i in range(500)
    ]
    world = {**RICH, "mail": {"folders": {"INBOX": [], "Archive": []}}}
    for i, date in enumerate(dated):
        world["mail"]["folders"]["INBOX" if i % 2 else "Archive"].append(_msg(f"<m{i:03d}@acme.test>", date))
    ep = make_episode(world)
    with Registry(ep, allow=["mail_*"]) as reg:
        seen, pages = _all_pages(reg, {"limit": 37})
        assert pages == 14 and len(seen) == 500 and len(set(seen)) == 500
        # Pages of another size (the largest is cut by the size budget) give the same one order.
        big, big_pages = _all_pages(reg, {"limit": 200})
        assert big == seen and big_pages > 3
        dates = [datetime.fromisoformat(dated[int(mid[2:5])]) for mid in seen]
        assert dates == sorted(dates, reverse=True)
        # The default page is 20, with a note on how to go on.
        first = reg.call("mail_search", {})
        assert len(first["messages"]) == 20 and "messages 1-20 of 500" in first["note"]
        second = reg.call("mail_search", {"cursor": first["next_cursor"]})
        assert "messages 21-40 of 500" in second["note"]
        # A message that arrives meanwhile, newer than all, shifts nothing: the next page is the same.
        late = build_message(
            sender="x@acme.test",
            to=[USER],
            cc=[],
            subject="late",
            body="b",
            message_id="<late@acme.test>",
            date=datetime.fromisoformat("2026-12-31T00:00:00+00:00"),
        )
        maildir.deliver(ep.home, "INBOX", late, ep.pool.dovecot.owner)
        again = reg.call("mail_search", {"cursor": first["next_cursor"]})
        assert again["messages"] == second["messages"] and again["total"] == 501
        # A cursor only goes with the arguments it was made for (limit may change).
        moved = refused(reg, "mail_search", {"folder": "INBOX", "cursor": first["next_cursor"]})
        assert "other arguments" in moved.message and moved.kind == "invalid_arguments"
        assert "bad cursor" in refused(reg, "mail_search", {"cursor": "not-a-cursor"}).message
        five = reg.call("mail_search", {"limit": 5, "cursor": first["next_cursor"]})["messages"]
        assert five == second["messages"][:5]


AWAY = {
    "address": "Ana@acme.test",
    "from": "Ana Ruiz <ana@acme.test>",
    "body": "I'm away until Monday 16 March. For orders, please write to my colleague at orders@acme.test.",
    "message_id": "<away-ana@acme.test>",
}


def test_an_automatic_reply_answers_the_first_message_to_its_address(make_episode: Any) -> None:
    ep = make_episode({**RICH, "mail": {**RICH["mail"], "autoreplies": [AWAY]}})
    with Registry(ep) as reg:
        reg.call("mail_send", {"to": ["bob@example.org"], "subject": "Lunch", "body": "b"})
        assert (
            reg.call("mail_search", {"folder": "INBOX", "sender": "ana@acme.test", "since": "2026-03-10"})["messages"]
            == []
        )
        sent = reg.call(
            "mail_send", {"to": ["bob@example.org"], "cc": ["ana@acme.test"], "subject": "Order", "body": "b"}
        )
        reg.call("mail_send", {"to": ["ana@acme.test"], "subject": "Order, again", "body": "b"})
        [found] = reg.call("mail_search", {"folder": "INBOX", "subject": "Automatic reply"})["messages"]
        reply = reg.call("mail_read", {"id": found["id"]})
    assert reply["subject"] == "Automatic reply: Order" and reply["in_reply_to"] == sent["message_id"]
    assert "orders@acme.test" in reply["body"] and reply["to"] == [USER]
    assert reply["date"].startswith("2026-03-10T09:0")
    # A reset is the world as it began: the reply comes again, once.
    ep.reset()
    with Registry(ep) as reg:
        reg.call("mail_send", {"to": ["ana@acme.test"], "subject": "Order", "body": "b"})
    inbox = ep.snapshot()["mail"]["folders"]["INBOX"]
    assert [m["message_id"] for m in inbox].count(AWAY["message_id"]) == 1


def test_automatic_replies_are_checked_when_the_world_loads() -> None:
    bad = [
        ({**AWAY, "address": "ana"}, "not an email address"),
        ({**AWAY, "message_id": "away"}, "is not a Message-ID"),
        ({**AWAY, "message_id": "<plan-1@acme.test>"}, "is a seeded message's too"),
    ]
    for reply, error in bad:
        with pytest.raises(WorldError, match=error):
            parse_world({**RICH, "mail": {**RICH["mail"], "autoreplies": [reply]}})
    with pytest.raises(WorldError, match=r"ana@acme\.test has two"):
        parse_world({**RICH, "mail": {**RICH["mail"], "autoreplies": [AWAY, {**AWAY, "message_id": "<b@acme.test>"}]}})
