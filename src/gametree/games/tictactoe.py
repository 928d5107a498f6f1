"""Tic-tac-toe and every m,n,k-game: ``k`` in a row on a board of ``rows`` x ``cols``.

X (player 0) moves first, then O. The first to get ``k`` of their marks in a row,
horizontally, vertically or diagonally, wins and the game stops; a full board without such a
line is a draw. A win is worth 10 to the winner (seed 003 prints 10), a draw 0.

Moves are written as in seed 003: ``row,col`` counted from 0 (``1,2`` is the middle row, right
column on a 3x3 board). Cell numbers are accepted too: ``1`` .. ``rows*cols``, row by row
from the top left, as on a phone keypad turned upside down (``5`` is the centre of 3x3)::

     1 | 2 | 3          0,0 | 0,1 | 0,2
     4 | 5 | 6          1,0 | 1,1 | 1,2
     7 | 8 | 9          2,0 | 2,1 | 2,2

A state is a :class:`Board`: two bit masks (bit ``row*cols + col`` set for each X / each O)
and who has won, so states are small immutable tuples that cost nothing to copy or hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ..game import Game, IllegalMoveError, PositionError
from ..numbers import is_digits, whole_number
from ..registry import GameOption, GameSpec
from ..values import Value
from ..view import Grid, Mark, MoveSpot, View

if TYPE_CHECKING:
    from ..compiled.form import CompiledForm

WIN_UTILITY = 10
"""What a win is worth to the winner, as seed 003's ``evaluate`` returns it."""

MAX_SIDE = 20
"""The largest number of rows or columns accepted (the text board stays readable)."""

NOBODY = -1
"""``Board.winner`` while nobody has a line."""

EMPTY_MARKS = "_.-"
"""Characters a ``--board`` text may use for an empty cell."""

CACHE_LIMIT = 1 << 20
"""The most entries each of the game's memo tables (moves, move order, table keys) keeps."""

CHUNK = 9
"""Symmetry images are looked up ``CHUNK`` cells of a mask at a time (tables of 512)."""

CHUNK_MASK = (1 << CHUNK) - 1

SYMMETRY_CELLS = 64
"""Boards with more cells key positions exactly: building their symmetry tables costs more
than the merged positions save."""


def board_symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The symmetries of a ``rows`` x ``cols`` board as cell permutations (``perm[cell]``).

    A square has 8 (rotations and reflections), a rectangle 4; each maps lines to lines, so
    symmetric positions have the same value.
    """
    def image(row: int, col: int, flip_rows: bool, flip_cols: bool, transpose: bool) -> int:
        if flip_rows:
            row = rows - 1 - row
        if flip_cols:
            col = cols - 1 - col
        if transpose:  # only on a square board
            row, col = col, row
        return row * cols + col

    transposes = (False, True) if rows == cols else (False,)
    perms = {
        tuple(image(row, col, flip_rows, flip_cols, transpose)
              for row in range(rows) for col in range(cols))
        for flip_rows in (False, True) for flip_cols in (False, True) for transpose in transposes
    }
    return tuple(sorted(perms))


@cache
def symmetry_tables(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each board symmetry, for each chunk of :data:`CHUNK` cells, the image of every
    chunk value: the mask ``value << start`` with each cell moved where the symmetry takes it.

    Built once per board size; the image of a whole mask is the OR of its chunks' images.
    """
    cells = rows * cols
    starts = range(0, cells, CHUNK)
    return tuple(
        tuple(
            tuple(_permuted(value << start, perm)
                  for value in range(1 << min(CHUNK, cells - start)))
            for start in starts
        )
        for perm in board_symmetries(rows, cols)
    )


class Board(NamedTuple):
    """A position: the cells of X and of O as bit masks, and the winner if there is one."""

    x: int
    """Bit ``row*cols + col`` is set where X has played."""

    o: int
    """Bit ``row*cols + col`` is set where O has played."""

    winner: int = NOBODY
    """0 if X has ``k`` in a row, 1 if O has, :data:`NOBODY` otherwise (play stops at a win)."""


