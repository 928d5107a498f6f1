"""Time control by iterative deepening for the reference searches (the engine has its own).

The reference algorithms cannot be stopped half-way, so a time budget is honoured the only
honest way they allow: search depth 1, 2, 3, ... and **never start an iteration that is not
expected to finish within the budget**. The cost of the next iteration is predicted from the
last one: its time multiplied by how much the node count grew between the last iterations
(the larger of the last two growth factors, because alpha-beta's cost grows unevenly between
odd and even depths). The prediction can be wrong, so a move may take longer than the budget;
the engine (:mod:`gametree.engine`) stops a running search and keeps the budget precisely.

Deepening stops early, whatever the budget, once nothing deeper can change the answer: when
the root value is a proven win or loss (all lines up to that length were searched exactly),
or when the search was *complete* — no position was cut off by the depth limit (see
:class:`DepthCutWatch`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Generic, Literal, TypeVar

from ..game import Game
from ..result import SearchResult
from ..trace import LeafKind, Role, Tracer
from ..values import MAX_PLY, Value

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

StopReason = Literal["proven", "complete", "depth", "time"]
"""Why deepening stopped: a proven result, a complete search, the depth cap, or the budget."""


class DepthCutWatch(Tracer[S, M]):
    """A tracer that records nothing but notices whether the depth limit cut the search.

    A heuristic leaf that still has legal moves was cut off by the depth limit; a heuristic
    leaf without moves is a horizon of the game itself (an explicit tree's numeric leaf), which
    no deeper search would look past. If no leaf was cut, the search was complete.
    """

    def __init__(self, game: Game[S, M]) -> None:
        super().__init__(None)
        self._rules = game
        self.cut = False
        """True once a leaf with legal moves was valued by the heuristic."""
        self.leaves_seen = 0
        """Leaves reported; fewer than the search counted means the algorithm does not report
        leaves to a disabled tracer, and then nothing is known about cuts."""

    def leaf(self, state: S, ply: int, role: Role, value: Value, kind: LeafKind) -> None:
        """Note the leaf; look at its moves only until the first cut is found."""
        self.leaves_seen += 1
        if kind == "heuristic" and not self.cut and self._rules.moves(state):
            self.cut = True

    def was_cut(self, result: SearchResult[Any]) -> bool:
        """True unless the search is known to have been complete (no leaf cut by depth)."""
        return self.cut or self.leaves_seen < result.stats.leaves


@dataclass(frozen=True)
class Iteration:
    """One completed search of the deepening."""

    depth: int
    """Its depth limit in plies."""

    nodes: int
    """The nodes it visited."""

    seconds: float
    """Its wall-clock time, as measured by the deepening's clock."""


@dataclass(frozen=True)
class Deepened(Generic[M]):
    """The outcome of iterative deepening: the deepest completed search and how it went."""

    result: SearchResult[M]
    """The result of the deepest completed iteration."""

    iterations: tuple[Iteration, ...]
    """Every completed iteration, shallowest first."""

    complete: bool
    """True if the last search was not cut by the depth limit (it saw every line to its end)."""

    stopped: StopReason
    """Why no further iteration was started."""

    seconds: float
    """Total wall-clock time of all iterations."""

    @property
    def depth(self) -> int:
        """The depth of the deepest completed iteration."""
        return self.iterations[-1].depth

    @property
    def nodes(self) -> int:
        """Nodes visited by all iterations together."""
        return sum(iteration.nodes for iteration in self.iterations)


def predicted_seconds(iterations: list[Iteration], first_growth: float) -> float:
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


def deepen(
    game: Game[S, M],
    run: Callable[[int, Tracer[S, M]], SearchResult[M]],
    *,
    budget: float,
    max_depth: int | None = None,
    first_growth: float = 2.0,
    clock: Callable[[], float],
) -> Deepened[M]:
    """Search depth 1, 2, ... with ``run(depth, tracer)`` while the next one fits in ``budget``.

    Depth 1 always runs (a move is needed, however small the budget). ``clock`` returns seconds
    (``time.perf_counter`` in real use; tests pass a fake one).
    """
    started = clock()
    iterations: list[Iteration] = []
    cap = MAX_PLY if max_depth is None else max_depth
    depth = 1
    while True:
        watch: DepthCutWatch[S, M] = DepthCutWatch(game)
        before = clock()
        result = run(depth, watch)
        after = clock()
        iterations.append(Iteration(depth, result.stats.nodes, after - before))
        complete = not watch.was_cut(result)
        stopped: StopReason | None = None
        if result.outcome in ("win", "loss"):
            stopped = "proven"
        elif complete:
            stopped = "complete"
        elif depth >= cap:
            stopped = "depth"
        elif after - started + predicted_seconds(iterations, first_growth) > budget:
            stopped = "time"
        if stopped is not None:
            return Deepened(result, tuple(iterations), complete, stopped, after - started)
        depth += 1
