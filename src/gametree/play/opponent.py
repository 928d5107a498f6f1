"""How the computer chooses a move: one small interface between a front-end and the searches.

A front-end asks an :class:`Opponent` for a :class:`Decision` (the move it would play, with the
search result behind it) or for an analysis (every legal move valued exactly). It never calls a
search itself, so how the computer thinks — the engine (:mod:`gametree.engine`, the default)
or a reference algorithm — is decided in this module only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..algorithms import ALGORITHMS, DEFAULT_ALGORITHM, ENGINE, search
from ..engine import Engine
from ..game import Game
from ..result import SearchResult
from ..trace import Tracer
from .deepening import DepthCutWatch, StopReason, deepen

if TYPE_CHECKING:
    from ..compiled.form import CompiledForm

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

@dataclass(frozen=True)
class Decision(Generic[M]):
    """What the computer found in one position: its move and the search behind it."""

    result: SearchResult[M]
    """The result of the (deepest completed) search; values are seen from the player to move."""

    depth: int | None
    """The depth of that search in plies (``None``: searched to the end without a limit)."""

    complete: bool
    """True if no line was cut off by a depth limit: the values are the game's true values
    (or, for a game with heuristic horizons, exactly the minimax values of its leaves)."""

    nodes: int
    """Positions visited, over every iteration."""

    seconds: float
    """Thinking time, over every iteration."""

    stopped: StopReason | None = None
    """Why iterative deepening stopped (``None`` when a single search was run)."""

    @property
    def move(self) -> M | None:
        """The move chosen (``None`` in a position without moves)."""
        return self.result.best_move


class Opponent(Protocol):
    """The computer player, as a front-end sees it."""

    def describe(self) -> str:
        """Its strength in a few words, for the session header (``alpha-beta, depth 4``)."""
        ...

    def choose(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move it plays in ``state`` (which must have legal moves), and why."""
        ...

    def analyse(self, game: Game[S, M], state: S) -> Decision[M]:
        """Like :meth:`choose`, but every legal move is valued exactly (not just bounded)."""
        ...


def check_time(seconds: float | None) -> None:
    """Reject a time budget that is not a positive, finite number of seconds."""
    if seconds is None:
        return
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds) or seconds <= 0):
        raise ValueError(f"the time per move must be a positive number of seconds, "
                         f"got {seconds!r}")


