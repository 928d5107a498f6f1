"""The one Connect Four heuristic every contender uses in ``bench_connect4.py``.

Stdlib only: the peer worker imports it from the peer environment, gametree from its own, so
every side values a position with the same numbers; each side only reads its own board format.

**Centre weights.** Each cell of the 7x6 board is worth the number of four-in-a-row lines that
pass through it (3 in a corner, 13 in the two middle cells of the centre column). A position is
worth, to a player, the weights of their stones minus the weights of the opponent's. The table is
symmetric top to bottom and left to right, so it reads the same whichever corner a board format
starts from.

**Scale.** A side's sum never exceeds 138 (all 21 stones on the best cells), so every estimate
lies strictly between a loss and a win on each library's own scale: gametree's proven values
(±``WIN - ply``), easyAI's ``LOSS_SCORE`` below, and OpenSpiel's ±1 once divided by
``OPENSPIEL_SCALE``. Wins and losses thus order the same way against estimates in every library,
and a root value that is an estimate is the same number everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

ROWS = 6
COLUMNS = 7

CENTRE_WEIGHTS: tuple[tuple[int, ...], ...] = (
    (3, 4, 5, 7, 5, 4, 3),
    (4, 6, 8, 10, 8, 6, 4),
    (5, 8, 11, 13, 11, 8, 5),
    (5, 8, 11, 13, 11, 8, 5),
    (4, 6, 8, 10, 8, 6, 4),
    (3, 4, 5, 7, 5, 4, 3),
)
"""Weight of each cell, row by row: the number of four-in-a-row lines through it."""

WEIGHTS: tuple[int, ...] = tuple(weight for row in CENTRE_WEIGHTS for weight in row)
""":data:`CENTRE_WEIGHTS` flattened row by row (index ``row * 7 + column``)."""

LOSS_SCORE = 1000
"""easyAI's scoring of a lost position (its examples use 100; 1000 clears every estimate)."""

OPENSPIEL_SCALE = 1000.0
"""Estimates are divided by this for OpenSpiel, whose wins and losses are worth exactly ±1."""


def centre_score(cells: Sequence[object], me: object, them: object) -> int:
    """The centre-weighted value, for player ``me``, of a board given cell by cell.

    ``cells`` lists the 42 cells row by row (either end first: the weights are symmetric);
    each holds ``me``, ``them`` or anything else for an empty cell.
    """
    if len(cells) != ROWS * COLUMNS:
        raise ValueError(f"a Connect Four board has {ROWS * COLUMNS} cells, got {len(cells)}")
    score = 0
    for weight, cell in zip(WEIGHTS, cells, strict=True):
        if cell == me:
            score += weight
        elif cell == them:
            score -= weight
    return score
