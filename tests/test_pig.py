"""Pig: OpenSpiel's rules and options, its values (expected utilities for the player whose turn
it is), and a game in the terminal."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction

import pytest

from gametree import CHANCE, check_game, search
from gametree.engine.chance import search_chance
from gametree.game import IllegalMoveError
from gametree.games.pig import HOLD, ROLL, Pig, PigState
from gametree.play import PlaySession, SearchOpponent
from gametree.play.lines import StreamLines
from gametree.reference import expectiminimax
from gametree.registry import get

SMALL = Pig(winscore=6, diceoutcomes=3, horizon=5)


def line(game: Pig, text: str) -> PigState:
    state = game.initial_state()
    for word in text.split():
        state = game.checked_play(state, game.parse_move(state, word))
    return state


def reachable(game: Pig) -> list[PigState]:
    seen = {game.initial_state()}
    todo = [game.initial_state()]
    while todo:
        state = todo.pop()
        for move in game.moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return sorted(seen)


# -- the rules ---------------------------------------------------------------------------------


def test_rolls_add_to_the_turn_total_and_a_one_loses_it() -> None:
    game = Pig()
    state = line(game, "roll 4 roll 6")
    assert state == PigState((0, 0), 10, 0, False, 2)
    assert game.to_move(line(game, "roll")) == CHANCE and game.turn(line(game, "roll")) == 0
    assert line(game, "roll 4 roll 1") == PigState((0, 0), 0, 1, False, 2)  # the turn passes
    assert line(game, "roll 4 hold") == PigState((4, 0), 0, 1, False, 2)


def test_a_player_wins_by_holding_at_the_goal() -> None:
    game = Pig(winscore=5, diceoutcomes=6, horizon=30)
    assert game.outcome(line(game, "roll 6")) is None  # not banked yet
    assert game.outcome(line(game, "roll 6 hold")) == 1
    assert game.outcome(line(game, "hold roll 5 hold")) == -1


def test_the_horizon_counts_the_players_moves_and_draws() -> None:
    game = Pig(winscore=50, diceoutcomes=6, horizon=3)
    stopped = line(game, "roll 2 hold roll")  # the third move: the die stays in the air
    assert game.outcome(stopped) == 0 and game.moves(stopped) == ()
    assert game.to_move(stopped) == 1  # over: no chance state any more


def test_die_outcomes_are_written_as_their_faces() -> None:
    game = Pig(diceoutcomes=3)
    rolling = line(game, "roll")
    assert [game.format_move(rolling, face) for face in game.moves(rolling)] == ["1", "2", "3"]
    assert game.chance_outcomes(rolling) == [(1, Fraction(1, 3)), (2, Fraction(1, 3)),
                                             (3, Fraction(1, 3))]
    assert game.parse_move(game.initial_state(), "stop") == HOLD  # OpenSpiel's word
    assert game.parse_move(game.initial_state(), "roll") == ROLL
    with pytest.raises(IllegalMoveError, match="give its face, 1 to 3"):
        game.parse_move(rolling, "4")
    with pytest.raises(IllegalMoveError, match="moves: roll, hold"):
        game.parse_move(game.initial_state(), "4")


def test_options_are_openspiels_and_checked() -> None:
    assert [option.name for option in get("pig").options] == ["winscore", "diceoutcomes",
                                                              "horizon"]
    with pytest.raises(ValueError, match=r"diceoutcomes must be a whole number within 2\.\.20"):
        Pig(diceoutcomes=1)


def test_the_checker_passes_pig() -> None:
    assert check_game(SMALL, playouts=30).passed


# -- values ------------------------------------------------------------------------------------


def test_every_position_of_a_small_pig_the_engine_equals_expectiminimax() -> None:
    states = [state for state in reachable(SMALL) if SMALL.outcome(state) is None]
    assert len(states) > 100
    for state in states:
        reference = expectiminimax(SMALL, state)
        for pruning in ("star2", "star1"):
            result = search_chance(SMALL, state, pruning=pruning)
            assert result.expected == reference.expected, (state, pruning)
            assert result.stats.leaves <= reference.stats.leaves
        assert -1 <= reference.expected <= 1
        assert isinstance(reference.expected, Fraction)


def test_a_chance_state_is_valued_for_the_player_rolling() -> None:
    rolling = line(SMALL, "roll")
    value = expectiminimax(SMALL, rolling).expected
    faces = [expectiminimax(SMALL, SMALL.play(rolling, face)).expected for face in (1, 2, 3)]
    # a 1 passes the turn: that position is valued by the other player, so it counts negated
    assert value == Fraction(1, 3) * (-faces[0] + faces[1] + faces[2])


def test_the_json_gives_the_float_and_the_exact_fraction() -> None:
    state = line(SMALL, "roll 3")
    document = json.loads(json.dumps(search(SMALL, state).to_dict(SMALL, state)))
    assert Fraction(document["value_fraction"]) == expectiminimax(SMALL, state).expected
    assert document["value"] == pytest.approx(float(Fraction(document["value_fraction"])))
    assert document["value_text"].startswith("expected ")
    assert (document["outcome"], document["plies"], document["chance"]) == (None, None, True)
    assert [move["move"] for move in document["moves"]] == ["roll", "hold"]


def test_a_depth_limited_search_estimates() -> None:
    result = search(Pig(), depth=2)
    assert result.value_kind() == "estimate" and result.best_move == ROLL
    assert result.value_text().startswith("estimate ")


# -- in the terminal ---------------------------------------------------------------------------


def test_a_game_of_pig_in_the_terminal() -> None:
    out = io.StringIO()
    moves = io.StringIO("roll\nhold\n" * 12)
    session: PlaySession[PigState, int] = PlaySession(
        SMALL, SearchOpponent(), human=0, output=out,
        lines=StreamLines(moves, out, echo=True), dice=random.Random(7))
    assert session.run() == 0
    text = out.getvalue()
    assert "first player rolls: " in text
    assert "win probability" in text  # the engine's view of its moves
    assert "Game over:" in text
    assert SMALL.outcome(session.state) is not None
