"""The statistics of a match (gametree.arena.stats) against figures known or worked by hand."""

from __future__ import annotations

import math

import pytest

from gametree.arena.stats import (
    PRIOR,
    Sprt,
    elo_difference,
    expected_score,
    parse_sprt,
    pentanomial,
    trinomial,
)


def test_elo_of_known_scores() -> None:
    # 3 to 1 is 400 log10(3) = 190.85 Elo; 100 Elo expects 0.6401 (the Elo table's figures).
    assert elo_difference(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_difference(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_difference(0.5) == 0
    assert expected_score(100) == pytest.approx(0.64006, abs=1e-5)
    assert expected_score(-400) == pytest.approx(1 / 11)
    assert elo_difference(expected_score(37.5)) == pytest.approx(37.5)
    assert elo_difference(1.0) == math.inf
    assert elo_difference(0.0) == -math.inf
    with pytest.raises(ValueError, match=r"within 0\.\.1"):
        elo_difference(1.5)


def test_trinomial_interval_worked_by_hand() -> None:
    # 60 wins, 20 draws, 20 losses: mean 0.7; variance 0.6*0.3^2 + 0.2*0.2^2 + 0.2*0.7^2
    # = 0.16; standard error sqrt(0.16/100) = 0.04; interval 0.7 -/+ 1.96*0.04.
    found = trinomial(60, 20, 20)
    assert found.score == pytest.approx(0.7)
    assert found.elo == pytest.approx(147.19, abs=0.01)
    assert found.low == pytest.approx(elo_difference(0.7 - 1.959964 * 0.04), abs=0.01)
    assert found.high == pytest.approx(elo_difference(0.7 + 1.959964 * 0.04), abs=0.01)
    assert found.low == pytest.approx(86.2, abs=0.1)  # 0.6216: -400 log10(1/0.6216 - 1)
    assert found.model == "trinomial"
    assert found.observations == 100


def test_pentanomial_counts_pairs() -> None:
    # Every pair won once and lost once (an opening that wins for the first player): the
    # games alone look like a coin toss, the pairs show no spread at all.
    pairs = pentanomial([0, 0, 50, 0, 0])
    games = trinomial(50, 0, 50)
    assert pairs.elo == games.elo == 0
    assert pairs.low == pairs.high == 0
    assert games.low < -60  # 0.5 -/+ 1.96 * 0.05: about -/+69 Elo
    assert pairs.observations == 50
    # Pairs scoring 2, 1.5, 1 (10 each): mean 0.75 per game; variance of the per-game pair
    # score (1, 0.75, 0.5) = 1/24; interval 0.75 -/+ 1.96 sqrt(1/24/30).
    found = pentanomial([0, 0, 10, 10, 10])
    half = 1.959964 * math.sqrt(1 / 24 / 30)
    assert found.score == pytest.approx(0.75)
    assert found.low == pytest.approx(elo_difference(0.75 - half))
    assert found.high == pytest.approx(elo_difference(0.75 + half))
    with pytest.raises(ValueError, match="5 cells"):
        pentanomial([1, 2, 3])


def test_perfect_scores_reach_infinity() -> None:
    found = trinomial(10, 0, 0)
    assert found.elo == math.inf
    assert found.text() == "+inf [+inf, +inf] Elo"


def test_sprt_bounds_are_walds() -> None:
    # alpha = beta = 0.05: log(19) = 2.944, fishtest's familiar (-2.94, 2.94).
    lower, upper = Sprt(0, 5).bounds
    assert upper == pytest.approx(math.log(19))
    assert lower == pytest.approx(-2.944, abs=1e-3)
    lower, upper = Sprt(0, 5, alpha=0.05, beta=0.1).bounds
    assert lower == pytest.approx(math.log(0.1 / 0.95))
    assert upper == pytest.approx(math.log(0.9 / 0.05))


def test_sprt_ratio_worked_by_hand() -> None:
    # 60 wins, 20 draws, 20 losses: N = 100, mean 0.7. The variance is that of the counts
    # with half a result added to each cell (20.5, 20.5, 60.5 of 101.5: mean 0.697044,
    # variance 0.160681). elo0 = 0 gives s0 = 0.5, elo1 = 10 gives s1 = 0.514387;
    # LLR = 100 * (s1 - s0) * (2 * 0.7 - s0 - s1) / (2 * 0.160681).
    assert PRIOR == 0.5
    sprt = Sprt(0, 10)
    s1 = expected_score(10)
    assert s1 == pytest.approx(0.514387, abs=1e-6)
    counts = (20.5, 20.5, 60.5)
    centre = (counts[1] * 0.5 + counts[2]) / sum(counts)
    variance = (counts[0] * centre ** 2 + counts[1] * (0.5 - centre) ** 2
                + counts[2] * (1 - centre) ** 2) / sum(counts)
    assert variance == pytest.approx(0.160681, abs=1e-6)
    assert sprt.llr([20, 20, 60]) == pytest.approx(100 * (s1 - 0.5) * (1.4 - 0.5 - s1)
                                                   / (2 * variance))
    assert sprt.llr([20, 20, 60]) == pytest.approx(1.7264, abs=1e-3)


def test_sprt_ratio_is_a_ratio_of_normal_likelihoods() -> None:
    # The same figure from its definition: the log of the normal likelihood of the mean
    # under H1 over that under H0, with the variance per observation as above.
    mean, variance, count = 0.7, 0.160681, 100
    s0, s1 = expected_score(-5), expected_score(15)

    def log_likelihood(centre: float) -> float:
        return -((mean - centre) ** 2) / (2 * variance / count)

    assert Sprt(-5, 15).llr([20, 20, 60]) == pytest.approx(
        log_likelihood(s1) - log_likelihood(s0), rel=1e-5)


def test_sprt_decides() -> None:
    sprt = Sprt(0, 50)
    assert sprt.decide([0, 0, 0]) == "continue"
    assert sprt.llr([0, 0, 0]) == 0
    assert sprt.decide([30, 40, 30]) == "continue"  # LLR -1.70 after 100 even games
    assert sprt.decide([60, 80, 60]) == "H0"  # -3.40 after 200: no sign of +50
    assert sprt.decide([10, 30, 60]) == "H1"
    assert sprt.decide([4, 2, 5]) == "continue"
    # Pairs: 40 pairs of 1.5 points or more out of 50.
    assert sprt.decide([0, 0, 10, 20, 20]) == "H1"
    # Wins alone: the prior keeps the variance from vanishing, so two wins decide nothing,
    # and a run of wins decides in a few games, not at once.
    assert 0 < sprt.llr([0, 0, 2]) < sprt.bounds[1]
    assert sprt.decide([0, 0, 2]) == "continue"
    assert sprt.decide([0, 0, 20]) == "H1"


def test_sprt_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt(5, 0)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0, 5, alpha=0.7)
    with pytest.raises(ValueError, match="3 cells"):
        Sprt(0, 5).llr([1, 2])
    assert parse_sprt("0,10") == Sprt(0, 10)
    assert parse_sprt("-3, 2, 0.1, 0.2") == Sprt(-3, 2, 0.1, 0.2)
    with pytest.raises(ValueError, match="ELO0,ELO1"):
        parse_sprt("0")
    with pytest.raises(ValueError, match="numbers"):
        parse_sprt("a,b")
    with pytest.raises(ValueError, match="finite"):
        parse_sprt("0,inf")
