"""The OpenSpiel bridge (``gametree.games.openspiel``) against OpenSpiel itself.

gametree's values of OpenSpiel's games, searched through the bridge, are compared with
OpenSpiel's own searches of the same states (``alpha_beta_search``, ``expectiminimax``) on one
scale: OpenSpiel's value for the player to move is a utility (+1, 0, -1, or an expected one),
gametree's result a proven outcome (``gametree.values``) or, without distance scoring, the same
utility. The states come from OpenSpiel (every reachable position of small games, random
positions of larger ones), so the two searches see exactly the same positions.

OpenSpiel is the optional extra ``gametree[openspiel]`` (and in the ``test`` extra, so CI has
it): without it these tests skip, except under CI, where its absence is an error.
"""

from __future__ import annotations

import math
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from open_spiel.python.algorithms.minimax import alpha_beta_search, expectiminimax
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("open_spiel is not installed (pip install 'gametree[openspiel]'; the test extra "
                "has it)", allow_module_level=True)

from gametree import SearchSession, search
from gametree import games as built_in_games
from gametree.game import IllegalMoveError
from gametree.games.openspiel import MISSING, OpenSpielGame, OpenSpielState, move_word
from gametree.games.pig import HOLD, ROLL, Pig, PigState
from gametree.registry import GameOptionError, make
from gametree.values import outcome_of

from .cli_support import gametree, run

# -- helpers ---------------------------------------------------------------------------------


def reachable(game: OpenSpielGame) -> Iterator[OpenSpielState]:
    """Every state reachable from the start, each once (by the bridge's key)."""
    seen: set[OpenSpielState] = set()
    todo = [game.initial_state()]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        yield state
        todo.extend(game.play(state, move) for move in game.moves(state))


def random_positions(game: OpenSpielGame, count: int, plies: range, seed: int,
                     ) -> list[OpenSpielState]:
    """``count`` unfinished positions after a random number of random moves in ``plies``."""
    rng = random.Random(seed)
    found: list[OpenSpielState] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.choice(plies)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(list(game.moves(state))))
        if game.outcome(state) is None:
            found.append(state)
    return found


def openspiel_value(game: OpenSpielGame, state: OpenSpielState) -> float:
    """OpenSpiel's own exact value of ``state`` for the player to move (its alpha-beta)."""
    value, _action = alpha_beta_search(game.spiel_game, state=state.spiel.clone(),
                                       maximum_depth=game.spiel_game.max_game_length())
    return float(value)


def assert_values_agree(game: OpenSpielGame, states: list[OpenSpielState]) -> int:
    """gametree's exact solve of each unfinished state gives OpenSpiel's outcome (distance
    scoring) and OpenSpiel's utility (plain values), and its best move keeps that value in
    OpenSpiel's eyes. Returns how many states were compared."""
    compared = 0
    with SearchSession(game) as distance, SearchSession(game, by_distance=False) as plain:
        for state in states:
            if game.outcome(state) is not None:
                continue
            expected = openspiel_value(game, state)
            result = distance.search(state)
            shown = state.spiel.history_str()
            assert result.outcome == outcome_of(expected), f"after {shown}: {result.outcome}"
            assert plain.search(state).value == expected, f"after {shown}"
            # The move chosen keeps the value: OpenSpiel values the position after it the same.
            assert result.best_move is not None
            child = game.play(state, result.best_move)
            if game.outcome(child) is not None:
                after = game.outcome(child)
                assert after is not None
                mover_value = after if game.to_move(state) == 0 else -after
            else:
                sign = 1 if game.to_move(child) == game.to_move(state) else -1
                mover_value = sign * openspiel_value(game, child)
            assert mover_value == expected, f"after {shown}, best move {result.best_move}"
            compared += 1
    return compared


# -- the bridge --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "reason"), [
    ("kuhn_poker", "kuhn_poker has imperfect information"),
    ("matrix_rps", "matrix_rps has simultaneous moves"),
    ("2048", "2048 has 1 player and is not zero-sum"),
    ("pig(players=3)", "pig has 3 players"),
])
def test_games_outside_the_class_are_refused_with_the_reason(name: str, reason: str) -> None:
    with pytest.raises(GameOptionError) as refused:
        make("openspiel", name=name)
    message = str(refused.value)
    assert message.startswith(f"openspiel: {reason}")
    assert "two-player, zero-sum (or constant-sum), sequential and of perfect information" in \
        message


@pytest.mark.parametrize(("name", "said"), [
    ("tic_tac_tow", "OpenSpiel has no game 'tic_tac_tow'; did you mean tic_tac_toe"),
    ("breakthrough(rows=4", "cannot read the game string 'breakthrough(rows=4'"),
    ("breakthrough(size=4)", "breakthrough has no parameter 'size'; its parameters: columns, "
                             "rows"),
    ("breakthrough(rows=four)", "breakthrough's parameter rows takes a whole number, got "
                                "'four'"),
])
def test_names_openspiel_does_not_know_get_one_line(name: str, said: str) -> None:
    with pytest.raises(GameOptionError, match=r"^openspiel: ") as refused:
        make("openspiel", name=name)
    assert said in str(refused.value)


