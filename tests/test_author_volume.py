"""The volume generator: a user's life at scale, the same for the same seed, real in its details, and
clear of what the story avoids."""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from stageclaw.author.content import holidays, money
from stageclaw.author.content.people import People, Person
from stageclaw.author.content.places import REGIONS
from stageclaw.author.content.timeline import at
from stageclaw.author.content.volume import Avoid, Life, Scale
from stageclaw.author.draft import TaskDraft
from stageclaw.world.model import parse_world

NOW = {"uk": date(2026, 3, 24), "cn": date(2026, 10, 13), "jp": date(2026, 6, 9)}
STORY = Avoid(
    people=["Priya Raman"],
    words=["quarterly sync", "Atlas"],
    days=[date(2026, 3, 26)],
    slots=[(at(date(2026, 3, 27), 9, 0, "Europe/London"), at(date(2026, 3, 27), 12, 0, "Europe/London"))],
    addresses=["statements@kitebank.co.uk"],
    paths=["Documents/Contracts"],
)


def life(
    region: str = "uk", seed: int = 1, scale: Scale | None = None, avoid: Avoid | None = None
) -> tuple[TaskDraft, Life, list[str]]:
    locale = "zh" if region == "cn" else "en"
    rng = random.Random(f"volume-test:{region}:{seed}")
    people = People(rng, native=locale == "zh")
    me = people.person(region, org=people.company(region), title="Product Manager")
    now = at(NOW[region], 9, 30, me.tz)
    user = {"name": me.name, "email": me.email}
    draft = TaskDraft(id="t", title="t", group="planning", now=now.isoformat(), timezone=me.tz, user=user)
    made = Life(draft, rng, people, me, now, locale, avoid=avoid)
    return draft, made, made.fill(scale or Scale.busy())


@pytest.fixture(scope="module")
def uk() -> tuple[TaskDraft, Life, list[str]]:
    return life("uk", avoid=STORY)


@pytest.fixture(scope="module")
def cn() -> tuple[TaskDraft, Life, list[str]]:
    return life("cn")


def messages(draft: TaskDraft) -> list[tuple[str, dict[str, Any]]]:
    return [(folder, m) for folder, ms in draft.mail.items() for m in ms]


def own_lines(body: str) -> list[str]:
    return [line for line in body.splitlines() if not line.lstrip().startswith(">") and not line.startswith("On ")]


def test_same_seed_same_world_and_another_seed_another():
    a, b, c = life("uk", 7)[0], life("uk", 7)[0], life("uk", 8)[0]
    assert a.world() == b.world() and a.assets == b.assets
    assert a.world() != c.world()


def test_a_busy_account_has_the_volume_of_real_life(uk):
    draft, _made, paths = uk
    world = parse_world(draft.world())  # valid: every EXDATE and override is an occurrence of its rule
    assert 150 <= sum(map(len, world.mail.folders.values())) <= 500
    assert len(world.contacts) >= 100 and len(world.files) >= 100
    assert {"INBOX", "Archive", "Sent"} <= set(world.mail.folders)
    series = [e for events in world.calendar.values() for e in events if e.rrule]
    assert len(series) >= 8 and any(e.exdates for e in series) and any(e.overrides for e in series)
    assert any(o.status == "CANCELLED" for e in series for o in e.overrides)
    replies = [m for _, m in messages(draft) if m.get("in_reply_to")]
    parents = {m["message_id"]: m for _, m in messages(draft)}
    assert any(
        parents.get(parents[m["in_reply_to"]].get("in_reply_to", "")) for m in replies if m["in_reply_to"] in parents
    )
    assert len({p.split("/")[1] for p in paths if p.startswith("files/")}) >= 3  # files in several folders
    # every path returned names an item of the world
    state_paths = {f"mail/folders/{f}/{m['message_id']}" for f, m in messages(draft)}
    state_paths |= {
        f"{app}/{name}/{i['uid']}"
        for app in ("calendar", "reminders", "notes")
        for name, items in getattr(draft, app).items()
        for i in items
    }
    state_paths |= {f"contacts/{c['uid']}" for c in draft.contacts} | {f"files/{p}" for p in draft.files}
    assert set(paths) <= state_paths and len(paths) == len(set(paths))


