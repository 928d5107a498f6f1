"""Pig: a dice game of two players, the classic game of chance for expectiminimax.

On your turn you roll a die as often as you like. Each roll adds its face to your turn total,
but a 1 loses the turn total and ends your turn. Hold, and your turn total is added to your
score and the turn passes. Whoever first reaches the goal wins.

The options and the rules are OpenSpiel's ``pig`` (``open_spiel/games/pig``), so that the two
can be compared value for value:

* ``winscore`` (default 100): the goal; the game ends when a player *holds* with a score of at
  least this much;
* ``diceoutcomes`` (default 6): the die's faces, 1 .. ``diceoutcomes``;
* ``horizon`` (default 1000): the game ends, drawn, after this many moves of the players
  (rolls of the die do not count), even in the middle of a roll.

The winner gets +1 and the loser -1; a game stopped by the horizon is worth 0 to both. The
value of a position is the expected utility, on that scale, for the player whose turn it is
(at a chance state too: the player rolling).

Moves are ``roll`` and ``hold`` (``stop``, OpenSpiel's word, is read too). A roll of the die
is a chance move written as its face, ``1`` .. ``6``: ``--moves "roll 4 roll 1"`` rolls a 4,
rolls again and throws a 1, which ends the turn.

A state is a :class:`PigState`: the two scores, the turn total, whose turn it is, whether the
die is in the air, and the players' moves made so far (for the horizon).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

from ..game import CHANCE, Game, IllegalMoveError
from ..numbers import whole_number
from ..registry import GameOption, GameSpec
from ..values import Value
from ..view import Grid, MoveSpot, View

ROLL = 0
"""The move that rolls the die (OpenSpiel's action 0)."""

HOLD = 1
"""The move that banks the turn total and passes the turn (OpenSpiel's ``stop``, action 1)."""

MAX_WINSCORE = 1000
"""The largest goal accepted."""

MAX_FACES = 20
"""The most faces of a die accepted."""


class PigState(NamedTuple):
    """A position of Pig."""

    scores: tuple[int, int]
    """The banked scores of players 0 and 1."""

    total: int
    """The turn total: what the player whose turn it is has rolled this turn."""

    player: int
    """Whose turn it is (0 or 1)."""

    rolling: bool
    """True while the die is in the air: chance moves next."""

    moves: int
    """The moves (rolls and holds) the players have made so far; the game ends at the
    horizon."""


class Pig(Game[PigState, int]):
    """Pig with OpenSpiel's options (see the module's documentation).

    Moves: :data:`ROLL`, :data:`HOLD`, and at a chance state the die's face (``1`` .. ``6``):
    the state tells the two kinds apart (the die is in the air or not).
    """

    name = "pig"
    has_chance = True

    def __init__(self, winscore: int = 100, diceoutcomes: int = 6, horizon: int = 1000) -> None:
        for label, value, low, high in (("winscore", winscore, 1, MAX_WINSCORE),
                                        ("diceoutcomes", diceoutcomes, 2, MAX_FACES),
                                        ("horizon", horizon, 1, 100_000)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{label} must be a whole number within {low}..{high}, "
                                 f"got {value!r}")
        self.winscore = winscore
        self.diceoutcomes = diceoutcomes
        self.horizon = horizon
        self._odds = Fraction(1, diceoutcomes)

    # -- the Game contract -------------------------------------------------------------------

    def initial_state(self) -> PigState:
        """No points, player 0 to move."""
        return PigState((0, 0), 0, 0, False, 0)

    def to_move(self, state: PigState) -> int:
        """The player whose turn it is, or :data:`~gametree.CHANCE` while the die rolls (in a
        game not yet over: the horizon may stop it in mid-roll)."""
        return CHANCE if state.rolling and self.outcome(state) is None else state.player

    def turn(self, state: PigState) -> int:
        """Whose turn it is, also while the die rolls."""
        return state.player

    def moves(self, state: PigState) -> tuple[int, ...]:
        """Roll or hold; while the die rolls, its faces 1 .. ``diceoutcomes``."""
        if self.outcome(state) is not None:
            return ()
        if state.rolling:
            return tuple(range(1, self.diceoutcomes + 1))
        return (ROLL, HOLD)

    def chance_outcomes(self, state: PigState) -> list[tuple[int, Fraction]]:
        """Every face of the die, each as likely as the others."""
        return [(face, self._odds) for face in range(1, self.diceoutcomes + 1)]

    def play(self, state: PigState, move: int) -> PigState:
        """Roll (the die is in the air), hold (bank and pass), or a face of the die."""
        scores, total, player, rolling, moves = state
        if rolling:
            if move == 1:  # a 1 loses the turn total and the turn
                return PigState(scores, 0, 1 - player, False, moves)
            return PigState(scores, total + move, player, False, moves)
        if move == ROLL:
            return PigState(scores, total, player, True, moves + 1)
        banked = (scores[0] + total, scores[1]) if player == 0 else \
            (scores[0], scores[1] + total)
        return PigState(banked, 0, 1 - player, False, moves + 1)

    def outcome(self, state: PigState) -> Value | None:
        """+1 when player 0 has banked the goal, -1 when player 1 has, 0 at the horizon."""
        if state.scores[0] >= self.winscore:
            return 1
        if state.scores[1] >= self.winscore:
            return -1
        if state.moves >= self.horizon:
            return 0
        return None

    def value_bounds(self) -> tuple[Value, Value]:
        """Every value lies within -1 .. 1."""
        return (-1, 1)

    def evaluate(self, state: PigState) -> Value:
        """A guess at player 0's expected utility: the lead (turn total included) as a share
        of the goal, kept within -0.9 .. 0.9 (a guess is never a certain result)."""
        points = [state.scores[0], state.scores[1]]
        points[state.player] += state.total
        lead = (points[0] - points[1]) / self.winscore
        return max(-0.9, min(0.9, lead))

    def key(self, state: PigState) -> PigState:
        """The state itself (the moves made count, for the horizon)."""
        return state

    def format_move(self, state: PigState, move: int) -> str:
        """``roll``, ``hold``, or while the die rolls its face (``4``)."""
        if state.rolling:
            return str(move)
        return "roll" if move == ROLL else "hold"

    def parse_move(self, state: PigState, text: str) -> int:
        """``roll`` or ``hold`` (also ``stop``, ``r``, ``h``); while the die rolls, a face."""
        word = text.strip().lower()
        if self.outcome(state) is not None:
            raise IllegalMoveError("the game is over: there is no move to play")
        if state.rolling:
            if word.isdigit() and 1 <= int(word) <= self.diceoutcomes:
                return int(word)
            raise IllegalMoveError(f"{text.strip()!r}: the die is rolling; give its face, "
                                   f"1 to {self.diceoutcomes}")
        if word in ("roll", "r"):
            return ROLL
        if word in ("hold", "stop", "h", "s"):
            return HOLD
        raise IllegalMoveError(f"{text.strip()!r} is not a move; moves: roll, hold")

    def render(self, state: PigState) -> str:
        """The scores, the turn total and who is to do what."""
        names = self.player_names
        lines = [f"{names[0]}: {state.scores[0]}   {names[1]}: {state.scores[1]}   "
                 f"(first to {self.winscore})"]
        result = self.outcome(state)
        if result is not None:
            lines.append("drawn at the horizon" if result == 0 else
                         f"{names[0 if result > 0 else 1]} wins")
        elif state.rolling:
            lines.append(f"{names[state.player]} rolls the die (turn total {state.total})")
        else:
            lines.append(f"{names[state.player]} to move: turn total {state.total}, "
                         f"roll or hold")
        return "\n".join(lines)

    def view(self, state: PigState, last: int | None = None) -> View:
        """A grid of the two players' scores and turn totals; roll (key ``r``) and hold
        (``h``) in the move list, and while the die rolls its faces (keys ``1`` ..)."""
        cells = tuple(
            (str(state.scores[player]),
             str(state.total) if player == state.player and self.outcome(state) is None else "")
            for player in (0, 1))
        # Short row labels: a page draws them in a narrow margin.
        grid = Grid(cells, pieces=("", ""), row_labels=("1st", "2nd"),
                    column_labels=("score", "this turn"))
        if state.rolling:
            moves = tuple(MoveSpot(str(face), label=f"the die shows {face}",
                                   key=str(face) if face < 10 else None)
                          for face in self.moves(state))
        else:
            moves = tuple(MoveSpot(text, label=label, key=text[0]) for move in self.moves(state)
                          for text, label in [(self.format_move(state, move),
                                               "roll the die" if move == ROLL else
                                               "bank the turn total and pass")])
        return View(kind="grid", text=self.render(state), moves=moves, grid=grid,
                    caption=self.render(state).splitlines()[-1])


def build(winscore: int = 100, diceoutcomes: int = 6, horizon: int = 1000) -> Pig:
    """Pig with these options (OpenSpiel's names and defaults)."""
    return Pig(winscore, diceoutcomes, horizon)


def _within(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = whole_number(text)
        if not low <= value <= high:
            raise ValueError(f"expected a whole number within {low}..{high}, got {text!r}")
        return value

    return parse


SPEC = GameSpec(
    name="pig",
    summary="Pig, the dice game: roll to add to your turn total (a 1 loses it) or hold to "
            "bank it; first to the goal wins (OpenSpiel's pig)",
    notation="roll, hold; a roll of the die is its face, 1 .. diceoutcomes",
    build=build,
    options=(
        GameOption("winscore", "the goal: the first to bank this many points wins",
                   _within(1, MAX_WINSCORE), 100, metavar="N"),
        GameOption("diceoutcomes", "the die's faces, 1 .. N", _within(2, MAX_FACES), 6,
                   metavar="N"),
        GameOption("horizon", "the game ends drawn after this many moves of the players "
                   "(rolls of the die do not count)", _within(1, 100_000), 1000, metavar="N"),
    ),
)
