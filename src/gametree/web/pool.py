"""Worker processes behind a bounded queue: where the server's searches run.

A compiled search holds its process's interpreter lock for as long as a compiled call lasts
(seconds, for a long solve), so searches run in worker processes, never in the server's: the
event loop always answers, and a short search waits only for a free worker, never for a long
search's lock. The pool has :attr:`ServerLimits.workers` processes and lets at most
:attr:`ServerLimits.queue_size` jobs wait for one; a job beyond that is refused at once
(:class:`BusyError`: 503 with Retry-After).

Stopping a job (:meth:`SearchPool.run` cancelled: its client went away; or past
:attr:`ServerLimits.max_time` plus :attr:`ServerLimits.grace`, counted from the moment the
worker starts searching, its game built and its compiled kernel loaded) signals its worker
(:mod:`gametree.web.worker`) again every :data:`RESIGNAL` seconds until the job ends; a worker
that does not answer within :data:`KILL_AFTER` seconds is killed and replaced, as is one that
dies (and reaped: no zombie is left).

A worker compiles no kernel: a job whose kernel is not compiled yet comes back at once
(:class:`~gametree.web.jobs.NotCompiledError`) and the pool's :class:`Preparer` has it
compiled in a process of its own (:mod:`gametree.web.prepare`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from multiprocessing.connection import Connection
from typing import Any

from . import worker
from .jobs import Job, NotCompiledError
from .limits import ServerLimits
from .prepare import Preparer

RESIGNAL = 0.25
"""Seconds between two signals to a worker whose job should stop."""

KILL_AFTER = 10.0
"""Seconds a worker has to stop a job before it is killed and replaced."""

RECENT = 64
"""Jobs whose durations estimate the next ones' (for Retry-After)."""


def retry_after(running: list[float], waiting: int, recent: list[float], workers: int,
                bound: float) -> int:
    """Seconds until a worker is likely free for one more job: what the jobs ``running``
    (seconds each has run) have left and the ``waiting`` jobs' share of the ``workers``, each
    job taking the mean of the ``recent`` durations (``bound``, the time limit, before any
    job has ended): the time to work off what is queued now; at least 1."""
    each = statistics.fmean(recent) if recent else bound
    left = sum(max(each - elapsed, 0.0) for elapsed in running) + waiting * each
    return max(1, math.ceil(left / max(1, workers)))


class BusyError(Exception):
    """Every worker is busy and the queue is full; try again after :attr:`retry_after`."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy: every worker is searching and {retry_after} s "
                         f"of work is waiting; try again later")
        self.retry_after = retry_after


class TooLongError(Exception):
    """A search that cannot stop by itself ran past the server's time limit and was stopped."""


class WorkerLostError(Exception):
    """The worker process running a job ended before answering."""


class _Slot:
    """One worker process, its pipe, and the shared value that names the job to stop."""

    def __init__(self, context: Any, limits: ServerLimits,
                 games: tuple[str, ...] | None) -> None:
        self._context = context
        self._limits = limits
        self._games = games
        self.stop = context.Value("q", 0, lock=False)
        self.process: Any = None
        self.connection: Connection | None = None
        self.started: float | None = None
        """When the running job's search started (its game built, its kernel loaded): the
        time limit counts from then."""
        self.began: float | None = None
        """When the running job was sent to the worker (``None``: no job)."""
        self.spawn()

    def spawn(self) -> None:
        """Start a new worker process (the old one, if any, is gone)."""
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=worker.main, args=(theirs, self.stop, asdict(self._limits), self._games),
            name="gametree-search", daemon=True)
        process.start()
        theirs.close()
        self.process, self.connection = process, ours

    def exchange(self, number: int, job: Job) -> dict[str, Any]:
        """Send a job and wait for its reply (in an I/O thread)."""
        connection = self.connection
        assert connection is not None
        try:
            connection.send((number, job))
            while True:
                answered, reply = connection.recv()
                if answered == number and reply.get("status") == worker.STARTED:
                    self.started = time.monotonic()
                elif answered == number:
                    return dict(reply)
        except (EOFError, OSError) as error:
            raise WorkerLostError from error

    def signal_stop(self, number: int) -> None:
        """Ask the worker to stop job ``number``."""
        self.stop.value = number
        with contextlib.suppress(ProcessLookupError, TypeError):
            os.kill(self.process.pid, signal.SIGINT)

    def kill(self) -> None:
        """End the worker process now, and reap it in a thread of its own (a process that
        has ended stays a zombie until its parent waits for it)."""
        process = self.process
        with contextlib.suppress(ProcessLookupError, AttributeError):
            process.kill()
        if process is not None:
            threading.Thread(target=process.join, args=(KILL_AFTER,), daemon=True,
                             name="gametree-reaper").start()
        if self.connection is not None:
            self.connection.close()

    def close(self) -> None:
        """End the worker process and wait for it."""
        self.kill()
        with contextlib.suppress(Exception):
            self.process.join(timeout=5)


