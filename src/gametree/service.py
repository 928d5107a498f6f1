"""The search service: one way to search any game, on whichever tier suits it.

Every front-end — the command line, the terminal player, the benchmarks — searches through
here, with one options type (:class:`~gametree.options.SearchOptions`)::

    >>> import gametree
    >>> tree = gametree.GameTree.from_leaves("3 5 2 9 12 5 23 23")    # seed 003
    >>> result = gametree.search(tree)
    >>> result.value, result.algorithm, result.tier
    (12, 'engine', 'python')
    >>> gametree.search(tree, algorithm="minimax").stats.leaves
    8

* :func:`search` returns a :class:`~gametree.SearchResult`; :func:`iterate` yields a report
  (:class:`~gametree.engine.Iteration`) after each depth; :class:`SearchSession` is a series
  of searches of one game that keep what they learn from one to the next (a player in a game);
  :func:`solve_batch` solves many positions for their values alone (benchmarks).
* **A solution database is probed first** when :func:`search` or a :class:`SearchSession` is
  given one (``database=``, a :class:`Probe` such as :class:`gametree.db.SolutionDatabase`):
  where it knows the position the answer is its (``algorithm == "database"``), elsewhere the
  search runs as without it.
* **The tier is chosen here**: the compiled engine when the game has a compiled form for its
  options (:meth:`gametree.Game.compiled_form`) and the options allow it (the engine, no
  tracer, no Python-only tuning); else the Python tier. ``tier="python"`` or
  ``tier="compiled"`` insists (a :class:`ValueError` says why the compiled tier cannot).
  Both tiers return the same result type with the same statistics; :attr:`SearchResult.tier`
  says which ran.
* **The same answer, whatever ran before, in any thread.** A call of :func:`search` starts
  from an empty transposition table, so its result — node counts included — depends only on
  the game, the state and the options. Each search has an engine of its own: compiled engines
  (whose tables are large) come from a pool per kernel and go back when the search ends, so
  two threads never share one. The pool keeps engines within a bound in bytes, dropping
  the least recently used idle ones (:mod:`gametree.pool`,
  :func:`~gametree.pool.set_pool_limit`).

The search raises :class:`~gametree.ContractError` when the game breaks its contract where the
search can see it (a player that is not 0 or 1, an unhashable state, a game that never ends);
``gametree check`` looks for such faults thoroughly.
"""

from __future__ import annotations

import sys
import threading
import time
import weakref
from collections.abc import Callable, Generator, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from .algorithms import ALGORITHMS, ENGINE
from .game import Game, TooDeepError, check_line, search_too_deep
from .limits import StopSignal
from .options import OptionError, SearchOptions, tier_refusal
from .pool import POOL as _POOL
from .pool import Engines
from .result import (
    Iteration,
    ProgressListener,
    SearchResult,
    SearchStats,
    Tier,
    depth_limited,
)
from .trace import Tracer

if TYPE_CHECKING:
    from .compiled.engine import BatchResult, CompiledEngine
    from .compiled.form import CompiledForm
    from .engine.engine import Engine

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)
S_contra = TypeVar("S_contra", contravariant=True)

DEFAULT_OPTIONS = SearchOptions()
"""The options of a search given none: the engine, solving to the end of the game."""


class Probe(Protocol[S_contra, M]):
    """What a search asks a solution database before searching (a
    :class:`gametree.db.SolutionDatabase` is one)."""

    def result(self, state: S_contra, *, exact: bool = False,
               seed: int | None = None) -> SearchResult[M] | None:
        """The stored answer for ``state`` (its ``algorithm``: ``"database"``), or ``None``
        when it is not known; with ``exact``, only if every root move's value is known; with
        ``seed``, the best move drawn among the tied ones as a seeded search draws it."""


