"""Ctrl-C and compiled code: searches that stop for it.

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

Nothing here imports numba or numpy.
"""

from __future__ import annotations

import signal

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


__all__ = ["check_address", "deliver"]
