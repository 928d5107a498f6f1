"""The compiled engines a process keeps idle between searches, within a bound in bytes.

A compiled engine owns a transposition table (``2**table_bits`` entries of 16 bytes: 64 MiB at
the default size) and a small workspace, and is not safe in two threads at once. So each
search of the compiled tier takes an engine of its kernel, table size and thread count from
this pool and gives it back when it ends; the next search of the same kind takes it again
instead of allocating a new one.

What the pool keeps is bounded. The pool counts the bytes each engine it made allocated (its
table, every thread's workspace, its buffers) for as long as the engine lives. When an engine is
given back while the engines alive take more than the limit, the least recently given back idle
engines are dropped, whatever their kernel, until they fit, and their memory goes back to the
system. An engine in use (a search running on it, or kept by an open
:class:`~gametree.service.SearchSession`) is never dropped: so the idle engines alone never
take more than the limit, and idle and in use together take more only while the engines in use
need it. An engine larger than the limit by itself still serves its search, and is dropped when
it is given back. A limit of 0 keeps nothing idle (each search allocates its engine; the
kernel's machine code is loaded once per process either way).

    >>> import gametree.pool
    >>> previous = gametree.pool.set_pool_limit(128 * 2**20)   # two default-size tables
    >>> gametree.pool.pool_limit()
    134217728
    >>> gametree.pool.pool_bytes() <= gametree.pool.pool_limit()
    True
    >>> gametree.pool.set_pool_limit(previous) == 128 * 2**20
    True

A long-running program sets the limit once at start (``gametree serve --engine-pool-mib``
sets it in every worker process). docs/memory.md lists this bound beside the others.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import weakref
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compiled.engine import CompiledEngine

MIB = 2**20
"""Bytes in a mebibyte."""

DEFAULT_POOL_LIMIT = 256 * MIB
"""The default bound on the bytes of idle engines a process keeps: four tables of the default
size (``table_bits`` 22, 64 MiB each)."""

_KINDS_KEPT = 64
"""Kinds of engine (with or without idle engines) past which a new engine's making clears
away the kinds that have none."""

_Key = tuple[Hashable, int, int]
"""An engine's kind: its kernel's identity, its table bits and its thread count."""


def engine_bytes(engine: CompiledEngine) -> int:
    """The bytes ``engine`` allocated: the one array holding its table and every thread's
    workspace, and its small buffers (arrays that are views count once, by their owner)."""
    owners: dict[int, int] = {}
    for array in (engine._ws, engine._buffer, engine._out, *engine._helper_out):
        held = array
        while hasattr(held, "base") and not hasattr(held, "memory"):  # numpy's views
            held = held.base
        memory = getattr(held, "memory", held)  # an engine's Words array, or its memory
        owners[id(memory)] = len(memory)
    return sum(owners.values())


def _checked_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"the engine pool's limit must be a whole number of bytes >= 0, "
                         f"got {limit!r}")
    return limit


class EnginePool:
    """Compiled engines of every kernel, table size and thread count: each search takes one
    and gives it back; the pool keeps the idle ones for the next search of their kind, within
    :attr:`limit` bytes.

    The limit bounds the engines the pool made that are still alive, idle or in use: when an
    engine is given back while they take more than the limit, the least recently given back
    idle engines are dropped until they fit (engines in use cannot be dropped, so the idle ones
    alone never take more than the limit). An engine larger than the limit by itself is dropped
    when it is given back.

    Taking and giving back take no lock (a list's ``pop`` and ``append`` are atomic): they run
    on every compiled search. The lock is taken only to count a new engine, and to drop engines
    when the limit is passed.
    """

    def __init__(self, limit: int = DEFAULT_POOL_LIMIT) -> None:
        self._limit = _checked_limit(limit)
        self._lock = threading.Lock()
        self._idle: dict[_Key, list[tuple[int, CompiledEngine, int]]] = {}
        """The idle engines of each kind, as (when given back, engine, bytes), the most
        recently given back last."""
        self._clock = itertools.count()
        """Stamps the engines given back: the order of "least recently used"."""
        self._live = 0
        """The bytes of the engines the pool made, less those of the engines known to have
        died (counted in :attr:`_died` until the lock is next taken)."""
        self._died: list[int] = []
        """The bytes of engines freed since the lock was last taken (appended by each
        engine's finalizer, which must not wait for the lock: it may run anywhere)."""

    @property
    def limit(self) -> int:
        """The most bytes of engines the pool keeps (idle ones are dropped beyond it)."""
        return self._limit

    def set_limit(self, limit: int) -> int:
        """Keep at most ``limit`` bytes of engines from now on (idle engines beyond it are
        dropped at once); returns the previous limit."""
        limit = _checked_limit(limit)
        with self._lock:
            previous, self._limit = self._limit, limit
            dropped = self._shrink()
        del dropped  # freed here, outside the lock
        return previous

    def idle_bytes(self) -> int:
        """The bytes of the idle engines the pool holds now (never more than :attr:`limit`
        once the engine last given back is in)."""
        return sum(size for _, _, size in self._snapshot())

    def idle_engines(self) -> int:
        """How many idle engines the pool holds now."""
        return len(self._snapshot())

    def live_bytes(self) -> int:
        """The bytes of every engine the pool made that is still alive: the idle ones and
        those in use (by a search, or kept by a session)."""
        with self._lock:
            self._count_the_dead()
            return self._live

    def _snapshot(self) -> list[tuple[int, CompiledEngine, int]]:
        return [entry for idle in list(self._idle.values()) for entry in list(idle)]

    def of(self, kernel: Any, table_bits: int, threads: int = 1) -> Engines:
        """The engines of ``kernel`` with tables of ``2**table_bits`` entries, searching on
        ``threads`` threads (0: every core). Kernels with the same identity share them; a
        kernel that cannot be identified is only itself (its engines keep it alive, so its
        ``id`` stays unique while they live)."""
        return Engines(self, kernel, table_bits, threads)

    def _made(self, engines: Engines) -> CompiledEngine:
        """A new engine of ``engines``' kind, counted until it dies."""
        from .compiled.engine import CompiledEngine  # noqa: PLC0415 - imports numba

        engine = CompiledEngine(engines.kernel, table_bits=engines.table_bits,
                                threads=engines.threads)
        size = engine_bytes(engine)
        engines.size = size
        finalizer = weakref.finalize(engine, self._died.append, size)
        finalizer.atexit = False
        with self._lock:
            self._live += size
            if len(self._idle) > _KINDS_KEPT:  # kinds with no idle engine go
                for key, idle in list(self._idle.items()):
                    if not idle:
                        del self._idle[key]
        return engine

    def _over(self) -> None:
        """Drop what passes the limit (an engine was given back)."""
        with self._lock:
            dropped = self._shrink()
        del dropped  # freed here, outside the lock

    def _count_the_dead(self) -> None:
        """Take the bytes of engines freed since last time off :attr:`_live` (lock held)."""
        died = self._died
        while died:
            self._live -= died.pop()

    def _shrink(self) -> list[CompiledEngine]:
        """Drop the least recently given back idle engines while the engines alive take more
        than the limit (called with the lock held); returns them, to be freed once the lock is
        let go. Other threads may take and give back meanwhile: whatever they change, an
        engine is either taken by one of them or dropped here, never both."""
        self._count_the_dead()
        dropped = []
        live = self._live
        while live > self._limit:
            oldest = None
            for key, idle in list(self._idle.items()):
                if not idle:
                    # Emptied kinds go, so that the dict does not grow with every kind ever
                    # seen. A thread that fetched this list just before may still append to
                    # it: that engine is then dropped with the list, not lost track of (the
                    # finalizer counts it).
                    del self._idle[key]
                elif oldest is None or idle[0][0] < oldest[1][0][0]:
                    oldest = (key, idle)
            if oldest is None:
                break  # nothing idle left: the rest are in use
            try:
                _, engine, size = oldest[1].pop(0)
            except IndexError:  # taken by another thread meanwhile
                continue
            dropped.append(engine)
            live -= size  # the finalizer takes it off _live once the engine is freed
        return dropped


class Engines:
    """The engines of one kind (kernel, table size, thread count) in a pool: what a search
    plan keeps to take an engine for each search and give it back."""

    __slots__ = ("_pool", "kernel", "key", "size", "table_bits", "threads")

    def __init__(self, pool: EnginePool, kernel: Any, table_bits: int, threads: int) -> None:
        self.kernel, self.table_bits, self.threads = kernel, table_bits, threads
        self.key: _Key = (kernel.identity() or id(kernel), table_bits, threads)
        """The kind: engines of equal keys are interchangeable."""
        self.size: int | None = None
        """The bytes each engine of this kind allocates (once one was made or given back
        through this handle)."""
        self._pool = pool

    def take(self) -> CompiledEngine:
        """An idle engine of this kind (the one given back last), or a new one. It is the
        caller's until it gives it back with :meth:`put`."""
        idle = self._pool._idle.get(self.key)
        if idle:
            try:
                return idle.pop()[1]
            except IndexError:  # another thread took the last one meanwhile
                pass
        return self._pool._made(self)

    def put(self, engine: CompiledEngine) -> None:
        """Give ``engine`` back: it waits idle for the next search of its kind, unless the
        pool's limit drops it (or, later, the return of another engine does)."""
        size = self.size
        if size is None:  # the same for every engine of a kind: counted once per handle
            size = self.size = engine_bytes(engine)
        pool = self._pool
        if size > pool._limit:
            return  # larger than the bound by itself: dropped (freed by the caller)
        # A lock-free append in the usual case (the engines alive fit the limit): this runs
        # after every compiled search.
        idle = pool._idle.get(self.key)
        if idle is None:
            idle = pool._idle.setdefault(self.key, [])
        idle.append((next(pool._clock), engine, size))
        if pool._live > pool._limit or pool._died:
            pool._over()

    @contextlib.contextmanager
    def engine(self) -> Iterator[CompiledEngine]:
        """An engine for the length of a ``with`` block."""
        engine = self.take()
        try:
            yield engine
        finally:
            self.put(engine)


POOL = EnginePool()
"""The process's pool: every search of the compiled tier takes its engine from here."""


def pool_limit() -> int:
    """The most bytes of compiled engines this process keeps (:data:`DEFAULT_POOL_LIMIT`
    unless set)."""
    return POOL.limit


def set_pool_limit(limit: int) -> int:
    """Keep at most ``limit`` bytes of compiled engines in this process (0: none idle): idle
    engines are dropped, now and whenever one is given back, while the engines alive take more.
    Returns the previous limit. Engines in use are never dropped (see the module's
    documentation)."""
    return POOL.set_limit(limit)


def pool_bytes() -> int:
    """The bytes of the idle compiled engines this process holds now (at most
    :func:`pool_limit`); :meth:`EnginePool.live_bytes` adds those in use."""
    return POOL.idle_bytes()


__all__ = ["DEFAULT_POOL_LIMIT", "MIB", "EnginePool", "Engines", "engine_bytes", "pool_bytes",
           "pool_limit", "set_pool_limit"]
