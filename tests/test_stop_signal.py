"""The stop signal (:class:`gametree.limits.StopSignal`): another thread ends a search the way a
budget would — the Python engine in the middle of an iteration, within a few thousand nodes;
the reference algorithms' deepening between iterations. Unlike the budgets, it stops the first
iteration too (there is then no report); otherwise the reports end with the deepest completed
iteration's answer.

Deterministic: the signal is set before the search or by the game itself after a counted
number of evaluations (no clock is read).
"""

from __future__ import annotations

import threading
from typing import Any

import gametree
from gametree.engine import Engine
from gametree.engine.search import CHECK_EVERY, FIRST_CHECK_EVERY
from gametree.games.connect4 import ConnectFour
from gametree.result import StopReason
from gametree.values import Value


class Alarm(ConnectFour):
    """Connect Four that sets ``signal`` at its ``after``-th evaluation (as a UCI ``stop``
    arriving from another thread at that moment would)."""

    def __init__(self, signal: threading.Event, after: int) -> None:
        super().__init__()
        self.signal = signal
        self.after = after
        self.evaluations = 0

    def evaluate(self, state: Any) -> Value:
        self.evaluations += 1
        if self.evaluations == self.after:
            self.signal.set()
        return super().evaluate(state)


def why_stopped(engine: Engine[Any, Any]) -> StopReason | None:
    """Why the engine's last search ended (read afresh: each search changes it)."""
    return engine.last_stop


def test_a_signal_set_before_the_search_ends_it_at_once() -> None:
    signal = threading.Event()
    signal.set()
    engine: Engine[Any, Any] = Engine(ConnectFour())
    assert list(engine.iterate(depth=12, stop=signal)) == []
    assert why_stopped(engine) == "stop"


def test_a_signal_stops_the_first_iteration_too() -> None:
    # The budgets spare the first iteration (a move to answer with); the signal does not.
    signal = threading.Event()
    game = Alarm(signal, 50)
    engine: Engine[Any, Any] = Engine(game, iterative=False)
    assert list(engine.iterate(depth=7, stop=signal)) == []
    assert 50 <= game.evaluations <= 50 + FIRST_CHECK_EVERY


def test_a_signal_set_during_an_iteration_stops_it_within_a_check() -> None:
    signal = threading.Event()
    after = 20_000  # far into the search: depth 12 of the empty board takes many more
    game = Alarm(signal, after)
    engine: Engine[Any, Any] = Engine(game)
    reports = list(engine.iterate(depth=12, stop=signal))
    assert why_stopped(engine) == "stop"
    assert reports and reports[-1].depth < 12
    # The search noticed at its next check: a few more leaves at most, not the full depth.
    assert after <= game.evaluations <= after + CHECK_EVERY
    # The engine is whole again: the same search without a signal goes to the end.
    signal.clear()
    game.after = 0
    assert [report.depth for report in engine.iterate(depth=4)] == [1, 2, 3, 4]
    assert why_stopped(engine) == "depth"


def test_the_service_passes_the_signal_to_the_python_engine_and_to_a_session() -> None:
    game = ConnectFour()
    signal = threading.Event()
    signal.set()
    assert list(gametree.iterate(game, depth=9, tier="python", stop=signal)) == []
    with gametree.SearchSession(game, tier="python") as session:
        assert list(session.iterate(depth=9, stop=signal)) == []
        signal.clear()
        assert [report.depth for report in session.iterate(depth=3, stop=signal)] == [1, 2, 3]


def test_reference_deepening_stops_between_iterations() -> None:
    signal = threading.Event()
    signal.set()
    game = ConnectFour()
    reports = list(gametree.iterate(game, depth=5, algorithm="alphabeta", stop=signal))
    assert [report.depth for report in reports] == [1]
    signal.clear()
    reports = list(gametree.iterate(game, depth=3, algorithm="alphabeta", stop=signal))
    assert [report.depth for report in reports] == [1, 2, 3]
