"""One iteration at the root: which move is best, and what each root move is worth.

The root is searched differently from the nodes below it because its answer has more parts:
the best move, the value, and each root move's value or bound. Three drivers:

* :meth:`RootSearch.pvs` — principal variation search: the first move (the previous
  iteration's best) with a full window, every other move with a null window asking "better
  than the best so far?", and a full re-search only for those that are.
* :meth:`RootSearch.mtdf` — MTD(f) (Plaat et al., 1996): only null-window searches of the
  whole root, each asking "is the value at least β?", moving β to the bound each answer
  returns until the lower and upper bounds meet. It starts from a guess (the previous
  iteration's value) and relies on the table to make the repeated searches cheap.
* :meth:`RootSearch.exact_values` — every root move's exact value, each move searched on its own
  (``analyze``, and ``seed`` tie-breaking, need them).
* :meth:`RootSearch.weak_signs` — only the sign of each move's value (win, draw or loss), with a
  window around 0, until a move is found that keeps the best result.

While a driver runs, :attr:`RootSearch.better` holds a move proven better than the first
(the previous iteration's best), so that a search stopped half-way can still use it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from math import inf, nextafter
from typing import Generic, TypeVar

from ..game import Game, checked_player
from ..result import Bound, MoveValue
from ..trace import Tracer
from ..values import Value
from .search import Negamax

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

MTDF_STEPS = 24
"""MTD(f) gives up after this many null-window searches (values with many distinct levels,
such as fine-grained floats, can make it creep) and finishes with one full-window search."""


class RootSearch(Generic[S, M]):
    """The root moves of one search and the drivers that value them, one iteration (one
    depth) at a time: :meth:`play_children` once, then for each iteration :meth:`start` and
    a driver. (The engine's record of a search is a RootSearch: one object per search.)"""

    # Set by start(), at the beginning of every iteration:
    depth: int
    values: dict[M, MoveValue[M]]
    """Each root move's value or bound once a driver has run."""
    best_move: M | None
    value: Value
    better: tuple[M, Value, Bound] | None
    """A move proven better than the first one (with its value or lower bound), if any."""

    def __init__(self, root: S, player: int, negamax: Negamax, tracer: Tracer[S, M]) -> None:
        self.root = root
        self.player = player
        self.negamax = negamax
        self.trace = tracer
        self.traced = tracer.enabled
        """False for an untraced search: the drivers then skip the tracer's calls."""
        self.children: dict[M, tuple[S, int]] = {}
        """Each root move's position and the player to move there."""
        self.order: Sequence[M] = ()
        """The root moves in the order tried (the previous best first)."""

    def play_children(self, game: Game[S, M], legal: Sequence[M]) -> None:
        """Play every root move once (each iteration searches the same children)."""
        children, root = self.children, self.root
        for move in legal:
            child = game.play(root, move)
            children[move] = (child, checked_player(game, child))
        self.order = legal

    def start(self, depth: int) -> None:
        """Begin an iteration to ``depth`` that tries the root moves in :attr:`order`."""
        self.depth = depth
        self.values = {}
        self.best_move = None
        self.value = -inf
        self.better = None

    def search(self, move: M, low: Value, high: Value) -> Value:
        """The value of ``move`` for the root player, searched with the window (low, high)."""
        child, mover = self.children[move]
        if mover == self.player:
            return self.negamax(child, mover, 1, self.depth - 1, low, high)
        return -self.negamax(child, mover, 1, self.depth - 1, -high, -low)

    # -- drivers -----------------------------------------------------------------------------

    def pvs(self, null_window: bool = True) -> None:
        """Principal variation search over the root moves (plain alpha-beta, each move with
        the window ``(best so far, +inf)``, if ``null_window`` is off)."""
        trace, traced = self.trace, self.traced
        best: Value = -inf
        null_window = null_window and self.depth > 1  # leaves come back exact anyway
        for index, move in enumerate(self.order):
            if traced:
                trace.try_move(self.root, 0, "MAX", move)
            if index == 0 or not null_window:
                value = self.search(move, best, inf)
            else:
                value = self.search(move, best, nextafter(best, inf))
                if value > best:
                    prior = self.better
                    self.better = (move, value, "lower")  # better, exact value not known yet
                    value = self.search(move, best, inf)
                    if value <= best:  # the full search did not confirm it (search instability)
                        self.better = prior
            bound: Bound = "exact" if value > best or index == 0 else "upper"
            self.values[move] = MoveValue(move, value, bound)
            if value > best:
                best = value
                self.best_move = move
                if index > 0:
                    self.better = (move, value, "exact")
            if traced:
                trace.scored(self.root, 0, "MAX", move, value, best, inf)
        self.value = best

    def mtdf(self, guess: Value) -> None:
        """MTD(f) from ``guess``: null-window tests of the root until the value is pinned."""
        lower, upper = -inf, inf
        ceiling = dict.fromkeys(self.order, inf)  # each move's best upper bound so far
        value = guess
        best_move: M | None = None
        steps = 0
        while lower < upper and steps < MTDF_STEPS:
            beta = value if value > lower else nextafter(lower, inf)
            steps += 1
            value, cut_move = self._test(beta, ceiling)
            if value < beta or cut_move is None:
                upper = value
            else:
                lower = value
                best_move = cut_move
                if cut_move != self.order[0]:
                    self.better = (cut_move, value, "lower")
        if lower != upper or best_move is None:
            # Too many steps, or an inconsistent answer (the table mixed depths): settle it
            # with one full-window search.
            self.values.clear()
            self.pvs()
            return
        self.value = lower
        self.best_move = best_move
        for move in self.order:
            if move == best_move:
                self.values[move] = MoveValue(move, lower, "exact")
            else:
                self.values[move] = MoveValue(move, min(ceiling[move], lower), "upper")
        for move in self.order:
            self.trace.scored(self.root, 0, "MAX", move, self.values[move].value, lower, inf)

    def _test(self, beta: Value, ceiling: dict[M, Value]) -> tuple[Value, M | None]:
        """Is the root worth at least ``beta``? Returns the fail-soft bound and the move that
        reached ``beta`` (``None`` if none did); records the moves' upper bounds."""
        below = nextafter(beta, -inf)
        best: Value = -inf
        for move in self.order:
            self.trace.try_move(self.root, 0, "MAX", move)
            value = self.search(move, below, beta)
            best = max(best, value)
            if value >= beta:
                return value, move
            ceiling[move] = min(ceiling[move], value)
        return best, None

    def weak_signs(self) -> None:
        """Signs only: each move is valued 1, 0 or -1 (a win, a draw or a loss for the root
        player, or a positive, zero or negative estimate), searched with the narrowest window
        around 0 that tells them apart, until a move wins. A move refuted by that window is
        an upper bound (0 when it cannot beat a draw found before it); moves after the
        first win are not searched (at most a win: 1, upper)."""
        tiny = nextafter(0.0, inf)  # (-tiny, tiny) holds exactly one value: 0
        low: Value = -tiny
        best = -2
        for move in self.order:
            if best == 1:
                self.values[move] = MoveValue(move, 1, "upper")
                continue
            self.trace.try_move(self.root, 0, "MAX", move)
            value = self.search(move, low, tiny)
            sign = 1 if value >= tiny else -1 if value <= -tiny else 0
            if sign > best:
                best = sign
                self.best_move = move
                if move != self.order[0]:
                    self.better = (move, sign, "exact")
                if sign == 0:
                    low = 0.0  # from now on, only a win is worth knowing
                self.values[move] = MoveValue(move, sign, "exact")
            elif sign < 0 or low < 0:
                self.values[move] = MoveValue(move, sign, "exact")
            else:  # searched with (0, tiny): at most a draw
                self.values[move] = MoveValue(move, 0, "upper")
            self.trace.scored(self.root, 0, "MAX", move, sign, best, inf)
        self.value = best

    def exact_values(self) -> None:
        """Every root move's exact value (each with a full window)."""
        best: Value = -inf
        for move in self.order:
            self.trace.try_move(self.root, 0, "MAX", move)
            value = self.search(move, -inf, inf)
            self.values[move] = MoveValue(move, value, "exact")
            if value > best:
                best = value
                self.best_move = move
                if move != self.order[0]:
                    self.better = (move, value, "exact")
            self.trace.scored(self.root, 0, "MAX", move, value, best, inf)
        self.value = best
