"""gametree.count: known figures, and agreement with enumerating sequences one by one."""

from __future__ import annotations

from typing import Any

import pytest

from gametree.count import CountTooLargeError, count
from gametree.game import Game
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import Nim
from gametree.games.subtraction import SubtractionGame
from gametree.games.tictactoe import MNKGame
from gametree.games.tree import GameTree


def test_tictactoe_has_255168_games_and_5478_positions() -> None:
    result = count(MNKGame())
    assert result.complete
    assert result.games == 255168
    assert result.positions == 5478
    assert (result.first_wins, result.second_wins, result.draws) == (131184, 77904, 46080)
    assert [entry.positions for entry in result.depths] == [
        1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]


def test_connect4_4x4_has_161029_positions() -> None:
    assert count(ConnectFour(4, 4)).positions == 161029


def test_connect4_7x6_positions_by_depth() -> None:
    result = count(ConnectFour(), depth=6)
    assert not result.complete
    assert [entry.sequences for entry in result.depths] == [7 ** depth for depth in range(7)]
    # The number of positions after n plies (OEIS A212693).
    assert [entry.positions for entry in result.depths] == [
        1, 7, 49, 238, 1120, 4263, 16422]


def enumerate_games(game: Game[Any, Any], state: Any, depth: int = 0,
                    lengths: dict[int, int] | None = None) -> dict[int, int]:
    """Games of each length, by walking every sequence one by one (the slow way)."""
    lengths = {} if lengths is None else lengths
    moves = game.moves(state) if game.outcome(state) is None else []
    if not moves:
        lengths[depth] = lengths.get(depth, 0) + 1
    for move in moves:
        enumerate_games(game, game.play(state, move), depth + 1, lengths)
    return lengths


@pytest.mark.parametrize("game", [
    Nim((1, 2, 3)), Nim((2, 2, 3), misere=True), SubtractionGame(15, (1, 2, 3)),
    MNKGame(2, 3, 2), ConnectFour(4, 4),
], ids=["nim", "misere", "bones", "mnk", "connect4"])
def test_merged_counts_equal_one_by_one_enumeration(game: Game[Any, Any]) -> None:
    if isinstance(game, ConnectFour):
        state = game.initial_state()
        for move in (0, 1, 2, 3, 0, 1, 2, 3):  # a 4x4 position half full: small enough
            state = game.play(state, move)
    else:
        state = game.initial_state()
    result = count(game, state)
    slow = enumerate_games(game, state)
    assert {entry.depth: entry.ended for entry in result.depths if entry.ended} == slow
    assert result.games == sum(slow.values())


def test_depth_limit_and_start_position() -> None:
    game = MNKGame()
    result = count(game, game.play(game.initial_state(), 4), depth=2)
    assert [entry.sequences for entry in result.depths] == [1, 8, 56]
    assert result.sequences == 65
    assert result.positions == 65  # O's cell and X's second cell differ: no transpositions yet
    assert [entry.positions for entry in count(game, depth=3).depths] == [1, 9, 72, 252]
    assert count(game, depth=0).depths[0].sequences == 1


def test_tree_leaves_end_sequences() -> None:
    result = count(GameTree.from_leaves("3 5 2 9 12 5 23 23"))
    assert result.games == 8 and result.positions == 15 and result.complete
    assert result.first_wins == result.second_wins == result.draws == 0


def test_bad_depth_is_refused() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        count(MNKGame(), depth=-1)


def test_a_count_beyond_its_position_limit_stops_with_a_clear_error() -> None:
    assert count(MNKGame(), max_positions=5478).positions == 5478  # exactly enough
    with pytest.raises(CountTooLargeError, match=r"more than 5,477 distinct positions by depth"):
        count(MNKGame(), max_positions=5477)