def test_nothing_is_dated_after_now_and_replies_follow_what_they_answer(uk, cn):
    for draft, made, _ in (uk, cn):
        by_id = {m["message_id"]: m for _, m in messages(draft)}
        for _, message in messages(draft):
            sent = datetime.fromisoformat(message["date"])
            assert sent <= made.now, message["subject"]
            parent = by_id.get(message.get("in_reply_to") or "")
            if parent is not None:
                assert datetime.fromisoformat(parent["date"]) < sent


def test_mail_is_dated_to_fit_what_it_describes(uk):
    draft, made, _ = uk
    orders: dict[str, dict[str, datetime]] = {}
    for _, m in messages(draft):
        found = re.search(r"[Oo]rder (\d{6})", m["subject"])
        if found:
            step = "confirm" if "confirmed" in m["subject"] else "ship" if "shipped" in m["subject"] else "deliver"
            orders.setdefault(found.group(1), {})[step] = datetime.fromisoformat(m["date"])
    assert orders
    for steps in orders.values():
        times = [steps[s] for s in ("confirm", "ship", "deliver") if s in steps]
        assert times == sorted(times)
    for _, m in messages(draft):
        if m["subject"].startswith(("Invitation:", "Cancelled:")):
            event_day = re.search(
                r"(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),? (.+?)(?: @| at| on|$)", m["body"]
            )
            assert event_day, m["body"]
            assert datetime.fromisoformat(m["date"]).date() <= made.now.date()


def test_one_greeting_and_one_sign_off_above_the_quoted_history(uk):
    draft, _made, _ = uk
    greeting = re.compile(r"^(Hi|Hey|Hello|Dear) [^,]+[,!]$")
    for _, m in messages(draft):
        lines = own_lines(m["body"])
        assert sum(1 for line in lines if greeting.match(line)) <= 1, m["body"]
        closings = [
            line
            for line in lines
            if re.fullmatch(
                r"(Best|Thanks|Cheers|Kind regards|Best regards|Many thanks|"
                r"Thanks a lot|See you|Talk soon|Yours sincerely|"
                r"With best regards|Until next time|Kind regards|Thank you),?!?",
                line,
            )
        ]
        assert len(closings) <= 1, m["body"]


def test_a_sender_whose_name_has_its_article_signs_without_a_second_one(uk):
    draft, _made, _ = uk
    bodies = [m["body"] for _, m in messages(draft)]
    assert any("The Morning Ledger" in b for b in bodies)  # the world has that newsletter to sign
    assert not [b for b in bodies if re.search(r"\bThe The\b", b)]


def test_events_happen_when_their_kind_happens(uk):
    draft, _made, _ = uk
    business = holidays.calendar("uk")
    for name, events in draft.calendar.items():
        for event in events:
            if len(event["start"]) == 10:
                continue
            start = datetime.fromisoformat(event["start"])
            assert 7 <= start.hour <= 21, event
            if name == "Work" and "rrule" not in event:
                assert business.is_business_day(start.date()), event  # no meetings on bank holidays
            if event["summary"] == "Parents' evening":
                assert start.hour >= 18
            if name == "Work" and "rrule" in event:  # a work series skips the bank holidays, and the story's slot
                for exdate in map(datetime.fromisoformat, event.get("exdates", [])):
                    assert not business.is_business_day(exdate.date()) or not STORY.slot(
                        exdate, exdate + timedelta(hours=1)
                    )


