"""Exact game lengths of whole Connect Four boards against the published table.

Christophe Steininger's c4 readme (github.com/ChristopheSteininger/c4, "Results") publishes,
for widths and heights 4 to 13, who wins each empty board with perfect play and on which move
the game then ends (a draw ends on the last cell). Those facts are the table below, for the
boards the compiled kernel holds (width and height 4 to 9, ``width * (height + 1) <= 64``).
Each board is a kernel of its own to compile and a whole solve (6x6 and 7x5 take seconds,
7x6 about a minute on this machine's one core): slow tests, run by the whole suite. The
boards tested are among those solved here in under ten minutes; the rest of the table is kept
for the test that checks the table itself.
"""

from __future__ import annotations

import pytest

from gametree import search
from gametree.games.connect4 import ConnectFour

FIRST, SECOND, DRAW = "first", "second", "draw"

PUBLISHED: dict[tuple[int, int], tuple[str, int]] = {
    # (width, height): (who wins with perfect play, the move on which the game ends)
    (4, 4): (DRAW, 16), (5, 4): (DRAW, 20), (6, 4): (SECOND, 24), (7, 4): (DRAW, 28),
    (8, 4): (SECOND, 32), (9, 4): (SECOND, 36),
    (4, 5): (DRAW, 20), (5, 5): (DRAW, 25), (6, 5): (DRAW, 30), (7, 5): (DRAW, 35),
    (8, 5): (FIRST, 39), (9, 5): (FIRST, 41),
    (4, 6): (DRAW, 24), (5, 6): (DRAW, 30), (6, 6): (SECOND, 36), (7, 6): (FIRST, 41),
    (8, 6): (SECOND, 48), (9, 6): (SECOND, 52),
    (4, 7): (DRAW, 28), (5, 7): (DRAW, 35), (6, 7): (FIRST, 41), (7, 7): (DRAW, 49),
    (8, 7): (FIRST, 53),
    (4, 8): (DRAW, 32), (5, 8): (DRAW, 40), (6, 8): (SECOND, 48), (7, 8): (FIRST, 55),
    (4, 9): (DRAW, 36), (5, 9): (DRAW, 45), (6, 9): (FIRST, 53),
}
"""Every board of the table that fits the kernel (8x7 uses all 64 bits)."""

SOLVED_HERE = [(4, 4), (5, 4), (6, 4), (8, 4), (6, 5), (7, 5), (6, 6), (7, 6)]
"""Boards this machine solves in under ten minutes (one thread, the default table): the
smallest, and those of the side-by-side benchmark (docs/benchmarks.md); 7x6 takes about a
minute on a quiet core."""


def test_the_table_covers_every_board_the_kernel_holds_and_is_consistent() -> None:
    for width in range(4, 10):
        for height in range(4, 10):
            fits = width * (height + 1) <= 64
            assert ((width, height) in PUBLISHED) == fits, (width, height)
    for (width, height), (winner, move) in PUBLISHED.items():
        cells = width * height
        assert move <= cells
        if winner == DRAW:
            assert move == cells  # a draw fills the board
        else:  # the first player moves on odd moves, the second on even ones
            assert move % 2 == (1 if winner == FIRST else 0), (width, height)
    assert set(SOLVED_HERE) <= set(PUBLISHED)


@pytest.mark.slow  # a kernel compile and a whole-board solve per board
@pytest.mark.parametrize("width, height", SOLVED_HERE)
def test_a_whole_board_ends_on_the_published_move(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    result = search(game, game.initial_state(), tier="compiled")
    winner, move = PUBLISHED[(width, height)]
    if winner == DRAW:
        assert (result.outcome, result.value) == ("draw", 0)
    else:
        assert result.outcome == ("win" if winner == FIRST else "loss")
        assert result.plies == move  # plies from the empty board: the move it ends on
