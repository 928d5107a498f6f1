"""The budgets a search can be given: depth, nodes and time, checked once at the start."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..reference._base import check_depth

MAX_NODES = 10**18
"""The largest node budget (more than any search visits; the compiled engine counts nodes in
64-bit integers)."""


@dataclass(frozen=True)
class Limits:
    """How far a search may go. Any combination may be given; ``None`` means no limit.

    The first iteration of iterative deepening (depth 1) always completes, so a search always
    has a move to return; the node and time budgets apply from then on.
    """

    depth: int | None = None
    """Plies to look ahead; ``None`` searches to the end of the game (or until proven)."""

    nodes: int | None = None
    """The most positions to visit in the whole search."""

    time: float | None = None
    """Seconds of wall-clock time for the whole search."""

    def __post_init__(self) -> None:
        nodes, seconds = self.nodes, self.time
        check_depth(self.depth)
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                                  or not 1 <= nodes <= MAX_NODES):
            raise ValueError(f"nodes must be a whole number from 1 to {MAX_NODES:,} (or None), "
                             f"got {nodes!r}")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds) or seconds <= 0
        ):
            raise ValueError(f"time must be a positive number of seconds or None, "
                             f"got {seconds!r}")


NO_LIMITS = Limits()
"""No depth, node or time limit: a search to the end of the game."""


def limits_of(depth: int | None, nodes: int | None, time: float | None) -> Limits:
    """The limits of a search (checked); :data:`NO_LIMITS` itself when there are none (both
    tiers test for it with ``is``, and building none costs nothing in a small search)."""
    if depth is None and nodes is None and time is None:
        return NO_LIMITS
    return Limits(depth, nodes, time)
