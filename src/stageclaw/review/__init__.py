"""The human audit that ends stage 2: a local review page per task, and the reviewer's sign-off.

`ReviewServer` serves the pages (`stageclaw review TASK|SUITE`); the sign-off itself is
`stageclaw.task.review` (`review.toml` in the task folder), which `validate` reads.
"""

from stageclaw.review.server import ReviewServer

__all__ = ["ReviewServer"]
