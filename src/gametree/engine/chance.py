"""The engine's search of games with chance: expectiminimax with Star1 and Star2 pruning.

Expectiminimax (:mod:`gametree.reference.expectiminimax`) searches every outcome of every
chance node. Ballard (1983, "The *-minimax search procedure for trees containing chance
nodes") showed that a chance node can be cut off like a MAX or MIN node once the values are
known to lie within bounds ``[L, U]`` (:meth:`gametree.Game.value_bounds`):

* **Star1.** After some outcomes are searched, the chance node's value is at most the exact
  part so far plus ``U`` for every outcome still to come, and at least the same with ``L``. If
  that upper bound falls to alpha, or the lower bound reaches beta, the remaining outcomes
  cannot change the decision above. Each outcome is searched with the window that decides
  this: for outcome ``i`` of probability ``p``, ``A = (alpha - known - rest_U) / p`` and
  ``B = (beta - known - rest_L) / p``.
* **Star2.** Before searching any outcome fully, *probe* each one: search only the first move
  of the player who moves after it. One move of a player is a bound on that player's node (at
  least what they can get), which tightens ``[L, U]`` for that outcome; when the probes
  together already settle the chance node, it is cut off having searched one move per outcome.
  The full (Star1) pass that follows uses the probed bounds instead of ``L`` and ``U``.

Everything is in negamax form: a node's value is seen from the player whose turn it is
(:meth:`gametree.Game.turn`, so at a chance node from the player who rolls). Chance outcomes
use up no depth, and a chance node at the depth limit is valued by ``evaluate`` (as in the
reference and OpenSpiel). Values are expected utilities on the
game's scale, exact fractions where the probabilities are; a transposition table keeps
lower and upper bounds per position and depth, so that probes and re-searches are not paid
twice and no leaf is evaluated twice.

The engine (:class:`gametree.engine.Engine`) sends a game whose ``has_chance`` is true here.
"""

from __future__ import annotations

import math
import time as clock
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Literal, TypeVar

from ..game import CHANCE, Game, Probability, chance_line_result, checked_player
from ..result import MoveValue, SearchResult, SearchStats
from ..trace import Role, Tracer, leaf_kind
from ..values import Expected, break_tie, checked_heuristic, exact_fraction, for_player
from .search import SearchStopped

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)

ChancePruning = Literal["star2", "star1", "none"]
"""How the engine cuts at chance nodes: Star2 (probing, then Star1), Star1 alone, or not at
all (plain expectiminimax at chance nodes; alpha-beta still cuts at the players' nodes). The
same as :data:`gametree.options.ChancePruning`."""

UNLIMITED = 1 << 30
"""The depth left of a search without a depth limit, as the table stores it."""

INF = math.inf


@dataclass(slots=True)
class _Entry:
    """What the table knows of a position searched with ``depth`` left: its value lies in
    ``[lower, upper]``; ``move`` was the best move found (a player's node)."""

    depth: int
    lower: Expected
    upper: Expected
    move: Any