def search(game: Game[S, M], state: S | None = None, options: SearchOptions | None = None, *,
           tracer: Tracer[S, M] | None = None, database: Probe[S, M] | None = None,
           progress: ProgressListener | None = None, **changes: Any) -> SearchResult[M]:
    """Search ``state`` of ``game`` (default: the initial state) and return the result.

    ``options`` (default: :data:`DEFAULT_OPTIONS`) may be changed for this call by keyword:
    ``search(game, depth=4)`` is ``search(game, options=SearchOptions(depth=4))``. A
    ``tracer`` receives every step of the search (the Python tier: it keeps the log).

    ``database`` (a :class:`gametree.db.SolutionDatabase` for this game): probed first; where
    it knows the position (or its symmetric twin, or every move's position: docs/solving.md)
    the answer is its exact one, with ``algorithm == "database"`` and zero statistics, and no
    search runs; elsewhere the search runs as without it. Without one, an installed opening
    book of the game's variant answers the positions it covers the same way (``source``
    ``"book"``; ``book=False`` searches instead): :mod:`gametree.db.books`.

    ``progress`` hears how a solve to the end of the game goes, about ten times a second (a
    :class:`~gametree.result.SolveProgress`: the root's window, positions searched, time),
    on the compiled tier; other searches do not call it.
    """
    if changes or options is None or options.__class__ is not SearchOptions:
        options = _with_changes(options, changes)
    if game.search_time is not None:
        options = _budgeted(game, options)
    root = game.initial_state() if state is None else state
    if database is not None or options.book:
        found = _probe(game, database, root, options, tracer)
        if found is not None:
            return found
    return _plan(game, options, tracer).search(root, None, progress)


def _budgeted(game: Game[Any, Any], options: SearchOptions) -> SearchOptions:
    """``options``, with the game's :attr:`~gametree.Game.search_time` as its time budget
    when they give no depth, time or node budget (and ask for no weak solve, which takes
    none): a search of such a game always ends. (:func:`iterate` leaves the clock to its
    caller.)"""
    if options.budgeted or options.weak:
        return options
    return replace(options, time=game.search_time)


def _probe(game: Game[S, M], database: Probe[S, M] | None, root: S, options: SearchOptions,
           tracer: Tracer[S, M] | None) -> SearchResult[M] | None:
    """The stored answer, when one can stand for this search's: the database's if one is
    given, else (``options.book``) an installed book's (:mod:`gametree.db.books`: the engine
    only, and not a weak solve, whose values are signs). Never for plain values
    (``by_distance=False``: databases store distances) nor for a traced search (whose log is
    the point)."""
    if not options.by_distance or (tracer is not None and tracer.enabled):
        return None
    if database is None:
        if not options.book or options.weak or options.algorithm != ENGINE:
            return None
        database = (_book_for or _books())(game)
        if database is None:
            return None
    found = database.result(root, exact=options.exact_root or options.seed is not None,
                            seed=options.seed)
    if found is not None and not options.line:
        found = replace(found, pv=found.pv[:1])  # a copy: a database may keep its answers
    return found


_book_for: Callable[[Game[Any, Any]], Probe[Any, Any] | None] | None = None
""":func:`gametree.db.books.book_for`, once a search has asked for it (an import inside
:func:`_probe` would cost microseconds on every search)."""


def _books() -> Callable[[Game[Any, Any]], Probe[Any, Any] | None]:
    global _book_for  # noqa: PLW0603 - set once, to the same function by any thread
    from .db.books import book_for  # noqa: PLC0415 - sqlite3 only once a search may need it

    _book_for = book_for
    return book_for


def iterate(game: Game[S, M], state: S | None = None, options: SearchOptions | None = None, *,
            tracer: Tracer[S, M] | None = None, database: Probe[S, M] | None = None,
            stop: StopSignal | None = None, **changes: Any) -> Iterator[Iteration[M]]:
    """Search ``state`` one depth after another, yielding a report after each completed depth.

    The caller owns the clock and the decision to stop: just stop iterating. Without a depth,
    time or node budget it goes on until the result is proven. On the compiled tier the
    reports come between its iterations, as on the Python tier. ``database``: as for
    :func:`search`; where it knows the answer, that is the one report (proven, zero nodes).

    ``stop`` (a :class:`threading.Event`, or any :class:`~gametree.limits.StopSignal`): set
    from another thread, it ends the search — the Python tier's engine within a few thousand
    nodes, in the middle of an iteration after the first; the compiled tier and the reference
    algorithms after their running iteration. The reports so far stand (the last is the
    deepest completed iteration's, or an unfinished one's that proved a better move).
    """
    options = _with_changes(options, changes)
    root = game.initial_state() if state is None else state
    if database is not None or options.book:
        found = _probe(game, database, root, options, tracer)
        if found is not None:
            return iter((_database_report(found),))
    return _plan(game, options, tracer).iterate(root, None, stop)


