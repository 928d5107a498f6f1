"""The engine's search written plainly, reporting every step to a :class:`~gametree.Tracer`.

Same algorithm, same node order and same counters as the fast loop of
:mod:`gametree.engine.search` (the tests check it), but written as readable methods that emit
the reference algorithms' trace events — plus ``table`` when a position is valued from the
transposition table. The engine only uses it when a tracer is enabled, so an untraced search
pays nothing for tracing.

Values in events are seen from the player to move at each node, as in the reference negamax;
roles say ``MAX`` for the root player's nodes and ``MIN`` for the opponent's.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from math import inf, nextafter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..game import Game
from ..trace import Role, Tracer, leaf_kind
from ..values import WIN, Value, for_player, terminal_value
from .ordering import MoveOrder
from .search import COUNTERS, SearchStopped, estimate_of, key_function, noisy_function
from .table import (
    BOUND_MASK,
    COMPLETE,
    EXACT,
    HEURISTIC,
    LOWER,
    UPPER,
    TranspositionTable,
    answers,
    from_table,
    keeps_old,
    proven_bound,
    to_table,
)

if TYPE_CHECKING:
    from ..limits import StopSignal

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class TracedSearcher(Generic[S, M]):
    """The engine's negamax with trace events; the same interface as ``Searcher``."""

    def __init__(self, game: Game[S, M], table: TranspositionTable | None, order: MoveOrder[S, M],
                 *, by_distance: bool, pvs: bool, tracer: Tracer[S, M], root_player: int) -> None:
        self.game = game
        self.table = table
        self.order = order
        self.by_distance = by_distance
        self.pvs = pvs
        self.trace = tracer
        self.root_player = root_player
        self.key_of = key_function(game)
        self.noisy = noisy_function(game)
        self.count: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.stop: StopSignal | None = None
        self.solving = False
        """True for an exact solve (its probes take every complete entry: table.answers)."""

    # -- the interface the engine uses -------------------------------------------------------

    def counters(self) -> tuple[int, ...]:
        """The counters so far, in the order of :data:`~gametree.engine.search.COUNTERS`."""
        return tuple(self.count.values())

    def tally(self) -> tuple[int, int, int, int, int]:
        """``(nodes, hits, cuts, guesses, deepest)``, as :meth:`Searcher.tally` gives them."""
        count = self.count
        return count["nodes"], count["hits"], count["cuts"], count["guesses"], count["deepest"]

    def limit(self, max_nodes: int | None, until: float | None, stop: StopSignal | None,
              interval: int) -> None:
        """Stop after ``max_nodes`` nodes in all, at ``until`` (``time.perf_counter``), or once
        ``stop`` is set (checked at every node: ``interval`` is for the fast searcher)."""
        self.node_limit, self.deadline, self.stop = max_nodes, until, stop

    def count_root(self) -> None:
        """Count the root as a visited node."""
        self.visit()

    def role(self, player: int) -> Role:
        """``MAX`` for the root player, ``MIN`` for the other."""
        return "MAX" if player == self.root_player else "MIN"

    # -- the search --------------------------------------------------------------------------

    def negamax(self, state: S, player: int, ply: int, depth: int, alpha: Value,
                beta: Value) -> Value:
        """The value of ``state`` for ``player`` (to move there) within ``(alpha, beta)``."""
        count = self.count
        self.visit()
        role = self.role(player)
        utility = self.game.outcome(state)
        if utility is not None:
            return self.finished(state, ply, role, player, utility)
        if depth <= 0:
            count["cuts"] += 1
            if self.noisy is not None:
                return self.quiesce(state, player, ply, role, alpha, beta)
            return self.estimated(state, ply, role, player)
        key, entry, tt_move, known = self.probe(state, role, ply, depth, alpha, beta)
        if known is not None:
            return known
        legal = self.game.moves(state)
        if not legal:
            return self.estimated(state, ply, role, player)
        self.trace.enter(state, ply, role, alpha, beta)
        cuts_before, guesses_before = count["cuts"], count["guesses"]
        deepest_above, count["deepest"] = count["deepest"], ply  # this subtree's reach
        best, best_move = self.search_moves(state, legal, tt_move, player, role, ply, depth,
                                            alpha, beta)
        reach = count["deepest"]
        count["deepest"] = max(deepest_above, reach)
        if self.table is not None:
            self.store(key, entry, ply, depth, alpha, beta, best, best_move,
                       complete=count["cuts"] == cuts_before,
                       heuristic=count["guesses"] != guesses_before, height=reach - ply)
        self.trace.done(state, ply, role, best, best_move)
        return best

    def probe(self, state: S, role: Role, ply: int, depth: int, alpha: Value,
              beta: Value) -> tuple[Hashable, Any, M | None, Value | None]:
        """Look ``state`` up: its key, entry, stored move, and its value if the entry settles
        it (exact, or a bound outside the window, searched at least ``depth`` deep)."""
        if self.table is None:
            return None, None, None, None
        count = self.count
        key = state if self.key_of is None else self.key_of(state)
        count["probes"] += 1
        entry = self.table.entries.get(key)
        if entry is None:
            return key, None, None, None
        stored_depth, flags, stored, tt_move, _generation = entry
        if answers(stored_depth, depth, self.solving):
            value = from_table(stored, ply) if self.by_distance else stored
            bound = flags & BOUND_MASK
            if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                count["hits"] += 1
                height = stored_depth - COMPLETE if stored_depth >= COMPLETE else stored_depth
                count["deepest"] = max(count["deepest"], ply + height)
                if stored_depth < COMPLETE:
                    count["cuts"] += 1
                if flags & HEURISTIC:
                    count["guesses"] += 1
                self.trace.table(state, ply, role, value, alpha, beta)
                return key, entry, tt_move, value
        elif self.by_distance:
            proven = proven_bound(stored, flags, depth)
            if proven is not None:
                value = from_table(proven, ply)
                if value >= beta if value > 0 else value <= alpha:  # a proof, at any depth
                    count["hits"] += 1
                    count["deepest"] = max(count["deepest"], ply + int(WIN - abs(proven)))
                    self.trace.table(state, ply, role, value, alpha, beta)
                    return key, entry, tt_move, value
        return key, entry, tt_move, None

    def search_moves(self, state: S, legal: Sequence[M], tt_move: M | None, player: int,
                     role: Role, ply: int, depth: int, alpha: Value,
                     beta: Value) -> tuple[Value, M | None]:
        """Search the moves of ``state`` in order until one cuts off; the best value and move.

        The stored move (if legal) goes first, alone: only if it does not cut off are the
        other moves ordered (see :mod:`gametree.engine.ordering`)."""
        count = self.count
        if tt_move is not None and tt_move in legal:
            todo: Sequence[M] = (tt_move,)
            staged = True
        else:
            tt_move = None
            todo = self.order.order(state, legal, None, ply, player)
            staged = False
        best: Value = -inf
        best_move: M | None = None
        a = alpha
        first = full = True
        while True:
            for index, move in enumerate(todo):
                self.trace.try_move(state, ply, role, move)
                value = self.child_value(state, move, player, ply, depth, a, beta, full)
                if value > best:
                    best, best_move = value, move
                cut = False
                if value > a:
                    a = value
                    self.trace.alpha_raised(state, ply, role, a, beta)
                    cut = a >= beta
                self.trace.scored(state, ply, role, move, value, a, beta)
                if cut:
                    count["cutoffs"] += 1
                    if first:
                        count["first_cutoffs"] += 1
                    self.order.cutoff(move, tt_move, ply, player, depth)
                    rest = list(todo[index + 1:])
                    if staged:
                        rest += list(self.order.order(state, legal, tt_move, ply, player))
                    if rest:
                        self.trace.pruned(state, ply, role, rest, a, beta)
                    return best, best_move
                first = False
                full = not self.pvs or depth <= 1  # leaves below come back exact
            if not staged:
                return best, best_move
            staged = False
            todo = self.order.order(state, legal, tt_move, ply, player)

    def child_value(self, state: S, move: M, player: int, ply: int, depth: int, a: Value,
                    beta: Value, full: bool) -> Value:
        """The value for ``player`` of ``move``: a full-window search, or PVS's null window
        first and a full re-search only if the move turns out better than ``a``."""
        child = self.game.play(state, move)
        mover = self.game.to_move(child)

        def search(low: Value, high: Value) -> Value:
            if mover == player:
                return self.negamax(child, mover, ply + 1, depth - 1, low, high)
            return -self.negamax(child, mover, ply + 1, depth - 1, -high, -low)

        if full:
            return search(a, beta)
        value = search(a, nextafter(a, inf))
        if a < value < beta:
            self.count["researches"] += 1
            value = search(a, beta)
        return value

    # -- leaves and the table ----------------------------------------------------------------

    def visit(self) -> None:
        """Count a node; stop if a limit is reached."""
        count = self.count
        count["nodes"] += 1
        if self.node_limit is not None and count["nodes"] > self.node_limit:
            count["nodes"] -= 1
            raise SearchStopped("nodes")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            count["nodes"] -= 1
            raise SearchStopped("time")
        if self.stop is not None and self.stop.is_set():
            count["nodes"] -= 1
            raise SearchStopped("stop")

    def finished(self, state: S, ply: int, role: Role, player: int, utility: Value) -> Value:
        """The value of a finished game for ``player``."""
        self.count["leaves"] += 1
        self.count["deepest"] = max(self.count["deepest"], ply)
        value = terminal_value(for_player(utility, player), ply, by_distance=self.by_distance)
        self.trace.leaf(state, ply, role, value, leaf_kind(utility, self.root_player))
        return value

    def estimated(self, state: S, ply: int, role: Role, player: int) -> Value:
        """The heuristic value of ``state`` for ``player`` (depth limit or horizon)."""
        count = self.count
        count["leaves"] += 1
        count["evaluations"] += 1
        count["guesses"] += 1
        count["deepest"] = max(count["deepest"], ply)
        value = for_player(estimate_of(self.game, state), player)
        self.trace.leaf(state, ply, role, value, "heuristic")
        return value

    def quiesce(self, state: S, player: int, ply: int, role: Role, alpha: Value,
                beta: Value, *, horizon: bool = True) -> Value:
        """The quiescence search of a state at the depth limit (``horizon``) or below it, as
        the fast loop does it: stand pat on the estimate, or play a noisy move (the game's
        ``noisy_moves``) and search its child the same way."""
        assert self.noisy is not None
        count = self.count
        if horizon:
            return self._quiesce_horizon(state, player, ply, role, alpha, beta)
        count["evaluations"] += 1
        best = for_player(estimate_of(self.game, state), player)
        self.trace.leaf(state, ply, role, best, "heuristic")
        return self._noisy_moves(state, player, ply, role, alpha, beta, best)

    def _quiesce_horizon(self, state: S, player: int, ply: int, role: Role, alpha: Value,
                         beta: Value) -> Value:
        best = self.estimated(state, ply, role, player)
        return self._noisy_moves(state, player, ply, role, alpha, beta, best)

    def _noisy_moves(self, state: S, player: int, ply: int, role: Role, alpha: Value,
                     beta: Value, best: Value) -> Value:
        """Search the noisy moves after standing pat on ``best``; fail-soft."""
        assert self.noisy is not None
        if best >= beta:
            return best
        alpha = max(alpha, best)
        for move in self.noisy(state):
            self.trace.try_move(state, ply, role, move)
            child = self.game.play(state, move)
            mover = self.game.to_move(child)
            child_role = self.role(mover)
            self.visit()
            self.count["leaves"] += 1
            utility = self.game.outcome(child)
            if utility is not None:
                value = terminal_value(for_player(utility, player), ply + 1,
                                       by_distance=self.by_distance)
                self.trace.leaf(child, ply + 1, child_role,
                                value if mover == player else -value,
                                leaf_kind(utility, self.root_player))
            elif mover == player:
                value = self.quiesce(child, mover, ply + 1, child_role, alpha, beta,
                                     horizon=False)
            else:
                value = -self.quiesce(child, mover, ply + 1, child_role, -beta, -alpha,
                                      horizon=False)
            self.trace.scored(state, ply, role, move, value, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    if value >= beta:
                        break
                    alpha = value
        return best

    def store(self, key: Hashable, entry: Any, ply: int, depth: int, alpha: Value, beta: Value,
              best: Value, best_move: M | None, *, complete: bool, heuristic: bool,
              height: int) -> None:
        """Write a node's result into the table, by the table's replacement policy (a
        complete entry records the ``height`` its subtree's lines reach)."""
        assert self.table is not None
        flags = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        if heuristic:
            flags |= HEURISTIC
        stored_depth = COMPLETE + height if complete else depth
        value = to_table(best, ply) if self.by_distance else best
        table = self.table
        if entry is not None and keeps_old(entry, stored_depth, flags, table.generation):
            self.count["kept"] += 1
            return
        if len(table.entries) >= table.capacity and key not in table.entries:
            table.sweep()
        table.entries[key] = (stored_depth, flags, value, best_move, table.generation)
        self.count["stores"] += 1
