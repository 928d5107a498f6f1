"""The engine: iterative deepening around the fast negamax, as a generator of reports.

``Engine(game)`` keeps what lasts between searches — the transposition table, killer moves
and history scores — so a game played move after move gets faster as it goes.
:meth:`Engine.iterate` is the search itself, in the style of sunfish: a generator that yields
one :class:`~gametree.engine.report.Iteration` per completed depth. The caller owns the clock,
the printing and the decision to stop (just stop iterating: the engine stays consistent).
:meth:`Engine.search` runs it to the end and returns the usual
:class:`~gametree.result.SearchResult`; :meth:`Engine.best_move` returns just the move.

Each iteration searches the root moves in the order of the previous iteration (best first)
with principal variation search: the first move with a full window, the others with a null
window that only asks "better than the best so far?", re-searched when they are. The search
stops early when the result cannot change any more: every line reached the end of the game
(deeper iterations would see the same tree), or the root value is a proven win or loss (a
proven value found at any depth is the true one; see ``docs/engine.md``).
"""

from __future__ import annotations

import sys
import time as clock
from collections.abc import Generator, Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from ..game import ChanceError, Game, check_root, search_too_deep
from ..limits import (
    NO_LIMITS,
    Limits,
    StopSignal,
    limits_of,
    proven_moves,
    settled,
    soft_deadline_passed,
    stop_after,
)
from ..result import (
    Bound,
    Iteration,
    MoveValue,
    SearchResult,
    SearchStats,
    StopReason,
    depth_limited,
)
from ..trace import Tracer
from ..values import (
    MAX_PLY,
    Outcome,
    Value,
    break_tie,
    classify,
    for_player,
    terminal_value,
)
from .chance import ChancePruning, deepen_chance, run_chance
from .line import principal_variation
from .ordering import MoveOrder
from .root import RootSearch
from .search import FIRST_CHECK_EVERY, Searcher, SearchStopped, check_interval, estimate_of
from .table import (
    COMPLETE,
    EXACT,
    HEURISTIC,
    TranspositionTable,
)
from .traced import TracedSearcher

if TYPE_CHECKING:
    from ..options import SearchOptions

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

UNLIMITED = MAX_PLY
"""The depth searched "to the end" when iterative deepening is off."""

ALGORITHM = "engine"
"""The name results carry in :attr:`SearchResult.algorithm`."""

_UNTRACED: Tracer[Any, Any] = Tracer.off()
"""The tracer of untraced searches (one for all: it records nothing)."""


PROBE_DEPTHS = (3, 9, 27, 81, 243)
"""An exact solve without iterative deepening first searches to these depths, stopping as
soon as one proves the result. A forced result a few plies away is then found at once instead
of after a full-depth search has wandered through other lines (a Connect Four loss in 2:
22 nodes instead of 107,826; the win in 3 after 4455: 107 nodes instead of minutes). Each probe
is a third as deep as the next, so their cost stays a fraction of the final search's
(measured in docs/engine.md)."""

_PROBED_SOLVE = (*PROBE_DEPTHS, UNLIMITED)
"""The depths of an exact solve without iterative deepening."""


def make_table(table: TranspositionTable | int | bool | None) -> TranspositionTable | None:
    """The engine's table from its ``table`` argument (see :class:`Engine`)."""
    if table is None or table is True:
        return TranspositionTable()
    if table is False:
        return None
    if isinstance(table, TranspositionTable):
        return table
    if isinstance(table, int) and table > 0:
        return TranspositionTable(table)
    if isinstance(table, int) and table == 0:
        return None
    raise ValueError(f"table must be a TranspositionTable, a number of entries, True or False; "
                     f"got {table!r}")


