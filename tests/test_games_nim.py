"""Nim and Sticks (seed 004) against Bouton's theorem, normal play and misère.

Each fact is checked with the reference algorithms (plain minimax and alpha-beta, MAX/MIN form)
as far as they reach in a fraction of a second, and with the engine (the default search)
throughout: the theorem is the oracle for both, not the engine alone.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import search
from gametree.algorithms import ENGINE
from gametree.game import IllegalMoveError
from gametree.games.nim import Nim, mover_wins, nim_sum, parse_rows, split_moves
from gametree.registry import get, make, play_moves
from tests.game_support import mover_values_by_induction

ALGORITHMS = ("minimax", "alphabeta", ENGINE)

FULL_SEARCH_STICKS = {"minimax": 7, "alphabeta": 10, ENGINE: 20}
"""Positions with at most this many sticks are searched in full by each algorithm. The engine's
table makes all 1554 positions of up to 4 rows of 5 (20 sticks) a matter of seconds; the
reference searches keep no table, and Nim's trees grow fast (alpha-beta: all positions of up to
10 sticks take a fraction of a second, up to 12 sticks 1.5 s; plain minimax: up to 7 sticks 0.15 s,
up to 9 sticks 2 s). The induction check below covers every position with one-ply reference
searches."""

ALL_POSITIONS = [rows for count in range(1, 5) for rows in product(range(6), repeat=count)]
"""Every position of 1 to 4 rows of 0 to 5 sticks, row order mattering (1554 positions)."""


def xor_rule(rows: tuple[int, ...], misere: bool) -> bool:
    """Bouton written out independently of :func:`mover_wins`."""
    if misere and max(rows) <= 1:
        return sum(rows) % 2 == 0
    x = 0
    for size in rows:
        x ^= size
    return x != 0


def test_position_list_is_complete() -> None:
    assert len(ALL_POSITIONS) == 6 + 36 + 216 + 1296


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("misere", [False, True])
def test_full_search_matches_bouton(misere: bool, algorithm: str) -> None:
    most = FULL_SEARCH_STICKS[algorithm]
    small = {tuple(sorted(rows)) for rows in ALL_POSITIONS if sum(rows) <= most}
    for rows in sorted(small):
        # The Python tier: a kernel per number of rows would cost a compile each (the compiled
        # tier's Nim is checked against Bouton's rule in test_compiled_games.py).
        result = search(Nim(rows, misere=misere), algorithm=algorithm, tier="python")
        assert result.algorithm == algorithm
        assert result.outcome == ("win" if xor_rule(rows, misere) else "loss"), rows


@pytest.mark.parametrize("misere", [False, True])
def test_every_position_up_to_4_rows_of_5_by_induction(misere: bool) -> None:
    # One-ply searches of reference minimax over a table of the earlier results.
    states = sorted(((rows, player) for rows in ALL_POSITIONS for player in (0, 1)),
                    key=lambda state: sum(state[0]))
    by_length: dict[int, Nim] = {}
    for rows, _ in states:
        by_length.setdefault(len(rows), Nim((5,) * len(rows), misere=misere))
    for length, game in by_length.items():
        same = [state for state in states if len(state[0]) == length]
        values = mover_values_by_induction(game, same)
        assert len(values) == len(same)
        for (rows, _), value in values.items():
            assert (value > 0) == xor_rule(rows, misere), (rows, misere)


def test_helpers_agree_with_the_written_out_rule() -> None:
    for rows in ALL_POSITIONS:
        for misere in (False, True):
            assert mover_wins(rows, misere=misere) == xor_rule(rows, misere)
    assert nim_sum((1, 3, 5, 7)) == 0


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_seed_004_sticks_takes_two_from_row_two_and_wins(algorithm: str) -> None:
    game = make("sticks")
    state = play_moves(game, ["3:3"])  # the human takes the 3 sticks of row 3
    assert state[0] == (1, 2, 0)
    result = search(game, state, algorithm=algorithm)
    assert game.format_move(state, result.best_move) == "2:2"
    assert result.outcome == "win"
    after = game.play(state, result.best_move)
    forced = game.play(after, game.moves(after)[0])  # the human must take the last stick
    assert game.outcome(forced) == -1  # the human (player 0) took the last stick and lost


def test_normal_and_misere_end_differently() -> None:
    normal, misere = Nim((1,)), Nim((1,), misere=True)
    last = normal.play(normal.initial_state(), (0, 1))
    assert normal.outcome(last) == 1  # player 0 took the last stick and wins
    assert misere.outcome(misere.play(misere.initial_state(), (0, 1))) == -1


def test_key_ignores_row_order_and_empty_rows() -> None:
    game = Nim((1, 2, 3))
    assert game.key(((3, 0, 1, 2), 1)) == game.key(((2, 1, 3), 1)) == (1, (1, 2, 3))
    assert game.key(((1, 2), 0)) != game.key(((1, 2), 1))


@settings(deadline=None, max_examples=60)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.booleans())
def test_key_equal_means_value_equal(rows: list[int], misere: bool) -> None:
    shuffled = (*reversed(rows), 0)
    a, b = Nim(tuple(rows), misere=misere), Nim(shuffled, misere=misere)
    assert a.key(a.initial_state()) == b.key(b.initial_state())
    # The Python form's key, so the Python tier (the compiled one has a key of its own).
    assert (search(a, by_distance=False, tier="python").value
            == search(b, by_distance=False, tier="python").value)


def test_moves_read_short_and_long_forms() -> None:
    game = make("nim", rows=(1, 3, 5, 7))
    state = game.initial_state()
    assert game.parse_move(state, "2:3") == (1, 3)
    assert game.parse_move(state, "take 3 from row 2") == (1, 3)
    assert game.parse_move(state, "Take 1 stick from row 4") == (3, 1)
    assert game.format_move(state, (1, 3)) == "2:3"
    with pytest.raises(IllegalMoveError, match="no row 5"):
        game.parse_move(state, "5:1")
    with pytest.raises(IllegalMoveError, match="row 1 has 1 stick, cannot take 2"):
        game.parse_move(state, "1:2")
    with pytest.raises(IllegalMoveError, match="at least one"):
        game.parse_move(state, "2:0")
    with pytest.raises(IllegalMoveError, match="ROW:COUNT"):
        game.parse_move(state, "two")
    assert split_moves("3:3 take 2 from row 2; 1:1") == ["3:3", "take 2 from row 2", "1:1"]
    assert play_moves(game, get("nim").split_moves("4:7, take 5 from row 3")) == (
        (1, 3, 0, 0), 0)


def test_render_draws_sticks_as_seed_004() -> None:
    game = make("sticks")
    assert game.render(((1, 2, 0), 1)) == "1. |\n2. ||\n3."


def test_rows_option_is_checked() -> None:
    assert parse_rows("1, 3,5") == (1, 3, 5)
    for bad in ("", "1,x", "-1", ",".join(["1"] * 21)):
        with pytest.raises(ValueError):
            parse_rows(bad)
    sticks = make("sticks")
    assert isinstance(sticks, Nim) and sticks.rows == (1, 2, 3) and sticks.misere
    assert make("nim", misere=True).name == "sticks"


def test_evaluate_follows_bouton_from_player_0() -> None:
    game = Nim((1, 2, 3))
    assert game.evaluate(((1, 2, 3), 0)) == -1  # nim-sum 0: the mover (player 0) loses
    assert game.evaluate(((1, 2, 3), 1)) == 1
