"""The words of a UCI command line, read into values: ``go``'s limits, ``position``'s start and
moves, ``setoption``'s name and value.

Each reader takes the words after the command and returns what they say, or raises
:class:`UciError` with a sentence for the GUI (the engine answers it as ``info string``).
Unknown words inside a command are collected, not fatal: the UCI protocol asks an engine to
ignore what it does not understand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class UciError(ValueError):
    """A command the engine cannot follow; the message says why, in one line."""


GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
              "movetime")
"""The words of ``go`` followed by a whole number."""

GO_FLAGS = ("infinite", "ponder")
"""The words of ``go`` that stand alone."""


@dataclass(frozen=True)
class Go:
    """What ``go`` asks: every limit given (``None``: not given). Times are in milliseconds,
    as UCI sends them (a clock that went below zero reads as 0)."""

    wtime: int | None = None
    """White's time left on the clock."""
    btime: int | None = None
    """Black's time left on the clock."""
    winc: int | None = None
    """White's increment per move."""
    binc: int | None = None
    """Black's increment per move."""
    movestogo: int | None = None
    """Moves until the next time control (``None``: the rest of the game is on the clock)."""
    depth: int | None = None
    """Plies to search."""
    nodes: int | None = None
    """Positions to search."""
    mate: int | None = None
    """Look for a mate in this many moves."""
    movetime: int | None = None
    """Exactly this long to think."""
    infinite: bool = False
    """Search until ``stop``."""
    ponder: bool = False
    """Search the position after the expected reply, until ``ponderhit`` or ``stop``."""
    searchmoves: tuple[str, ...] = ()
    """The root moves the search is restricted to (UCI notation)."""
    ignored: tuple[str, ...] = field(default=(), compare=False)
    """Words that were not understood (the engine says so in an ``info string``)."""

    @property
    def waits_for_stop(self) -> bool:
        """True if ``bestmove`` must wait for ``stop`` (or ``ponderhit``) even when the search
        ends by itself."""
        return self.infinite or self.ponder


def parse_go(words: Sequence[str]) -> Go:
    """The limits of ``go WORDS...``. A limit whose number is missing or not a whole number
    is an error; an unknown word is ignored (listed in :attr:`Go.ignored`)."""
    numbers: dict[str, Any] = {}
    flags: dict[str, Any] = {}
    moves: list[str] = []
    ignored: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in GO_NUMBERS:
            if index >= len(words):
                raise UciError(f"go {word}: a number is missing")
            numbers[word] = _whole_number(f"go {word}", words[index])
            index += 1
        elif word in GO_FLAGS:
            flags[word] = True
        elif word == "searchmoves":
            while index < len(words) and words[index] not in GO_NUMBERS + GO_FLAGS:
                moves.append(words[index])
                index += 1
        else:
            ignored.append(word)
    for name in ("depth", "nodes", "mate", "movestogo"):
        if numbers.get(name, 1) <= 0:
            raise UciError(f"go {name}: expected a number above 0, got {numbers[name]}")
    for name in ("wtime", "btime", "winc", "binc", "movetime"):
        if name in numbers:
            numbers[name] = max(0, numbers[name])
    return Go(**numbers, **flags, searchmoves=tuple(moves), ignored=tuple(ignored))


def _whole_number(what: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UciError(f"{what}: expected a whole number, got {text!r}") from None


STARTPOS = "startpos"
"""``position startpos``: the initial position."""


@dataclass(frozen=True)
class PositionCommand:
    """What ``position`` says: a FEN (``None``: the initial position) and the moves played
    from it, in UCI notation."""

    fen: str | None
    moves: tuple[str, ...]


def parse_position(words: Sequence[str]) -> PositionCommand:
    """``position startpos [moves M...]`` or ``position fen FEN [moves M...]`` (the FEN is the
    words up to ``moves``)."""
    if not words:
        raise UciError("position: expected 'startpos' or 'fen FEN', then 'moves ...'")
    head, rest = words[0], list(words[1:])
    split = rest.index("moves") if "moves" in rest else len(rest)
    before, moves = rest[:split], tuple(rest[split + 1:])
    if head == STARTPOS:
        if before:
            raise UciError(f"position startpos: unexpected {' '.join(before)!r} before "
                           f"'moves'")
        return PositionCommand(None, moves)
    if head == "fen":
        if not before:
            raise UciError("position fen: the FEN is missing")
        return PositionCommand(" ".join(before), moves)
    raise UciError(f"position: expected 'startpos' or 'fen', got {head!r}")


def parse_setoption(words: Sequence[str]) -> tuple[str, str | None]:
    """``setoption name NAME [value VALUE]``: the name and the value (``None`` for a button);
    both may contain spaces."""
    if not words or words[0] != "name":
        raise UciError("setoption: expected 'name NAME [value VALUE]'")
    rest = list(words[1:])
    split = rest.index("value") if "value" in rest else len(rest)
    name = " ".join(rest[:split])
    if not name:
        raise UciError("setoption: the option's name is missing")
    value = " ".join(rest[split + 1:]) if split < len(rest) else None
    return name, value


__all__ = ["GO_FLAGS", "GO_NUMBERS", "STARTPOS", "Go", "PositionCommand", "UciError",
           "parse_go", "parse_position", "parse_setoption"]
