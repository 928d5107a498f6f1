"""Minimax in the MAX/MIN form of the seeds: every move searched, nothing pruned.

Compare with seed 002's ``minimaxDecision``/``maxValue``/``minValue``: the root tries every
move and keeps the one whose value is largest; a MAX node takes the largest value of its
children, a MIN node the smallest. With ``depth`` set, the search stops that many plies below
the root and asks the game's ``evaluate`` (the "static board evaluator" of seed 004).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

from ..game import Game
from ..result import Bound, SearchResult
from ..trace import Tracer
from ._base import INF, NO_LINE, Line, ReferenceSearch, deeper, first

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class _Minimax(ReferenceSearch[S, M]):
    algorithm = "minimax"

    def value(self, state: S, ply: int, depth: int | None) -> Line:
        """The value of ``state`` for MAX, and the line that leads to it."""
        if self.role(state) == "MAX":
            return self.max_value(state, ply, depth)
        return self.min_value(state, ply, depth)

    def max_value(self, state: S, ply: int, depth: int | None) -> Line:
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, self.root_player), ()
        self.trace.enter(state, ply, "MAX")
        best, best_line = -INF, NO_LINE
        for move in moves:
            self.trace.try_move(state, ply, "MAX", move)
            value, line = self.value(self.game.play(state, move), ply + 1, deeper(depth))
            if value > best:
                best, best_line = value, (move, *line)
            self.trace.scored(state, ply, "MAX", move, value)
        self.trace.done(state, ply, "MAX", best, first(best_line))
        return best, best_line

    def min_value(self, state: S, ply: int, depth: int | None) -> Line:
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, self.root_player), ()
        self.trace.enter(state, ply, "MIN")
        best, best_line = INF, NO_LINE
        for move in moves:
            self.trace.try_move(state, ply, "MIN", move)
            value, line = self.value(self.game.play(state, move), ply + 1, deeper(depth))
            if value < best:
                best, best_line = value, (move, *line)
            self.trace.scored(state, ply, "MIN", move, value)
        self.trace.done(state, ply, "MIN", best, first(best_line))
        return best, best_line


def minimax(
    game: Game[S, M],
    state: S | None = None,
    *,
    depth: int | None = None,
    by_distance: bool = True,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
) -> SearchResult[M]:
    """Value ``state`` (default: the initial state) by plain minimax and choose a move.

    Args:
        game: the rules.
        state: the root; the player to move there is MAX.
        depth: look this many plies ahead, then use ``game.evaluate``; ``None`` searches to the
            end of the game (seed 002's ``minimaxDecision``).
        by_distance: score wins and losses by their distance (see :mod:`gametree.values`);
            ``False`` reproduces the seeds' plain values.
        seed: break ties between equally good root moves at random from this seed, instead of
            taking the first in move order.
        tracer: receives every step of the search (see :mod:`gametree.trace`).

    Every root move's value is exact: minimax never prunes.
    """
    root = game.initial_state() if state is None else state
    search = _Minimax(game, root, depth=depth, by_distance=by_distance, tracer=tracer)

    def value_of_move(move: M, best_so_far: float) -> tuple[Line, Bound]:
        child = game.play(root, move)
        return search.value(child, 1, deeper(depth)), "exact"

    return search.search_root(value_of_move, seed=seed)
