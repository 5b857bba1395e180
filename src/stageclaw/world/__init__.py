"""The real applications of one episode and their state.

`ServicePool` starts the servers; `pool.episode(world, base)` builds an isolated world;
`episode.snapshot()` reads it back as State JSON; `diff` compares two states.
"""

from stageclaw.world.diff import diff
from stageclaw.world.episode import Endpoints, Episode
from stageclaw.world.model import World, load_world
from stageclaw.world.pool import ServicePool
from stageclaw.world.state import dumps, normalize

__all__ = ["Endpoints", "Episode", "ServicePool", "World", "diff", "dumps", "load_world", "normalize"]
