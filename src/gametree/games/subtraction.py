"""Subtraction games: a heap of counters, each move takes an allowed number, who cannot move loses.

Seed 002 plays it with a heap of 21 and takes of 3, 4 or 5; the Game of Bones of seed 001 is
the same game with takes of 1, 2 or 3 (registered as ``bones``, see :mod:`.bones`). A move is
the number of counters taken, written as that number (``3``; ``take 3`` is accepted too).

The winner scores +1 and the loser -1 (seed 001 sets the score to +1 when the maximiser wins).
Sprague-Grundy theory says who wins: with takes {1, 2, 3} the player to move loses exactly when
the heap is a multiple of 4; with {3, 4, 5} exactly when ``heap % 8`` is 0, 1 or 2. The tests
check the searches against both rules.

A state is the tuple ``(heap, player to move)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..game import Game, IllegalMoveError
from ..numbers import is_digits, whole_number
from ..registry import GameOption, GameSpec
from ..values import Value
from ..view import Heaps, MoveSpot, View

if TYPE_CHECKING:
    from ..compiled.form import CompiledForm

SubtractionState = tuple[int, int]
"""``(counters left in the heap, player to move)``."""

MAX_HEAP = 1_000_000
"""The largest heap accepted: searches go one take at a time, so keep heaps sensible."""


class SubtractionGame(Game[SubtractionState, int]):
    """Take one of the allowed amounts from a single heap; the player who cannot move loses."""

    def __init__(self, heap: int = 21, takes: Iterable[int] = (3, 4, 5), *,
                 name: str = "subtraction") -> None:
        """A heap of ``heap`` counters; each move removes one of the amounts in ``takes``."""
        amounts = sorted(set(takes))
        if not amounts or any(isinstance(t, bool) or not isinstance(t, int) or t < 1
                              for t in amounts):
            raise ValueError(f"takes must be one or more whole numbers >= 1, got {takes!r}")
        if isinstance(heap, bool) or not isinstance(heap, int) or not 0 <= heap <= MAX_HEAP:
            raise ValueError(f"heap must be a whole number from 0 to {MAX_HEAP}, got {heap!r}")
        self.heap = heap
        self.takes: tuple[int, ...] = tuple(amounts)
        self.name = name

    def initial_state(self) -> SubtractionState:
        """The full heap, the first player to move."""
        return (self.heap, 0)

    def to_move(self, state: SubtractionState) -> int:
        """The second item of the state."""
        return state[1]

    def moves(self, state: SubtractionState) -> list[int]:
        """The allowed takes that fit in the heap, largest first (as seed 002 tries 5, 4, 3).

        Large takes end the game sooner, so alpha-beta meets short wins first: the reference
        search solves Bones 28 in 30 000 nodes this way, 2.7 million smallest first.
        """
        return [take for take in reversed(self.takes) if take <= state[0]]

    def play(self, state: SubtractionState, move: int) -> SubtractionState:
        """Take ``move`` counters; the other player moves next."""
        return (state[0] - move, 1 - state[1])

    def outcome(self, state: SubtractionState) -> Value | None:
        """Once no take fits, the player to move has lost: -1 if that is player 0, else +1."""
        if state[0] >= self.takes[0]:
            return None
        return -1 if state[1] == 0 else 1

    def format_move(self, state: SubtractionState, move: int) -> str:
        """The number taken (``3``)."""
        return str(move)

    def parse_move(self, state: SubtractionState, text: str) -> int:
        """A number of counters to take: ``3`` or ``take 3``."""
        wanted = text.strip().lower()
        if wanted.startswith("take"):
            wanted = wanted[len("take"):].strip()
        legal = self.moves(state)
        if not legal:
            raise IllegalMoveError("the game is over: no take fits in the heap")
        allowed = ", ".join(map(str, self.takes))
        if not is_digits(wanted):
            raise IllegalMoveError(f"{text.strip()!r} is not a move: write how many to take "
                                   f"({allowed})")
        take = int(wanted)
        if take not in self.takes:
            raise IllegalMoveError(f"taking {take} is not allowed: the takes are {allowed}")
        if take not in legal:
            raise IllegalMoveError(f"cannot take {take}: only {state[0]} left in the heap")
        return take

    def compiled_form(self) -> CompiledForm[SubtractionState, int]:
        """The compiled form (:mod:`gametree.games.subtraction_kernel`); raises
        :class:`gametree.compiled.KernelError` for takes the kernel cannot hold."""
        from .subtraction_kernel import compiled_form  # noqa: PLC0415 - the kernel imports this module

        return compiled_form(self)

    def view(self, state: SubtractionState, last: int | None = None) -> View:
        """One heap labelled with its size; a move takes its count from it, and the key of
        its count plays it (``3`` takes 3) when the count is one digit."""
        moves = tuple(MoveSpot(self.format_move(state, move), label=f"take {move}",
                               key=str(move) if move <= 9 else None, heap=0, count=move)
                      for move in self.moves(state))
        return View(kind="heaps", text=self.render(state), moves=moves,
                    heaps=Heaps((state[0],), (f"heap: {state[0]}",)),
                    caption=f"takes allowed: {', '.join(map(str, self.takes))}")

    def render(self, state: SubtractionState) -> str:
        """The heap as a number and a row of counters (up to 60 drawn)."""
        heap = state[0]
        marks = "|" * min(heap, 60) + ("..." if heap > 60 else "")
        allowed = ", ".join(map(str, self.takes))
        return f"heap: {heap} {marks}\ntakes allowed: {allowed}"


def parse_takes(text: str) -> tuple[int, ...]:
    """``"3,4,5"`` -> ``(3, 4, 5)``: distinct whole numbers >= 1."""
    try:
        takes = tuple(whole_number(part) for part in text.replace(" ", ",").split(",") if part)
    except ValueError:
        raise ValueError(f"expected whole numbers separated by commas, such as 3,4,5; "
                         f"got {text!r}") from None
    if not takes or min(takes) < 1 or max(takes) > MAX_HEAP:
        raise ValueError(f"expected whole numbers from 1 to {MAX_HEAP} separated by commas, "
                         f"such as 3,4,5; got {text if len(text) <= 40 else text[:37] + '...'!r}")
    return takes


def parse_heap(text: str) -> int:
    """A heap size: a whole number from 0 to :data:`MAX_HEAP`."""
    try:
        heap = whole_number(text)
    except ValueError:
        raise ValueError(f"expected a whole number, got {text!r}") from None
    if not 0 <= heap <= MAX_HEAP:
        raise ValueError(f"expected a whole number from 0 to {MAX_HEAP}, got {text!r}")
    return heap


def build(heap: int = 21, takes: tuple[int, ...] = (3, 4, 5)) -> SubtractionGame:
    """The ``subtraction`` game from its command-line options."""
    return SubtractionGame(heap, takes)


NOTATION = "the number of counters to take (3), or take 3"

MOVE_TOKEN = re.compile(r"take\s+[^\s;,]+|[^\s;,]+", re.IGNORECASE)
"""One move of a ``--moves`` text: ``take 3`` or ``3`` (the same texts as at the prompt)."""


def split_moves(text: str) -> list[str]:
    """Split a ``--moves`` text into moves: ``"3 take 4, 5"`` -> ``["3", "take 4", "5"]``."""
    return MOVE_TOKEN.findall(text)

SPEC = GameSpec(
    name="subtraction",
    summary="a subtraction game (seed 002): take an allowed number from a heap; "
            "who cannot move loses",
    notation=NOTATION,
    build=build,
    split_moves=split_moves,
    options=(
        GameOption("heap", "counters in the heap at the start", parse_heap, 21, metavar="N"),
        GameOption("takes", "the numbers a move may take", parse_takes, (3, 4, 5),
                   metavar="3,4,5"),
    ),
)
