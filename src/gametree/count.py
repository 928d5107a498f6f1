"""Counting a game's move sequences and positions, depth by depth: the "perft" of chess engines.

Counting is the standard check of a game's rules: a bug in move generation or in detecting the
end of a game changes the numbers, and the right numbers are known for many games (tic-tac-toe
has 255168 possible games and 5478 distinct positions; Connect Four on 4 columns x 4 rows has
161029 positions).

Sequences are never enumerated one by one. The count goes forward a ply at a time and keeps
one entry per distinct position (equal states) with the number of sequences that reach it:
the sequences reaching a position are the sum over the positions one ply earlier of theirs, so
a position reached by a million orders of moves is expanded once.

Positions are told apart by the states themselves, not by :meth:`Game.key`: a table key may
merge positions that are only equivalent for search (tic-tac-toe's key merges a board with its
rotations and reflections), while a count reports positions as they are.

A game that can repeat positions forever never ends; count such a game with a depth limit.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from .game import Game
from .limits import check_depth

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True)
class DepthCount:
    """What the game looks like ``depth`` plies after the start."""

    depth: int
    """Plies played from the starting position."""

    sequences: int
    """Move sequences of exactly ``depth`` moves (the nodes of the game tree at this ply)."""

    positions: int
    """Distinct positions (distinct states) those sequences lead to."""

    ended: int
    """Sequences that end here: the game is over (or, for explicit trees, no move follows)."""

    first_wins: int
    """Of :attr:`ended`, games won by player 0."""

    second_wins: int
    """Of :attr:`ended`, games won by player 1."""

    draws: int
    """Of :attr:`ended`, drawn games."""

    def as_dict(self) -> dict[str, int]:
        """The counts as a JSON-ready dict."""
        return {
            "depth": self.depth,
            "sequences": self.sequences,
            "positions": self.positions,
            "ended": self.ended,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "draws": self.draws,
        }


@dataclass(frozen=True)
class CountResult:
    """The counts of every depth from the start to the end of the game or the depth limit."""

    depths: tuple[DepthCount, ...]
    """One entry per depth, from 0 (the starting position) on."""

    complete: bool
    """True if every sequence was followed to the end of the game."""

    positions: int
    """Distinct positions over all depths (a position reached at two depths counts once)."""

    seconds: float
    """Wall-clock time of the count."""

    @property
    def sequences(self) -> int:
        """All move sequences counted, of every length (the nodes of the game tree)."""
        return sum(entry.sequences for entry in self.depths)

    @property
    def games(self) -> int:
        """Sequences that end the game: the number of possible games when :attr:`complete`."""
        return sum(entry.ended for entry in self.depths)

    @property
    def first_wins(self) -> int:
        """Games won by player 0."""
        return sum(entry.first_wins for entry in self.depths)

    @property
    def second_wins(self) -> int:
        """Games won by player 1."""
        return sum(entry.second_wins for entry in self.depths)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(entry.draws for entry in self.depths)

    def as_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict: ``depths``, ``totals``, ``complete``, ``seconds``."""
        return {
            "complete": self.complete,
            "depths": [entry.as_dict() for entry in self.depths],
            "totals": {
                "sequences": self.sequences,
                "positions": self.positions,
                "games": self.games,
                "first_wins": self.first_wins,
                "second_wins": self.second_wins,
                "draws": self.draws,
            },
            "seconds": round(self.seconds, 6),
        }


MAX_POSITIONS = 4_000_000
"""The most distinct positions a count keeps (every one is remembered, to count it once):
roughly 1 GB for states of a few small tuples. A count that would need more stops with
:class:`CountTooLargeError` rather than take the machine's memory."""


class CountTooLargeError(ValueError):
    """A count would remember more distinct positions than it may."""


def count(game: Game[S, M], state: S | None = None, *, depth: int | None = None,
          max_positions: int = MAX_POSITIONS) -> CountResult:
    """Count sequences and positions from ``state`` (default: the start), ply by ply.

    ``depth`` stops after that many plies; ``None`` goes to the end of the game. Raises
    :class:`CountTooLargeError` once more than ``max_positions`` distinct positions are met.
    """
    check_depth(depth)
    started = time.perf_counter()
    root = game.initial_state() if state is None else state
    layer: dict[S, int] = {root: 1}
    seen: set[S] = set(layer)
    depths: list[DepthCount] = []
    ply = 0
    while layer:
        following: dict[S, int] = {}
        sequences = ended = first_wins = second_wins = draws = 0
        expand = depth is None or ply < depth
        for position, ways in layer.items():
            sequences += ways
            result = game.outcome(position)
            moves = game.moves(position) if result is None else ()
            if not moves:
                ended += ways
                if result is not None:
                    if result > 0:
                        first_wins += ways
                    elif result < 0:
                        second_wins += ways
                    else:
                        draws += ways
                continue
            if not expand:
                continue
            for move in moves:
                child = game.play(position, move)
                following[child] = following.get(child, 0) + ways
            if len(seen) + len(following) > max_positions:
                raise CountTooLargeError(
                    f"the count meets more than {max_positions:,} distinct positions by depth "
                    f"{ply + 1}, more than it keeps in memory: count to a smaller depth "
                    f"(--depth {ply})")
        depths.append(DepthCount(ply, sequences, len(layer), ended, first_wins, second_wins,
                                 draws))
        if not expand:
            complete = sequences == ended
            break
        seen.update(following)
        layer = following
        ply += 1
    else:
        complete = True
    return CountResult(tuple(depths), complete, len(seen), time.perf_counter() - started)
