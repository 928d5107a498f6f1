"""The compiled engines a process keeps idle between searches, within a bound in bytes.

A compiled engine owns a transposition table (``2**table_bits`` entries of 16 bytes: 64 MiB at
the default size) and a small workspace, and is not safe in two threads at once. So each
search of the compiled tier takes an engine of its kernel, table size and thread count from
this pool and gives it back when it ends; the next search of the same kind takes it again
instead of allocating a new one.

What the pool holds is bounded. When the bytes of its idle engines (their tables and
workspaces, as each engine allocated them) pass the limit, the least recently used idle
engines are dropped, whatever their kernel, and their memory goes back to the system. An
engine in use (a search running on it, or kept by an open
:class:`~gametree.service.SearchSession`) belongs to its user, not to the pool: it is never
dropped and does not count. An engine larger than the limit by itself still serves its search,
and is dropped when it is given back. A limit of 0 keeps nothing idle (each search allocates its
engine; the kernel's machine code is loaded once per process either way).

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
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compiled.engine import CompiledEngine

MIB = 2**20
"""Bytes in a mebibyte."""

DEFAULT_POOL_LIMIT = 256 * MIB
"""The default bound on the bytes of idle engines a process keeps: four tables of the default
size (``table_bits`` 22, 64 MiB each)."""

_Key = tuple[Hashable, int, int]
"""An engine's kind: its kernel's identity, its table bits and its thread count."""


def engine_bytes(engine: CompiledEngine) -> int:
    """The bytes ``engine`` allocated: the one array holding its table and every thread's
    workspace, and its small buffers (arrays that are views count once, by their owner)."""
    owners: dict[int, int] = {}
    for array in (engine._ws, engine._buffer, engine._out, *engine._helper_out):
        owner = array if array.base is None else array.base
        owners[id(owner)] = owner.nbytes
    return sum(owners.values())


def _checked_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"the engine pool's limit must be a whole number of bytes >= 0, "
                         f"got {limit!r}")
    return limit


class EnginePool:
    """Idle compiled engines of every kernel, table size and thread count, at most
    :attr:`limit` bytes of them (the least recently given back are dropped first).

    Taking and giving back hold a lock for a few dictionary operations; an engine is built
    (and a dropped one freed) outside it.
    """

    def __init__(self, limit: int = DEFAULT_POOL_LIMIT) -> None:
        self._limit = _checked_limit(limit)
        self._lock = threading.Lock()
        self._idle: dict[_Key, list[CompiledEngine]] = {}
        """The idle engines of each kind, the most recently given back last."""
        self._order: OrderedDict[int, tuple[_Key, CompiledEngine, int]] = OrderedDict()
        """Every idle engine by ``id``, with its kind and bytes, least recently used first."""
        self._bytes = 0

    @property
    def limit(self) -> int:
        """The most bytes of idle engines the pool keeps."""
        return self._limit

    def set_limit(self, limit: int) -> int:
        """Keep at most ``limit`` bytes of idle engines from now on (idle engines beyond it
        are dropped at once); returns the previous limit."""
        limit = _checked_limit(limit)
        with self._lock:
            previous, self._limit = self._limit, limit
            dropped = self._shrink()
        del dropped  # freed here, outside the lock
        return previous

    def idle_bytes(self) -> int:
        """The bytes of the idle engines held now (never more than :attr:`limit`)."""
        return self._bytes

    def idle_engines(self) -> int:
        """How many idle engines the pool holds now."""
        return len(self._order)

    def of(self, kernel: Any, table_bits: int, threads: int = 1) -> Engines:
        """The engines of ``kernel`` with tables of ``2**table_bits`` entries, searching on
        ``threads`` threads (0: every core). Kernels with the same identity share them; a
        kernel that cannot be identified is only itself (its idle engines keep it alive, so
        its ``id`` stays unique while they are kept)."""
        return Engines(self, kernel, table_bits, threads)

    def _take(self, engines: Engines) -> CompiledEngine:
        with self._lock:
            idle = self._idle.get(engines.key)
            if idle:
                engine = idle.pop()
                if not idle:
                    del self._idle[engines.key]
                self._bytes -= self._order.pop(id(engine))[2]
                return engine
        from .compiled.engine import CompiledEngine  # noqa: PLC0415 - imports numba

        return CompiledEngine(engines.kernel, table_bits=engines.table_bits,
                              threads=engines.threads)

    def _put(self, engines: Engines, engine: CompiledEngine) -> None:
        size = engine_bytes(engine)
        with self._lock:
            if size > self._limit:
                return  # larger than the bound by itself: dropped (freed by the caller)
            self._idle.setdefault(engines.key, []).append(engine)
            self._order[id(engine)] = (engines.key, engine, size)
            self._bytes += size
            dropped = self._shrink()
        del dropped  # freed here, outside the lock

    def _shrink(self) -> list[CompiledEngine]:
        """Drop the least recently used idle engines until the rest fit the limit (called
        with the lock held); returns them, to be freed once the lock is let go."""
        dropped = []
        while self._bytes > self._limit:
            _, (key, engine, size) = self._order.popitem(last=False)
            idle = self._idle[key]
            idle.remove(engine)
            if not idle:
                del self._idle[key]
            self._bytes -= size
            dropped.append(engine)
        return dropped


class Engines:
    """The engines of one kind (kernel, table size, thread count) in a pool: what a search
    plan keeps to take an engine for each search and give it back."""

    __slots__ = ("_pool", "kernel", "key", "table_bits", "threads")

    def __init__(self, pool: EnginePool, kernel: Any, table_bits: int, threads: int) -> None:
        self.kernel, self.table_bits, self.threads = kernel, table_bits, threads
        self.key: _Key = (kernel.identity() or id(kernel), table_bits, threads)
        """The kind: engines of equal keys are interchangeable."""
        self._pool = pool

    def take(self) -> CompiledEngine:
        """An idle engine of this kind (the one given back last), or a new one. It is the
        caller's until it gives it back with :meth:`put`."""
        return self._pool._take(self)

    def put(self, engine: CompiledEngine) -> None:
        """Give ``engine`` back: it waits idle for the next search of its kind, unless the
        pool's limit drops it (or, later, another engine's return does)."""
        self._pool._put(self, engine)

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
    """The most bytes of idle compiled engines this process keeps
    (:data:`DEFAULT_POOL_LIMIT` unless set)."""
    return POOL.limit


def set_pool_limit(limit: int) -> int:
    """Keep at most ``limit`` bytes of idle compiled engines in this process (0: none); idle
    engines beyond it are dropped now. Returns the previous limit. Engines in use are not
    affected (see the module's documentation)."""
    return POOL.set_limit(limit)


def pool_bytes() -> int:
    """The bytes of the idle compiled engines this process holds now (at most
    :func:`pool_limit`)."""
    return POOL.idle_bytes()


__all__ = ["DEFAULT_POOL_LIMIT", "MIB", "EnginePool", "Engines", "engine_bytes", "pool_bytes",
           "pool_limit", "set_pool_limit"]
