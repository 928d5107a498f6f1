"""Two small games defined outside the package, as a user would write them, for the tests of
game views: the server offers them by import path (``tests.view_games:SPEC``), the page and the
terminal draw them from what they declare, and nothing in ``gametree`` knows them.

* **Stack three** (:data:`SPEC`): a 3-row, 4-column board; a player puts a stone on the lowest
  empty cell of a column (moves name the cell: ``b1`` is column b, row 1 from the bottom); three
  in a row, across, up or diagonally, wins. It declares a grid view whose moves are cells, keys
  ``a`` .. ``d`` (the column), a winning line and the last move marked, and moves joined by
  commas (``a1,b1,a2``) — none of it like a built-in game.
* **Countdown** (:data:`TEXT_SPEC`): a counter, take 1 or 2, who takes the last wins. It
  declares no view: the page must draw its text with its spacing and list its moves.
"""

from __future__ import annotations

from gametree.game import Game, IllegalMoveError
from gametree.registry import GameOption, GameSpec
from gametree.values import Value
from gametree.view import Cell, Grid, Mark, MoveSpot, View, winning_cells

ROWS, COLUMNS, LINE = 3, 4, 3
LETTERS = "abcd"

StackState = tuple[tuple[tuple[int, ...], ...], int]
"""``(columns, player to move)``: each column the players' stones from the bottom up."""

StackMove = tuple[int, int]
"""``(row from the bottom, column)``."""


def _lines() -> list[list[StackMove]]:
    lines = []
    for row in range(ROWS):
        for col in range(COLUMNS):
            for step_row, step_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * step_row, col + i * step_col) for i in range(LINE)]
                if all(0 <= r < ROWS and 0 <= c < COLUMNS for r, c in cells):
                    lines.append(cells)
    return lines


LINES = _lines()
"""Every line of three cells, as ``(row from the bottom, column)``."""


class StackThree(Game[StackState, StackMove]):
    """Three in a row on a 3x4 board where stones stack from the bottom (see the module)."""

    name = "stackthree"
    player_names = ("X", "O")

    def initial_state(self) -> StackState:
        """An empty board, X to move."""
        return (((),) * COLUMNS, 0)

    def to_move(self, state: StackState) -> int:
        """The player whose turn it is."""
        return state[1]

    def _owner(self, state: StackState, row: int, col: int) -> int | None:
        column = state[0][col]
        return column[row] if row < len(column) else None

    def winner(self, state: StackState) -> int | None:
        """The player with three in a row, if any."""
        for line in LINES:
            owners = {self._owner(state, row, col) for row, col in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop()
        return None

    def moves(self, state: StackState) -> list[StackMove]:
        """The lowest empty cell of each column that is not full, left to right."""
        if self.winner(state) is not None:
            return []
        return [(len(column), col) for col, column in enumerate(state[0]) if len(column) < ROWS]

    def play(self, state: StackState, move: StackMove) -> StackState:
        """A stone of the player to move on ``move``'s cell."""
        columns = list(state[0])
        columns[move[1]] = (*columns[move[1]], state[1])
        return (tuple(columns), 1 - state[1])

    def outcome(self, state: StackState) -> Value | None:
        """+1 if X has a line, -1 if O has, 0 for a full board, else ``None``."""
        winner = self.winner(state)
        if winner is not None:
            return 1 if winner == 0 else -1
        return 0 if all(len(column) == ROWS for column in state[0]) else None

    def format_move(self, state: StackState, move: StackMove) -> str:
        """Column letter and row from the bottom (``b1``)."""
        return f"{LETTERS[move[1]]}{move[0] + 1}"

    def parse_move(self, state: StackState, text: str) -> StackMove:
        """A cell such as ``b1``, or a column letter alone (its lowest empty cell)."""
        wanted = text.strip().lower()
        for move in self.moves(state):
            if wanted in (self.format_move(state, move), LETTERS[move[1]]):
                return move
        raise IllegalMoveError(f"{text.strip()!r} is not a legal move here")

    def render(self, state: StackState) -> str:
        """The board, top row first, columns lettered underneath."""
        rows = [" ".join("." if (who := self._owner(state, row, col)) is None else "XO"[who]
                         for col in range(COLUMNS)) for row in reversed(range(ROWS))]
        return "\n".join([*rows, " ".join(LETTERS)])

    def view(self, state: StackState, last: StackMove | None = None) -> View:
        """A grid of squares, row 0 drawn at the top; each move marks its cell, keyed by its
        column's letter; the winning line and the last stone marked; moves joined by commas."""
        def drawn(cell: StackMove) -> Cell:
            return (ROWS - 1 - cell[0], cell[1])

        def owner(cell: Cell) -> int | None:
            return self._owner(state, ROWS - 1 - cell[0], cell[1])

        cells = tuple(tuple("" if (who := owner((row, col))) is None else "XO"[who]
                            for col in range(COLUMNS)) for row in range(ROWS))
        moves = tuple(MoveSpot(self.format_move(state, move),
                               label=f"stack on {self.format_move(state, move)}",
                               key=LETTERS[move[1]], cell=drawn(move))
                      for move in self.moves(state))
        marks = winning_cells([[drawn(cell) for cell in line] for line in LINES], owner)
        if last is not None:
            marks += (Mark(drawn(last), "last"),)
        return View(kind="grid", text=self.render(state), moves=moves, separator=",",
                    grid=Grid(cells, column_labels=tuple(LETTERS), column_labels_below=True,
                              row_labels=tuple(str(row) for row in range(ROWS, 0, -1))),
                    marks=marks)


def split_commas(text: str) -> list[str]:
    """A moves text such as ``a1,b1,a2`` as single moves."""
    return [part.strip() for part in text.split(",") if part.strip()]


SPEC = GameSpec(name="stackthree", summary="three in a row on a 3x4 board, stones stack up",
                notation="a cell such as b1 (column b, row 1 from the bottom)",
                build=StackThree, split_moves=split_commas)
"""Stack three, served by import path ``tests.view_games:SPEC``."""


class Countdown(Game[tuple[int, int], int]):
    """A counter; take 1 or 2; who takes the last wins. Declares no view (see the module)."""

    name = "countdown"

    def __init__(self, start: int = 5) -> None:
        """A counter of ``start``."""
        self.start = start

    def initial_state(self) -> tuple[int, int]:
        """``(counter, player to move)``."""
        return (self.start, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        """The player whose turn it is."""
        return state[1]

    def moves(self, state: tuple[int, int]) -> list[int]:
        """Take 2 or 1, as many as are left."""
        return [take for take in (2, 1) if take <= state[0]]

    def play(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        """Take ``move``."""
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: tuple[int, int]) -> Value | None:
        """Once the counter is 0, the player who took the last (not the one to move) won."""
        if state[0]:
            return None
        return -1 if state[1] == 0 else 1

    def render(self, state: tuple[int, int]) -> str:
        """The counter, spaced out like a scoreboard: the spaces are part of the drawing."""
        return f"counter:   {state[0]:>2}\n[  {'#' * state[0]:<{self.start}}  ]"


TEXT_SPEC = GameSpec(name="countdown", summary="take 1 or 2; who takes the last wins",
                     notation="1 or 2", build=Countdown,
                     options=(GameOption("start", "the counter at the start", int, 5),))
"""Countdown, served by import path ``tests.view_games:TEXT_SPEC``."""
