"""Opponents with a level: 1 (a beginner) to 10 (perfect play), the same on every front-end.

A level below 10 values every legal move with a search (level 1 looks one ply ahead, with the
game's heuristic beyond; levels 2 to 9 search as far as level 10 does), then chooses among
them as a person of that strength might:

* with the level's **mistake rate** it plays a move drawn uniformly at random (a blunder);
* otherwise it draws a move from a **softmax** over the moves' values at the level's
  **temperature**: a low temperature almost always takes the best move, a high one often takes
  a merely good one.

Values are put on one footing first (:func:`appeal`): a proven win is worth about 1, a proven
loss about -1 (a quicker win a little more, a slower loss a little less), a proven draw 0, and
the game's heuristic estimates are ranked from 0 (the best estimate) down to -0.5 (the worst)
by their differences alone, so that the temperature means the same in every game and at every
depth. Level 10 is the search itself, unchanged: perfect play when the search reaches the end
of the game.

The draws are reproducible: with a ``seed``, the random numbers come from the seed, the level
and the position alone, so the same seed plays the same moves in the same positions on either
tier and in any front-end (the command line, the web API, a benchmark). The searches go through
the search service, which picks the tier; both tiers give the same values, so the same moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from .result import MoveValue, SearchResult
from .values import plies_text, plies_to_result

M = TypeVar("M", bound=Hashable)

LOWEST, HIGHEST = 1, 10
"""The levels there are: 1 (weakest) to 10 (perfect play)."""

PERFECT = HIGHEST
"""The level that plays the search's own best move."""

How = Literal["best", "sampled", "blunder"]
"""How a level chose its move: the search's ``best`` move (level 10, or a softmax that held
only one move worth taking), a move ``sampled`` from the softmax, or a random ``blunder``."""


@dataclass(frozen=True)
class Level:
    """What one level does."""

    number: int
    """1 to 10."""

    depth: int | None
    """The plies its search looks ahead (``None``: as far as the caller's search goes)."""

    temperature: float
    """The softmax temperature over the moves' appeal (0: always the best move)."""

    mistake_rate: float
    """The chance of a uniformly random move instead."""

    def describe(self) -> str:
        """The level in a few words: ``level 1: 1 ply deep, temperature 2, 70% random moves``,
        ``level 4: full depth, temperature 0.44, 11.5% random moves``, ``level 10: full
        strength``."""
        if self.number == PERFECT:
            return f"level {self.number}: full strength"
        reach = "full depth" if self.depth is None else \
            f"{plies_text(self.depth)} deep"
        return (f"level {self.number}: {reach}, temperature {self.temperature:g}, "
                f"{self.mistake_rate * 100:g}% random moves")


LEVELS: dict[int, Level] = {
    level.number: level for level in (
        Level(1, 1, 2.0, 0.70),
        Level(2, None, 0.68, 0.21),
        Level(3, None, 0.52, 0.15),
        Level(4, None, 0.44, 0.115),
        Level(5, None, 0.37, 0.085),
        Level(6, None, 0.33, 0.06),
        Level(7, None, 0.29, 0.045),
        Level(8, None, 0.25, 0.03),
        Level(9, None, 0.20, 0.015),
        Level(10, None, 0.0, 0.0),
    )
}
"""Every level: as the level rises the depth never falls, and the temperature and the mistake
rate fall at every step (docs/play.md#levels has the table, benchmarks/bench_levels.py
measures it).

Only level 1 is weakened by depth (one ply: it sees a win by its own move, not the reply). A
search cut by a heuristic is not a stronger player the deeper it goes: at Connect Four 5x4,
with no noise, searches 6 and 10 plies deep scored less against perfect play than searches 3
and 7 plies deep (the centre-weight heuristic leads them into losses decided 15 plies on),
every depth from 1 to 10 scored between 0.13 and 0.23, and a 2-ply search with noise scored
less than level 1. Noise over the values of a search that reaches as far as level 10's is
weaker by a steady amount at each step, in every game; so levels 2 to 9 search as far as level
10 does, and differ in how often, and how badly, they stray from its best move (the
temperatures and rates were set from measured scores, about 0.05 apart against level 10 at
Connect Four 5x4)."""


def level(number: object) -> Level:
    """The level numbered ``number`` (1..10); :class:`ValueError` for anything else."""
    if isinstance(number, bool) or not isinstance(number, int) or number not in LEVELS:
        raise ValueError(f"the level must be a whole number from {LOWEST} to {HIGHEST}, "
                         f"got {number!r}")
    return LEVELS[number]


