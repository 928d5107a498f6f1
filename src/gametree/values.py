"""The scale of search values: proven wins and losses, draws, and heuristic estimates.

Every search in gametree returns numbers on one scale, so that a value can be read without
knowing which algorithm produced it:

* With **distance scoring** (the default), a proven win reached ``p`` plies from the root is worth
  ``WIN - p`` and a proven loss ``-(WIN - p)``: a quick win beats a slow one and a late loss beats
  an early one (seed 003's "+10 - depth", with a base large enough that no heuristic reaches it).
  A draw is worth 0. Heuristic estimates must stay within ``±HEURISTIC_LIMIT``, far below the
  smallest proven value, so an estimate can never be mistaken for a proven result.
* With distance scoring **off** ("plain" values), a finished game is worth exactly the utility
  the game reports (tic-tac-toe's 10, Bones' 1), as the seed programs print it.

Values are always seen from one side: MAX (the player to move at the root) in the MAX/MIN
reference algorithms, the side to move in negamax. The sign flip lives in :func:`for_player`;
a position's value seen from the position above it in :func:`seen_from_parent`.

This module is the one vocabulary of values for every part of gametree: the scale, the
conversions between outcomes, signs and values, the words a value is read in
(:func:`read_value`: its kind and its words) and the seeded choice among equally good moves
(:func:`break_tie`). Both search tiers, the databases and every front-end use these; none keeps
a copy.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, TypeVar

Value = float
"""A search value (an ``int`` is accepted wherever a ``Value`` is expected)."""

Expected = float | Fraction
"""An expected utility in a game with chance: a :class:`fractions.Fraction` where the
probabilities and utilities are exact, else a ``float`` (see :func:`expected_text`)."""

Outcome = Literal["win", "draw", "loss"]
"""A proven game result, seen from the player to move."""

ValueKind = Literal["win", "loss", "draw", "estimate", "score", "expected"]
"""What a value is, as its words say: a proven ``win``, ``loss`` or ``draw``; an ``estimate``
(a depth limit cut the search, so heuristic guesses entered it); a ``score``, a number that
is exact but not a game result in the win/loss sense (an explicit tree's numeric leaves, searched
to the end); or, in a game with chance, an ``expected`` utility searched to the end."""

Bound = Literal["exact", "lower", "upper"]
"""How a value relates to the true one: ``exact``, or a ``lower`` or ``upper`` bound on it."""

T = TypeVar("T")
Number = TypeVar("Number", int, float)

WIN: int = 1_000_000
"""The value of a win at ply 0 under distance scoring; a win at ply ``p`` is ``WIN - p``."""

MAX_PLY: int = 100_000
"""The longest distance to a result that distance scoring can express."""

PROVEN: int = WIN - MAX_PLY
"""Values at or beyond ``±PROVEN`` are proven wins or losses under distance scoring."""

HEURISTIC_LIMIT: int = 500_000
"""Heuristic evaluations must lie within ``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``."""


def scale_json() -> dict[str, int]:
    """The scale's constants as a JSON-ready dict, for front-ends that must know them (a page
    colouring values by distance): ``win``, ``max_ply``, ``proven``, ``heuristic_limit``."""
    return {"win": WIN, "max_ply": MAX_PLY, "proven": PROVEN, "heuristic_limit": HEURISTIC_LIMIT}


def for_player(utility: Value, player: int) -> Value:
    """Convert a value seen from the first player (player 0) into one seen from ``player``."""
    return utility if player == 0 else -utility


def terminal_value(utility: Value, ply: int, *, by_distance: bool) -> Value:
    """The search value of a finished game.

    ``utility`` is the game's result seen from the side the search maximises (positive: that
    side won, negative: it lost, zero: a draw); ``ply`` is the distance from the root.
    """
    if not by_distance:
        return utility
    if utility > 0:
        return WIN - ply
    if utility < 0:
        return -(WIN - ply)
    return 0


def checked_heuristic(estimate: Value) -> Value:
    """Return ``estimate`` if it is a usable heuristic value, else raise :class:`ValueError`.

    An estimate outside ``±HEURISTIC_LIMIT`` could be confused with a proven result, and a NaN
    would make every comparison false; both are rejected rather than silently clamped.
    """
    if isinstance(estimate, bool) or not isinstance(estimate, (int, float)):
        raise ValueError(f"evaluate() must return a number, got {estimate!r}")
    if math.isnan(estimate) or abs(estimate) > HEURISTIC_LIMIT:
        raise ValueError(
            f"evaluate() returned {estimate!r}; heuristic values must be finite numbers within "
            f"±{HEURISTIC_LIMIT} so that they cannot be mistaken for a proven win or loss"
        )
    return estimate


def is_proven_win(value: Value) -> bool:
    """True if ``value`` (under distance scoring) is a proven win for the side it is seen from."""
    return value >= PROVEN


def is_proven_loss(value: Value) -> bool:
    """True if ``value`` (under distance scoring) is a proven loss for the side it is seen from."""
    return value <= -PROVEN


def plies_to_result(value: Value) -> int | None:
    """The distance in plies encoded in a proven win or loss value, else ``None``."""
    if is_proven_win(value):
        return int(WIN - value)
    if is_proven_loss(value):
        return int(WIN + value)
    return None


def mate_in(value: Value) -> int | None:
    """A proven win or loss (distance scoring) as a mate in moves, signed as UCI's ``score
    mate N`` is: ``N > 0`` when the side the value is seen from mates in ``N`` of its own
    moves (a win in ``2N - 1`` plies), ``-N`` when it is mated after ``N`` moves of the other
    side (a loss in ``2N`` plies); ``None`` for any other value."""
    plies = plies_to_result(value)
    if plies is None:
        return None
    return (plies + 1) // 2 if value > 0 else -(plies // 2)


def mate_text(mate: int) -> str:
    """A mate in words: ``mate in 3`` (the side to move mates), ``mated in 2`` (it is mated),
    ``mated`` (it is mated already: 0)."""
    if mate > 0:
        return f"mate in {mate}"
    return f"mated in {-mate}" if mate < 0 else "mated"


def classify(
    value: Value, *, by_distance: bool, exhaustive: bool
) -> tuple[Outcome | None, int | None]:
    """The proven outcome of a root value and its distance in plies, when they are known.

    ``exhaustive`` says that no heuristic estimate entered the search, so every value in it is
    a game result: only then can a value of 0 be called a proven draw, and only then do plain
    (not distance-scored) values prove anything at all.
    """
    if by_distance:
        plies = plies_to_result(value)
        if plies is not None:
            return ("win" if value > 0 else "loss"), plies
        if exhaustive and value == 0:
            return "draw", None
        return None, None
    if not exhaustive:
        return None, None
    if value > 0:
        return "win", None
    if value < 0:
        return "loss", None
    return "draw", None


def sign(value: Value) -> int:
    """``1``, ``0`` or ``-1``: the sign of a value or of a game's utility."""
    return 1 if value > 0 else -1 if value < 0 else 0


