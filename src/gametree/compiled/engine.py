"""The compiled engine from Python: solve, search and analyse kernel states.

:class:`CompiledEngine` owns the workspace of one kernel (transposition table, move buffers,
counters: see ``_engine.py``) and calls its compiled entry points. Results come back as
:class:`gametree.SearchResult` and per-depth reports as :class:`gametree.engine.Iteration`, on
the same value scale and with the same fields and statistics as the Python tier's (the result's
``tier`` says ``compiled``). Most programs search through :func:`gametree.search`, which picks
this engine by itself when a game has a kernel; this class works on kernel states directly.

Two ways to solve:

* :meth:`CompiledEngine.search` (and :meth:`CompiledEngine.iterate`, a report per depth) give a
  full result: the value, the best move, every root move's value (exact or a bound) and the
  principal variation. The root is searched by one compiled call (``search_root``);
* :meth:`CompiledEngine.score` and :meth:`CompiledEngine.solve_many` give only the value and the
  node count, which is what Pons' benchmark measures.

Weak solving (``weak=True``) proves only win, draw or loss: the result then carries plain
values (1, 0, -1 for the player to move) with ``by_distance`` false, as a search with distance
scoring off would report them.

The table keeps its entries from one search to the next (they stay true) as long as the
scoring mode stays the same: entries stored under distance scoring hold values that plain
scoring reads differently, so a search in the other mode empties the table first.
"""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..game import ContractError
from ..limits import (
    Limits,
    limits_of,
    proven_moves,
    settled,
    soft_deadline_passed,
    stop_after,
)
from ..options import DEFAULT_TABLE_BITS, MAX_THREADS
from ..result import (
    Bound,
    Iteration,
    MoveValue,
    ProgressListener,
    SearchResult,
    SearchStats,
    SolveProgress,
    StopReason,
    depth_limited,
)
from ..values import WIN, Outcome, Value, break_tie, classify
from . import build, interrupt, native, words
from .form import CompiledForm
from .kernel import ONGOING, Kernel, is_state

if TYPE_CHECKING:
    from ..options import SearchOptions

ALGORITHM = "engine"
"""The ``algorithm`` name of compiled results (the tier is ``compiled``)."""

# The head of the workspace (mirrors the C_* slots of _engine.py).
_C_NODES, _C_LEAVES, _C_EVALUATIONS, _C_CUTOFFS, _C_FIRST_CUTOFFS, _C_TABLE_HITS = range(6)
_C_ABORTED = 6
_C_NODE_LIMIT = 8
_C_BY_DISTANCE = 9
_C_TABLE_MASK = 11
_C_TABLE_SHIFT = 12
_C_DIRTY_OVERFLOW = 13
_C_MOVES = 14
_C_DIRTY = 16
_C_DIRTY_CAPACITY = 17
_C_TABLE = 18
_C_ENTRIES = 19
_C_DEEPEST = 20
_C_OVERFLOW = 21
_C_INTERRUPT_CHECK = 22
_C_INTERRUPTED = 23
_C_BUSY = 24
_C_BUSY_MASK = 25
_C_SPLIT_LEFT = 26
_C_STACK = 27
_C_SPLIT_TOP = 28
_C_FIRST_LEFT = 31
_C_WINDOWS, _C_WINDOW_LOW, _C_WINDOW_HIGH, _C_WINDOW_TEST = range(32, 36)
_C_LAST_KNOWN, _C_LAST_SCORE, _C_LAST_MOVER = range(36, 39)
_C_TABLE_BITS = 39
_C_SMALL_BITS = 40
_HEAD_SIZE = 41
_S_SIZE = 6
_BUSY_BITS = 12
_LINE_WORDS = 8
"""Words in a 64-byte cache line."""
_SPLIT_LEFT = 16
"""Threads split the work (ABDADA) at nodes with at least this many plies left to play (the
kernel's ``plies_left``, else ``max_plies`` less the ply); below, a subtree is too small to
share (12 to 24 gave the same on Pons' L1_R3, 12 to 20 on whole 7x5 and 6x6 boards: see
docs/benchmarks.md, "Two threads")."""
_FIRST_LEFT = 20
"""... and with fewer than this many plies left, a thread defers even a node's first move when
another thread is searching it (above, it joins that search, which splits further down; 16 to
26 gave the same on whole boards). Helper threads keep the kernel's move order: reordering the
moves near the root per thread (jitter) made the main thread search 20-70% more positions."""
_EXHAUSTIVE = 1 << 40
_INF = WIN + 2
_MAX_DEPTH = 250
_NO_LIMIT = 1 << 62
# The root's answer (mirrors the R_*, B_* and MODE_* constants of _engine.py).
_R_VALUE, _R_COUNT, _R_BEST, _R_PV_LENGTH, _R_PROBED, _R_COUNTERS = range(6)
_R_ENTRIES = _R_COUNTERS + 9
_B_EXACT = 0
_BOUNDS: tuple[Bound, Bound] = ("exact", "upper")
_MODE_WEAK, _MODE_EXACT_ROOT, _MODE_LINE, _MODE_FRESH = 1, 2, 4, 8

ENTRY_BYTES = 16
"""Bytes one transposition-table entry takes (two 64-bit words: see ``_engine.py``)."""


