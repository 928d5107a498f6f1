"""A position's :class:`gametree.view.View` drawn as text for the terminal.

The same declaration the web page draws from: a grid with its row and column labels, heaps as
rows of ``|``, and a tree or a text view as the game's own text (``render``). With colour on,
a winning line and the last move stand out; without it the text is the same, letter for letter.
"""

from __future__ import annotations

from ..view import Grid, Heaps, View
from .style import Style

EMPTY = "."
"""How an empty grid cell is written."""

MAX_COUNTERS = 60
"""The most counters drawn in one heap; more are written as ``...``."""


def draw(view: View, style: Style | None = None) -> str:
    """``view`` as text (several lines), painted with ``style`` if given and enabled."""
    paint = style if style is not None else Style(False)
    if view.grid is not None:
        lines = _grid(view, view.grid, paint)
    elif view.heaps is not None:
        lines = _heaps(view.heaps)
    else:
        return view.text
    if view.caption:
        lines.append(view.caption)
    return "\n".join(lines)


def _grid(view: View, grid: Grid, style: Style) -> list[str]:
    width = max([1, *map(len, grid.column_labels), *(len(cell) for row in grid.cells
                                                      for cell in row)])
    label_width = max([0, *map(len, grid.row_labels)])
    indent = " " * (label_width + 1) if grid.row_labels else ""
    columns = indent + " ".join(label.rjust(width) for label in grid.column_labels)
    marked = {mark.cell: mark.kind for mark in view.marks}
    lines = [columns] if grid.column_labels and not grid.column_labels_below else []
    for row, cells in enumerate(grid.cells):
        drawn = []
        for col, cell in enumerate(cells):
            text = (cell or EMPTY).rjust(width)
            kind = marked.get((row, col))
            drawn.append(style.paint(text, "green", "bold") if kind == "win" else
                         style.paint(text, "yellow", "bold") if kind == "last" else text)
        label = grid.row_labels[row].rjust(label_width) + " " if grid.row_labels else ""
        lines.append(label + " ".join(drawn))
    if grid.column_labels and grid.column_labels_below:
        lines.append(columns)
    return lines


def _heaps(heaps: Heaps) -> list[str]:
    label_width = max([0, *map(len, heaps.labels)])
    lines = []
    for index, size in enumerate(heaps.sizes):
        label = heaps.labels[index].rjust(label_width) + " " if heaps.labels else ""
        counters = "|" * min(size, MAX_COUNTERS) + ("..." if size > MAX_COUNTERS else "")
        lines.append((label + counters).rstrip())
    return lines
