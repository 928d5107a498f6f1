"""The compiled engine from Python: solve, search and analyse kernel states.

:class:`CompiledEngine` owns the workspace of one kernel (transposition table, move buffers,
counters: see ``_engine.py``) and calls its compiled entry points. Results come back as
:class:`gametree.SearchResult`, on the same value scale and with the same fields as the Python
tier's, so front-ends treat both tiers alike (the ``algorithm`` field says ``compiled``).

Two ways to solve:

* :meth:`CompiledEngine.search` (and :meth:`CompiledEngine.solve`) give a full result: the
  value, the best move, every root move's value (exact or a bound) and the principal variation;
* :meth:`CompiledEngine.score` and :meth:`CompiledEngine.solve_many` give only the value and the
  node count, which is what Pons' benchmark measures.

Weak solving (``weak=True``) proves only win, draw or loss: the result then carries plain
values (1, 0, -1 for the player to move) with ``by_distance`` false, as a search with distance
scoring off would report them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.limits import Limits
from ..result import Bound, MoveValue, SearchResult, SearchStats
from ..values import classify
from . import build
from .kernel import ONGOING, Kernel

DEFAULT_TABLE_BITS = 22
"""log2 of the table's entries by default: 4M entries of 16 bytes (64 MiB)."""

ALGORITHM = "compiled"
"""The ``algorithm`` name of compiled results."""

# The head of the workspace (mirrors the C_* slots of _engine.py).
_C_NODES, _C_LEAVES, _C_EVALUATIONS, _C_CUTOFFS, _C_FIRST_CUTOFFS, _C_TABLE_HITS = range(6)
_C_ABORTED = 6
_C_NODE_LIMIT = 8
_C_BY_DISTANCE = 9
_C_TABLE_MASK = 11
_C_TABLE_SHIFT = 12
_C_MOVES = 14
_C_DIRTY = 16
_C_DIRTY_CAPACITY = 17
_C_TABLE = 18
_HEAD_SIZE = 24
_EXHAUSTIVE = 1 << 40
_INF = 1_000_002
_MAX_DEPTH = 250
_NO_LIMIT = 1 << 62


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


