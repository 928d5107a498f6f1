"""Move ordering: which move the engine tries first, second, ... at a position.

Alpha-beta prunes most when the best move comes first (seed 004). The engine orders moves in
stages, cheapest first:

1. the **table move**, the best move a previous search of this position found — tried before
   anything else is computed, because it very often causes the cut-off on its own;
2. the game's optional **hint** (:meth:`gametree.Game.order_moves`, called only if the game
   overrides it), then, stably on top of it,
3. the **history heuristic**: moves that caused cut-offs anywhere in the tree, weighted by
   ``depth²`` (a cut-off high in the tree saves more), kept per player;
4. **killer moves**: the last two moves that caused a cut-off at the same ply, tried right
   after the table move (a refutation often works again in a sibling position).

The engine's counters say how often the first move tried caused the cut-off (the
``first_move_cutoff_rate`` statistic): with good ordering it is above 90%.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from ..game import Game

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


def overrides_order_moves(game: Game[Any, Any]) -> bool:
    """True if ``game`` has its own :meth:`~gametree.Game.order_moves` (the hint is used)."""
    return getattr(type(game), "order_moves", Game.order_moves) is not Game.order_moves


class MoveOrder(Generic[S, M]):
    """The ordering state of one engine: killer moves per ply and history scores per player.

    It lives as long as the engine, so a game played move after move keeps what it learnt;
    :meth:`age` halves the history at each new search so that old cut-offs fade.
    """

    def __init__(self, game: Game[S, M], *, killers: bool = True, history: bool = True) -> None:
        self.hint = game.order_moves if overrides_order_moves(game) else None
        """The game's ordering hint, or ``None`` if the game does not give one."""
        self.use_killers = killers
        self.use_history = history
        self.killers: list[list[Any]] = []
        """``killers[ply]``: the last two moves that caused a cut-off at ``ply``, newest first."""
        self.history: tuple[defaultdict[Any, int], defaultdict[Any, int]] = (
            defaultdict(int), defaultdict(int))
        """``history[player][move]``: the sum of ``depth²`` over the cut-offs ``move`` caused."""

    def age(self) -> None:
        """Halve every history score (called when a new search starts)."""
        for scores in self.history:
            for move in scores:
                scores[move] >>= 1

    def clear(self) -> None:
        """Forget killers and history."""
        self.killers.clear()
        self.history[0].clear()
        self.history[1].clear()

    def order(self, state: S, legal: Sequence[M], tt_move: M | None, ply: int,
              player: int) -> Sequence[M]:
        """``legal`` in the order to search them, leaving out ``tt_move`` (already searched)."""
        if self.hint is not None:
            legal = self.hint(state, legal)
        if self.use_history and len(legal) > 1:
            legal = sorted(legal, key=self.history[player].__getitem__, reverse=True)
        if self.use_killers and ply < len(self.killers):
            first, second = self.killers[ply]
            front = []
            if first is not None and first != tt_move and first in legal:
                front.append(first)
            if second is not None and second != tt_move and second in legal:
                front.append(second)
            if front:
                return front + [move for move in legal if move != tt_move and move not in front]
        if tt_move is not None:
            return [move for move in legal if move != tt_move]
        return legal

    def cutoff(self, move: M, tt_move: M | None, ply: int, player: int, depth: int) -> None:
        """Remember that ``move`` caused a cut-off at ``ply`` with ``depth`` plies left."""
        if self.use_killers and move != tt_move:
            killers = self.killers
            while len(killers) <= ply:
                killers.append([None, None])
            slot = killers[ply]
            if slot[0] != move:
                slot[1] = slot[0]
                slot[0] = move
        if self.use_history:
            self.history[player][move] += depth * depth
