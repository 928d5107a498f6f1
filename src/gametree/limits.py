"""The budgets of a search, and the one deepening schedule and stop rule of every search.

:class:`Limits` says how far a search may go (depth, nodes, time), checked once. The rules
below decide, after each completed iteration of iterative deepening, whether another one
starts; both engine tiers (:mod:`gametree.engine`, :mod:`gametree.compiled.engine`) and the
reference algorithms' deepening (:mod:`gametree.reference.deepening`) follow them, so a search
stops for the same reason, at the same depth, whichever tier runs it:

1. every line reached the end of the game (``end``: deeper iterations see the same tree);
2. the answer is proven (``proven``: :func:`settled`);
3. the depth asked for was reached (``depth``);
4. with a time budget, the next iteration would not finish in time (``time``): for the
   engines, :data:`SOFT_TIME` of it is spent (they still stop a running one at the deadline);
   the reference algorithms, which cannot stop half-way, predict the next iteration's time.

A node or time budget can also stop an iteration half-way; the answer is then the deepest
completed iteration's, never a shallower one. So can a :class:`StopSignal` the caller sets
from another thread (a UCI engine's ``stop``, or its hard limit on a move's time): the Python
tier's engine tests it where it tests its budgets, about every two milliseconds of search —
and, unlike the budgets, already in the first iteration.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .result import MoveValue
from .values import PROVEN, Value, plies_to_result

if TYPE_CHECKING:
    from .result import StopReason

MAX_NODES = 10**18
"""The largest node budget (more than any search visits; the compiled engine counts nodes in
64-bit integers)."""

SOFT_TIME = 0.6
"""With a time budget, no new iteration starts once this fraction of it is spent: the next
iteration would usually take longer than what is left (the running one is still stopped at
the deadline)."""


def check_depth(depth: int | None) -> None:
    """Reject a depth limit that is not ``None`` or a non-negative integer."""
    if depth is None:
        return
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer or None, got {depth!r}")


@dataclass(frozen=True)
class Limits:
    """How far a search may go. Any combination may be given; ``None`` means no limit.

    The first iteration of iterative deepening (depth 1) always completes, so a search always
    has a move to return; the node and time budgets apply from then on.
    """

    depth: int | None = None
    """Plies to look ahead; ``None`` searches to the end of the game (or until proven)."""

    nodes: int | None = None
    """The most positions to visit in the whole search."""

    time: float | None = None
    """Seconds of wall-clock time for the whole search."""

    def __post_init__(self) -> None:
        nodes, seconds = self.nodes, self.time
        check_depth(self.depth)
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int)
                                  or not 1 <= nodes <= MAX_NODES):
            raise ValueError(f"nodes must be a whole number from 1 to {MAX_NODES:,} (or None), "
                             f"got {nodes!r}")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds) or seconds <= 0
        ):
            raise ValueError(f"time must be a positive number of seconds or None, "
                             f"got {seconds!r}")

    @property
    def budgeted(self) -> bool:
        """True if a node or time budget may stop the search half-way."""
        return self.nodes is not None or self.time is not None


class StopSignal(Protocol):
    """A flag that asks a running search to stop (a :class:`threading.Event` is one): set
    from another thread, it ends the search as a budget does, with the deepest completed
    iteration's answer and the stop reason ``"stop"`` — but at once, even in the first
    iteration, which the budgets always let finish: a search stopped that early has no
    answer (no report), and a caller that must move picks a move itself (the game's first in
    its move order, say)."""

    def is_set(self) -> bool:
        """True once the search should stop."""


NO_LIMITS = Limits()
"""No depth, node or time limit: a search to the end of the game."""


def limits_of(depth: int | None, nodes: int | None, time: float | None) -> Limits:
    """The limits of a search (checked); :data:`NO_LIMITS` itself when there are none (both
    tiers test for it with ``is``, and building none costs nothing in a small search)."""
    if depth is None and nodes is None and time is None:
        return NO_LIMITS
    return Limits(depth, nodes, time)


# -- the stop rule -------------------------------------------------------------------------


def proven_within(value: Value, depth: int) -> bool:
    """True if ``value`` is a win or loss proven within ``depth`` plies.

    Only then is it final: the search saw every line up to that distance, so no quicker win
    (or slower loss) can hide beyond its horizon. A longer proven distance can come from a
    complete table entry and may still improve in a deeper iteration.
    """
    plies = plies_to_result(value)
    return plies is not None and plies <= depth


def settled(value: Value, moves: Sequence[MoveValue[Any]], depth: int, *, every_move: bool,
            by_distance: bool) -> bool:
    """True if no deeper iteration can change what a search to ``depth`` reports: the root's
    ``value`` is proven within the depth (with ``every_move``, as ``analyze`` asks, every root
    move's value is). Under plain scoring (``by_distance`` false) a win or loss has no distance
    to bound, so only a complete search settles it."""
    if not by_distance:
        return False
    if every_move:
        return all(entry.bound == "exact" and proven_within(entry.value, depth)
                   for entry in moves)
    return proven_within(value, depth)


def soft_deadline_passed(started: float, deadline: float | None, now: float) -> bool:
    """True if a search started at ``started`` with a time budget ending at ``deadline``
    should start no new iteration at ``now`` (:data:`SOFT_TIME` of its budget spent)."""
    return deadline is not None and now >= started + SOFT_TIME * (deadline - started)


def stop_after(depth: int, target: int, complete: bool, proven: bool,
               out_of_time: bool) -> StopReason | None:
    """Why deepening stops after a completed iteration to ``depth`` (``None``: it goes on),
    searching up to ``target`` plies: the rule of the module's docstring, in its order.
    ``out_of_time``: the time budget leaves no room for the next iteration (the engines:
    :func:`soft_deadline_passed`; the reference algorithms, which cannot stop half-way: the
    next iteration's predicted time would overrun the budget). (Positional: every search
    calls it, and keywords cost more than the rule.)"""
    if complete:
        return "end"
    if proven:
        return "proven"
    if depth >= target:
        return "depth"
    if out_of_time:
        return "time"
    return None


def proven_moves(moves: Sequence[MoveValue[Any]], best_move: Any,
                 value: Value) -> tuple[MoveValue[Any], ...]:
    """The root moves of a search that stopped early because its best value is proven, before
    the depth asked for: a move whose value is no proof says nothing about deeper searches;
    what holds at any depth is that it does not beat the proven best (an upper bound)."""
    return tuple(
        entry if abs(entry.value) >= PROVEN or entry.move == best_move
        else MoveValue(entry.move, value, "upper")
        for entry in moves
    )


__all__ = ["MAX_NODES", "NO_LIMITS", "SOFT_TIME", "Limits", "StopSignal", "limits_of",
           "proven_moves", "proven_within", "settled", "soft_deadline_passed", "stop_after"]