class CompiledEngine:
    """The compiled search of one kernel game, with its own transposition table.

    Creating one compiles the kernel's engine, or loads it from the on-disk cache (see
    :mod:`gametree.compiled.build`). ``table_bits`` sets the table size: ``2**table_bits``
    entries of 16 bytes. The table is kept from one search to the next (its entries stay
    true); :meth:`new_search` empties it.

    The table's memory comes from the operating system as untouched zero pages, so a new
    engine is ready at once and a short search pays only for the pages it uses.
    ``prefault=True`` writes every page up front instead (a quarter of a second for the
    default 128 MiB): for benchmarks, so that no page fault lands inside a timed search.
    """

    def __init__(self, kernel: Kernel, *, table_bits: int = DEFAULT_TABLE_BITS,
                 prefault: bool = False) -> None:
        import numpy as np  # noqa: PLC0415 - numpy comes with numba, only when compiling

        if not 8 <= table_bits <= 30:
            raise ValueError(f"table_bits must be within 8..30, got {table_bits}")
        self.kernel = kernel
        self._np = np
        self._module, needs_compiling = build.engine_module(kernel)
        self._ws = self._workspace(kernel, table_bits, prefault)
        self._buffer = np.zeros(kernel.max_moves, dtype=np.int64)
        if needs_compiling:
            # Compile every entry point now, so that the cache is complete and no later
            # process (nor a later call in this one) pauses to compile. A cached kernel is
            # loaded one entry point at a time, on first use.
            with build.compiling(self._module):
                self._warm_up()

    def _workspace(self, kernel: Kernel, table_bits: int, prefault: bool) -> Any:
        np = self._np
        rows = kernel.max_plies + 4
        moves_size = rows * 2 * kernel.max_moves
        dirty_capacity = 1 << max(table_bits - 3, 8)
        table_offset = _HEAD_SIZE + moves_size + dirty_capacity
        table_offset += -table_offset % 8  # entries never straddle a 64-byte cache line
        ws = np.zeros(table_offset + (2 << table_bits), dtype=np.int64)
        if prefault:
            ws.fill(0)  # zeros already; writing them maps every page now, not mid-search
        ws[_C_MOVES] = _HEAD_SIZE
        ws[_C_DIRTY] = _HEAD_SIZE + moves_size
        ws[_C_DIRTY_CAPACITY] = dirty_capacity
        ws[_C_TABLE] = table_offset
        ws[_C_TABLE_MASK] = (1 << table_bits) - 1
        ws[_C_TABLE_SHIFT] = 64 - table_bits
        ws[_C_BY_DISTANCE] = 1
        ws[_C_NODE_LIMIT] = _NO_LIMIT
        return ws

    def _warm_up(self) -> None:
        """Compile (or load) every entry point now, with the argument types used later."""
        np = self._np
        state = self.kernel.initial_state
        module = self._module
        ws = self._ws
        module.status(state)
        module.clock()
        if module.legal_moves(state, self._buffer) > 0:
            module.play(state, int(self._buffer[0]))
        ws[_C_NODE_LIMIT] = 1  # stop at once: only the compilation matters here
        module.probe(state, 0, 1, -_INF, _INF, ws)
        module.solve(state, 0, False, ws)
        empty = np.zeros(1, dtype=np.int64)
        module.solve_many(self._state_rows([state]), False, empty, empty.copy(),
                          empty.copy(), ws)
        ws[_C_NODE_LIMIT] = _NO_LIMIT
        self.new_search()

    def _state_rows(self, states: Sequence[Any]) -> Any:
        size = self.kernel.state_size
        rows = self._np.zeros((len(states), max(size, 1)), dtype=self._np.int64)
        for i, state in enumerate(states):
            rows[i] = state if size else (state,)
        return rows

    # -- the table and the counters ------------------------------------------------------------

    def new_search(self) -> None:
        """Empty the table (at the cost of the slots used since it was last emptied, not of
        the whole table) and reset the counters."""
        self._module.clear(self._ws)
        self._reset_counters()

    def _reset_counters(self) -> None:
        self._ws[:_C_ABORTED + 1] = 0

    def _stats(self, seconds: float) -> SearchStats:
        ws = self._ws
        cutoffs = int(ws[_C_CUTOFFS])
        extra: dict[str, float] = {
            "table_hits": int(ws[_C_TABLE_HITS]),
            "first_move_cutoffs": int(ws[_C_FIRST_CUTOFFS]),
        }
        if cutoffs:
            extra["first_move_cutoff_rate"] = round(int(ws[_C_FIRST_CUTOFFS]) / cutoffs, 4)
        return SearchStats(nodes=int(ws[_C_NODES]), leaves=int(ws[_C_LEAVES]),
                           evaluations=int(ws[_C_EVALUATIONS]), cutoffs=cutoffs,
                           seconds=seconds, extra=extra)

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
        self.new_search()
        self._ws[_C_BY_DISTANCE] = 1
        value = self._module.solve(state, 0, weak, self._ws)
        return int(value), int(self._ws[_C_NODES])

    def solve_many(self, states: Sequence[Any], *, weak: bool = False) -> BatchResult:
        """Solve each state from an empty table inside one compiled loop (a benchmark's view).

        Per-solve times come from the processor's cycle counter, converted to seconds by the
        rate measured over the whole loop.
        """
        np = self._np
        rows = self._state_rows(states)
        values = np.zeros(len(states), dtype=np.int64)
        nodes = np.zeros(len(states), dtype=np.int64)
        ticks = np.zeros(len(states), dtype=np.int64)
        self.new_search()
        self._ws[_C_BY_DISTANCE] = 1
        started_ticks = _read_cycles(self._module)
        started = time.perf_counter()
        self._module.solve_many(rows, weak, values, nodes, ticks, self._ws)
        total = time.perf_counter() - started
        ticks_per_second = (_read_cycles(self._module) - started_ticks) / total if total else 1.0
        return BatchResult([int(v) for v in values], [int(n) for n in nodes],
                           [int(t) / ticks_per_second for t in ticks], total)

    # -- full searches -----------------------------------------------------------------------

    def solve(self, state: Any, *, weak: bool = False, exact_root: bool = False,
              seed: int | None = None) -> SearchResult[int]:
        """Solve ``state`` exactly (``weak``: win, draw or loss only). See :meth:`search`."""
        return self.search(state, weak=weak, exact_root=exact_root, seed=seed)

    def search(self, state: Any, *, depth: int | None = None, weak: bool = False,
               by_distance: bool = True, exact_root: bool = False,
               seed: int | None = None, time: float | None = None,
               nodes: int | None = None) -> SearchResult[int]:
        """Search ``state`` and return its value, best move, root move values and line.

        ``depth=None`` solves to the end of the game; a number stops there and uses the
        kernel's ``evaluate`` (iterative deepening from depth 1, the table carried along).
        ``exact_root`` gives every root move an exact value (else moves that cannot beat the
        best carry an upper bound). ``seed`` breaks ties between equally good moves at random
        (and implies ``exact_root``); without it the first best move in the kernel's order wins.

        ``time`` (seconds) and ``nodes`` are budgets: iterative deepening, one ply at a time
        (up to ``depth`` if given), stopped inside the first iteration that would overrun the
        budget; the answer is that of the deepest completed iteration (depth 1 always
        completes, so there is always a move). Deepening ends early once an iteration proves
        a win or loss or meets no heuristic leaf: the position is then solved exactly.
        A time budget is kept through a node limit worked out from the speed of the
        iterations so far, so it is approximate. ``stats.extra`` reports ``iterations``,
        ``depth_reached`` and ``stopped_by_limit``.
        """
        Limits(depth, nodes, time)  # the Python tier's checks of the same three limits
        if depth is not None and depth > _MAX_DEPTH:
            raise ValueError(f"the compiled engine searches at most {_MAX_DEPTH} plies deep")
        budgeted = time is not None or nodes is not None
        if weak and (depth is not None or budgeted):
            raise ValueError("weak solving searches to the end of the game: give no depth, "
                             "time or node budget")
        exact_root = exact_root or seed is not None
        self._reset_counters()
        self._ws[_C_BY_DISTANCE] = 1 if by_distance or weak else 0
        plain = weak or not by_distance
        started = _clock()
        extra: dict[str, float] = {}
        if budgeted and depth != 0:
            run = self._deepen_within(state, depth, time, nodes, started, plain=plain,
                                      exact_root=exact_root, seed=seed)
            extra = {"iterations": run.iterations, "depth_reached": run.depth,
                     "stopped_by_limit": int(run.stopped)}
            assert run.result is not None  # depth 1 always completes
            result, exhaustive = run.result, run.exhaustive
            depth = None if run.solved else run.depth
        else:
            root = _RootSearch(self, state, depth=depth, weak=weak, exact_root=exact_root)
            result = root.run(seed)
            exhaustive = int(self._ws[_C_EVALUATIONS]) == 0
        stats = self._stats(_clock() - started)
        stats.extra.update(extra)
        outcome, plies = classify(result.value, by_distance=not plain, exhaustive=exhaustive)
        return SearchResult(best_move=result.best_move, value=result.value,
                            moves=result.moves, pv=result.pv, stats=stats,
                            algorithm=ALGORITHM, depth=depth, by_distance=not plain,
                            outcome=outcome, plies=plies, exhaustive=exhaustive)

    def _deepen_within(self, state: Any, depth: int | None, seconds: float | None,
                       nodes: int | None, started: float, *, plain: bool, exact_root: bool,
                       seed: int | None) -> _Deepened:
        """Iterative deepening under the budgets: the result of the deepest completed depth.

        Each iteration is the root's search and then its moves' values and line, all under the
        node limit; an iteration the limit stops is dropped whole (nothing of it entered the
        table). An iteration that meets no heuristic leaf is already a solve; once one proves
        a win or loss, the position is solved exactly, under the same limit: cheap, since the
        result lies within the depth reached, and the root moves' values then agree with it
        (at a small depth a root move's own search can miss what the deeper search proved,
        such as Connect Four's unstoppable double threats).
        """
        ws = self._ws
        deadline = None if seconds is None else started + seconds
        run = _Deepened()
        rate = _SLOWEST_RATE
        last = _MAX_DEPTH if depth is None else depth  # search() refused deeper
        ply: int | None = 1  # None: the exact solve that follows a proven result
        while True:
            if run.iterations:  # depth 1 always runs to its end: the answer needs a move
                limit = _NO_LIMIT if nodes is None else nodes
                if deadline is not None:
                    limit = min(limit, int(ws[_C_NODES]) + int((deadline - _clock()) * rate))
                if limit <= int(ws[_C_NODES]):
                    run.stopped = True
                    break
                # The search stops when its count passes the limit: at ``limit`` nodes, so.
                ws[_C_NODE_LIMIT] = limit - 1
            nodes_before, evaluations_before = int(ws[_C_NODES]), int(ws[_C_EVALUATIONS])
            iteration_started = _clock()
            root = _RootSearch(self, state, depth=ply, weak=False, exact_root=exact_root)
            # The root's value at this depth straight away: the shallower ones are done.
            value = None if ply is None else self._probe(state, 0, ply, -_INF, _INF)
            result = root.run(seed, value=value)
            ws[_C_NODE_LIMIT] = _NO_LIMIT
            if ws[_C_ABORTED]:
                ws[_C_ABORTED] = 0
                run.stopped = True
                break
            run.result = result
            run.exhaustive = int(ws[_C_EVALUATIONS]) == evaluations_before
            if ply is None:
                run.solved = True
                break
            run.iterations, run.depth = run.iterations + 1, ply
            if run.exhaustive:  # no line met the depth limit: the values are the game's
                run.solved = True
                break
            spent = _clock() - iteration_started
            if spent >= _MEASURABLE:  # the latest iteration's speed: deeper ones are slower
                rate = (int(ws[_C_NODES]) - nodes_before) / spent
            elif _clock() - started >= _MEASURABLE / 5:  # so far, Python's share included
                rate = max(rate, int(ws[_C_NODES]) / (_clock() - started))
            # The root's own value, not the root moves' (at a small depth they can fall short)
            if classify(value or 0, by_distance=not plain, exhaustive=False)[0] is not None:
                ply = None  # proven: solve exactly next
            elif ply == last:
                break
            else:
                ply += 1
        return run

    # -- the compiled calls the root search makes --------------------------------------------

    # Once a node limit has stopped the search, the rest of the iteration is dropped: the
    # calls return at once, visiting (and counting) nothing more.

    def _probe(self, state: Any, ply: int, depth: int, alpha: int, beta: int) -> int:
        if self._ws[_C_ABORTED]:
            return 0
        return int(self._module.probe(state, ply, depth, alpha, beta, self._ws))

    def _solve(self, state: Any, ply: int, weak: bool) -> int:
        if self._ws[_C_ABORTED]:
            return 0
        return int(self._module.solve(state, ply, weak, self._ws))