def test_the_command_line_refuses_on_one_line_without_openspiels_list(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", "openspiel", "--name", "kuhn_poker")
    assert (status, out) == (2, "")
    assert err.startswith("gametree solve: error: openspiel: kuhn_poker has imperfect "
                          "information")
    assert err.count("\n") == 1


def test_a_missing_openspiel_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(GameOptionError) as refused:
        make("openspiel", name="tic_tac_toe")
    assert str(refused.value) == f"openspiel: {MISSING}"
    assert "pip install 'gametree[openspiel]'" in MISSING


def test_only_the_bridge_imports_openspiel() -> None:
    # gametree works without the extra: no other module may need pyspiel.
    source = Path(built_in_games.__file__).resolve().parent.parent
    importing = sorted(str(path.relative_to(source)) for path in source.rglob("*.py")
                       if re.search(r"^\s*(import pyspiel|from open_spiel|import open_spiel)",
                                    path.read_text(encoding="utf-8"), re.M))
    assert importing == ["games/openspiel.py"]


def test_moves_are_one_word_and_read_back_in_every_spelling() -> None:
    game = OpenSpielGame("nim(pile_sizes=1;3;5)")
    state = game.initial_state()
    assert move_word("pile:3, take:2;") == "pile:3,take:2"
    assert move_word("Roll 3") == "Roll_3"
    texts = [game.format_move(state, move) for move in game.moves(state)]
    assert "pile:3,take:2" in texts and all(" " not in text for text in texts)
    take = game.parse_move(state, "pile:3,take:2")
    assert game.parse_move(state, "PILE:3, take:2;") == take  # OpenSpiel's own text
    assert game.parse_move(state, f"#{take}") == take
    with pytest.raises(IllegalMoveError, match="not a legal move; legal moves: pile:1,take:1"):
        game.parse_move(state, "pile:9,take:1")
    with pytest.raises(IllegalMoveError, match="action 999 is not legal here"):
        game.parse_move(state, "#999")


def test_states_are_immutable_values_keyed_with_their_move_counts() -> None:
    game = OpenSpielGame("pig(winscore=10,horizon=4)")
    start = game.initial_state()
    rolled = game.play(start, game.parse_move(start, "roll"))
    assert str(start.spiel) != str(rolled.spiel) and game.initial_state() == start
    # Pig's text leaves out how many moves were made, on which its horizon depends: a player
    # who holds at once and one who rolls a 1 leave the same text, not the same position.
    held = game.play(start, game.parse_move(start, "stop"))
    pigged = game.play(rolled, game.parse_move(rolled, "Roll_1"))
    assert str(held.spiel) == str(pigged.spiel)
    assert game.key(held) != game.key(pigged)
    assert (game.to_move(rolled), game.turn(rolled), game.to_move(pigged)) == (-1, 0, 1)


def test_solve_breakthrough_as_the_issue_spells_it(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "solve", "openspiel", "--name",
                           "breakthrough(rows=4,columns=4)", "--depth", "4")
    assert (status, err) == (0, "")
    assert "best move: " in out and "to depth 4" in out


def test_tic_tac_toe_is_a_draw_and_nim_a_win_in_the_right_number_of_plies() -> None:
    assert search(OpenSpielGame("tic_tac_toe")).outcome == "draw"
    # Nim 1,2 (normal play): take 1 from the pile of 2 and win in 3 plies.
    result = search(OpenSpielGame("nim(pile_sizes=1;2,is_misere=false)"))
    assert (result.outcome, result.plies) == ("win", 3)


def test_a_heuristic_of_openspiel_states_values_the_depth_limit() -> None:
    # Seen from player 0: X's marks count for X. At depth 1, X takes the cell its heuristic
    # likes best, and the value is that estimate.
    def marks_in_the_middle_row(spiel: object) -> float:
        return str(spiel).splitlines()[1].count("x")

    game = OpenSpielGame("tic_tac_toe", evaluate=marks_in_the_middle_row)
    result = search(game, depth=1)
    assert result.value == 1 and result.outcome is None and result.best_move is not None
    assert game.format_move(game.initial_state(), result.best_move) == "x(1,0)"
    assert search(OpenSpielGame("tic_tac_toe"), depth=1).value == 0


def test_trace_logs_openspiels_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "trace", "openspiel", "--name",
                           "nim(pile_sizes=1;2,is_misere=false)")
    assert (status, err) == (0, "")
    assert "TOP MAX node... Try Move : pile:1,take:1" in out


