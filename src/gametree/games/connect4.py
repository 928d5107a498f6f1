"""Connect Four on any board from 4x4 to 9x9, with bitboards in Python integers.

Players drop stones into columns; a stone falls to the lowest free cell. The first to line up
four stones horizontally, vertically or diagonally wins (+1 for player 0 ``X``, -1 if ``O``
wins); a full board without four in a row is a draw (0).

**Moves** are column numbers ``1`` .. ``width`` from the left. A **position** is the string of
columns played from the empty board, Pascal Pons' notation: ``4453`` means X in column 4, O in
column 4, X in column 5, O in column 3. Spaces are allowed (``4 4 5 3``).

**State** (Pons' layout): each column owns ``height + 1`` bits, bit ``col*(height+1) + row``
with row 0 at the bottom; the extra bit on top of each column stays empty, so that shifting a
line of stones never wraps into the next column. A state is the tuple
``(current, mask, won)``: the stones of the player to move, all stones, and whether the player
who just moved made four in a row. Playing column ``c`` is two integer operations::

    current ^= mask                      # the opponent's stones become "current"
    mask |= mask + bottom(c)             # the lowest free cell of column c fills up

and ``current + mask`` is a unique number for the position (Pons' ``key()``). A board and its
mirror image (column ``c`` swapped with column ``width - 1 - c``) have the same value, so
:meth:`ConnectFour.key` is the smaller of that number and its mirror image's: the two twins
share one entry of a transposition table and one row of a solution database. Each column's
``height + 1`` bits of ``current + mask`` depend on that column alone (no carry crosses a
column), so the mirror image's number is the same blocks of bits in reverse order, found by a
few masks and shifts (:func:`mirror_network`).

**Search aids**: :meth:`ConnectFour.moves` lists columns from the centre outwards (centre
columns take part in the most lines, so alpha-beta finds good moves first), and
:meth:`ConnectFour.evaluate` weighs every stone by the number of four-cell lines through its
cell (3 4 5 7 5 4 3 on the bottom row of 7x6, 13 in the middle of the board).

**Scores** in Pons' convention (seen from the player to move; positive: that player wins) are
given by :func:`pons_score` from a proven result: ``(width*height + 1 - n) // 2`` where ``n``
is the number of stones on the board before the winning stone, negated for a loss; 0 for a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..game import Game, IllegalMoveError
from ..numbers import is_digits, whole_number
from ..registry import GameOption, GameSpec
from ..result import SearchResult
from ..values import Value
from ..view import Cell, Grid, Mark, MoveSpot, View, winning_cells

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..compiled.form import CompiledForm

C4State = tuple[int, int, bool]
"""``(stones of the player to move, all stones, the last move made four in a row)``."""

MIN_SIDE = 4
"""The smallest width and height accepted (four in a row must fit)."""

MAX_SIDE = 9
"""The largest width and height accepted (columns are named by one digit)."""

ALIGN = 4
"""Stones in a row needed to win."""

PLAYER_MARKS = ("X", "O")
"""How the players' stones are drawn."""

MirrorStep = tuple[int, int, int]
"""One step of :func:`mirror_network`: ``(low, kept, shift)``."""


def mirror_network(width: int, stride: int) -> tuple[MirrorStep, ...]:
    """The steps that reverse the order of ``width`` blocks of ``stride`` bits (the columns of
    a bitboard), each step swapping blocks ``shift`` bits apart at once::

        bits = (bits & low) << shift | (bits >> shift) & low | bits & kept

    ``low`` holds the blocks that move up (those that move down land on them), ``kept`` the
    blocks that stay (a middle column). The first step swaps the left half of the columns
    with the right half (the centre column of an odd width stays), the next ones reverse each
    half the same way: 2 steps up to 7 columns, 3 for 8 and 9.
    """
    block = (1 << stride) - 1
    every = (1 << width * stride) - 1
    steps: list[MirrorStep] = []
    groups = [(0, width)]  # (first column, columns): the runs still to reverse, all as long
    while groups[0][1] > 1:
        half, middle = divmod(groups[0][1], 2)
        shift = (half + middle) * stride
        low = 0
        for first, _ in groups:
            for col in range(first, first + half):
                low |= block << col * stride
        steps.append((low, every & ~(low | low << shift), shift))
        groups = [part for first, _ in groups
                  for part in ((first, half), (first + half + middle, half))]
    return tuple(steps)


