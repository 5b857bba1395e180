"""The human audit's verdict on a task, kept in the task folder as `review.toml`.

A sign-off names the reviewer, the verdict (accept, needs_work, reject), the notes, the date and the
digest of the task's files when it was given (`task.loader.task_digest`, which leaves review.toml
out). When any file of the task changes afterwards, the sign-off is stale: it was about another task.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

from stageclaw.errors import StageclawError
from stageclaw.task.loader import REVIEW_FILE, task_digest

VERDICTS = ("accept", "needs_work", "reject")
UNREVIEWED, STALE = "unreviewed", "stale"
# The status a fresh sign-off gives the task, by verdict.
STATUS = {"accept": "accepted", "needs_work": "needs work", "reject": "rejected"}


@dataclass
class Signoff:
    reviewer: str
    verdict: str
    notes: str
    date: str
    task_hash: str


@dataclass
class ReviewStatus:
    status: str  # unreviewed, stale, accepted, needs work, rejected
    signoff: Signoff | None = None

    @property
    def accepted(self) -> bool:
        return self.status == STATUS["accept"]

    def to_json(self) -> dict[str, object]:
        return {"status": self.status, **(asdict(self.signoff) if self.signoff else {})}


def read_signoff(task_dir: Path) -> Signoff | None:
    path = Path(task_dir) / REVIEW_FILE
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return Signoff(**{k: str(data[k]) for k in ("reviewer", "verdict", "notes", "date", "task_hash")})
    except (tomllib.TOMLDecodeError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise StageclawError(f"{path}: not a review sign-off ({exc}); sign the task again to replace it") from None


def review_status(task_dir: Path) -> ReviewStatus:
    """Whether the task was reviewed, with what verdict, and whether the task changed since."""
    signoff = read_signoff(task_dir)
    if signoff is None:
        return ReviewStatus(UNREVIEWED)
    if signoff.task_hash != task_digest(Path(task_dir)):
        return ReviewStatus(STALE, signoff)
    return ReviewStatus(STATUS.get(signoff.verdict, signoff.verdict), signoff)


def sign(task_dir: Path, reviewer: str, verdict: str, notes: str = "", on: date | None = None) -> Signoff:
    """Record a verdict on the task as it is now (written atomically)."""
    task_dir = Path(task_dir)
    if verdict not in VERDICTS:
        raise StageclawError(f"verdict {verdict!r}: use one of {', '.join(VERDICTS)}")
    if not reviewer.strip():
        raise StageclawError("a sign-off needs the reviewer's name (--reviewer NAME)")
    if not (task_dir / "task.toml").is_file():
        raise StageclawError(f"{task_dir}: not a task folder (no task.toml)")
    signoff = Signoff(reviewer.strip(), verdict, notes.strip(), (on or date.today()).isoformat(), task_digest(task_dir))
    # A JSON string is a TOML basic string (but for DEL, which TOML wants escaped).
    text = "".join(
        f"{k} = {json.dumps(v, ensure_ascii=False)}\n".replace("\x7f", "\\u007f") for k, v in asdict(signoff).items()
    )
    path = task_dir / REVIEW_FILE
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return signoff