class SearchOpponent:
    """An opponent that plays the best move a search finds.

    * ``depth`` only: one search of that many plies (``gametree.algorithms.search``).
    * ``time`` (seconds per move), with or without a ``depth`` cap: handed to the search if
      it keeps its own clock (the engine's ``time`` option, see :attr:`timed_by_search`);
      otherwise iterative deepening that never starts an iteration it does not expect to
      finish in time (see :mod:`gametree.play.deepening`; the budget is then approximate).
    * neither: a search to the end of the game (perfect play; slow on big games).

    ``seed`` breaks ties between equally good moves at random, so that games vary.
    ``compiled``: the game's compiled form (:mod:`gametree.compiled`); the engine then
    searches it with the compiled engine, under the same depth and time limits (it keeps its
    own clock) — many times deeper in the same time.
    """

    def __init__(
        self,
        *,
        depth: int | None = None,
        time_per_move: float | None = None,
        algorithm: str = DEFAULT_ALGORITHM,
        seed: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        compiled: CompiledForm[Any, Any] | None = None,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; "
                             f"algorithms: {', '.join(ALGORITHMS)}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                                  or depth < 1):
            raise ValueError(f"the depth must be a whole number of plies >= 1, got {depth!r}")
        check_time(time_per_move)
        self.depth = depth
        self.time_per_move = time_per_move
        self.algorithm = algorithm
        self.seed = seed
        self._clock = clock
        self._engine: Engine[Any, Any] | None = None
        if compiled is not None and algorithm != ENGINE:
            raise ValueError(f"a compiled form is searched by the engine, not by {algorithm}")
        self.compiled = compiled

    def describe(self) -> str:
        """The algorithm and its limits, e.g. ``alphabeta, up to 2 s per move``."""
        if self.time_per_move is not None:
            limit = f"up to {self.time_per_move:g} s per move"
            if self.depth is not None:
                limit += f", at most {self.depth} plies deep"
        elif self.depth is not None:
            limit = f"{self.depth} plies deep"
        else:
            limit = "searching to the end of the game"
        name = "compiled engine" if self.compiled is not None else self.algorithm
        return f"{name}, {limit}"

    def choose(self, game: Game[S, M], state: S) -> Decision[M]:
        """The move the search prefers in ``state``."""
        return self._decide(game, state, exact=False)

    def analyse(self, game: Game[S, M], state: S) -> Decision[M]:
        """Every legal move of ``state`` valued exactly, at the same strength."""
        return self._decide(game, state, exact=True)

    @property
    def engine(self) -> Engine[Any, Any] | None:
        """The engine kept for the game being played (``None`` before the first engine search).

        Its transposition table and move-ordering statistics last from move to move.
        """
        return self._engine

    @property
    def timed_by_search(self) -> bool:
        """True if the algorithm keeps to a time budget itself (the engine's ``time`` option).

        Such a search gets the budget directly and no tracer (a tracer would put it on its
        slower, traced path); the iterative deepening here is only for the reference searches.
        """
        return self.compiled is not None or "time" in ALGORITHMS[self.algorithm].options

    def _decide(self, game: Game[S, M], state: S, *, exact: bool) -> Decision[M]:
        def run(depth: int | None, tracer: Tracer[S, M]) -> SearchResult[M]:
            return search(game, state, algorithm=self.algorithm, depth=depth, seed=self.seed,
                          tracer=tracer, **self._options(exact))

        if self.timed_by_search:
            started = self._clock()
            if self.compiled is not None:
                from ..compiled.form import compiled_search  # noqa: PLC0415 - imports numba

                result = compiled_search(self.compiled, state, depth=self.depth,
                                         time=self.time_per_move, exact_root=exact,
                                         seed=self.seed)
            elif self.algorithm == ENGINE:
                # One engine for the whole game, so that its transposition table, killer
                # moves and history carry over from move to move.
                result = self._engine_for(game).search(
                    state, depth=self.depth, time=self.time_per_move, exact_root=exact,
                    seed=self.seed)
            else:
                options = self._options(exact)
                if self.time_per_move is not None:
                    options["time"] = self.time_per_move
                result = search(game, state, algorithm=self.algorithm, depth=self.depth,
                                seed=self.seed, **options)
            # Without a tracer, the search is known to be complete when it says it went to the
            # end (depth None), proved its result, or used no estimate.
            complete = (result.depth is None or result.outcome is not None
                        or result.exhaustive)
            return Decision(result, result.depth, complete, result.stats.nodes,
                            self._clock() - started)
        if self.time_per_move is None:
            watch: DepthCutWatch[S, M] = DepthCutWatch(game)
            started = self._clock()
            result = run(self.depth, watch)
            return Decision(result, self.depth, not watch.was_cut(result), result.stats.nodes,
                            self._clock() - started)
        deepened = deepen(game, run, budget=self.time_per_move, max_depth=self.depth,
                          first_growth=max(2.0, float(len(game.moves(state)))),
                          clock=self._clock)
        return Decision(deepened.result, deepened.depth, deepened.complete, deepened.nodes,
                        deepened.seconds, deepened.stopped)

    def prepare(self) -> None:
        """Load (or, the first time, compile) the compiled engine now, so that the wait
        comes before the game rather than inside the first move's thinking time."""
        if self.compiled is None:
            return
        from ..compiled.form import engine_for  # noqa: PLC0415 - imports numba

        engine_for(self.compiled.kernel)

    def _engine_for(self, game: Game[S, M]) -> Engine[S, M]:
        """The engine kept for ``game`` (a new one when the game changes)."""
        if self._engine is None or self._engine.game is not game:
            self._engine = Engine(game)
        engine: Engine[S, M] = self._engine
        return engine

    def _options(self, exact: bool) -> dict[str, Any]:
        # minimax values every root move exactly anyway and has no such option.
        if exact and "exact_root" in ALGORITHMS[self.algorithm].options:
            return {"exact_root": True}
        return {}
