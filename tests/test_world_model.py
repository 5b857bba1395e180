"""world.yaml validation: every defect is an error naming the file and the field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stageclaw.errors import WorldError
from stageclaw.world import diff
from stageclaw.world.model import load_world, parse_world

BASE = {
    "now": "2026-03-10T09:00:00+08:00",
    "timezone": "Asia/Shanghai",
    "user": {"name": "Lin", "email": "lin@example.com"},
}


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            {"calendar": {"Work": [{"uid": "e1", "summary": "x", "start": "2026-02-30T10:00"}]}},
            "calendar.Work[0].start: bad date or time '2026-02-30T10:00'",
        ),
        (
            {"calendar": {"Work": [{"uid": "e1", "summary": "x", "start": "2026-03-01", "colour": "red"}]}},
            "calendar.Work[0].colour: unknown key",
        ),
        (
            {"calendar": {"Work": [{"uid": "e1", "summary": "x", "start": "2026-03-01", "end": "2026-03-01T10:00"}]}},
            "calendar.Work[0]: start and end must both be dates",
        ),
        (
            {"reminders": {"Inbox": [{"uid": "r", "title": "t", "priority": 12}]}},
            "reminders.Inbox[0].priority: Input should be less than or equal to 9",
        ),
        (
            {
                "mail": {
                    "folders": {"INBOX": [{"message_id": "no-angles", "from": "a@b.c", "date": "2026-03-01T10:00"}]}
                }
            },
            "mail.folders.INBOX[0].message_id: 'no-angles' is not a Message-ID",
        ),
        (
            {
                "mail": {
                    "folders": {
                        "INBOX": [
                            {"message_id": "<a@b>", "from": "a@b.c", "date": "2026-03-01T10:00", "flags": ["\\\\Bogus"]}
                        ]
                    }
                }
            },
            "mail.folders.INBOX[0].flags",
        ),
        ({"contacts": [{"uid": "c", "name": "A"}, {"uid": "c", "name": "B"}]}, "contacts: uid 'c' is used twice"),
        ({"files": {"../escape.txt": {"text": "x"}}}, "files: '../escape.txt' must be a plain relative path"),
        ({"files": {"a.txt": {}}}, "files.a.txt: give exactly one of 'text' or 'path'"),
        ({"timezone": "Mars/Olympus"}, "timezone: unknown timezone 'Mars/Olympus'"),
        ({"now": "2026-03-10T09:00:00"}, "now: now needs a UTC offset"),
        ({"weather": "sunny"}, "weather: unknown key"),
    ],
)
def test_bad_world_names_the_field(extra, expected):
    with pytest.raises(WorldError) as info:
        parse_world({**BASE, **extra})
    assert expected in str(info.value)


def test_missing_asset_and_bad_yaml_name_the_file(tmp_path):
    (tmp_path / "world.yaml").write_text(
        "now: '2026-03-10T09:00:00+08:00'\ntimezone: UTC\nuser: {name: A, email: a@b.c}\n"
        "files:\n  x.pdf: {path: assets/x.pdf}\n"
    )
    with pytest.raises(WorldError, match=r"world.yaml: files.x.pdf.path: no file 'assets/x.pdf'"):
        load_world(tmp_path)
    (tmp_path / "world.yaml").write_text("now: [unclosed\n")
    with pytest.raises(WorldError, match=r"world.yaml: line \d+ not valid YAML"):
        load_world(tmp_path)
    with pytest.raises(WorldError, match=r"no world\.yaml here"):
        load_world(tmp_path / "nowhere")


def test_cli_prints_one_line_error_for_a_malformed_world(tmp_path):
    (tmp_path / "world.yaml").write_text(
        "now: '2026-03-10T09:00:00+08:00'\ntimezone: UTC\nuser: {name: A, email: a@b.c}\n"
        "calendar:\n  Work:\n    - {uid: e1, summary: x, start: 'next tuesday'}\n"
    )
    res = subprocess.run(
        [sys.executable, "-m", "stageclaw", "world", "snapshot", str(tmp_path)], capture_output=True, text=True
    )
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "calendar.Work[0].start" in lines[0] and "Traceback" not in res.stderr


def test_yaml_times_stay_strings_until_validated(tmp_path):
    # Unquoted YAML timestamps would otherwise become naive UTC datetimes and lose the offset.
    (tmp_path / "world.yaml").write_text(
        "now: 2026-03-10T09:00:00+08:00\ntimezone: Asia/Shanghai\nuser: {name: A, email: a@b.c}\n"
        "calendar:\n  Work:\n    - {uid: e1, summary: x, start: 2026-03-10T18:00:00+08:00, end: 2026-03-10}\n"
    )
    with pytest.raises(WorldError, match="start and end must both be dates"):
        load_world(tmp_path)


def test_diff_paths_cover_containers_fields_and_duplicates():
    msg = {"message_id": "<m@x>", "flags": []}
    before = {
        "mail": {"folders": {"INBOX": [msg], "Old": []}, "outbox": []},
        "calendar": {"Work": [{"uid": "e", "start": "a"}]},
        "files": {},
    }
    after = {
        "mail": {"folders": {"INBOX": [{**msg, "flags": ["\\Seen"]}, msg], "New": []}, "outbox": []},
        "calendar": {"Work": [{"uid": "e", "start": "b"}]},
        "files": {"a.txt": {"sha256": "0", "size": 0}},
    }
    paths = [(c["op"], c["path"]) for c in diff(before, after)]
    assert paths == [
        ("modified", "calendar/Work/e#start"),
        ("added", "files/a.txt"),
        ("modified", "mail/folders/INBOX/<m@x>#flags"),
        ("added", "mail/folders/INBOX/<m@x>~2"),
        ("added", "mail/folders/New"),
        ("removed", "mail/folders/Old"),
    ]
    assert diff(after, after) == []


def test_examples_load(tmp_path):
    for world_yaml in sorted(Path(__file__).parent.parent.glob("tasks/**/world.yaml")):
        load_world(world_yaml)