def _database_report(found: SearchResult[M]) -> Iteration[M]:
    """A database's answer as the one report of an iteration (it searched nothing)."""
    return Iteration(found.stats.depth_reached, found.value, found.best_move, found.pv,
                     found.moves, 0, found.stats.seconds, 0, 0, "exact", True, found.complete,
                     found.outcome, found.plies)


def solve_batch(game: Game[S, M], states: Sequence[S], *, weak: bool = False,
                table_bits: int | None = None, prefault: bool = False) -> BatchResult:
    """Solve each state for its value alone, each from an empty table, in one compiled loop
    (Pascal Pons' benchmark: value and node count, no best move). Needs a compiled form.

    ``prefault`` writes the table's memory before the loop, so that no page fault lands inside
    a timed solve (benchmarks).
    """
    form = _compiled_form(game)
    if isinstance(form, str):
        raise ValueError(f"solve_batch needs the compiled tier: {form}")
    bits = DEFAULT_OPTIONS.tuning.table_bits if table_bits is None else table_bits
    encoded = [form.encode(state) for state in states]
    with _POOL.of(form.kernel, bits).engine() as engine:
        if prefault:
            engine.prefault()
        return engine.solve_many(encoded, weak=weak)


def tier_for(game: Game[Any, Any], options: SearchOptions | None = None, **changes: Any) -> Tier:
    """The tier a search of ``game`` with these options runs on (raises :class:`ValueError`
    when the options insist on a tier that cannot run it)."""
    return _plan(game, _with_changes(options, changes), None).tier


class SessionBusyError(RuntimeError):
    """A call on a :class:`SearchSession` from the thread that holds it already: an iterator
    of :meth:`SearchSession.iterate` paused in this thread, or a call from inside the
    session's own search (a tracer, the game's code). Waiting would wait for ever, so the call
    raises instead; the message says what to do."""


