"""The compiled engine under time and node budgets, from Python, the CLI and the terminal player.

Node budgets are deterministic, so they are checked exactly; time budgets only for what a
loaded machine cannot change (a legal move from a completed depth). How close searches keep to
their time budgets is measured by benchmarks/bench_budgets.py, not here.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from gametree.games.connect4 import ConnectFour, split_moves
from gametree.games.connect4_kernel import compiled_form as connect4_form
from gametree.games.tictactoe import MNKGame
from gametree.games.tictactoe_kernel import compiled_form as tictactoe_form
from gametree.registry import play_moves
from gametree.result import SearchResult
from gametree.service import search

from .cli_support import gametree as run_gametree
from .compiled_support import compiled_search


def fresh_engine_search(moves: str, **options: Any) -> SearchResult[Any]:
    game = ConnectFour()
    state = play_moves(game, split_moves(moves)) if moves else game.initial_state()
    return compiled_search(connect4_form(game), state, **options)  # from an empty table


@pytest.mark.parametrize("budget", [2_000, 30_000, 200_000])
def test_a_node_budget_answers_with_the_deepest_completed_depth(budget: int) -> None:
    game = ConnectFour()
    form = connect4_form(game)
    state = play_moves(game, split_moves("4453"))
    budgeted = compiled_search(form, state, nodes=budget)
    reached = budgeted.stats.depth_reached
    assert budgeted.stats.stopped_by is not None
    assert budgeted.depth == reached and reached >= 1
    assert budgeted.stats.iterations == reached
    assert budgeted.best_move in game.moves(state)
    # The same value as a search straight to that depth: the unfinished iteration left
    # nothing behind, and the table's entries from shallower iterations change no value.
    plain = compiled_search(form, state, depth=int(reached))
    assert budgeted.value == plain.value
    # A larger budget never reaches less deep.
    larger = compiled_search(form, state, nodes=budget * 4)
    assert larger.stats.depth_reached >= reached


def test_a_budget_with_a_depth_cap_stops_at_the_cap() -> None:
    result = fresh_engine_search("", nodes=10_000_000, depth=5)
    assert result.depth == 5
    assert result.stats.stopped_by is None


@pytest.mark.parametrize("moves, plies", [("4455", 3), ("44455554221", 2)])
def test_a_result_in_reach_is_solved_exactly_within_a_budget(moves: str, plies: int) -> None:
    result = fresh_engine_search(moves, nodes=1_000_000)
    assert result.stats.stopped_by is None
    assert result.depth is None and result.exhaustive
    # Depth 1 proves it (a double threat, a forced loss) without one estimate: that search
    # is already the solve.
    assert result.stats.iterations == 1
    assert result.plies == plies
    assert result.outcome == ("win" if plies % 2 else "loss")


def test_tic_tac_toe_within_a_budget_is_the_solved_game() -> None:
    game = MNKGame()
    result = compiled_search(tictactoe_form(game), game.initial_state(), nodes=1_000_000,
                             exact_root=True)
    assert result.outcome == "draw" and result.depth is None
    assert result.stats.stopped_by is None
    assert {entry.value for entry in result.moves} == {0}


def test_a_time_budget_answers_with_the_deepest_completed_depth() -> None:
    game = ConnectFour()
    form = connect4_form(game)
    start = game.initial_state()
    result = compiled_search(form, start, time=0.2)
    assert result.best_move in game.moves(start)
    assert result.stats.stopped_by == "time"  # 7x6 is far too big to solve so
    reached = result.stats.depth_reached
    assert result.depth == reached and result.stats.iterations == reached >= 1
    # Whatever depth the clock allowed, the answer is that depth's: the iteration the clock
    # stopped left nothing behind.
    plain = compiled_search(form, start, depth=int(reached))
    assert (result.value, result.best_move) == (plain.value, plain.best_move)


@pytest.mark.parametrize("options, message", [
    ({"time": 0.0}, "time must be a positive number of seconds"),
    ({"time": float("nan")}, "time must be a positive number of seconds"),
    ({"nodes": 0}, "nodes must be a whole number from 1"),
    ({"nodes": 2.5}, "nodes must be a whole number from 1"),
    ({"time": 1.0, "weak": True}, "weak proves the result of the game"),
])
def test_bad_budgets_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fresh_engine_search("", **options)


def gametree(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    return run_gametree(*args, typed=typed, timeout=600)


def test_cli_budgets_run_on_the_compiled_tier() -> None:
    done = gametree("solve", "connect4", "--moves", "4455", "--nodes", "1000000", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["tier"], document["score"], document["plies"]) == ("compiled", 18, 3)
    assert document["stats"]["stopped_by"] is None
    opening = gametree("solve", "connect4", "--time", "0.2", "--json")
    assert opening.returncode == 0, opening.stderr
    document = json.loads(opening.stdout)
    assert document["tier"] == "compiled" and document["best_move"] in "1234567"
    assert document["stats"]["stopped_by"] == "time"
    assert document["depth"] == document["stats"]["depth_reached"] >= 1


def test_cli_weak_with_a_budget_is_a_usage_error() -> None:
    done = gametree("solve", "connect4", "--weak", "--time", "1")
    assert done.returncode == 2
    assert done.stderr.strip() == ("gametree solve: error: --weak proves the result of the "
                                   "game: it takes no --depth, --time or --nodes")


def test_play_uses_the_compiled_engine_when_the_game_has_one() -> None:
    done = gametree("play", "connect4", "--depth", "6", "--first", "engine", typed="quit\n")
    assert done.returncode == 0, done.stderr
    assert "(compiled engine, 6 plies deep)" in done.stdout
    assert "Engine (X) plays 4." in done.stdout
    python = gametree("play", "connect4", "--depth", "6", "--tier", "python", typed="quit\n")
    assert "(engine, 6 plies deep)" in python.stdout


def test_play_refuses_a_compiled_tier_it_cannot_use() -> None:
    done = gametree("play", "connect4", "--algorithm", "alphabeta", "--tier", "compiled",
                    typed="quit\n")
    assert done.returncode == 2
    assert ("--tier compiled: the compiled tier runs the engine, not --algorithm alphabeta"
            in done.stderr)


@pytest.mark.parametrize("budget", [{"time": 5.0}, {"nodes": 100_000}, {"depth": 1},
                                    {"depth": 2}], ids=str)
def test_a_result_proven_within_the_depth_gives_its_line_to_the_end(
        budget: dict[str, Any]) -> None:
    # A win in 3 that depth 1 proves (the threats on the board): its line is the solve's,
    # three moves, as on the Python tier, not the one move its depth reached.
    game = ConnectFour()
    state = play_moves(game, split_moves("445511"))
    solved = search(game, state, tier="compiled", book=False)
    proven = search(game, state, tier="compiled", book=False, **budget)
    assert (proven.value, proven.pv, proven.outcome, proven.plies) == \
        (solved.value, solved.pv, "win", 3)
    if "depth" not in budget:  # the Python tier proves it too, by searching deeper
        python = search(game, state, tier="python", book=False, **budget)
        assert len(python.pv) == 3 and python.value == proven.value
