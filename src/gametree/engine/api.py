"""One-call forms of the engine, in the shape of the reference algorithms.

:func:`engine_search` is what ``gametree.algorithms.search(..., algorithm="engine")`` and the
command line call: a fresh :class:`~gametree.engine.Engine` per call. A program that searches
again and again in the same game (a player, an arena) should keep one ``Engine`` instead, so
that its table and move-ordering statistics carry over from move to move.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from ..game import Game
from ..result import SearchResult
from ..trace import Tracer
from .engine import Engine
from .table import TranspositionTable

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


def engine_search(
    game: Game[S, M],
    state: S | None = None,
    *,
    depth: int | None = None,
    by_distance: bool = True,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
    exact_root: bool = False,
    time: float | None = None,
    nodes: int | None = None,
    table: TranspositionTable | int | bool | None = True,
    iterative: bool | None = None,
    window: str = "pvs",
    pvs: bool = True,
    killers: bool = True,
    history: bool = False,
) -> SearchResult[M]:
    """Search ``state`` (default: the initial state) with a new engine and return the result.

    ``depth``, ``by_distance``, ``seed``, ``tracer`` and ``exact_root`` mean what they mean for
    the reference algorithms; ``time`` (seconds) and ``nodes`` are budgets; the remaining
    arguments configure the :class:`~gametree.engine.Engine`.
    """
    engine = Engine(game, by_distance=by_distance, table=table, iterative=iterative,
                    window=window, pvs=pvs, killers=killers, history=history)
    return engine.search(state, depth=depth, time=time, nodes=nodes, exact_root=exact_root,
                         seed=seed, tracer=tracer)


def best_move(
    game: Game[S, M],
    state: S | None = None,
    *,
    time: float | None = 1.0,
    depth: int | None = None,
    nodes: int | None = None,
    seed: int | None = None,
) -> M | None:
    """The move a new engine chooses in ``state`` within the budget (default: one second).

    ``None`` if the game is over there. Without a budget (``time=None`` and no depth or
    nodes) the game is searched to the end.
    """
    return Engine(game).best_move(state, time=time, depth=depth, nodes=nodes, seed=seed)
