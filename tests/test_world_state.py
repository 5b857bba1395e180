"""The world on real servers: seeding, canonical snapshots, real clients, diffs, isolation."""

from __future__ import annotations

import imaplib
import smtplib
from email.message import EmailMessage

import caldav
import httpx
import pytest

from stageclaw.world import diff, dumps, normalize
from stageclaw.world.episode import Episode

CARD_QUERY = b"""<?xml version="1.0"?>
<C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
 <D:prop><D:getetag/><C:address-data/></D:prop>
 <C:filter><C:prop-filter name="FN"><C:text-match collation="i;unicode-casemap" match-type="contains">%s</C:text-match>
 </C:prop-filter></C:filter></C:addressbook-query>"""


def imap(ep: Episode) -> imaplib.IMAP4:
    conn = imaplib.IMAP4("127.0.0.1", ep.endpoints.imap_port)
    conn.login(ep.endpoints.login, ep.endpoints.password)
    return conn


def dav(ep: Episode) -> caldav.DAVClient:
    e = ep.endpoints
    return caldav.DAVClient(url=e.caldav_url, username=e.login, password=e.password, auth_type="basic")


def calendar_named(ep: Episode, name: str) -> caldav.Calendar:
    return next(c for c in dav(ep).principal().calendars() if c.get_display_name() == name)


def test_snapshot_of_built_world_equals_normalized_world(episode, example):
    world, base = example
    assert dumps(episode.snapshot()) == dumps(normalize(world, base))


def test_example_world_uses_every_app_and_the_tricky_cases(example):
    world, base = example
    state = normalize(world, base)
    assert all(state[app] for app in ("mail", "calendar", "reminders", "notes", "contacts", "files"))
    events = [e for items in state["calendar"].values() for e in items]
    assert any(e["all_day"] for e in events) and any(e["rrule"] for e in events)
    assert any(t["completed"] for items in state["reminders"].values() for t in items)
    assert any(m["attachments"] for msgs in state["mail"]["folders"].values() for m in msgs)
    assert any(not m["subject"].isascii() for msgs in state["mail"]["folders"].values() for m in msgs)


def test_two_builds_give_identical_snapshots(pool, example):
    with pool.episode(*example) as a, pool.episode(*example) as b:
        assert a.login != b.login
        assert dumps(a.snapshot()) == dumps(b.snapshot())


def test_snapshot_is_stable_under_read_only_client_traffic(episode):
    before = dumps(episode.snapshot())
    conn = imap(episode)
    for folder in ("INBOX", "Archive", "Sent"):
        conn.select(folder, readonly=True)
        conn.uid("fetch", "1:*", "(FLAGS BODY.PEEK[])")
    conn.logout()
    for cal in dav(episode).principal().calendars():
        cal.objects()
    e = episode.endpoints
    httpx.get(f"{e.caldav_url}contacts/c-1.vcf", auth=(e.login, e.password)).raise_for_status()
    assert dumps(episode.snapshot()) == before


