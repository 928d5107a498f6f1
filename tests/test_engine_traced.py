"""The traced search is the engine's search, call for call.

With a tracer the engine runs a readable copy of its inner loop (:mod:`gametree.engine.traced`)
that reports every step; without one, the fast loop of :mod:`gametree.engine.search`. The copy
is kept because the fast loop is written for speed (closures, no per-node hook: a traced path
is several times slower, see the report of issue 19), so this test holds the two together: on
random trees and real games, with every root driver and ordering option, a recording game
logs every call each search makes to the rules — each ``outcome``, ``moves``, ``play`` and
``evaluate``, with its state, in order — and the two logs must be identical, as must the
results and every counter.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import Game, Tracer
from gametree.engine import Engine
from gametree.games.chess import ChessGame
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame

from .engine_games import RandomGame


def recording(game: Game[Any, Any]) -> Any:
    """A copy of ``game`` that logs every call of its rules in ``calls``."""
    rules = type(game)

    class Recording(rules):  # type: ignore[valid-type, misc]
        calls: list[tuple[Any, ...]]

        def moves(self, state: Any) -> Any:
            self.calls.append(("moves", state))
            return rules.moves(self, state)

        def play(self, state: Any, move: Any) -> Any:
            self.calls.append(("play", state, move))
            return rules.play(self, state, move)

        def outcome(self, state: Any) -> Any:
            self.calls.append(("outcome", state))
            return rules.outcome(self, state)

        def evaluate(self, state: Any) -> Any:
            self.calls.append(("evaluate", state))
            return rules.evaluate(self, state)

    logged: Any = copy.copy(game)
    logged.__class__ = Recording
    logged.calls = []
    return logged


def assert_same_search(game: Game[Any, Any], state: Any, engine: dict[str, Any],
                       **search: Any) -> None:
    fast, slow = recording(game), recording(game)
    plain = Engine(fast, **engine).search(state, **search)
    tracer: Tracer[Any, Any] = Tracer(slow)
    traced = Engine(slow, **engine).search(state, tracer=tracer, **search)
    assert fast.calls, "the search called the rules"
    assert traced.stats.as_dict() | {"seconds": 0} == plain.stats.as_dict() | {"seconds": 0}
    assert (traced.value, traced.best_move, traced.pv, traced.moves) == (
        plain.value, plain.best_move, plain.pv, plain.moves)
    assert len(slow.calls) == len(fast.calls)
    for number, (call, traced_call) in enumerate(zip(fast.calls, slow.calls, strict=True)):
        assert call == traced_call, f"call {number}: {call} untraced, {traced_call} traced"
    entered = sum(1 for event in tracer.events if event.kind == "enter")
    assert entered >= 1


ENGINES: list[dict[str, Any]] = [
    {}, {"iterative": True}, {"window": "mtdf", "iterative": True}, {"pvs": False},
    {"history": True, "iterative": True}, {"killers": False}, {"table": False},
]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(ENGINES), st.booleans())
def test_random_trees(seed: int, engine: dict[str, Any], exact_root: bool) -> None:
    assert_same_search(RandomGame(seed), None, engine, exact_root=exact_root)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game, state, search", [
    (MNKGame(), None, {}),
    (MNKGame(), None, {"depth": 3, "exact_root": True}),
    (ConnectFour(), None, {"depth": 6}),
    (ConnectFour(), None, {"nodes": 3_000}),  # stopped half-way through an iteration
    (Nim((1, 3, 5)), None, {}),
    # noisy moves: a quiescence search below the depth limit
    (ChessGame("r1b1k2r/ppp2ppp/2n5/3qp3/1b1P4/2N2N2/PP3PPP/R1BQKB1R w KQkq - 0 8"), None,
     {"depth": 2}),
])
def test_real_games(engine: dict[str, Any], game: Game[Any, Any], state: Any,
                    search: dict[str, Any]) -> None:
    assert_same_search(game, state, engine, **search)