class ChanceSearch(Generic[S, M]):
    """One search of a game with chance (see the module's documentation).

    ``pruning`` chooses Star2, Star1 or none at chance nodes; ``table`` keeps positions
    (``False``: none, which may evaluate a leaf more than once); ``nodes`` and ``deadline``
    (a :func:`time.perf_counter` time) stop the search with :class:`SearchStopped`.
    """

    def __init__(self, game: Game[S, M], *, pruning: ChancePruning = "star2",
                 table: bool = True, tracer: Tracer[S, M] | None = None,
                 nodes: int | None = None, deadline: float | None = None) -> None:
        self.game = game
        self.pruning = pruning
        self.table: dict[Hashable, _Entry] | None = {} if table else None
        self.trace: Tracer[S, M] = tracer if tracer is not None else Tracer.off()
        self.stats = SearchStats()
        self.node_limit = nodes
        self.deadline = deadline
        self.cut = False
        """True once the depth limit stopped the search at a state that still had moves."""
        bounds = game.value_bounds()
        self._bounds: tuple[Expected, Expected] = (-INF, INF) if bounds is None else bounds
        self.root_player = 0

    # -- who moves, from whose side ----------------------------------------------------------

    def side(self, state: S) -> int:
        """The player a value of ``state`` is seen from: the one whose turn it is."""
        return self.game.turn(state)

    def bounds(self, side: int) -> tuple[Expected, Expected]:
        """``(L, U)``: the least and greatest value of any state, seen from ``side``."""
        low, high = self._bounds
        return (low, high) if side == 0 else (-high, -low)

    def role(self, state: S) -> Role:
        """The node's role in a trace: seen from the root's player."""
        player = checked_player(self.game, state)
        if player == CHANCE:
            return "CHANCE"
        return "MAX" if player == self.root_player else "MIN"

    def child(self, side: int, state: S, depth: int, alpha: Expected,
              beta: Expected, ply: int) -> Expected:
        """The value of ``state`` seen from ``side`` (a parent's), searched within
        (alpha, beta) of that side."""
        if self.side(state) == side:
            return self.value(state, depth, alpha, beta, ply)
        return -self.value(state, depth, -beta, -alpha, ply)

    # -- the search --------------------------------------------------------------------------

    def value(self, state: S, depth: int, alpha: Expected, beta: Expected,
              ply: int) -> Expected:
        """The value of ``state`` seen from :meth:`side`, fail-soft within (alpha, beta): a
        value at most alpha is an upper bound, one at least beta a lower bound."""
        stats = self.stats
        stats.nodes += 1
        if depth > UNLIMITED // 2:
            depth = UNLIMITED  # no depth limit: every entry of the table is to the end
        if self.node_limit is not None and stats.nodes > self.node_limit:
            raise SearchStopped("nodes")
        if self.deadline is not None and stats.nodes % 1024 == 0 and \
                clock.perf_counter() > self.deadline:
            raise SearchStopped("time")
        key = self.game.key(state)
        table = self.table
        entry = None if table is None else table.get(key)
        # Only an entry of the same depth (or one valued to the end) answers: a deeper one would
        # give another value than a search to this depth, which the reference must match.
        if entry is not None and (entry.depth == depth or entry.depth >= UNLIMITED) and (
                entry.lower == entry.upper or entry.lower >= beta or entry.upper <= alpha):
            stats.table_hits += 1
            found = entry.lower if entry.lower >= beta or entry.lower == entry.upper \
                else entry.upper
            self.trace.table(state, ply, self.role(state), float(found), float(alpha),
                             float(beta))
            return found
        game = self.game
        utility = game.outcome(state)
        if utility is not None:
            return self._leaf(state, key, ply, for_player(utility, self.side(state)), False)
        moves = game.moves(state)
        if depth == 0 or not moves:  # a chance node at the depth limit too (as OpenSpiel)
            if moves:
                self.cut = True
            estimate = checked_heuristic(game.evaluate(state))
            return self._leaf(state, key, ply, for_player(estimate, self.side(state)), True,
                              depth)
        if game.has_chance and game.to_move(state) == CHANCE:
            value = self.chance(state, depth, alpha, beta, ply)
            self._store(key, depth, value, alpha, beta, None)
            return value
        return self.player(state, key, moves, depth, alpha, beta, ply,
                           None if entry is None else entry.move)

    def _leaf(self, state: S, key: Hashable, ply: int, value: Expected, estimate: bool,
              depth: int = UNLIMITED) -> Expected:
        stats = self.stats
        stats.leaves += 1
        if estimate:
            stats.evaluations += 1
        if ply > stats.depth_reached:  # noqa: PLR1730 -- stores only when deeper
            stats.depth_reached = ply
        if self.trace.enabled:
            seen = value if self.side(state) == self.root_player else -value
            self.trace.leaf(state, ply, self.role(state), float(seen),
                            "heuristic" if estimate else leaf_kind(float(seen), 0))
        if self.table is not None:
            self.table[key] = _Entry(depth, value, value, None)
        return value

    def _store(self, key: Hashable, depth: int, value: Expected, alpha: Expected,
               beta: Expected, move: Any) -> None:
        table = self.table
        if table is None:
            return
        low, high = self._bounds_of(value, alpha, beta)
        entry = table.get(key)
        if entry is not None and entry.depth == depth:
            low, high = max(low, entry.lower), min(high, entry.upper)
            move = move if move is not None else entry.move
        elif entry is not None and entry.depth >= UNLIMITED:
            return  # valued to the end of the game: nothing knows more
        table[key] = _Entry(depth, low, high, move)
        self.stats.table_entries = len(table)

    def _bounds_of(self, value: Expected, alpha: Expected,
                   beta: Expected) -> tuple[Expected, Expected]:
        if value <= alpha:
            return -INF, value
        if value >= beta:
            return value, INF
        return value, value

    def player(self, state: S, key: Hashable, moves: Sequence[M], depth: int,
               alpha: Expected, beta: Expected, ply: int, hint: Any) -> Expected:
        """A player's node: fail-soft alpha-beta over the moves (the table's move first)."""
        game = self.game
        if hint is not None and hint in moves and moves[0] != hint:
            moves = [hint, *(move for move in moves if move != hint)]
        side = self.side(state)
        trace = self.trace
        tracing = trace.enabled
        role = self.role(state) if tracing else "MAX"
        if tracing:
            trace.enter(state, ply, role)
        low = alpha
        best: Expected = -INF
        best_move = None
        for index, move in enumerate(moves):
            if tracing:
                trace.try_move(state, ply, role, move)
            value = self.child(side, game.play(state, move), depth - 1, low, beta, ply + 1)
            if tracing:
                trace.scored(state, ply, role, move, self._seen(side, value))
            if value > best:
                best, best_move = value, move
            if value > low:  # noqa: PLR1730 -- a plain comparison is faster than max()
                low = value
            if low >= beta:
                if index + 1 < len(moves):
                    self.stats.cutoffs += 1
                    if tracing:
                        trace.pruned(state, ply, role, moves[index + 1:],
                                     *self._window(side, alpha, beta))
                break
        if tracing:
            trace.done(state, ply, role, self._seen(side, best), best_move)
        self._store(key, depth, best, alpha, beta, best_move)
        return best

    def chance(self, state: S, depth: int, alpha: Expected, beta: Expected,
               ply: int) -> Expected:
        """A chance node: Star2's probes, then Star1's pass (or plain expectiminimax)."""
        game = self.game
        side = self.side(state)
        outcomes = list(game.chance_outcomes(state))
        children = [game.play(state, outcome) for outcome, _ in outcomes]
        odds = [probability for _, probability in outcomes]
        low, high = self.bounds(side)
        trace = self.trace
        tracing = trace.enabled
        if tracing:
            trace.enter(state, ply, "CHANCE")
        if self.pruning == "none":
            return self._expectation(state, side, outcomes, children, depth, ply)
        lower: list[Expected] = [low] * len(outcomes)
        upper: list[Expected] = [high] * len(outcomes)
        if self.pruning == "star2" and low > -INF and high < INF:
            settled = self._probe(state, side, [o for o, _ in outcomes], children, odds, lower,
                                  upper, depth, alpha, beta, ply)
            if settled is not None:
                self._cut(state, ply, side, [o for o, _ in outcomes], alpha, beta)
                if tracing:
                    trace.done(state, ply, "CHANCE", self._seen(side, settled), None)
                return settled
        # What the outcomes after each one can add at least and at most (suffix sums).
        count = len(outcomes)
        after_low: list[Expected] = [0] * (count + 1)
        after_high: list[Expected] = [0] * (count + 1)
        for index in range(count - 1, -1, -1):
            after_low[index] = after_low[index + 1] + odds[index] * lower[index]
            after_high[index] = after_high[index + 1] + odds[index] * upper[index]
        known: Expected = 0
        for index, (outcome, probability) in enumerate(outcomes):
            rest_low, rest_high = after_low[index + 1], after_high[index + 1]
            fail_low = (alpha - known - rest_high) / probability
            fail_high = (beta - known - rest_low) / probability
            least, most = lower[index], upper[index]
            if tracing:
                trace.try_outcome(state, ply, outcome, probability)
            if most <= fail_low or least >= fail_high or least == most:
                # Settled by the bounds alone (probes found them): no search, and never a
                # search with an empty window, whose answer could not be read.
                value = most if most <= fail_low else least
            else:
                value = self.child(side, children[index], depth, max(fail_low, least),
                                   min(fail_high, most), ply + 1)
            if tracing:
                trace.outcome_scored(state, ply, outcome, probability, self._seen(side, value))
            if value <= fail_low:
                result = known + probability * value + rest_high
            elif value >= fail_high:
                result = known + probability * value + rest_low
            else:
                known += probability * value
                continue
            self._cut(state, ply, side, [o for o, _ in outcomes[index + 1:]], alpha, beta)
            if tracing:
                trace.done(state, ply, "CHANCE", self._seen(side, result), None)
            return result
        if tracing:
            trace.done(state, ply, "CHANCE", self._seen(side, known), None)
        return known

    def _expectation(self, state: S, side: int, outcomes: list[tuple[M, Probability]],
                     children: list[S], depth: int, ply: int) -> Expected:
        """No pruning at a chance node: every outcome's exact value, weighted."""
        low, high = self.bounds(side)
        trace = self.trace
        known: Expected = 0
        for (outcome, probability), child in zip(outcomes, children, strict=True):
            trace.try_outcome(state, ply, outcome, probability)
            value = self.child(side, child, depth, low, high, ply + 1) if low < high else low
            trace.outcome_scored(state, ply, outcome, probability, self._seen(side, value))
            known += probability * value
        trace.done(state, ply, "CHANCE", self._seen(side, known), None)
        return known

    def _probe(self, state: S, side: int, outcomes: list[M], children: list[S],
               odds: list[Probability],
               lower: list[Expected], upper: list[Expected], depth: int, alpha: Expected,
               beta: Expected, ply: int) -> Expected | None:
        """Star2's probing pass (finite bounds only): tighten each outcome's bounds by one move
        of the player who moves after it; the chance node's bound if that already cuts it
        off, else ``None``."""
        game = self.game
        trace = self.trace
        least = _weighted(odds, lower, 0)
        most = _weighted(odds, upper, 0)
        for index, child in enumerate(children):
            if least >= beta:
                return least
            if most <= alpha:
                return most
            if depth == 0 or game.outcome(child) is not None or \
                    (game.has_chance and game.to_move(child) == CHANCE):
                continue
            moves = game.moves(child)
            if not moves:
                continue
            probability = odds[index]
            mover = self.side(child)
            entry = None if self.table is None else self.table.get(game.key(child))
            first = entry.move if entry is not None and entry.move in moves else moves[0]
            low, high = self.bounds(mover)
            if mover == side:  # one move is at least its value: a lower bound
                wanted = (beta - (least - probability * lower[index])) / probability
            else:  # at most minus the opponent's value: an upper bound
                wanted = -(alpha - (most - probability * upper[index])) / probability
            threshold = min(wanted, high)
            if threshold <= low:
                continue  # (the sums above would have cut: kept for safety, never searched)
            if trace.enabled:
                trace.try_outcome(state, ply, outcomes[index], probability)
                trace.enter(child, ply + 1, self.role(child))
                trace.try_move(child, ply + 1, self.role(child), first)
            # (low, threshold): any answer is a lower bound for the mover on the child.
            found = self.child(mover, game.play(child, first), depth - 1, low, threshold,
                               ply + 2)
            if trace.enabled:
                trace.scored(child, ply + 1, self.role(child), first, self._seen(mover, found))
            if mover == side and found > lower[index]:
                least += probability * (found - lower[index])
                lower[index] = found
            elif mover != side and -found < upper[index]:
                most -= probability * (upper[index] + found)
                upper[index] = -found
        if least >= beta:
            return least
        if most <= alpha:
            return most
        return None

    def _cut(self, state: S, ply: int, side: int, skipped: list[M], alpha: Expected,
             beta: Expected) -> None:
        if skipped:
            self.stats.cutoffs += 1
            self.trace.pruned(state, ply, "CHANCE", skipped, *self._window(side, alpha, beta))

    def root_outcomes(self, root: S, depth: int, entries: list[MoveValue[M]]) -> Expected:
        """A chance root: every outcome's exact value (into ``entries``), and their
        expectation."""
        side = self.root_player
        low, high = self.bounds(side)
        expected: Expected = 0
        for outcome, probability in self.game.chance_outcomes(root):
            self.trace.try_outcome(root, 0, outcome, probability)
            value = low if low >= high else \
                self.child(side, self.game.play(root, outcome), depth, low, high, 1)
            entries.append(_entry(outcome, value, "exact"))
            expected += probability * value
            self.trace.outcome_scored(root, 0, outcome, probability, value)
        return expected

    def root_moves(self, root: S, moves: Sequence[M], depth: int, entries: list[MoveValue[M]],
                   *, full: bool) -> tuple[Expected, M]:
        """A player's root: each move's value (into ``entries``; exact for every move if
        ``full``, else an upper bound for a move that is no better than the best before it),
        the best value and move."""
        side = self.root_player
        low, high = self.bounds(side)
        best: Expected | None = None
        best_move = moves[0]
        for move in moves:
            self.trace.try_move(root, 0, "MAX", move)
            alpha = low if full or best is None else best
            if best is not None and alpha >= high:  # the greatest value there is: none beats it
                entries.append(_entry(move, high, "upper"))
                continue
            value = low if low >= high else \
                self.child(side, self.game.play(root, move), depth, alpha, high, 1)
            exact = full or best is None or value > alpha or value <= low
            entries.append(_entry(move, value, "exact" if exact else "upper"))
            if best is None or value > best:
                best, best_move = value, move
            self.trace.scored(root, 0, "MAX", move, value)
        assert best is not None
        return best, best_move

    def _window(self, side: int, alpha: Expected,
                beta: Expected) -> tuple[Expected, Expected]:
        """A window of ``side`` as the root's player sees it."""
        return (alpha, beta) if side == self.root_player else (-beta, -alpha)

    def _seen(self, side: int, value: Expected) -> Expected:
        """A value seen from ``side``, seen from the root's player (as traces show it)."""
        return value if side == self.root_player else -value