def test_money_has_the_currency_minor_units():
    draft, _made, _ = life("jp", 3, Scale(messages=150, series=4, events=40, contacts=30, files=40))
    texts = [m["body"] for _, m in messages(draft)] + [f.get("text", "") for f in draft.files.values()]
    yen = [t for t in texts if "¥" in t]
    assert yen and not any(re.search(r"¥[\d,]+\.\d", t) for t in yen)
    assert money.amount(random.Random(1), 2, 3, "JPY") % 1 == 0
    assert str(money.amount(random.Random(1), 2, 3, "GBP")).count(".") == 1
    assert money.format_amount(Decimal("12800"), REGIONS["jp"]) == "¥12,800"


def test_a_month_is_one_ledger_entry_in_mail_and_files(uk):
    draft, made, _ = uk
    statements = [m for _, m in messages(draft) if "statement is ready" in m["subject"]]
    assert statements
    for (vendor, period), value in made.ledger.items():
        shown = money.format_amount(value, made.region)
        mails = [m for _, m in messages(draft) if m["from"].startswith(vendor) and shown in m["body"]]
        assert mails, (vendor, period)
    subjects = [m["subject"] for _, m in messages(draft) if not m.get("in_reply_to")]
    assert len(subjects) == len(set(subjects))  # no two "same" mails (a March statement twice)


def test_no_vendor_or_organisation_is_named_after_the_user(uk, cn):
    for draft, made, _ in (uk, cn):
        names = {made.user.given.casefold(), made.user.family.casefold()}
        orgs = {c.get("organization", "") for c in draft.contacts} | {v[0] for v in made.vendors}
        for org in orgs:
            assert not set(re.split(r"\s+", org.casefold())) & names, org


def test_the_story_is_avoided(uk):
    draft, _made, _ = uk
    people = [c["name"] for c in draft.contacts] + [m["from"] for _, m in messages(draft)]
    assert not any(re.search(r"\bPriya\b|\bRaman\b", p) for p in people)
    texts = [m["subject"] + m["body"] for _, m in messages(draft)]
    texts += [e["summary"] for events in draft.calendar.values() for e in events] + list(draft.files)
    assert not any(re.search(r"quarterly sync|atlas", t, re.I) for t in texts)
    assert not any(m["date"].startswith("2026-03-26") for _, m in messages(draft))
    slot = STORY._slots[0]
    for events in draft.calendar.values():
        for event in events:
            if "rrule" not in event and len(event["start"]) > 10:
                assert not (
                    datetime.fromisoformat(event["start"]) < slot[1] and slot[0] < datetime.fromisoformat(event["end"])
                )
    assert not any(p.startswith("Documents/Contracts/") for p in draft.files)
    assert all("kitebank.co.uk" not in m["from"] for _, m in messages(draft))


def test_a_chinese_users_world_is_written_in_chinese(cn):
    draft, made, _ = cn
    assert made.region.key == "cn" and re.search(r"[\u4e00-\u9fff]", made.user.name)
    subjects = [m["subject"] for _, m in messages(draft)]
    assert sum(1 for s in subjects if re.search(r"[\u4e00-\u9fff]", s)) > 0.9 * len(subjects)
    assert any("元" in m["body"] for _, m in messages(draft))
    assert any(p.startswith("文档/") for p in draft.files)
    parse_world(draft.world())


def test_scale_of_a_size_gives_that_many_objects():
    _draft, _made, paths = life("uk", 2, Scale.of(600))
    counts = {app: sum(1 for p in paths if p.startswith(app)) for app in ("mail", "calendar", "contacts", "files")}
    assert counts["mail"] >= 240 and counts["calendar"] >= 240 and counts["contacts"] == 60 and counts["files"] == 60


def test_people_the_story_names_are_never_drawn():
    _draft, made, _ = life("uk", 4, Scale(messages=10, series=1, events=5, contacts=40, files=5))
    for person in made.ensure_cast().everyone():
        assert isinstance(person, Person) and made.avoid.person(person)
