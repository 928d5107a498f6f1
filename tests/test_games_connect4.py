"""Connect Four: rules against a plain grid, Pons' notation and scores, benchmark positions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import Game, search
from gametree.game import IllegalMoveError, PositionError
from gametree.games.connect4 import C4State, ConnectFour, pons_score, read_pons_line
from gametree.registry import GameOptionError, get, make, play_moves
from gametree.result import Bound
from gametree.values import HEURISTIC_LIMIT

from .pons import pons_set


def position(game: ConnectFour, moves: str) -> C4State:
    state: C4State = play_moves(game, get("connect4").split_moves(moves))
    return state


def test_first_100_of_test_l3_r1_solve_to_their_scores() -> None:
    game = ConnectFour()
    cases = pons_set("L3_R1", 100)
    assert len(cases) == 100
    for moves, expected in cases:
        state = position(game, moves)
        result = search(game, state)
        assert pons_score(game, state, result) == expected, moves


def test_guide_examples_score_18_and_minus_15() -> None:
    # A proven win or loss inside the depth limit is exact, so short searches suffice here:
    # 4455 is won in 3 plies (score 18) and 44455554221 lost in 2 (score -15).
    game = ConnectFour()
    for moves, depth, expected in (("4455", 3, 18), ("44455554221", 2, -15)):
        state = position(game, moves)
        result = search(game, state, depth=depth)
        assert pons_score(game, state, result) == expected


@pytest.mark.parametrize(("width", "height", "moves", "expected"), [
    (4, 4, "112233", 5),    # X wins with their 4th stone of at most 8: 8 + 1 - 4
    (5, 5, "112233", 10),   # odd board: X may play 13 stones: 13 + 1 - 4
    (5, 5, "1212325", 9),   # O wins with their 4th stone of at most 12: 12 + 1 - 4
    (5, 4, "1212325", 7),   # O may play 10 stones: 10 + 1 - 4
    (7, 6, "1212325", 18),  # 21 + 1 - 4, the GUIDE's rule
])
def test_pons_score_generalises_to_other_boards(width: int, height: int, moves: str,
                                                 expected: int) -> None:
    game = ConnectFour(width, height)
    state = position(game, moves)
    # The Python tier: a kernel per board size would cost a compile each, for a 2-ply search.
    result = search(game, state, depth=2, tier="python")
    assert pons_score(game, state, result) == expected


def test_draw_scores_0_and_unproven_is_none() -> None:
    game = ConnectFour(4, 4)
    result = search(game, depth=2)
    assert result.outcome is None and pons_score(game, game.initial_state(), result) is None


def test_4x4_is_a_draw() -> None:
    game = ConnectFour(4, 4)
    state = position(game, "1234")
    result = search(game, state)
    assert result.outcome == "draw" and pons_score(game, state, result) == 0


def grid_winner(width: int, height: int, moves: list[int]) -> int | None:
    """Who made four in a row first (0 or 1), with a plain grid and no bit tricks."""
    grid = [[-1] * height for _ in range(width)]
    for ply, col in enumerate(moves):
        row = grid[col].index(-1)
        grid[col][row] = ply % 2
        for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = col + sign * d_col, row + sign * d_row
                while 0 <= c < width and 0 <= r < height and grid[c][r] == ply % 2:
                    run += 1
                    c, r = c + sign * d_col, r + sign * d_row
            if run >= 4:
                return ply % 2
    return None


@settings(deadline=None, max_examples=150)
@given(st.integers(4, 9), st.integers(4, 9), st.lists(st.integers(0, 8), max_size=81))
def test_bitboard_rules_match_a_plain_grid(width: int, height: int, picks: list[int]) -> None:
    game = ConnectFour(width, height)
    state = game.initial_state()
    played: list[int] = []
    keys = {game.key(state)}
    for pick in picks:
        legal = game.moves(state)
        if not legal:
            break
        move = legal[pick % len(legal)]
        assert game.parse_move(state, game.format_move(state, move)) == move
        state = game.play(state, move)
        played.append(move)
        keys.add(game.key(state))
        assert game.to_move(state) == len(played) % 2
        assert abs(game.evaluate(state)) <= HEURISTIC_LIMIT
        winner = grid_winner(width, height, played)
        if winner is not None:
            assert game.outcome(state) == (1 if winner == 0 else -1)
            assert game.moves(state) == []
            break
        assert game.outcome(state) == (0 if len(played) == width * height else None)
    assert len(keys) == len(played) + 1  # every position along a game has its own key
    for col in range(width):
        assert game.column_height(state, col) == played.count(col)


@settings(deadline=None, max_examples=150)
@given(st.integers(4, 9), st.integers(4, 9), st.lists(st.integers(0, 8), max_size=81))
def test_a_board_and_its_mirror_image_share_a_key(width: int, height: int,
                                                  picks: list[int]) -> None:
    """The key is the smaller of Pons' ``current + mask`` of the board and of its mirror image
    (each column played as column ``width - 1 - c``), which are unique per position: mirror
    images share a key and no other two positions do."""
    game = ConnectFour(width, height)
    state = mirrored = game.initial_state()
    for pick in picks:
        legal = game.moves(state)
        if not legal:
            break
        move = legal[pick % len(legal)]
        state, mirrored = game.play(state, move), game.play(mirrored, width - 1 - move)
        assert game.mirror(state) == mirrored and game.mirror(mirrored) == state
        assert game.key(state) == game.key(mirrored) == min(sum(state[:2]), sum(mirrored[:2]))
        assert game.outcome(state) == game.outcome(mirrored)
        assert game.evaluate(state) == game.evaluate(mirrored)


def test_mirror_images_merge_in_the_python_tier_table() -> None:
    """Sound (mirror images have the same value) and fewer nodes: the 4x4 board's exact solve
    agrees with the compiled tier, whose key does not merge mirror images, and the empty 7x6
    board's depth-limited searches keep the values and moves they had before."""
    small = ConnectFour(4, 4)
    python = search(small, tier="python", exact_root=True)
    compiled = search(small, tier="compiled", exact_root=True)
    assert (python.value, python.plies, python.best_move) == (
        compiled.value, compiled.plies, compiled.best_move) == (0, None, 1)
    assert python.moves == compiled.moves
    assert python.stats.nodes == 33_110  # 69,551 when the key told mirror images apart
    game = ConnectFour()
    for depth, value, nodes, before in ((8, -1, 2394, 3989), (10, 0, 9242, 17_308)):
        result = search(game, depth=depth, tier="python")
        assert (result.value, result.best_move) == (value, 3)  # column 4, as before
        assert result.stats.nodes == nodes < before