class SearchPool:
    """The worker processes and the queue in front of them (one per server)."""

    def __init__(self, limits: ServerLimits, games: tuple[str, ...] | None = None) -> None:
        self.limits = limits
        self.games = games
        """The import paths of the games offered (:func:`gametree.frontend.offered_games`),
        which each worker process imports; ``None``: the registry's games."""
        self._context = multiprocessing.get_context("spawn")
        self._slots: list[_Slot] = []
        self._idle: asyncio.Queue[_Slot] | None = None
        self._waiting = 0
        self._numbers = itertools.count(1)
        self._io = ThreadPoolExecutor(max_workers=limits.workers,
                                      thread_name_prefix="gametree-pool")
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._recent: deque[float] = deque(maxlen=RECENT)
        self.stopped = 0
        """Jobs asked to stop before their end (cancelled, or past the limit)."""
        self.preparer = Preparer(self._context, games)
        """The kernels compiled for the workers (:mod:`gametree.web.prepare`)."""

    async def start(self) -> None:
        """Start the worker processes (they load the package while the server starts)."""
        self._idle = asyncio.Queue()
        for _ in range(self.limits.workers):
            slot = _Slot(self._context, self.limits, self.games)
            self._slots.append(slot)
            self._idle.put_nowait(slot)

    async def close(self) -> None:
        """End every worker process (and the compile process)."""
        self.preparer.close()
        for slot in self._slots:
            slot.close()
        self._io.shutdown(wait=False, cancel_futures=True)

    def status(self) -> dict[str, Any]:
        """Workers, how many are searching, jobs waiting, jobs stopped so far; whether every
        kernel asked for is ready (``prepared``: none queued, being checked or compiling) and
        where each stands (``kernels``, :meth:`Preparation.as_dict`)."""
        idle = 0 if self._idle is None else self._idle.qsize()
        kernels = self.preparer.status()
        prepared = all(kernel["state"] in ("ready", "failed") for kernel in kernels)
        return {"workers": len(self._slots), "busy": len(self._slots) - idle,
                "waiting": self._waiting, "stopped": self.stopped, "prepared": prepared,
                "kernels": kernels}

    def _retry_after(self) -> int:
        now = time.monotonic()
        running = [now - slot.began for slot in self._slots if slot.began is not None]
        return retry_after(running, self._waiting, list(self._recent), self.limits.workers,
                           self.limits.max_time)

    async def run(self, job: Job) -> dict[str, Any]:
        """Run ``job`` in a worker; the reply ``{"status": ..., "body": ...}``.

        Raises :class:`BusyError` when the queue is full, :class:`TooLongError` when the job passed
        the time limit and was stopped, :class:`WorkerLostError` when its worker died,
        :class:`~gametree.web.jobs.NotCompiledError` when its kernel is not compiled yet (the
        worker compiled nothing). Cancelling the call stops the job.
        """
        idle = self._idle
        if idle is None:
            raise RuntimeError("the pool is not started")
        if idle.empty() and self._waiting >= self.limits.queue_size:
            raise BusyError(self._retry_after())
        self._waiting += 1
        try:
            slot = await idle.get()
        finally:
            self._waiting -= 1
        number = next(self._numbers)
        loop = asyncio.get_running_loop()
        slot.started, slot.began = None, time.monotonic()
        future = loop.run_in_executor(self._io, slot.exchange, number, job)
        future.add_done_callback(lambda done: self._release(slot, done))
        allowed = self.limits.max_time + self.limits.grace
        try:
            while not future.done():
                await asyncio.wait({future}, timeout=RESIGNAL)
                started = slot.started
                if not future.done() and started is not None and \
                        time.monotonic() - started > allowed:
                    self.stopped += 1
                    reply = await self._stop(slot, number, future)
                    if reply is not None and reply.get("status") != 0:
                        return reply  # it ended by itself meanwhile
                    raise TooLongError(
                        f"the search did not end within this server's limit of "
                        f"{self.limits.max_time:g} s (gametree serve --max-time) and was "
                        f"stopped, with no answer reached: give a depth, a smaller tree or a "
                        f"later position")
            reply = future.result()
            if reply.get("status") == worker.NOT_COMPILED:
                raise NotCompiledError(str(reply.get("body")))
            return reply
        except asyncio.CancelledError:
            self.stopped += 1
            stopping = loop.create_task(self._stop(slot, number, future))
            self._tasks.add(stopping)
            stopping.add_done_callback(self._tasks.discard)
            raise

    async def _stop(self, slot: _Slot, number: int,
                    future: asyncio.Future[dict[str, Any]]) -> dict[str, Any] | None:
        """Signal the worker until job ``number`` ends (kill it after :data:`KILL_AFTER`)."""
        waited = 0.0
        while not future.done():
            if waited >= KILL_AFTER:
                slot.kill()  # its I/O thread sees the pipe close: the slot is replaced
                break
            slot.signal_stop(number)
            await asyncio.wait({future}, timeout=RESIGNAL)
            waited += RESIGNAL
        try:
            return await future
        except WorkerLostError:
            return None

    def _release(self, slot: _Slot, done: asyncio.Future[dict[str, Any]]) -> None:
        """Make the slot idle again when its job has ended (with a new process if the old
        one died)."""
        if slot.began is not None:
            self._recent.append(time.monotonic() - slot.began)
            slot.began = None
        if done.cancelled() or done.exception() is not None:
            slot.kill()
            slot.spawn()
        if self._idle is not None:
            self._idle.put_nowait(slot)
