"""Whole-game databases by retrograde analysis agree with the engine (issue 11, acceptance)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from gametree import SearchOptions, search, solve_batch
from gametree.builder import BuildRequest, build
from gametree.builder.whole import whole_game_rows
from gametree.db.answer import SolutionDatabase
from gametree.db.check import export_rows
from gametree.db.store import Database, engine_value
from gametree.games.connect4 import ConnectFour
from gametree.games.nim import mover_wins
from gametree.registry import make
from gametree.solvers.retrograde import solve

from .cli_support import gametree
from .exact import reachable


def test_tictactoe_database_agrees_with_the_engine_on_every_reachable_position(
        tmp_path: Path) -> None:
    path = tmp_path / "ttt.db"
    report = build(BuildRequest(str(path), "tictactoe", search=SearchOptions(tier="python")))
    assert report.positions == 765  # 5,478 positions, merged by the game's symmetric key
    game = make("tictactoe")
    states = sorted(reachable(game))
    assert len(states) == 5478
    twins = 0
    with SolutionDatabase(path, game) as database:
        for state in states:
            entry = database.lookup(state)
            assert entry is not None
            twins += entry.twin
            result = search(game, state, exact_root=True)
            assert (entry.score, entry.plies) == (result.value, result.plies), state
            engine_best = {move.move for move in result.moves if move.value == result.value}
            assert set(entry.best) == engine_best, state
    assert twins > 0  # the symmetric twins were answered through their stored twin


@pytest.mark.slow  # the retrograde analysis of tic-tac-toe's kernel: a compile of its own
def test_the_compiled_and_python_retrograde_analyses_store_the_same_rows() -> None:
    game = make("tictactoe")
    python = list(whole_game_rows(game, solve(game, tier="python")))
    compiled_solution = solve(game, tier="compiled")
    assert compiled_solution.tier == "compiled"
    assert compiled_solution.graph.size == 5478  # the kernel's key tells twins apart
    assert list(whole_game_rows(game, compiled_solution)) == python


@pytest.mark.slow  # two processes, and a compile into a cache of its own
def test_a_second_process_loads_the_compiled_retrograde_analysis_from_the_cache(
        tmp_path: Path) -> None:
    # Its numba functions are generated and cached per kernel, as the engine's are: the first
    # build on a machine compiles them (and says so), the next process only loads them.
    env = dict(os.environ, GAMETREE_CACHE_DIR=str(tmp_path / "cache"))
    errors = []
    for number in (1, 2):
        done = gametree("db", "build", "tictactoe", "--all", "--quiet", "--db",
                        str(tmp_path / f"{number}.db"), env=env)
        assert done.returncode == 0, done.stderr
        errors.append(done.stderr)
    assert errors[0].splitlines() == [
        f"gametree: compiling the tic-tac-toe kernel's retrograde analysis (once; cached "
        f"in {tmp_path / 'cache'})..."]
    assert errors[1] == ""
    with Database.open(tmp_path / "1.db") as first, Database.open(tmp_path / "2.db") as second:
        assert list(export_rows(first, "jsonl")) == list(export_rows(second, "jsonl"))


@pytest.mark.slow  # the 4x4 board's retrograde analysis: a compile no core test shares
def test_connect_four_4x4_database_agrees_with_2000_random_exact_solves(tmp_path: Path) -> None:
    path = tmp_path / "c4.db"
    report = build(BuildRequest(str(path), "connect4", {"width": 4, "height": 4},
                                search=SearchOptions(tier="compiled")))
    assert report.tier == "compiled"
    game = make("connect4", width=4, height=4)
    board = ConnectFour(4, 4)
    states = list(reachable(board))
    symmetric = sum(board.mirror(state) == state for state in states)
    assert (len(states), symmetric) == (161_029, 53)
    with Database.open(path) as store:
        rows = [row for row in store.rows() if row.kind != "terminal"]
        # a board and its mirror image share a key: each pair stored once
        assert store.count() == report.positions == (161_029 + 53) // 2 == 80_541
    sample = random.Random(11).sample(rows, 2000)
    with SolutionDatabase(path, game) as database:
        states = [database.state_of(row) for row in sample]
    solved = solve_batch(game, states)  # exact solves on the compiled tier, values only
    for row, value in zip(sample, solved.values, strict=True):
        assert engine_value(row.value, row.plies) == value, row
    # the best moves too, on a few, through the full search
    for row, state in list(zip(sample, states, strict=True))[:50]:
        result = search(game, state)
        assert game.format_move(state, result.best_move) in row.best.split()


@pytest.mark.parametrize("rows", [(1, 3, 5), (2, 2, 3)])
def test_nim_database_agrees_with_bouton(tmp_path: Path, rows: tuple[int, ...]) -> None:
    path = tmp_path / "nim.db"
    build(BuildRequest(str(path), "nim", {"rows": rows}, search=SearchOptions(tier="python")))
    game = make("nim", rows=rows)
    with SolutionDatabase(path, game) as database:
        for state in reachable(game):
            entry = database.lookup(state)
            assert entry is not None
            assert (entry.value > 0) == mover_wins(state[0], misere=False)


def test_subtraction_database_agrees_with_sprague_grundy(tmp_path: Path) -> None:
    path = tmp_path / "sub.db"
    build(BuildRequest(str(path), "subtraction", {"heap": 40, "takes": (3, 4, 5)},
                       search=SearchOptions(tier="python")))
    game = make("subtraction", heap=40, takes=(3, 4, 5))
    with SolutionDatabase(path, game) as database:
        for heap in range(41):
            for player in (0, 1):
                entry = database.lookup((heap, player))
                if entry is None:
                    continue  # not reachable from 40 with this player to move
                assert (entry.value < 0) == (heap % 8 in (0, 1, 2)), heap
                result = search(game, (heap, player), tier="python")
                assert (entry.score, entry.plies) == (result.value, result.plies)