def appeal(entry: MoveValue[Any], top: float, spread: float) -> float:
    """A move's value on the footing the softmax compares: a proven win about 1 (a win in
    ``p`` plies ``1 - p/200``), a proven loss about -1, a proven draw 0, and an estimate between
    -0.5 and 0 by its place among the moves' estimates: 0 for the best (``top``), -0.5 for the
    worst (``top - spread``), all 0 when they are equal.

    Only the estimates' differences count, never their size or sign: a game's heuristic is no
    probability of winning, and a search cut at an odd depth (the mover's own stone last)
    shifts every estimate alike (Connect Four's by about +4), which must not change the odds.
    """
    plies = plies_to_result(entry.value)
    if plies is not None:
        near = 1 - min(plies, 100) / 200
        return near if entry.value > 0 else -near
    if not _estimated(entry) or spread <= 0:
        return 0.0
    return -0.5 * (top - float(entry.value)) / spread


def _estimated(entry: MoveValue[Any]) -> bool:
    """Whether ``entry``'s value is no win, loss or proven draw: the game's heuristic at the
    search's depth (or, in an explicit tree or a game with chance, a number of its own)."""
    return plies_to_result(entry.value) is None and \
        (entry.depth is not None or entry.value != 0)


def _rng(seed: int | None, number: int, state: object) -> random.Random:
    """The random numbers of one decision: from the seed, the level and the position (a
    ``str`` seed is hashed with SHA-512, the same in every process), else fresh ones."""
    if seed is None:
        return random.Random()
    return random.Random(f"gametree-level|{seed}|{number}|{state!r}")


@dataclass(frozen=True)
class LevelChoice:
    """What a level played, and why."""

    level: Level
    """The level."""

    how: How
    """How the move was chosen."""

    best: Any
    """The search's best move (the move a level 10 would play)."""

    def as_dict(self, move_text: Callable[[Any], str]) -> dict[str, Any]:
        """The choice as JSON (the API's ``level`` object): ``level``, ``how``, ``best``
        (the search's best move, as text), ``depth``, ``temperature``, ``mistake_rate``."""
        return {"level": self.level.number, "how": self.how,
                "best": None if self.best is None else move_text(self.best),
                "depth": self.level.depth, "temperature": self.level.temperature,
                "mistake_rate": self.level.mistake_rate}


def choose(
    state: object,
    number: int,
    search: Callable[..., SearchResult[M]],
    *,
    depth: int | None = None,
    seed: int | None = None,
) -> tuple[SearchResult[M], LevelChoice]:
    """The move level ``number`` plays in ``state``, as a search result whose ``best_move``
    (and first move of ``pv``) is the move played, with the choice beside it.

    ``search(**changes)`` runs the caller's search of ``state`` with the changes given
    (``depth``, ``exact_root``): a :class:`~gametree.service.SearchSession`'s ``search``
    bound to the state, or the service's ``search``. ``depth`` is the caller's own depth
    limit, if any (the level looks no deeper). ``seed`` makes the draws reproducible.
    """
    chosen = level(number)
    if chosen.number == PERFECT:
        result = search()
        return result, LevelChoice(chosen, "best", result.best_move)
    plies = depth if chosen.depth is None else \
        chosen.depth if depth is None else min(chosen.depth, depth)
    result = search(depth=plies, exact_root=True)
    entries = result.moves
    if not entries or result.best_move is None:
        return result, LevelChoice(chosen, "best", result.best_move)
    best = result.best_move
    move, how = pick(chosen, entries, best, state, seed)
    return _played(result, move), LevelChoice(chosen, how, best)


def pick(chosen: Level, entries: Sequence[MoveValue[M]], best: M, state: object,
         seed: int | None) -> tuple[M, How]:
    """The move level ``chosen`` plays among the root moves ``entries`` (each with its value
    from a search with every root move's value exact), ``best`` being the search's best move,
    and how it chose: the second half of :func:`choose`, for a caller that searched by
    itself (the UCI engine, whose search reports per iteration)."""
    rng = _rng(seed, chosen.number, state)
    if rng.random() < chosen.mistake_rate:
        return rng.choice([entry.move for entry in entries]), "blunder"
    move = _softmax(entries, chosen.temperature, rng, best)
    return move, "best" if move == best else "sampled"


def _softmax(entries: Sequence[MoveValue[M]], temperature: float, rng: random.Random,
             best: M) -> M:
    """A move drawn with weights ``exp(appeal / temperature)`` (the best move when the
    temperature is 0)."""
    if temperature <= 0:
        return best
    estimates = [float(entry.value) for entry in entries if _estimated(entry)]
    top = max(estimates, default=0.0)
    spread = top - min(estimates, default=0.0)
    appeals = [appeal(entry, top, spread) for entry in entries]
    highest = max(appeals)
    weights = [math.exp((value - highest) / temperature) for value in appeals]
    return rng.choices([entry.move for entry in entries], weights=weights)[0]


def _played(result: SearchResult[M], move: M) -> SearchResult[M]:
    """``result`` with ``move`` as the move played: the principal variation kept when it is
    the best move, else just the move."""
    if move == result.best_move:
        return result
    return replace(result, best_move=move, pv=(move,))


__all__ = ["HIGHEST", "LEVELS", "LOWEST", "PERFECT", "Level", "LevelChoice", "appeal",
           "choose", "level", "pick"]