@pytest.mark.slow
def test_play_runs_in_the_terminal() -> None:
    done = gametree("play", "openspiel", "--name", "tic_tac_toe", "--depth", "2",
                    typed="x(1,1)\nquit\n", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "You play x(1,1)." in done.stdout
    assert "Engine (player 1) plays " in done.stdout


@pytest.mark.slow
def test_play_rolls_openspiels_dice() -> None:
    done = gametree("play", "openspiel", "--name", "pig(winscore=10,horizon=6)", "--dice", "1",
                    typed="roll\nquit\n", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "You play roll." in done.stdout
    assert "player 0 rolls: Roll_" in done.stdout


# -- cross-checks with OpenSpiel's own searches -------------------------------------------------


@pytest.mark.slow
def test_every_reachable_tic_tac_toe_position_agrees() -> None:
    game = OpenSpielGame("tic_tac_toe")
    assert assert_values_agree(game, list(reachable(game))) == 4520


@pytest.mark.slow
def test_random_connect_four_positions_agree() -> None:
    game = OpenSpielGame("connect_four")
    positions = random_positions(game, 24, range(28, 36), seed=23)
    assert assert_values_agree(game, positions) == 24


@pytest.mark.slow
@pytest.mark.parametrize("misere", [False, True])
def test_every_nim_position_agrees_in_normal_and_misere_play(misere: bool) -> None:
    game = OpenSpielGame(f"nim(pile_sizes=2;3;4,is_misere={str(misere).lower()})")
    assert game.spiel_game.get_parameters()["is_misere"] is misere
    states = list(reachable(game))
    assert assert_values_agree(game, states) > 100


@pytest.mark.slow
def test_every_small_breakthrough_position_agrees() -> None:
    game = OpenSpielGame("breakthrough(rows=3,columns=4)")
    assert assert_values_agree(game, list(reachable(game))) > 2000


@pytest.mark.slow
def test_random_breakthrough_4x4_positions_agree() -> None:
    game = OpenSpielGame("breakthrough(rows=4,columns=4)")
    positions = [game.initial_state(), *random_positions(game, 12, range(2, 10), seed=4)]
    assert assert_values_agree(game, positions) == 13



# -- chance: Pig --------------------------------------------------------------------------------

SMALL_PIG = {"winscore": 10, "horizon": 6}
"""The small Pig of the cross-checks: first to 10 points, at most 6 moves of the players
(2,974 positions, 1,792 of them unfinished)."""


def openspiel_expected(game: OpenSpielGame, state: OpenSpielState) -> float:
    """OpenSpiel's ``expectiminimax`` value of ``state`` to its end, for the player whose turn
    it is (at a chance node, the player who rolled)."""
    value, _action = expectiminimax(state.spiel.clone(), game.spiel_game.max_game_length(),
                                    None, game.turn(state))
    return float(value)


def small_pigs() -> tuple[OpenSpielGame, Pig]:
    """OpenSpiel's small Pig through the bridge, and the built-in one with the same options."""
    options = ",".join(f"{name}={value}" for name, value in SMALL_PIG.items())
    return OpenSpielGame(f"pig({options})"), Pig(**SMALL_PIG)


def built_in_move(spiel: OpenSpielState, action: int) -> int:
    """The built-in Pig's move for OpenSpiel's ``action`` in ``spiel``: the die's face for an
    outcome (OpenSpiel's outcome ``a`` is face ``a + 1``), else roll (0) or hold (1)."""
    if spiel.player == -1:
        return action + 1
    return {0: ROLL, 1: HOLD}[action]


def pig_pairs(bridge: OpenSpielGame, pig: Pig) -> list[tuple[OpenSpielState, PigState]]:
    """Every position of the small Pig, reached in both games by the same moves."""
    pairs: list[tuple[OpenSpielState, PigState]] = []
    seen: set[OpenSpielState] = set()
    todo = [(bridge.initial_state(), pig.initial_state())]
    while todo:
        spiel, state = todo.pop()
        if spiel in seen:
            continue
        seen.add(spiel)
        pairs.append((spiel, state))
        todo.extend((bridge.play(spiel, action), pig.play(state, built_in_move(spiel, action)))
                    for action in bridge.moves(spiel))
    return pairs


@pytest.mark.slow
def test_every_small_pig_position_agrees_with_openspiels_expectiminimax() -> None:
    bridge, _pig = small_pigs()
    states = [spiel for spiel, _state in pig_pairs(bridge, _pig)]
    assert len(states) == 2974
    compared = 0
    with SearchSession(bridge) as session:
        for state in states:
            if bridge.outcome(state) is not None:
                continue
            result = session.search(state)
            expected = openspiel_expected(bridge, state)
            # Both are expected utilities on OpenSpiel's scale, -1 .. 1, for the player whose
            # turn it is; a line with chance has no outcome and no distance.
            assert math.isclose(result.value, expected, abs_tol=1e-9), state
            compared += 1
    assert compared == 1792


@pytest.mark.slow
def test_built_in_pig_and_openspiels_pig_agree_on_every_small_position() -> None:
    bridge, pig = small_pigs()
    pairs = pig_pairs(bridge, pig)
    assert len(pairs) == 2974
    compared = 0
    with SearchSession(pig) as session:
        for spiel, state in pairs:
            assert pig.outcome(state) == bridge.outcome(spiel), state
            if pig.outcome(state) is not None:
                continue
            assert (pig.to_move(state), pig.turn(state)) == (bridge.to_move(spiel),
                                                             bridge.turn(spiel)), state
            value = session.search(state).value
            assert math.isclose(float(value), openspiel_expected(bridge, spiel),
                                abs_tol=1e-9), state
            compared += 1
    assert compared == 1792
