"""Kernels compiled off the requests' path: the server's compile processes.

A game variant's first compiled search needs its kernel compiled (tens of seconds, once per
kernel cache). A search worker never compiles (:class:`~gametree.web.jobs.NotCompiledError`):
the server hands the variant to a compile process of its own, answers the request at once
with 503 and what is being prepared (:meth:`Preparation.as_dict`), and goes on answering
everything else. The compile process is no request's: a client that goes away stops nothing.

When the server starts, a compile process checks the kernels of the games it offers at their
default sizes and compiles those the cache lacks, one after the other; ``GET /api/status``
says where each stands. Variants asked for later wait for the compile process running (one at
a time: compiles are heavy) and go in the next one. A compile process exits when it has
nothing left to do, so the memory a compile takes goes back to the system.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ..compiled.form import compiled_form_of
from ..compiled.kernel import Kernel
from ..frontend import offered_games
from ..registry import GameSpec

CHECKING, QUEUED, COMPILING, READY, FAILED = "checking", "queued", "compiling", "ready", "failed"
"""Where a kernel stands: checked by a compile process (searches go on to a worker, which finds
it compiled or not), waiting for a compile process, compiling, ready, or failed."""

FIRST_GUESS = 60.0
"""Seconds a compile is expected to take before this server has timed one."""

RETRY_BOUNDS = (2, 30)
"""The least and most seconds a "preparing" answer tells the client to wait (the page polls)."""


@dataclass
class Preparation:
    """One kernel's preparation: the variant that asked for it, and where it stands."""

    game: str
    """The game's name."""

    options: dict[str, Any]
    """The game's options (read), as the variant's first request gave them."""

    kernel: str
    """The kernel's name (``Connect Four 7x6``)."""

    state: str = CHECKING
    """One of :data:`CHECKING`, :data:`QUEUED`, :data:`COMPILING`, :data:`READY`,
    :data:`FAILED`."""

    since: float = field(default_factory=time.monotonic)
    """When the preparation entered its state (``time.monotonic``)."""

    detail: str | None = None
    """Why it failed (:data:`FAILED`)."""

    def waiting(self) -> bool:
        """Whether searches of this kernel are answered "preparing" (it is queued or
        compiling)."""
        return self.state in (QUEUED, COMPILING)

    def as_dict(self, expected: float | None, ahead: int = 0) -> dict[str, Any]:
        """The JSON of ``GET /api/status``'s ``kernels`` and of a "preparing" answer."""
        return {"game": self.game, "options": self.options, "kernel": self.kernel,
                "state": self.state, "elapsed": round(time.monotonic() - self.since, 1),
                "expected": None if expected is None else round(expected, 1),
                "ahead": ahead, "detail": self.detail}


def compile_main(connection: Connection, variants: list[tuple[str, str, dict[str, Any]]],
                 games: tuple[str, ...] | None) -> None:
    """A compile process: for each ``(key, game, options)``, say ``(key, state, detail)``:
    :data:`READY` when the cache has its kernel, else :data:`QUEUED`, then (the variants
    checked) compile the missing ones in turn, each :data:`COMPILING` and then :data:`READY`,
    or :data:`FAILED` with why. ``games``: the import paths of the games offered."""
    from ..compiled.build import engine_cached  # noqa: PLC0415 - imports numba
    from ..compiled.engine import CompiledEngine  # noqa: PLC0415
    from ..compiled.startup import without_blas_probe  # noqa: PLC0415

    os.setpgrp()  # Ctrl-C in the server's terminal reaches the server alone
    specs = offered_games(games)
    missing: list[tuple[str, Kernel]] = []
    with without_blas_probe():
        for key, name, options in variants:  # first what is cached: a moment each
            try:
                form = compiled_form_of(specs[name].make(**options))
                if isinstance(form, str):
                    raise ValueError(form)
                cached = engine_cached(form.kernel) is not False
            except Exception as error:
                connection.send((key, FAILED, f"{type(error).__name__}: {error}"))
                continue
            if cached:
                connection.send((key, READY, None))
            else:
                connection.send((key, QUEUED, None))
                missing.append((key, form.kernel))
        for key, kernel in missing:  # then the compiles, one after the other
            connection.send((key, COMPILING, None))
            try:
                # The smallest table: the compile is what is wanted (every entry point, into
                # the cache), not the engine.
                CompiledEngine(kernel, table_bits=8)
            except Exception as error:
                connection.send((key, FAILED, f"{type(error).__name__}: {error}"))
            else:
                connection.send((key, READY, None))
    connection.close()


def kernel_key(kernel: Kernel) -> str | None:
    """How the server tells kernels apart (``None``: a kernel that cannot be cached, which
    each worker compiles for itself)."""
    return kernel.identity()


def default_kernels(specs: Mapping[str, GameSpec]) -> list[tuple[str, str, Kernel]]:
    """``(key, game, kernel)`` of each offered game, at its default size, that has a kernel
    (a game whose defaults make no game, as the tree's, has none to prepare)."""
    found = []
    for name, spec in specs.items():
        try:
            form = compiled_form_of(spec.make())
        except Exception:  # no default game (the tree needs one given): nothing to prepare
            continue
        if isinstance(form, str):
            continue
        key = kernel_key(form.kernel)
        if key is not None:
            found.append((key, name, form.kernel))
    return found