class SearchSession(Generic[S, M]):
    """A series of searches of one game that keep what they learn from one to the next.

    A player in a game searches one position after another: the transposition table, killer
    moves and history carry over from move to move, so each search is cheaper (the values
    found are the same as a fresh search's; the node counts are smaller). The session keeps
    its engines until :meth:`close` (or the end of a ``with`` block).

    ``options`` and keyword changes are the session's defaults; each call may change them
    further (``session.search(state, exact_root=True)``). ``database``: a solution database
    that :meth:`search` probes first, as :func:`search` does.

    **One call at a time.** A session is held by one call at a time: by :meth:`search` while
    it runs, and by an iterator of :meth:`iterate` from its first report until it is
    finished, closed (``it.close()``) or garbage-collected. A call from another thread waits
    until the session is free. A call from the thread that holds it — the usual case: an
    iterator paused in this thread, then ``session.search()`` — would wait for itself, so it
    raises :class:`SessionBusyError` at once, saying so. Finish or close the iterator first,
    or search with a second session (or :func:`search`, whose engines are its own). Only
    :meth:`close` in that thread is allowed: it closes the paused iterator first (so that a
    ``with`` block may end with an iterator left open).
    """

    def __init__(self, game: Game[S, M], options: SearchOptions | None = None, *,
                 database: Probe[S, M] | None = None, **changes: Any) -> None:
        self.game = game
        self.options = _with_changes(options, changes)
        """The session's default options."""
        self.database = database
        """The solution database searches probe first (``None``: none)."""
        self._python: dict[tuple[bool, Any], Engine[S, M]] = {}
        self._compiled: tuple[Engines, CompiledEngine] | None = None
        self._lock = threading.Lock()
        self._holder: threading.Thread | None = None
        """The thread holding the session: the one running a call, or the one that last
        advanced the iterator that holds it (the thread object, not its ident, which a new
        thread may reuse once this one has ended)."""
        self._paused: weakref.ref[Generator[Iteration[M], None, None]] | None = None
        """The iterator holding the session while it waits between two reports."""
        _plan(game, self.options, None)  # options this game cannot search fail now

    @property
    def tier(self) -> Tier:
        """The tier the session's default options search on."""
        return _plan(self.game, self.options, None).tier

    def search(self, state: S | None = None, *, tracer: Tracer[S, M] | None = None,
               **changes: Any) -> SearchResult[M]:
        """Search ``state`` (default: the initial state), as :func:`search` does."""
        options = _with_changes(self.options, changes) if changes else self.options
        if self.game.search_time is not None:
            options = _budgeted(self.game, options)
        root = self.game.initial_state() if state is None else state
        self._hold("search")
        try:
            if self.database is not None or options.book:
                found = _probe(self.game, self.database, root, options, tracer)
                if found is not None:
                    return found
            return _plan(self.game, options, tracer).search(root, self)
        finally:
            self._let_go()

    def iterate(self, state: S | None = None, *, tracer: Tracer[S, M] | None = None,
                stop: StopSignal | None = None,
                **changes: Any) -> Generator[Iteration[M], None, None]:
        """A report per depth, as :func:`iterate` gives (``stop`` too). The iterator holds
        the session from its first report until it is finished or closed (``close()``; see
        "One call at a time" above); the session's database, if any, is probed first."""
        options = _with_changes(self.options, changes) if changes else self.options
        root = self.game.initial_state() if state is None else state
        plan = _plan(self.game, options, tracer)
        mine: list[weakref.ref[Generator[Iteration[M], None, None]]] = []
        reports = self._reports(plan, root, options, tracer, mine, stop)
        mine.append(weakref.ref(reports))  # weak: an abandoned iterator is freed at once
        return reports

    def _reports(self, plan: _Plan[S, M], root: S, options: SearchOptions,
                 tracer: Tracer[S, M] | None,
                 mine: list[weakref.ref[Generator[Iteration[M], None, None]]],
                 stop: StopSignal | None) -> Generator[Iteration[M], None, None]:
        """The generator :meth:`iterate` returns (``mine`` refers to it, so that
        :meth:`close` can close it while it is paused)."""
        self._hold("iterate")
        reports: Iterator[Iteration[M]] = iter(())
        try:
            found = None
            if self.database is not None or options.book:
                found = _probe(self.game, self.database, root, options, tracer)
            reports = (plan.iterate(root, self, stop) if found is None
                       else iter((_database_report(found),)))
            for report in reports:
                self._paused = mine[0]
                yield report
                # Resumed, maybe by another thread: that thread holds the session now.
                self._paused = None
                self._holder = threading.current_thread()
        finally:
            self._paused = None
            close = getattr(reports, "close", None)
            if close is not None:
                close()  # the engine's own generator ends before another call may use it
            self._let_go()

    def prepare(self) -> None:
        """Load (or, the first time, compile) what the session's searches need now, so that
        the wait comes before the first search rather than inside its time budget."""
        plan = _plan(self.game, self.options, None)
        self._hold("prepare")
        try:
            if isinstance(plan, _CompiledPlan):
                self._compiled_engine(plan).load()
        finally:
            self._let_go()

    @contextmanager
    def shared(self) -> Iterator[list[SharedSearcher[S, M]]]:
        """Searchers that solve different positions at once, one per thread the session's
        options give (``threads``), each to be called from a thread of its own: the compiled
        engine's workspaces over the session's one table
        (:meth:`gametree.compiled.CompiledEngine.shared`), so that each solve finds what the
        others have proved. For exact solves to the end of the game on the compiled tier (no
        depth, time or node budget): each answer is a :meth:`search`'s, whatever the others
        stored. The session is held until the block ends; a searcher's
        :meth:`SharedSearcher.stop` ends its solve from another thread (the searchers cannot
        hear Ctrl-C: the thread that waits for them does)."""
        options = self.options
        plan = _plan(self.game, options, None)
        if not isinstance(plan, _CompiledPlan) or self.game.search_time is not None or \
                options.budgeted:
            raise ValueError("shared searches are exact solves on the compiled tier: no "
                             "depth, time or node budget")
        self._hold("shared")
        try:
            with self._compiled_engine(plan).shared() as engines:
                yield [SharedSearcher(self, plan, engine) for engine in engines]
        finally:
            self._let_go()

    def clear(self) -> None:
        """Forget what earlier searches learnt (tables, killer moves, history)."""
        self._hold("clear")
        try:
            for engine in self._python.values():
                engine.clear()
            if self._compiled is not None:
                self._compiled[1].new_search()
        finally:
            self._let_go()

    def close(self) -> None:
        """Give the session's compiled engine back to the pool; the session stays usable. An
        iterator of :meth:`iterate` paused in this thread is closed first."""
        paused = self._paused
        if paused is not None and self._holder is threading.current_thread():
            iterator = paused()
            if iterator is not None:
                iterator.close()  # runs its ``finally``: the session is free again
        self._hold("close")
        try:
            if self._compiled is not None:
                engines, engine = self._compiled
                engines.put(engine)
                self._compiled = None
            self._python.clear()
        finally:
            self._let_go()

    def __enter__(self) -> SearchSession[S, M]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- holding the session ------------------------------------------------------------------

    def _hold(self, call: str) -> None:
        """Take the session for ``call``, waiting while another thread holds it; raise
        :class:`SessionBusyError` if this thread holds it already (it would wait for ever)."""
        me = threading.current_thread()
        if self._holder is me:  # only this thread sets it to itself: no race
            if self._paused is not None:
                raise SessionBusyError(
                    f"session.{call}() while an iterator of session.iterate() is paused in "
                    f"this thread (the iterator holds the session until it ends): run it to "
                    f"its end or close it (it.close()) first, or use another SearchSession")
            raise SessionBusyError(
                f"session.{call}() from inside the session's own search in this thread (a "
                f"tracer or the game calling back): use another SearchSession, or "
                f"gametree.search")
        self._lock.acquire()
        self._holder = me

    def _let_go(self) -> None:
        self._holder = None
        self._lock.release()

    # -- the engines a session keeps (called by the session's holder) --------------------------

    def _python_engine(self, options: SearchOptions) -> Engine[S, M]:
        key = (options.by_distance, options.tuning)
        engine = self._python.get(key)
        if engine is None:
            engine = _new_engine(self.game, options)
            self._python[key] = engine
        return engine

    def _compiled_engine(self, plan: _CompiledPlan[S, M]) -> CompiledEngine:
        kept = self._compiled
        if kept is not None and kept[0].key == plan.engines.key:
            return kept[1]
        if kept is not None:
            kept[0].put(kept[1])
        engine = plan.engines.take()
        # A pooled engine holds the table of whoever used it last: the session starts from
        # what it searches itself (its node counts must not depend on other searches).
        engine.new_search()
        self._compiled = (plan.engines, engine)
        return engine


