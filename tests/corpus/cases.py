"""The bad-input corpus: task folders made from `healthy/` by one change each.

A case is bad (it must be refused when it loads, with a one-line message naming the file and the
field and saying what is wrong) or valid (an odd input that must load, run and be solved). Each is
written next to the healthy task, which must always get its result.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

HEALTHY = Path(__file__).resolve().parent / "healthy"


@dataclass(frozen=True)
class Case:
    name: str
    change: Callable[[Path], None]
    file: str = ""  # a bad case's message starts with "<task folder>/<file>: <field>"
    field: str = ""
    says: str = ""  # ... and holds this; a valid case has no file

    @property
    def valid(self) -> bool:
        return not self.file


def write_case(case: Case, root: Path) -> Path:
    """The case's task folder under `root` (its id is the case's name)."""
    task = root / case.name
    shutil.copytree(HEALTHY, task, symlinks=True)
    replace(task / "task.toml", 'id = "healthy"', f'id = "{case.name}"')
    case.change(task)
    return task


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def world(edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def change(task: Path) -> None:
        path = task / "world.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    return change


def text(file: str, old: str, new: str) -> Callable[[Path], None]:
    return lambda task: replace(task / file, old, new)


def raw(file: str, data: bytes) -> Callable[[Path], None]:
    return lambda task: (task / file).write_bytes(data)


def invoice(data: dict[str, Any]) -> dict[str, Any]:
    return data["mail"]["folders"]["INBOX"][0]


def set_invoice(**fields: Any) -> Callable[[Path], None]:
    return world(lambda data: invoice(data).update(fields))


def add_event(**event: Any) -> Callable[[Path], None]:
    return world(lambda data: data["calendar"]["Home"].append({"uid": "evt-x", "summary": "x", **event}))


def add_folder(name: str, sender: str = "Bo <bo@other.example>") -> Callable[[Path], None]:
    message = {"message_id": "<x-1@other.example>", "from": sender, "date": "2026-03-01T10:00:00+01:00"}
    return world(lambda data: data["mail"]["folders"].update({name: [message]}))


def add_container(app: str, name: str) -> Callable[[Path], None]:
    return world(lambda data: data.setdefault(app, {}).update({name: []}))


def add_file(name: str, **seed: Any) -> Callable[[Path], None]:
    return world(lambda data: data["files"].update({name: seed or {"text": "x"}}))


def attach(path: str) -> Callable[[Path], None]:
    return world(lambda data: invoice(data)["attachments"][0].update(path=path))


def rrule(rule: str) -> Callable[[Path], None]:
    return add_event(start="2026-03-10T09:00:00", rrule=rule)


def _symlinked_asset(task: Path) -> None:
    (task / "assets" / "invoice-77.txt").unlink()
    os.symlink("../hidden/solution.py", task / "assets" / "invoice-77.txt")


def _linked_folder(task: Path) -> None:
    os.symlink("../hidden", task / "assets" / "more")
    attach("assets/more/solution.py")(task)


def _fifo_asset(task: Path) -> None:
    os.mkfifo(task / "assets" / "pipe.txt")  # reading it would block the build for ever
    attach("assets/pipe.txt")(task)


def _dir_asset(task: Path) -> None:
    (task / "assets" / "folder").mkdir()
    attach("assets/folder")(task)


def _no_file(name: str) -> Callable[[Path], None]:
    return lambda task: (task / name).unlink()


def _dir_task_toml(task: Path) -> None:
    (task / "task.toml").unlink()
    (task / "task.toml").mkdir()


LATIN1 = "Rechnung für Ana\n".encode("latin-1")
GAP = "2026-03-29T02:30:00"  # Europe/Berlin springs from 02:00 to 03:00 that night
FOLD = "2026-10-25T02:30:00"  # ... and falls back from 03:00 to 02:00 that one: 02:30 happens twice

BAD = [
    # Header lines: a CR or LF in a seeded header (HeaderParseError when the message was built).
    Case(
        "crlf-subject",
        set_invoice(subject="Invoice\r\nBcc: eve@evil.example"),
        "world.yaml",
        "mail.folders.INBOX[0].subject: ",
        "holds a line break",
    ),
    Case(
        "lf-subject",
        set_invoice(subject="Invoice\nX-Evil: 1"),
        "world.yaml",
        "mail.folders.INBOX[0].subject: ",
        "holds a line break",
    ),
    Case(
        "crlf-from",
        set_invoice(**{"from": "Ana <ana@gardens.example>\r\nBcc: eve@evil.example"}),
        "world.yaml",
        "mail.folders.INBOX[0].from: ",
        "holds a line break",
    ),
    Case(
        "crlf-to",
        set_invoice(to=["kai.weber@example.com\r\nBcc: eve@evil.example"]),
        "world.yaml",
        "mail.folders.INBOX[0].to: ",
        "holds a line break",
    ),
    Case(
        "crlf-cc",
        set_invoice(cc=["bo@other.example\nBcc: eve@evil.example"]),
        "world.yaml",
        "mail.folders.INBOX[0].cc: ",
        "holds a line break",
    ),
    Case(
        "nul-subject",
        set_invoice(subject="Invoice\x00"),
        "world.yaml",
        "mail.folders.INBOX[0].subject: ",
        "control character",
    ),
    Case(
        "crlf-attachment-name",
        world(lambda d: invoice(d)["attachments"][0].update(filename="a\r\n.txt")),
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].filename: ",
        "holds a line break",
    ),
    Case(
        "slash-attachment-name",
        world(lambda d: invoice(d)["attachments"][0].update(filename="../a.txt")),
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].filename: ",
        "without '/'",
    ),
    Case(
        "crlf-user-name",
        world(lambda d: d["user"].update(name="Kai\r\nBcc: eve@evil.example")),
        "world.yaml",
        "user.name: ",
        "holds a line break",
    ),
    # Dates the stores cannot hold (OverflowError with an offset).
    Case(
        "year-1",
        set_invoice(date="0001-01-01T00:00:00+05:00"),
        "world.yaml",
        "mail.folders.INBOX[0].date: ",
        "outside the years 1900-2199",
    ),
    Case(
        "year-9999",
        set_invoice(date="9999-12-31T23:00:00-05:00"),
        "world.yaml",
        "mail.folders.INBOX[0].date: ",
        "outside the years 1900-2199",
    ),
    Case(
        "year-1-due",
        world(lambda d: d["reminders"]["Inbox"][0].update(due="0001-01-01")),
        "world.yaml",
        "reminders.Inbox[0].due: ",
        "outside the years 1900-2199",
    ),
    Case(
        "year-9999-event",
        add_event(start="9999-12-31T23:30:00+14:00"),
        "world.yaml",
        "calendar.Home[1].start: ",
        "outside the years 1900-2199",
    ),
    Case(
        "bad-date",
        set_invoice(date="next tuesday"),
        "world.yaml",
        "mail.folders.INBOX[0].date: ",
        "bad date or time 'next tuesday'",
    ),
    # Names that become file names (ENAMETOOLONG) or that the tools cannot address.
    Case("long-calendar", add_container("calendar", "C" * 300), "world.yaml", "calendar: ", "300 characters long"),
    Case("long-list", add_container("reminders", "L" * 101), "world.yaml", "reminders: ", "101 characters long"),
    Case("long-folder", add_folder("F" * 300), "world.yaml", "mail.folders: ", "300 characters long"),
    Case("long-file-name", add_file("docs/" + "f" * 300 + ".txt"), "world.yaml", "files: ", "at most 255 bytes"),
    Case("folder-inbox", add_folder("inbox"), "world.yaml", "mail.folders: ", "write it 'INBOX'"),
    Case("folder-inbox-child", add_folder("Inbox/Receipts"), "world.yaml", "mail.folders: ", "write it 'INBOX'"),
    Case("folder-tilde", add_folder("~old"), "world.yaml", "mail.folders: ", "start with '~'"),
    Case("folder-space", add_folder(" Archive"), "world.yaml", "mail.folders: ", "without spaces at its start"),
    Case("folder-dot", add_folder("a.b"), "world.yaml", "mail.folders: ", "(no dots)"),
    Case("folder-tab", add_folder("Tab\there"), "world.yaml", "mail.folders: ", "control character"),
    Case("calendar-newline", add_container("calendar", "Work\nPlay"), "world.yaml", "calendar: ", "holds a line break"),
    Case("calendar-slash", add_container("notes", "a/b"), "world.yaml", "notes: ", "without '/'"),
    # Files: a file that is also a folder (FileExistsError), paths that leave the workspace.
    Case(
        "file-folder-clash",
        add_file("docs"),
        "world.yaml",
        "files: ",
        "'docs' is a file, and also the folder of 'docs/budget.md'",
    ),
    Case("file-absolute", add_file("/etc/passwd"), "world.yaml", "files: ", "plain relative path"),
    Case("file-dotdot", add_file("../outside.txt"), "world.yaml", "files: ", "plain relative path"),
    Case("file-newline", add_file("docs/a\nb.txt"), "world.yaml", "files: ", "no control characters"),
    # Encodings.
    Case("prompt-latin1", raw("prompt.md", LATIN1), "prompt.md", "", "not UTF-8 text"),
    Case(
        "task-toml-latin1",
        raw("task.toml", b'id = "task-toml-latin1"\ntitle = "f\xfcr"\n'),
        "task.toml",
        "",
        "not UTF-8 text",
    ),
    Case(
        "rubric-latin1",
        raw("hidden/rubric.toml", b'[[item]]\nid = "\xe9"\n'),
        "hidden/rubric.toml",
        "",
        "not UTF-8 text",
    ),
    Case("verify-latin1", raw("hidden/verify.py", b"# f\xfcr\n"), "hidden/verify.py", "", "not UTF-8 text"),
    Case("solution-latin1", raw("hidden/solution.py", b"# f\xfcr\n"), "hidden/solution.py", "", "not UTF-8 text"),
    Case("goal-latin1", raw("hidden/goal.md", LATIN1), "hidden/goal.md", "", "not UTF-8 text"),
    Case("world-latin1", raw("world.yaml", b"now: f\xfcr\n"), "world.yaml", "", "not UTF-8 text"),
    # Times the zone skips (the event became zero length), and all-day lengths.
    Case(
        "dst-gap-event",
        add_event(start=GAP, end="2026-03-29T02:45:00"),
        "world.yaml",
        "calendar.Home[1].start: ",
        "does not exist in Europe/Berlin",
    ),
    Case(
        "dst-gap-end",
        add_event(start="2026-03-29T01:30:00", end=GAP),
        "world.yaml",
        "calendar.Home[1].end: ",
        "does not exist in Europe/Berlin",
    ),
    Case(
        "dst-gap-due",
        world(lambda d: d["reminders"]["Inbox"][0].update(due=GAP)),
        "world.yaml",
        "reminders.Inbox[0].due: ",
        "does not exist in Europe/Berlin",
    ),
    Case(
        "dst-gap-mail",
        set_invoice(date=GAP),
        "world.yaml",
        "mail.folders.INBOX[0].date: ",
        "does not exist in Europe/Berlin",
    ),
    Case(
        "all-day-zero",
        add_event(start="2026-03-20", end="2026-03-20"),
        "world.yaml",
        "calendar.Home[1]: ",
        "end is exclusive",
    ),
    Case(
        "all-day-backwards",
        add_event(start="2026-03-20", end="2026-03-19"),
        "world.yaml",
        "calendar.Home[1]: ",
        "end is before start",
    ),
    Case(
        "all-day-mixed",
        add_event(start="2026-03-20", end="2026-03-21T10:00:00"),
        "world.yaml",
        "calendar.Home[1]: ",
        "both be dates",
    ),
    # Assets: regular files inside assets/ only (a link into hidden/ leaked the solution).
    Case(
        "asset-symlink",
        _symlinked_asset,
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].path: ",
        "goes through the symbolic link 'invoice-77.txt'",
    ),
    Case(
        "asset-linked-folder",
        _linked_folder,
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].path: ",
        "goes through the symbolic link 'more'",
    ),
    Case(
        "asset-hidden",
        attach("hidden/solution.py"),
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].path: ",
        "not in the task's assets/ folder",
    ),
    Case(
        "asset-dotdot",
        attach("assets/../hidden/verify.py"),
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].path: ",
        "plain relative path",
    ),
    Case(
        "asset-fifo", _fifo_asset, "world.yaml", "mail.folders.INBOX[0].attachments[0].path: ", "is not a regular file"
    ),
    Case(
        "asset-folder", _dir_asset, "world.yaml", "mail.folders.INBOX[0].attachments[0].path: ", "is not a regular file"
    ),
    Case(
        "asset-missing",
        attach("assets/nope.txt"),
        "world.yaml",
        "mail.folders.INBOX[0].attachments[0].path: ",
        "no file 'assets/nope.txt'",
    ),
    Case(
        "file-asset-hidden",
        add_file("docs/answer.py", path="hidden/solution.py"),
        "world.yaml",
        "files.docs/answer.py.path: ",
        "not in the task's assets/ folder",
    ),
    # Weights and budgets that are not finite numbers (a NaN score with success true).
    Case(
        "weight-inf",
        text("hidden/rubric.toml", "weight = 1", "weight = inf"),
        "hidden/rubric.toml",
        "item[0].weight: ",
        "finite number",
    ),
    Case(
        "weight-nan",
        text("hidden/rubric.toml", "weight = 1", "weight = nan"),
        "hidden/rubric.toml",
        "item[0].weight: ",
        "finite number",
    ),
    Case(
        "weight-huge",
        text("hidden/rubric.toml", "weight = 1", "weight = 1e308"),
        "hidden/rubric.toml",
        "item[0].weight: ",
        "less than or equal to 1000000",
    ),
    Case(
        "weight-zero",
        text("hidden/rubric.toml", "weight = 1", "weight = 0"),
        "hidden/rubric.toml",
        "item[0].weight: ",
        "greater than 0",
    ),
    Case(
        "budget-inf",
        text("task.toml", "time_budget_s = 120", "time_budget_s = inf"),
        "task.toml",
        "time_budget_s: ",
        "finite number",
    ),
    Case(
        "steps-zero", text("task.toml", "max_steps = 20", "max_steps = 0"), "task.toml", "max_steps: ", "greater than 0"
    ),
    # Tools patterns that match no tool (the agent got zero tools, silently).
    Case(
        "tools-mail",
        text("task.toml", '["now", "mail_*", "reminders_*", "calendar_*", "files_*"]', '["mail"]'),
        "task.toml",
        "tools: ",
        "'mail' matches no tool (did you mean",
    ),
    Case(
        "tools-typo",
        text("task.toml", '"reminders_*"', '"reminder_*"'),
        "task.toml",
        "tools: ",
        "'reminder_*' matches no tool",
    ),
    Case(
        "tools-empty",
        text("task.toml", '["now", "mail_*", "reminders_*", "calendar_*", "files_*"]', "[]"),
        "task.toml",
        "tools: ",
        "the list is empty",
    ),
    # Recurrence: nothing finer than daily (FREQ=SECONDLY listed 3.2 MB for one day).
    Case(
        "rrule-secondly", rrule("FREQ=SECONDLY"), "world.yaml", "calendar.Home[1].rrule: ", "FREQ must be one of DAILY"
    ),
    Case(
        "rrule-minutely",
        rrule("FREQ=MINUTELY;COUNT=5"),
        "world.yaml",
        "calendar.Home[1].rrule: ",
        "FREQ must be one of DAILY",
    ),
    Case("rrule-hourly", rrule("FREQ=HOURLY"), "world.yaml", "calendar.Home[1].rrule: ", "FREQ must be one of DAILY"),
    Case(
        "rrule-byhour", rrule("FREQ=DAILY;BYHOUR=1,2,3"), "world.yaml", "calendar.Home[1].rrule: ", "BYHOUR not allowed"
    ),
    Case(
        "rrule-byminute",
        rrule("FREQ=WEEKLY;BYMINUTE=0,30"),
        "world.yaml",
        "calendar.Home[1].rrule: ",
        "BYMINUTE not allowed",
    ),
    Case("rrule-garbage", rrule("FREQ=FORTNIGHTLY"), "world.yaml", "calendar.Home[1].rrule: ", "bad rrule"),
    # The rest of the format, one line each.
    Case("empty-prompt", raw("prompt.md", b"  \n"), "prompt.md", "", "empty prompt"),
    Case(
        "id-mismatch",
        text("task.toml", 'id = "id-mismatch"', 'id = "other"'),
        "task.toml",
        "id: ",
        "differs from the folder name",
    ),
    Case("toml-broken", text("task.toml", "max_steps = 20", "max_steps = = 20"), "task.toml", "", "not valid TOML"),
    Case("yaml-broken", raw("world.yaml", b"now: [unclosed\n"), "world.yaml", "", "not valid YAML"),
    Case("yaml-list", raw("world.yaml", b"- now\n"), "world.yaml", "", "must be a YAML mapping"),
    Case("unknown-key", world(lambda d: d.update(wether="sunny")), "world.yaml", "wether: ", "unknown key"),
    Case(
        "bad-timezone",
        world(lambda d: d.update(timezone="Mars/Olympus")),
        "world.yaml",
        "timezone: ",
        "unknown timezone 'Mars/Olympus'",
    ),
    Case(
        "naive-now",
        world(lambda d: d.update(now="2026-03-10T09:00:00")),
        "world.yaml",
        "now: ",
        "now needs a UTC offset",
    ),
    Case(
        "duplicate-uid",
        add_event(uid="evt-garden", start="2026-03-11"),
        "world.yaml",
        "calendar: ",
        "uid 'evt-garden' is used twice",
    ),
    Case(
        "bad-message-id",
        set_invoice(message_id="inv-77"),
        "world.yaml",
        "mail.folders.INBOX[0].message_id: ",
        "is not a Message-ID",
    ),
    Case(
        "bad-flag", set_invoice(flags=["\\Bogus"]), "world.yaml", "mail.folders.INBOX[0].flags: ", "is not an IMAP flag"
    ),
    Case(
        "bad-email",
        world(lambda d: d["user"].update(email="kai at example")),
        "world.yaml",
        "user.email: ",
        "is not an email address",
    ),
    Case(
        "priority-10",
        world(lambda d: d["reminders"]["Inbox"][0].update(priority=10)),
        "world.yaml",
        "reminders.Inbox[0].priority: ",
        "less than or equal to 9",
    ),
    Case(
        "bad-operator",
        text("task.toml", '"hidden_dependency"', '"hard"'),
        "task.toml",
        "operators: ",
        "unknown operator 'hard'",
    ),
    Case(
        "no-items",
        raw("hidden/rubric.toml", b"[changes]\nallow = []\n"),
        "hidden/rubric.toml",
        "item: ",
        "Field required",
    ),
    Case(
        "check-and-judge",
        text("hidden/rubric.toml", 'stage = "', 'judge = "Is it right?"\nstage = "'),
        "hidden/rubric.toml",
        "item[0]: ",
        "exactly one of 'check'",
    ),
    Case(
        "allow-absolute",
        text("hidden/rubric.toml", '"+reminders/Inbox/*"', '"/reminders"'),
        "hidden/rubric.toml",
        "changes.allow: ",
        "not a change pattern",
    ),
    Case("missing-verify", _no_file("hidden/verify.py"), "", "", "missing hidden/verify.py"),
    Case("task-toml-folder", _dir_task_toml, "", "", "missing task.toml"),
]

VALID = [
    Case("valid-inbox-child", add_folder("INBOX/Receipts")),
    Case("valid-sent-lowercase", add_folder("sent")),
    Case("valid-name-100", add_container("calendar", "C" * 100)),
    Case("valid-unicode", set_invoice(subject="Invoice 77 für die Gartenarbeit 🌱 花园")),
    Case("valid-long-subject", set_invoice(subject="Invoice 77 " + "garden " * 150)),
    Case("valid-crlf-body", set_invoice(body="Hi Kai,\r\n\r\nthe invoice is due on 24 March 2026.\r\n\r\nAna")),
    Case("valid-dst-fold", add_event(start=FOLD, end="2026-10-25T03:30:00", summary="Night flight")),
    Case(
        "valid-gap-with-offset",
        add_event(start="2026-03-29T02:30:00+01:00", end="2026-03-29T04:00:00+02:00", summary="Night train"),
    ),
    Case("valid-all-day", add_event(start="2026-03-20", end="2026-03-21")),
    Case("valid-zero-length-timed", add_event(start="2026-03-20T10:00:00", end="2026-03-20T10:00:00")),
    Case("valid-daily", rrule("FREQ=DAILY;COUNT=30")),
    Case("valid-weekly-until", rrule("FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260630T000000Z")),
    Case("valid-year-bounds", add_event(start="1900-01-01", end="2199-12-31")),
    Case("valid-weight-million", text("hidden/rubric.toml", "weight = 1", "weight = 1e6")),
    Case("valid-all-tools", text("task.toml", '["now", "mail_*", "reminders_*", "calendar_*", "files_*"]', '["*"]')),
    Case("valid-unicode-path", add_file("Docs/Ünïcode file 名.txt")),
]
