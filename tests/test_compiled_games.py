"""The compiled tier gives the Python tier's values: every tic-tac-toe position, Bones,
subtraction, Nim and Sticks positions, strong (exact value and distance) and weak."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import minimax, negamax
from gametree.compiled.form import CompiledForm
from gametree.games.nim import Nim
from gametree.games.subtraction import SubtractionGame
from gametree.games.tictactoe import MNKGame
from gametree.registry import get

from .compiled_support import compiled_search, engine_for
from .exact import node_value, reachable, sign


def form_of(name: str, game: Any) -> CompiledForm[Any, Any]:
    form: CompiledForm[Any, Any] | None = game.compiled_form()
    assert form is not None
    return form


def test_every_tictactoe_position_strong_and_weak() -> None:
    game = MNKGame()
    form = form_of("tictactoe", game)
    engine = engine_for(form.kernel)
    memo: dict[Any, int] = {}
    positions = list(reachable(game))
    assert len(positions) == 5478  # the known count, empty board included
    for state in positions:
        expected = node_value(game, state, memo)
        kernel_state = form.encode(state)
        strong, _ = engine.score(kernel_state)
        weak, _ = engine.score(kernel_state, weak=True)
        # The engine counts distance from this state (ply 0), as the memo does.
        assert strong == expected, game.render(state)
        assert weak == sign(expected), game.render(state)


def test_the_memo_is_the_reference_minimax() -> None:
    game = MNKGame()
    memo: dict[Any, int] = {}
    for state in itertools.islice(reachable(game), 0, 5478, 97):
        assert node_value(game, state, memo) == minimax(game, state).value


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=2, max_size=6), st.booleans())
def test_tictactoe_results_match_reference_negamax(choices: list[int], exact: bool) -> None:
    game = MNKGame()
    state = game.initial_state()
    for choice in choices:
        legal = game.moves(state)
        if not legal:
            break
        state = game.play(state, legal[choice % len(legal)])
    form = form_of("tictactoe", game)
    compiled = compiled_search(form, state, exact_root=exact)
    python = negamax(game, state, exact_root=exact)
    assert compiled.value == python.value
    assert compiled.outcome == python.outcome and compiled.plies == python.plies
    if exact:
        assert [(m.move, m.value) for m in compiled.moves] == \
               [(m.move, m.value) for m in python.moves]
        assert compiled.best_move == python.best_move  # first best in the same move order
    # the principal variation is legal and ends the game with the promised result
    line_state = state
    for move in compiled.pv:
        assert move in game.moves(line_state)
        line_state = game.play(line_state, move)
    if compiled.plies is not None:
        assert len(compiled.pv) == compiled.plies
        assert game.outcome(line_state) is not None


@pytest.mark.parametrize("name, takes", [("bones", (1, 2, 3)), ("subtraction", (3, 4, 5))])
def test_subtraction_games_every_heap(name: str, takes: tuple[int, ...]) -> None:
    for heap in range(61):
        game = SubtractionGame(heap, takes, name=name)
        form = form_of(name, game)
        engine = engine_for(form.kernel)
        expected = node_value(game, game.initial_state(), {})
        assert engine.score(form.encode(game.initial_state()))[0] == expected
        assert engine.score(form.encode(game.initial_state()), weak=True)[0] == sign(expected)
        # Sprague-Grundy: the mover loses exactly on these heaps
        losing = heap % 4 == 0 if takes == (1, 2, 3) else heap % 8 in (0, 1, 2)
        assert (expected < 0) == losing


@pytest.mark.parametrize("misere", [False, True])
def test_nim_every_position_of_four_rows_up_to_five(misere: bool) -> None:
    name = "sticks" if misere else "nim"
    for rows in itertools.product(range(6), repeat=4):
        game = Nim(rows, misere=misere)
        form = form_of(name, game)
        engine = engine_for(form.kernel)
        state = game.initial_state()
        expected = node_value(game, state, {})
        strong, _ = engine.score(form.encode(state))
        weak, _ = engine.score(form.encode(state), weak=True)
        assert strong == expected, rows
        assert weak == sign(expected), rows


def test_nim_distances_with_the_table_on() -> None:
    # The engine issue's cases: easyAI reports 14 plies for misère 5,5,5,5 with its table.
    for rows, misere, plies in (((5, 5, 5, 5), True, 19), ((1, 3, 5, 7), True, 15),
                                ((5, 5, 5, 5), False, 20)):
        game = Nim(rows, misere=misere)
        result = compiled_search(form_of("nim", game), game.initial_state())
        assert (result.outcome, result.plies) == ("loss", plies)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=4, max_size=4), st.booleans(), st.booleans())
def test_nim_root_moves_match_reference(rows: list[int], misere: bool, exact: bool) -> None:
    # Four rows (some maybe empty): one kernel per rule set, and trees the reference can walk.
    game = Nim(tuple(rows), misere=misere)
    form = form_of("nim", game)
    compiled = compiled_search(form, game.initial_state(), exact_root=exact)
    python = negamax(game, game.initial_state(), exact_root=exact)
    assert compiled.value == python.value and compiled.plies == python.plies
    if exact:
        assert [(m.move, m.value) for m in compiled.moves] == \
               [(m.move, m.value) for m in python.moves]


def test_depth_limited_search_matches_reference_without_threat_hooks() -> None:
    # Nim has no threat hooks and its evaluate is exact knowledge: a depth-limited search must
    # agree with the reference at every depth.
    game = Nim((1, 2, 3, 2))
    form = form_of("nim", game)
    for depth in range(0, 5):
        compiled = compiled_search(form, game.initial_state(), depth=depth, exact_root=True)
        python = negamax(game, game.initial_state(), depth=depth, exact_root=True)
        assert compiled.value == python.value, depth
        assert [m.value for m in compiled.moves] == [m.value for m in python.moves], depth


def test_plain_values_without_distance() -> None:
    game = MNKGame()
    state = game.parse_board("xox/oox/___")
    result = compiled_search(form_of("tictactoe", game), state, by_distance=False)
    assert result.value == 10 and result.by_distance is False
    assert result.best_move is not None
    assert game.format_move(state, result.best_move) == "2,2"


def test_weak_results_are_plain_signs() -> None:
    game = MNKGame()
    result = compiled_search(form_of("tictactoe", game), game.initial_state(), weak=True)
    assert (result.value, result.outcome, result.plies, result.by_distance) == \
           (0, "draw", None, False)


@pytest.mark.parametrize("name, options", [
    ("tictactoe", {}),
    pytest.param("tictactoe", {"rows": 3, "cols": 4, "k": 3}, marks=pytest.mark.slow),
    ("bones", {"heap": 30}), ("subtraction", {}), ("nim", {"rows": (3, 1, 4, 2)}), ("sticks", {}),
    ("connect4", {}),
])
def test_kernel_rules_match_the_python_form(name: str, options: dict[str, Any]) -> None:
    # Along random games: the same legal moves in the same order (so both tiers break ties
    # alike), the same outcomes and the same player to move. Each variant is a kernel to
    # compile (seconds): the core's are compiled by other core tests too, the 3x4 board's only
    # by slow ones (8x7 Connect Four is compared with exhaustive minimax by a slow test of
    # tests/test_compiled_connect4.py).
    spec = get(name)
    game = spec.make(**options)
    form = form_of(name, game)
    engine = engine_for(form.kernel)
    rng = random.Random(11)
    for _ in range(30):
        state = game.initial_state()
        while True:
            kernel_state = form.encode(state)
            assert engine.to_move(kernel_state) == game.to_move(state)
            assert engine.outcome(kernel_state) == game.outcome(state)
            kernel_moves = [form.decode_move(state, move) for move in engine.moves(kernel_state)]
            assert kernel_moves == list(game.moves(state))
            if not kernel_moves:
                break
            state = game.play(state, rng.choice(kernel_moves))
