"""Bones (seed 001) and the subtract-3/4/5 game (seed 002) against Sprague-Grundy theory."""

from __future__ import annotations

import pytest

from gametree import search
from gametree.game import IllegalMoveError
from gametree.games.subtraction import SubtractionGame, parse_takes
from gametree.registry import OptionError, make, play_moves
from tests.game_support import mover_values_by_induction


def bones_loses(heap: int) -> bool:
    return heap % 4 == 0


def subtract_345_loses(heap: int) -> bool:
    return heap % 8 in (0, 1, 2)


def test_bones_seed_001_six_is_a_win_and_eight_a_loss() -> None:
    assert search(make("bones", heap=6)).outcome == "win"
    assert search(make("bones", heap=8)).outcome == "loss"


@pytest.mark.parametrize("heap", range(41))
def test_bones_full_search_matches_the_mod_4_rule(heap: int) -> None:
    # The slowest case, heap 40, is 1.7 million reference nodes (a few seconds): alpha-beta
    # without a table must refute every move of a lost position.
    result = search(make("bones", heap=heap))
    assert result.outcome == ("loss" if bones_loses(heap) else "win")
    assert result.plies == heap // 4 * 2 + (1 if heap % 4 else 0)
    if heap % 4:
        assert result.best_move == heap % 4  # the only winning move leaves a multiple of 4


def test_bones_up_to_40_by_induction_too() -> None:
    # The same facts from one-ply searches over a table of earlier results, for both players.
    game = SubtractionGame(40, (1, 2, 3))
    values = mover_values_by_induction(game, [(heap, p) for heap in range(41) for p in (0, 1)])
    assert len(values) == 82
    for (heap, _), value in values.items():
        assert (value < 0) == bones_loses(heap), heap
        assert value in (1, -1)


@pytest.mark.parametrize("heap", range(61))
def test_subtract_345_full_search_matches_sprague_grundy(heap: int) -> None:
    result = search(make("subtraction", heap=heap, takes=(3, 4, 5)))
    assert result.outcome == ("loss" if subtract_345_loses(heap) else "win"), heap


def test_seed_002_start_21_is_a_first_player_win() -> None:
    result = search(make("subtraction"))
    assert result.outcome == "win"
    assert result.best_move is not None and (21 - result.best_move) % 8 in (0, 1, 2)


def test_who_cannot_move_loses_even_with_counters_left() -> None:
    game = SubtractionGame(2, (3, 4, 5))
    assert game.moves(game.initial_state()) == []
    assert game.outcome(game.initial_state()) == -1
    assert game.outcome((2, 1)) == 1


def test_moves_are_read_as_numbers_or_take_n() -> None:
    game = make("subtraction", heap=4)
    state = game.initial_state()
    assert game.parse_move(state, " take 4 ") == 4
    assert game.parse_move(state, "3") == 3
    with pytest.raises(IllegalMoveError, match="cannot take 5: only 4 left"):
        game.parse_move(state, "5")
    with pytest.raises(IllegalMoveError, match="takes are 3, 4, 5"):
        game.parse_move(state, "1")
    with pytest.raises(IllegalMoveError, match="not a move"):
        game.parse_move(state, "three")
    assert play_moves(game, ["3"]) == (1, 1)


def test_options_are_checked() -> None:
    assert parse_takes("5, 3,4") == (5, 3, 4)
    assert SubtractionGame(10, (5, 3, 4, 3)).takes == (3, 4, 5)
    for bad in ("", "0,1", "a,b"):
        with pytest.raises(ValueError):
            parse_takes(bad)
    with pytest.raises(OptionError):
        make("subtraction", heap=-1)
    with pytest.raises(OptionError):
        make("bones", takes=(1, 2))


def test_bones_and_subtraction_share_one_implementation() -> None:
    bones = make("bones", heap=7)
    assert isinstance(bones, SubtractionGame)
    assert bones.takes == (1, 2, 3) and bones.name == "bones"
    assert "heap: 7" in bones.render(bones.initial_state())
