"""room-booking: the generated worlds decide the task the way the family says (stage 2 runs them in
tests/test_author_families.py): the latest answers decide who is invited, the member writing from
home is invited at the work address only the directory has, and the prompt gives nothing away."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from stageclaw.author import generate
from stageclaw.author.draft import TaskDraft
from stageclaw.author.families.room_booking import LATER_YES, YES

SUBSETS = (None, [], ["cross_source_conflict"], ["entity_alignment"], ["noisy_data", "hidden_dependency"])


def _args(draft: TaskDraft, item: str) -> dict[str, Any]:
    return next(c.args for c in draft.checks if c.id == item)


def _own_words(body: str) -> str:
    return " ".join(line for line in body.splitlines() if not line.lstrip().startswith(">"))


def _latest_yes(draft: TaskDraft) -> set[str]:
    """The senders whose latest answer to the call is a yes."""
    [call] = draft.mail["Sent"]
    latest: dict[str, dict[str, Any]] = {}
    for message in draft.mail["INBOX"]:
        if message["subject"] != f"Re: {call['subject']}":
            continue
        sender = re.search(r"<(.+)>", message["from"]).group(1)
        if sender not in latest or datetime.fromisoformat(message["date"]) > datetime.fromisoformat(
            latest[sender]["date"]
        ):
            latest[sender] = message
    said = {s: " ".join(_own_words(m["body"]).split()) for s, m in latest.items()}
    return {s for s, words in said.items() if any(p in words for p in (*YES, *LATER_YES))}


@pytest.mark.parametrize("seed", range(1, 13))
@pytest.mark.parametrize("operators", SUBSETS)
def test_the_latest_answers_decide_who_is_invited(seed, operators):
    draft = generate("room-booking", seed, operators=operators)
    invited = set(_args(draft, "invited")["to"])
    yes = _latest_yes(draft)
    aliases = draft.evidence.get("entity_alignment", {}).get("addresses", [])
    work = dict(zip(aliases[1::2], aliases[::2], strict=True))  # personal -> work
    assert invited == {work.get(s, s) for s in yes}
    if "cross_source_conflict" in draft.operators:
        wrote_twice = len(draft.evidence["cross_source_conflict"]["sources"]) // 2
        assert wrote_twice == 3


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_member_writing_from_home_is_invited_at_the_address_only_the_directory_has(seed):
    draft = generate("room-booking", seed, operators=["entity_alignment"])
    work, home = draft.evidence["entity_alignment"]["addresses"]
    assert work in _args(draft, "invited")["to"] and home not in _args(draft, "invited")["to"]
    directory = [p for p in draft.web["intranet"]["people"] if p["email"] == work]
    outside_the_intranet = str({**draft.world(), "web": None})
    assert len(directory) == 1 and work not in outside_the_intranet and home in outside_the_intranet
    family = directory[0]["name"].split()[-1]
    namesakes = [p for p in draft.web["intranet"]["people"] if p["name"].split()[-1] == family]
    assert len(namesakes) >= 2  # the family name alone does not find them


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_prompt_names_no_room_time_or_count(seed):
    draft = generate("room-booking", seed)
    rooms = [r["name"] for r in draft.web["intranet"]["rooms"]]
    assert not re.search(r"\d", draft.prompt)
    assert not any(re.search(rf"\b{re.escape(name)}\b", draft.prompt) for name in rooms)
    assert draft.calendar and draft.notes and draft.contacts  # the apps the task reads besides mail and the web
