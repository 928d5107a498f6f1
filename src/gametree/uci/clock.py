"""Time management: how long to think on a move, from what ``go`` says.

The engine's search takes one time budget (:class:`gametree.limits.Limits`): it starts no new
iteration once :data:`~gametree.limits.SOFT_TIME` of it is spent and stops a running one at
its end. This module decides that budget:

* ``go movetime T``: ``T`` less the overhead;
* a clock (``wtime``/``btime``, maybe ``winc``/``binc`` and ``movestogo``): an even share of
  the time the moves to the next control have — the time left, plus the increments still to
  come, less an overhead for each of those moves — over those moves (``movestogo``, else
  :data:`MOVES_LEFT`); and never more than :data:`MOST_OF_WHAT_IS_LEFT` of the time left, so
  that no move can spend the whole clock;
* the **overhead** (the ``Move Overhead`` option, in milliseconds) is what a move costs
  besides its search: reading the command, the last stretch of nodes before the search looks
  at the clock again, writing ``bestmove``, the pipe to the GUI and the GUI's own delay. It is
  kept back for every move still to play, so that a long sudden-death game does not run its
  clock down by it, move after move.

The budget spares a search's first iteration (so that there is a move), and in chess that
iteration's quiescence search can take tens of milliseconds or more in a sharp position. So a
move also has a hard **limit**: :data:`LIMIT_FACTOR` times its budget, and never more than
:data:`MOST_OF_WHAT_IS_LEFT` of the time left; at that moment the search's stop signal is set,
which ends even a first iteration (the move is then the game's first in its move order). With
``movetime`` the limit is the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Go

MOVES_LEFT = 30
"""The moves assumed still to play when the clock has no ``movestogo`` (sudden death): each
move gets about a thirtieth of what is left, which shrinks as the game goes on."""

MOST_OF_WHAT_IS_LEFT = 0.5
"""The largest part of the time left (after the overhead) one move may take, even with
``movestogo 1``."""

LIMIT_FACTOR = 3.0
"""A move's hard limit, in budgets (the engine uses 0.6 to 1 budget in the usual case)."""

SHORTEST = 0.005
"""The least budget given, in seconds (a clock nearly run out still gets an answer)."""

DEFAULT_OVERHEAD_MS = 50
"""The default ``Move Overhead``: a Python process answering through a pipe, on a machine
that may be busy."""


@dataclass(frozen=True)
class MoveTime:
    """How long one move may think, in seconds."""

    budget: float
    """The search's time budget (:class:`gametree.limits.Limits`): no new iteration once most
    of it is spent, a running one after the first stopped at its end."""

    limit: float
    """When the stop signal is set, whatever the search is doing."""


def move_time(go: Go, white_to_move: bool, overhead_ms: int = DEFAULT_OVERHEAD_MS
              ) -> MoveTime | None:
    """The time this move may take (``None``: no time limit — ``go depth``, ``go nodes``,
    ``go infinite``, or no clock at all)."""
    if go.infinite or go.ponder:
        return None
    if go.movetime is not None:
        given = max(SHORTEST, (go.movetime - overhead_ms) / 1000)
        return MoveTime(given, given)
    left_ms = go.wtime if white_to_move else go.btime
    if left_ms is None:
        return None
    increment_ms = (go.winc if white_to_move else go.binc) or 0
    most = MOST_OF_WHAT_IS_LEFT * (left_ms - overhead_ms) / 1000
    if most <= SHORTEST:
        return MoveTime(SHORTEST, SHORTEST)
    moves = go.movestogo if go.movestogo is not None else MOVES_LEFT
    horizon = left_ms + increment_ms * (moves - 1) - overhead_ms * (moves + 1)
    budget = min(most, max(SHORTEST, horizon / moves / 1000))
    return MoveTime(budget, min(most, LIMIT_FACTOR * budget))


__all__ = ["DEFAULT_OVERHEAD_MS", "LIMIT_FACTOR", "MOST_OF_WHAT_IS_LEFT",
           "MOVES_LEFT", "SHORTEST", "MoveTime", "move_time"]
