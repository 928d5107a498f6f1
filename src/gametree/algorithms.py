"""The search algorithms by name: the engine and the reference algorithms of the seeds.

Front-ends name an algorithm in :class:`gametree.SearchOptions` (``--algorithm`` on the
command line); the search service (:mod:`gametree.service`) runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .reference import alphabeta, minimax, negamax
from .result import SearchResult

ENGINE = "engine"
"""The name of the engine (:mod:`gametree.engine`) among the algorithms."""


@dataclass(frozen=True)
class Algorithm:
    """A named search and the options it understands beyond depth, distance scoring and seed."""

    name: str
    summary: str
    run: Callable[..., SearchResult[Any]] | None
    """The reference algorithm's function; ``None`` for the engine, which the search service
    runs on whichever tier suits the game."""
    options: frozenset[str] = frozenset()


ALGORITHMS: dict[str, Algorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        Algorithm("minimax", "plain minimax, MAX/MIN form: every move searched", minimax),
        Algorithm("alphabeta", "alpha-beta pruning, MAX/MIN form (seed 004)", alphabeta,
                  frozenset({"fail_soft", "exact_root"})),
        Algorithm("negamax", "negamax with fail-soft alpha-beta, one function for both sides",
                  negamax, frozenset({"exact_root"})),
        Algorithm(ENGINE, "the engine: alpha-beta with transposition table, move ordering, "
                  "iterative deepening and time control, compiled when the game has a kernel "
                  "(docs/engine.md)", None,
                  frozenset({"exact_root", "time", "nodes", "weak", "tuning"})),
    )
}
"""The algorithms ``--algorithm`` can name."""

DEFAULT_ALGORITHM = ENGINE
"""What every front-end searches with unless told otherwise: the engine."""
