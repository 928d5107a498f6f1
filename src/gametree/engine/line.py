"""The principal variation: the line of best play, read back from the table after a search.

The search itself keeps no lines (building one at every node costs time); the table already
holds each position's best move. Each step of :func:`principal_variation` takes the stored
move and checks it: the child's value — a finished game, an estimate at the depth limit, or an
exact table entry — must equal the position's. Where the table cannot confirm a move (the
entry was replaced, or holds only a bound), a null-window search of each move finds one that
keeps the value. The line ends at the depth searched, at the end of the game, or where no move
can be confirmed (search instability in depth-limited searches can cause that).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from math import inf, nextafter
from typing import Any, TypeVar

from ..game import Game, check_line
from ..values import MAX_PLY, Value, for_player, terminal_value
from .search import Negamax, SearchStopped, estimate_of, key_function
from .table import BOUND_MASK, EXACT, TranspositionTable, from_table

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class _Reader:
    """What reading a line needs: the game, the table and the search (for confirmations)."""

    def __init__(self, game: Game[Any, Any], table: TranspositionTable | None,
                 negamax: Negamax, by_distance: bool) -> None:
        self.game = game
        self.table = table
        self.negamax = negamax
        self.by_distance = by_distance
        self.key_of = key_function(game)

    def probe(self, state: Any) -> Any:
        """The table entry of ``state``, or ``None``."""
        if self.table is None:
            return None
        key = state if self.key_of is None else self.key_of(state)
        return self.table.entries.get(key)

    def known_value(self, state: Any, mover: int, ply: int, left: int) -> Value | None:
        """The exact value of ``state`` for ``mover`` if it is known without searching."""
        utility = self.game.outcome(state)
        if utility is not None:
            return terminal_value(for_player(utility, mover), ply, by_distance=self.by_distance)
        if left <= 0:
            return for_player(estimate_of(self.game, state), mover)
        entry = self.probe(state)
        if entry is not None and entry[0] >= left and entry[1] & BOUND_MASK == EXACT:
            stored: Value = entry[2]
            return from_table(stored, ply) if self.by_distance else stored
        return None

    def step(self, state: Any, mover: int, legal: Sequence[Any], ply: int, left: int,
             target: Value) -> tuple[Any, Any, int, Value] | None:
        """The move of the line at ``state`` (worth ``target`` to ``mover``), if one confirms;
        with the child, its mover and its value for that mover."""
        game = self.game
        stored = self.probe(state)
        candidates = list(legal)
        if stored is not None and stored[3] in candidates:
            candidates.remove(stored[3])
            candidates.insert(0, stored[3])
        for move in candidates:
            child = game.play(state, move)
            child_mover = game.to_move(child)
            child_target = target if child_mover == mover else -target
            known = self.known_value(child, child_mover, ply + 1, left - 1)
            if known is not None:
                if known == child_target:
                    return move, child, child_mover, child_target
                continue
            # Does this move keep the value? A null window just below the target answers.
            below = nextafter(target, -inf)
            if child_mover == mover:
                found = self.negamax(child, child_mover, ply + 1, left - 1, below, target)
            else:
                found = -self.negamax(child, child_mover, ply + 1, left - 1, -target, -below)
            if found >= target:
                return move, child, child_mover, child_target
        return None


def principal_variation(game: Game[S, M], table: TranspositionTable | None, negamax: Negamax,
                        by_distance: bool, root: S, player: int, depth: int, best_move: M,
                        value: Value, after: S | None = None) -> tuple[M, ...]:
    """The line of best play from ``root`` (``player`` to move, worth ``value`` at ``depth``)
    starting with ``best_move`` (which leads to ``after``, when the caller has that state).
    A budget running out during a confirmation ends it early."""
    line = [best_move]
    state = game.play(root, best_move) if after is None else after
    if depth <= 1 or game.outcome(state) is not None:
        return (best_move,)  # the line ends with its first move: nothing to read or check
    reader = _Reader(game, table, negamax, by_distance)
    key_of = reader.key_of
    root_key, key = (root, state) if key_of is None else (key_of(root), key_of(state))
    if key == root_key:
        check_line(game, root, line)  # the move leads back to the root: the game never ends
    seen = {root_key, key}
    mover = game.to_move(state)
    target = value if mover == player else -value
    ply, left = 1, depth - 1
    try:
        while left > 0 and len(line) < MAX_PLY:
            if game.outcome(state) is not None:
                break
            legal = game.moves(state)
            if not legal:
                break
            step = reader.step(state, mover, legal, ply, left, target)
            if step is None:
                break
            move, state, mover, target = step
            key = state if key_of is None else key_of(state)
            if key in seen:  # a line that comes back to where it was: the game never ends
                check_line(game, root, [*line, move])
            seen.add(key)
            line.append(move)
            ply, left = ply + 1, left - 1
    except SearchStopped:
        pass
    return tuple(line)
