"""The Sticks game of seed 004: misère Nim on rows of 1, 2 and 3 sticks.

Whoever takes the last stick loses. It is :class:`.nim.Nim` with ``misere=True``; this module
only registers it under its own name, with seed 004's rows as the default.
"""

from __future__ import annotations

from ..registry import GameOption, GameSpec
from .nim import NOTATION, Nim, parse_rows, split_moves

DEFAULT_ROWS = (1, 2, 3)
"""Seed 004's board: rows of 1, 2 and 3 sticks."""


def build(rows: tuple[int, ...] = DEFAULT_ROWS) -> Nim:
    """The Sticks game (misère Nim) on ``rows``."""
    return Nim(rows, misere=True, name="sticks")


SPEC = GameSpec(
    name="sticks",
    summary="the Sticks game (seed 004): misère Nim, whoever takes the last stick loses",
    notation=NOTATION,
    build=build,
    options=(
        GameOption("rows", "sticks in each row", parse_rows, DEFAULT_ROWS, metavar="1,2,3"),
    ),
    split_moves=split_moves,
)
