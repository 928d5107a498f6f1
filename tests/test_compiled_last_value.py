"""An exact solve on a warm table starts from the value of the last root solved there (its
score, counted from the end of the game): the same position again, or its child along the best
move, then takes two null windows (is the value at least that one? more?) instead of Pons'
probes. Only the search's path changes: values, distances and best moves are a one-shot
search's, whatever was solved before, on one thread or two; an emptied table (a one-shot
search, ``new_search``) forgets the last value, node for node."""

from __future__ import annotations

import random
from typing import Any

import pytest

import gametree
from gametree.compiled.engine import CompiledEngine
from gametree.games.connect4 import ConnectFour

from .compiled_support import random_positions


def windows(engine: CompiledEngine) -> int:
    """The null-window searches of the root in the engine's last search."""
    return int(engine._ws[engine._module.C_WINDOWS])


def test_the_last_root_value_is_tested_first() -> None:
    game = ConnectFour(5, 4)
    form = game.compiled_form()
    engine = CompiledEngine(form.kernel, table_bits=16)
    states = random_positions(game, random.Random(3), count=12, most=12, least=8)[1:]
    tested = 0
    for state in states:
        encoded = form.encode(state)
        alone = engine.search(encoded, fresh=True)
        if alone.outcome is None or alone.plies == 1 or windows(engine) <= 2:
            continue  # a win at once needs no window; two are the fewest a guess can take
        tested += 1
        again = engine.search(encoded)  # its own value is now the last root's
        assert (again.value, again.best_move, windows(engine)) == (alone.value,
                                                                   alone.best_move, 2)
        # The best move's child: the other player to move, the same end of the game, one
        # ply nearer (values count plies from the root).
        assert alone.best_move is not None
        child = engine.search(engine.play(encoded, alone.best_move))
        nearer = (alone.value > 0) - (alone.value < 0)
        assert (child.value, windows(engine)) == (-alone.value - nearer, 2)
    assert tested >= 5  # most of these positions take three windows or more afresh


def test_an_emptied_table_forgets_the_last_value() -> None:
    game = ConnectFour(5, 4)
    form = game.compiled_form()
    engine = CompiledEngine(form.kernel, table_bits=16)
    states = [form.encode(state) for state in
              random_positions(game, random.Random(8), count=12, most=10, least=6)[1:]]
    fresh = {}
    for state in states:
        alone = engine.search(state, fresh=True)
        fresh[state] = (alone.value, alone.stats.nodes, windows(engine))
    # A position that takes three windows or more afresh, after one of another value: a
    # remembered value would change its windows.
    second = next(state for state in states if fresh[state][2] > 2)
    first = next(state for state in states if fresh[state][0] != fresh[second][0])
    engine.search(first)
    engine.new_search()
    after = engine.search(second)
    assert (after.value, after.stats.nodes, windows(engine)) == fresh[second]
    engine.search(first)
    again = engine.search(second, fresh=True)
    assert (again.value, again.stats.nodes, windows(engine)) == fresh[second]


@pytest.mark.parametrize("threads", [1, 2])
def test_solves_in_a_session_are_one_shot_searches_whatever_came_before(threads: int) -> None:
    # Both players to move, wins, losses and draws, near and far apart: every guess is met.
    game = ConnectFour(5, 4)
    states = random_positions(game, random.Random(11), count=30, most=12)
    shuffled = states * 2
    random.Random(4).shuffle(shuffled)
    expected: dict[Any, Any] = {}
    with gametree.SearchSession(game, book=False, threads=threads) as session:
        for state in shuffled:
            found = session.search(state)
            if state not in expected:
                expected[state] = gametree.search(game, state, book=False)
            alone = expected[state]
            assert (found.tier, found.value, found.outcome, found.plies, found.best_move,
                    found.pv) == ("compiled", alone.value, alone.outcome, alone.plies,
                                  alone.best_move, alone.pv), state