class SharedSearcher(Generic[S, M]):
    """One of :meth:`SearchSession.shared`'s searchers: it solves positions in the thread
    that calls it, over the table it shares with the others."""

    def __init__(self, session: SearchSession[S, M], plan: _CompiledPlan[S, M],
                 engine: CompiledEngine) -> None:
        self._game = session.game
        self._database = session.database
        self._plan = plan
        self._engine = engine

    def search(self, state: S) -> SearchResult[M]:
        """Solve ``state`` as :meth:`SearchSession.search` does (a database or book probed
        first)."""
        options = self._plan.options
        if self._database is not None or options.book:
            found = _probe(self._game, self._database, state, options, None)
            if found is not None:
                return found
        form = self._plan.form
        return self._engine.run_search(form.encode(state), options, False, form, state)

    def stop(self) -> None:
        """End this searcher's solve now, from another thread: it raises
        :class:`gametree.compiled.engine.SearchStoppedError`."""
        self._engine.stop()


# -- options and plans ---------------------------------------------------------------------


def _with_changes(options: SearchOptions | None, changes: dict[str, Any]) -> SearchOptions:
    if options is None:
        return SearchOptions(**changes) if changes else DEFAULT_OPTIONS
    if not isinstance(options, SearchOptions):
        raise ValueError(f"options must be a SearchOptions, got {options!r}")
    return replace(options, **changes) if changes else options


class _Plan(Generic[S, M]):
    """How searches of one game with one set of options run: on which tier, with what."""

    tier: Tier

    def __init__(self, game: Game[S, M], options: SearchOptions,
                 tracer: Tracer[S, M] | None) -> None:
        self.game = game
        self.options = options
        self.tracer = tracer

    def search(self, root: S, session: SearchSession[S, M] | None,
               progress: ProgressListener | None = None) -> SearchResult[M]:
        """One search of ``root`` (with the session's engines, if any)."""
        raise NotImplementedError

    def iterate(self, root: S, session: SearchSession[S, M] | None,
                stop: StopSignal | None = None) -> Iterator[Iteration[M]]:
        """A report per depth, until ``stop`` is set (see :func:`iterate`)."""
        raise NotImplementedError


