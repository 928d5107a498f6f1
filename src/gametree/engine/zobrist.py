"""Zobrist hashing: a small integer key for a board position, updated in one XOR per change.

For a board game whose state is a grid of cells, each holding one of a few pieces (or
nothing), the transposition table needs a key. The state itself works (the default of
:meth:`gametree.Game.key`), but a long tuple is slow to hash and compare. Zobrist's method
gives every (cell, piece) pair a random 64-bit number; a position's key is the XOR of the
numbers of its occupied cells (and of a side-to-move number when the second player moves).
Playing a move changes the key by XOR-ing in the piece placed (and out the piece removed):
constant time, whatever the board's size.

Two different positions can share a 64-bit key, with probability about ``n² / 2**65`` for
``n`` positions stored (about one in 36 million for a million positions): the table then
mixes them up. Games that need certainty use the state or an exact encoding as key (a
bitboard pair packed in one integer is exact and just as fast).

Example, tic-tac-toe on cells 0..8 with pieces 0 (X) and 1 (O)::

    >>> z = Zobrist(cells=9, pieces=2, seed=1)
    >>> empty = z.key([None] * 9)
    >>> after = z.toggle(z.toggle_side(empty), cell=4, piece=0)   # X in the centre, O to move
    >>> after == z.key([None, None, None, None, 0, None, None, None, None], side=1)
    True
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class Zobrist:
    """Random numbers for ``cells`` x ``pieces`` (cell, piece) pairs and the side to move.

    The numbers are drawn from ``random.Random(seed)``, so a given seed always gives the same
    keys (useful to save tables or compare runs).
    """

    def __init__(self, cells: int, pieces: int, *, seed: int = 0, bits: int = 64) -> None:
        for name, count in (("cells", cells), ("pieces", pieces), ("bits", bits)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise ValueError(f"{name} must be a positive whole number, got {count!r}")
        generator = random.Random(seed)
        self.cells = cells
        """The number of cells."""
        self.pieces = pieces
        """The number of kinds of piece."""
        self.numbers: tuple[tuple[int, ...], ...] = tuple(
            tuple(generator.getrandbits(bits) for _piece in range(pieces)) for _cell in range(cells)
        )
        """``numbers[cell][piece]``: the random number of that piece on that cell."""
        self.side: int = generator.getrandbits(bits)
        """XOR-ed into the key when the second player (player 1) is to move."""

    def key(self, board: Iterable[int | None], side: int = 0) -> int:
        """The key of a whole board: ``board[cell]`` is a piece number or ``None`` (empty)."""
        key = self.side if side else 0
        count = 0
        for cell, piece in enumerate(board):
            count += 1
            if piece is not None:
                key ^= self._number(cell, piece)
        if count != self.cells:
            raise ValueError(f"a board of {self.cells} cells was expected, got {count}")
        return key

    def toggle(self, key: int, cell: int, piece: int) -> int:
        """The key after ``piece`` is placed on, or removed from, ``cell`` (XOR is its inverse)."""
        return key ^ self._number(cell, piece)

    def toggle_side(self, key: int) -> int:
        """The key after the turn passes to the other player."""
        return key ^ self.side

    def _number(self, cell: int, piece: int) -> int:
        if not (0 <= cell < self.cells and 0 <= piece < self.pieces):
            raise ValueError(f"cell {cell} / piece {piece} out of range: cells 0-{self.cells - 1}, "
                             f"pieces 0-{self.pieces - 1}")
        return self.numbers[cell][piece]
