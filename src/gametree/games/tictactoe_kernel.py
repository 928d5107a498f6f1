"""Tic-tac-toe and the m,n,k-games, compiled form (kernel), beside :mod:`.tictactoe`.

The kernel state is the Python form's :class:`~.tictactoe.Board` as a plain tuple ``(x, o,
winner)``: X's cells and O's cells as bit masks (bit ``row*cols + col``) and the winner (0, 1,
or -1 while nobody has a line). Moves are cell numbers, as in the Python form, in the same
order (row by row), so both forms break ties between equally good moves alike.

Besides the rules the kernel has the threat hooks (see docs/kernels.md): a player who can
complete a line wins at once; a player facing two completable lines of the opponent has lost;
one such line must be blocked. ``move_score`` prefers cells on many lines (the centre first,
like the Python form's ``order_moves``) and the heuristic is the Python form's: ``n²`` for
each line holding ``n`` marks of one player only.

The compiled form fits boards of up to 62 cells (two masks in 64-bit integers); the table key
packs both masks, so boards of more than 31 cells are searched without a table.
"""

# The rules are one factory of small closures, as the kernel contract asks: long by design.
# ruff: noqa: PLR0915
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiled.form import CompiledForm, same_move
from ..compiled.kernel import ONGOING, Kernel, KernelError, Rules, plain
from .tictactoe import NOBODY, WIN_UTILITY, Board, MNKGame

MAX_CELLS = 62
"""The largest board the kernel holds (X's and O's masks in 64-bit integers)."""


def rules(*, rows: int = 3, cols: int = 3, k: int = 3,
          jit: Callable[..., Any] = plain) -> Rules:
    """The m,n,k-game's rules, compiled with ``jit``."""
    cells = rows * cols
    if cells > MAX_CELLS:
        raise KernelError(f"the compiled form holds at most {MAX_CELLS} cells, "
                          f"not {rows}x{cols}")
    full = (1 << cells) - 1
    game = MNKGame(rows, cols, k)  # its lines as bit masks (same order), and each cell's count
    lines = game.lines
    weights = tuple(len(through) for through in game.lines_through)
    with_key = 2 * cells <= 62

    @jit
    def popcount(bits: int) -> int:
        count = 0
        while bits:
            bits &= bits - 1
            count += 1
        return count

    @jit
    def winning_cells(mine: int, taken: int) -> int:
        """Empty cells that would complete a line for the owner of ``mine``."""
        found = 0
        for line in lines:
            missing = line & ~mine
            # one cell short, and that cell empty (the line holds no opponent's mark)
            if missing and not (missing & (missing - 1)) and not (taken & missing):
                found |= missing
        return found

    @jit
    def to_move(state: tuple[int, int, int]) -> int:
        return 0 if popcount(state[0]) == popcount(state[1]) else 1

    @jit
    def moves(state: tuple[int, int, int], out: Any) -> int:
        free = full & ~(state[0] | state[1])
        count = 0
        for cell in range(cells):
            if free >> cell & 1:
                out[count] = cell
                count += 1
        return count

    @jit
    def play(state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
        x, o, _winner = state
        bit = 1 << move
        player = 0 if popcount(x) == popcount(o) else 1
        mine = (x if player == 0 else o) | bit
        won = False
        for line in lines:
            if line & bit and mine & line == line:
                won = True
        winner = player if won else NOBODY
        if player == 0:
            return mine, o, winner
        return x, mine, winner

    @jit
    def outcome(state: tuple[int, int, int]) -> int:
        x, o, winner = state
        if winner == 0:
            return WIN_UTILITY
        if winner == 1:
            return -WIN_UTILITY
        if x | o == full:
            return 0
        return ONGOING

    @jit
    def evaluate(state: tuple[int, int, int]) -> int:
        x, o, _winner = state
        score = 0
        for line in lines:
            mine, theirs = x & line, o & line
            if mine and not theirs:
                n = popcount(mine)
                score += n * n
            elif theirs and not mine:
                n = popcount(theirs)
                score -= n * n
        return score

    @jit
    def key(state: tuple[int, int, int]) -> int:
        return state[0] | (state[1] << cells)

    @jit
    def move_score(state: tuple[int, int, int], move: int) -> int:
        return weights[move]

    @jit
    def can_win_next(state: tuple[int, int, int]) -> bool:
        x, o, _winner = state
        mine = x if popcount(x) == popcount(o) else o
        return winning_cells(mine, x | o) != 0

    @jit
    def non_losing_moves(state: tuple[int, int, int], out: Any) -> int:
        x, o, _winner = state
        theirs = o if popcount(x) == popcount(o) else x
        taken = x | o
        free = full & ~taken
        threats = winning_cells(theirs, taken)
        if threats:
            if threats & (threats - 1):  # two cells to block at once: lost
                return 0
            free = threats
        count = 0
        for cell in range(cells):
            if free >> cell & 1:
                out[count] = cell
                count += 1
        return count

    @jit
    def plies_left(state: tuple[int, int, int]) -> int:
        return cells - popcount(state[0] | state[1])

    functions: dict[str, Callable[..., Any]] = {
        "to_move": to_move, "moves": moves, "play": play, "outcome": outcome,
        "evaluate": evaluate, "move_score": move_score, "can_win_next": can_win_next,
        "non_losing_moves": non_losing_moves, "plies_left": plies_left,
    }
    if with_key:
        functions["key"] = key
    return functions


def kernel(rows: int = 3, cols: int = 3, k: int = 3) -> Kernel:
    """The compiled form of the ``rows`` x ``cols`` game with ``k`` in a row."""
    cells = rows * cols
    if cells > MAX_CELLS:
        raise KernelError(f"the compiled form holds at most {MAX_CELLS} cells, "
                          f"not {rows}x{cols}")
    game = MNKGame(rows, cols, k)

    def format_move(state: Any, move: int) -> str:
        return game.format_move(Board(*state), move)

    def render(state: Any) -> str:
        return game.render(Board(*state))

    return Kernel.from_factory(
        f"tic-tac-toe {rows}x{cols} k={k}" if (rows, cols, k) != (3, 3, 3) else "tic-tac-toe",
        rules, initial_state=(0, 0, NOBODY), max_moves=cells, max_plies=cells,
        parameters={"rows": rows, "cols": cols, "k": k}, winner_moves_last=True,
        player_names=("X", "O"), format_move=format_move, render=render,
    )


def compiled_form(game: Any) -> CompiledForm[Board, int]:
    """The compiled form of ``game`` (an :class:`MNKGame`); raises ``ValueError`` if its board
    is too large for the kernel."""
    assert isinstance(game, MNKGame)
    return CompiledForm(game=game, kernel=kernel(game.rows, game.cols, game.k),
                        encode=_encode, decode_move=same_move)


def _encode(state: Board) -> tuple[int, int, int]:
    return (state.x, state.o, state.winner)

