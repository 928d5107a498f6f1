"""The Game of Bones (seed 001): a heap of bones, take 1, 2 or 3; who cannot take loses.

It is the subtraction game with takes {1, 2, 3} (:class:`.subtraction.SubtractionGame`); this
module only registers it under its own name. The player to move loses exactly when the heap is
a multiple of 4 (seed 001: a heap of 6 is a first-player win, 8 a loss).
"""

from __future__ import annotations

from ..registry import GameOption, GameSpec
from .subtraction import NOTATION, SubtractionGame, parse_heap, split_moves

BONES_TAKES = (1, 2, 3)
"""How many bones a move may take."""

DEFAULT_HEAP = 10
"""The default heap: a first-player win (10 is not a multiple of 4), and short to play."""


def build(heap: int = DEFAULT_HEAP) -> SubtractionGame:
    """The Game of Bones with ``heap`` bones."""
    return SubtractionGame(heap, BONES_TAKES, name="bones")


SPEC = GameSpec(
    name="bones",
    summary="the Game of Bones (seed 001): take 1, 2 or 3 bones; who cannot take loses",
    notation=NOTATION,
    build=build,
    split_moves=split_moves,
    options=(
        GameOption("heap", "bones in the heap at the start", parse_heap, DEFAULT_HEAP,
                   metavar="N"),
    ),
)
