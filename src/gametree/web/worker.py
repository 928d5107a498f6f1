"""The worker process: runs jobs one at a time in its main thread, and stops one when asked.

The server asks a worker to stop a job (its client went away, or it ran past the time limit)
by writing the job's number into a shared value and sending the process SIGINT. SIGINT stops
a search on either tier: a Python search between two bytecodes, a compiled search by itself
within a few thousand nodes (:mod:`gametree.compiled.interrupt`). The handler here raises
:class:`Stopped` only for the job named in the shared value, so a signal that arrives late, or
between jobs, stops nothing; and never while numba compiles or loads a kernel, which an
exception would break (the server then sends the signal again a moment later).

The worker runs in a process group of its own, so that Ctrl-C in the terminal of
``gametree serve`` reaches the server alone, which then ends its workers.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from ..compiled.interrupt import fragile
from ..compiled.startup import without_blas_probe
from ..frontend import offered_games
from ..pool import set_pool_limit
from .jobs import Job, NotCompiledError, Workshop, failure_message
from .limits import ServerLimits


class Stopped(BaseException):
    """The server asked for the running job to stop (a ``BaseException``, like
    ``KeyboardInterrupt``, so that no ``except Exception`` in a search swallows it)."""


_current = 0
"""The number of the job running now (0: none)."""

STARTED = 100
"""The status of the message a worker sends when a job's search starts (the kernel loaded)."""

NOT_COMPILED = 101
"""The status of a reply saying the job's kernel is not compiled yet (its body: the kernel's
name); the worker compiled nothing (:class:`~gametree.web.jobs.NotCompiledError`)."""


def _handler(stop: Any) -> Any:
    def handle(signum: int, frame: FrameType | None) -> None:
        if _current and stop.value == _current and not fragile(frame):
            raise Stopped

    return handle


def answer(workshop: Workshop, job: Job,
           started: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """The reply to one job: ``{"status": 200, "body": ...}`` or an error's status and
    message. ``started`` is called when the search itself starts."""
    try:
        return {"status": 200, "body": workshop.run(job, started)}
    except NotCompiledError as missing:
        return {"status": NOT_COMPILED, "body": str(missing)}
    except RecursionError:
        return {"status": 400, "body": "the request nests or searches too deep"}
    except Exception as error:
        message = failure_message(error)
        if message is not None:
            return {"status": 400, "body": message}
        return {"status": 500, "body": f"internal error: {type(error).__name__}: {error}"}


def _starter(connection: Connection, number: int) -> Callable[[], None]:
    """Say that job ``number``'s search starts; from then on, a signal can stop it (not
    while a message is being sent, which it would cut in half)."""

    def started() -> None:
        global _current  # noqa: PLW0603 - the one job running in this process
        connection.send((number, {"status": STARTED, "body": None}))
        _current = number

    return started


def set_up(limits: ServerLimits, games: tuple[str, ...] | None = None) -> Workshop:
    """What a worker process keeps between jobs (the games the server offers, by their import
    paths: ``None``, the registry's), and its engine pool bounded as ``limits`` say
    (:attr:`ServerLimits.engine_pool_bytes`)."""
    set_pool_limit(limits.engine_pool_bytes)
    return Workshop(offered_games(games), limits)


def main(connection: Connection, stop: Any, limits: dict[str, Any],
         games: tuple[str, ...] | None = None) -> None:
    """The worker's loop: receive ``(number, job)``, send ``(number, reply)``; a stopped job's
    reply has status 0. ``games``: the import paths of the games the server offers (``None``:
    the registry's), imported here as the server imported them."""
    global _current  # noqa: PLW0603 - the one job running in this process
    os.setpgrp()
    signal.signal(signal.SIGINT, _handler(stop))
    workshop = set_up(ServerLimits(**limits), games)
    with without_blas_probe():
        while True:
            try:
                number, job = connection.recv()
            except (EOFError, OSError):  # the server is gone
                return
            except Stopped:  # a late signal for a job that has ended
                continue
            try:
                reply = answer(workshop, job, _starter(connection, number))
                _current = 0
            except Stopped:
                _current = 0
                reply = {"status": 0, "body": "stopped"}
            try:  # _current is 0 again: no signal interrupts the sending
                connection.send((number, reply))
            except (OSError, ValueError):
                return


if __name__ == "__main__":  # pragma: no cover - started by multiprocessing only
    sys.exit("gametree.web.worker is started by gametree serve")