class _EnginePlan(_Plan[S, M]):
    """The Python tier's engine. Engines of one-shot searches are kept idle between searches
    and emptied before each (building one costs more than a small search)."""

    tier: Tier = "python"

    def __init__(self, game: Game[S, M], options: SearchOptions,
                 tracer: Tracer[S, M] | None) -> None:
        super().__init__(game, options, tracer)
        self._idle: list[Engine[S, M]] = []  # pop and append are atomic: no lock needed

    def _borrow(self) -> Engine[S, M]:
        try:
            return self._idle.pop()  # emptied when it was given back: as new
        except IndexError:
            return _new_engine(self.game, self.options)

    def _give_back(self, engine: Engine[S, M]) -> None:
        # Emptied now: the next search depends on nothing searched before, and the table's
        # memory is freed while the engine waits.
        engine.clear()
        self._idle.append(engine)

    def search(self, root: S, session: SearchSession[S, M] | None,
               progress: ProgressListener | None = None) -> SearchResult[M]:
        options = self.options
        if session is not None:
            return session._python_engine(options).run_search(root, options, self.tracer)
        engine = self._borrow()
        try:
            return engine.run_search(root, options, self.tracer)
        finally:
            self._give_back(engine)

    def iterate(self, root: S, session: SearchSession[S, M] | None,
                stop: StopSignal | None = None) -> Iterator[Iteration[M]]:
        options = self.options
        if options.weak:
            raise ValueError("a weak solve gives one answer, not a report per depth")
        engine = self._borrow() if session is None else session._python_engine(options)
        try:
            yield from engine.iterate(
                root, depth=options.depth, time=options.time, nodes=options.nodes,
                exact_root=options.exact_root, seed=options.seed, tracer=self.tracer,
                stop=stop, line=options.line)
        finally:
            if session is None:
                self._give_back(engine)


def _new_engine(game: Game[S, M], options: SearchOptions) -> Engine[S, M]:
    # The Python tier's engine, imported for its first search: a compiled search needs none
    # of it (a tenth of a compiled solve's imports).
    from .engine.engine import Engine  # noqa: PLC0415

    tuning = options.tuning
    return Engine(game, by_distance=options.by_distance, table=tuning.table,
                  iterative=tuning.iterative, window=tuning.window, pvs=tuning.pvs,
                  killers=tuning.killers, history=tuning.history,
                  chance_pruning=options.chance_pruning)


