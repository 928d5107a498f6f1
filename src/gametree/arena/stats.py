"""The statistics of a match: Elo differences from scores, their 95% intervals, and the SPRT.

Everything here is the logistic Elo model: a player rated ``d`` Elo above another is expected
to score ``1 / (1 + 10 ** (-d / 400))`` per game (a win 1, a draw 1/2, a loss 0), and a score
``s`` means ``d = -400 log10(1/s - 1)``.

Two models of the games give the interval (a normal approximation of the mean score, turned
into Elo at both ends):

* **trinomial**: every game an independent draw of win, draw or loss;
* **pentanomial**: every *pair* of games on one opening with colours swapped an independent
  draw of a pair score 0, 1/2, 1, 3/2 or 2. A pair shares its opening, so its two games are
  not independent (an opening good for the first player gives each side one win); counting
  pairs measures the variance honestly, usually narrower than the trinomial's.

The **SPRT** (sequential probability ratio test) decides between two hypotheses, the Elo
difference is ``elo0`` (H0) or ``elo1`` (H1), with error rates ``alpha`` (accepting H1 when H0
holds) and ``beta`` (the reverse). After each game (or pair) the log-likelihood ratio of the
results is compared with Wald's bounds ``log(beta / (1 - alpha))`` (accept H0 at or below) and
``log((1 - beta) / alpha)`` (accept H1 at or above). The ratio is the generalised SPRT's normal
approximation, as fishtest computes it for the logistic model: with ``N`` observations of mean
``m`` and variance ``v``, and ``s0``, ``s1`` the scores expected under the two hypotheses,

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

(the log of the ratio of two normal likelihoods of the mean, one centred on ``s1``, one on
``s0``, with the observed variance). The variance is taken with :data:`PRIOR` results added to
every cell: fishtest gives empty cells a count of 0.001, which is harmless over the thousands
of close games it runs, but between engines of very different strength (a match's usual
case) a few wins and nothing else would have almost no variance and decide after two games.
Half a result in each cell keeps the first decisions honest and fades as the games add up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

PRIOR = 0.5
"""Results added to every cell for the SPRT's variance (not its mean): without them, a series
of wins alone would have no variance and an infinite ratio after two games."""

Model = Literal["trinomial", "pentanomial"]
"""Which observations the interval counts: single games or pairs of games."""

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
"""The score of a game lost, drawn, won."""

PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The score per game of a pair scoring 0, 1/2, 1, 3/2, 2 points."""


def expected_score(elo: float) -> float:
    """The score per game expected ``elo`` Elo above the opponent (0.5 at 0, about 0.64 at
    100, 0.75 at 400 log10(3) = 190.8)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_difference(score: float) -> float:
    """The Elo difference a score per game means (``inf`` at 1, ``-inf`` at 0)."""
    if not 0 <= score <= 1:
        raise ValueError(f"a score per game lies within 0..1, got {score!r}")
    if score == 1:
        return math.inf
    if score == 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no negative zero at 0.5


@dataclass(frozen=True)
class Estimate:
    """An Elo difference with its 95% confidence interval."""

    score: float
    """The mean score per game (0..1)."""

    elo: float
    """The Elo difference that score means (``±inf`` at 1 or 0)."""

    low: float
    """The interval's lower end (Elo; ``-inf`` when it reaches a score of 0)."""

    high: float
    """The interval's upper end (Elo; ``inf`` when it reaches a score of 1)."""

    model: Model
    """Which observations were counted: games (trinomial) or pairs (pentanomial)."""

    observations: int
    """How many: games, or pairs of games."""

    @property
    def margin(self) -> float:
        """Half the interval's width in Elo (``inf`` if an end is infinite)."""
        return (self.high - self.low) / 2

    def text(self) -> str:
        """``+120 [+75, +168] Elo`` (rounded to whole Elo)."""
        return f"{_signed(self.elo)} [{_signed(self.low)}, {_signed(self.high)}] Elo"


