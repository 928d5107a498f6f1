"""Nim (normal play and misère, so also Sticks), compiled form (kernel), beside :mod:`.nim`.

The kernel state is the Python form's rows, empty rows added up to the kernel's row count
(:data:`ROW_CLASSES`), followed by the player to move, flattened into one tuple: ``(row 1, ...,
row n, player)``. A move taking ``count`` sticks from row ``row``
(0-based) is the integer ``row * 128 + count``, tried in the Python form's order (largest
takes first, then row by row). The table key is, like the Python form's, blind to the order of
the rows: the row sizes sorted, packed 7 bits each, and the player to move.

In normal play the winner always made the last move, so exact solving steps two plies at a
time; in misère play the last move loses, and the engine steps one ply at a time.
"""

# The rules are one factory of small closures, as the kernel contract asks: long by design.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiled.form import CompiledForm
from ..compiled.kernel import ONGOING, Kernel, KernelError, Rules, plain
from .nim import Nim

MAX_ROWS = 8
"""The most rows the kernel holds (sorted sizes packed 7 bits each in the key)."""

MAX_TOTAL = 250
"""The most sticks in all (one buffer slot per possible move). The kernel is compiled for this
many, whatever the rows, so one compilation serves many games (see :data:`ROW_CLASSES`)."""

ROW_CLASSES = (4, MAX_ROWS)
"""The row counts kernels are compiled for: a game with fewer rows is searched with empty rows
added at the end (they have no moves and change no key), so that every Nim of up to 4 rows
shares one compilation, and every Nim of 5 to 8 rows another."""

ROW_BASE = 128
"""Moves are ``row * ROW_BASE + count``."""


def rules(*, rows: int = 4, misere: bool = False,
          jit: Callable[..., Any] = plain) -> Rules:
    """Nim's rules on ``rows`` rows, compiled with ``jit``."""
    n = rows

    @jit
    def to_move(state: Any) -> int:
        return state[n]

    @jit
    def moves(state: Any, out: Any) -> int:
        most = 0
        for row in range(n):
            most = max(most, state[row])
        count = 0
        for take in range(most, 0, -1):  # largest takes first, then by row: the Python order
            for row in range(n):
                if take <= state[row]:
                    out[count] = row * ROW_BASE + take
                    count += 1
        return count

    play = _generated(_play_source(n), "play", jit)

    @jit
    def outcome(state: Any) -> int:
        for row in range(n):
            if state[row]:
                return ONGOING
        mover_won = misere
        return 1 if mover_won == (state[n] == 0) else -1

    @jit
    def evaluate(state: Any) -> int:
        """Bouton's rule, as the Python form's ``evaluate``: +1 if player 0 wins, else -1."""
        nim_sum = 0
        largest = 0
        for row in range(n):
            nim_sum ^= state[row]
            largest = max(largest, state[row])
        mover_wins = nim_sum == 0 if misere and largest <= 1 else nim_sum != 0
        return 1 if mover_wins == (state[n] == 0) else -1

    key = _generated(_key_source(n), "key", jit)

    @jit
    def plies_left(state: Any) -> int:
        total = 0
        for row in range(n):
            total += state[row]
        return total

    return {"to_move": to_move, "moves": moves, "play": play, "outcome": outcome,
            "evaluate": evaluate, "key": key, "plies_left": plies_left}


# ``play`` and ``key`` are written out for the number of rows: compiled code that builds a list
# per call allocates memory at every node (several times the cost of the search around it),
# while straight-line code on local integers allocates nothing.

def _play_source(n: int) -> str:
    """``play(state, move)``: the new tuple, the taken row lowered, the other player to move."""
    rows = ", ".join(f"state[{i}] - (take if row == {i} else 0)" for i in range(n))
    return (f"def play(state, move):\n"
            f"    row = move // {ROW_BASE}\n"
            f"    take = move % {ROW_BASE}\n"
            f"    return ({rows}, 1 - state[{n}])\n")


def _sorting_network(n: int) -> list[tuple[int, int]]:
    """Compare-exchange pairs that sort ``n`` values (odd-even transposition: n rounds)."""
    return [(i, i + 1) for round_ in range(n) for i in range(round_ % 2, n - 1, 2)]


def _key_source(n: int) -> str:
    """``key(state)``: the row sizes sorted (a sorting network), packed, and the mover."""
    lines = ["def key(state):"]
    lines += [f"    s{i} = state[{i}]" for i in range(n)]
    for low, high in _sorting_network(n):
        lines.append(f"    if s{low} > s{high}:")
        lines.append(f"        s{low}, s{high} = s{high}, s{low}")
    packed = "0"
    for i in range(n):
        packed = f"({packed}) * {ROW_BASE} + s{i}"
    lines.append(f"    return ({packed}) * 2 + state[{n}]")
    return "\n".join(lines) + "\n"


def _generated(source: str, name: str, jit: Callable[..., Any]) -> Any:
    """Compile the function ``name`` defined by ``source`` (with ``jit``)."""
    namespace: dict[str, Any] = {"__name__": __name__}  # cached code names its module
    exec(source, namespace)
    return jit(namespace[name])


def kernel(rows: tuple[int, ...], misere: bool = False) -> Kernel:
    """The compiled form of Nim on ``rows`` (``misere``: who takes the last stick loses), on
    the smallest of :data:`ROW_CLASSES` that holds them (empty rows added at the end)."""
    if len(rows) > MAX_ROWS:
        raise KernelError(f"the compiled form holds at most {MAX_ROWS} rows, not {len(rows)}")
    if sum(rows) > MAX_TOTAL:
        raise KernelError(f"the compiled form holds at most {MAX_TOTAL} sticks in all, "
                          f"not {sum(rows)}")
    width = _width(len(rows))
    return Kernel.from_factory(
        f"{'misère ' if misere else ''}Nim {width} rows", rules,
        initial_state=(*rows, *(0,) * (width - len(rows)), 0), max_moves=MAX_TOTAL,
        max_plies=MAX_TOTAL, parameters={"rows": width, "misere": misere},
        winner_moves_last=not misere,
    )


def _width(rows: int) -> int:
    """The rows of the kernel that holds a game of ``rows`` rows."""
    return next(width for width in ROW_CLASSES if rows <= width)


def compiled_form(game: Any) -> CompiledForm[tuple[tuple[int, ...], int], tuple[int, int]]:
    """The compiled form of ``game`` (a :class:`Nim`)."""
    assert isinstance(game, Nim)
    padding = (0,) * (_width(len(game.rows)) - len(game.rows))

    def encode(state: tuple[tuple[int, ...], int]) -> tuple[int, ...]:
        return (*state[0], *padding, state[1])

    return CompiledForm(game=game, kernel=kernel(game.rows, game.misere),
                        encode=encode, decode_move=_decode_move,
                        moves_need_state=False)


def _decode_move(state: tuple[tuple[int, ...], int], move: int) -> tuple[int, int]:
    return (move // ROW_BASE, move % ROW_BASE)
