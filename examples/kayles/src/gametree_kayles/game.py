"""Kayles: a row of pins; a move knocks down one pin or two neighbouring pins; the player who
cannot move loses.

A state is ``(standing, player to move)``: bit ``i`` of ``standing`` is pin ``i + 1``. A move
is an integer, ``2 * pin + (count - 1)`` (``pin`` from 0, ``count`` 1 or 2), the same integers
the kernel uses, so the compiled form needs no move translation. People write a move as the
pin (``3``) or the two pins (``3-4``), numbered from 1.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from gametree import Game, IllegalMoveError
from gametree.registry import GameOption, GameSpec
from gametree.view import Grid, Mark, MoveSpot, View

if TYPE_CHECKING:
    from gametree.compiled.form import CompiledForm

State = tuple[int, int]
"""``(standing pins as bits, player to move)``."""

DEFAULT_PINS = 7
"""Pins in the row unless told otherwise."""

MAX_PINS = 30
"""The longest row: the kernel keeps the pins in the bits of one integer."""


def mirrored(standing: int, pins: int) -> int:
    """The row read from the other end."""
    result = 0
    for pin in range(pins):
        if standing >> pin & 1:
            result |= 1 << (pins - 1 - pin)
    return result


class Kayles(Game[State, int]):
    """Kayles on a row of ``pins`` pins."""

    name = "kayles"
    notation = "a pin (3) or two neighbouring pins (3-4), numbered from 1"

    def __init__(self, pins: int = DEFAULT_PINS) -> None:
        if not 1 <= pins <= MAX_PINS:
            raise ValueError(f"pins must be from 1 to {MAX_PINS}, got {pins}")
        self.pins = pins

    def initial_state(self) -> State:
        """Every pin standing, the first player to move."""
        return ((1 << self.pins) - 1, 0)

    def to_move(self, state: State) -> int:
        """The player to move."""
        return state[1]

    def moves(self, state: State) -> list[int]:
        """Every standing pin, then every standing pair of neighbours, from the left."""
        standing = state[0]
        ones = [2 * pin for pin in range(self.pins) if standing >> pin & 1]
        twos = [2 * pin + 1 for pin in range(self.pins - 1) if standing >> pin & 3 == 3]
        return ones + twos

    def play(self, state: State, move: int) -> State:
        """Knock the move's pins down."""
        pin, count = move // 2, move % 2 + 1
        return (state[0] & ~(((1 << count) - 1) << pin), 1 - state[1])

    def outcome(self, state: State) -> int | None:
        """No pin standing: the player to move cannot move and has lost."""
        if state[0]:
            return None
        return -1 if state[1] == 0 else 1

    def key(self, state: State) -> Hashable:
        """A row and its mirror image are one position (the transposition table meets it
        once)."""
        return (min(state[0], mirrored(state[0], self.pins)), state[1])

    def format_move(self, state: State, move: int) -> str:
        """``3`` or ``3-4``."""
        pin = move // 2 + 1
        return str(pin) if move % 2 == 0 else f"{pin}-{pin + 1}"

    def parse_move(self, state: State, text: str) -> int:
        """A pin ``3`` or a pair ``3-4``, numbered from 1."""
        first, dash, second = text.strip().partition("-")
        try:
            pin = int(first) - 1
            count = 1 if not dash else int(second) - pin
        except ValueError:
            raise IllegalMoveError(f"expected a pin (3) or two neighbours (3-4), got "
                                   f"{text!r}") from None
        if count not in (1, 2):
            raise IllegalMoveError(f"{text!r}: knock down one pin or two neighbours")
        move = 2 * pin + count - 1
        if move not in self.moves(state):
            raise IllegalMoveError(f"{text!r}: not standing (pins standing: "
                                   f"{self._standing_text(state)})")
        return move

    def _standing_text(self, state: State) -> str:
        return " ".join(str(pin + 1) for pin in range(self.pins) if state[0] >> pin & 1) or \
            "none"

    def render(self, state: State) -> str:
        """The row: ``|`` a standing pin, ``.`` a fallen one."""
        return "".join("|" if state[0] >> pin & 1 else "." for pin in range(self.pins))

    def view(self, state: State, last: int | None = None) -> View:
        """One row of cells, a pin ``I`` in each standing one; a single pin is knocked down by
        its cell (or its number's key), a pair from the move list."""
        cells = tuple("I" if state[0] >> pin & 1 else "" for pin in range(self.pins))
        spots = []
        for move in ([] if self.outcome(state) is not None else self.moves(state)):
            text = self.format_move(state, move)
            if move % 2 == 0:
                pin = move // 2
                spots.append(MoveSpot(text, f"knock down pin {pin + 1}", cell=(0, pin),
                                      key=str(pin + 1) if pin < 9 else None))
            else:
                spots.append(MoveSpot(text, f"knock down pins {text}"))
        marks = () if last is None else (Mark((0, last // 2), "last"),)
        return View(kind="grid", text=self.render(state), moves=tuple(spots), marks=marks,
                    grid=Grid(cells=(cells,), pieces=("I", "I"),
                              column_labels=tuple(str(pin + 1) for pin in range(self.pins))))

    def compiled_form(self) -> CompiledForm[State, int]:
        """The kernel (``kernel.py``); the moves are the same integers in both forms."""
        from .kernel import compiled_form  # noqa: PLC0415 - imports numba's side only when asked

        return compiled_form(self)


def _pins(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"expected a number of pins, got {text!r}") from None
    if not 1 <= value <= MAX_PINS:
        raise ValueError(f"expected 1 to {MAX_PINS} pins, got {text!r}")
    return value


SPEC = GameSpec(
    name="kayles",
    summary="Kayles: knock down one pin or two neighbours; who cannot move loses",
    notation=Kayles.notation,
    build=Kayles,
    options=(GameOption("pins", "pins in the row", _pins, DEFAULT_PINS, metavar="N"),),
)
"""The game as gametree lists it: the entry point ``kayles`` names this."""
