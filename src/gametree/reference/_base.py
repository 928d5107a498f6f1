"""What the reference algorithms share: leaves, statistics, the root loop and its result.

The algorithms themselves (``minimax``, ``alphabeta``, ``negamax``) stay short enough to read
beside the seeds' pseudo-code; the bookkeeping they all need lives here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from ..game import CHANCE, Game, checked_player, refuse_chance
from ..limits import check_depth
from ..result import Bound, MoveValue, SearchResult, SearchStats
from ..trace import LeafKind, Role, Tracer, leaf_kind
from ..values import (
    Value,
    break_tie,
    checked_heuristic,
    classify,
    for_player,
    terminal_value,
)

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Line = tuple[Value, tuple[Any, ...]]
"""A value together with the line of moves that leads to it."""

INF = math.inf

NO_LINE: tuple[Any, ...] = ()
"""The empty line of moves (a leaf's)."""


def first(line: tuple[Any, ...]) -> Any:
    """The first move of a line, or ``None`` for the empty line."""
    return line[0] if line else None


def deeper(depth: int | None) -> int | None:
    """The depth left one ply further down (``None``: no limit)."""
    return None if depth is None else depth - 1


class ReferenceSearch(Generic[S, M]):
    """One search from one root: the game, the options, the counters and the tracer.

    ``sign`` says from whose side values are seen: the root player (MAX/MIN algorithms) or the
    player to move at each node (negamax, see :meth:`leaf_value`).
    """

    algorithm = "reference"
    windowed = False
    """True for algorithms with an alpha-beta window, whose root log lines show it."""
    chance = False
    """True for algorithms that search chance states (expectiminimax); the others refuse a
    game with chance."""

    def __init__(
        self,
        game: Game[S, M],
        root: S,
        *,
        depth: int | None,
        by_distance: bool,
        tracer: Tracer[S, M] | None,
    ) -> None:
        check_depth(depth)
        if not self.chance:
            refuse_chance(game, self.algorithm)
        self.game = game
        self.root = root
        player = checked_player(game, root)
        self.root_player = game.turn(root) if player == CHANCE else player
        self.depth = depth
        self.by_distance = by_distance
        self.stats = SearchStats()
        self.trace: Tracer[S, M] = tracer if tracer is not None else Tracer.off()
        self.cut = False
        """True once the depth limit stopped the search at a state that still had moves."""

    # -- nodes and leaves --------------------------------------------------------------------

    def role(self, state: S) -> Role:
        """``MAX`` if the root player moves in ``state``, ``CHANCE`` if chance does, else
        ``MIN``."""
        player = checked_player(self.game, state)
        if player == self.root_player:
            return "MAX"
        return "CHANCE" if player == CHANCE else "MIN"

    def expand(self, state: S, depth: int | None) -> Sequence[M] | None:
        """Count a visit to ``state`` and return its moves, or ``None`` if it is a leaf.

        A leaf is a finished game, a state at the depth limit, or a state with no moves that the
        game does not call finished (the leaves of an explicit tree carry heuristic values).
        """
        self.stats.nodes += 1
        if self.game.outcome(state) is not None:
            return None
        if depth == 0:
            if not self.cut and self.game.moves(state):  # one cut is enough to know
                self.cut = True
            return None
        moves = self.game.moves(state)
        return moves if moves else None

    def leaf_value(self, state: S, ply: int, player: int) -> Value:
        """The value of a leaf seen from ``player``: its result if finished, else its estimate."""
        self.stats.leaves += 1
        if ply > self.stats.depth_reached:  # noqa: PLR1730 -- stores only when deeper
            self.stats.depth_reached = ply
        utility = self.game.outcome(state)
        role = self.role(state)
        if utility is not None:
            value = terminal_value(for_player(utility, player), ply, by_distance=self.by_distance)
            kind: LeafKind = leaf_kind(utility, self.root_player)
        else:
            self.stats.evaluations += 1
            value = for_player(checked_heuristic(self.game.evaluate(state)), player)
            kind = "heuristic"
        self.trace.leaf(state, ply, role, value, kind)
        return value

    def prune(self, state: S, ply: int, role: Role, skipped: Sequence[M], alpha: Value,
              beta: Value) -> None:
        """Record an alpha-beta cut-off at ``state`` that leaves ``skipped`` unsearched."""
        if skipped:
            self.stats.cutoffs += 1
            self.trace.pruned(state, ply, role, skipped, alpha, beta)

    # -- the root ----------------------------------------------------------------------------

    def search_root(
        self,
        value_of_move: Callable[[M, Value], tuple[Line, Bound]],
        *,
        seed: int | None,
    ) -> SearchResult[M]:
        """Value every root move in order and pick the best one.

        ``value_of_move(move, best_so_far)`` searches one root move and returns its line (value
        seen from the root player) and whether that value is exact or only a bound. Ties go to
        the first move in move order, or to a random one of the tied moves when ``seed`` is
        given (callers then search every root move exactly).
        """
        started = time.perf_counter()
        root = self.root
        role: Role = "MAX"
        moves = self.expand(root, self.depth)
        self.trace.enter(root, 0, role)
        entries: list[MoveValue[M]] = []
        lines: dict[M, tuple[Any, ...]] = {}
        best_value = -INF
        best_move: M | None = None
        if moves is None:
            best_value = self.leaf_value(root, 0, self.root_player)
        else:
            for move in moves:
                self.trace.try_move(root, 0, role, move)
                (value, line), bound = value_of_move(move, best_value)
                entries.append(MoveValue(move, value, bound))
                lines[move] = (move, *line)
                if value > best_value:
                    best_value, best_move = value, move
                if self.windowed:
                    self.trace.scored(root, 0, role, move, value, best_value, INF)
                else:
                    self.trace.scored(root, 0, role, move, value)
            if seed is not None:
                tied = [entry.move for entry in entries if entry.value == best_value]
                best_move = break_tie(tied, seed)
        self.trace.done(root, 0, role, best_value, best_move)
        self.stats.seconds = time.perf_counter() - started
        if self.depth is not None:
            self.stats.depth_reached = self.depth
        outcome, plies = classify(
            best_value, by_distance=self.by_distance, exhaustive=self.stats.evaluations == 0
        )
        return SearchResult(
            best_move=best_move,
            value=best_value,
            moves=tuple(entries),
            pv=lines[best_move] if best_move is not None else (),
            stats=self.stats,
            algorithm=self.algorithm,
            depth=self.depth,
            by_distance=self.by_distance,
            outcome=outcome,
            plies=plies,
            exhaustive=self.stats.evaluations == 0,
            complete=not self.cut,
        )
