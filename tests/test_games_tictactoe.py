"""Tic-tac-toe and m,n,k-games: seed 003, perfect play, notation, boards."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import search
from gametree.algorithms import ENGINE
from gametree.game import IllegalMoveError, PositionError
from gametree.games.tictactoe import Board, MNKGame, board_symmetries
from gametree.registry import GameOptionError, make, play_moves
from gametree.values import HEURISTIC_LIMIT

SEED_003 = "x o x / o o x / _ _ _"


@pytest.mark.parametrize("algorithm", ["alphabeta", ENGINE])
def test_seed_003_position_gives_row_2_col_2_with_value_10(algorithm: str) -> None:
    game = make("tictactoe", board=SEED_003)
    state = game.initial_state()
    assert game.to_move(state) == 0
    result = search(game, state, algorithm=algorithm, by_distance=False)
    assert game.format_move(state, result.best_move) == "2,2"
    assert result.value == 10


def test_seed_003_position_reached_by_moves() -> None:
    game = make("tictactoe")
    state = play_moves(game, ["0,0", "0,1", "0,2", "1,0", "1,2", "1,1"])
    assert state == make("tictactoe", board="xox/oox/___").initial_state()


@pytest.mark.parametrize("algorithm", ["alphabeta", ENGINE])
def test_empty_board_is_a_draw(algorithm: str) -> None:
    result = search(make("tictactoe"), algorithm=algorithm)
    assert result.outcome == "draw" and result.value == 0


def never_loses(game: MNKGame, engine_player: int) -> tuple[int, int, int]:
    """Play the search against every possible sequence of the other player's moves.

    Returns (games played, games the engine won, games it lost). The engine's reply to a
    position is searched once and remembered, as a table would.
    """
    replies: dict[Hashable, Any] = {}
    games = wins = losses = 0

    def walk(state: Board) -> None:
        nonlocal games, wins, losses
        result = game.outcome(state)
        if result is not None:
            games += 1
            mine = result if engine_player == 0 else -result
            wins += mine > 0
            losses += mine < 0
            return
        if game.to_move(state) == engine_player:
            if state not in replies:
                replies[state] = search(game, state).best_move
            walk(game.play(state, replies[state]))
        else:
            for move in game.moves(state):
                walk(game.play(state, move))

    walk(game.initial_state())
    return games, wins, losses


@pytest.mark.parametrize("engine_player", [0, 1])
def test_search_never_loses_against_any_sequence_of_moves(engine_player: int) -> None:
    games, wins, losses = never_loses(MNKGame(), engine_player)
    assert losses == 0
    assert 0 < wins < games  # it punishes blunders and draws against good play


def test_search_wins_when_the_human_blunders() -> None:
    game = MNKGame()
    state = play_moves(game, ["1,1", "0,1"])  # O answers the centre with an edge: lost
    assert search(game, state).outcome == "win"


def test_cell_numbers_and_row_col_name_the_same_cell() -> None:
    game = MNKGame()
    state = game.initial_state()
    assert game.parse_move(state, "1,2") == game.parse_move(state, "6") == 5
    assert game.parse_move(state, " (2, 0) ") == 6
    assert game.format_move(state, 5) == "1,2"


@pytest.mark.parametrize(("text", "reason"), [
    ("3,0", "off the board: rows 0-2"),
    ("10", "cell 10 is off the board"),
    ("0", "cell 0 is off the board"),
    ("a", "not a move"),
    ("1,2,3", "not a move"),
])
def test_bad_moves_are_refused_with_a_reason(text: str, reason: str) -> None:
    game = MNKGame()
    with pytest.raises(IllegalMoveError, match=reason):
        game.parse_move(game.initial_state(), text)


def test_taken_cell_and_finished_game_are_refused() -> None:
    game = MNKGame()
    state = play_moves(game, ["1,1"])
    with pytest.raises(IllegalMoveError, match="1,1 is taken by X"):
        game.parse_move(state, "5")
    won = play_moves(game, ["0,0", "1,0", "0,1", "1,1", "0,2"])
    assert game.outcome(won) == 10 and not game.moves(won)
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.parse_move(won, "2,2")


def test_render_numbers_rows_and_columns() -> None:
    game = make("tictactoe", board=SEED_003)
    assert game.render(game.initial_state()) == "  0 1 2\n0 X O X\n1 O O X\n2 . . ."


@pytest.mark.parametrize(("board", "reason"), [
    ("xx_/___/___", "as many marks as O or one more"),
    ("xxx/ooo/___", "both X and O have a line"),
    ("xxx/oo_/o__", "X has a line, so X moved last"),
    ("xox/oo", "3 rows of 3 cells"),
    ("xqx/___/___", "not x, o or _"),
])
def test_impossible_boards_are_refused(board: str, reason: str) -> None:
    with pytest.raises(GameOptionError, match=reason):
        make("tictactoe", board=board)
    with pytest.raises(PositionError):
        MNKGame().parse_board(board)


def test_mnk_options() -> None:
    game = make("tictactoe", rows=4, cols=5, k=4)
    assert isinstance(game, MNKGame)
    assert len(game.lines) == 4 * 2 + 5 * 1 + 2 * 2  # rows, columns, both diagonals
    with pytest.raises(GameOptionError, match="k must be"):
        make("tictactoe", k=4)
    with pytest.raises(GameOptionError, match="rows must be"):
        make("tictactoe", rows=0)


def test_k_1_first_mark_wins() -> None:
    game = MNKGame(2, 2, 1)
    assert game.outcome(game.play(game.initial_state(), 3)) == 10


@pytest.mark.parametrize("algorithm", ["alphabeta", ENGINE])
def test_small_mnk_game_values(algorithm: str) -> None:
    # 3x3 needing 2 in a row: the first player wins on their second move. (The Python tier:
    # a kernel of its own for this board would cost a compile, for a 3-ply win.)
    result = search(MNKGame(3, 3, 2), algorithm=algorithm, tier="python")
    assert result.outcome == "win" and result.plies == 3


@pytest.mark.slow  # the 3x4 board's kernel: a compile no core test shares
def test_three_by_four_needing_three_is_a_first_player_win() -> None:
    # Known; by the engine only (alpha-beta: 330,000 nodes, most of a second).
    assert search(MNKGame(3, 4, 3)).outcome == "win"


@settings(deadline=None, max_examples=40)
@given(st.lists(st.integers(0, 8), max_size=9))
def test_random_play_keeps_the_rules(cells: list[int]) -> None:
    game = MNKGame()
    state = game.initial_state()
    for cell in cells:
        if game.is_over(state):
            break
        legal = game.moves(state)
        move = legal[cell % len(legal)]
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move
        state = game.play(state, move)
        assert game.key(state) == game.key(Board(state.x, state.o, state.winner))
        assert abs(game.evaluate(state)) <= HEURISTIC_LIMIT
    xs, os = state.x.bit_count(), state.o.bit_count()
    assert xs - os in (0, 1) and not state.x & state.o
    assert list(game.order_moves(state, game.moves(state))) == sorted(
        game.moves(state), key=lambda c: (abs(c // 3 - 1) + abs(c % 3 - 1), c))


def test_heuristic_prefers_the_centre() -> None:
    game = MNKGame()
    empty = game.initial_state()
    centre, corner, side = (game.evaluate(game.play(empty, cell)) for cell in (4, 0, 1))
    assert centre > corner > side > 0
    result = search(game, empty, depth=1)
    assert result.best_move == 4 and result.outcome is None


def test_table_key_merges_exactly_the_symmetric_boards() -> None:
    assert len(board_symmetries(3, 3)) == 8 and len(board_symmetries(3, 4)) == 4
    game = MNKGame()
    corner_openings = [play_moves(game, [move]) for move in ("0,0", "0,2", "2,0", "2,2")]
    assert len({game.key(state) for state in corner_openings}) == 1
    assert game.key(play_moves(game, ["0,1"])) != game.key(corner_openings[0])
    # Every reachable board: boards share a key exactly when one is a rotation or reflection
    # of the other (checked against images computed cell by cell), 765 classes of 5478.
    states = {game.initial_state()}
    frontier = list(states)
    while frontier:
        state = frontier.pop()
        for move in game.moves(state):
            child = game.play(state, move)
            if child not in states:
                states.add(child)
                frontier.append(child)
    assert len(states) == 5478

    def images(state: Board) -> set[tuple[int, int]]:
        result = set()
        for perm in board_symmetries(3, 3):
            x = sum(1 << perm[cell] for cell in range(9) if state.x >> cell & 1)
            o = sum(1 << perm[cell] for cell in range(9) if state.o >> cell & 1)
            result.add((x, o))
        return result

    classes: dict[int, set[tuple[int, int]]] = {}
    for state in states:
        classes.setdefault(game.key(state), set()).add((state.x, state.o))
    assert len(classes) == 765
    for members in classes.values():
        first = next(iter(members))
        board = Board(*first)
        assert members <= images(board)