class ConnectFour(Game[C4State, int]):
    """Connect Four on ``width`` x ``height``. Moves are columns, 0-based inside the program."""

    name = "connect4"
    player_names = PLAYER_MARKS

    def __init__(self, width: int = 7, height: int = 6) -> None:
        """An empty board of ``width`` columns and ``height`` rows (4 to 9 each)."""
        for label, size in (("width", width), ("height", height)):
            if isinstance(size, bool) or not isinstance(size, int) or not (
                    MIN_SIDE <= size <= MAX_SIDE):
                raise ValueError(f"{label} must be a whole number from {MIN_SIDE} to {MAX_SIDE}, "
                                 f"got {size!r}")
        self.width, self.height = width, height
        self.cells = width * height
        stride = height + 1
        self.stride = stride
        self.bottom = tuple(1 << col * stride for col in range(width))
        """The bottom cell of each column."""
        self.top = tuple(1 << (height - 1 + col * stride) for col in range(width))
        """The top cell of each column: the column is full when it is taken."""
        self.bottom_row = sum(self.bottom)
        self.board = self.bottom_row * ((1 << height) - 1)
        """Every playable cell (the sentinel bit above each column excluded)."""
        centre = (width - 1) / 2
        self.order = tuple(sorted(range(width), key=lambda col: (abs(col - centre), col)))
        """Columns from the centre outwards, left before right at equal distance."""
        self.weights = self._weight_masks()
        """Cells grouped by the number of four-cell lines through them: ``(weight, cells)``."""
        self.key_merges_mirrors = True
        """:meth:`key` gives a board and its mirror image one key. A setting of the game, in
        the fingerprint of a solution database: a file built when the key told mirror images
        apart is refused rather than read with the other keys."""
        steps = mirror_network(width, stride)  # 2 steps up to 7 columns, 3 for 8 and 9
        self._mirror_steps = steps
        self._mirror = steps[0] + steps[1]
        self._mirror_last = steps[2] if len(steps) > 2 else None

    # -- the Game contract -------------------------------------------------------------------

    def initial_state(self) -> C4State:
        """The empty board, X to move."""
        return (0, 0, False)

    def to_move(self, state: C4State) -> int:
        """X (0) after an even number of stones, O (1) after an odd number."""
        return state[1].bit_count() & 1

    def moves(self, state: C4State) -> list[int]:
        """The columns that are not full, centre first; none once someone has four in a row."""
        if state[2]:
            return []
        mask = state[1]
        top = self.top
        return [col for col in self.order if not mask & top[col]]

    def play(self, state: C4State, move: int) -> C4State:
        """Drop the mover's stone in column ``move`` (0-based) and note whether it wins."""
        current, mask, _ = state
        new_mask = mask | (mask + self.bottom[move])
        mover = current | (new_mask ^ mask)  # the mover's stones, the new one included
        return (current ^ mask, new_mask, self.aligned(mover))

    def outcome(self, state: C4State) -> Value | None:
        """+1 if X made four in a row, -1 if O did, 0 for a full board, else ``None``."""
        if state[2]:
            return 1 if state[1].bit_count() & 1 else -1  # the player who just moved won
        if state[1] == self.board:
            return 0
        return None

    def evaluate(self, state: C4State) -> Value:
        """Centre weighting, seen from X: each stone is worth the number of four-cell lines
        through its cell (3 in a corner of 7x6, 13 in the middle); X's total minus O's.
        """
        current, mask, _ = state
        x_stones = current if mask.bit_count() & 1 == 0 else current ^ mask
        o_stones = mask ^ x_stones
        return sum(weight * ((x_stones & cells).bit_count() - (o_stones & cells).bit_count())
                   for weight, cells in self.weights)

    def key(self, state: C4State) -> int:
        """The same number for a board and its mirror image: the smaller of Pons' key
        ``current + mask`` (unique for every position) and the mirror image's.

        Mirror images have the same value and the same player to move, so a transposition
        table and a solution database may treat them as one position.
        """
        bits = state[0] + state[1]
        low, kept, shift, low2, kept2, shift2 = self._mirror  # the columns in reverse order
        image = (bits & low) << shift | (bits >> shift) & low | bits & kept
        image = (image & low2) << shift2 | (image >> shift2) & low2 | image & kept2
        if self._mirror_last is not None:
            low, kept, shift = self._mirror_last
            image = (image & low) << shift | (image >> shift) & low | image & kept
        return image if image < bits else bits

    def mirror(self, state: C4State) -> C4State:
        """The mirror image of ``state``: column ``c`` swapped with column ``width - 1 - c``."""
        current, mask, won = state
        return (self._mirrored(current), self._mirrored(mask), won)

    def _mirrored(self, bits: int) -> int:
        for low, kept, shift in self._mirror_steps:
            bits = (bits & low) << shift | (bits >> shift) & low | bits & kept
        return bits

    # -- rules helpers -----------------------------------------------------------------------

    def aligned(self, stones: int) -> bool:
        """True if ``stones`` hold four in a row in any direction."""
        for shift in (1, self.stride, self.stride - 1, self.stride + 1):
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> 2 * shift):
                return True
        return False

    def stones(self, state: C4State, player: int) -> int:
        """The bit mask of ``player``'s stones."""
        current, mask, _ = state
        return current if self.to_move(state) == player else current ^ mask

    def stone_count(self, state: C4State) -> int:
        """How many stones are on the board."""
        return state[1].bit_count()

    def column_height(self, state: C4State, col: int) -> int:
        """How many stones column ``col`` (0-based) holds."""
        return ((state[1] >> col * self.stride) & ((1 << self.height) - 1)).bit_count()

    def _weight_masks(self) -> tuple[tuple[int, int], ...]:
        """Cells grouped by the number of four-cell lines through them: ``(weight, cells)``."""
        counts = [[0] * self.height for _ in range(self.width)]
        for col in range(self.width):
            for row in range(self.height):
                for d_col, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_col, end_row = col + d_col * (ALIGN - 1), row + d_row * (ALIGN - 1)
                    if 0 <= end_col < self.width and 0 <= end_row < self.height:
                        for step in range(ALIGN):
                            counts[col + d_col * step][row + d_row * step] += 1
        groups: dict[int, int] = {}
        for col in range(self.width):
            for row in range(self.height):
                weight = counts[col][row]
                groups[weight] = groups.get(weight, 0) | 1 << (col * self.stride + row)
        return tuple(sorted(groups.items()))

    # -- text --------------------------------------------------------------------------------

    def format_move(self, state: C4State, move: int) -> str:
        """The column number, 1 = leftmost."""
        return str(move + 1)

    def format_line(self, state: C4State, moves: Iterable[int]) -> list[str]:
        """The column numbers of ``moves``: a column is written the same in every position, so
        the line is not replayed (as the Game's default does)."""
        return [str(move + 1) for move in moves]

    def parse_move(self, state: C4State, text: str) -> int:
        """A column number 1 .. width; refused if off the board, full, or the game is over."""
        wanted = text.strip()
        if not is_digits(wanted):
            raise IllegalMoveError(f"{wanted!r} is not a column: write a column number "
                                   f"1-{self.width}")
        col = int(wanted)
        if not 1 <= col <= self.width:
            raise IllegalMoveError(f"column {col} is off the board: columns are 1-{self.width}")
        if state[2]:
            winner = PLAYER_MARKS[1 - self.to_move(state)]
            raise IllegalMoveError(f"the game is over: {winner} already has four in a row")
        if state[1] == self.board:
            raise IllegalMoveError("the game is over: the board is full (a draw)")
        if state[1] & self.top[col - 1]:
            raise IllegalMoveError(f"column {col} is full ({self.height} stones)")
        return col - 1

    def compiled_form(self) -> CompiledForm[C4State, int]:
        """The compiled form (:mod:`gametree.games.connect4_kernel`); raises
        :class:`gametree.compiled.KernelError` for a board larger than its 64-bit bitboards."""
        from .connect4_kernel import compiled_form  # noqa: PLC0415 - the kernel imports this module

        return compiled_form(self)

    def view(self, state: C4State, last: int | None = None) -> View:
        """Discs in a frame, the top row first, columns labelled ``1`` .. ``width`` below;
        each move drops into its column, keys ``1`` .. ``width`` play them; moves are joined
        with no separator (Pons' ``4455``); the last stone and four in a row are marked."""
        x_stones, mask = self.stones(state, 0), state[1]

        def owner(cell: Cell) -> int | None:
            bit = 1 << (cell[1] * self.stride + self.height - 1 - cell[0])
            return None if not mask & bit else 0 if x_stones & bit else 1

        labels = ("X", "O")
        cells = tuple(tuple("" if (who := owner((row, col))) is None else labels[who]
                            for col in range(self.width)) for row in range(self.height))
        moves = tuple(MoveSpot(str(move + 1), label=f"drop in column {move + 1}",
                               key=str(move + 1), column=move) for move in self.moves(state))
        marks = winning_cells(self._cell_lines(), owner) if state[2] else ()
        if last is not None and self.column_height(state, last):
            marks += (Mark((self.height - self.column_height(state, last), last), "last"),)
        return View(kind="grid", text=self.render(state), moves=moves, separator="",
                    grid=Grid(cells, shape="disc",
                              column_labels=tuple(str(col + 1) for col in range(self.width)),
                              column_labels_below=True),
                    marks=marks)

    def _cell_lines(self) -> list[list[Cell]]:
        """Every line of four cells on the board, as drawn (row 0 at the top)."""
        lines = []
        for row in range(self.height):
            for col in range(self.width):
                for step_row, step_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + 3 * step_row, col + 3 * step_col
                    if 0 <= end_row < self.height and 0 <= end_col < self.width:
                        lines.append([(row + i * step_row, col + i * step_col)
                                      for i in range(4)])
        return lines

    def render(self, state: C4State) -> str:
        """The board from the top row down, ``X``/``O``/``.``, column numbers underneath."""
        x_stones = self.stones(state, 0)
        mask = state[1]
        lines = []
        for row in reversed(range(self.height)):
            cells = []
            for col in range(self.width):
                bit = 1 << (col * self.stride + row)
                cells.append("." if not mask & bit else "X" if x_stones & bit else "O")
            lines.append(" ".join(cells))
        lines.append(" ".join(str(col + 1) for col in range(self.width)))
        return "\n".join(lines)


