"""Ctrl-C and compiled code: searches that stop for it, and compiles that cannot.

Python runs a signal handler only between two bytecodes of the main thread, so a
``KeyboardInterrupt`` cannot reach a search running inside one compiled call: the Python tier
and the reference algorithms stop at once, a compiled exact solve would go on for minutes.

**Searches.** The compiled search asks CPython itself, every few thousand nodes, whether SIGINT
has arrived: ``PyOS_InterruptOccurred``, a C function of the interpreter (the test of a flag the
interpreter's C-level signal handler sets), called through its address, which each engine's
workspace holds (:func:`check_address`). When it has, the search stops the way a node budget
stops it, and the engine hands the signal on (:func:`deliver`): SIGINT's handler runs as it
would have between two bytecodes, and Python's default handler raises ``KeyboardInterrupt``
from the search call. This works in any program, with no set-up: a script, the REPL, a
notebook whose kernel is interrupted. It costs nothing per search and one well-predicted
branch per node; the interpreter lock stays held, as before. Searches in other threads than
the main one are not stopped (Python handles signals in the main thread only).

(The design first considered: release the interpreter lock in the compiled entry points
(``nogil``), and let a watcher thread, woken through ``signal.set_wakeup_fd``, set the node
limit of every running search to zero. It needs that thread in every program that wants Ctrl-C,
costs a lock release and reacquisition and a registry update in every search (about 0.15 us of
a 10 us call), and a thread that searches many small positions while another thread runs Python
code hands the lock over at every search: a one-move tic-tac-toe search took 40 to 46 us instead
of 25 beside a thread looping in Python, measured.)

**Compiling.** Some work cannot take a ``KeyboardInterrupt`` at all: numba compiling or
loading machine code (the exception is lost inside an LLVM callback, "Exception ignored on
calling ctypes callback function", and numba then fails, or goes on to run the search as if
nothing had happened), and importing a module (numpy turns the exception into an
``ImportError``). A program that would rather end than be broken then can say so with
:func:`end_process_on_fragile_sigint`; the command line does.

Nothing here imports numba or numpy.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any

_address: int | None = None


def check_address() -> int:
    """The address of CPython's ``int PyOS_InterruptOccurred(void)`` (true once per SIGINT that
    arrived, in the main thread), for the compiled search to call; 0 where there is none."""
    global _address  # noqa: PLW0603 - found once per process
    if _address is None:
        try:
            import ctypes  # noqa: PLC0415 - only for the compiled tier

            _address = ctypes.cast(ctypes.pythonapi.PyOS_InterruptOccurred,
                                   ctypes.c_void_p).value or 0
        except (ImportError, AttributeError, ValueError):  # not CPython
            _address = 0
    return _address


def deliver() -> None:
    """Hand on the SIGINT a compiled search stopped for (the search took it from the
    interpreter, whose handler has not run): raise it again, so that SIGINT's handler runs now.
    Python's default handler raises ``KeyboardInterrupt`` from here; if a handler returns, so
    does this, and the caller searches on."""
    signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within this block SIGINT raises nothing: its handler runs when the block ends (once,
    however often it arrived), so that the block runs whole. In the main thread, while SIGINT
    has a handler set from Python; elsewhere (no signal reaches other threads' code) or with a
    handler Python cannot restore, the block runs unchanged. Costs two handler swaps (a few
    microseconds)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []
    try:
        previous: Any = signal.signal(signal.SIGINT, lambda signum, frame: arrived.append(signum))
    except (TypeError, ValueError):  # no handler Python knows, or no signals here
        yield
        return
    if previous is None:  # a handler set outside Python: it cannot be put back
        signal.signal(signal.SIGINT, signal.default_int_handler)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if arrived:
            signal.raise_signal(signal.SIGINT)  # the handler runs now, as if it came now


def fragile(frame: FrameType | None = None) -> bool:
    """True while the main thread does what a ``KeyboardInterrupt`` would break: numba
    compiling or loading machine code (it holds its compiler lock), or a module being
    imported. ``frame``: the main thread's current frame, if known (a signal handler's)."""
    main = threading.main_thread()
    if frame is None:
        frame = sys._current_frames().get(main.ident or 0)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    module = sys.modules.get("numba.core.compiler_lock")
    lock = getattr(getattr(module, "global_compiler_lock", None), "_lock", None)
    if lock is None:  # numba is not loaded (or has changed): it compiles nothing of ours
        return False
    if threading.current_thread() is main:
        return bool(lock._is_owned())
    if lock.acquire(blocking=False):  # asked by another thread, about the main thread
        lock.release()
        return False
    return True


@contextlib.contextmanager
def end_process_on_fragile_sigint(end_process: Callable[[], object]) -> Iterator[None]:
    """Within this block, SIGINT that arrives while the main thread is :func:`fragile` raises
    no ``KeyboardInterrupt``: ``end_process()`` is called instead, at once, and is meant to end
    the process (the command line flushes its output, prints its message and exits with status
    130). At other times the first SIGINT raises ``KeyboardInterrupt`` as usual, and any later
    one calls ``end_process()`` (the program is ending already, or lost the first). If
    ``end_process`` returns, ``KeyboardInterrupt`` is raised after all.

    "At once": the main thread runs the handler only between bytecodes, and numba spends
    seconds inside single LLVM calls (which release the interpreter lock); so a thread of this
    block also watches for SIGINT, woken through ``signal.set_wakeup_fd`` the moment the signal
    arrives, and calls ``end_process`` itself if the main thread is fragile. A wake-up file
    descriptor set before (asyncio's, say) is restored at the end, and not woken meanwhile.

    Only in the main thread, and only while SIGINT has Python's default handler: elsewhere the
    block runs unchanged.
    """
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    try:
        channel: _WakeUp | None = _WakeUp()
    except OSError:  # no watcher then: the handler alone, between bytecodes
        channel = None
    watcher: threading.Thread | None = None
    previous_fd = -1
    previous_handler: Any = signal.signal(signal.SIGINT, _handler(end_process))
    try:
        if channel is not None:
            previous_fd = signal.set_wakeup_fd(channel.writer, warn_on_full_buffer=False)
            watcher = threading.Thread(target=_watch, args=(channel, end_process),
                                       name="gametree-sigint", daemon=True)
            watcher.start()
        yield
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        if channel is not None:
            signal.set_wakeup_fd(previous_fd)
            if watcher is not None:
                with contextlib.suppress(OSError):
                    channel.send(_QUIT)
                watcher.join()
            channel.close()


_QUIT = b"\0"
"""Sent to the watcher to end it: no signal has number 0."""


class _WakeUp:
    """The watcher's wake-up channel, whose writing end (:attr:`writer`, non-blocking: the
    C-level signal handler must never wait) ``signal.set_wakeup_fd`` writes signal numbers to:
    a pipe, or where that function takes only sockets (Windows) a socket pair (the
    :mod:`socket` module, 3 ms of a command's start, is imported only there)."""

    def __init__(self) -> None:
        self._sockets: Any = None
        if os.name == "posix":
            self._reader, self.writer = os.pipe()
            os.set_blocking(self.writer, False)
        else:
            import socket  # noqa: PLC0415 - Windows only

            self._sockets = socket.socketpair()
            self._sockets[1].setblocking(False)
            self._reader, self.writer = (end.fileno() for end in self._sockets)

    def receive(self) -> bytes:
        """The signal numbers written since the last call (waits for one)."""
        if self._sockets is None:
            return os.read(self._reader, 64)
        return bytes(self._sockets[0].recv(64))

    def send(self, data: bytes) -> None:
        """Write ``data`` as the signal handler would."""
        if self._sockets is None:
            os.write(self.writer, data)
        else:
            self._sockets[1].send(data)

    def close(self) -> None:
        """Close both ends."""
        if self._sockets is None:
            os.close(self._reader)
            os.close(self.writer)
        else:
            for end in self._sockets:
                end.close()


def _watch(channel: _WakeUp, end_process: Callable[[], object]) -> None:
    """The watcher thread: wait for signal numbers; on SIGINT, end the process if the main
    thread is fragile (else its handler raises ``KeyboardInterrupt``)."""
    while True:
        try:
            numbers = channel.receive()
        except InterruptedError:
            continue
        except OSError:
            return
        if signal.SIGINT in numbers and fragile():
            end_process()
        if not numbers or _QUIT[0] in numbers:
            return


def _handler(end_process: Callable[[], object]) -> Callable[[int, FrameType | None], None]:
    """SIGINT's handler in the main thread: ``KeyboardInterrupt``, unless that would break
    what the thread is doing, or one was raised already."""
    raised = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal raised
        # Once KeyboardInterrupt is on its way, another one would land in whatever the first
        # one's unwinding runs (a finaliser, which prints it and loses it); and if the first
        # was lost so, the user's next Ctrl-C must still end the program.
        if raised or fragile(frame):
            end_process()
        raised = True
        raise KeyboardInterrupt

    return handler


def wait_all(finished: Sequence[threading.Event]) -> None:
    """Wait until every thread has left its compiled call (its event set), even through
    another Ctrl-C (raised again at the end): a compiled thread left running would share its
    workspace, or its table, with the next search. Events, not ``Thread.join``: in CPython
    3.11 a join interrupted by ``KeyboardInterrupt`` can mark a running thread stopped
    (gh-90882)."""
    again: KeyboardInterrupt | None = None
    for done in finished:
        while not done.is_set():
            try:
                done.wait()
            except KeyboardInterrupt as error:
                again = error
    if again is not None:
        raise again


__all__ = ["check_address", "deferred", "deliver", "end_process_on_fragile_sigint",
           "fragile", "wait_all"]
