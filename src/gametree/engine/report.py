"""What the engine reports after each iteration of iterative deepening."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from ..result import Bound, MoveValue
from ..values import Outcome, Value

M = TypeVar("M")


@dataclass(slots=True)
class Iteration(Generic[M]):
    """One report of :meth:`gametree.engine.Engine.iterate`: the result of one depth.

    Values are seen from the player to move at the root. Counts and times are for the whole
    search so far (all iterations), so a front-end can print them as a progress line.
    """

    depth: int
    """The depth of this iteration in plies (for a search straight to the end of the game,
    without iterative deepening, the deepest ply it reached)."""

    value: Value
    """The root's value at this depth (a lower bound when :attr:`bound` is ``lower``)."""

    best_move: M | None
    """The best move at this depth (``None`` if the root is finished or has no moves)."""

    pv: tuple[M, ...]
    """The principal variation, starting with :attr:`best_move`."""

    moves: tuple[MoveValue[M], ...]
    """Every root move with its value or bound at this depth, in the game's move order."""

    nodes: int
    """Positions visited so far."""

    seconds: float
    """Time since the search started."""

    table_entries: int
    """Positions in the transposition table (0 without a table)."""

    table_hits: int
    """Positions valued straight from the table so far."""

    bound: Bound = "exact"
    """``exact``; ``lower`` for the report of an unfinished iteration that proved a better move
    than the previous one before its budget ran out (its value is then a lower bound)."""

    finished: bool = True
    """False only for that last report of an unfinished iteration."""

    complete: bool = False
    """True if every line reached the end of the game: deeper iterations cannot change it."""

    outcome: Outcome | None = None
    """The proven result for the player to move, if this iteration proves one."""

    plies: int | None = None
    """The distance of a proven win or loss in plies (distance scoring only)."""

    @property
    def nodes_per_second(self) -> float:
        """The search speed so far."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def proven(self) -> bool:
        """True if this iteration proves the game's result from the root."""
        return self.outcome is not None