def _signed(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


def _moments(counts: Sequence[float], scores: Sequence[float]) -> tuple[float, float, float]:
    """(number of observations, mean, variance) of ``counts[i]`` observations of
    ``scores[i]`` (the variance of the distribution, divided by N, as fishtest's)."""
    total = float(sum(counts))
    if total <= 0:
        raise ValueError("no results to count")
    mean = sum(count * score for count, score in zip(counts, scores, strict=True)) / total
    variance = sum(count * (score - mean) ** 2
                   for count, score in zip(counts, scores, strict=True)) / total
    return total, mean, variance


def _estimate(counts: Sequence[int], scores: Sequence[float], model: Model) -> Estimate:
    total, mean, variance = _moments(counts, scores)
    half = Z95 * math.sqrt(variance / total)
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return Estimate(mean, elo_difference(mean), elo_difference(low), elo_difference(high),
                    model, int(total))


def trinomial(wins: int, draws: int, losses: int) -> Estimate:
    """The Elo difference of a player who won, drew and lost so many games, every game
    counted as independent."""
    return _estimate((losses, draws, wins), TRINOMIAL_SCORES, "trinomial")


def pentanomial(pairs: Sequence[int]) -> Estimate:
    """The Elo difference of a player whose pairs of games (one opening, colours swapped)
    scored 0, 1/2, 1, 3/2 and 2 points ``pairs[0..4]`` times."""
    if len(pairs) != 5:
        raise ValueError(f"a pentanomial count has 5 cells (pairs scoring 0 to 2), got "
                         f"{len(pairs)}")
    return _estimate(pairs, PENTANOMIAL_SCORES, "pentanomial")


Decision = Literal["H0", "H1", "continue"]
"""What an SPRT concludes: the difference is ``elo0`` (H0), ``elo1`` (H1), or play on."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between ``elo0`` and ``elo1``."""

    elo0: float
    """The Elo difference of H0 (the change is no better than this)."""

    elo1: float
    """The Elo difference of H1 (the change is at least this much better)."""

    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""

    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, got elo0={self.elo0:g}, "
                             f"elo1={self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"the SPRT's {name} is an error rate between 0 and 0.5, "
                                 f"got {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the log-likelihood ratio: (accept H0 at or below, accept H1 at
        or above); ±2.94 for alpha = beta = 0.05."""
        return (math.log(self.beta / (1 - self.alpha)),
                math.log((1 - self.beta) / self.alpha))

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 against H0 for the results ``counts``: three cells
        (games lost, drawn, won) or five (pairs scoring 0, 1/2, 1, 3/2, 2)."""
        if len(counts) == 3:
            scores: Sequence[float] = TRINOMIAL_SCORES
        elif len(counts) == 5:
            scores = PENTANOMIAL_SCORES
        else:
            raise ValueError(f"the SPRT counts 3 cells (games) or 5 (pairs), got {len(counts)}")
        if sum(counts) == 0:
            return 0.0
        total = float(sum(counts))
        _, mean, _ = _moments(counts, scores)
        _, _, variance = _moments([count + PRIOR for count in counts], scores)
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decide(self, counts: Sequence[int]) -> Decision:
        """H0, H1, or ``continue`` for the results ``counts`` (as :meth:`llr` takes them)."""
        lower, upper = self.bounds
        ratio = self.llr(counts)
        if ratio <= lower:
            return "H0"
        if ratio >= upper:
            return "H1"
        return "continue"

    def text(self) -> str:
        """``elo0=0 elo1=10 alpha=0.05 beta=0.05``."""
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"


def parse_sprt(text: str) -> Sprt:
    """An SPRT from ``ELO0,ELO1`` or ``ELO0,ELO1,ALPHA,BETA`` (``0,10`` or
    ``0,10,0.05,0.05``); :class:`ValueError` naming the mistake."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (2, 4):
        raise ValueError(f"the SPRT is ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, got {text!r}")
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise ValueError(f"the SPRT's values are numbers: ELO0,ELO1[,ALPHA,BETA], got "
                         f"{text!r}") from None
    if not all(math.isfinite(number) for number in numbers):
        raise ValueError(f"the SPRT's values are finite numbers, got {text!r}")
    return Sprt(*numbers)


__all__ = ["PRIOR", "Z95", "Decision", "Estimate", "Model", "Sprt", "elo_difference",
           "expected_score", "parse_sprt", "pentanomial", "trinomial"]