class _PythonRun(RootSearch[S, M]):
    """One search of the Python engine: its root moves and their drivers (a
    :class:`RootSearch`), its limits, searcher and progress."""

    def __init__(self, root: S, player: int, limits: Limits, exact: bool, seed: int | None,
                 searcher: Any, tracer: Tracer[S, M], started: float, deadline: float | None,
                 iterative: bool, key: Hashable, weak: bool,
                 signal: StopSignal | None = None) -> None:
        RootSearch.__init__(self, root, player, searcher.negamax, tracer)
        self.limits = limits
        self.signal = signal
        """The caller's stop signal (``None``: none)."""
        self.exact = exact
        self.seed = seed
        self.searcher = searcher
        self.started = started
        self.deadline = deadline
        self.iterative = iterative
        self.key = key
        """The root's key."""
        self.weak = weak
        self.line = True
        """Find the principal variation beyond the best move (:attr:`SearchOptions.line`)."""
        self.legal: Sequence[M] = ()
        self.last: Iteration[M] | None = None
        self.completed: Iteration[M] | None = None
        """The report of the deepest completed iteration (:attr:`last` may be an unfinished
        one's)."""
        self.stop: StopReason | None = None
        self.iterations = 0
        self.exhaustive = False
        self.final: tuple[int, ...] | None = None
        """The searcher's counters when the search ended."""