def _weighted(odds: Sequence[Probability], values: Sequence[Expected], start: int, *,
              skip: int | None = None) -> Expected:
    """The sum of ``odds[i] * values[i]`` from ``start`` (leaving out ``skip``); infinite
    values count without making ``0 * inf``."""
    total: Expected = 0
    for index in range(start, len(values)):
        if index != skip:
            total += odds[index] * values[index]
    return total


def search_chance(game: Game[S, M], root: S, *, depth: int | None = None,
                  pruning: ChancePruning = "star2", table: bool = True,
                  exact_root: bool = False, seed: int | None = None,
                  tracer: Tracer[S, M] | None = None, nodes: int | None = None,
                  deadline: float | None = None) -> SearchResult[M]:
    """Search ``root`` of a game with chance to ``depth`` player moves (``None``: to the end)
    and build the result: each root move's value (exact for the best, a bound for the others
    unless ``exact_root``), or at a chance root each outcome's exact value."""
    started = clock.perf_counter()
    search = ChanceSearch(game, pruning=pruning, table=table, tracer=tracer, nodes=nodes,
                          deadline=deadline)
    player = checked_player(game, root)
    chance_root = player == CHANCE
    search.root_player = game.turn(root) if chance_root else player
    left = UNLIMITED if depth is None else depth
    below = left if chance_root or left >= UNLIMITED else left - 1
    role: Role = "CHANCE" if chance_root else "MAX"
    moves = game.moves(root) if game.outcome(root) is None else []
    entries: list[MoveValue[M]] = []
    best: Expected
    best_move: M | None = None
    if not moves or left == 0:
        best = search.value(root, left, -INF, INF, 0)
    else:
        search.stats.nodes += 1
        search.trace.enter(root, 0, role)
        if chance_root:
            best = search.root_outcomes(root, below, entries)
        else:
            best, best_move = search.root_moves(root, moves, below, entries,
                                                full=exact_root or seed is not None)
            if seed is not None:
                tied = [entry.move for entry in entries if entry.expected == best]
                best_move = break_tie(tied, seed)
        search.trace.done(root, 0, role, best, best_move)
    search.stats.seconds = clock.perf_counter() - started
    if depth is not None:
        search.stats.depth_reached = depth
    pv = _line(search, root, best_move)
    exhaustive = search.stats.evaluations == 0
    result, plies = chance_line_result(game, root, pv) if exhaustive else (None, None)
    return SearchResult(
        best_move=best_move, value=float(best), moves=tuple(entries), pv=pv,
        stats=search.stats, algorithm="engine", depth=depth, by_distance=False,
        outcome=result, plies=plies, exhaustive=exhaustive, complete=not search.cut,
        chance=True, fraction=exact_fraction(best))


