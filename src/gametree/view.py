"""A position described for drawing: the neutral form every front-end draws from.

A game says what its position looks like — a grid of labelled cells, heaps of counters, a node
of a tree, or plain text — and where each legal move acts on that picture (the cell it marks,
the column it drops into, the heap it takes from, the child it goes to), which key plays it, and
how a line of moves is written. The web page and the terminal draw any :class:`View` the same
way, so neither needs code for a particular game (a front-end that needs an ``isinstance`` on a
game is missing a declaration here).

A game declares its view with :meth:`gametree.game.Game.view`; a game that declares nothing gets
:func:`text_view`, its :meth:`~gametree.game.Game.render` text and its moves as a list. The JSON
form (:meth:`View.to_dict`) is documented in ``docs/json.md`` ("Positions").

Coordinates: grid rows count from 0 at the top of the drawing, columns from 0 at the left;
heaps from 0 in the order drawn; a tree's children from 0 = leftmost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .game import Game

ViewKind = Literal["grid", "heaps", "tree", "text"]
"""What a view draws: labelled cells, heaps of counters, a node of a tree, or text."""

Shape = Literal["square", "disc"]
"""How a grid's cells look: squares with their labels written in (tic-tac-toe), or discs in a
frame, coloured by their owner (Connect Four)."""

MarkKind = Literal["last", "win"]
"""Why a cell is marked: the last move played, or a line that won."""

Cell = tuple[int, int]
"""A grid cell as ``(row, column)``, both from 0, row 0 drawn at the top."""


@dataclass(frozen=True)
class MoveSpot:
    """One legal move and where it acts on the drawing.

    Exactly the coordinate that fits the view's kind is set: ``cell`` (a grid whose moves fill
    cells), ``column`` (a grid whose moves are columns: the stone drops), ``heap`` and ``count``
    (take ``count`` counters from heap ``heap``), ``child`` (a tree's move to its child). A move
    with none of them is still offered, in the move list.
    """

    text: str
    """The move as :meth:`~gametree.game.Game.format_move` writes it: what a request sends."""

    label: str = ""
    """The move in words for a screen reader and a tooltip (``drop in column 4``); empty:
    ``play`` and the text."""

    key: str | None = None
    """The key that plays it (``"4"`` for Connect Four's column 4), or ``None``."""

    cell: Cell | None = None
    """The grid cell the move marks."""

    column: int | None = None
    """The grid column the move drops a stone into."""

    heap: int | None = None
    """The heap the move takes from."""

    count: int | None = None
    """How many counters the move takes from :attr:`heap`."""

    child: int | None = None
    """The index of the child the move goes to (0 = leftmost)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``text``, ``label``, ``key`` and the coordinates that are set."""
        document: dict[str, Any] = {"text": self.text, "label": self.label or f"play {self.text}",
                                    "key": self.key}
        for name in ("cell", "column", "heap", "count", "child"):
            value = getattr(self, name)
            if value is not None:
                document[name] = list(value) if isinstance(value, tuple) else value
        return document


@dataclass(frozen=True)
class Mark:
    """A grid cell to highlight, and why."""

    cell: Cell
    """The marked cell."""

    kind: MarkKind
    """``last``: the last move played; ``win``: part of a winning line."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"cell": [row, col], "kind": ...}``."""
        return {"cell": list(self.cell), "kind": self.kind}


@dataclass(frozen=True)
class Grid:
    """Rows of labelled cells (tic-tac-toe, m,n,k games, Connect Four)."""

    cells: tuple[tuple[str, ...], ...]
    """Each cell's label, row by row from the top; ``""`` for an empty cell."""

    pieces: tuple[str, str] = ("X", "O")
    """The labels of player 0's and player 1's pieces: a drawing colours a cell by its owner."""

    shape: Shape = "square"
    """Squares with their labels written in, or discs in a frame coloured by owner."""

    row_labels: tuple[str, ...] = ()
    """Labels drawn left of the rows (tic-tac-toe's ``0 1 2``); empty: none."""

    column_labels: tuple[str, ...] = ()
    """Labels drawn by the columns (Connect Four's ``1 .. 7``); empty: none."""

    column_labels_below: bool = False
    """Column labels under the grid (Connect Four) rather than over it."""

    @property
    def rows(self) -> int:
        """The number of rows."""
        return len(self.cells)

    @property
    def columns(self) -> int:
        """The number of columns."""
        return len(self.cells[0]) if self.cells else 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see ``docs/json.md``)."""
        return {"rows": self.rows, "columns": self.columns,
                "cells": [list(row) for row in self.cells], "pieces": list(self.pieces),
                "shape": self.shape, "row_labels": list(self.row_labels),
                "column_labels": list(self.column_labels),
                "column_labels_below": self.column_labels_below}


@dataclass(frozen=True)
class Heaps:
    """Heaps (rows) of counters: Nim's rows of sticks, a subtraction game's heap."""

    sizes: tuple[int, ...]
    """The counters in each heap now."""

    labels: tuple[str, ...] = ()
    """A label drawn before each heap (Nim's ``1.``, ``2.``); empty: none."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"sizes": [...], "labels": [...]}``."""
        return {"sizes": list(self.sizes), "labels": list(self.labels)}


@dataclass(frozen=True)
class TreeChild:
    """One child of a tree node, as its parent's drawing shows it."""

    label: str
    """The child's label (``B``)."""

    value: str | None = None
    """A leaf's value as text (``5``, ``win``); ``None`` for an inner node."""

    probability: str | None = None
    """Below a chance node, the probability of reaching this child (``9/10``)."""


@dataclass(frozen=True)
class TreeNode:
    """A node of an explicit game tree and its children (one per move, in order)."""

    label: str
    """The node's label."""

    role: Literal["MAX", "MIN", "CHANCE"]
    """``MAX`` if player 0 moves here, ``CHANCE`` where chance moves, else ``MIN``."""

    children: tuple[TreeChild, ...] = ()
    """The children, leftmost first: the move with ``child == i`` goes to ``children[i]``."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``label``, ``role`` and ``children`` (each ``label`` and ``value``,
        and below a chance node its ``probability``)."""
        return {"label": self.label, "role": self.role,
                "children": [{"label": kid.label, "value": kid.value} |
                             ({} if kid.probability is None else
                              {"probability": kid.probability})
                             for kid in self.children]}


@dataclass(frozen=True)
class View:
    """A position described for drawing (see the module's docstring)."""

    kind: ViewKind
    """Which of :attr:`grid`, :attr:`heaps` or :attr:`node` is set (``text``: none)."""

    text: str
    """The position as text, spacing kept (the game's ``render``): a ``text`` view's whole
    drawing, and every view's accessible description."""

    moves: tuple[MoveSpot, ...] = ()
    """The legal moves, in the game's order, each with where it acts."""

    separator: str = " "
    """What joins move texts into a moves text that the game's ``--moves`` splitter reads
    back: ``" "`` for most games, ``""`` for Connect Four's ``4455``."""

    grid: Grid | None = None
    """The cells, for a ``grid`` view."""

    heaps: Heaps | None = None
    """The heaps, for a ``heaps`` view."""

    node: TreeNode | None = None
    """The node and its children, for a ``tree`` view."""

    marks: tuple[Mark, ...] = ()
    """Cells to highlight: the last move, a winning line (``grid`` views)."""

    caption: str = ""
    """A line drawn under the board (``takes allowed: 3, 4, 5``); empty: none."""

    flippable: bool = False
    """Whether the drawing may be turned upside down for the second player (a grid turned by
    180 degrees reads the same; Connect Four's, with its gravity, does not)."""

    def __post_init__(self) -> None:
        parts = {"grid": self.grid, "heaps": self.heaps, "tree": self.node}
        for kind, part in parts.items():
            if (part is not None) != (self.kind == kind):
                raise ValueError(f"a {self.kind} view must {'' if self.kind == kind else 'not '}"
                                 f"have its {kind if kind != 'tree' else 'node'}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, documented in ``docs/json.md`` ("Positions")."""
        document: dict[str, Any] = {
            "kind": self.kind, "text": self.text, "separator": self.separator,
            "moves": [move.to_dict() for move in self.moves],
            "marks": [mark.to_dict() for mark in self.marks],
            "caption": self.caption, "flippable": self.flippable,
        }
        if self.grid is not None:
            document["grid"] = self.grid.to_dict()
        if self.heaps is not None:
            document["heaps"] = self.heaps.to_dict()
        if self.node is not None:
            document["node"] = self.node.to_dict()
        return document


def move_spots(game: Game[Any, Any], state: Any, moves: Sequence[Any] | None = None,
               **coordinates: Any) -> tuple[MoveSpot, ...]:
    """Plain :class:`MoveSpot` s (text only) for ``moves`` (default: every legal move)."""
    legal = game.moves(state) if moves is None else moves
    return tuple(MoveSpot(game.format_move(state, move), **coordinates) for move in legal)


def text_view(game: Game[Any, Any], state: Any) -> View:
    """The view of a game that declares none: its text and its moves as a list, no keys."""
    moves = () if game.outcome(state) is not None else move_spots(game, state)
    return View(kind="text", text=game.render(state), moves=moves)


def winning_cells(lines: Sequence[Sequence[Cell]], owner: Any) -> tuple[Mark, ...]:
    """``win`` marks on every cell of the ``lines`` whose cells ``owner(cell)`` says are all
    one player's (``owner`` gives a player number, or ``None`` for an empty cell)."""
    marked: dict[Cell, Mark] = {}
    for line in lines:
        owners = {owner(cell) for cell in line}
        if len(owners) == 1 and None not in owners:
            for cell in line:
                marked.setdefault(cell, Mark(cell, "win"))
    return tuple(marked.values())