def pons_score(game: ConnectFour, state: C4State, result: SearchResult[Any]) -> int | None:
    """The score of ``state`` in Pascal Pons' convention, or ``None`` if it is not proven.

    Seen from the player to move: 0 for a draw; for a win ``(width*height + 1 - n) // 2`` where
    ``n`` is the number of stones on the board before the winning stone is played (Pons'
    solver's formula); the same negated for a loss. On every board size this equals the number
    of stones the winner could play at most, plus 1, minus the stones they did play: on 7x6,
    22 minus the winner's stones (GUIDE.md); on 5x5, 14 for X and 13 for O minus theirs.
    It needs the distance to the end (``result.plies``), so only distance-scored results
    have a score.
    """
    if result.outcome == "draw":
        return 0
    if result.outcome is None or result.plies is None:
        return None
    return score_from_distance(game.cells, game.stone_count(state), result.plies,
                               won=result.outcome == "win")


def score_from_distance(cells: int, stones: int, plies: int, *, won: bool) -> int:
    """Pons' score of a position with ``stones`` on a board of ``cells`` whose player to move
    wins (``won``) or loses in ``plies`` (see :func:`pons_score`)."""
    before_winning_stone = stones + plies - 1
    magnitude = (cells + 1 - before_winning_stone) // 2
    return magnitude if won else -magnitude