class Preparer:
    """The server's kernel preparations and the compile process working on them."""

    def __init__(self, context: Any, games: tuple[str, ...] | None) -> None:
        self._context = context
        self._games = games
        self.entries: dict[str, Preparation] = {}
        """Every kernel asked for, by :func:`kernel_key`."""
        self._pending: list[str] = []
        self._process: Any = None
        self._batch: list[str] = []
        """The kernels the running compile process was given."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._durations: list[float] = []
        self._closed = False

    def start(self, specs: Mapping[str, GameSpec]) -> None:
        """Check (and compile where missing) the kernels of the games offered, at their
        default sizes, in the background."""
        self._loop = asyncio.get_running_loop()
        for key, name, kernel in default_kernels(specs):
            if key not in self.entries:
                self.entries[key] = Preparation(name, {}, kernel.name)
                self._pending.append(key)
        self._launch()

    def close(self) -> None:
        """End the compile process running, if any (its compile is lost: the next server
        compiles the kernel again)."""
        self._closed = True
        process = self._process
        if process is not None:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(timeout=5)

    def waiting(self, key: str | None) -> Preparation | None:
        """The preparation of kernel ``key`` if its searches must wait for it (queued or
        compiling), else ``None`` (unknown, being checked, ready or failed: a worker finds
        out)."""
        entry = None if key is None else self.entries.get(key)
        return entry if entry is not None and entry.waiting() else None

    def ready(self, key: str | None) -> None:
        """A worker searched with kernel ``key``: it is compiled."""
        entry = None if key is None else self.entries.get(key)
        if entry is not None and entry.state != READY:
            entry.state, entry.since, entry.detail = READY, time.monotonic(), None

    def ask(self, key: str, game: str, options: dict[str, Any], kernel: str) -> Preparation:
        """Have kernel ``key`` compiled (a worker found it missing): its preparation, queued
        for a compile process unless one is on it already."""
        entry = self.entries.get(key)
        if entry is not None and entry.state in (CHECKING, QUEUED, COMPILING):
            # pending, or in the running compile process's batch
            if entry.state == CHECKING:  # its compile process will find it missing
                entry.state, entry.since = QUEUED, time.monotonic()
            return entry
        entry = Preparation(game, dict(options), kernel, QUEUED)
        self.entries[key] = entry
        self._pending.append(key)
        self._launch()
        return entry

    def expected(self) -> float | None:
        """Seconds a compile takes here (the median of those timed), or ``None`` before the
        first."""
        return statistics.median(self._durations) if self._durations else None

    def ahead(self, key: str) -> int:
        """Compiles to be done before kernel ``key``'s starts."""
        order = [*self._batch, *self._pending]  # the order they are compiled in
        if key not in order:
            return 0
        before = order[:order.index(key)]
        return sum(1 for other in before
                   if self.entries[other].state in (CHECKING, QUEUED, COMPILING))

    def retry_after(self, key: str) -> int:
        """Seconds until kernel ``key`` is likely compiled, within :data:`RETRY_BOUNDS`."""
        entry = self.entries[key]
        each = self.expected() or FIRST_GUESS
        left = each * (1 + self.ahead(key))
        if entry.state == COMPILING:
            left = max(each - (time.monotonic() - entry.since), 0.0)
        low, high = RETRY_BOUNDS
        return int(min(max(round(left), low), high))

    def describe(self, key: str) -> dict[str, Any]:
        """Kernel ``key``'s preparation as JSON."""
        return self.entries[key].as_dict(self.expected(), self.ahead(key))

    def status(self) -> list[dict[str, Any]]:
        """Every kernel's preparation (``GET /api/status``)."""
        return [self.describe(key) for key in self.entries]

    # -- the compile process -------------------------------------------------------------------

    def _launch(self) -> None:
        """Start a compile process on what is pending, unless one runs (it takes the rest
        when it ends)."""
        if self._process is not None or not self._pending or self._closed or \
                self._loop is None:
            return
        batch, self._pending = self._pending, []
        variants = [(key, self.entries[key].game, self.entries[key].options) for key in batch]
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=compile_main,
                                        args=(theirs, variants, self._games),
                                        name="gametree-compile", daemon=True)
        process.start()
        theirs.close()
        self._process, self._batch = process, batch
        threading.Thread(target=self._listen, args=(ours, process, self._loop),
                         name="gametree-compile-listener", daemon=True).start()

    def _listen(self, connection: Connection, process: Any,
                loop: asyncio.AbstractEventLoop) -> None:
        """Relay the compile process's reports to the event loop; reap it when it ends."""
        while True:
            try:
                report = connection.recv()
            except (EOFError, OSError):
                break
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._report, *report)
        connection.close()
        process.join()  # no zombie
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._ended, process)

    def _report(self, key: str, state: str, detail: str | None) -> None:
        entry = self.entries.get(key)
        if entry is None:
            return
        now = time.monotonic()
        if state == READY and entry.state == COMPILING:
            self._durations = [*self._durations[-15:], now - entry.since]
        entry.state, entry.since, entry.detail = state, now, detail

    def _ended(self, process: Any) -> None:
        if process is not self._process:
            return
        self._process = None
        for key in self._batch:
            entry = self.entries.get(key)
            if entry is not None and entry.state in (CHECKING, QUEUED, COMPILING):
                entry.state, entry.since = FAILED, time.monotonic()
                entry.detail = f"the compile process ended (exit code {process.exitcode})"
        self._batch = []
        self._launch()
