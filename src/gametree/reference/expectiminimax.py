"""Expectiminimax in the MAX/MIN/CHANCE form of the textbook (AIMA section 5.5).

Games of chance add CHANCE nodes to the tree: a die is rolled, a card drawn. A chance node is
worth the *expected* value of its outcomes, each outcome's value weighted by its probability;
MAX and MIN nodes are as in minimax::

    EXPECTIMINIMAX(s) = UTILITY(s)                                  if s is finished
                        max over moves a of EXPECTIMINIMAX(RESULT(s, a))   if MAX moves
                        min over moves a of EXPECTIMINIMAX(RESULT(s, a))   if MIN moves
                        sum over outcomes r of P(r) EXPECTIMINIMAX(RESULT(s, r))  if CHANCE

Values are expected utilities on the game's own scale, seen from the root's player (at a
chance root, the player whose turn it is: :meth:`gametree.Game.turn`). They stay exact
(:class:`fractions.Fraction`) where the probabilities are fractions and the utilities whole
numbers. Wins and losses are not scored by their distance: the average of a win in 3 and a
win in 5 is no "win in 4".

With ``depth`` set, the search stops after that many *moves* of the players and asks the
game's ``evaluate`` (at a chance node too, if one is met there); chance outcomes do not use up
depth. Both are OpenSpiel's ``expectiminimax`` conventions, so depth-limited values compare.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ..game import Game, chance_line_result
from ..result import MoveValue, SearchResult
from ..trace import Role, Tracer
from ..values import Expected, break_tie, exact_fraction
from ._base import NO_LINE, ReferenceSearch, deeper, first

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

ExpectedLine = tuple[Expected, tuple[Any, ...]]
"""An expected value and the line of moves that leads to it (it stops at a chance node: what
follows depends on the dice)."""


class _Expectiminimax(ReferenceSearch[S, M]):
    algorithm = "expectiminimax"
    chance = True

    def value(self, state: S, ply: int, depth: int | None) -> ExpectedLine:
        """The expected value of ``state`` for MAX, and the line that leads to it."""
        role = self.role(state)
        if role == "CHANCE":
            return self.chance_value(state, ply, depth)
        return self.player_value(state, ply, depth, role)

    def player_value(self, state: S, ply: int, depth: int | None, role: Role) -> ExpectedLine:
        """A MAX node takes its largest child, a MIN node its smallest (as in minimax)."""
        moves = self.expand(state, depth)
        if moves is None:
            return self.leaf_value(state, ply, self.root_player), NO_LINE
        self.trace.enter(state, ply, role)
        best: Expected | None = None
        best_line: tuple[Any, ...] = NO_LINE
        for move in moves:
            self.trace.try_move(state, ply, role, move)
            value, line = self.value(self.game.play(state, move), ply + 1, deeper(depth))
            if best is None or (value > best if role == "MAX" else value < best):
                best, best_line = value, (move, *line)
            self.trace.scored(state, ply, role, move, value)
        assert best is not None
        self.trace.done(state, ply, role, best, first(best_line))
        return best, best_line

    def chance_value(self, state: S, ply: int, depth: int | None) -> ExpectedLine:
        """A CHANCE node is worth the sum of its outcomes' values, each times its probability.
        Chance uses up no depth."""
        if self.expand(state, depth) is None:
            return self.leaf_value(state, ply, self.root_player), NO_LINE
        self.trace.enter(state, ply, "CHANCE")
        expected: Expected = 0
        for outcome, probability in self.game.chance_outcomes(state):
            self.trace.try_outcome(state, ply, outcome, probability)
            value, _line = self.value(self.game.play(state, outcome), ply + 1, depth)
            expected += probability * value
            self.trace.outcome_scored(state, ply, outcome, probability, value)
        self.trace.done(state, ply, "CHANCE", expected, None)
        return expected, NO_LINE


def expectiminimax(
    game: Game[S, M],
    state: S | None = None,
    *,
    depth: int | None = None,
    by_distance: bool = True,
    seed: int | None = None,
    tracer: Tracer[S, M] | None = None,
) -> SearchResult[M]:
    """Value ``state`` (default: the initial state) by expectiminimax and choose a move.

    Args:
        game: the rules, with or without chance (without, this is plain minimax on plain
            values).
        state: the root; the player to move there is MAX (at a chance root, the player whose
            turn it is). At a chance root no move is chosen: the result gives the expected
            value and each outcome's value.
        depth: look this many player moves ahead, then use ``game.evaluate``; chance outcomes
            do not count. ``None`` searches to the end of the game.
        by_distance: ignored: expected utilities are never scored by distance (accepted so
            that every reference algorithm takes the same options).
        seed: break ties between equally good root moves at random from this seed.
        tracer: receives every step of the search, chance nodes with each outcome's
            probability (see :mod:`gametree.trace`).

    The result's :attr:`~gametree.SearchResult.value` is a float, its
    :attr:`~gametree.SearchResult.fraction` the exact value where there is one; its
    ``outcome`` and ``plies`` are given only where the line found reaches the end of the game
    without a chance move.
    """
    root = game.initial_state() if state is None else state
    search = _Expectiminimax(game, root, depth=depth, by_distance=False, tracer=tracer)
    # Below a chance root the depth is still whole: chance uses up none.
    below = depth if search.role(root) == "CHANCE" else deeper(depth)

    def value_of_move(move: M) -> ExpectedLine:
        return search.value(game.play(root, move), 1, below)

    return expected_root(search, root, value_of_move, seed=seed)


def expected_root(search: ReferenceSearch[S, M], root: S,
                  value_of_move: Callable[[M], ExpectedLine], *,
                  seed: int | None) -> SearchResult[M]:
    """Value every root move (or, at a chance root, every outcome) with ``value_of_move`` and
    build the result of a search of a game with chance."""
    started = time.perf_counter()
    game = search.game
    role = search.role(root)
    moves = search.expand(root, search.depth)
    search.trace.enter(root, 0, role)
    entries: list[MoveValue[M]] = []
    lines: dict[M, tuple[Any, ...]] = {}
    best: Expected | None = None
    best_move: M | None = None
    if moves is None:
        best = search.leaf_value(root, 0, search.root_player)
    elif role == "CHANCE":
        best = 0
        for chance_move, probability in game.chance_outcomes(root):
            search.trace.try_outcome(root, 0, chance_move, probability)
            value, _line = value_of_move(chance_move)
            entries.append(_entry(chance_move, value))
            best += probability * value
            search.trace.outcome_scored(root, 0, chance_move, probability, value)
    else:
        for move in moves:
            search.trace.try_move(root, 0, role, move)
            value, line = value_of_move(move)
            entries.append(_entry(move, value))
            lines[move] = (move, *line)
            if best is None or value > best:
                best, best_move = value, move
            search.trace.scored(root, 0, role, move, value)
        if seed is not None:
            tied = [entry.move for entry in entries if entry.expected == best]
            best_move = break_tie(tied, seed)
    assert best is not None
    search.trace.done(root, 0, role, best, best_move)
    search.stats.seconds = time.perf_counter() - started
    if search.depth is not None:
        search.stats.depth_reached = search.depth
    pv = lines[best_move] if best_move is not None else ()
    exhaustive = search.stats.evaluations == 0
    result, plies = chance_line_result(game, root, pv) if exhaustive else (None, None)
    return SearchResult(
        best_move=best_move, value=float(best), moves=tuple(entries), pv=pv,
        stats=search.stats, algorithm=search.algorithm, depth=search.depth,
        by_distance=False, outcome=result, plies=plies, exhaustive=exhaustive,
        complete=not search.cut, chance=game.has_chance,
        fraction=exact_fraction(best))


def _entry(move: M, value: Expected) -> MoveValue[M]:
    return MoveValue(move, float(value),
                     fraction=exact_fraction(value))