def test_moves_are_centre_first() -> None:
    assert ConnectFour().moves(ConnectFour().initial_state()) == [3, 2, 4, 1, 5, 0, 6]
    assert ConnectFour(4, 4).order == (1, 2, 0, 3)
    game = ConnectFour()
    assert game.moves(position(game, "444444")) == [2, 4, 1, 5, 0, 6]


def test_notation_with_and_without_spaces() -> None:
    game = ConnectFour()
    assert position(game, "4453") == position(game, "4 4 5 3") == position(game, "4,4,5,3")


@pytest.mark.parametrize(("moves", "reason"), [
    ("448", "move 3 ('8') cannot be played: column 8 is off the board: columns are 1-7"),
    ("40", "move 2 ('0') cannot be played: column 0 is off the board"),
    ("4444444", "move 7 ('4') cannot be played: column 4 is full (6 stones)"),
    ("45454541", "move 8 ('1') cannot be played: the game is over: X already has four"),
    ("44x", "move 3 ('x') cannot be played: 'x' is not a column"),
])
def test_bad_positions_name_the_first_bad_move(moves: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        position(ConnectFour(), moves)


def test_full_board_refuses_moves() -> None:
    game = ConnectFour(4, 4)
    state = position(game, "1212343421214343")
    assert game.outcome(state) == 0
    with pytest.raises(IllegalMoveError, match="board is full"):
        game.parse_move(state, "1")


def test_render_shows_the_board_upright() -> None:
    game = ConnectFour(4, 4)
    assert game.render(position(game, "223")) == ". . . .\n. . . .\n. O . .\n. X X .\n1 2 3 4"


def test_heuristic_is_centre_weighted_and_symmetric() -> None:
    game = ConnectFour()
    empty = game.initial_state()
    values = [game.evaluate(game.play(empty, col)) for col in range(7)]
    assert values == [3, 4, 5, 7, 5, 4, 3]
    assert game.evaluate(position(game, "44")) == 7 - 10  # O's stone sits on more lines
    assert sorted(weight for weight, _ in game._weight_masks())[-1] == 13


def test_options_are_checked() -> None:
    for options in ({"width": 3}, {"height": 10}):
        with pytest.raises(GameOptionError, match="from 4 to 9"):
            make("connect4", **options)


def test_pons_lines_are_read() -> None:
    assert read_pons_line("4453 -2\n") == ("4453", {"score": -2})
    assert read_pons_line(" 4453 ") == ("4453", {})
    for bad in ("4 4 5 3", "4453 x", ""):
        with pytest.raises(ValueError, match="MOVES \\[SCORE\\]"):
            read_pons_line(bad)


def test_lines_are_written_and_decoded_without_replaying_them() -> None:
    # Connect Four writes a column the same in every position, so its line is not replayed
    # (format_line), nor by its compiled form when it decodes the kernel's moves (moves_of).
    game = ConnectFour()
    state = position(game, "32164625")
    result = search(game, state)
    assert result.tier == "compiled" and len(result.pv) == result.plies == 13
    assert game.format_line(state, result.pv) == Game.format_line(game, state, result.pv)
    form = game.compiled_form()
    assert not form.moves_need_state
    kernel_line = [1 << (column * (game.height + 1) + 5) for column in (2, 3, 2)]  # top cells
    entries: list[tuple[int, int, Bound]] = [(1 << 3 * (game.height + 1), 7, "exact")]
    assert form.moves_of(state, None, entries, kernel_line) == \
        replace(form, moves_need_state=True).moves_of(state, None, entries, kernel_line)