def table_bits_for(memory: int) -> int:
    """The table size (``table_bits``: ``2**table_bits`` entries) of the largest table that
    fits in ``memory`` bytes, within the engine's 8..30 (the one place a size in bytes becomes
    a table: :attr:`gametree.SearchOptions.table_memory`).

    >>> table_bits_for(64 * 2**20), table_bits_for(2**30), table_bits_for(100 * 2**20)
    (22, 26, 22)
    """
    entries = max(1, memory // ENTRY_BYTES)
    return min(30, max(8, entries.bit_length() - 1))


def resolve_threads(threads: int) -> int:
    """The number of threads ``threads`` asks for: itself, or for 0 every core of the machine
    (at least 1)."""
    return threads if threads > 0 else max(1, os.cpu_count() or 1)


@dataclass
class BatchResult:
    """What :meth:`CompiledEngine.solve_many` returns."""

    values: list[int]
    """The value of each state (weak: 1, 0 or -1)."""

    nodes: list[int]
    """The nodes each solve visited (one per negamax call, as Pons counts)."""

    solve_seconds: list[float]
    """Each solve's time, measured inside the compiled loop (the table clearing before each
    solve is not included, as in Pons' benchmark)."""

    total_seconds: float
    """Wall-clock time of the whole compiled loop, clearing included."""


def _line_aligned(padded: words.Words, size: int, word: int) -> words.Words:
    """The ``size`` words of ``padded`` (an array of ``size + 8`` words) whose ``word``-th
    starts a 64-byte cache line (whatever the alignment of the memory, which need not be a
    page's: the placement is made here)."""
    skew = (-(padded.address + 8 * word) % (8 * _LINE_WORDS)) // 8
    aligned: words.Words = padded[skew:skew + size]
    return aligned


class CompiledEngine:
    """The compiled search of one kernel game, with its own transposition table.

    Creating one compiles the kernel's engine, or loads it from the on-disk cache (see
    :mod:`gametree.compiled.build`). ``table_bits`` sets the table size: ``2**table_bits``
    entries of 16 bytes. The table is kept from one search to the next while the scoring mode
    stays the same; :meth:`new_search` empties it. An engine is not safe to use from two
    threads at once (:func:`gametree.search` gives each thread an engine of its own).

    The table's memory comes from the operating system as untouched zero pages, so a new
    engine is ready at once and a short search pays only for the pages it uses.
    ``prefault=True`` writes every page up front instead (a quarter of a second for the
    default 128 MiB): for benchmarks, so that no page fault lands inside a timed search.

    ``threads`` (1 to :data:`MAX_THREADS`; 0: every core) searches a position to the end of
    the game (:meth:`search` and :meth:`iterate` without a depth or budget, strong or weak)
    with that many threads sharing the table (ABDADA: ``_engine.py``, "Threads"). The value,
    outcome, distance and best move are the one-thread search's; the node counts, summed over
    the threads, vary from run to run. Depth-limited and budgeted searches, :meth:`score` and
    :meth:`solve_many` run on one thread.
    """

    def __init__(self, kernel: Kernel, *, table_bits: int = DEFAULT_TABLE_BITS,
                 prefault: bool = False, threads: int = 1) -> None:
        if not 8 <= table_bits <= 30:
            raise ValueError(f"table_bits must be within 8..30, got {table_bits}")
        if isinstance(threads, bool) or not isinstance(threads, int) or \
                not 0 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be a whole number within 0..{MAX_THREADS} "
                             f"(0: every core), got {threads!r}")
        self.kernel = kernel
        self._module, needs_compiling = build.engine_module(kernel)
        self._arrays: Callable[[words.Words], Any] = _as_given
        """Turns the engine's arrays into what its module's code takes: as they are for
        images; numpy's view of the same memory for numba (imported with it)."""
        if not isinstance(self._module, native.NativeEngine):
            self._arrays = native.numpy_view
        self.threads = resolve_threads(threads)
        """Threads that search a position to the end of the game."""
        self._helpers: list[Any] = []
        """The helper threads' workspaces (views sharing the table with :attr:`_ws`)."""
        self._ws = self._workspace(kernel, table_bits, prefault)
        self._buffer = self._zeros(kernel.max_moves)
        self._state_size = kernel.state_size
        self._out = self._zeros(self._module.R_SIZE)
        self._helper_out = [self._zeros(self._module.R_SIZE) for _ in self._helpers]
        """The helpers' answers (unused: the main search's is the answer)."""
        self._empty = True
        """True while the table holds nothing (so that emptying it can be skipped)."""
        self._threads_ready = False
        """True once the entry points of multi-threaded solves are loaded in this process."""
        self.ready_at: float | None = None
        """When (``time.perf_counter``) this engine last loaded its entry points before a
        budgeted search (``None``: it never needed to)."""
        self.started: float | None = None
        """When the clock of this engine's latest search started (after any loading)."""
        self._sharing = False
        """True for one of :meth:`shared`'s engines: it searches without the interpreter lock,
        over another engine's table."""
        if needs_compiling:
            # Compile every entry point now, so that the cache is complete and no later
            # process (nor a later call in this one) pauses to compile. A cached kernel is
            # loaded one entry point at a time, on first use. (The threaded solve's are
            # compiled by the first engine with several threads: most programs never use
            # them, and they cost a fifth of a kernel's compile.)
            with build.compiling(self._module):
                self._warm_up()

    def _zeros(self, shape: int | tuple[int, int]) -> Any:
        """A new int64 array of zeros (``shape`` items, or ``(rows, columns)``), in the form
        the module's code takes."""
        return self._arrays(words.zeros(shape))

    def _workspace(self, kernel: Kernel, table_bits: int, prefault: bool) -> Any:
        """The main search's workspace, and with several threads the helpers' (in
        :attr:`_helpers`). One array holds them all: the helpers' private regions first, then
        the main workspace, whose table ends the array; each helper's workspace is the view
        from its region to the end, with its table offset pointing at the main table, so that
        every thread's compiled code indexes the one table in its own workspace."""
        rows = kernel.max_plies + 4
        moves_size = rows * 2 * kernel.max_moves
        dirty_capacity = 1 << max(table_bits - 3, 8)
        stack_size = rows * _S_SIZE if self.threads > 1 else 0  # the split nodes' rows
        private = _HEAD_SIZE + moves_size + dirty_capacity + stack_size
        private += -private % 8  # keeps the main workspace's alignment as it is alone
        busy = private  # the busy marks, shared (several threads only)
        table_offset = private + (1 << _BUSY_BITS if self.threads > 1 else 0)
        base = (self.threads - 1) * private
        size = base + table_offset + (2 << table_bits)
        # The main search's table starts small when it fills it alone (the engine module's
        # SMALL_TABLE_BITS, when solving): a short search's entries stay in the caches.
        small = int(self._module.SMALL_TABLE_BITS)
        self._small_bits = small if small < table_bits else 0
        # The table starts on a cache line, so that each pair of entries (32 bytes: a key's
        # slot and the other one it may be in) lies in one line: one trip to main memory.
        memory = self._arrays(_line_aligned(words.zeros(size + _LINE_WORDS), size,
                                            base + table_offset))
        ws = memory[base:]  # the whole array when there is one thread
        if prefault:
            ws.fill(0)  # zeros already; writing them maps every page now, not mid-search
        self._prefaulted = prefault
        for start in [base, *range(0, base, private)]:
            view = memory[start:]
            view[_C_MOVES] = _HEAD_SIZE
            view[_C_DIRTY] = _HEAD_SIZE + moves_size
            view[_C_DIRTY_CAPACITY] = dirty_capacity
            view[_C_STACK] = _HEAD_SIZE + moves_size + dirty_capacity
            view[_C_TABLE] = base - start + table_offset
            view[_C_BUSY] = base - start + busy
            view[_C_TABLE_BITS] = table_bits
            self._map_table(view, self._small_bits if start == base else 0)
            view[_C_BY_DISTANCE] = 1
            view[_C_NODE_LIMIT] = _NO_LIMIT
            if start != base:
                self._helpers.append(view)
        ws[_C_INTERRUPT_CHECK] = interrupt.check_address()  # Ctrl-C stops a search
        return ws

    @staticmethod
    def _map_table(view: Any, small: int) -> None:
        """Map the keys of the workspace ``view`` onto its whole table, and with ``small``
        (bits) onto the table's first ``2**small`` entries until its search grows or the table
        is emptied (see the engine module's ``SMALL_TABLE_BITS``)."""
        view[_C_SMALL_BITS] = small
        bits = small or int(view[_C_TABLE_BITS])
        view[_C_TABLE_MASK] = (1 << bits) - 1
        view[_C_TABLE_SHIFT] = 64 - bits

    @contextmanager
    def _whole_table(self) -> Iterator[None]:
        """While several threads fill the table (a threaded solve, :meth:`shared`): every
        thread maps keys onto the whole table, even one that empties it. Entries in the small
        part that the main search was using, if any, are no longer found (a search of at most
        the engine module's ``GROW_AFTER`` positions' work). Afterwards the table stays whole
        until it is emptied."""
        self._map_table(self._ws, 0)
        try:
            yield
        finally:
            self._ws[_C_SMALL_BITS] = self._small_bits

    def _warm_up(self) -> None:
        """Compile (or load) every entry point now, with the argument types used later."""
        state = self.kernel.initial_state
        module = self._module
        ws = self._ws
        module.status(state)
        module.clock()
        if module.legal_moves(state, self._buffer) > 0:
            module.play(state, int(self._buffer[0]))
        ws[_C_NODE_LIMIT] = 1  # stop at once: only the compilation matters here
        module.search_root(state, 1, 1, _MODE_LINE, ws, self._out)
        module.line(state, int(self._buffer[0]), 0, 1, ws, self._out)
        if self._helpers:
            self._load_threads()
        module.solve_many(self._state_rows([state]), False, self._zeros(1), self._zeros(1),
                          self._zeros(1), ws)
        ws[_C_NODE_LIMIT] = _NO_LIMIT
        self._empty = False
        self.new_search()

    def _loaded(self, seeded: bool) -> bool:
        """True if this process has loaded the entry points a budgeted search calls (the
        root search, and for a seeded search the line's)."""
        module = self._module
        return bool(module.search_root.signatures) and (not seeded or
                                                        bool(module.line.signatures))

    def load(self) -> None:
        """Load the search's entry points now (numba loads cached machine code on first use),
        so that the first search's time budget is not spent loading them."""
        ws = self._ws
        limit = int(ws[_C_NODE_LIMIT])
        ws[_C_NODE_LIMIT] = 0  # stop at once: only the loading matters here
        state = self.kernel.initial_state
        self._module.search_root(state, 1, 1, _MODE_LINE, ws, self._out)
        if self._module.legal_moves(state, self._buffer) > 0:
            self._module.line(state, int(self._buffer[0]), 0, 1, ws, self._out)
        if self._helpers:
            self._load_threads()
        ws[_C_NODE_LIMIT] = limit
        ws[_C_ABORTED] = 0
        self._empty = False
        self.new_search()

    def _load_threads(self) -> None:
        """Load the entry points of multi-threaded solves, or compile them (said first, through
        the compile listener) when this machine's cache lacks them: once per engine, before its
        first threaded solve."""
        if self._threads_ready:
            return
        module, ws = self._module, self._ws
        entries = (module.search_root_parallel, module.helper)
        if not all(dispatcher.signatures or _in_cache(dispatcher) for dispatcher in entries):
            build.notify(f"compiling the threaded solve of the {self.kernel.name} kernel "
                         "(once)...")
        limit, aborted = int(ws[_C_NODE_LIMIT]), int(ws[_C_ABORTED])
        ws[_C_NODE_LIMIT] = 0  # stop at once: only the loading matters here
        # With one thread's workspace: the argument types of every later call.
        state = self.kernel.initial_state
        module.search_root_parallel(state, 0, _EXHAUSTIVE, _MODE_LINE, ws, self._out)
        module.helper(state, _EXHAUSTIVE, 0, ws, self._out)
        ws[_C_NODE_LIMIT], ws[_C_ABORTED] = limit, aborted
        self._threads_ready = True

    @contextmanager
    def shared(self) -> Iterator[list[CompiledEngine]]:
        """One engine per thread this engine was made with (:attr:`threads`), each with a
        workspace of its own over this engine's one table, to solve different positions at
        once, each in a thread of its own: every solve finds in the table what the others
        have proved so far (the solves of a book's frontier: ``gametree.builder``). On two
        cores, two of them solved 120 consecutive frontier positions of a 7x6 book 1.93x as
        fast as one engine, where one engine's two threads on each position (ABDADA) gained
        1.65x (docs/solving.md, "Parallel and distributed builds").

        Each engine searches without the interpreter lock, and so cannot hear Ctrl-C: the
        thread that waits for them does, and calls :meth:`stop` on each. Each solves to the
        end of the game only, on the table as it is (no ``fresh`` search, no depth or budget,
        this engine's scoring mode). Every answer is the one this engine would give, which
        depends on no table entry; node counts vary with what the others stored. This engine
        must not search until the block ends; its table then keeps what was proved."""
        self._load_threads()
        ws = self._ws
        views = (ws, *self._helpers)
        _unstopped(views)  # a threaded solve leaves its helpers' workspaces stopped
        check = int(ws[_C_INTERRUPT_CHECK])
        ws[_C_INTERRUPT_CHECK] = 0  # no thread without the interpreter lock may ask CPython
        sharers = []
        for view in views:
            view[_C_BY_DISTANCE] = ws[_C_BY_DISTANCE]
            view[_C_BUSY_MASK] = 0  # independent searches: no ABDADA marks
            sharer = copy.copy(self)
            sharer._ws = view
            sharer._helpers, sharer._helper_out = [], []
            sharer.threads = 1
            sharer._out = self._zeros(len(self._out))
            sharer._buffer = self._zeros(len(self._buffer))
            sharer._sharing = True
            sharers.append(sharer)
        self._empty = False
        try:
            with self._whole_table():
                yield sharers
        finally:
            _unstopped(views)  # whatever was stopped: ready for the next search
            ws[_C_INTERRUPT_CHECK] = check

    def stop(self) -> None:
        """Stop the search of one of :meth:`shared`'s engines, from another thread: it ends at
        its next position with :class:`SearchStoppedError`."""
        self._ws[_C_NODE_LIMIT] = 0

    def _state_rows(self, states: Sequence[Any]) -> Any:
        size = self.kernel.state_size
        rows = self._zeros((len(states), max(size, 1)))
        for i, state in enumerate(states):
            rows[i] = self.checked(state) if size else (self.checked(state),)
        return rows

    def checked(self, state: Any) -> Any:
        """``state`` if it is a state of this kernel (an int, or a tuple of as many ints as the
        kernel's initial state); else :class:`ValueError`. A Python-tier state of the same
        game is not a kernel state: translate it with the game's compiled form first."""
        size = self._state_size
        if size and state.__class__ is tuple and len(state) == size:
            if {*map(type, state)} == _INT_ONLY:  # cheaper than a loop, on every search
                return state
        elif size == 0 and is_state(state) and isinstance(state, int):
            return state
        shape = "an int" if size == 0 else f"a tuple of {size} ints"
        raise ValueError(f"{state!r} is not a state of the {self.kernel.name} kernel "
                         f"({shape}); translate a Python-tier state with the game's "
                         f"compiled_form().encode")

    # -- the table and the counters ------------------------------------------------------------

    def new_search(self) -> None:
        """Empty the table (at the cost of the slots used since it was last emptied, not of
        the whole table) and reset the counters."""
        if not self._empty:
            self._clear()
            self._empty = True
        self._reset_counters()

    def _clear(self) -> None:
        """Empty the table from this thread: the slots that each thread's dirty list names, or
        all of it when a list overflowed."""
        views = (self._ws, *self._helpers)
        whole = self._overflowed()
        for share, view in enumerate(views):
            self._module.clear_share(view, share, len(views), whole)

    def _overflowed(self) -> bool:
        """True when some thread's dirty list overflowed: only emptying the whole table then
        catches every slot filled."""
        return any(view[_C_DIRTY_OVERFLOW] for view in (self._ws, *self._helpers))

    def _use_table(self, by_distance: bool) -> None:
        """Make the table ready for a search in this scoring mode: entries stored in the other
        mode would be misread, so they go."""
        ws = self._ws
        mode = 1 if by_distance else 0
        if ws[_C_BY_DISTANCE] != mode:
            self.new_search()
            ws[_C_BY_DISTANCE] = mode
        self._empty = False

    def prefault(self) -> None:
        """Empty the table by writing every page of it now, so that no page fault lands inside
        a timed search later (a quarter of a second for 128 MiB; done once per engine)."""
        if not self._prefaulted:
            self._ws[int(self._ws[_C_TABLE]):] = 0
            self._prefaulted = True
        self.new_search()

    def _reset_counters(self) -> None:
        ws = self._ws
        ws[:_C_ABORTED + 1] = 0
        ws[_C_WINDOWS] = 0
        ws[_C_DEEPEST] = 0
        ws[_C_OVERFLOW] = 0

    def _interrupted(self) -> None:
        """A compiled call stopped for Ctrl-C (``ws[C_INTERRUPTED]``): hand the signal on to
        its handler (:func:`gametree.compiled.interrupt.deliver`), which normally raises
        ``KeyboardInterrupt``, so that the stop is never taken for a node budget or an answer.
        If the handler returns, so does this, and the caller does its search again."""
        ws = self._ws
        ws[_C_INTERRUPTED] = 0
        ws[_C_ABORTED] = 0
        interrupt.deliver()

    # -- the rules, called from Python (compiled, so identical to what the search sees) --------

    def moves(self, state: Any) -> list[int]:
        """The legal moves of ``state`` in the kernel's order (none once the game is over)."""
        count = self._module.legal_moves(state, self._buffer)
        return [int(move) for move in self._buffer[:count]]

    def play(self, state: Any, move: int) -> Any:
        """The state after ``move`` (assumed legal)."""
        child = self._module.play(state, move)
        return child if isinstance(child, int) else tuple(int(part) for part in child)

    def to_move(self, state: Any) -> int:
        """The player to move in ``state``."""
        return int(self._module.status(state)[0])

    def outcome(self, state: Any) -> int | None:
        """``None`` while the game goes on, else the utility for player 0."""
        utility = int(self._module.status(state)[1])
        return None if utility == ONGOING else utility

    # -- fast paths --------------------------------------------------------------------------

    def score(self, state: Any, *, weak: bool = False) -> tuple[int, int]:
        """The value of ``state`` (weak: its sign) and the nodes visited, from an empty table."""
        state = self.checked(state)
        self.new_search()
        self._use_table(True)
        value = self._module.solve(state, 0, weak, self._ws)
        while self._ws[_C_INTERRUPTED]:  # stopped for Ctrl-C, and its handler returned:
            self._interrupted()
            value = self._module.solve(state, 0, weak, self._ws)  # on, with what it found
        return int(value), int(self._ws[_C_NODES])

    def solve_many(self, states: Sequence[Any], *, weak: bool = False) -> BatchResult:
        """Solve each state from an empty table inside one compiled loop (a benchmark's view).

        Per-solve times come from the processor's cycle counter, converted to seconds by the
        rate measured over the whole loop.
        """
        rows = self._state_rows(states)
        values, nodes, ticks = (self._zeros(len(states)) for _ in range(3))
        self.new_search()
        self._use_table(True)
        started_ticks = _read_cycles(self._module)
        started = time.perf_counter()
        self._module.solve_many(rows, weak, values, nodes, ticks, self._ws)
        total = time.perf_counter() - started
        if self._ws[_C_INTERRUPTED]:
            self._interrupted()
            return self.solve_many(states, weak=weak)
        ticks_per_second = (_read_cycles(self._module) - started_ticks) / total if total else 1.0
        return BatchResult(values.tolist(), nodes.tolist(),
                           [t / ticks_per_second for t in ticks.tolist()], total)

    # -- full searches -----------------------------------------------------------------------

    def search(self, state: Any, *, depth: int | None = None, weak: bool = False,
               by_distance: bool = True, exact_root: bool = False,
               seed: int | None = None, time: float | None = None,
               nodes: int | None = None, fresh: bool = False,
               form: CompiledForm[Any, Any] | None = None, root: Any = None) -> SearchResult[Any]:
        """Search ``state`` and return its value, best move, root move values and line.

        ``depth=None`` solves to the end of the game; a number stops there and uses the
        kernel's ``evaluate`` (iterative deepening from depth 1, the table carried along; a
        depth beyond the longest game the kernel allows is a search to the end). ``weak``
        proves only win, draw or loss. ``exact_root`` gives every root move an exact value
        (else moves that cannot beat the best carry an upper bound). ``seed`` breaks ties
        between equally good moves at random (and implies ``exact_root``); without it the
        first best move in the kernel's order wins.

        ``time`` (seconds) and ``nodes`` are budgets: iterative deepening, one ply at a time
        (up to ``depth`` if given), stopped inside the first iteration that would overrun the
        budget; the answer is that of the deepest completed iteration (depth 1 always
        completes, so there is always a move), for every root move. Deepening stops by the
        rule both tiers share (:func:`gametree.limits.stop_after`): once an iteration meets
        no heuristic leaf (the position is then solved exactly), proves the result within
        its depth (with ``exact_root``: every move's), reaches ``depth``, or leaves too little
        of the time budget. A time budget is kept through a node limit worked out from the
        speed of the iterations so far, so it is approximate; the machine code is loaded
        before its clock starts. Depth-limited values are marked with their depth
        (:attr:`gametree.result.MoveValue.depth`) and are never exact.

        ``fresh`` starts from an empty table (the result, node counts included, then depends
        on nothing searched before). With ``form`` (the compiled form of a Python game) and
        ``root`` (the Python state that ``state`` encodes), moves are reported as that game's.
        """
        if weak and (depth is not None or time is not None or nodes is not None):
            raise ValueError("weak solving searches to the end of the game: give no depth, "
                             "time or node budget")
        from ..options import SearchOptions  # noqa: PLC0415 - options imports this package's

        return self.run_search(state, SearchOptions(
            depth=depth, weak=weak, by_distance=by_distance, exact_root=exact_root, seed=seed,
            time=time, nodes=nodes), fresh, form, root)

    def run_search(self, state: Any, options: SearchOptions, fresh: bool = False,
                   form: CompiledForm[Any, Any] | None = None, root: Any = None,
                   progress: ProgressListener | None = None) -> SearchResult[Any]:
        """Search ``state`` as ``options`` ask: the request of both tiers' engines (the Python
        one's :meth:`~gametree.engine.Engine.run_search` takes the same). This engine reads
        ``depth``, ``time``, ``nodes``, ``weak``, ``by_distance``, ``exact_root``, ``seed``
        and ``line`` (its table size and threads it was given when made). What is not an option:
        ``fresh`` starts from an empty table, so the result, node counts included, depends
        on nothing searched before; ``form`` (a Python game's compiled form) and ``root``
        (the Python state that ``state`` encodes) report moves as that game's.

        ``progress``: called about ten times a second with a :class:`SolveProgress` while a
        solve to the end of the game runs (none for a budgeted or depth-limited search,
        whose reports are :meth:`iterate`'s). The solve then runs in a thread of its own, on
        one thread as on several, while the calling thread watches its counters: the search
        itself does nothing more, and Ctrl-C stops it at once (``KeyboardInterrupt``)."""
        run = self._start(state, options.depth, options.weak, options.by_distance,
                          options.exact_root, options.seed, options.time, options.nodes,
                          False, fresh, form, root)
        run.progress = progress
        run.line = options.line
        if not run.budgeted:  # one compiled call answers it: no loop, no reports
            return self._one_call(run)
        for _report in self._iterations(run):
            pass
        last = run.last
        assert last is not None  # the first iteration always completes
        moves = last.moves
        if run.stop == "proven" and (run.requested is None or last.depth < run.requested):
            moves = proven_moves(moves, last.best_move, last.value)
        answer = _RootAnswer(last.value, last.value, last.best_move, moves, last.pv)
        return self._result(run, answer, last.outcome, last.plies, last.complete)

    def _one_call(self, run: _CompiledRun) -> SearchResult[Any]:
        """A search without a budget: one compiled call, deepening inside to the depth asked
        for (or solving to the end)."""
        ply, first = self._first_iteration(run, run.requested or 0)
        answer = self._root(run, ply, first)
        assert answer is not None  # no node limit was set
        complete = run.counters[2] == 0
        run.iterations, run.exhaustive = 1, complete
        run.depth_reached = run.counters[7] if ply is None else ply
        if not complete:
            answer.moves = depth_limited(answer.moves, run.depth_reached, final=False,
                                         by_distance=not run.plain)
        outcome, plies = classify(answer.value, by_distance=not run.plain,
                                  exhaustive=complete)
        return self._result(run, answer, outcome, plies, complete)

    def iterate(self, state: Any, *, depth: int | None = None, by_distance: bool = True,
                exact_root: bool = False, seed: int | None = None, time: float | None = None,
                nodes: int | None = None, fresh: bool = False,
                form: CompiledForm[Any, Any] | None = None,
                root: Any = None, line: bool = True) -> Iterator[Iteration[Any]]:
        """Search ``state`` one depth after another, yielding a report after each (the
        options mean what they mean for :meth:`search`). Stop iterating whenever you like.

        Without ``depth`` or a budget it goes on until the position is solved (each iteration
        searching one ply deeper), as :meth:`gametree.engine.Engine.iterate` does.
        ``line=False`` reports the best move as each iteration's line, without the searches
        that find the rest (:attr:`gametree.SearchOptions.line`).
        """
        run = self._start(state, depth, False, by_distance, exact_root, seed, time, nodes,
                          True, fresh, form, root)
        run.line = line
        return self._iterations(run)

    def _start(self, state: Any, depth: int | None, weak: bool, by_distance: bool,
               exact_root: bool, seed: int | None, seconds: float | None, nodes: int | None,
               every_depth: bool, fresh: bool, form: CompiledForm[Any, Any] | None,
               root: Any) -> _CompiledRun:
        budgeted = seconds is not None or nodes is not None
        if self._sharing and (fresh or budgeted or depth is not None or every_depth or
                              self._ws[_C_BY_DISTANCE] != (1 if by_distance or weak else 0)):
            raise ValueError("an engine sharing its table with others (CompiledEngine.shared) "
                             "solves to the end of the game, in its table's scoring mode, "
                             "on the table as it is")
        limits = limits_of(depth, nodes, seconds)  # checked as on the Python tier
        state = self.checked(state)
        asked = depth
        if weak and (depth is not None or budgeted):
            raise ValueError("weak solving searches to the end of the game: give no depth, "
                             "time or node budget")
        if depth is not None and depth >= self.kernel.max_plies:
            depth = None if not every_depth and not budgeted else self.kernel.max_plies
        if depth is not None and depth > _MAX_DEPTH:
            raise ValueError(f"the compiled engine searches at most {_MAX_DEPTH} plies deep "
                             f"(or to the end of the game)")
        if budgeted and (fresh or self._empty) and not self._loaded(seed is not None):
            # Before the clock starts: numba loads an entry point's machine code on its first
            # call, which would spend a short time budget before the search begins.
            self.load()
            self.ready_at = _clock()
        if fresh:  # the first compiled call empties the table and the counters
            self._ws[_C_BY_DISTANCE] = 1 if by_distance or weak else 0
            self._empty = False
        else:
            self._use_table(by_distance or weak)
            self._reset_counters()
        mode = _MODE_WEAK if weak else 0
        if exact_root or seed is not None:
            mode |= _MODE_EXACT_ROOT
        if fresh:
            mode |= _MODE_FRESH
        # Positional arguments, in the fields' order: keywords cost a microsecond here.
        self.started = started = _clock()  # after the loading: a budget is the search's own
        return _CompiledRun(state, limits, asked, depth, mode, seed, weak or not by_distance,
                            weak, budgeted, every_depth, started, form, root)

    def _iterations(self, run: _CompiledRun) -> Iterator[Iteration[Any]]:
        """The one deepening loop: each pass searches the root one ply deeper (or solves it),
        under the node limit the budgets allow (:meth:`_limited_root`), yields its report,
        and decides whether to go on by the rule both tiers share
        (:func:`gametree.limits.stop_after`).

        An iteration the limit stops is dropped whole (what it stored in the table is true
        but its root answer is incomplete): the answer is the deepest completed iteration's.
        """
        limits = run.limits
        deadline = None if limits.time is None else run.started + limits.time
        rate = _SLOWEST_RATE
        last = _MAX_DEPTH if run.requested is None else run.requested
        ply, first = self._first_iteration(run, last)
        while True:
            nodes_before, evaluations_before = run.counters[0], run.counters[2]
            iteration_started = _clock()
            root = self._limited_root(run, ply, first, deadline, rate)
            if root is None:
                return
            run.iterations += 1
            complete = run.counters[2] == evaluations_before
            run.exhaustive = complete
            run.depth_reached = run.counters[7] if ply is None else ply
            report = self._report(run, root, complete)
            run.last = report
            yield report
            if ply is None:  # solved: deeper searches would see the same
                run.stop = "end"
                return
            now = _clock()
            rate = _measured_rate(rate, run.counters[0] - nodes_before, now - iteration_started,
                                  run.counters[0], now - run.started)
            run.stop = stop_after(
                ply, last, complete,
                not complete and settled(report.value, report.moves, ply,
                                         every_move=bool(run.mode & _MODE_EXACT_ROOT),
                                         by_distance=not run.plain),
                soft_deadline_passed(run.started, deadline, now))
            if run.stop is not None:
                return
            ply += 1
            first = ply

    def _limited_root(self, run: _CompiledRun, ply: int | None, first: int,
                      deadline: float | None, rate: float) -> _RootAnswer | None:
        """:meth:`_root` under the node limit the budgets allow (none for the first
        iteration, which always runs to its end: it gives the move); ``None``, with the
        budget that stopped it in ``run.stop``, when the limit stopped it or leaves no room
        for it."""
        ws = self._ws
        binding: StopReason | None = None
        if run.iterations:
            limit, binding = self._node_limit(run.limits.nodes, deadline, rate)
            if limit <= run.counters[0]:
                run.stop = binding
                return None
            # The search stops when its count passes the limit: at ``limit`` nodes, so.
            ws[_C_NODE_LIMIT] = limit - 1
        root = self._root(run, ply, first)
        run.mode &= ~_MODE_FRESH  # the table is the run's own from now on
        if run.iterations:
            ws[_C_NODE_LIMIT] = _NO_LIMIT
        if root is None:
            ws[_C_ABORTED] = 0
            run.stop = binding
        return root

    @staticmethod
    def _first_iteration(run: _CompiledRun, last: int) -> tuple[int | None, int]:
        """The depth of the first iteration (``None``: a solve to the end of the game) and the
        depth its root probes start from."""
        if run.weak or (run.requested is None and not run.every_depth and not run.budgeted):
            return None, 0
        if run.every_depth or run.budgeted:
            return min(1, last), min(1, last)
        return last, min(1, last)  # straight to the depth, deepening inside

    def _node_limit(self, nodes: int | None, deadline: float | None,
                    rate: float) -> tuple[int, StopReason | None]:
        """The node count the next iteration may reach, and which budget sets it."""
        limit = _NO_LIMIT
        binding: StopReason | None = None
        if nodes is not None:
            limit, binding = nodes, "nodes"
        if deadline is not None:
            by_time = int(self._ws[_C_NODES]) + int((deadline - _clock()) * rate)
            if by_time < limit:
                limit, binding = by_time, "time"
        return limit, binding

    def _root(self, run: _CompiledRun, ply: int | None, first: int) -> _RootAnswer | None:
        """One compiled search of the root (to ``ply``, or to the end), read back; ``None``
        when the node limit stopped it."""
        module, ws, out = self._module, self._ws, self._out
        depth = _EXHAUSTIVE if ply is None else ply
        mode = run.mode
        if run.line and run.seed is None and not run.weak:
            mode |= _MODE_LINE
        threaded = (bool(self._helpers) or run.progress is not None) and ply is None \
            and not run.budgeted
        evaluations = 0 if mode & _MODE_FRESH else int(ws[_C_EVALUATIONS])
        if threaded:
            with self._whole_table() if self._helpers else nullcontext():
                self._threaded_root(run.state, depth, mode, run.progress)
        elif self._sharing:  # without the interpreter lock: beside the others
            module.search_root_parallel(run.state, first, depth, mode, ws, out)
            if ws[_C_ABORTED]:
                raise SearchStoppedError("the search was stopped (CompiledEngine.stop)")
        else:
            if mode & _MODE_FRESH and self._helpers:
                self._clear()  # search_root's own emptying knows the main thread's slots only
            module.search_root(run.state, first, depth, mode, ws, out)
        if ws[_C_ABORTED]:
            if ws[_C_INTERRUPTED]:  # Ctrl-C, not the node limit
                return self._resume(run, ply, first)
            return None
        found = out.tolist()
        # A depth-limited search that met no heuristic leaf proved its value: its line goes
        # on to the end of the game, as the Python tier's does (not only to the depth).
        line_depth = _EXHAUSTIVE if found[_R_COUNTERS + 2] == evaluations else depth
        best, relined = self._later_line(run, found, depth, line_depth, mode)
        if relined:
            if ws[_C_INTERRUPTED]:
                return self._resume(run, ply, first)
            ws[_C_ABORTED] = 0  # the node limit ends the line early: it is shorter, no more
            found = out.tolist()  # with the line found now
        run.counters = found[_R_COUNTERS:_R_COUNTERS + 9]
        if threaded:
            run.counters = self._summed(run.counters)
            run.threaded = True
        if run.counters[8]:
            raise ContractError(
                f"kernel {self.kernel.name}: a game went on past max_plies = "
                f"{self.kernel.max_plies}, the most plies its games can last: raise max_plies "
                f"or make the game end (a position that repeats never ends)")
        value, count = found[_R_VALUE], found[_R_COUNT]
        entries = [(found[i], found[i + 1], _BOUNDS[found[i + 2]])
                   for i in range(_R_ENTRIES, _R_ENTRIES + 3 * count, 3)]
        if not entries:
            return _RootAnswer(value, found[_R_PROBED], None, (), ())
        if best is None:
            best = entries[found[_R_BEST]][0]
        if run.weak or not run.line:
            pv: list[int] = [best]
        else:
            start = _R_ENTRIES + 3 * self.kernel.max_moves
            pv = found[start:start + found[_R_PV_LENGTH]]
        if run.form is not None:
            chosen, moves, line = run.form.moves_of(run.root, best, entries, pv)
            return _RootAnswer(value, found[_R_PROBED], chosen, moves, line)
        return _RootAnswer(value, found[_R_PROBED], best,
                           tuple([MoveValue(move, worth, bound)
                                  for move, worth, bound in entries]),
                           tuple(pv))

    def _threaded_root(self, state: Any, depth: int, mode: int,
                       progress: ProgressListener | None = None) -> None:
        """:func:`search_root` of a solve to the end of the game on :attr:`threads` threads:
        the main search (``search_root_parallel``, into ``self._out``) and the helpers
        (``helper``), all without the interpreter lock, share the table. A fresh solve's
        threads first empty the table together, each its share, and wait for each other. Once
        the main search has answered, the helpers are stopped (their node limit set to 0) and
        joined.

        The compiled threads cannot ask CPython about Ctrl-C (``PyOS_InterruptOccurred`` needs
        the interpreter lock, which they do not hold), so this thread waits for them in
        Python, where SIGINT's handler runs as usual: if it raises (``KeyboardInterrupt``),
        every thread is stopped the same way and joined before the exception goes on; if it
        returns, the search goes on.

        ``progress`` (if any) hears the counters between two waits: the one thread of a
        watched solve runs here too, without helpers.
        """
        self._load_threads()
        module, ws, helpers = self._module, self._ws, self._helpers
        views = (ws, *helpers)
        emptied: threading.Barrier | None = None
        whole = False
        if mode & _MODE_FRESH:  # the threads empty the table, before any of them stores
            emptied = threading.Barrier(len(views))
            whole = self._overflowed()
            self._reset_counters()
            mode &= ~_MODE_FRESH
        self._share_work()
        check = int(ws[_C_INTERRUPT_CHECK])
        ws[_C_INTERRUPT_CHECK] = 0
        failures: list[BaseException] = []

        def run(done: threading.Event, share: int, function: Any, *args: Any) -> None:
            try:
                if emptied is not None:
                    module.clear_share(views[share], share, len(views), whole)
                    emptied.wait()
                function(*args)
            except BaseException as error:  # reported in the calling thread
                failures.append(error)
                if emptied is not None:
                    emptied.abort()  # no thread waits for this one for ever
            finally:
                done.set()

        # Each thread says it is done through an event of its own, not Thread.join: in
        # CPython 3.11 a join interrupted by KeyboardInterrupt can mark a running thread
        # stopped (gh-90882), and a compiled thread must never outlive its search.
        finished = [threading.Event() for _ in range(len(helpers) + 1)]
        main = threading.Thread(target=run, name="gametree-search", daemon=True,
                                args=(finished[0], 0, module.search_root_parallel, state, 0,
                                      depth, mode, ws, self._out))
        others = [threading.Thread(target=run, name=f"gametree-helper-{number}", daemon=True,
                                   args=(finished[number], number, module.helper, state, depth,
                                         mode, helper, self._helper_out[number - 1]))
                  for number, helper in enumerate(helpers, 1)]
        started: list[threading.Event] = []
        try:
            # A KeyboardInterrupt inside Thread.start() could leave a thread that runs later,
            # unseen by the waits below: SIGINT waits until every thread has started.
            with interrupt.deferred():
                for thread, done in zip((main, *others), finished, strict=True):
                    thread.start()
                    started.append(done)
            self._wait(finished[0], views, progress)
        finally:
            if emptied is not None and len(started) < len(views):
                emptied.abort()  # a thread failed to start: the others must not wait for it
            for view in views:  # stop whatever still runs (all, after Ctrl-C)
                view[_C_NODE_LIMIT] = 0
            interrupt.wait_all(started)  # before the interrupt check comes back: it needs the GIL
            ws[_C_NODE_LIMIT] = _NO_LIMIT
            ws[_C_INTERRUPT_CHECK] = check
            for view in views:  # one thread's searches mark nothing
                view[_C_BUSY_MASK] = 0
        if failures:
            raise failures[0]

    def _wait(self, done: threading.Event, views: Sequence[Any],
              progress: ProgressListener | None) -> None:
        """Wait for the main search's thread, telling ``progress`` (if any) how it goes
        between two waits; SIGINT's handler runs there too."""
        began = _clock()
        while not done.wait(0.1):
            if progress is not None:
                progress(self._progress(views, began))

    def _progress(self, views: Sequence[Any], began: float) -> SolveProgress:
        """What a running solve has done so far, read from its workspaces (the root's window
        from the main search's)."""
        ws = self._ws
        windows = int(ws[_C_WINDOWS])
        return SolveProgress(
            windows, int(ws[_C_WINDOW_LOW]) if windows else None,
            int(ws[_C_WINDOW_HIGH]) if windows else None,
            int(ws[_C_WINDOW_TEST]) if windows else None,
            sum(int(view[_C_NODES]) for view in views),
            sum(int(view[_C_ENTRIES]) for view in views), _clock() - began)

    def _share_work(self) -> None:
        """Make every thread's workspace ready for a threaded search: the helpers' counters
        zero, their scoring mode and last root's value the main search's (so that they test
        its windows), no busy mark left by a stopped search, and the busy marks on, so that the
        threads split the work."""
        ws = self._ws
        for helper in self._helpers:
            helper[:_C_ABORTED + 1] = 0
            helper[_C_DEEPEST] = 0
            helper[_C_OVERFLOW] = 0
            helper[_C_BY_DISTANCE] = ws[_C_BY_DISTANCE]
            for slot in (_C_LAST_KNOWN, _C_LAST_SCORE, _C_LAST_MOVER):
                helper[slot] = ws[slot]
            helper[_C_NODE_LIMIT] = _NO_LIMIT
        if not self._helpers:  # one thread (a watched solve): no busy marks, none to share
            return
        busy = int(ws[_C_BUSY])
        ws[busy:busy + (1 << _BUSY_BITS)] = 0
        for view in (ws, *self._helpers):
            view[_C_BUSY_MASK] = (1 << _BUSY_BITS) - 1
            view[_C_SPLIT_LEFT] = _SPLIT_LEFT
            view[_C_FIRST_LEFT] = _FIRST_LEFT
            view[_C_SPLIT_TOP] = 0

    def _summed(self, counters: Sequence[int]) -> list[int]:
        """The main search's counters (the R_COUNTERS order) with the helpers' added: nodes,
        leaves, evaluations, cut-offs, first-move cut-offs, table hits and entries summed; the
        deepest ply the deepest any thread reached."""
        summed = list(counters)
        for helper in self._helpers:
            for i, slot in enumerate((_C_NODES, _C_LEAVES, _C_EVALUATIONS, _C_CUTOFFS,
                                      _C_FIRST_CUTOFFS, _C_TABLE_HITS, _C_ENTRIES)):
                summed[i] += int(helper[slot])
            summed[7] = max(summed[7], int(helper[_C_DEEPEST]))
            summed[8] = max(summed[8], int(helper[_C_OVERFLOW]))
        return summed

    def _resume(self, run: _CompiledRun, ply: int | None, first: int) -> _RootAnswer | None:
        """:meth:`_root`, stopped for Ctrl-C: hand the signal on (normally it raises); if its
        handler returns, search again, with the table and counters as the stop left them
        (all of this search's own, so a fresh search stays independent of earlier ones)."""
        self._interrupted()
        run.mode &= ~_MODE_FRESH
        return self._root(run, ply, first)

    def _later_line(self, run: _CompiledRun, found: list[int], depth: int, line_depth: int,
                    mode: int) -> tuple[int | None, bool]:
        """After the root's search (``found``, to ``depth``): a seeded best move and its line,
        or the line of a value proven within the depth, to ``line_depth``, searched into the
        output array. ``(the seeded best move or None, whether a line was searched)``."""
        if not found[_R_COUNT]:
            return None, False
        if run.seed is not None:
            return self._seeded(run, found, line_depth), True
        if line_depth != depth and mode & _MODE_LINE:
            self._module.line(run.state, found[_R_ENTRIES + 3 * found[_R_BEST]],
                              found[_R_VALUE], line_depth, self._ws, self._out)
            return None, True
        return None, False

    def _seeded(self, run: _CompiledRun, found: list[int], depth: int) -> int:
        """A best move drawn from ``run.seed`` among the tied ones, and (``run.line``) its line
        into the output array."""
        value, count = found[_R_VALUE], found[_R_COUNT]
        tied = [found[i] for i in range(_R_ENTRIES, _R_ENTRIES + 3 * count, 3)
                if found[i + 1] == value and found[i + 2] == _B_EXACT]
        best: int = break_tie(tied, run.seed)
        if run.line:
            self._module.line(run.state, best, value, depth, self._ws, self._out)
        return best

    def _report(self, run: _CompiledRun, root: _RootAnswer, complete: bool) -> Iteration[Any]:
        counters = run.counters
        outcome, plies = classify(root.value, by_distance=not run.plain,
                                  exhaustive=complete)
        moves = root.moves if complete else depth_limited(
            root.moves, run.depth_reached, final=False, by_distance=not run.plain)
        return Iteration(
            depth=run.depth_reached, value=root.value, best_move=root.best_move, pv=root.pv,
            moves=moves, nodes=counters[0], seconds=_clock() - run.started,
            table_entries=counters[6], table_hits=counters[5], complete=complete,
            outcome=outcome, plies=plies)

    def _result(self, run: _CompiledRun, answer: _RootAnswer, outcome: Outcome | None,
                plies: int | None, complete: bool) -> SearchResult[Any]:
        """The :class:`SearchResult` of a finished run, from its deepest completed answer."""
        stopped: Literal["time", "nodes"] | None = (
            "time" if run.stop == "time" else "nodes" if run.stop == "nodes" else None)
        counters = run.counters
        # Positional arguments, in the fields' order: keywords cost a microsecond here.
        threads = self.threads if self._helpers and run.threaded else 1
        stats = SearchStats(counters[0], counters[1], counters[2], counters[3], counters[4],
                            counters[5], counters[6], run.iterations, run.depth_reached,
                            stopped, _clock() - run.started, threads)
        return SearchResult(
            answer.best_move, answer.value, answer.moves, answer.pv, stats, ALGORITHM,
            "compiled", run.depth_reached if stopped else run.asked, not run.plain, outcome,
            plies, run.exhaustive, complete, run.weak)


