"""Negamax: minimax written as one function, the form the engine builds on.

Because the game is zero-sum, MIN's best is MAX's worst: the value of a node for the player to
move is the largest of its children's values negated (each child is valued for *its* player
to move). One function then serves both sides, and alpha-beta's window is flipped and negated
on the way down: ``(alpha, beta)`` becomes ``(-beta, -alpha)``. If a move leaves the same player
to move (some games give extra turns), neither the value nor the window is negated.

With ``pruning=False`` this is plain minimax in negamax form.
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


class _Negamax(ReferenceSearch[S, M]):
    algorithm = "negamax"
    windowed = True

    def __init__(self, game: Game[S, M], root: S, *, depth: int | None, by_distance: bool,
                 tracer: Tracer[S, M] | None, pruning: bool) -> None:
        super().__init__(game, root, depth=depth, by_distance=by_distance, tracer=tracer)
        self.pruning = pruning

    def negamax(self, state: S, ply: int, depth: int | None, alpha: float,
                beta: float) -> Line:
        """The value of ``state`` for the player to move there, within (alpha, beta)."""
        player = self.game.to_move(state)
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, player), ()
        role = self.role(state)
        self.trace.enter(state, ply, role, alpha, beta)
        best, best_line = -INF, NO_LINE
        for index, move in enumerate(moves):
            self.trace.try_move(state, ply, role, move)
            value, line = self.child_value(move, state, player, ply, depth, alpha, beta)
            if value > best:
                best, best_line = value, (move, *line)
            if value > alpha:
                alpha = value
                self.trace.alpha_raised(state, ply, role, alpha, beta)
            self.trace.scored(state, ply, role, move, value, alpha, beta)
            if self.pruning and alpha >= beta:
                self.prune(state, ply, role, moves[index + 1:], alpha, beta)
                break
        self.trace.done(state, ply, role, best, first(best_line))
        return best, best_line

    def child_value(self, move: M, state: S, player: int, ply: int, depth: int | None,
                    alpha: float, beta: float) -> Line:
        """The value, for ``player``, of playing ``move`` in ``state``."""
        child = self.game.play(state, move)
        if self.game.to_move(child) == player:
            return self.negamax(child, ply + 1, deeper(depth), alpha, beta)
        value, line = self.negamax(child, ply + 1, deeper(depth), -beta, -alpha)
        return -value, line


def negamax(
    game: Game[S, M],
    state: S | None = None,
    *,
    depth: int | None = None,
    by_distance: bool = True,
    pruning: bool = True,
    exact_root: bool = False,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
) -> SearchResult[M]:
    """Value ``state`` by negamax with (fail-soft) alpha-beta pruning and choose a move.

    Arguments as for :func:`gametree.alphabeta`; ``pruning=False`` turns alpha-beta off.
    Values in the trace are seen from the player to move at each node, as negamax sees them;
    the result's values are seen from the player to move at the root.
    """
    root = game.initial_state() if state is None else state
    search = _Negamax(game, root, depth=depth, by_distance=by_distance, tracer=tracer,
                      pruning=pruning)
    full_window = exact_root or seed is not None or not pruning
    player = search.root_player

    def value_of_move(move: M, best_so_far: float) -> tuple[Line, Bound]:
        alpha = -INF if full_window else best_so_far
        line = search.child_value(move, root, player, 0, depth, alpha, INF)
        return line, "exact" if line[0] > alpha else "upper"

    return search.search_root(value_of_move, seed=seed)
