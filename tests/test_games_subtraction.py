"""Bones (seed 001) and the subtract-3/4/5 game (seed 002) against Sprague-Grundy theory.

Each fact is checked with the reference algorithms (plain minimax and alpha-beta, MAX/MIN form)
as far as they reach in a fraction of a second, and with the engine (the default search)
throughout: the theory is the oracle for both, not the engine alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from gametree import search
from gametree.algorithms import ENGINE
from gametree.game import IllegalMoveError
from gametree.games.subtraction import SubtractionGame, parse_takes
from gametree.registry import GameOptionError, make, play_moves
from tests.game_support import mover_values_by_induction

ALGORITHMS = ("minimax", "alphabeta", ENGINE)

FULL_SEARCH_BONES = {"minimax": 16, "alphabeta": 32, ENGINE: 40}
"""The largest Bones heap each algorithm searches in full here. The reference searches keep no
table: every 2 bones, minimax's tree grows about 3.4-fold (heap 16: 23,000 nodes), alpha-beta's
about 2.5-fold (heap 32: 113,000 nodes; 40 would be 1.7 million, seconds). Every heap up to 40
is also valued by one-ply reference searches (the induction test)."""

FULL_SEARCH_SUBTRACT_345 = {"minimax": 40, "alphabeta": 60, ENGINE: 60}
"""The same for subtract-3/4/5 (minimax, heap 40: 82,000 nodes; alpha-beta, heap 60: 33,000)."""


def full_searches(limits: dict[str, int]) -> list[Any]:
    return [pytest.param(algorithm, heap, id=f"{algorithm}-{heap}")
            for algorithm, top in limits.items() for heap in range(top + 1)]


def bones_loses(heap: int) -> bool:
    return heap % 4 == 0


def subtract_345_loses(heap: int) -> bool:
    return heap % 8 in (0, 1, 2)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_bones_seed_001_six_is_a_win_and_eight_a_loss(algorithm: str) -> None:
    assert search(make("bones", heap=6), algorithm=algorithm).outcome == "win"
    assert search(make("bones", heap=8), algorithm=algorithm).outcome == "loss"


@pytest.mark.parametrize(("algorithm", "heap"), full_searches(FULL_SEARCH_BONES))
def test_bones_full_search_matches_the_mod_4_rule(algorithm: str, heap: int) -> None:
    result = search(make("bones", heap=heap), algorithm=algorithm)
    assert result.algorithm == algorithm
    assert result.outcome == ("loss" if bones_loses(heap) else "win")
    assert result.plies == heap // 4 * 2 + (1 if heap % 4 else 0)
    if heap % 4:
        assert result.best_move == heap % 4  # the only winning move leaves a multiple of 4


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_bones_up_to_40_by_induction_too(algorithm: str) -> None:
    # The same facts from one-ply searches over a table of earlier results, for both players.
    game = SubtractionGame(40, (1, 2, 3))
    values = mover_values_by_induction(game, [(heap, p) for heap in range(41) for p in (0, 1)],
                                       algorithm=algorithm)
    assert len(values) == 82
    for (heap, _), value in values.items():
        assert (value < 0) == bones_loses(heap), heap
        assert value in (1, -1)


@pytest.mark.parametrize(("algorithm", "heap"), full_searches(FULL_SEARCH_SUBTRACT_345))
def test_subtract_345_full_search_matches_sprague_grundy(algorithm: str, heap: int) -> None:
    result = search(make("subtraction", heap=heap, takes=(3, 4, 5)), algorithm=algorithm)
    assert result.algorithm == algorithm
    assert result.outcome == ("loss" if subtract_345_loses(heap) else "win"), heap
    if result.outcome == "win":  # a winning move leaves the opponent a losing heap
        assert result.best_move is not None and subtract_345_loses(heap - result.best_move)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_seed_002_start_21_is_a_first_player_win(algorithm: str) -> None:
    result = search(make("subtraction"), algorithm=algorithm)
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
    with pytest.raises(GameOptionError):
        make("subtraction", heap=-1)
    with pytest.raises(GameOptionError):
        make("bones", takes=(1, 2))


def test_bones_and_subtraction_share_one_implementation() -> None:
    bones = make("bones", heap=7)
    assert isinstance(bones, SubtractionGame)
    assert bones.takes == (1, 2, 3) and bones.name == "bones"
    assert "heap: 7" in bones.render(bones.initial_state())
