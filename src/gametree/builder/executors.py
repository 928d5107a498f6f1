"""Where a book's frontier positions are solved: this process (on one thread or several), a
local process pool, or Ray.

Every executor runs the same task — :func:`solve_states`: exact solves through the search
service (:func:`gametree.search` with the build's :class:`~gametree.SearchOptions`; the service
picks the tier as it does for ``solve``) — on chunks of positions,
and hands back each chunk's rows as it completes, in any order. The rows depend only on the
positions, so a database is the same whichever executor built it.

How the work is shared out (issue 11: two workers should be nearly twice as fast as one):

* **Exact solves on the compiled engine use threads over one table, not processes**
  (:func:`start`, :class:`SharedTableWorkers`): with ``--workers N`` (and ``threads`` left
  at 1) N threads of the builder each solve their own frontier positions with a workspace of
  one engine over its one table (:meth:`gametree.SearchSession.shared`). No process starts,
  and each solve finds in the table what the others proved: a 6x5 book to 3 plies built
  1.82-2.02x as fast on two workers as on one, against 1.20-1.39x on two processes, and 120
  consecutive positions of a 7x6 book at ply 8 were solved 1.93x as fast (one engine with two
  threads on each position: 1.65x; docs/solving.md). The rows are the same: they depend on
  no table entry. The rest of this list is about processes: other tiers, budgeted solves,
  ``threads`` given, Ray.
* **Workers start once per build, before the book is enumerated** (:func:`start`): each
  process (or Ray actor) imports numba, builds the game and loads its compiled engine (kernel
  loaded, table allocated) while the builder enumerates the book, then keeps that engine warm
  from one chunk to the next. The builder itself loads nothing when others solve.
* **The table stays warm too** (:func:`frontier_session`): a worker's next frontier position
  shares its first moves with the last ones, and what they proved is still in its table.
* **Dynamic scheduling** (:class:`Chunker`): tasks are handed out one at a time as workers
  finish (two in flight per worker, so none waits for the next), sized from the solve time
  measured so far — about :data:`TASK_SECONDS` of work each, so that a task's messages cost
  little beside its solves — and never more than a small share of what is left, so both
  workers stay busy to the end. ``--chunk N`` fixes the size instead.
* **The builder is a worker too** (local pools): ``--workers N`` starts N - 1 processes and
  the builder solves tasks itself between storing the others' rows in batched transactions
  (:mod:`gametree.builder.build`). Starting a process (numba imported, the engine loaded)
  costs seconds, which a short build felt: 2 workers built a 6x5 book to 3 plies 1.5-1.64x
  as fast as 1 when both were new processes. The processes start first, forked where that is
  safe (:func:`start_method`), and load their engines while the builder loads its own.

Workers ignore Ctrl-C: the builder, which owns the database, stops them.
"""

from __future__ import annotations

import atexit
import gc
import math
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ..db.store import RowTuple, key_text
from ..game import Game
from ..options import DEFAULT_TUNING, MAX_THREADS, SearchOptions
from ..registry import make
from .request import EXECUTORS, BuildPlan

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..result import SearchResult
    from ..service import SearchSession

Position = tuple[Any, int, str]
"""A frontier position to solve: ``(state, ply, moves line)``."""

Solved = tuple[list[RowTuple], float]
"""A finished task: its rows and the seconds its solves took in the worker."""

TASK_SECONDS = 0.5
"""Seconds of solving a task aims at once solve times are known."""

FIRST_TASK = 1
"""Positions in a task before any solve time is known (one: a solve may take minutes)."""

HEARTBEAT = 1.0
"""Seconds the builder waits for a task to end before it hears that none has (and may log)."""

LARGEST_TASK = 1000
"""The most positions in one task."""

IN_FLIGHT = 2
"""Tasks queued per worker: one solving, one waiting, so a worker never idles between two."""


class ExecutorError(ValueError):
    """An executor that cannot run here (Ray missing, a cluster that cannot be reached)."""


class Searcher(Protocol):
    """What solves a frontier position: a :class:`~gametree.SearchSession`, or one of its
    shared searchers (:meth:`~gametree.SearchSession.shared`)."""

    def search(self, state: Any, /) -> SearchResult[Any]:
        """The search's result for ``state``."""
        ...


FRONTIER_TABLE_MEMORY = 16 * 2**20
"""The compiled engine's table for a frontier's solves, unless the search options size it:
a frontier position's search (about a million positions 8 plies into Connect Four 7x6) gains
more from a table that stays in the processor's cache than from one that holds more: 8-11%
less time than the engine's default 64 MiB, one worker or two (5% more positions searched;
docs/solving.md)."""