class _ReferencePlan(_Plan[S, M]):
    """A reference algorithm (minimax, alphabeta, negamax): one search to the depth asked
    for, or, with a time budget or per-depth reports, iterative deepening
    (:mod:`gametree.reference.deepening`)."""

    tier: Tier = "python"

    def _run(self, root: S, depth: int | None) -> SearchResult[M]:
        options = self.options
        extra: dict[str, Any] = {}
        if not options.fail_soft:
            extra["fail_soft"] = False
        if (options.exact_root or options.seed is not None) and \
                "exact_root" in ALGORITHMS[options.algorithm].options:
            extra["exact_root"] = True
        run = ALGORITHMS[options.algorithm].run
        assert run is not None  # only the engine has none, and it has a plan of its own
        try:
            result = run(self.game, root, depth=depth, by_distance=options.by_distance,
                         seed=options.seed, tracer=self.tracer, **extra)
        except RecursionError:
            # Two Python frames a ply (the algorithm and its move loop), against the engine's one.
            raise search_too_deep(self.game, root,
                                  (sys.getrecursionlimit() - 100) // 2) from None
        check_line(self.game, root, result.pv)  # a line that comes back: the game never ends
        if depth is not None and not (result.exhaustive or result.complete):
            # Values at the depth limit, the game's heuristic behind them: never exact.
            result = replace(result, moves=depth_limited(
                result.moves, depth, final=False, by_distance=options.by_distance))
        return result

    def search(self, root: S, session: SearchSession[S, M] | None,
               progress: ProgressListener | None = None) -> SearchResult[M]:
        options = self.options
        if options.time is None:
            return self._run(root, options.depth)
        totals = SearchStats(iterations=0)
        steps = []
        try:
            for step in self._deepening(root, totals):
                steps.append(step)
        except TooDeepError:
            if not steps:
                raise
            # As deep as Python's recursion allows: the deepest completed depth answers.
            totals.stopped_by = None
            result, last = steps[-1]
            return replace(result, stats=replace(totals, seconds=last.seconds),
                           depth=last.depth)
        result, last = steps[-1]
        # As the engines report it: the depth asked for, or the deepest completed when the
        # budget ended the deepening first.
        depth = last.depth if totals.stopped_by is not None else options.depth
        return replace(result, stats=replace(totals, seconds=last.seconds), depth=depth)

    def iterate(self, root: S, session: SearchSession[S, M] | None,
                stop: StopSignal | None = None) -> Iterator[Iteration[M]]:
        totals = SearchStats(iterations=0)
        return _until(stop, (report for _result, report in self._deepening(root, totals)))

    def _deepening(self, root: S, totals: SearchStats) -> Iterator[tuple[SearchResult[M],
                                                                           Iteration[M]]]:
        """Deepen under the options' budget; ``totals`` adds up the iterations' counters."""
        from .reference.deepening import deepening  # noqa: PLC0415 - as _new_engine's Engine

        options = self.options
        first_growth = max(2.0, float(len(self.game.moves(root))))
        for step in deepening(lambda depth: self._run(root, depth), budget=options.time,
                              max_depth=options.depth, first_growth=first_growth,
                              clock=time.perf_counter):
            result, stats = step.result, step.result.stats
            for name in ("nodes", "leaves", "evaluations", "cutoffs", "first_move_cutoffs"):
                setattr(totals, name, getattr(totals, name) + getattr(stats, name))
            totals.iterations += 1
            totals.depth_reached = step.depth
            if step.stopped == "time":
                totals.stopped_by = "time"
            report: Iteration[M] = Iteration(
                depth=step.depth, value=result.value, best_move=result.best_move,
                pv=result.pv, moves=result.moves, nodes=totals.nodes, seconds=step.seconds,
                table_entries=0, table_hits=0, complete=result.complete,
                outcome=result.outcome, plies=result.plies)
            yield result, report


class _CompiledPlan(_Plan[S, M]):
    """The compiled engine on the game's kernel: states translated on the way in, moves on
    the way out."""

    tier: Tier = "compiled"

    def __init__(self, game: Game[S, M], options: SearchOptions, tracer: Tracer[S, M] | None,
                 form: CompiledForm[S, M]) -> None:
        super().__init__(game, options, tracer)
        self.form = form
        self.engines = _POOL.of(form.kernel, _table_bits(options), options.threads)

    def search(self, root: S, session: SearchSession[S, M] | None,
               progress: ProgressListener | None = None) -> SearchResult[M]:
        options = self.options
        kernel_root = self.form.encode(root)
        if session is not None:
            return session._compiled_engine(self).run_search(kernel_root, options, False,
                                                             self.form, root, progress)
        engine = self.engines.take()
        try:
            # fresh: the same answer, node counts included, whatever was searched before
            return engine.run_search(kernel_root, options, True, self.form, root, progress)
        finally:
            self.engines.put(engine)

    def iterate(self, root: S, session: SearchSession[S, M] | None,
                stop: StopSignal | None = None) -> Iterator[Iteration[M]]:
        options = self.options
        if options.weak:
            raise ValueError("a weak solve gives one answer, not a report per depth")
        kernel_root = self.form.encode(root)

        def reports(engine: CompiledEngine, fresh: bool) -> Iterator[Iteration[M]]:
            return engine.iterate(kernel_root, depth=options.depth,
                                  by_distance=options.by_distance,
                                  exact_root=options.exact_root, seed=options.seed,
                                  time=options.time, nodes=options.nodes, fresh=fresh,
                                  form=self.form, root=root, line=options.line)

        if session is not None:
            yield from _until(stop, reports(session._compiled_engine(self), False))
            return
        with self.engines.engine() as engine:
            yield from _until(stop, reports(engine, True))


def _until(stop: StopSignal | None,
           reports: Iterator[Iteration[M]]) -> Iterator[Iteration[M]]:
    """``reports`` until ``stop`` is set, for the searches that test it only between their
    iterations (the compiled tier's, the reference algorithms' deepening)."""
    if stop is None:
        yield from reports
        return
    try:
        for report in reports:
            yield report
            if stop.is_set():
                return
    finally:
        close = getattr(reports, "close", None)
        if close is not None:
            close()


def _table_bits(options: SearchOptions) -> int:
    """The compiled table's size that ``options`` ask for: from ``table_memory`` (the
    engine's :func:`~gametree.compiled.engine.table_bits_for`), else the tuning's."""
    if options.table_memory is None:
        return options.tuning.table_bits
    from .compiled.engine import table_bits_for  # noqa: PLC0415 - the compiled tier only

    return table_bits_for(options.table_memory)


# -- which plan: the tier choice -------------------------------------------------------------

_plans: weakref.WeakKeyDictionary[Any, dict[SearchOptions, _Plan[Any, Any]]] = (
    weakref.WeakKeyDictionary())
_plans_lock = threading.Lock()
PLANS_PER_GAME = 64
"""The most plans kept per game (one per set of options; the oldest made goes first): each is
small, but a long-running server would otherwise keep one for every option set it ever saw."""
_last_plan: tuple[Any, SearchOptions, _Plan[Any, Any]] | None = None
"""The plan of the latest search, found again without hashing its options (it keeps that one
game alive until another is searched)."""


def _plan(game: Game[S, M], options: SearchOptions,
          tracer: Tracer[S, M] | None) -> _Plan[S, M]:
    """How to search ``game`` with ``options``; plans without a tracer are kept per game."""
    global _last_plan  # noqa: PLW0603 - one reference, replaced whole: safe in threads
    if tracer is not None and tracer.enabled:
        return _choose(game, options, tracer)
    last = _last_plan
    if last is not None and last[0] is game and last[1] is options:
        return last[2]  # the same game and options as the call before: the common case
    try:
        plans = _plans.get(game)
    except TypeError:  # a game that cannot be a weak key (unhashable): choose every time
        return _choose(game, options, None)
    plan = None if plans is None else plans.get(options)
    if plan is None:
        plan = _choose(game, options, None)
        with _plans_lock:
            kept = _plans.setdefault(game, {})
            if len(kept) >= PLANS_PER_GAME:  # a server sees endless option sets (seeds, times)
                del kept[next(iter(kept))]  # the oldest goes (a dict keeps insertion order)
            kept[options] = plan
    _last_plan = (game, options, plan)
    return plan


def _choose(game: Game[S, M], options: SearchOptions,
            tracer: Tracer[S, M] | None) -> _Plan[S, M]:
    if options.algorithm != ENGINE:
        return _ReferencePlan(game, options, tracer)
    if options.tier == "python":
        return _EnginePlan(game, options, tracer)
    reason = _reason_against_compiled(game, options, tracer)
    form = None
    if reason is None:
        found = _compiled_form(game)
        if isinstance(found, str):
            reason = found
        else:
            form = found
    if form is not None:
        return _CompiledPlan(game, options, tracer, form)
    if options.tier == "compiled":
        raise OptionError("{compiled}: {reason}", reason=reason)
    refused = tier_refusal(options, "python", reason)  # say so, do not ignore an option
    if refused is not None:
        raise refused
    return _EnginePlan(game, options, tracer)


def _reason_against_compiled(game: Game[Any, Any], options: SearchOptions,
                             tracer: Tracer[Any, Any] | None) -> str | None:
    if game.has_chance:
        return f"{game.name} has chance moves, which the compiled tier does not search"
    if tracer is not None and tracer.enabled:
        return "a trace follows the search step by step, which only the Python tier records"
    if options.tuning.python_only:
        return "the engine tuning asked for exists on the Python tier only"
    return None


def _compiled_form(game: Game[S, M]) -> CompiledForm[S, M] | str:
    """The game's compiled form, or why it has none (:func:`compiled_form_of`)."""
    from .compiled.form import compiled_form_of  # noqa: PLC0415 - keeps `import gametree` light

    return compiled_form_of(game)


__all__ = ["DEFAULT_OPTIONS", "PLANS_PER_GAME", "Probe", "SearchSession", "SessionBusyError",
           "SharedSearcher", "iterate", "search", "solve_batch", "tier_for"]