def _entry(move: M, value: Expected, bound: Literal["exact", "upper"]) -> MoveValue[M]:
    return MoveValue(move, float(value), bound,
                     fraction=exact_fraction(value))


def _line(search: ChanceSearch[S, M], root: S, first: M | None) -> tuple[M, ...]:
    """The principal variation: ``first``, then the table's best moves, up to a chance node,
    the end of the game or a position the table does not know."""
    if first is None:
        return ()
    game = search.game
    line = [first]
    state = game.play(root, first)
    seen = {game.key(root)}
    while search.table is not None and len(line) < 200:
        key = game.key(state)
        if key in seen or game.outcome(state) is not None or \
                (game.has_chance and game.to_move(state) == CHANCE):
            break
        seen.add(key)
        entry = search.table.get(key)
        if entry is None or entry.move is None or entry.lower != entry.upper:
            break
        line.append(entry.move)
        state = game.play(state, entry.move)
    return tuple(line)


def deepen_chance(game: Game[S, M], root: S, *, depth: int | None = None,
                  time: float | None = None, nodes: int | None = None,
                  pruning: ChancePruning = "star2", table: bool = True,
                  exact_root: bool = False, seed: int | None = None,
                  tracer: Tracer[S, M] | None = None,
                  iterative: bool = False) -> Iterator[SearchResult[M]]:
    """The engine's search of a game with chance: one search to ``depth`` (to the end when
    ``None``); or, with a ``time`` or ``nodes`` budget or ``iterative``, searches to depth 1,
    2, ... (player moves), each a result, until the budget runs out (the unfinished search is
    dropped), the ``depth`` is reached or a search saw every line to its end."""
    if time is None and nodes is None and not iterative:
        yield search_chance(game, root, depth=depth, pruning=pruning, table=table,
                            exact_root=exact_root, seed=seed, tracer=tracer)
        return
    started = clock.perf_counter()
    deadline = None if time is None else started + time
    spent = 0
    level = 1
    while depth is None or level <= depth:
        try:
            result = search_chance(game, root, depth=level, pruning=pruning, table=table,
                                   exact_root=exact_root, seed=seed, tracer=tracer,
                                   nodes=None if nodes is None else max(1, nodes - spent),
                                   deadline=deadline)
        except SearchStopped:
            if level == 1:  # a move is needed, however small the budget
                yield search_chance(game, root, depth=1, pruning=pruning, table=table,
                                    exact_root=exact_root, seed=seed, tracer=tracer)
            return
        spent += result.stats.nodes
        yield result
        if result.complete:
            return
        level += 1


def run_chance(game: Game[S, M], root: S, *, depth: int | None = None,
               time: float | None = None, nodes: int | None = None,
               pruning: ChancePruning = "star2", table: bool = True, exact_root: bool = False,
               seed: int | None = None, tracer: Tracer[S, M] | None = None) -> SearchResult[M]:
    """The last result of :func:`deepen_chance`, with the counters of all its searches and
    ``stopped_by`` set when a budget ended it."""
    started = clock.perf_counter()
    results = list(deepen_chance(game, root, depth=depth, time=time, nodes=nodes,
                                 pruning=pruning, table=table, exact_root=exact_root,
                                 seed=seed, tracer=tracer))
    last = results[-1]
    if len(results) == 1 and time is None and nodes is None:
        return last
    stats = replace(last.stats, nodes=sum(r.stats.nodes for r in results),
                    iterations=len(results), seconds=clock.perf_counter() - started)
    if not last.complete and (depth is None or (last.depth or 0) < depth):
        stats.stopped_by = "time" if time is not None and (
            nodes is None or stats.nodes < nodes) else "nodes"
    return replace(last, stats=stats)