def frontier_search(game: Game[Any, Any], search: SearchOptions) -> SearchOptions:
    """How a frontier position of ``game`` is solved: as ``search`` asks, without the line
    after its best move (a row keeps the value, distance and best move; the searches that
    confirm the line are 7-8% of an exact solve 8 plies into Connect Four 7x6), and on the
    compiled tier with a table of :data:`FRONTIER_TABLE_MEMORY` unless ``search`` sizes it."""
    from ..service import tier_for  # noqa: PLC0415 - the workers' import

    search = replace(search, line=False)
    if search.table_memory is None and search.tuning.table_bits == DEFAULT_TUNING.table_bits \
            and tier_for(game, search) == "compiled":
        search = replace(search, table_memory=FRONTIER_TABLE_MEMORY)
    return search


def solve_states(game: Game[Any, Any], search_options: SearchOptions,
                 positions: Iterable[Position],
                 session: Searcher | None = None) -> list[RowTuple]:
    """Solve each position exactly (value, distance, best move) with ``search_options`` and
    return its row; a search that proves nothing (stopped by a budget) is an error. With a
    ``session`` (:func:`frontier_session`), the solves share its table."""
    from ..service import search  # noqa: PLC0415 - the workers' import, not the builder's

    rows: list[RowTuple] = []
    for state, ply, line in positions:
        result = (search(game, state, search_options) if session is None
                  else session.search(state))
        if result.outcome is None:
            depth = "" if result.depth is None else f" (searched to depth {result.depth})"
            raise ValueError(f"the frontier position after {line!r} was not solved to the end "
                             f"of the game{depth}: a book stores exact values only, so its "
                             f"frontier search needs no depth, time or node budget, or one it "
                             f"can solve within")
        value = 1 if result.outcome == "win" else -1 if result.outcome == "loss" else 0
        best = "" if result.best_move is None else game.format_move(state, result.best_move)
        rows.append((key_text(game.key(state)), ply, line, value,
                     result.plies if value else None, best, "frontier"))
    return rows


def timed_solve(game: Game[Any, Any], search_options: SearchOptions,
                positions: list[Position],
                session: Searcher | None = None) -> Solved:
    """:func:`solve_states` and the seconds it took (for sizing the next tasks)."""
    began = time.perf_counter()
    rows = solve_states(game, search_options, positions, session)
    return rows, time.perf_counter() - began


def warm_up(game: Game[Any, Any], search_options: SearchOptions) -> None:
    """Load the compiled engine the solves will use (numba, the kernel, the table), so that
    the first task does not pay for it; a search on the Python tier needs nothing."""
    from ..service import SearchSession  # noqa: PLC0415 - imports numba when there is a kernel

    with SearchSession(game, search_options) as session:
        if session.tier == "compiled":
            session.prepare()  # the engine goes back to the service's pool, loaded


def frontier_session(game: Game[Any, Any],
                     search_options: SearchOptions) -> SearchSession[Any, Any] | None:
    """A worker's session for its frontier solves, its compiled engine loaded (see
    :func:`warm_up`): the table stays warm from one position to the next, so that neighbours
    on the frontier (which share their first moves, and many positions below) reuse what the
    last solves proved — about 1.4x less processor time on a 7x6 book to 8 plies
    (docs/solving.md). ``None`` where a solve's row could depend on what the table holds
    (each position is then solved afresh): on the Python tier, and under a budget (a node,
    time or depth limit may stop one search and not another). An exact solve's row on the
    compiled tier cannot: the value is the game's, and the best move the first, in the
    kernel's order, whose own exact test reaches it."""
    from ..service import SearchSession  # noqa: PLC0415 - the workers' import

    if not exact_on_compiled(game, search_options):
        warm_up(game, search_options)
        return None
    session: SearchSession[Any, Any] = SearchSession(game, search_options)
    session.prepare()
    return session


def exact_on_compiled(game: Game[Any, Any], search_options: SearchOptions) -> bool:
    """Whether the frontier's solves are exact solves on the compiled engine (no depth, time
    or node budget): rows that cannot depend on what the table holds, nor on how many threads
    share it (:func:`frontier_session`)."""
    from ..service import tier_for  # noqa: PLC0415 - the workers' import

    return not search_options.budgeted and tier_for(game, search_options) == "compiled"


