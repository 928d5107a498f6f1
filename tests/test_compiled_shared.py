"""Different positions solved at once over one table (``CompiledEngine.shared``,
``SearchSession.shared``: the book builder's threads): every answer is a one-shot search's
(value, outcome, distance, best move, line), whatever the other threads stored, on a table
small enough that they overwrite each other's entries; what a shared engine may not do is
refused; ``stop`` ends a solve from another thread and leaves the engine ready. Values only:
no test looks at a clock."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

import gametree
from gametree import SearchOptions, SearchSession
from gametree.compiled.engine import SearchStoppedError
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import Nim
from gametree.games.tictactoe import MNKGame

from .compiled_support import random_positions


def solved_at_once(session: SearchSession[Any, Any], states: list[Any]) -> list[Any]:
    """Each state solved by one of the session's shared searchers, the threads taking the
    next state as they finish."""
    results: dict[int, Any] = {}
    failures: list[BaseException] = []
    lock = threading.Lock()
    todo = iter(range(len(states)))

    def solve(searcher: Any) -> None:
        try:
            while True:
                with lock:
                    index = next(todo, None)
                if index is None:
                    return
                results[index] = searcher.search(states[index])
        except BaseException as error:  # reported below
            failures.append(error)

    with session.shared() as searchers:
        threads = [threading.Thread(target=solve, args=(searcher,)) for searcher in searchers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not failures, failures
    return [results[index] for index in range(len(states))]


@pytest.mark.parametrize("game", [pytest.param(ConnectFour(5, 4), marks=pytest.mark.slow),
                                  ConnectFour(4, 4), MNKGame(), Nim((1, 3, 5, 7))],
                         ids=["c4-5x4", "c4-4x4", "ttt", "nim1357"])
def test_positions_solved_at_once_over_one_table_are_one_shot_searches(game: Any) -> None:
    states = random_positions(game, random.Random(3), count=24, most=8)
    # The smallest table: the threads' entries replace each other's all the time.
    with SearchSession(game, SearchOptions(threads=2, table_memory=4096, book=False)) as session:
        for _ in range(2):  # and again, on the table the first round left
            found = solved_at_once(session, states)
            for state, shared in zip(states, found, strict=True):
                alone = gametree.search(game, state, book=False)
                assert shared.tier == "compiled"
                assert (shared.value, shared.outcome, shared.plies, shared.best_move,
                        shared.pv) == (alone.value, alone.outcome, alone.plies,
                                       alone.best_move, alone.pv), state
        # The session's own searches go on as before once the block has ended.
        again = session.search(states[-1])
        assert again.value == gametree.search(game, states[-1], book=False).value


def test_a_shared_engine_does_only_what_cannot_disturb_the_others() -> None:
    game = ConnectFour(4, 4)
    root = game.compiled_form().encode(game.initial_state())
    with SearchSession(game, SearchOptions(threads=2, book=False)) as session, \
            session.shared() as searchers:
        engine = searchers[0]._engine
        for refused in ({"fresh": True}, {"depth": 3}, {"nodes": 1000}, {"by_distance": False}):
            with pytest.raises(ValueError, match="sharing its table"):
                engine.search(root, **refused)
    for options in (SearchOptions(tier="python", threads=1), SearchOptions(depth=3),
                    SearchOptions(time=1.0)):
        with SearchSession(game, options) as session, pytest.raises(ValueError, match="exact"), \
                session.shared():
            pass


def test_stop_ends_a_shared_solve_and_leaves_the_engine_ready() -> None:
    game = ConnectFour()  # the empty 7x6 board: minutes of solving, stopped long before
    with SearchSession(game, SearchOptions(threads=2, book=False)) as session:
        with session.shared() as searchers:
            searcher = searchers[1]
            ended: list[BaseException] = []

            def solve() -> None:
                try:
                    searcher.search(game.initial_state())
                except BaseException as error:  # what the test looks at
                    ended.append(error)

            thread = threading.Thread(target=solve)
            thread.start()
            view = searcher._engine._ws
            while thread.is_alive() and view[0] < 10_000:  # the solve is under way
                thread.join(0.01)
            searcher.stop()
            thread.join()
            assert len(ended) == 1 and isinstance(ended[0], SearchStoppedError)
        # Ready again, for the session's own searches and for shared ones.
        assert session.search(game.initial_state(), depth=4).depth == 4
        late = random_positions(game, random.Random(1), 3, most=30, least=26)[1:]  # quick
        for state, result in zip(late, solved_at_once(session, late), strict=True):
            assert result.value == gametree.search(game, state, book=False).value


def test_shared_solves_right_after_a_solve_on_the_engines_two_threads() -> None:
    # A solve on two threads stops its helper thread at the end; the helper's workspace is
    # one of shared()'s: its first shared solve must not find it stopped (it did, before:
    # SearchStoppedError in a book build whose engine had solved on two threads first).
    game = ConnectFour(4, 4)
    states = random_positions(game, random.Random(5), count=6, most=6)
    with SearchSession(game, SearchOptions(threads=2, book=False)) as session:
        assert session.search(game.initial_state()).outcome is not None  # both threads
        found = solved_at_once(session, states)
    for state, shared in zip(states, found, strict=True):
        assert shared.value == gametree.search(game, state, book=False).value
