"""The engine on the built-in games: reference values everywhere, exact distances in Nim."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree import minimax, negamax
from gametree.engine import Engine
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import Nim, mover_wins
from gametree.games.subtraction import SubtractionGame
from gametree.games.tictactoe import Board, MNKGame

from .engine_checks import assert_legal_line, assert_same_result, check_engine

GAME_CONFIGURATIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "iterative": {"iterative": True},
    "no-table": {"table": False},
    "iterative-no-table": {"iterative": True, "table": False},
    "mtdf": {"window": "mtdf"},
}


WITH_TABLE = {name: options for name, options in GAME_CONFIGURATIONS.items()
              if options.get("table", True)}
"""Without a table, Nim 1,3,5,7 alone takes half a minute or more: the table is the point."""


@pytest.mark.parametrize("options", WITH_TABLE.values(), ids=WITH_TABLE)
@pytest.mark.parametrize(("rows", "misere", "plies"), [
    ((5, 5, 5, 5), True, 19),   # easyAI with its table says 14
    ((1, 3, 5, 7), True, 15),
    ((5, 5, 5, 5), False, 20),
])
def test_nim_distances_are_exact(rows: tuple[int, ...], misere: bool, plies: int,
                                 options: dict[str, Any]) -> None:
    game = Nim(rows, misere=misere)
    result = Engine(game, **options).search()
    assert (result.outcome, result.plies) == ("loss", plies)
    assert len(result.pv) == plies  # the line plays the whole game out
    assert_legal_line(game, game.initial_state(), result.pv)
    end = game.initial_state()
    for move in result.pv:
        end = game.play(end, move)
    assert game.outcome(end) is not None


def all_positions(game: MNKGame) -> list[Board]:
    """Every position reachable from the empty board (play stops at a win): 5478."""
    seen: set[Board] = set()
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state not in seen:
            seen.add(state)
            stack.extend(game.play(state, move) for move in game.moves(state))
    return list(seen)


def test_every_tictactoe_position_like_minimax() -> None:
    """All 5478 positions. The oracle is reference minimax; for the 82 positions with 7 or
    more empty cells, the reference negamax (alpha-beta, itself tested against minimax)
    stands in for it, to keep the test at a few seconds."""
    game = MNKGame()
    positions = all_positions(game)
    assert len(positions) == 5478
    truth = {}
    for state in positions:
        empty = game.cells - (state.x | state.o).bit_count()
        oracle = negamax if empty >= 7 else minimax
        truth[state] = oracle(game, state)
    for name, options in GAME_CONFIGURATIONS.items():
        if name == "iterative-no-table":
            continue  # minutes; the other four cover table and deepening on and off
        engine = Engine(game, **options)  # one engine for all: its table is reused
        for state in positions:
            result = engine.search(state)
            try:
                assert_same_result(result, truth[state])
            except AssertionError as error:
                raise AssertionError(f"{name}, position {state}: {error}") from error


def test_tictactoe_is_a_draw_with_a_full_line() -> None:
    game = MNKGame()
    result = Engine(game).search()
    assert (result.value, result.outcome) == (0, "draw")
    assert len(result.pv) == 9


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.booleans())
def test_nim_positions_like_minimax(rows: list[int], misere: bool) -> None:
    game = Nim(rows, misere=misere)
    check_engine(game, configurations=GAME_CONFIGURATIONS)
    result = Engine(game).search()
    if any(rows):
        assert (result.outcome == "win") == mover_wins(rows, misere=misere)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 14), st.sets(st.integers(1, 5), min_size=1, max_size=3))
def test_subtraction_positions_like_minimax(heap: int, takes: set[int]) -> None:
    check_engine(SubtractionGame(heap, sorted(takes)), configurations=GAME_CONFIGURATIONS)


@pytest.mark.parametrize("heap", range(0, 16))
def test_bones_like_minimax(heap: int) -> None:
    game = SubtractionGame(heap, (1, 2, 3))
    check_engine(game, configurations=GAME_CONFIGURATIONS)
    assert (Engine(game).search().outcome == "loss") == (heap % 4 == 0)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_limited_nim_without_table_like_minimax(depth: int) -> None:
    """Depth-limited values equal minimax's when positions are not shared through the table
    (with it, a position may be valued from a deeper search: see docs/engine.md)."""
    game = Nim((1, 2, 3))
    reference = minimax(game, depth=depth)
    configurations: list[dict[str, Any]] = [{"table": False},
                                            {"table": False, "iterative": True}]
    for options in configurations:
        assert_same_result(Engine(game, **options).search(depth=depth), reference)


def test_connect_four_under_a_time_budget_answers_with_a_completed_depth() -> None:
    """What no machine's speed can change. How close searches keep to their budgets is
    measured by benchmarks/bench_budgets.py, not here."""
    game = ConnectFour()
    start = game.initial_state()
    engine = Engine(game)
    result = engine.search(time=0.2)
    assert result.best_move in game.moves(start)
    assert_legal_line(game, start, result.pv)
    assert engine.last_stop == "time"
    assert result.stats.stopped_by == "time"  # 7x6 is far too big to solve so
    assert result.depth is not None and result.depth >= 1  # depth 1 always completes
    assert result.depth == result.stats.depth_reached


@pytest.mark.parametrize("budget", [300, 3_000])
def test_connect_four_under_a_node_budget_is_repeatable(budget: int) -> None:
    game = ConnectFour()
    start = game.initial_state()
    engine = Engine(game)
    result = engine.search(nodes=budget)
    assert engine.last_stop == "nodes" and result.stats.stopped_by == "nodes"
    assert result.stats.nodes <= budget
    assert result.best_move in game.moves(start)
    assert_legal_line(game, start, result.pv)
    reached = result.stats.depth_reached
    assert result.depth == reached and reached >= 1
    # A node budget, unlike a time budget, gives the same search on any machine ...
    again = Engine(game).search(nodes=budget)
    assert (again.value, again.best_move, again.pv, again.stats.nodes) == (
        result.value, result.best_move, result.pv, result.stats.nodes)
    # ... and a larger one never reaches less deep.
    larger = Engine(game).search(nodes=budget * 10)
    assert larger.stats.depth_reached >= reached


@st.composite
def late_connect_four(draw: st.DrawFn) -> tuple[ConnectFour, Any]:
    """A 4x4 or 5x4 Connect Four position with at most 8 empty cells (random legal play)."""
    game = ConnectFour(draw(st.sampled_from([4, 5])), 4)
    state = game.initial_state()
    while game.outcome(state) is None and (game.width * game.height
                                           - game.stone_count(state)) > 8:
        state = game.play(state, draw(st.sampled_from(game.moves(state))))
    return game, state


@settings(max_examples=40, deadline=None)
@given(late_connect_four())
def test_connect_four_endgames_like_minimax(position: tuple[ConnectFour, Any]) -> None:
    game, state = position
    check_engine(game, state, configurations=GAME_CONFIGURATIONS)