class Chunker:
    """Hands the frontier out in tasks, one at a time, as workers ask for them.

    With ``fixed`` every task has that many positions. Otherwise the first tasks have
    :data:`FIRST_TASK` positions; later ones as many as the mean solve time so far says fill
    :data:`TASK_SECONDS`, but at most a ``1 / (4 * workers)`` share of the positions left, so
    that the last tasks are small and the workers finish together.

    ``lanes``: the frontier is cut into that many runs of consecutive positions, one per
    worker (or group of workers) that asks with its lane: a worker's tasks follow each other
    along the frontier, so that its warm table (:func:`frontier_session`) holds what its next
    position shares with its last ones. (Handed out in turn to two workers, a 7x6 frontier at
    ply 8 searched 15% more positions than in two halves.) A lane whose run is done takes the
    end of the longest run left, moving back from there.
    """

    def __init__(self, positions: list[Position], workers: int, fixed: int | None = None,
                 lanes: int = 1) -> None:
        self.positions = positions
        self.workers = max(1, workers)
        self.fixed = fixed
        count = max(1, lanes)
        cuts = [len(positions) * lane // count for lane in range(count + 1)]
        self.runs = [[cuts[lane], cuts[lane + 1]] for lane in range(count)]
        """Each lane's run not handed out yet: ``[first, end)``."""
        self.solved = 0
        self.seconds = 0.0

    @property
    def remaining(self) -> int:
        """Positions not handed out yet."""
        return sum(end - first for first, end in self.runs)

    def size(self) -> int:
        """How many positions the next task gets."""
        if self.fixed is not None:
            return max(1, self.fixed)
        if self.solved == 0 or self.seconds <= 0:
            by_time = FIRST_TASK
        else:
            by_time = int(TASK_SECONDS * self.solved / self.seconds)
        share = math.ceil(self.remaining / (4 * self.workers))
        return max(1, min(by_time, share, LARGEST_TASK))

    def take(self, lane: int = 0) -> list[Position] | None:
        """The next task of ``lane``, or ``None`` when every position has been handed out."""
        if self.remaining <= 0:
            return None
        size = self.size()
        run = self.runs[lane]
        if run[0] < run[1]:
            first = run[0]
            run[0] = min(first + size, run[1])
            return self.positions[first:run[0]]
        longest = max(self.runs, key=lambda other: other[1] - other[0])
        end = longest[1]
        longest[1] = max(longest[0], end - size)
        return self.positions[longest[1]:end]

    def record(self, count: int, seconds: float) -> None:
        """A task of ``count`` positions took ``seconds`` to solve."""
        self.solved += count
        self.seconds += seconds


class Workers:
    """Started workers: :meth:`run` solves positions on them; :meth:`close` stops them."""

    count: int = 1
    lanes: int = 1
    """How many runs of the frontier :meth:`run` asks its :class:`Chunker` for by lane."""

    def run(self, chunker: Chunker) -> Iterator[list[RowTuple]]:
        """Solve every position ``chunker`` hands out, yielding each task's rows as it ends
        (workers in other processes also yield an empty list after each :data:`HEARTBEAT`
        seconds without one: the builder's log goes on while long solves run)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers (a no-op for the builder's own process)."""

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class SerialWorkers(Workers):
    """The builder's own process (``--workers 1``)."""

    def __init__(self, game: Game[Any, Any], search_options: SearchOptions) -> None:
        self.game = game
        self.search_options = search_options
        self.session = frontier_session(game, search_options)

    def run(self, chunker: Chunker) -> Iterator[list[RowTuple]]:
        """Solve the tasks one after another here."""
        while (task := chunker.take()) is not None:
            rows, seconds = timed_solve(self.game, self.search_options, task, self.session)
            chunker.record(len(rows), seconds)
            yield rows

    def close(self) -> None:
        """Give the session's engine back; again: nothing."""
        if self.session is not None:
            self.session.close()
            self.session = None


class SharedTableWorkers(Workers):
    """``count`` threads of the builder's process, each solving tasks with a workspace of
    one compiled engine over its one table (:meth:`gametree.SearchSession.shared`): exact
    solves on the compiled tier only (:func:`exact_on_compiled`). The threads take
    consecutive tasks of one run of the frontier, so that neighbours solved at once share
    what they prove; the builder's thread stores the rows as they come, and on Ctrl-C (or
    any error) stops every solve and waits for the threads to end."""

    lanes = 1

    def __init__(self, game: Game[Any, Any], search_options: SearchOptions,
                 count: int) -> None:
        from ..service import SearchSession  # noqa: PLC0415 - the workers' import

        self.game = game
        self.count = count
        self.search_options = replace(search_options, threads=count)
        self.session: SearchSession[Any, Any] | None = SearchSession(game, self.search_options)
        self.session.prepare()

    def run(self, chunker: Chunker) -> Iterator[list[RowTuple]]:
        """Solve the tasks on the threads, yielding each task's rows as it ends (and an
        empty list after each :data:`HEARTBEAT` seconds without one)."""
        assert self.session is not None
        lock = threading.Lock()
        ended: queue.SimpleQueue[list[RowTuple] | BaseException | None] = queue.SimpleQueue()

        def solve(searcher: Searcher, done: threading.Event) -> None:
            try:
                while True:
                    with lock:
                        task = chunker.take()
                    if task is None:
                        return
                    rows, seconds = timed_solve(self.game, self.search_options, task, searcher)
                    with lock:
                        chunker.record(len(rows), seconds)
                    ended.put(rows)
            except BaseException as error:  # reported in the builder's thread
                ended.put(error)
            finally:
                ended.put(None)
                done.set()

        from ..compiled import interrupt  # noqa: PLC0415 - only where the engine is

        with self.session.shared() as searchers:
            finished = [threading.Event() for _ in searchers]
            threads = [threading.Thread(target=solve, args=(searcher, done), daemon=True,
                                        name=f"gametree-book-{number}")
                       for number, (searcher, done) in enumerate(zip(searchers, finished,
                                                                     strict=True))]
            started: list[threading.Event] = []
            try:
                # A KeyboardInterrupt inside Thread.start() could leave a thread unseen by
                # the wait below: SIGINT waits until every thread has started.
                with interrupt.deferred():
                    for thread, done in zip(threads, finished, strict=True):
                        thread.start()
                        started.append(done)
                running = len(started)
                while running:
                    try:
                        item = ended.get(timeout=HEARTBEAT)
                    except queue.Empty:
                        yield []  # still solving
                        continue
                    if item is None:
                        running -= 1
                    elif isinstance(item, BaseException):
                        raise item
                    else:
                        yield item
            finally:
                for searcher in searchers:
                    searcher.stop()
                interrupt.wait_all(started)

    def close(self) -> None:
        """Give the session's engine back; again: nothing."""
        if self.session is not None:
            self.session.close()
            self.session = None


# -- a worker process of the local pool --------------------------------------------------------

_worker_game: Game[Any, Any] | None = None
_worker_search = SearchOptions()
_worker_session: SearchSession[Any, Any] | None = None


def _start_worker(name: str, options: Mapping[str, Any], search_options: SearchOptions) -> None:
    """A pool worker's set-up, once per build: ignore Ctrl-C (the builder handles it), build
    the game and load its compiled engine."""
    global _worker_game, _worker_search, _worker_session  # noqa: PLW0603 - one per process
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_the_builder()
    _worker_game = make(name, **options)
    _worker_search = search_options
    _worker_session = frontier_session(_worker_game, search_options)
    # Exit at once when the pool stops: the interpreter's own shutdown with numba loaded
    # takes a second or two, which the builder would wait for. Registered last, this runs
    # first; results are already sent (the pool's result queue writes synchronously).
    atexit.register(os._exit, 0)


def _end_with_the_builder() -> None:
    """Make the operating system kill this worker when the builder ends, however it ends (a
    Ctrl-C that ends it at once while it loads a kernel, ``kill -9``): a worker must not go
    on solving for minutes, for nobody, holding the builder's output open. Linux only
    (``prctl``); elsewhere the builder's own :meth:`PoolWorkers.close` stops them."""
    import ctypes  # noqa: PLC0415 - in a pool's worker only
    import multiprocessing  # noqa: PLC0415

    parent = multiprocessing.parent_process()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux
        return
    if parent is not None and os.getppid() != parent.pid:  # it ended before the prctl
        os._exit(0)


_PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process receives when its parent ends."""


def _ready() -> int:
    """A task that returns once the worker has started (its set-up has run)."""
    return os.getpid()


def _work(task: list[Position]) -> Solved:
    assert _worker_game is not None
    return timed_solve(_worker_game, _worker_search, task, _worker_session)


class PoolWorkers(Workers):
    """``count`` local processes, started now: they load their engines while the builder
    enumerates the book. With ``local`` (the game, as the builder made it) the builder solves
    tasks too, between collecting the processes' rows: ``count + 1`` workers then."""

    def __init__(self, name: str, options: Mapping[str, Any], search_options: SearchOptions,
                 count: int, local: Game[Any, Any] | None = None) -> None:
        self.processes = count
        self.count = count + (local is not None)
        # The builder's own run, and the processes' (one process on two cores: a run each).
        self.lanes = 1 + (local is not None)
        self.pool_lane = self.lanes - 1
        self.local = local
        self.search_options = search_options
        self.session: SearchSession[Any, Any] | None = None
        # Imported here: a build on threads (the compiled engine's exact solves) starts
        # no process, and these modules are 13 ms of its start.
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
        from multiprocessing import get_context  # noqa: PLC0415

        self.pool = ProcessPoolExecutor(max_workers=count, mp_context=get_context(start_method()),
                                        initializer=_start_worker,
                                        initargs=(name, dict(options), search_options))
        # One task each makes the pool start every process at once (it starts one per task
        # submitted while none is idle); each loads its engine in its set-up.
        self.started = [self.pool.submit(_ready) for _ in range(count)]
        if local is not None:
            # The builder loads its own engine while the processes load theirs: both cores
            # work from the start (loading it first kept the second core idle 1-2 s).
            self.session = frontier_session(local, search_options)

    def run(self, chunker: Chunker) -> Iterator[list[RowTuple]]:
        """Solve the tasks on the pool (and here, with :attr:`local`), yielding each as it
        completes."""
        from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415 - see __init__

        pending: set[Future[Solved]] = set()
        try:
            for _ in range(IN_FLIGHT * self.processes):
                task = chunker.take(self.pool_lane)
                if task is None:
                    break
                pending.add(self.pool.submit(_work, task))
            while True:
                done: set[Future[Solved]] = set()
                if self.local is not None:
                    done = {future for future in pending if future.done()}
                    pending -= done
                    task = None if done else chunker.take(0)
                    if task is not None:  # the builder's turn: it would be idle else
                        rows, seconds = timed_solve(self.local, self.search_options, task,
                                                    self.session)
                        chunker.record(len(rows), seconds)
                        yield rows
                        continue
                if not done:
                    if not pending:
                        return
                    done, pending = wait(pending, HEARTBEAT, FIRST_COMPLETED)
                    if not done:
                        yield []  # still solving
                for future in done:
                    rows, seconds = future.result()
                    chunker.record(len(rows), seconds)
                    following = chunker.take(self.pool_lane)
                    if following is not None:
                        pending.add(self.pool.submit(_work, following))
                    yield rows
        finally:
            for future in pending:
                future.cancel()
            self.abandoned = bool(pending)

    abandoned = False
    """Whether :meth:`run` was stopped with tasks running (Ctrl-C, an error)."""

    def close(self) -> None:
        """Stop the processes; again: nothing. After an interrupted :meth:`run` they are
        killed at once (a frontier solve may take minutes: Ctrl-C must not wait for it, and
        its position is simply solved again by the next run)."""
        if self.closed:
            return
        self.closed = True
        if self.session is not None:
            self.session.close()
        if self.abandoned:
            for process in list(self.pool._processes.values()):  # no public way to stop them
                process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)
        # Free the pool's queues and locks now, not at the interpreter's exit: a builder that
        # ends with os._exit (the command line, once numba is loaded) would leave their
        # semaphores to multiprocessing's resource tracker, which warns about them on the
        # standard error the builder shares.
        del self.pool
        self.started = []
        gc.collect()

    closed = False
    """Whether :meth:`close` has run."""


