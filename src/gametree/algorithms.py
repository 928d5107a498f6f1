"""Every search algorithm by name, behind one call: what front-ends use to run a search."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from .engine import engine_search
from .game import Game
from .reference import alphabeta, minimax, negamax
from .result import SearchResult
from .trace import Tracer

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


ENGINE = "engine"
"""The name of the engine (:mod:`gametree.engine`) among the algorithms."""


@dataclass(frozen=True)
class Algorithm:
    """A named search and the options it understands beyond depth, distance scoring and seed."""

    name: str
    summary: str
    run: Callable[..., SearchResult[Any]]
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
                  "iterative deepening and time control (docs/engine.md)", engine_search,
                  frozenset({"exact_root", "time", "nodes", "table", "iterative", "window",
                             "pvs", "killers", "history"})),
    )
}
"""The algorithms ``--algorithm`` can name."""

DEFAULT_ALGORITHM = ENGINE
"""What every front-end searches with unless told otherwise: the engine."""


def search(
    game: Game[S, M],
    state: S | None = None,
    *,
    algorithm: str = DEFAULT_ALGORITHM,
    depth: int | None = None,
    by_distance: bool = True,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
    **options: Any,
) -> SearchResult[M]:
    """Run the algorithm called ``algorithm`` on ``state`` (default: the initial state).

    The default is the engine (:mod:`gametree.engine`). ``options`` are the algorithm's own
    (``fail_soft``, ``exact_root``; the engine's ``time``, ``nodes``, ``table``, ...); an option
    the algorithm does not have raises :class:`ValueError` rather than being ignored.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; algorithms: {', '.join(ALGORITHMS)}")
    chosen = ALGORITHMS[algorithm]
    unknown = sorted(set(options) - chosen.options)
    if unknown:
        raise ValueError(f"algorithm {algorithm} has no option {', '.join(unknown)}")
    return chosen.run(game, state, depth=depth, by_distance=by_distance, seed=seed,
                      tracer=tracer, **options)