_clock = time.perf_counter

_INT_ONLY = {int}

def _in_cache(dispatcher: Any) -> bool:
    """True if numba's cache holds machine code of ``dispatcher`` (its index file is there;
    an image engine's entry point through numba stands for its dispatcher)."""
    dispatcher = getattr(dispatcher, "dispatcher", dispatcher)
    cache = getattr(dispatcher, "_cache", None)
    cache_file = getattr(cache, "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    return index is not None and os.path.exists(index)


_SLOWEST_RATE = 200_000.0
"""Nodes per second assumed until an iteration lasts long enough to be timed: slower than any
kernel measured (Connect Four searches about 10 million a second, Nim 2 million)."""

_MEASURABLE = 0.005
"""An iteration this long (seconds) or longer gives the node rate for the time budget."""



def _measured_rate(rate: float, nodes: int, seconds: float, total_nodes: int,
                   total_seconds: float) -> float:
    """The node rate the time budget assumes next, after an iteration of ``nodes`` in
    ``seconds`` (the search so far: ``total_nodes`` in ``total_seconds``)."""
    if seconds >= _MEASURABLE:  # the latest iteration's speed: deeper ones are slower
        return nodes / seconds
    if total_seconds >= _MEASURABLE / 5:  # so far, Python's share included
        return max(rate, total_nodes / total_seconds)
    return rate


@dataclass(slots=True)
class _CompiledRun:
    """The bookkeeping of one search: its root, options and progress."""

    state: Any
    limits: Limits
    asked: int | None
    """The depth asked for (``None``: to the end of the game)."""
    requested: int | None
    """The depth searched to: :attr:`asked`, or ``None`` when that is beyond the longest game."""
    mode: int
    seed: int | None
    plain: bool
    weak: bool
    budgeted: bool
    every_depth: bool
    started: float
    form: CompiledForm[Any, Any] | None
    """The Python game's compiled form, to report its moves (``None``: kernel moves)."""
    root: Any
    """The Python state searched, when :attr:`form` is given."""
    iterations: int = 0
    depth_reached: int = 0
    exhaustive: bool = False
    stop: StopReason | None = None
    last: Iteration[Any] | None = None
    counters: Sequence[int] = (0,) * 9
    """The counters as the latest compiled call left them (the R_COUNTERS order)."""
    threaded: bool = False
    """True once a multi-threaded search answered (its counters are summed over threads)."""
    progress: ProgressListener | None = None
    """Who hears how a solve to the end goes (:meth:`CompiledEngine.run_search`)."""
    line: bool = True
    """Find the principal variation beyond the best move (:attr:`SearchOptions.line`)."""


def _as_given(array: words.Words) -> words.Words:
    return array


def _unstopped(views: Sequence[Any]) -> None:
    """Make workspaces that a stop (a node limit of 0, Ctrl-C) may have left stopped ready to
    search again: no node limit, nothing aborted or interrupted."""
    for view in views:
        view[_C_NODE_LIMIT] = _NO_LIMIT
        view[_C_ABORTED] = 0
        view[_C_INTERRUPTED] = 0


class SearchStoppedError(RuntimeError):
    """A search of one of :meth:`CompiledEngine.shared`'s engines ended by
    :meth:`CompiledEngine.stop`."""


@dataclass(slots=True)
class _RootAnswer:
    value: Value
    probed: Value
    """The root's value as its own search found it."""
    best_move: Any
    moves: tuple[MoveValue[Any], ...]
    pv: tuple[Any, ...]


def _read_cycles(module: Any) -> int:
    """The processor's cycle counter, read by a compiled call (the batch loop's own clock)."""
    return int(module.clock())


__all__ = ["ALGORITHM", "DEFAULT_TABLE_BITS", "ENTRY_BYTES", "MAX_THREADS", "BatchResult",
           "Bound", "CompiledEngine", "SearchStoppedError", "resolve_threads", "table_bits_for"]