def outcome_of(value: Value) -> Outcome:
    """The result a value's sign stands for: ``win`` (positive), ``draw`` (0) or ``loss``."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def sign_of(outcome: Outcome) -> int:
    """``1`` for a win, ``0`` for a draw, ``-1`` for a loss."""
    return 1 if outcome == "win" else -1 if outcome == "loss" else 0


def proven_value(result: int, plies: int | None) -> int:
    """The distance-scored value of a proven result: ``result`` is ``1`` (a win in ``plies``),
    ``0`` (a draw: ``plies`` is ignored) or ``-1`` (a loss in ``plies``)."""
    if result == 0:
        return 0
    if plies is None:
        raise ValueError("a proven win or loss needs its distance in plies")
    return WIN - plies if result > 0 else -(WIN - plies)


def proven_result(value: int) -> tuple[int, int | None]:
    """A solved position's value as ``(result, plies)``: ``(1, p)`` for a win in ``p`` plies,
    ``(-1, p)`` for a loss, ``(0, None)`` for a draw (every value that is no proven win or
    loss: a solved position's other values are draws)."""
    plies = plies_to_result(value)
    if plies is None:
        return 0, None
    return (1 if value > 0 else -1), plies


def seen_from_parent(value: Number, *, same_mover: bool = False) -> Number:
    """The value of a position seen by the player to move one ply above it.

    A proven win or loss lies one ply further away from there (a win in ``p`` becomes one in
    ``p + 1``); heuristic values and draws do not move. The value is negated unless
    ``same_mover`` (the same player moves in both positions, as in games with extra turns).
    """
    if value >= PROVEN:
        further = value - 1
    elif value <= -PROVEN:
        further = value + 1
    else:
        further = value
    return further if same_mover else -further


def break_tie(tied: Sequence[T], seed: int | None) -> T:
    """One of equally good moves (``tied``, in the game's move order, not empty): the first
    without a ``seed``, else one drawn from the seed.

    Every tier, algorithm and database draws with this, so that the same seed and the same tied
    moves give the same move wherever the answer comes from.
    """
    return tied[0] if seed is None else random.Random(seed).choice(tied)


def exact_text(value: Expected) -> str:
    """A value as a plain number, a fraction written as a decimal where it has a short one:
    ``21/10`` is ``2.1``, ``1/3`` stays ``1/3``; floats and ints as :func:`number_text`."""
    if not isinstance(value, Fraction):
        return number_text(value)
    if value.denominator == 1:
        return str(value.numerator)
    for digits in range(1, 7):
        scaled = value * 10**digits
        if scaled.denominator == 1:
            return f"{float(value):.{digits}f}"
    return str(value)


def expected_text(value: Expected) -> str:
    """An expected utility in words for people: ``expected 0.594`` (three decimals at most;
    the exact fraction is given beside it where one exists, see :func:`fraction_text`)."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return f"expected {'0' if text == '-0' else text}"


def read_expected(value: Expected, *,
                  line_result: tuple[Outcome | None, int | None] = (None, None),
                  complete: bool = True, bound: Bound = "exact",
                  units: bool = False) -> tuple[ValueKind, str]:
    """An expected utility's kind and words (a game with chance): ``expected 0.594``, or
    ``estimate 0.05`` where a depth limit cut the search; a bound ``at most expected ...``.

    "Win in N" is said only for a chance-free line: ``line_result`` is the outcome and length
    of the line found, when it reaches the end of the game with no chance move on it
    (:func:`gametree.game.chance_line_result`); then the value is that line's result, not an
    average over dice."""
    outcome, plies = line_result
    if outcome is not None:
        if outcome == "draw" or plies is None:
            return outcome, outcome
        return outcome, f"{outcome} in {plies_text(plies) if units else plies}"
    relation = _RELATION[bound]
    words = expected_text(value)
    if not complete:
        return "estimate", f"estimate {relation}{words.split()[1]}"
    return "expected", relation + words


def win_probability(value: Value, bounds: tuple[Value, Value] | None) -> float | None:
    """The chance of winning that an expected utility stands for, in a game whose results are
    a win (the greatest value, ``bounds[1]``) and a loss (the least): ``(value - low) / (high
    - low)``. Only for the scale -1 .. 1 with 0 a draw (OpenSpiel's, Pig's); ``None`` for any
    other scale. Where draws are possible it reads a draw as half a win."""
    if bounds is None or (bounds[0], bounds[1]) != (-1, 1):
        return None
    return min(1.0, max(0.0, (float(value) + 1) / 2))


def exact_fraction(value: Expected) -> Fraction | None:
    """``value`` as a :class:`~fractions.Fraction` where it is exact (a fraction or a whole
    number), ``None`` for a float."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    return None


def fraction_text(value: Expected | None) -> str | None:
    """The exact text of a :class:`~fractions.Fraction` value (``"21/10"``), else ``None``:
    what JSON gives beside a float value where the value is exact."""
    return str(value) if isinstance(value, Fraction) else None


def number_text(value: Value) -> str:
    """A value as a plain number: ``12``, ``-3``, ``2.5`` (whole floats without ``.0``)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def value_kind(value: Value, *, by_distance: bool = True, exhaustive: bool = False,
               complete: bool = False) -> ValueKind:
    """What ``value`` is: the outcome :func:`classify` proves, else ``score`` when ``complete``
    (no line was cut by a depth limit, so the number is exact), else ``estimate``.

    ``exhaustive``: no heuristic estimate entered the search (see :func:`classify`).
    """
    return read_value(value, by_distance=by_distance, exhaustive=exhaustive,
                      complete=complete)[0]


def value_words(value: Value, *, by_distance: bool = True, exhaustive: bool = False,
                complete: bool = False, weak: bool = False, bound: Bound = "exact",
                units: bool = False) -> str:
    """A value in words, the same everywhere gametree shows one (see :func:`read_value`)."""
    return read_value(value, by_distance=by_distance, exhaustive=exhaustive, complete=complete,
                      weak=weak, bound=bound, units=units)[1]


def read_value(value: Value, *, by_distance: bool = True, exhaustive: bool = False,
               complete: bool = False, weak: bool = False, bound: Bound = "exact",
               units: bool = False) -> tuple[ValueKind, str]:
    """A value's kind (:func:`value_kind`) and its words, the same everywhere gametree shows
    one.

    By the kind: a proven result under distance scoring is ``win in 3`` or ``loss in 4``; a
    proven result without it ``win (10)``/``loss (-10)``, or ``win``/``loss`` for a ``weak``
    solve (whose 1 and -1 are only signs); a proven draw ``draw``; an ``estimate`` ``estimate
    +7``; a ``score`` the number, ``12``. A bound reads ``at most ...`` (``upper``) or ``at
    least ...`` (``lower``), an estimate's ``estimate at most -4``; its kind is that of the
    bound itself. ``units`` spells the distance out: ``win in 3 plies``.
    """
    outcome, plies = classify(value, by_distance=by_distance, exhaustive=exhaustive)
    relation = _RELATION[bound]
    if outcome is None:
        if complete:
            return "score", relation + number_text(value)
        # The kind first: "estimate at most -4", not "at most estimate -4".
        return "estimate", f"estimate {relation}{'+' if value > 0 else ''}{number_text(value)}"
    if outcome == "draw":
        text = "draw"
    elif plies is not None:
        text = f"{outcome} in {plies_text(plies) if units else plies}"
    elif weak:
        text = outcome
    else:
        text = f"{outcome} ({number_text(value)})"
    return outcome, relation + text


_RELATION: dict[Bound, str] = {"exact": "", "upper": "at most ", "lower": "at least "}
"""How a bound is said, before the value it bounds."""


def plies_text(count: int) -> str:
    """``1 ply``, ``3 plies`` (a ply is one player's move)."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def format_value(value: Value, *, by_distance: bool = True) -> str:
    """A value read without knowing how the search found it, for logs and messages: ``win in
    3`` or ``loss in 4`` when it is a proven distance, else the number itself."""
    return value_words(value, by_distance=by_distance, complete=True)


def format_bound(value: Value, *, by_distance: bool = False) -> str:
    """A window bound for logs: ``-inf``/``+inf`` for the open ends, else the value (read as a
    distance when ``by_distance``, as :func:`format_value` does)."""
    if value == math.inf:
        return "+inf"
    if value == -math.inf:
        return "-inf"
    return format_value(value, by_distance=by_distance)