def start_method() -> str:
    """How the pool's processes start: on Linux, forked while this process has not imported
    numba (the command line's case: a fork starts with gametree imported, half a second less
    to start than a new interpreter, and no semaphore left to the resource tracker if the
    builder is killed while they load); else spawned afresh: a process that imported numba
    may hold its threads and locks, which a fork would copy in whatever state they are, and
    macOS's system libraries are not safe to fork (Windows cannot)."""
    return "fork" if sys.platform == "linux" and "numba" not in sys.modules else "spawn"


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- Ray ---------------------------------------------------------------------------------------


class RayWorkers(Workers):
    """One Ray actor per worker on a cluster (``address``; default: the Ray instance this
    process started already, else a new local one), created now, each keeping its game and
    compiled engine between tasks."""

    def __init__(self, name: str, options: Mapping[str, Any], search_options: SearchOptions,
                 workers: int | None, address: str | None) -> None:
        ray = import_ray()
        if not ray.is_initialized():
            try:
                ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                         include_dashboard=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                first = str(error).splitlines()[0] if str(error) else repr(error)
                raise ExecutorError(f"cannot reach the Ray cluster at "
                                    f"{address or 'this machine'}: {first}") from None
        self.ray = ray
        self.count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.lanes = self.count  # an actor keeps its table: a run of the frontier each
        solver = _ray_solver(ray)
        self.actors = [solver.remote(name, dict(options), search_options)
                       for _ in range(self.count)]

    def run(self, chunker: Chunker) -> Iterator[list[RowTuple]]:
        """Solve the tasks on the actors, yielding each as it completes."""
        ray = self.ray
        running: dict[Any, int] = {}  # each task's actor, by its index (and lane)
        for _ in range(IN_FLIGHT):
            for lane, actor in enumerate(self.actors):
                task = chunker.take(lane)
                if task is not None:
                    running[actor.solve.remote(task)] = lane
        while running:
            ready, _ = ray.wait(list(running), num_returns=1, timeout=HEARTBEAT)
            if not ready:
                yield []  # still solving
                continue
            done = ready[0]
            lane = running.pop(done)
            rows, seconds = ray.get(done)
            chunker.record(len(rows), seconds)
            following = chunker.take(lane)
            if following is not None:
                running[self.actors[lane].solve.remote(following)] = lane
            yield rows

    def close(self) -> None:
        """Stop the actors (Ray itself stays up for whoever started it); again: nothing."""
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []


def import_ray() -> Any:
    """The ``ray`` module, or :class:`ExecutorError` with how to install it."""
    try:
        import ray  # noqa: PLC0415 - an optional extra
        import ray.util  # noqa: PLC0415
    except ImportError:
        raise ExecutorError("--executor ray needs Ray, which is not installed: "
                            "pip install 'gametree[ray]'") from None
    return ray


_solver_class: Any = None


def _ray_solver(ray: Any) -> Any:
    """The Ray actor class (defined once Ray is imported)."""
    global _solver_class  # noqa: PLW0603 - made once per process
    if _solver_class is None:
        class Solver:
            """A Ray actor: one game, its compiled engine loaded at once and kept warm."""

            def __init__(self, name: str, options: dict[str, Any],
                         search_options: SearchOptions) -> None:
                self.game = make(name, **options)
                self.search_options = search_options
                self.session = frontier_session(self.game, search_options)

            def solve(self, task: list[Position]) -> Solved:
                return timed_solve(self.game, self.search_options, task, self.session)

        _solver_class = ray.remote(num_cpus=1)(Solver)
    return _solver_class


def start(plan: BuildPlan, *, game: Game[Any, Any], name: str, options: Mapping[str, Any],
          search: SearchOptions) -> Workers:
    """Start the workers of ``plan`` (its executor and worker count) for ``game`` (registry
    ``name`` and ``options``: how other processes make it), solving with ``search``; they
    begin loading their engines at once, in the background."""
    search = frontier_search(game, search)
    if plan.executor == "ray":
        return RayWorkers(name, options, search, plan.workers, plan.address)
    if plan.executor != "local":
        raise ExecutorError(f"unknown executor {plan.executor!r}; executors: "
                            f"{', '.join(EXECUTORS)}")
    count = default_workers() if plan.workers is None else plan.workers
    if count <= 1:
        return SerialWorkers(game, search)
    if search.threads == 1 and exact_on_compiled(game, search):
        # Threads over one table beat as many processes with a table each: no process to
        # start, and every solve finds what the others proved (docs/solving.md, "Parallel
        # and distributed builds"). The rows are the same: they depend on no table entry.
        return SharedTableWorkers(game, search, min(count, MAX_THREADS))
    # The builder is one of the workers: it solves between collecting the others' rows, so
    # that one process fewer is started (a short build felt the start of every process).
    # A Ctrl-C while it loads numba ends it at once (gametree.compiled.interrupt): the
    # processes then end with it (_end_with_the_builder).
    return PoolWorkers(name, options, search, count - 1, local=game)


__all__ = ["EXECUTORS", "FIRST_TASK", "IN_FLIGHT", "LARGEST_TASK", "TASK_SECONDS", "Chunker",
           "ExecutorError", "PoolWorkers", "Position", "RayWorkers", "RowTuple", "Searcher",
           "SerialWorkers", "SharedTableWorkers", "Solved", "Workers", "default_workers",
           "exact_on_compiled", "frontier_session", "import_ray", "solve_states", "start",
           "start_method", "timed_solve", "warm_up"]
