"""The episode clock: starts at the task's `now` and advances with real elapsed time."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


class EpisodeClock:
    def __init__(self, start: datetime, tz: ZoneInfo) -> None:
        self.start = start.astimezone(tz)
        self.tz = tz
        self._t0 = time.monotonic()
        self.wall_start = time.time()

    def world_time(self, wall: float) -> float:
        """The episode's time (a POSIX timestamp) at the real moment `wall`."""
        return self.start.timestamp() + (wall - self.wall_start)

    def now(self) -> datetime:
        elapsed = timedelta(seconds=time.monotonic() - self._t0)
        return (self.start + elapsed).astimezone(self.tz).replace(microsecond=0)
