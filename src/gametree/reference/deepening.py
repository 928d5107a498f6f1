"""Time control by iterative deepening for the reference searches (the engine has its own).

The reference algorithms cannot be stopped half-way, so a time budget is honoured the only
honest way they allow: search depth 1, 2, 3, ... and **never start an iteration that is not
expected to finish within the budget**. The cost of the next iteration is predicted from the
last one: its time multiplied by how much the node count grew between the last iterations
(the larger of the last two growth factors, because alpha-beta's cost grows unevenly between
odd and even depths). The prediction can be wrong, so a move may take longer than the budget;
the engine (:mod:`gametree.engine`) stops a running search and keeps the budget precisely.

Deepening stops by the rule the engines follow too (:func:`gametree.limits.stop_after`):
early, whatever the budget, once nothing deeper can change the answer — when the search was
*complete* (no position was cut off by the depth limit: :attr:`gametree.SearchResult.complete`)
or the root value is a proven win or loss (all lines up to that length were searched exactly:
without a table, a proof found at a depth lies within it) — then at the depth cap, then when
the next iteration is predicted to overrun the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Generic, TypeVar

from ..limits import stop_after
from ..result import SearchResult, StopReason
from ..values import MAX_PLY

M = TypeVar("M")


@dataclass(frozen=True)
class TimedSearch:
    """One completed search of the deepening: its depth, size and time (what the next one's
    time is predicted from)."""

    depth: int
    """Its depth limit in plies."""

    nodes: int
    """The nodes it visited."""

    seconds: float
    """Its wall-clock time, as measured by the deepening's clock."""


@dataclass(frozen=True)
class Step(Generic[M]):
    """What :func:`deepening` yields after each completed iteration."""

    result: SearchResult[M]
    """The iteration's result."""

    iterations: tuple[TimedSearch, ...]
    """Every completed iteration so far, shallowest first."""

    seconds: float
    """Time since the deepening started."""

    stopped: StopReason | None
    """Why no further iteration follows, on the last step (``end``, ``proven``, ``depth`` or
    ``time``: :func:`gametree.limits.stop_after`); ``None`` before it."""

    @property
    def depth(self) -> int:
        """The depth of this iteration."""
        return self.iterations[-1].depth

    @property
    def nodes(self) -> int:
        """Nodes visited by all iterations so far."""
        return sum(iteration.nodes for iteration in self.iterations)


@dataclass(frozen=True)
class Deepened(Generic[M]):
    """The outcome of iterative deepening: the deepest completed search and how it went."""

    result: SearchResult[M]
    """The result of the deepest completed iteration."""

    iterations: tuple[TimedSearch, ...]
    """Every completed iteration, shallowest first."""

    stopped: StopReason
    """Why no further iteration was started."""

    seconds: float
    """Total wall-clock time of all iterations."""

    @property
    def complete(self) -> bool:
        """True if the last search was not cut by the depth limit (it saw every line)."""
        return self.result.complete

    @property
    def depth(self) -> int:
        """The depth of the deepest completed iteration."""
        return self.iterations[-1].depth

    @property
    def nodes(self) -> int:
        """Nodes visited by all iterations together."""
        return sum(iteration.nodes for iteration in self.iterations)


def predicted_seconds(iterations: list[TimedSearch], first_growth: float) -> float:
    """How long the next iteration is expected to take, from the ones already done.

    ``first_growth`` stands in for the growth factor when only one iteration has run (the
    number of root moves is a fair guess: depth 2 looks at about that many times more nodes).
    """
    last = iterations[-1]
    recent = iterations[-3:]
    ratios = [later.nodes / earlier.nodes
              for earlier, later in pairwise(recent) if earlier.nodes > 0]
    growth = max(ratios) if ratios else first_growth
    return last.seconds * max(growth, 1.0)


def deepening(
    run: Callable[[int], SearchResult[M]],
    *,
    budget: float | None,
    max_depth: int | None = None,
    first_growth: float = 2.0,
    clock: Callable[[], float],
) -> Iterator[Step[M]]:
    """Search depth 1, 2, ... with ``run(depth)`` while the next one fits in ``budget``
    (seconds; ``None``: no budget), yielding a :class:`Step` after each.

    Depth 1 always runs (a move is needed, however small the budget). ``clock`` returns seconds
    (``time.perf_counter`` in real use; tests pass a fake one).
    """
    started = clock()
    iterations: list[TimedSearch] = []
    cap = MAX_PLY if max_depth is None else max_depth
    depth = 1
    while True:
        before = clock()
        result = run(depth)
        after = clock()
        iterations.append(TimedSearch(depth, result.stats.nodes, after - before))
        stopped = stop_after(
            depth, cap, result.complete, result.outcome in ("win", "loss"),
            budget is not None and (
                after - started + predicted_seconds(iterations, first_growth) > budget))
        yield Step(result, tuple(iterations), after - started, stopped)
        if stopped is not None:
            return
        depth += 1


def deepen(
    run: Callable[[int], SearchResult[M]],
    *,
    budget: float,
    max_depth: int | None = None,
    first_growth: float = 2.0,
    clock: Callable[[], float],
) -> Deepened[M]:
    """Run :func:`deepening` to its end: the deepest completed search and how it went."""
    for step in deepening(run, budget=budget, max_depth=max_depth, first_growth=first_growth,
                          clock=clock):
        if step.stopped is not None:
            return Deepened(step.result, step.iterations, step.stopped, step.seconds)
    raise AssertionError("deepening ends with a stop reason")  # pragma: no cover
