"""Connect Four's compiled form: Pons' benchmark positions solve to their listed scores, and
the kernel agrees with the Python form on boards small enough to solve exhaustively."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gametree.compiled import CompiledEngine
from gametree.compiled.adapter import KernelGame
from gametree.compiled.kernel import KernelError
from gametree.games import connect4_kernel
from gametree.games.connect4 import ConnectFour, pons_score
from gametree.registry import play_moves

from .compiled_support import compiled_search, engine_for
from .exact import node_value, reachable, sign
from .pons import pons_set


@pytest.mark.parametrize("name, count", [("L3_R1", 200), ("L2_R1", 200), ("L2_R2", 50),
                                         ("L1_R1", 20)])
def test_pons_positions_solve_to_their_scores(name: str, count: int) -> None:
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    engine = engine_for(form.kernel)
    positions = pons_set(name, count)
    states = [play_moves(game, list(moves)) for moves, _ in positions]
    batch = engine.solve_many([form.encode(state) for state in states])
    weak = engine.solve_many([form.encode(state) for state in states], weak=True)
    for (moves, score), value, weak_value in zip(positions, batch.values, weak.values,
                                                 strict=True):
        stones = len(moves)
        plies = 1_000_000 - abs(value) if value else None
        outcome = "draw" if value == 0 else "win" if value > 0 else "loss"
        before_winning_stone = stones + (plies or 0) - 1
        magnitude = (game.cells + 1 - before_winning_stone) // 2
        got = 0 if value == 0 else (magnitude if outcome == "win" else -magnitude)
        assert got == score, moves
        assert weak_value == sign(score), moves
    # And through the full search, as the CLI reports it (Pons' score from the result).
    for (moves, score), state in list(zip(positions, states, strict=True))[:10]:
        result = compiled_search(form, state)
        assert pons_score(game, state, result) == score, moves


def test_node_counts_are_pons_counts() -> None:
    # Pons counts one node per negamax call; the first ten positions of L2_R1, counted so.
    game = ConnectFour()
    form = connect4_kernel.compiled_form(game)
    engine = engine_for(form.kernel)
    states = [form.encode(play_moves(game, list(moves))) for moves, _ in pons_set("L2_R1", 10)]
    counts = engine.solve_many(states).nodes
    assert counts == [engine.score(state)[1] for state in states]
    assert all(count > 0 for count in counts)


def random_positions(game: ConnectFour, count: int, stones: int, seed: int) -> list[Any]:
    """``count`` positions reached by ``stones`` random moves (games that ended are skipped)."""
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.initial_state()
        for _ in range(stones):
            moves = game.moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        if game.outcome(state) is None:
            positions.append(state)
    return positions


def test_four_by_four_agrees_with_exhaustive_minimax() -> None:
    # Every position of 4x4, solved by memoised minimax over the Python form, against the
    # kernel's exact and weak values. (A board wider than high is 8x7, below, and 7x6's Pons
    # positions above: each board size is a kernel of its own to compile, several seconds.)
    game = ConnectFour(4, 4)
    form = connect4_kernel.compiled_form(game)
    engine = engine_for(form.kernel)
    memo: dict[Any, int] = {}
    for state in reachable(game):
        expected = node_value(game, state, memo)
        kernel_state = form.encode(state)
        assert engine.score(kernel_state)[0] == expected
        assert engine.score(kernel_state, weak=True)[0] == sign(expected)


def test_four_by_four_has_the_known_number_of_positions() -> None:
    # The kernel's rules, played from Python (no compiler), reach the 161029 positions the
    # Connect Four literature counts for 4x4, empty board included.
    game = KernelGame(connect4_kernel.kernel(4, 4))
    assert sum(1 for _ in reachable(game)) == 161029


@pytest.mark.slow  # the only test of this board: a kernel compile of its own
def test_eight_by_seven_uses_all_64_bits() -> None:
    # 8x7 needs every bit of a 64-bit integer: late positions agree with exhaustive minimax.
    game = ConnectFour(8, 7)
    form = connect4_kernel.compiled_form(game)
    engine = engine_for(form.kernel, table_bits=16)
    for state in random_positions(game, 25, 44, seed=7):
        assert engine.score(form.encode(state))[0] == node_value(game, state, {})


def test_board_too_large_for_the_kernel_is_refused() -> None:
    with pytest.raises(KernelError, match="90 bits"):
        connect4_kernel.compiled_form(ConnectFour(9, 9))


def test_kernel_rules_match_the_python_form() -> None:
    # Same legal moves (as columns, same order), same outcomes, same heuristic, along random
    # games on a few board sizes.
    rng = random.Random(3)
    for width, height in ((7, 6), (4, 4), (6, 9), (8, 7)):
        game = ConnectFour(width, height)
        kernel_game = KernelGame(connect4_kernel.kernel(width, height))
        for _ in range(20):
            state, kernel_state = game.initial_state(), kernel_game.initial_state()
            while True:
                assert connect4_kernel.encode(state) == kernel_state
                assert game.outcome(state) == kernel_game.outcome(kernel_state)
                assert game.evaluate(state) == kernel_game.evaluate(kernel_state)
                columns = [connect4_kernel.column_of(move, height)
                           for move in kernel_game.moves(kernel_state)]
                assert columns == game.moves(state)
                if not columns:
                    break
                index = rng.randrange(len(columns))
                state = game.play(state, columns[index])
                kernel_state = kernel_game.play(kernel_state,
                                                kernel_game.moves(kernel_state)[index])


def test_engine_rejects_bad_arguments() -> None:
    engine = engine_for(connect4_kernel.kernel())
    with pytest.raises(ValueError, match="depth"):
        engine.search((0, 0, 0), depth=-1)
    with pytest.raises(ValueError, match="weak"):
        engine.search((0, 0, 0), depth=3, weak=True)
    with pytest.raises(ValueError, match="table_bits"):
        CompiledEngine(connect4_kernel.kernel(), table_bits=40)
