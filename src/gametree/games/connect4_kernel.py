"""Connect Four's compiled form (kernel): bitboards and the threat hooks of Pons' solver.

The board is Pascal Pons' layout: ``height + 1`` bits per column, bottom row first, columns
left to right; the spare bit on top of each column makes "the cell above the top stone" a
single addition (``mask + bottom``). A state is ``(current, mask, moves)``: the stones of the
player to move, all stones, and how many have been played. Moves are encoded as the single bit
of the cell they fill, so that ``play`` is two bit operations; :func:`column_of` turns a move
back into its column.

The solver's tricks are the kernel's hooks, not special cases in the engine:

* ``can_win_next`` — the engine's immediate-win check before a search;
* ``non_losing_moves`` — Pons' ``possibleNonLosingMoves``: if the opponent threatens to win in
  one place, that move is forced; in two places, the game is lost; and no move is played just
  below an opponent's winning cell;
* ``move_score`` — the number of winning cells a move creates (Pons' ``moveScore``), so moves
  that build threats are tried first (ties keep the centre-first column order); past the
  opening, weighted by how soon each can be played;
* ``plies_left`` — cells still empty, which bounds every result (Pons' min/max scores);
* ``key`` — ``current + mask``, a unique 64-bit key of the position (Pons' key: unlike the
  Python form's :meth:`~gametree.games.connect4.ConnectFour.key`, it tells a board and its mirror
  image apart).

Boards from 4x4 to 9x9 fit as long as ``width * (height + 1) <= 64`` (7x6 uses 49 bits; 8x7 all
64). Pure-Python calls (``jit=plain``) give the same results on Python integers: every left
shift that could pass bit 63 is masked to the board before it is used.
"""

# The rules are one factory of small closures, as the kernel contract asks: long by design.
# ruff: noqa: PLR0915
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiled.form import CompiledForm
from ..compiled.kernel import (
    NO_REPLY,
    NO_UPPER_BOUND,
    ONGOING,
    SEVERAL_REPLIES,
    Kernel,
    KernelError,
    Rules,
    plain,
)
from .connect4 import C4State, ConnectFour

MIN_SIZE = 4
MAX_SIZE = 9
BITS = 64
TABLE_MIN_PLIES_LEFT = 10
"""Positions with fewer empty cells are searched without the table (the kernel's
``table_min_plies_left``): the quickest of 4, 6, 8, 10 and 12 on the empty 6x5, 7x5, 6x6
and 7x6 boards (docs/kernels.md, "Whole-board solving hooks")."""
COUNT_ONLY_BELOW = 16
"""Stones before which ``move_score`` is the plain count of the threats a move creates (see
there). Early in a game the quick wins that Pons' probes look for are double threats built
from the most threats, which the count plays first and the weighting by height did not: his
L1_R1 positions (4 to 14 stones) searched a third fewer positions; later, the weighting
searches fewer on whole boards (docs/benchmarks.md, "A small table for short solves, and
Pons' order early in a game")."""


def check_size(width: int, height: int) -> None:
    """Raise :class:`KernelError` unless a ``width`` x ``height`` board fits the bitboard."""
    for name, value in (("width", width), ("height", height)):
        if not MIN_SIZE <= value <= MAX_SIZE:
            raise KernelError(f"{name} must be within {MIN_SIZE}..{MAX_SIZE}, got {value}")
    if width * (height + 1) > BITS:
        raise KernelError(f"a {width}x{height} board needs {width * (height + 1)} bits; the "
                         f"compiled form holds width * (height + 1) <= {BITS}")


def column_of(move: int, height: int) -> int:
    """The column (0-based) of a move given as its cell's bit."""
    return (move.bit_length() - 1) // (height + 1)


