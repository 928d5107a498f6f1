"""Ctrl-C and the compiled search in any program: with no set-up, the search notices SIGINT
within a few thousand nodes, stops, and hands the signal to its handler (Python's default raises
KeyboardInterrupt from the search call); the engine then works as before. The command line's
side is tests/test_cli_interrupt.py.

The signals come from another process, sent a moment after the search starts (no thread of this
process runs while a compiled search holds the interpreter lock); each test checks that the
search had begun (its node counter, or the frame the handler ran in).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from types import FrameType
from typing import Any

import pytest

from gametree.compiled import CompiledEngine
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour
from gametree.registry import play_moves

from .compiled_support import engine_for

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="kill -INT is POSIX"),
    pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                       reason="Python handles signals in the main thread only"),
]

QUICK = "2252576253462244111563365343671351441"
"""A Connect Four position a few plies from the end (Pons' L3_R1, line 1): solved at once."""

LONGER = "4444443"
"""A position whose exact solve takes a second or two (12 million nodes)."""


def signal_soon(seconds: float) -> subprocess.Popen[bytes]:
    """A process that sends this one SIGINT in ``seconds`` (a signal from outside: no thread
    of this process runs while a compiled search holds the interpreter lock)."""
    return subprocess.Popen(["sh", "-c", f"sleep {seconds}; kill -INT {os.getpid()}"])


def loaded_engine() -> tuple[ConnectFour, Any, CompiledEngine]:
    """Connect Four's compiled form and an engine whose search is loaded (so that a signal
    lands in the search, never in numba loading it)."""
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    engine = engine_for(form.kernel)
    engine.search(form.encode(play_moves(game, list(QUICK))))
    return game, form, engine


def test_ctrl_c_stops_a_compiled_search_in_any_program() -> None:
    # No set-up at all (no command line): the search itself notices SIGINT, stops, and the
    # default handler raises KeyboardInterrupt from the call; the engine then works as before.
    game, form, engine = loaded_engine()
    killer = signal_soon(0.3)
    with pytest.raises(KeyboardInterrupt):
        engine.search(form.encode(game.initial_state()))  # the whole game: minutes
    killer.wait()
    assert engine._ws[0] >= 4096  # the node counter: the search had begun (it checks so often)
    state = play_moves(game, list(QUICK))
    solved = engine.search(form.encode(state), form=form, root=state)
    assert (solved.outcome, solved.stats.stopped_by) == ("loss", None)
    budgeted = engine.search(form.encode(game.initial_state()), nodes=2000)
    assert budgeted.stats.stopped_by == "nodes" and budgeted.best_move is not None


def test_a_sigint_handler_that_returns_lets_the_search_go_on() -> None:
    # The search hands the signal to whatever handler is installed, as Python code would have:
    # one that does not raise is called once, and the search then finishes, with its answer.
    game, form, engine = loaded_engine()
    calls: list[str] = []

    def note(signum: int, frame: FrameType | None) -> None:
        calls.append(frame.f_code.co_name if frame is not None else "")

    state = form.encode(play_moves(game, list(LONGER)))
    previous = signal.signal(signal.SIGINT, note)
    try:
        killer = signal_soon(0.2)
        result = engine.search(state, fresh=True)  # one compiled call, 12 million nodes
        killer.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == ["deliver"]  # handed on by the interrupted search, once
    assert result.value == -(1_000_000 - 34)  # lost in 34 plies, as without the interruption
