"""The search algorithms by name: the engine and the reference algorithms of the seeds.

Front-ends name an algorithm in :class:`gametree.SearchOptions` (``--algorithm`` on the
command line); the search service (:mod:`gametree.service`) runs it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .result import SearchResult

ENGINE = "engine"
"""The name of the engine (:mod:`gametree.engine`) among the algorithms."""


@dataclass(frozen=True)
class Algorithm:
    """A named search."""

    name: str
    summary: str
    reference: bool
    """True for a reference algorithm (:mod:`gametree.reference`, the function of its name);
    False for the engine, which the search service runs on whichever tier suits the game."""

    @property
    def run(self) -> Callable[..., SearchResult[Any]] | None:
        """The reference algorithm's function; ``None`` for the engine. (Imported when asked
        for: a compiled search needs none of them, and they are a tenth of its imports.)"""
        if not self.reference:
            return None
        function: Callable[..., SearchResult[Any]] = getattr(
            importlib.import_module(".reference", __package__), self.name)
        return function

    @property
    def options(self) -> frozenset[str]:
        """The search options it takes beyond those every algorithm takes: read from the
        options' declarations (:class:`gametree.options.SearchOption`), which name the
        algorithms that take each option."""
        return _options_of(self.name)


@functools.cache
def _options_of(name: str) -> frozenset[str]:
    """The options of :class:`gametree.SearchOptions` that name the algorithm ``name`` (its
    fields are fixed when the class is made, so the answer is kept)."""
    from .options import declared_options  # noqa: PLC0415 - options names the algorithms

    return frozenset(item.name for item in declared_options()
                     if item.algorithms is not None and name in item.algorithms)


ALGORITHMS: dict[str, Algorithm] = {
    algorithm.name: algorithm
    for algorithm in (
        Algorithm("minimax", "plain minimax, MAX/MIN form: every move searched", True),
        Algorithm("alphabeta", "alpha-beta pruning, MAX/MIN form (seed 004)", True),
        Algorithm("negamax", "negamax with fail-soft alpha-beta, one function for both sides",
                  True),
        Algorithm("expectiminimax", "expectiminimax, MAX/MIN/CHANCE form: chance nodes "
                  "averaged over their outcomes (games with dice; AIMA 5.5)", True),
        Algorithm(ENGINE, "the engine: alpha-beta with transposition table, move ordering, "
                  "iterative deepening and time control, compiled when the game has a kernel "
                  "(docs/engine.md)", False),
    )
}
"""The algorithms ``--algorithm`` can name."""

DEFAULT_ALGORITHM = ENGINE
"""What every front-end searches with unless told otherwise: the engine."""