class MNKGame(Game[Board, int]):
    """The m,n,k-game: ``k`` in a row on ``rows`` x ``cols`` (tic-tac-toe is 3,3,3).

    Moves are cell numbers ``row*cols + col`` (0-based inside the program; people type
    ``row,col`` or the 1-based cell number, see the module documentation).
    """

    name = "tictactoe"
    player_names = ("X", "O")

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3,
                 start: Board | None = None) -> None:
        """A game on ``rows`` x ``cols`` needing ``k`` in a row; ``start`` sets the first state."""
        for label, size in (("rows", rows), ("cols", cols)):
            if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIDE:
                raise ValueError(f"{label} must be a whole number from 1 to {MAX_SIDE}, "
                                 f"got {size!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= max(rows, cols):
            raise ValueError(f"k must be a whole number from 1 to {max(rows, cols)} (the longest "
                             f"line that fits on {rows}x{cols}), got {k!r}")
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        self.full = (1 << self.cells) - 1
        self.lines = self._lines()
        self.lines_through: tuple[tuple[int, ...], ...] = tuple(
            tuple(line for line in self.lines if line >> cell & 1) for cell in range(self.cells)
        )
        centre_row, centre_col = (rows - 1) / 2, (cols - 1) / 2
        self._by_centre = sorted(range(self.cells), key=lambda cell: (
            abs(cell // cols - centre_row) + abs(cell % cols - centre_col), cell))
        self._start = Board(0, 0) if start is None else start
        if start is not None:
            self._check_board(start)
        self._symmetries = (
            symmetry_tables(rows, cols) if self.cells <= SYMMETRY_CELLS else ()
        )
        # Memo tables, keyed by masks: the search asks the same questions again and again.
        self._moves_memo: dict[int, tuple[int, ...]] = {}
        self._order_memo: dict[int, tuple[int, ...]] = {}
        self._key_memo: dict[int, int] = {}

    def _lines(self) -> tuple[int, ...]:
        """Every set of ``k`` cells in a row, column or diagonal, as a bit mask."""
        lines: list[int] = []
        for row in range(self.rows):
            for col in range(self.cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + d_row * (self.k - 1), col + d_col * (self.k - 1)
                    if 0 <= end_row < self.rows and 0 <= end_col < self.cols:
                        mask = 0
                        for step in range(self.k):
                            mask |= 1 << ((row + d_row * step) * self.cols + col + d_col * step)
                        lines.append(mask)
        return tuple(dict.fromkeys(lines))  # k == 1 makes the four directions coincide

    # -- the Game contract -------------------------------------------------------------------

    def initial_state(self) -> Board:
        """The empty board (or the ``--board`` position this game was built with)."""
        return self._start

    def to_move(self, state: Board) -> int:
        """X (0) after an even number of marks, else O (1): X moves first."""
        return (state.x | state.o).bit_count() & 1

    def moves(self, state: Board) -> tuple[int, ...]:
        """The empty cells, row by row from the top left (seed 003's order); none once won."""
        if state.winner != NOBODY:
            return ()
        free = self.full & ~(state.x | state.o)
        legal = self._moves_memo.get(free)
        if legal is None:
            legal = tuple(cell for cell in range(self.cells) if free >> cell & 1)
            if len(self._moves_memo) < CACHE_LIMIT:
                self._moves_memo[free] = legal
        return legal

    def play(self, state: Board, move: int) -> Board:
        """Put the mover's mark on cell ``move`` and note a win."""
        bit = 1 << move
        x, o = state.x, state.o
        if (x | o).bit_count() & 1 == 0:
            x |= bit
            for line in self.lines_through[move]:
                if x & line == line:
                    return Board(x, o, 0)
            return Board(x, o, NOBODY)
        o |= bit
        for line in self.lines_through[move]:
            if o & line == line:
                return Board(x, o, 1)
        return Board(x, o, NOBODY)

    def outcome(self, state: Board) -> Value | None:
        """+10 if X has a line, -10 if O has, 0 for a full board, ``None`` otherwise."""
        if state.winner == 0:
            return WIN_UTILITY
        if state.winner == 1:
            return -WIN_UTILITY
        if state.x | state.o == self.full:
            return 0
        return None

    def evaluate(self, state: Board) -> Value:
        """Open lines, seen from X: each line holding only X's marks counts +n², only O's -n².

        ``n`` is the number of marks in the line; lines holding both marks are dead and count
        nothing. So a centre mark (on four lines of 3x3) is worth more than a side mark (two),
        and two in an open line more than two scattered marks.
        """
        score = 0
        for line in self.lines:
            mine, theirs = state.x & line, state.o & line
            if mine and not theirs:
                score += mine.bit_count() ** 2
            elif theirs and not mine:
                score -= theirs.bit_count() ** 2
        return score

    def order_moves(self, state: Board, moves: Sequence[int]) -> Sequence[int]:
        """Cells nearest the centre first: they lie on the most lines."""
        free = 0
        for cell in moves:
            free |= 1 << cell
        ordered = self._order_memo.get(free)
        if ordered is None:
            ordered = tuple(cell for cell in self._by_centre if free >> cell & 1)
            if len(self._order_memo) < CACHE_LIMIT:
                self._order_memo[free] = ordered
        return ordered

    def key(self, state: Board) -> int:
        """The same number for a board and all its rotations and reflections.

        Symmetric boards have the same value and the same player to move, so a transposition
        table may treat them as one position (on the empty 3x3 board this cuts the engine's
        work about four-fold). The key is the smallest of the symmetric images of the board,
        written as X's mask and O's mask in one integer.
        """
        x, o, cells = state.x, state.o, self.cells
        exact = x | o << cells
        key = self._key_memo.get(exact)
        if key is None:
            key = exact
            if cells <= CHUNK:  # one table per symmetry: look the images up directly
                for (table,) in self._symmetries:
                    image = table[x] | table[o] << cells
                    if image < key:  # noqa: PLR1730 -- no call per symmetry
                        key = image
            else:
                for chunks in self._symmetries:
                    image = _image(x, chunks) | _image(o, chunks) << cells
                    if image < key:  # noqa: PLR1730 -- no call per symmetry
                        key = image
            if len(self._key_memo) < CACHE_LIMIT:
                self._key_memo[exact] = key
        return key

    # -- moves and boards as text ------------------------------------------------------------

    def format_move(self, state: Board, move: int) -> str:
        """``row,col``, both from 0 (seed 003)."""
        return f"{move // self.cols},{move % self.cols}"

    def parse_move(self, state: Board, text: str) -> int:
        """``row,col`` from 0 (``1,2``) or a cell number from 1 (``6``); see the module doc."""
        wanted = text.strip().strip("()[]").replace(" ", "")
        if state.winner != NOBODY or state.x | state.o == self.full:
            raise IllegalMoveError("the game is over: no more moves can be played")
        if "," in wanted:
            parts = wanted.split(",")
            if len(parts) != 2 or not all(is_digits(part) for part in parts):
                raise IllegalMoveError(f"{text.strip()!r} is not a move: write row,col counted "
                                       f"from 0 (such as 1,2) or a cell number 1-{self.cells}")
            row, col = int(parts[0]), int(parts[1])
            if row >= self.rows or col >= self.cols:
                raise IllegalMoveError(
                    f"{row},{col} is off the board: rows 0-{self.rows - 1}, "
                    f"columns 0-{self.cols - 1}")
            cell = row * self.cols + col
        elif is_digits(wanted):
            number = int(wanted)
            if not 1 <= number <= self.cells:
                raise IllegalMoveError(f"cell {number} is off the board: cells are numbered "
                                       f"1-{self.cells}")
            cell = number - 1
        else:
            raise IllegalMoveError(f"{text.strip()!r} is not a move: write row,col counted from 0 "
                                   f"(such as 1,2) or a cell number 1-{self.cells}")
        bit = 1 << cell
        if (state.x | state.o) & bit:
            owner = "X" if state.x & bit else "O"
            raise IllegalMoveError(f"{self.format_move(state, cell)} is taken by {owner}")
        return cell

    def mark(self, state: Board, cell: int) -> str:
        """``X``, ``O`` or ``.`` for the cell's content."""
        bit = 1 << cell
        return "X" if state.x & bit else "O" if state.o & bit else "."

    def compiled_form(self) -> CompiledForm[Board, int]:
        """The compiled form (:mod:`gametree.games.tictactoe_kernel`); raises
        :class:`gametree.compiled.KernelError` for a board larger than the kernel's 62 cells."""
        from .tictactoe_kernel import compiled_form  # noqa: PLC0415 - the kernel imports this module

        return compiled_form(self)

    def render(self, state: Board) -> str:
        """The board with 0-based row and column numbers, ``.`` for an empty cell."""
        width = len(str(max(self.rows, self.cols) - 1))
        header = " " * (width + 1) + " ".join(f"{col:>{width}}" for col in range(self.cols))
        lines = [header]
        for row in range(self.rows):
            cells = " ".join(f"{self.mark(state, row * self.cols + col):>{width}}"
                             for col in range(self.cols))
            lines.append(f"{row:>{width}} {cells}")
        return "\n".join(lines)

    def view(self, state: Board, last: int | None = None) -> View:
        """A grid of ``X``/``O`` squares with 0-based row and column labels; each move marks
        its cell, keys ``1`` .. ``9`` play cells 1-9 on boards of at most 9 cells; the last
        move and a winning line are marked."""
        labels = {"X": "X", "O": "O", ".": ""}
        cells = tuple(tuple(labels[self.mark(state, row * self.cols + col)]
                            for col in range(self.cols)) for row in range(self.rows))
        keyed = self.cells <= 9
        moves = tuple(
            MoveSpot(self.format_move(state, move), label=f"play {self.format_move(state, move)}",
                     key=str(move + 1) if keyed else None,
                     cell=(move // self.cols, move % self.cols))
            for move in self.moves(state))
        marks: list[Mark] = []
        if state.winner != NOBODY:
            stones = state.x if state.winner == 0 else state.o
            won = 0
            for line in self.lines:
                if stones & line == line:
                    won |= line
            marks += [Mark(divmod(cell, self.cols), "win")
                      for cell in range(self.cells) if won >> cell & 1]
        if last is not None:
            marks.append(Mark(divmod(last, self.cols), "last"))
        return View(kind="grid", text=self.render(state), moves=moves,
                    grid=Grid(cells, row_labels=tuple(map(str, range(self.rows))),
                              column_labels=tuple(map(str, range(self.cols)))),
                    marks=tuple(marks), flippable=True)

    # -- boards from text --------------------------------------------------------------------

    def parse_board(self, text: str) -> Board:
        """A position from text: rows of ``x``, ``o`` and ``_`` (or ``.``), separated by ``/``
        or spaces, as seed 003 draws it: ``"xox/oox/___"`` or ``"x o x / o o x / _ _ _"``.
        """
        rows = [row.replace(" ", "") for row in text.replace("\n", "/").split("/")]
        rows = [row for row in rows if row]
        if len(rows) == 1 and len(rows[0]) == self.cells:  # "xoxoox___" without separators
            rows = [rows[0][start:start + self.cols] for start in range(0, self.cells, self.cols)]
        if len(rows) != self.rows or any(len(row) != self.cols for row in rows):
            raise PositionError(f"a board needs {self.rows} rows of {self.cols} cells separated "
                                f"by '/', such as \"xox/oox/___\"; got {text!r}")
        x = o = 0
        for cell, char in enumerate("".join(rows).lower()):
            if char == "x":
                x |= 1 << cell
            elif char == "o":
                o |= 1 << cell
            elif char not in EMPTY_MARKS:
                raise PositionError(f"board cell {char!r} is not x, o or _ (empty)")
        x_won = any(x & line == line for line in self.lines)
        o_won = any(o & line == line for line in self.lines)
        winner = 0 if x_won else 1 if o_won else NOBODY
        board = Board(x, o, winner)
        self._check_board(board, x_won and o_won)
        return board

    def _check_board(self, board: Board, both_won: bool = False) -> None:
        """Refuse a position that no game can reach."""
        xs, o_count = board.x.bit_count(), board.o.bit_count()
        if board.x & board.o or (board.x | board.o) & ~self.full:
            raise PositionError("X and O cannot share a cell, and marks must be on the board")
        if xs not in (o_count, o_count + 1):
            raise PositionError(f"X moves first, so X has as many marks as O or one more; "
                                f"this board has {xs} X and {o_count} O")
        if both_won:
            raise PositionError("both X and O have a line: play stops at the first win")
        if board.winner == 0 and xs != o_count + 1:
            raise PositionError("X has a line, so X moved last and has one mark more than O")
        if board.winner == 1 and xs != o_count:
            raise PositionError("O has a line, so O moved last and has as many marks as X")


def _image(mask: int, chunks: tuple[tuple[int, ...], ...]) -> int:
    """The image of ``mask`` under one symmetry, from its chunk tables."""
    image = 0
    for table in chunks:
        image |= table[mask & CHUNK_MASK]
        mask >>= CHUNK
    return image


def _permuted(mask: int, perm: tuple[int, ...]) -> int:
    """``mask`` with bit ``i`` moved to bit ``perm[i]``."""
    result = 0
    while mask:
        low = mask & -mask
        result |= 1 << perm[low.bit_length() - 1]
        mask ^= low
    return result


def build(rows: int = 3, cols: int = 3, k: int = 3, board: str | None = None) -> MNKGame:
    """The game from command-line options; ``board`` starts it from a drawn position."""
    game = MNKGame(rows, cols, k)
    if board is None:
        return game
    return MNKGame(rows, cols, k, start=game.parse_board(board))


def _side(text: str) -> int:
    try:
        value = whole_number(text)
    except ValueError:
        raise ValueError(f"expected a whole number from 1 to {MAX_SIDE}, got {text!r}") from None
    if not 1 <= value <= MAX_SIDE:
        raise ValueError(f"expected a whole number from 1 to {MAX_SIDE}, got {text!r}")
    return value


SPEC = GameSpec(
    name="tictactoe",
    summary="tic-tac-toe and any m,n,k-game: get k in a row on a rows x cols board "
            "(X moves first; a win is worth 10)",
    notation="row,col counted from 0 (1,2), or a cell number 1..rows*cols counted row by row",
    build=build,
    options=(
        GameOption("rows", "rows of the board", _side, 3, metavar="R"),
        GameOption("cols", "columns of the board", _side, 3, metavar="C"),
        GameOption("k", "marks in a row needed to win", _side, 3, metavar="K"),
        GameOption("board", "start from this position, rows separated by '/': "
                   "\"xox/oox/___\" (x moves when the counts are equal)", metavar="\"ROWS\""),
    ),
)