def rules(*, width: int = 7, height: int = 6,
          jit: Callable[..., Any] = plain) -> Rules:
    """Connect Four's rules on a ``width`` x ``height`` board, compiled with ``jit``."""
    check_size(width, height)
    # The Python form's board constants, column order (centre first, so both forms break
    # ties alike) and centre weighting: (weight, cells) groups, see ConnectFour.evaluate.
    game = ConnectFour(width, height)
    bottom, board, weights = game.bottom_row, game.board, game.weights
    h1 = height + 1
    size = width * height
    column_masks = tuple(((1 << height) - 1) << (col * h1) for col in game.order)
    h2 = height + 2
    column1 = (1 << h1) - 1  # one column with its spare bit
    # Rows 2, 4, ... counted from 1 (Allis' "even" cells): with an even height, a player who
    # answers every move in the same column (claimeven) takes all of them.
    even_cells = sum(((1 << height) - 1) // 3 << (col * h1 + 1) for col in range(width))
    even_height = height % 2 == 0
    # The cells of the lowest 2, 4, ... rows (1-based), each with the move number by which a
    # four whose empty cells all lie in them is complete, however the game is played: then
    # only the cells above row r of one column can still be empty (see upper_bound).
    low_rows = tuple((sum(((1 << rows) - 1) << (col * h1) for col in range(width)),
                      size - height + rows) for rows in range(2, height + 1, 2))
    # Where a four may lie, by direction: the cells that start one (the other three are the
    # next cells at ``shift``, ``2 * shift`` and ``3 * shift``).
    window_starts = tuple((shift, board & (board >> shift) & (board >> (2 * shift))
                           & (board >> (3 * shift))) for shift in (1, h1, height, h2))
    # Look children up in the table while more than 18 cells are empty (with 15, as Steininger's
    # solver, the empty boards searched fewer positions but took 5-8% longer: see
    # docs/kernels.md, "Whole-board solving hooks").
    cutoff_plies = size - 18
    # The search calls the functions decorated with this for every move it looks at
    # (move_score, non_losing and its two users, upper_bound and the outrun it calls on even
    # heights): numba writes them into it instead of calls, which LLVM keeps for functions of
    # their size. The whole boards and Pons' sets take 4-9% less time (docs/kernels.md,
    # "Inlining the hot rules"); LLVM inlines the smaller rules by itself.
    inlined: Callable[..., Any] = jit(inline="always")

    @jit
    def winning_cells(position: int, mask: int) -> int:
        """Empty cells that would complete four for the owner of ``position``."""
        r = (position << 1) & (position << 2) & (position << 3)  # vertical
        for shift in (h1, height, h2):  # horizontal, both diagonals
            p = (position << shift) & (position << (2 * shift))
            r |= p & (position << (3 * shift))
            r |= p & (position >> shift)
            p = (position >> shift) & (position >> (2 * shift))
            r |= p & (position << shift)
            r |= p & (position >> (3 * shift))
        return r & (board ^ mask)

    @jit
    def has_four(position: int) -> bool:
        """True if ``position`` holds four in a row."""
        for shift in (1, h1, height, h2):
            m = position & (position >> shift)
            if m & (m >> (2 * shift)):
                return True
        return False

    @jit
    def popcount(bits: int) -> int:
        count = 0
        while bits:
            bits &= bits - 1
            count += 1
        return count

    @jit
    def possible(mask: int) -> int:
        """The cells where a stone can be dropped now."""
        return (mask + bottom) & board

    @jit
    def listed(free: int, out: Any) -> int:
        """The cells of ``free`` (one per column at most) into ``out``, in the column order;
        their count. Without a branch per column (whether a column has a move is hard to
        predict: the branches cost the whole-board solves about a tenth of their time): each column
        writes its slot, and only a move moves on to the next."""
        count = 0
        for column_mask in column_masks:
            move = free & column_mask
            out[count] = move  # the last column's slot is within out: count < width here
            count += move != 0
        return count

    @jit
    def to_move(state: tuple[int, int, int]) -> int:
        return state[2] & 1

    @jit
    def moves(state: tuple[int, int, int], out: Any) -> int:
        return listed(possible(state[1]), out)

    @jit
    def play(state: tuple[int, int, int], move: int) -> tuple[int, int, int]:
        current, mask, played = state
        return current ^ mask, mask | move, played + 1

    @jit
    def outcome(state: tuple[int, int, int]) -> int:
        current, mask, played = state
        if has_four(current ^ mask):  # the player who just moved
            return 1 if (played - 1) & 1 == 0 else -1
        if played == size:
            return 0
        return ONGOING

    @jit
    def evaluate(state: tuple[int, int, int]) -> int:
        """The Python form's centre weighting: each stone is worth the number of four-cell
        lines through its cell; player 0's total minus player 1's."""
        current, mask, played = state
        first = current if played & 1 == 0 else current ^ mask
        second = first ^ mask
        score = 0
        for weight, cells in weights:
            score += weight * (popcount(first & cells) - popcount(second & cells))
        return score

    @jit
    def key(state: tuple[int, int, int]) -> int:
        return state[0] + state[1]

    @inlined
    def move_score(state: tuple[int, int, int], move: int) -> int:
        """The threats (winning cells) the move creates. A cell just above one of the
        opponent's winning cells counts for nothing (the opponent wins or is blocked first).
        Before :data:`COUNT_ONLY_BELOW` stones, their number alone (Pons' order); later, each
        weighted by how soon it can be played: just above a cell playable next 31, two above
        24, anywhere 19."""
        # The opponent's winning cells do not depend on the move (but for the cell it fills):
        # computed from the state alone, the engine computes them once for all the moves.
        blocked = (winning_cells(state[0] ^ state[1], state[1]) & ~move) << 1
        mine = state[0] | move
        mask = state[1] | move
        threats = winning_cells(mine, mask) & ~blocked
        if state[2] < COUNT_ONLY_BELOW:
            return popcount(threats)
        above = (possible(mask) << 1) & board
        return (12 * popcount(threats & above) + 5 * popcount(threats & (above << 1))
                + 19 * popcount(threats))

    @jit
    def can_win_next(state: tuple[int, int, int]) -> bool:
        return (winning_cells(state[0], state[1]) & possible(state[1])) != 0

    @inlined
    def non_losing(state: tuple[int, int, int]) -> int:
        """The cells where the player to move can play without letting the opponent win at
        once (a move is the cell its stone lands on)."""
        current, mask = state[0], state[1]
        free = possible(mask)
        threats = winning_cells(current ^ mask, mask)
        forced = free & threats
        if forced:
            if forced & (forced - 1):  # two threats at once: every move loses
                return 0
            free = forced
        return free & ~(threats >> 1)  # never play just below the opponent's winning cell

    @inlined
    def non_losing_moves(state: tuple[int, int, int], out: Any) -> int:
        return listed(non_losing(state), out)

    @inlined
    def forced_reply(state: tuple[int, int, int]) -> int:
        free = non_losing(state)
        if free == 0:
            return NO_REPLY
        if free & (free - 1):  # a second cell: a choice
            return SEVERAL_REPLIES
        return free  # the one cell, which is the move

    @jit
    def plies_left(state: tuple[int, int, int]) -> int:
        return size - state[2]

    @jit
    def mirror(bits: int) -> int:
        """A bitboard reflected left to right."""
        result = 0
        for col in range(width):
            result |= ((bits >> (col * h1)) & column1) << ((width - 1 - col) * h1)
        return result

    @jit
    def mirror_key(state: tuple[int, int, int]) -> int:
        return mirror(state[0] + state[1])

    @inlined
    def outrun(mine: int, theirs: int, mask: int) -> bool:
        """Is every four the mover can complete within ``mine`` beaten to it by one of the
        opponent's within ``theirs``, whose empty cells all lie below empty cells of the
        mover's four (in their columns: filled first, whatever the order of play)? Gives up
        (False) beyond a few of the mover's fours."""
        empty = board ^ mask
        seen = 0
        for shift, starts in window_starts:
            fours = starts & mine & (mine >> shift) & (mine >> (2 * shift)) \
                & (mine >> (3 * shift))
            while fours:
                start = fours & -fours
                fours ^= start
                seen += 1
                if seen > 6:
                    return False
                below = (start | (start << shift) | (start << (2 * shift))
                         | (start << (3 * shift))) & empty
                for _ in range(height - 1):  # and every cell under them in their columns
                    below |= (below >> 1) & board
                if not has_four(theirs & (mask | below)):
                    return False
        return True

    @inlined
    def upper_bound(state: tuple[int, int, int]) -> int:
        """A draw at best when no four can be completed any more, or (an even height, an
        even number of stones played) when the opponent's claimeven leaves the mover no four
        (or only fours that one of the opponent's beats, see :func:`outrun`); a loss when
        that claimeven completes one of the opponent's: by the move at which every cell of
        one of its fours must be filled."""
        current, mask, played = state
        empty = board ^ mask
        if even_height and played & 1 == 0:
            # The opponent answers in the column just played: it gets every even cell not
            # playable now (and the mover at most all the others).
            theirs = (current ^ mask) | (even_cells & empty & ~possible(mask))
            if has_four(board & ~theirs) and not outrun(board & ~theirs, theirs, mask):
                return NO_UPPER_BOUND
            if not has_four(theirs):
                return 0
            # The opponent's four is complete by the move at which its highest empty cell
            # must be filled; the earliest such four decides.
            for rows, latest in low_rows:
                if has_four(theirs & (mask | rows)):
                    return -(latest - played)
            return -(size - played)
        if not has_four(current | empty):
            return 0
        return NO_UPPER_BOUND

    @jit
    def enhanced_cutoffs(state: tuple[int, int, int]) -> bool:
        return state[2] < cutoff_plies

    return {
        "to_move": to_move, "moves": moves, "play": play, "outcome": outcome,
        "evaluate": evaluate, "key": key, "move_score": move_score,
        "can_win_next": can_win_next, "non_losing_moves": non_losing_moves,
        "plies_left": plies_left, "mirror_key": mirror_key, "upper_bound": upper_bound,
        "enhanced_cutoffs": enhanced_cutoffs, "forced_reply": forced_reply,
    }


def kernel(width: int = 7, height: int = 6) -> Kernel:
    """The compiled form of Connect Four on a ``width`` x ``height`` board."""
    check_size(width, height)

    def format_move(state: Any, move: int) -> str:
        return str(column_of(move, height) + 1)

    return Kernel.from_factory(
        f"Connect Four {width}x{height}", rules, initial_state=(0, 0, 0), max_moves=width,
        max_plies=width * height, parameters={"width": width, "height": height},
        winner_moves_last=True, table_min_plies_left=TABLE_MIN_PLIES_LEFT,
        player_names=("X", "O"), format_move=format_move,
    )


def compiled_form(game: Any) -> CompiledForm[C4State, int]:
    """The compiled form of ``game`` (a :class:`ConnectFour`); raises :class:`KernelError` for a
    board that does not fit 64 bits."""
    assert isinstance(game, ConnectFour)
    height = game.height

    def decode_move(state: C4State, move: int) -> int:
        return column_of(move, height)

    return CompiledForm(game=game, kernel=kernel(game.width, game.height), encode=encode,
                        decode_move=decode_move, moves_need_state=False)


def encode(state: C4State) -> tuple[int, int, int]:
    """The Python form's ``(current, mask, won)`` as the kernel's ``(current, mask, played)``
    (whether the last move won, the kernel sees on the board itself)."""
    return (state[0], state[1], state[1].bit_count())
