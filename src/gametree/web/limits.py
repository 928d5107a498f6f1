"""The limits a server puts on what one request may ask (``gametree serve`` sets them)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ..pool import DEFAULT_POOL_LIMIT


@dataclass(frozen=True)
class ServerLimits:
    """How much one request may cost, and how many searches the server runs and queues.

    Every limit is checked before a search starts, except :attr:`max_time`, which the search
    keeps itself (the engine answers with its deepest completed search) or, for searches that
    cannot stop half-way (the reference algorithms, a weak solve), the pool enforces by
    interrupting the search.
    """

    max_time: float = 5.0
    """Seconds one search may take. The engine gets it as its time budget (or the smaller
    budget the request asks for); other searches are stopped when it has passed."""

    max_depth: int = 64
    """The largest depth a request may ask for (plies)."""

    max_events: int = 5_000
    """The most events a trace may hold."""

    max_tree_nodes: int = 5_000
    """The most nodes an explicit tree, or a tree drawn for the explain page, may have."""

    max_request_bytes: int = 65_536
    """The largest request body (bytes)."""

    workers: int = 2
    """Worker processes: searches that run at the same time."""

    queue_size: int = 64
    """Searches that may wait for a worker; more are refused with 503 and Retry-After (a
    classroom: 50 clients each waiting for its answer fit)."""

    body_timeout: float = 10.0
    """Seconds a request's body has to arrive in full (408 and the connection closed
    beyond)."""

    grace: float = 1.0
    """Seconds past :attr:`max_time` before a search that does not stop by itself is
    interrupted."""

    engine_pool_bytes: int = DEFAULT_POOL_LIMIT
    """Bytes of compiled engines (their tables) each worker process keeps for its next
    searches (:func:`gametree.pool.set_pool_limit`; 0: none): beyond it, idle engines are
    dropped, least recently used first; the engine of the search running is never dropped."""

    def __post_init__(self) -> None:
        if not (isinstance(self.max_time, (int, float)) and math.isfinite(self.max_time)
                and self.max_time > 0):
            raise ValueError(f"max_time must be a positive number of seconds, "
                             f"got {self.max_time!r}")
        for name in ("max_depth", "max_events", "max_tree_nodes", "max_request_bytes",
                     "workers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        if isinstance(self.queue_size, bool) or not isinstance(self.queue_size, int) \
                or self.queue_size < 0:
            raise ValueError(f"queue_size must be a whole number >= 0, got {self.queue_size!r}")
        if isinstance(self.engine_pool_bytes, bool) or \
                not isinstance(self.engine_pool_bytes, int) or self.engine_pool_bytes < 0:
            raise ValueError(f"engine_pool_bytes must be a whole number >= 0, "
                             f"got {self.engine_pool_bytes!r}")
        for name in ("grace", "body_timeout"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, "
                                 f"got {value!r}")

    def as_dict(self) -> dict[str, Any]:
        """The limits as a JSON-ready dict (``GET /api/limits``)."""
        return asdict(self)
