"""A game defined outside the package, for the tests that give a server its games by import
path (``create_app(games=["tests.served_game:SPEC"])``, ``gametree serve --game
tests.served_game``): Kayles on a short row of pins.

A move knocks down one pin or two neighbouring pins; who cannot move loses. Pins are numbered
from 1; a move is written ``3`` (pin 3) or ``3-4`` (pins 3 and 4). The game declares nothing
but the Game contract and a registry spec: no compiled form, no board view.
"""

from __future__ import annotations

from gametree.game import Game
from gametree.registry import GameOption, GameSpec

KaylesState = tuple[int, int]
"""The pins still standing (bit ``i``: pin ``i + 1``) and the player to move."""

KaylesMove = tuple[int, int]
"""The first pin knocked down (0-based) and how many (1 or 2)."""

DEFAULT_PINS = 5
"""Pins in the row by default: a first-player win (take the middle pin, then mirror)."""


class Kayles(Game[KaylesState, KaylesMove]):
    """Kayles on a row of ``pins`` pins."""

    def __init__(self, pins: int = DEFAULT_PINS) -> None:
        if not 1 <= pins <= 12:
            raise ValueError(f"pins must be from 1 to 12, got {pins}")
        self.pins = pins

    def initial_state(self) -> KaylesState:
        """Every pin standing, the first player to move."""
        return ((1 << self.pins) - 1, 0)

    def to_move(self, state: KaylesState) -> int:
        """The player to move."""
        return state[1]

    def moves(self, state: KaylesState) -> list[KaylesMove]:
        """Every standing pin, then every standing pair of neighbours."""
        standing = state[0]
        ones = [(pin, 1) for pin in range(self.pins) if standing >> pin & 1]
        twos = [(pin, 2) for pin in range(self.pins - 1) if standing >> pin & 3 == 3]
        return ones + twos

    def play(self, state: KaylesState, move: KaylesMove) -> KaylesState:
        """Knock the pins of ``move`` down."""
        pin, count = move
        return (state[0] & ~(((1 << count) - 1) << pin), 1 - state[1])

    def outcome(self, state: KaylesState) -> int | None:
        """No pin standing: the player to move cannot move and loses."""
        if state[0]:
            return None
        return -1 if state[1] == 0 else 1

    def format_move(self, state: KaylesState, move: KaylesMove) -> str:
        """``3`` or ``3-4`` (pins numbered from 1)."""
        pin, count = move
        return str(pin + 1) if count == 1 else f"{pin + 1}-{pin + 2}"

    def render(self, state: KaylesState) -> str:
        """The row: ``|`` a standing pin, ``.`` a fallen one."""
        return "".join("|" if state[0] >> pin & 1 else "." for pin in range(self.pins))


def _pins(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 12:
        raise ValueError(f"expected 1 to 12 pins, got {text!r}")
    return value


SPEC = GameSpec(
    name="kayles",
    summary="Kayles: knock down one pin or two neighbours; who cannot move loses",
    notation="a pin (3) or two neighbouring pins (3-4), numbered from 1",
    build=Kayles,
    options=(GameOption("pins", "pins in the row", _pins, DEFAULT_PINS, metavar="N"),),
)
"""The game's registry entry (``tests.served_game`` or ``tests.served_game:SPEC``)."""

SMALL = GameSpec(
    name="kayles3",
    summary="Kayles on three pins",
    notation=SPEC.notation,
    build=lambda: Kayles(3),
)
"""A second game in the same module (``tests.served_game:SMALL``)."""
