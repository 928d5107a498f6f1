"""Opponents with a level (gametree.levels): what each level does, reproducible from a seed,
in the terminal's opponent and the web's move job alike; level 10 beats level 1."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from pydantic import ValidationError

from gametree import registry, search
from gametree.levels import LEVELS, PERFECT, appeal, choose, level
from gametree.play import SearchOpponent
from gametree.play.match import Score, play_game, series
from gametree.result import MoveValue
from gametree.values import WIN
from gametree.web.jobs import Workshop
from gametree.web.limits import ServerLimits
from gametree.web.requests import Models, move_job


def test_each_level_is_stronger_than_the_one_below_in_every_way() -> None:
    assert sorted(LEVELS) == list(range(1, 11))
    ladder = [LEVELS[number] for number in sorted(LEVELS)]
    for lower, higher in pairwise(ladder):
        reach = [99 if plies is None else plies for plies in (lower.depth, higher.depth)]
        assert reach[1] >= reach[0], (lower, higher)  # never shallower
        assert higher.temperature < lower.temperature, (lower, higher)
        assert higher.mistake_rate < lower.mistake_rate, (lower, higher)
    assert (LEVELS[PERFECT].temperature, LEVELS[PERFECT].mistake_rate) == (0, 0)


def test_level_8_outplays_level_2_at_tic_tac_toe() -> None:
    game = registry.make("tictactoe")
    score = series(game, lambda seed: (SearchOpponent(level=2, seed=seed, tier="python"),
                                       SearchOpponent(level=8, seed=seed, tier="python")), 12)
    assert score.mean < 0.3 and score.wins < score.losses, score  # level 2's score


@pytest.mark.parametrize("bad", [0, 11, True, 2.5, "3"])
def test_a_level_out_of_range_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="the level must be a whole number from 1 to 10"):
        level(bad)


def test_appeal_puts_wins_losses_and_estimates_on_one_footing() -> None:
    quick, slow = MoveValue(0, WIN - 1), MoveValue(1, WIN - 9)
    lost, draw = MoveValue(2, -(WIN - 3)), MoveValue(4, 0)
    good, poor = MoveValue(3, 4, depth=3), MoveValue(5, 1, depth=3)
    values = [appeal(entry, top=4, spread=3) for entry in (quick, slow, good, draw, poor, lost)]
    assert values == sorted(values, reverse=True)
    assert values[2] == 0 and values[4] == -0.5 and -1 < values[5] < -0.9


def test_appeal_counts_only_the_differences_between_estimates() -> None:
    # A search cut at an odd depth shifts every estimate alike (the mover's stone last): the
    # odds between the moves must not change with it.
    values = [0, 1, 3]
    for shift in (0, 4, -7):
        entries = [MoveValue(move, value + shift, depth=3) for move, value in enumerate(values)]
        estimates = [value + shift for value in values]
        top, spread = max(estimates), max(estimates) - min(estimates)
        assert [appeal(entry, top, spread) for entry in entries] == [-0.5, -1 / 3, 0]


def test_the_same_seed_plays_the_same_moves_and_level_10_the_search_s_own() -> None:
    game = registry.make("tictactoe")
    state = game.initial_state()

    def searched(**changes: Any) -> Any:
        return search(game, state, tier="python", **changes)

    picks = [choose(state, 1, searched, seed=seed)[0].best_move for seed in range(12)]
    assert picks == [choose(state, 1, searched, seed=seed)[0].best_move for seed in range(12)]
    assert len(set(picks)) > 1  # level 1 varies from seed to seed
    result, choice = choose(state, PERFECT, searched, seed=5)
    assert choice.how == "best" and result.best_move == searched().best_move
    low, low_choice = choose(state, 1, searched, seed=1)
    assert low.depth == 1 and low_choice.level.number == 1  # level 1 looks 1 ply ahead


def test_level_10_never_loses_to_level_1_at_tic_tac_toe() -> None:
    game = registry.make("tictactoe")
    score = series(game, lambda seed: (SearchOpponent(level=10, seed=seed, tier="python"),
                                       SearchOpponent(level=1, seed=seed, tier="python")), 10)
    assert score.losses == 0 and score.wins >= 5


@pytest.mark.slow
def test_level_10_wins_most_games_against_level_1_at_connect_four_5x4() -> None:
    game = registry.make("connect4", width=5, height=4)
    score = series(game, lambda seed: (SearchOpponent(level=10, seed=seed),
                                       SearchOpponent(level=1, seed=seed)), 20)
    assert score.wins > 10 and score.losses == 0


def test_a_score_s_interval_holds_its_mean() -> None:
    score = Score(wins=6, draws=2, losses=2)
    low, high = score.interval()
    assert score.mean == 0.7 and low < 0.7 < high and low >= 0 and high <= 1
    assert Score(0, 5, 0).interval() == (0.5, 0.5)


def test_a_game_between_two_opponents_ends_with_its_result() -> None:
    game = registry.make("tictactoe")
    result, moves = play_game(game, (SearchOpponent(tier="python"),
                                     SearchOpponent(tier="python")))
    assert result == 0 and len(moves) == 9  # perfect play draws


def test_the_web_move_job_plays_at_a_level() -> None:
    models = Models()
    limits = ServerLimits()
    specs = dict(registry.games())
    leaves = {"leaves": "win loss draw win loss loss draw draw 3 -2 5 1 0 4 -1 2"}
    request = models.move.model_validate(  # the tree game: the Python tier
        {"game": "tree", "options": leaves, "level": 1, "seed": 3})
    job = move_job(request, specs, limits, models)
    assert job.level == 1
    workshop = Workshop(specs, limits)
    first, again = workshop.run(job), workshop.run(job)
    assert first["best_move"] == again["best_move"]  # the seed makes it reproducible
    assert first["level"]["level"] == 1 and first["level"]["depth"] == 1
    assert first["level"]["how"] in ("best", "sampled", "blunder")
    assert first["position"]["moves"]  # the position after the level's move
    plain = workshop.run(move_job(models.move.model_validate({"game": "tree", "options": leaves}),
                                  specs, limits, models))
    assert "level" not in plain
    with pytest.raises(ValidationError, match="less than or equal to 10"):
        models.move.model_validate({"game": "tictactoe", "level": 11})