_clock = time.perf_counter

_SLOWEST_RATE = 200_000.0
"""Nodes per second assumed until an iteration lasts long enough to be timed: slower than any
kernel measured (Connect Four searches about 10 million a second, Nim 2 million)."""

_MEASURABLE = 0.005
"""An iteration this long (seconds) or longer gives the node rate for the time budget."""


@dataclass
class _Deepened:
    """How far a budgeted iterative deepening got."""

    result: _RootResult | None = None
    """The result of the deepest completed iteration (or of the exact solve)."""

    depth: int = 0
    iterations: int = 0
    stopped: bool = False
    exhaustive: bool = False
    """No heuristic leaf entered :attr:`result`."""

    solved: bool = False
    """:attr:`result` is that of a search to the end of the game."""


def _read_cycles(module: Any) -> int:
    """The processor's cycle counter, read by a compiled call (the batch loop's own clock)."""
    return int(module.clock())


@dataclass
class _RootResult:
    value: int
    best_move: int | None
    moves: tuple[MoveValue[int], ...]
    pv: tuple[int, ...]


class _RootSearch:
    """The part of a search that runs in Python: the root moves, their values and the line.

    Values are seen from the player to move at the root, counted in plies from the root, like
    the Python tier's; a child's value is negated when the move passes the turn.
    """

    def __init__(self, engine: CompiledEngine, root: Any, *, depth: int | None, weak: bool,
                 exact_root: bool) -> None:
        self.engine = engine
        self.root = root
        self.depth = depth
        self.weak = weak
        self.exact_root = exact_root
        self.mover = engine.to_move(root)

    def side(self, state: Any, child: Any) -> int:
        """+1 if the player to move in ``child`` is the one of ``state``, else -1."""
        return 1 if self.engine.to_move(child) == self.engine.to_move(state) else -1

    def run(self, seed: int | None, *, value: int | None = None) -> _RootResult:
        """The root's result; ``value``: the root's value at ``depth``, if already searched."""
        engine = self.engine
        root = self.root
        if value is None:
            value = engine._solve(root, 0, self.weak) if self.depth is None else self._deepen()
        moves = engine.moves(root) if self.depth != 0 else []
        if not moves:  # finished, or a depth of 0: the root is a leaf
            return _RootResult(value, None, (), ())
        entries = [self._move_value(move, value) for move in moves]
        tied = [entry.move for entry in entries if entry.value == value and entry.exact]
        if not tied:
            # Only under a depth limit, where table entries from deeper iterations can make a
            # root move look better than the root search found: take the best value seen.
            value = int(max(entry.value for entry in entries))
            tied = [entry.move for entry in entries if entry.value == value]
        best = random.Random(seed).choice(tied) if seed is not None else tied[0]
        pv = (best,) if self.weak else self._line(best, value)
        return _RootResult(value, best, tuple(entries), pv)

    def _deepen(self) -> int:
        """Iterative deepening to ``depth``: each iteration fills the table with best moves
        for the next one. Returns the value found at the full depth."""
        assert self.depth is not None
        value = 0
        for depth in range(1, self.depth + 1):
            value = self.engine._probe(self.root, 0, depth, -_INF, _INF)
        if self.depth == 0:
            value = self.engine._probe(self.root, 0, 0, -_INF, _INF)
        return value

    def _child_depth(self) -> int:
        return _EXHAUSTIVE if self.depth is None else max(self.depth - 1, 0)

    def _move_value(self, move: int, best: int) -> MoveValue[int]:
        """The value of root ``move``: exact if it reaches ``best`` (or ``exact_root``), else an
        upper bound."""
        engine = self.engine
        child = engine.play(self.root, move)
        sign = self.side(self.root, child)
        if self.weak:
            return MoveValue(move, sign * engine._solve(child, 1, True), "exact")
        if self.exact_root:
            if self.depth is None:
                return MoveValue(move, sign * engine._solve(child, 1, False), "exact")
            value = engine._probe(child, 1, self._child_depth(), -_INF, _INF)
            return MoveValue(move, sign * value, "exact")
        value, bound = self._at_least(child, sign, 1, best, self._child_depth())
        return MoveValue(move, value, bound)

    def _at_least(self, child: Any, sign: int, ply: int, wanted: int,
                  depth: int) -> tuple[int, Bound]:
        """Whether the move to ``child`` is worth ``wanted`` (the most it can be worth): then
        (wanted, exact); else (an upper bound on its value, upper). ``sign`` as in :meth:`side`.
        """
        engine = self.engine
        if sign < 0:  # worth >= wanted  <=>  child value <= -wanted
            result = engine._probe(child, ply, depth, -wanted, -wanted + 1)
            if result <= -wanted:
                return wanted, "exact"
            return -result, "upper"
        result = engine._probe(child, ply, depth, wanted - 1, wanted)
        if result >= wanted:
            return wanted, "exact"
        return result, "upper"

    def _line(self, best: int, value: int) -> tuple[int, ...]:
        """The principal variation: from each position the first move (in the kernel's order)
        that keeps the value, until the game ends (or, under a depth limit, the depth runs
        out or no move matches the value any more)."""
        engine = self.engine
        line = [best]
        state = engine.play(self.root, best)
        # ``value`` is seen from the root player; keep it seen from the player to move.
        value = value if engine.to_move(state) == self.mover else -value
        ply = 1
        limit = self.engine.kernel.max_plies if self.depth is None else self.depth
        while ply < limit and engine.outcome(state) is None:
            depth = _EXHAUSTIVE if self.depth is None else self.depth - ply - 1
            chosen = None
            for move in engine.moves(state):
                child = engine.play(state, move)
                sign = self.side(state, child)
                if self._at_least(child, sign, ply + 1, value, depth)[1] == "exact":
                    chosen = (move, child, sign)
                    break
            if chosen is None:
                break
            move, child, sign = chosen
            line.append(move)
            state = child
            value = sign * value
            ply += 1
        return tuple(line)