def test_real_clients_see_the_seeded_world(episode):
    conn = imap(episode)
    typ, folders = conn.list()
    assert typ == "OK" and {"INBOX", "Archive", "Sent", "Trash"} <= {f.decode().rsplit(' "/" ', 1)[1] for f in folders}
    conn.select("INBOX")
    _, data = conn.uid("fetch", "1", "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
    assert b"Moving our quarterly sync" in data[0][1]
    conn.logout()

    event = calendar_named(episode, "Work").event_by_uid("evt-1")
    assert str(event.icalendar_component["SUMMARY"]) == "Quarterly sync"
    todos = calendar_named(episode, "Inbox").todos(include_completed=True)
    assert {str(t.icalendar_component["UID"]) for t in todos} == {"r-1", "r-2"}

    e = episode.endpoints
    res = httpx.request(
        "REPORT",
        f"{e.caldav_url}contacts/",
        auth=(e.login, e.password),
        headers={"Depth": "1", "Content-Type": "application/xml"},
        content=CARD_QUERY % b"priya",
    )
    assert res.status_code == 207 and "Priya Raman" in res.text and "c-2" not in res.text
    assert (episode.workspace / "docs" / "plan.md").read_text().startswith("# Q1 plan")


def test_client_changes_show_up_in_the_diff_with_their_paths(episode):
    s0 = episode.snapshot()
    conn = imap(episode)
    conn.select("INBOX")
    conn.uid("store", "1", "+FLAGS", "(\\Seen)")
    conn.uid("move", "2", "Archive")
    conn.create("Receipts")
    conn.logout()

    event = calendar_named(episode, "Work").event_by_uid("evt-1")
    event.icalendar_component["LOCATION"] = "Room 4"
    event.save()
    calendar_named(episode, "Inbox").todo_by_uid("r-1").complete()

    e = episode.endpoints
    card = b"\r\n".join(
        [
            b"BEGIN:VCARD",
            b"VERSION:3.0",
            b"UID:c-9",
            b"FN:Sam Okafor",
            b"N:Okafor;Sam;;;",
            b"EMAIL:Sam@Okafor.ng",
            b"END:VCARD",
            b"",
        ]
    )
    put = httpx.put(
        f"{e.caldav_url}contacts/c-9.vcf",
        auth=(e.login, e.password),
        content=card,
        headers={"Content-Type": "text/vcard"},
    )
    assert put.status_code == 201

    msg = EmailMessage()
    msg["From"] = "Lin Chen <lin.chen@example.com>"
    msg["To"] = "priya@orbitals.io"
    msg["Subject"] = "Thursday works"
    msg["Message-ID"] = "<thursday-1@example.com>"
    msg.set_content("See you then.")
    with smtplib.SMTP("127.0.0.1", e.smtp_port) as smtp:
        smtp.login(e.login, e.password)
        smtp.send_message(msg)
    (episode.workspace / "docs" / "plan.md").write_text("# Q1 plan\n\nrewritten\n")
    (episode.workspace / "notes.txt").write_text("new file")

    changes = {(c["op"], c["path"]) for c in diff(s0, episode.snapshot())}
    assert changes == {
        ("modified", "mail/folders/INBOX/<q1-2026@orbitals.io>#flags"),
        ("removed", "mail/folders/INBOX/<lunch-77@chen.family>"),
        ("added", "mail/folders/Archive/<lunch-77@chen.family>"),
        ("added", "mail/folders/Receipts"),
        ("added", "mail/outbox/<thursday-1@example.com>"),
        ("modified", "calendar/Work/evt-1#location"),
        ("modified", "reminders/Inbox/r-1#completed"),
        ("modified", "reminders/Inbox/r-1#completed_at"),
        ("added", "contacts/c-9"),
        ("modified", "files/docs/plan.md#sha256"),
        ("modified", "files/docs/plan.md#size"),
        ("modified", "files/docs/plan.md#text"),
        ("added", "files/notes.txt"),
    }
    added = next(c for c in diff(s0, episode.snapshot()) if c["path"] == "contacts/c-9")
    assert added["after"]["emails"] == ["sam@okafor.ng"]


def test_mail_to_the_user_is_delivered_and_recorded(episode):
    e = episode.endpoints
    with smtplib.SMTP("127.0.0.1", e.smtp_port) as smtp:
        smtp.login(e.login, e.password)
        smtp.sendmail(e.address, [e.address, "bob@example.org"], b"Subject: note to self\r\n\r\nremember the milk\r\n")
    state = episode.snapshot()
    [sent] = state["mail"]["outbox"]
    assert sent["subject"] == "note to self" and sent["message_id"].startswith("<")
    assert sent["date"] == "2026-03-10T09:00:00+08:00" or sent["date"].startswith("2026-03-10T09:0")
    assert sent["message_id"] in {m["message_id"] for m in state["mail"]["folders"]["INBOX"]}


def test_smtp_refuses_unauthenticated_and_foreign_senders(episode):
    e = episode.endpoints
    with smtplib.SMTP("127.0.0.1", e.smtp_port) as smtp:
        smtp.ehlo()
        code, _ = smtp.mail(e.address)
        assert code == 530
    with smtplib.SMTP("127.0.0.1", e.smtp_port) as smtp:
        smtp.login(e.login, e.password)
        with pytest.raises(smtplib.SMTPSenderRefused):
            smtp.sendmail("ceo@orbitals.io", ["x@example.org"], b"Subject: spoof\r\n\r\nhi\r\n")
    with smtplib.SMTP("127.0.0.1", e.smtp_port) as smtp, pytest.raises(smtplib.SMTPAuthenticationError):
        smtp.login(e.login, "wrong-password")
    assert episode.snapshot()["mail"]["outbox"] == []


def test_episodes_cannot_read_each_other(pool, example):
    with pool.episode(*example) as a, pool.episode(*example) as b:
        ea, eb = a.endpoints, b.endpoints
        # CalDAV/CardDAV: b's credentials on a's collections
        for path in ("", "calendar-work/", "contacts/", "contacts/c-1.vcf"):
            res = httpx.request(
                "PROPFIND" if not path.endswith(".vcf") else "GET",
                f"{ea.caldav_url}{path}",
                auth=(eb.login, eb.password),
            )
            assert res.status_code in (403, 404), (path, res.status_code)
        # IMAP: b's password does not open a's account; b's own session has only b's mail
        with pytest.raises(imaplib.IMAP4.error):
            conn = imaplib.IMAP4("127.0.0.1", ea.imap_port)
            conn.login(ea.login, eb.password)
        conn = imap(b)
        typ, _ = conn.select(f"../{ea.login}")
        assert typ == "NO"
        conn.logout()
        # SMTP: b cannot authenticate as a
        with smtplib.SMTP("127.0.0.1", ea.smtp_port) as smtp, pytest.raises(smtplib.SMTPAuthenticationError):
            smtp.login(ea.login, eb.password)


def test_close_removes_accounts_and_data(pool, example):
    ep = pool.episode(*example)
    e = ep.endpoints
    ep.close()
    with pytest.raises(imaplib.IMAP4.error):
        imaplib.IMAP4("127.0.0.1", e.imap_port).login(e.login, e.password)
    assert httpx.request("PROPFIND", e.caldav_url, auth=(e.login, e.password)).status_code == 401
    assert not ep.dir.exists() and not ep.home.exists()


def test_reset_returns_to_the_initial_state(episode, example):
    s0 = dumps(episode.snapshot())
    (episode.workspace / "scratch.txt").write_text("x")
    calendar_named(episode, "Work").event_by_uid("evt-1").delete()
    assert dumps(episode.snapshot()) != s0
    episode.reset()
    assert dumps(episode.snapshot()) == s0
