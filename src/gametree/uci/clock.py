"""Time management: how long to think on a move, from what ``go`` says.

The engine's search takes one time budget (:class:`gametree.limits.Limits`): it starts no new
iteration once :data:`~gametree.limits.SOFT_TIME` of it is spent and stops a running one at
its end. This module decides that budget:

* ``go movetime T``: ``T`` less the overhead;
* a clock (``wtime``/``btime``, maybe ``winc``/``binc`` and ``movestogo``): a share of the time
  left — the time left divided by the moves still to play before the next control
  (``movestogo``, else :data:`MOVES_LEFT`), plus :data:`INCREMENT_SHARE` of the increment —
  and never more than :data:`MOST_OF_WHAT_IS_LEFT` of the time left, so that a move can never
  spend the whole clock;
* the **overhead** (the ``Move Overhead`` option, in milliseconds) is taken off the clock
  first: it pays for what the clock counts besides the search (reading the command, the last
  stretch of nodes before the search looks at the clock again, writing ``bestmove``, the pipe
  to the GUI and the GUI's own delay).

The first iteration of a search always completes, so a move costs at least that one
iteration (a few milliseconds) even when the budget is smaller.
"""

from __future__ import annotations

from .commands import Go

MOVES_LEFT = 30
"""The moves assumed still to play when the clock has no ``movestogo`` (sudden death): each
move gets about a thirtieth of what is left, which shrinks as the game goes on."""

INCREMENT_SHARE = 0.75
"""The part of the increment a move spends on top of its share of the clock (the rest
builds a reserve)."""

MOST_OF_WHAT_IS_LEFT = 0.5
"""The largest part of the time left (after the overhead) one move may take, even with
``movestogo 1``."""

SHORTEST = 0.005
"""The least budget given, in seconds (a clock nearly run out still gets an answer: the
first iteration)."""

DEFAULT_OVERHEAD_MS = 100
"""The default ``Move Overhead``: the engine checks the clock every thousand or so nodes,
which in a Python-tier chess search can take tens of milliseconds, and the process and pipe
add a few more."""


def think_time(go: Go, white_to_move: bool, overhead_ms: int = DEFAULT_OVERHEAD_MS
               ) -> float | None:
    """The seconds to think on this move (``None``: no time limit — ``go depth``,
    ``go nodes``, ``go infinite``, or no clock at all)."""
    if go.infinite or go.ponder:
        return None
    if go.movetime is not None:
        return max(SHORTEST, (go.movetime - overhead_ms) / 1000)
    left_ms = go.wtime if white_to_move else go.btime
    if left_ms is None:
        return None
    increment_ms = (go.winc if white_to_move else go.binc) or 0
    usable = left_ms - overhead_ms
    if usable <= 0:
        return SHORTEST
    moves = go.movestogo if go.movestogo is not None else MOVES_LEFT
    share = usable / moves + INCREMENT_SHARE * increment_ms
    return max(SHORTEST, min(share, MOST_OF_WHAT_IS_LEFT * usable) / 1000)


__all__ = ["DEFAULT_OVERHEAD_MS", "INCREMENT_SHARE", "MOST_OF_WHAT_IS_LEFT", "MOVES_LEFT",
           "SHORTEST", "think_time"]