def score_json(game: Game[Any, Any], state: Any, result: SearchResult[Any]) -> dict[str, Any]:
    """The ``score`` field of Connect Four's JSON results (``None`` when not proven)."""
    assert isinstance(game, ConnectFour)
    return {"score": pons_score(game, state, result)}


def read_pons_line(line: str) -> tuple[str, dict[str, Any]]:
    """A line of Pons' benchmark files: ``MOVES [SCORE]``, the moves written without spaces.

    Returns the moves and, when the line has a score, ``{"score": SCORE}``.
    """
    fields = line.split()
    if len(fields) == 1:
        return fields[0], {}
    if len(fields) == 2:
        try:
            return fields[0], {"score": int(fields[1])}
        except ValueError:
            pass
    raise ValueError(f"expected 'MOVES [SCORE]' with the moves written without spaces, "
                     f"as in Pons' files (4453 -2); got {line.strip()!r}")


def split_moves(text: str) -> list[str]:
    """A position as single moves: ``"4453"`` or ``"4 4 5 3"`` -> ``["4", "4", "5", "3"]``."""
    return [char for char in text if not char.isspace() and char not in ",;"]


def build(width: int = 7, height: int = 6) -> ConnectFour:
    """Connect Four from its command-line options."""
    return ConnectFour(width, height)


def _side(text: str) -> int:
    try:
        value = whole_number(text)
    except ValueError:
        raise ValueError(f"expected a whole number from {MIN_SIDE} to {MAX_SIDE}, "
                         f"got {text!r}") from None
    if not MIN_SIDE <= value <= MAX_SIDE:
        raise ValueError(f"expected a whole number from {MIN_SIDE} to {MAX_SIDE}, got {text!r}")
    return value


SPEC = GameSpec(
    name="connect4",
    summary="Connect Four: drop stones into columns, four in a row wins (boards 4x4 to 9x9)",
    notation="the column number, 1 = leftmost; a position is the columns played, as in "
             "Pons' files (4453)",
    build=build,
    options=(
        GameOption("width", "columns", _side, 7, metavar="W"),
        GameOption("height", "rows", _side, 6, metavar="H"),
    ),
    split_moves=split_moves,
    extra_json=score_json,
    read_line=read_pons_line,
)
