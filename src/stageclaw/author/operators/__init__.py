"""The difficulty operators of DESIGN.md as pieces families compose.

One module per operator. Each adds what makes a task hard in its way (world objects, checks,
allowed changes) and records evidence on the draft (`TaskDraft.record`), which lands in
task.toml `[provenance.evidence]`. Items are named by their diff paths (`calendar/Work/evt-1`,
`mail/folders/INBOX/<id@host>`, `contacts/c-1`, `files/docs/plan.md`), the way stage 2 names them.
"""

from __future__ import annotations

from typing import Any


def mail_path(folder: str, message: dict[str, Any]) -> str:
    return f"mail/folders/{folder}/{message['message_id']}"


def item_path(app: str, container: str, item: dict[str, Any]) -> str:
    """The diff path of a calendar, reminders or notes item."""
    return f"{app}/{container}/{item['uid']}"


def contact_path(contact: dict[str, Any]) -> str:
    return f"contacts/{contact['uid']}"


def file_path(path: str) -> str:
    return f"files/{path}"