class Engine(Generic[S, M]):
    """A game-playing and game-solving search for any game that follows the Game contract.

    Args:
        game: the rules.
        by_distance: score wins and losses by their distance (see :mod:`gametree.values`).
        table: the transposition table: ``True`` (default) for a new
            :class:`~gametree.engine.table.TranspositionTable` of the default size, a number of
            entries, a table to share, or ``False`` for none.
        iterative: iterative deepening: ``True`` always, ``False`` never (one search to the
            requested depth, or to the end), ``None`` (default) when it pays: for
            :meth:`iterate`, whose callers want a report per depth, and for searches with a
            time or node budget, which need a move at any moment. Plain depth-limited or
            exact searches go straight to their depth: measured on tic-tac-toe, Nim and
            Connect Four, the earlier iterations cost more than the ordering they provide
            (``docs/engine.md``).
        window: the root driver, ``"pvs"`` (principal variation search, default) or
            ``"mtdf"`` (MTD(f): null-window searches only), see :mod:`gametree.engine.root`.
        pvs: principal variation search (null-window tests after the first move).
        killers, history: the killer-move and history ordering heuristics (history is off by
            default: on the measured games it saved no nodes and its sorting cost time).
        chance_pruning: for a game with chance (``has_chance``), which the engine searches by
            expectiminimax with its own table (:mod:`gametree.engine.chance`): ``"star2"``
            (default), ``"star1"`` or ``"none"``.
    """

    def __init__(
        self,
        game: Game[S, M],
        *,
        by_distance: bool = True,
        table: TranspositionTable | int | bool | None = True,
        iterative: bool | None = None,
        window: str = "pvs",
        pvs: bool = True,
        killers: bool = True,
        history: bool = False,
        chance_pruning: ChancePruning = "star2",
    ) -> None:
        self.game = game
        self.chance_pruning: ChancePruning = chance_pruning
        """For a game with chance: Star2, Star1 or no pruning at chance nodes
        (:mod:`gametree.engine.chance`)."""
        self.by_distance = by_distance
        self.table = make_table(table)
        """The transposition table (``None`` when the engine has none)."""
        self.order: MoveOrder[S, M] = MoveOrder(game, killers=killers, history=history)
        """Killer moves and history scores, kept between searches."""
        if window not in ("pvs", "mtdf"):
            raise ValueError(f"window must be 'pvs' or 'mtdf', got {window!r}")
        self.iterative = iterative
        self.window = window
        self.pvs = pvs
        self.last_stop: StopReason | None = None
        """Why the last search ended."""
        self._idle_searcher: Searcher[S, M] | None = None
        """The inner loop of the last search, when no search is using it."""

    # -- the public calls --------------------------------------------------------------------

    def iterate(
        self,
        state: S | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        exact_root: bool = False,
        seed: int | None = None,
        tracer: Tracer[S, M] | None = None,
        stop: StopSignal | None = None,
        line: bool = True,
    ) -> Generator[Iteration[M], None, None]:
        """Search ``state`` (default: the initial state), yielding a report per depth.

        Stop iterating whenever you like: the engine and its table stay consistent and can
        search again at once. The limits (``depth``, ``time`` in seconds, ``nodes``) end the
        search by themselves; the time and node budgets can stop an iteration half-way, and
        if that unfinished iteration had already proved a better move than the previous one,
        a last report with ``finished=False`` says so.

        ``stop`` (a :class:`threading.Event`, or any :class:`~gametree.limits.StopSignal`)
        lets another thread end the search while an iteration runs, as a budget would, but
        from the first node on: the reports end within a couple of milliseconds of search
        after the signal (:attr:`last_stop` then says ``"stop"``), with none at all when it
        came before the first iteration completed — the caller that needs a move then picks
        one itself. A game with chance stops between iterations only.

        ``exact_root`` searches every root move with a full window (each move's value exact,
        as ``analyze`` needs); ``seed`` breaks ties between equally good moves at random and
        implies it. ``tracer`` receives every step (a slower search path). ``line=False``
        reports the best move as each iteration's line (:attr:`SearchOptions.line`).
        """
        if self.game.has_chance:
            return self._chance_iterations(state, depth, time, nodes, exact_root, seed, tracer,
                                           stop, line)
        run = self._start(state, limits_of(depth, nodes, time), exact_root, seed, tracer,
                          self.iterative is not False, False, stop)
        run.line = line
        return self._iterations(run)

    def search(
        self,
        state: S | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        exact_root: bool = False,
        seed: int | None = None,
        tracer: Tracer[S, M] | None = None,
        weak: bool = False,
    ) -> SearchResult[M]:
        """Search ``state`` within the limits and return the result (see :meth:`iterate`).

        The result's value, best move and line are those of the deepest completed iteration,
        or of a better move proven in an unfinished one.

        ``weak`` proves only whether the player to move wins, draws or loses: one search to
        the end of the game with a window around 0, the values reported as 1, 0 and -1 with
        distance scoring off, the line as the best move alone. It takes no depth or budget.
        """
        if weak and (depth is not None or time is not None or nodes is not None):
            raise ValueError("weak solving searches to the end of the game: give no "
                             "depth, time or node budget")
        from ..options import SearchOptions  # noqa: PLC0415 - options imports the engine's

        return self.run_search(state, SearchOptions(
            depth=depth, time=time, nodes=nodes, exact_root=exact_root, seed=seed, weak=weak,
            by_distance=self.by_distance, chance_pruning=self.chance_pruning), tracer)

    def run_search(self, state: S | None, options: SearchOptions,
                   tracer: Tracer[S, M] | None = None) -> SearchResult[M]:
        """Search ``state`` (``None``: the initial state) as ``options`` ask: the request of
        both tiers' engines (the compiled one's :meth:`~gametree.compiled.CompiledEngine.
        run_search` takes the same). This engine reads the search's own options (``depth``,
        ``time``, ``nodes``, ``exact_root``, ``seed``, ``weak``, ``line``); how it is built
        (distance scoring, tuning) it was given when made (the search service makes it from
        the same options). ``tracer`` receives every step (a slower search path)."""
        if self.game.has_chance:
            if options.weak:
                raise ChanceError(f"{self.game.name} has chance moves: its values are expected "
                                  f"utilities, which a weak solve (win, draw or loss) does "
                                  f"not give")
            root = self.game.initial_state() if state is None else state
            try:
                result = run_chance(self.game, root, depth=options.depth, time=options.time,
                                    nodes=options.nodes, pruning=options.chance_pruning,
                                    table=self.table is not None,
                                    exact_root=options.exact_root, seed=options.seed,
                                    tracer=tracer)
            except RecursionError:
                raise search_too_deep(self.game, root,
                                      (sys.getrecursionlimit() - 100) // 3) from None
            if not options.line:  # read from the table, which the search filled anyway
                result.pv = result.pv[:1]
            return result
        limits = limits_of(options.depth, options.nodes, options.time)
        weak = options.weak
        iterative = self.iterative
        if limits is not NO_LIMITS:
            if iterative is None:
                iterative = limits.nodes is not None or limits.time is not None
        elif iterative is None or weak:
            iterative = False
        run = self._start(state, limits, options.exact_root, options.seed, tracer, iterative,
                          weak)
        run.line = options.line
        try:
            for _report in self._iterate(run):
                pass
        finally:
            self._end(run)
        return self._result(run)

    def _chance_iterations(self, state: S | None, depth: int | None, time: float | None,
                           nodes: int | None, exact_root: bool, seed: int | None,
                           tracer: Tracer[S, M] | None, stop: StopSignal | None,
                           line: bool) -> Generator[Iteration[M], None, None]:
        """:meth:`iterate` for a game with chance: a report per depth of player moves."""
        root = self.game.initial_state() if state is None else state
        started = clock.perf_counter()
        total = 0
        searches = deepen_chance(self.game, root, depth=depth, time=time, nodes=nodes,
                                 pruning=self.chance_pruning, table=self.table is not None,
                                 exact_root=exact_root, seed=seed, tracer=tracer,
                                 iterative=True)
        for result in searches:
            total += result.stats.nodes
            yield Iteration(depth=result.depth or result.stats.depth_reached,
                            value=result.value, best_move=result.best_move,
                            pv=result.pv if line else result.pv[:1],
                            moves=result.moves, nodes=total,
                            seconds=clock.perf_counter() - started,
                            table_entries=result.stats.table_entries,
                            table_hits=result.stats.table_hits, complete=result.complete,
                            outcome=result.outcome, plies=result.plies)
            if stop is not None and stop.is_set():
                self.last_stop = "stop"
                return

    def analyze(self, state: S | None = None, **limits: Any) -> SearchResult[M]:
        """Like :meth:`search` with ``exact_root``: every root move's exact value."""
        return self.search(state, exact_root=True, **limits)

    def best_move(
        self,
        state: S | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        seed: int | None = None,
    ) -> M | None:
        """The move to play in ``state`` within the limits (``None`` if the game is over)."""
        return self.search(state, depth=depth, time=time, nodes=nodes, seed=seed).best_move

    def clear(self) -> None:
        """Forget everything learnt: the table's entries, killer moves and history."""
        if self.table is not None:
            self.table.clear()
        self.order.clear()

    # -- one search --------------------------------------------------------------------------

    def _start(self, state: S | None, limits: Limits, exact_root: bool, seed: int | None,
               tracer: Tracer[S, M] | None, iterative: bool, weak: bool,
               stop: StopSignal | None = None) -> _PythonRun[S, M]:
        if seed is not None and (seed.__class__ is bool or not isinstance(seed, int)):
            raise ValueError(f"seed must be an integer or None, got {seed!r}")
        root = self.game.initial_state() if state is None else state
        player, root_key = check_root(self.game, root)
        table = self.table
        generation = table.new_search() if table is not None else 0
        order = self.order
        if order.use_history:
            order.age()
        trace: Tracer[S, M] = tracer if tracer is not None else _UNTRACED
        # An exact solve may take complete table entries at any depth: its answer is the
        # game's. Depth-limited answers (iterations, budgets) take only their own depth's.
        solving = not iterative and limits is NO_LIMITS
        searcher: Any
        if trace.enabled:
            searcher = TracedSearcher(self.game, table, order, by_distance=self.by_distance,
                                      pvs=self.pvs, tracer=trace, root_player=player)
            searcher.solving = solving
        else:
            searcher = self._idle_searcher
            if searcher is not None:
                # The inner loop of the last search: building its closures costs more than a
                # small search.
                self._idle_searcher = None
            else:
                searcher = Searcher(self.game, table, order, by_distance=self.by_distance,
                                    pvs=self.pvs)
            searcher.reset(generation, solving)
        started = clock.perf_counter()
        deadline = None if limits.time is None else started + limits.time
        return _PythonRun(root, player, limits, exact_root or seed is not None, seed, searcher,
                          trace, started, deadline, iterative, root_key, weak, stop)

    def _iterations(self, run: _PythonRun[S, M]) -> Generator[Iteration[M], None, None]:
        try:
            yield from self._iterate(run)
        finally:  # also when the caller stops iterating early
            self._end(run)

    def _end(self, run: _PythonRun[S, M]) -> None:
        """Close the books of a run, however it ended."""
        self.last_stop = run.stop
        run.final = counters = run.searcher.counters()
        table = self.table
        if table is not None:  # the searcher's table counters join the table's statistics
            table.stores += counters[7]  # COUNTERS: ..., "stores", "kept", ...
            table.kept += counters[8]
        if run.searcher.__class__ is Searcher:
            self._idle_searcher = run.searcher

    def _iterate(self, run: _PythonRun[S, M]) -> Iterator[Iteration[M]]:
        """The iterative-deepening loop of every search (a search without iterative
        deepening runs it with one depth, or the probe depths of an exact solve): each
        iteration values the root moves to its depth (:meth:`_search_root`), reports
        (:meth:`_completed`), and decides whether to go on (:func:`gametree.limits.stop_after`,
        the rule both tiers share)."""
        game = self.game
        root, limits, searcher = run.root, run.limits, run.searcher
        utility = game.outcome(root)
        legal = list(game.moves(root)) if utility is None and limits.depth != 0 else []
        if not legal:
            yield self._leaf_report(run, utility)
            return
        run.legal = legal
        run.play_children(game, legal)
        order = self.order
        if order.hint is not None and len(legal) > 1:
            run.order = list(order.order(root, legal, None, 0, run.player))
        target = UNLIMITED if limits.depth is None else limits.depth
        tally = searcher.tally
        before = (0, 0, 0, 0, 0)  # the searcher was reset: nothing counted yet
        if run.signal is not None:  # the stop signal holds from the first node on
            searcher.limit(None, None, run.signal, FIRST_CHECK_EVERY)
        for depth in self._depths(run, target):
            if run.iterations:
                if run.iterations == 1:  # the budgets spare the first iteration: a move
                    # Checked often enough for the game's speed (slow nodes: more often).
                    first = run.last
                    assert first is not None
                    searcher.limit(limits.nodes, run.deadline, run.signal,
                                   check_interval(first.nodes, first.seconds))
                before = tally()
            try:
                self._search_root(run, depth)
            except RecursionError:
                if run.last is None or not run.iterative:
                    raise search_too_deep(game, root, sys.getrecursionlimit() - 100) from None
                run.stop = "depth"  # as deep as Python can search: the deepest completed answers
                return
            except SearchStopped as stopped:
                run.stop = "time" if stopped.reason == "time" else \
                    "stop" if stopped.reason == "stop" else "nodes"
                partial = self._partial_report(run, depth)
                if partial is not None:
                    run.last = partial
                    yield partial
                return
            report = self._completed(run, depth, before)
            yield report
            # The shared rule; a complete iteration (every small search's) is its first case,
            # answered here without the call.
            run.stop = "end" if report.complete else stop_after(
                report.depth, target, False,
                settled(report.value, report.moves, report.depth, every_move=run.exact,
                        by_distance=self.by_distance),
                run.deadline is not None and soft_deadline_passed(
                    run.started, run.deadline, clock.perf_counter()))
            if run.stop is None and run.signal is not None and run.signal.is_set():
                run.stop = "stop"
            if run.stop is not None:
                break

    @staticmethod
    def _depths(run: _PythonRun[S, M], target: int) -> Sequence[int]:
        """The depths the iterations search to, one after another."""
        limits = run.limits
        if run.weak:
            return (target,)
        if run.iterative:
            return range(1, target + 1)
        if limits is NO_LIMITS:  # an exact solve: the common case of small searches
            return _PROBED_SOLVE
        if limits.budgeted:
            return (1, target) if target > 1 else (1,)  # depth 1 first: always have a move
        if limits.depth is None:
            return _PROBED_SOLVE
        return (target,)

    def _search_root(self, run: _PythonRun[S, M], depth: int) -> None:
        """Value the root moves to ``depth`` (the root driver the options ask for); the best
        move and value are left in ``run``."""
        last = run.last
        if run.traced and run.iterative:
            run.trace.iteration(depth)
        if last is not None and last.best_move is not None:
            self._best_first(run, last.best_move)
        run.start(depth)
        run.searcher.count_root()
        if run.traced:
            run.trace.enter(run.root, 0, "MAX")
        if run.weak:
            run.weak_signs()
        elif run.exact:
            run.exact_values()
        elif self.window == "mtdf":
            run.mtdf(last.value if last is not None else 0)
        else:
            run.pvs(self.pvs)  # positional: a keyword costs more in every small search
        if run.seed is not None:  # a random move among the best
            values = run.values
            tied = [move for move in run.legal if values[move].value == run.value]
            run.best_move = break_tie(tied, run.seed)
        if run.traced:
            run.trace.done(run.root, 0, "MAX", run.value, run.best_move)

    def _completed(self, run: _PythonRun[S, M], depth: int,
                   before: tuple[int, int, int, int, int]) -> Iteration[M]:
        """The report of the iteration to ``depth`` that just ended (``before``: the
        searcher's tally when it began); the root's value and best move go to the table."""
        value, best_move = run.value, run.best_move
        assert best_move is not None
        nodes, hits, cuts, guesses, deepest = tally = run.searcher.tally()
        run.iterations += 1
        run.exhaustive = exhaustive = guesses == before[3]
        complete = cuts == before[2]
        moves = tuple(map(run.values.__getitem__, run.legal))  # in the game's move order
        if run.weak:  # signs, not values: nothing for the table, and no line beyond the move
            outcome = classify(value, by_distance=False, exhaustive=exhaustive and complete)[0]
            report = self._report(run, tally, deepest, value, best_move, moves, (best_move,),
                                  complete=complete, outcome=outcome)
        else:
            table = self.table
            outcome, plies = classify(value, by_distance=self.by_distance,
                                      exhaustive=exhaustive and complete)
            if table is not None:  # the root's value and best move, as any position's
                table.store(run.key, COMPLETE + deepest if complete else depth,
                            EXACT if exhaustive else EXACT | HEURISTIC, value, best_move)
            # A complete iteration's table holds the rest of the line beyond its depth
            # (and no line reaches beyond the deepest ply the search saw).
            pv = (best_move,) if deepest <= 1 or not run.line else \
                self._pv(run, UNLIMITED if complete else depth, best_move, value)
            # A search straight to the end, or one no depth limit cut, reports how deep
            # it went.
            reached = deepest if depth >= UNLIMITED or (complete and not run.iterative) \
                else depth
            if not (exhaustive or complete):
                moves = depth_limited(moves, reached, final=False,
                                      by_distance=self.by_distance)
            # Positional arguments, in the fields' order: keywords cost a microsecond.
            report = Iteration(reached, value, best_move, pv, moves, nodes,
                               clock.perf_counter() - run.started,
                               self._table_entries(), hits, "exact",
                               True, complete, outcome, plies)
        run.last = run.completed = report
        return report

    @staticmethod
    def _best_first(run: _PythonRun[S, M], previous: M) -> None:
        """Order the root moves for the next iteration: the last one's best move first, then
        the rest by their values in it."""
        values = run.values
        rest = sorted((move for move in run.order if move != previous),
                      key=lambda move: values[move].value, reverse=True)
        run.order = [previous, *rest]

    # -- reports and results -----------------------------------------------------------------

    def _report(self, run: _PythonRun[S, M], tally: tuple[int, int, int, int, int], depth: int,
                value: Value, best_move: M | None, moves: tuple[MoveValue[M], ...],
                pv: tuple[M, ...], *, bound: Bound = "exact", finished: bool = True,
                complete: bool = False, outcome: Outcome | None = None,
                plies: int | None = None) -> Iteration[M]:
        """The report of an iteration; ``tally``: the searcher's when it ended."""
        # Positional arguments, in the fields' order: keywords cost a microsecond here.
        return Iteration(depth, value, best_move, pv, moves, tally[0],
                         clock.perf_counter() - run.started, self._table_entries(), tally[1],
                         bound, finished, complete, outcome, plies)

    def _table_entries(self) -> int:
        return 0 if self.table is None else len(self.table.entries)

    def _partial_report(self, run: _PythonRun[S, M], depth: int) -> Iteration[M] | None:
        """The report of an iteration stopped half-way, if it proved a better move."""
        if run.better is None or run.last is None:
            return None
        move, value, bound = run.better
        if move == run.last.best_move:
            return None
        better = depth_limited((MoveValue(move, value, bound),), depth, final=False,
                               by_distance=self.by_distance)[0]
        moves = tuple(entry if entry.move != move else better for entry in run.last.moves)
        return self._report(run, run.searcher.tally(), depth, value, move, moves, (move,),
                            bound="lower", finished=False)

    def _leaf_report(self, run: _PythonRun[S, M], utility: Value | None) -> Iteration[M]:
        """The report for a root that is finished, has no moves, or is searched to depth 0."""
        run.searcher.count_root()
        if utility is not None:
            value = terminal_value(for_player(utility, run.player), 0,
                                   by_distance=self.by_distance)
            run.exhaustive = True
        else:
            value = for_player(estimate_of(self.game, run.root), run.player)
            run.exhaustive = False
        outcome, plies = classify(value, by_distance=self.by_distance,
                                  exhaustive=run.exhaustive)
        run.stop = "end"
        run.iterations = 1
        report: Iteration[M] = Iteration(
            depth=0, value=value, best_move=None, pv=(), moves=(), nodes=run.searcher.tally()[0],
            seconds=clock.perf_counter() - run.started,
            table_entries=self._table_entries(),
            table_hits=0, complete=utility is not None, outcome=outcome, plies=plies,
        )
        run.last = report
        return report

    def _result(self, run: _PythonRun[S, M]) -> SearchResult[M]:
        """The :class:`SearchResult` of a finished run."""
        report = run.last
        counters = run.final
        assert report is not None and counters is not None  # set when the run ended
        moves = report.moves
        requested = run.limits.depth
        stop = run.stop
        # The deepest completed iteration (the report may be an unfinished one's that proved
        # a better move: its depth was not searched through).
        reached = report.depth if run.completed is None else run.completed.depth
        if stop == "proven" and (requested is None or report.depth < requested):
            moves = proven_moves(moves, report.best_move, report.value)
        stopped: Literal["time", "nodes", "stop"] | None = \
            stop if stop in ("time", "nodes", "stop") else None
        # Positional arguments, in the fields' order: keywords cost a microsecond here.
        # (counters: nodes, leaves, evaluations, cutoffs, first cut-offs, probes, hits, ...)
        stats = SearchStats(counters[0], counters[1], counters[2], counters[3], counters[4],
                            counters[6], self._table_entries(),
                            run.iterations, reached, stopped,
                            clock.perf_counter() - run.started)
        # The depth of the search the answer comes from: the one asked for, or the deepest
        # completed when a budget ended the search first.
        # (No depth asked, yet stopped by depth: by the deepest Python's recursion allows.)
        depth = reached if stopped is not None or (
            stop == "depth" and requested is None) else requested
        weak = run.weak
        return SearchResult(
            report.best_move, report.value, moves, report.pv, stats, ALGORITHM, "python",
            depth, self.by_distance and not weak, report.outcome,
            None if weak else report.plies, run.exhaustive and report.complete,
            report.complete, weak)

    # -- the principal variation -------------------------------------------------------------

    def _pv(self, run: _PythonRun[S, M], depth: int, best_move: M, value: Value) -> tuple[M, ...]:
        """The principal variation (see :mod:`gametree.engine.line`), read quietly: the
        confirmation searches are not part of a trace."""
        searcher = run.searcher
        if run.traced:
            searcher.trace = _UNTRACED
        try:
            # Positional arguments: keywords cost more in every small search.
            return principal_variation(self.game, self.table, searcher.negamax,
                                       self.by_distance, run.root, run.player, depth,
                                       best_move, value, run.children[best_move][0])
        finally:
            if run.traced:
                searcher.trace = run.trace
