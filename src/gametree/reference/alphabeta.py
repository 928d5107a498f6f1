"""Alpha-beta pruning in the MAX/MIN form of seed 004 ("design candidate #2").

Alpha is the value MAX is already sure of, beta the value MIN is already sure of; once
``alpha >= beta`` the remaining moves of a node cannot change the decision and are pruned.

Two conventions exist for what a pruned node returns, and both are offered:

* **fail-hard** (``fail_soft=False``), seed 004's pseudo-code: a node returns its alpha (MAX)
  or beta (MIN), so every value is clamped into the window it was searched with.
* **fail-soft** (the default): a node returns the best value it actually saw, which may lie
  outside the window. It is a tighter bound and is what seed 004's prose describes: node I is
  worth 14 and "the value that propagates up to E is 5, not 2". Fail-hard gives 10 for both.

Both return the same root value as minimax and prune the same branches; only the bounds on
refuted moves differ.
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


class _AlphaBeta(ReferenceSearch[S, M]):
    algorithm = "alphabeta"
    windowed = True

    def __init__(self, game: Game[S, M], root: S, *, depth: int | None, by_distance: bool,
                 tracer: Tracer[S, M] | None, fail_soft: bool) -> None:
        super().__init__(game, root, depth=depth, by_distance=by_distance, tracer=tracer)
        self.fail_soft = fail_soft

    def value(self, state: S, ply: int, depth: int | None, alpha: float, beta: float) -> Line:
        """The value of ``state`` for MAX, searched within the window (alpha, beta)."""
        if self.role(state) == "MAX":
            return self.max_value(state, ply, depth, alpha, beta)
        return self.min_value(state, ply, depth, alpha, beta)

    def max_value(self, state: S, ply: int, depth: int | None, alpha: float,
                  beta: float) -> Line:
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, self.root_player), ()
        self.trace.enter(state, ply, "MAX", alpha, beta)
        best, best_line = -INF, NO_LINE
        for index, move in enumerate(moves):
            self.trace.try_move(state, ply, "MAX", move)
            value, line = self.value(self.game.play(state, move), ply + 1, deeper(depth),
                                     alpha, beta)
            if value > best:
                best, best_line = value, (move, *line)
            if value > alpha:
                alpha = value
                self.trace.alpha_raised(state, ply, "MAX", alpha, beta)
            self.trace.scored(state, ply, "MAX", move, value, alpha, beta)
            if alpha >= beta:
                self.prune(state, ply, "MAX", moves[index + 1:], alpha, beta)
                break
        result = best if self.fail_soft else alpha
        self.trace.done(state, ply, "MAX", result, first(best_line))
        return result, best_line

    def min_value(self, state: S, ply: int, depth: int | None, alpha: float,
                  beta: float) -> Line:
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, self.root_player), ()
        self.trace.enter(state, ply, "MIN", alpha, beta)
        best, best_line = INF, NO_LINE
        for index, move in enumerate(moves):
            self.trace.try_move(state, ply, "MIN", move)
            value, line = self.value(self.game.play(state, move), ply + 1, deeper(depth),
                                     alpha, beta)
            if value < best:
                best, best_line = value, (move, *line)
            if value < beta:
                beta = value
                self.trace.beta_lowered(state, ply, "MIN", alpha, beta)
            self.trace.scored(state, ply, "MIN", move, value, alpha, beta)
            if alpha >= beta:
                self.prune(state, ply, "MIN", moves[index + 1:], alpha, beta)
                break
        result = best if self.fail_soft else beta
        self.trace.done(state, ply, "MIN", result, first(best_line))
        return result, best_line


def alphabeta(
    game: Game[S, M],
    state: S | None = None,
    *,
    depth: int | None = None,
    by_distance: bool = True,
    fail_soft: bool = True,
    exact_root: bool = False,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
) -> SearchResult[M]:
    """Value ``state`` by alpha-beta pruning and choose a move.

    Args:
        game, state, depth, by_distance, tracer: as for :func:`gametree.minimax`.
        fail_soft: return the best value seen at a pruned node (``True``) or the window bound
            (``False``, seed 004's pseudo-code); see the module documentation.
        exact_root: search every root move with a full window, so that each root move's value
            is exact instead of an upper bound for the moves that do not beat the best so far.
        seed: break ties between equally good root moves at random from this seed; implies
            ``exact_root`` (ties can only be seen between exact values).

    The root value and the chosen move's value are always exact.
    """
    root = game.initial_state() if state is None else state
    search = _AlphaBeta(game, root, depth=depth, by_distance=by_distance, tracer=tracer,
                        fail_soft=fail_soft)
    full_window = exact_root or seed is not None

    def value_of_move(move: M, best_so_far: float) -> tuple[Line, Bound]:
        alpha = -INF if full_window else best_so_far
        line = search.value(game.play(root, move), 1, deeper(depth), alpha, INF)
        return line, "exact" if line[0] > alpha else "upper"

    return search.search_root(value_of_move, seed=seed)
